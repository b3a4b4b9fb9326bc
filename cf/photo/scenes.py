"""Families of synthetic photos: the training set of the reader's networks, and its test.

>>> photo = render_family(3, "colour_body", size=(320, 240))
>>> photo.image.shape, len(photo.tiles) == len(photo.boxes) == len(photo.halves)
((240, 320, 3), True)

Each family is what one kind of real photo shows (:data:`FAMILIES`); ``mixed`` draws every
knob at random and is what the networks are trained on. The labels are the tiles, their
outlines (corners 0-1 at the first half's end) and the numbers of each half as drawn;
:mod:`cf.photo.labels` draws them as the nets' training targets. Seeded and
deterministic; :func:`cf.photo.synth.render_hand` is the older, plainer generator.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from cf.i18n import Message
from cf.photo.synth import PIP_COLOURS, SynthPhoto, _background, _composite, _place, _tile_sprite
from cf.tiles import Tile

#: The families, each one kind of real photo; ``mixed`` draws from all of them.
FAMILIES = (
    "ivory",  # black pips on ivory, cloth/felt/wood: the classic photo
    "colour_pips",  # one colour per number on white tiles
    "colour_body",  # pink, red, blue, green, black tiles with white or yellow pips
    "paper",  # yellowish tiles on light paper or a white table
    "block",  # tiles touching in blocks and end-to-end chains
    "small",  # small tiles in a large frame
    "single",  # one tile in a small image
    "glare",  # shiny plastic wrap, glare spots
    "exposure",  # over- and under-exposed, colour casts
    "busy",  # patterned rug, leather, dark wood, slate
    "distractors",  # face-down tiles and printed pictures of dominoes beside the hand
    "close",  # a close-up: one to six big tiles fill much of the frame, pips large
    "pile",  # loose piles: tiles lying partly on others, some mostly hidden
    "mixed",
)

# What one set looks like: (body BGR, pip scheme, bar BGR or None for "as the pips").
_BODIES = {
    "ivory": ((225, 240, 245), "black", (25, 25, 25)),
    "white": ((240, 242, 242), "colour", (30, 30, 30)),
    "cream": ((170, 215, 235), "black", (40, 40, 40)),
    "pink": ((170, 140, 235), "white", None),
    "red": ((50, 40, 190), "white", None),
    "blue": ((160, 90, 30), "white", None),
    "green": ((70, 140, 40), "white", None),
    "black": ((35, 35, 35), "white", None),
    "pink_yellow": ((180, 120, 230), "yellow", None),
    "marble": ((200, 210, 215), "colour", (60, 60, 60)),
}


def render_family(
    seed: int,
    family: str = "mixed",
    *,
    size: tuple[int, int] | None = None,
    top: int | None = None,
    count: int | None = None,
) -> SynthPhoto:
    """One synthetic photo of ``family`` (see :data:`FAMILIES`); ``size`` is (width, height)."""
    if family not in FAMILIES:
        raise ValueError(Message("unknown family {family!r}", family=family))
    rng = np.random.default_rng([seed, FAMILIES.index(family)])
    mixed = family == "mixed"
    if mixed:
        family = str(rng.choice(FAMILIES[:-1]))
        knobs = _knobs(rng, family, mixed=True)
    else:
        knobs = _knobs(rng, family, mixed=False)
    if size is None:
        size = knobs["size"]
    width, height = size
    top = top if top is not None else int(rng.choice([6, 9, 12, 12, 15]))
    if count is None:
        if knobs["layout"] == "single":
            count = 1
        elif knobs["close"]:
            count = int(rng.integers(1, 7))
        else:
            count = int(rng.integers(1, 16))
    all_tiles = [Tile.of(a, b) for a in range(top + 1) for b in range(a + 1)]
    picks = rng.choice(len(all_tiles), size=min(count, len(all_tiles)), replace=False)
    tiles = [all_tiles[i] for i in picks]

    image = _ground(rng, knobs["ground"], width, height)
    short = min(width, height)
    if knobs["layout"] == "single":
        tile_w = short / rng.uniform(3.0, 5.0)
    elif knobs["close"]:
        tile_w = short / rng.uniform(2.6, 4.5) / max(1.0, math.sqrt(len(tiles) / 2))
    elif knobs["small"]:
        tile_w = short / rng.uniform(16, 30)
    else:
        tile_w = short / rng.uniform(5.5, 9.0) / max(1.0, math.sqrt(len(tiles) / 6))
    n_down, n_printed = knobs["distractors"]
    layout = knobs["layout"]
    if layout == "chain":
        centres, angles, tile_w = _chain(rng, len(tiles), tile_w, width, height)
    elif layout == "pile":
        centres, angles = _pile(rng, len(tiles), tile_w, width, height)
    else:
        centres, angles, tile_w = _place(
            rng, len(tiles), tile_w, width, height, "scatter" if layout == "single" else layout
        )
    style = _style(rng, knobs["body"], top)
    # What only mixed photos (the training set) have, drawn from a stream of their own so
    # that the other families' photos stay as they were.
    extra = np.random.default_rng([seed, FAMILIES.index("mixed"), 1]) if mixed else None
    if extra is not None:
        style["mirror"], style["swap"] = bool(extra.random() < 0.5), bool(extra.random() < 0.3)
        if extra.random() < 0.12:
            _palm(extra, image, [c for c in centres if c is not None], tile_w)
    side = None
    if rng.random() < 0.4:
        theta = rng.uniform(0, 2 * math.pi)
        side = np.array([math.cos(theta), math.sin(theta)]) * tile_w * rng.uniform(0.05, 0.18)
    distractors = _distract(rng, image, n_down, n_printed, tile_w, centres, style)
    # Only in mixed photos: a printed picture of a domino as big as a tile where a tile of
    # the hand would lie (in its row or block), as game boards and boxes show them.
    # Drawn first, so that every tile lies over it (it is not a tile: what covers it is
    # labelled as ever, and no tile is under it).
    in_hand = -1
    if extra is not None and len(tiles) >= 2 and extra.random() < 0.15:
        in_hand = int(extra.integers(len(tiles)))
        spot = centres[in_hand]
        if spot is not None:
            wide = tile_w * extra.uniform(0.85, 1.05)
            distractors.append(_printed(extra, image, spot, wide, style, angles[in_hand]))
    boxes, kept, drawn = [], [], []
    for k, (tile, centre, angle) in enumerate(zip(tiles, centres, angles, strict=True)):
        if centre is None or k == in_hand:
            continue
        halves = (tile.low, tile.high) if rng.random() < 0.5 else (tile.high, tile.low)
        sprite, alpha = _tile_sprite(rng, halves, tile_w, "colour", style)
        box = _composite(image, sprite, alpha, centre, angle, tile_w, rng, 1, side)
        boxes.append(box)
        kept.append(tile)
        drawn.append(halves)
    # The face and the pip colours drawn, for the camera's exposure (_readable_gain).
    knobs["inks"] = (
        style["ivory"],
        [style["pips"][n] for n in {n for h in drawn for n in h if n}],
    )
    image, boxes, distractors = _camera(rng, image, boxes, distractors, knobs)
    if extra is not None and extra.random() < 0.15:
        image, boxes, distractors = _squeeze(extra, image, boxes, distractors)
    return SynthPhoto(image, kept, boxes, top, drawn, distractors, family)


def _palm(
    rng: np.random.Generator, image: np.ndarray, centres: list[np.ndarray], tile_w: float
) -> None:
    """A hand under the tiles (they lie in its palm): skin, light and smooth like a tile's
    face, but with no divider and no pips."""
    if not centres:
        return
    h, w = image.shape[:2]
    skin = np.array([rng.uniform(120, 200), rng.uniform(150, 210), rng.uniform(190, 245)])
    layer = np.zeros((h, w), np.float32)
    centre = centres[int(rng.integers(len(centres)))] + rng.normal(0, tile_w, 2)
    size = tile_w * rng.uniform(2.0, 3.5)
    angle = rng.uniform(0, 360)
    c = (round(float(centre[0])), round(float(centre[1])))
    cv2.ellipse(layer, c, (round(size), round(size * 0.8)), angle, 0, 360, 1.0, cv2.FILLED)
    for k in range(int(rng.integers(2, 6))):  # fingers and a thumb
        theta = math.radians(angle + rng.uniform(-70, 70) + (180 if k == 0 else 0))
        tip = centre + np.array([math.cos(theta), math.sin(theta)]) * size * rng.uniform(1.2, 1.7)
        end = (round(float(tip[0])), round(float(tip[1])))
        cv2.line(layer, c, end, 1.0, max(2, round(tile_w * rng.uniform(0.6, 0.9))))
    soft = np.asarray(cv2.GaussianBlur(layer, (0, 0), max(1.0, tile_w * 0.08)), np.float32)
    image *= (1 - soft)[:, :, None]
    image += soft[:, :, None] * skin.astype(np.float32)


def _squeeze(
    rng: np.random.Generator,
    image: np.ndarray,
    boxes: list[np.ndarray],
    distractors: list[np.ndarray],
) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """The photo squeezed along one side, as datasets resize photos to a square."""
    h, w = image.shape[:2]
    factor = rng.uniform(0.7, 0.95)
    sx, sy = (factor, 1.0) if rng.random() < 0.5 else (1.0, factor)
    matrix = np.array([[sx, 0, (1 - sx) * w / 2], [0, sy, (1 - sy) * h / 2]])
    # The band left at the sides repeats the edge (a reflection would mirror tiles into it,
    # which no label marks).
    image = cv2.warpAffine(image, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)

    def move(box: np.ndarray) -> np.ndarray:
        return np.asarray(box, np.float64) @ matrix[:, :2].T + matrix[:, 2]

    return image, [move(b) for b in boxes], [move(b) for b in distractors]


def _knobs(rng: np.random.Generator, family: str, mixed: bool) -> dict:
    """Every choice of one photo: the family's own, the rest mild (or random if mixed)."""

    def pick(options: list, mild):
        return options[int(rng.integers(len(options)))] if mixed else mild

    sizes = [(640, 480), (800, 600), (1024, 768), (480, 640), (1600, 1200)]
    knobs = {
        "size": sizes[int(rng.integers(len(sizes)))],
        # Most real sets are ivory or white; coloured bodies are fewer.
        "body": pick(
            [*_BODIES, *["ivory", "white", "cream"] * 3], str(rng.choice(["ivory", "white"]))
        ),
        "ground": pick(
            ["cloth", "felt", "wood", "card", "paper", "white", "leather", "rug", "slate"],
            str(rng.choice(["cloth", "felt", "wood", "card"])),
        ),
        "layout": pick(["scatter", "scatter", "row", "block", "chain", "pile"], "scatter"),
        "small": bool(rng.random() < 0.15) if mixed else False,
        # Close-ups are how most people photograph a hand.
        "close": bool(rng.random() < 0.3) if mixed else False,
        "glare": pick([0, 1, 2], int(rng.integers(0, 2))),
        "wrap": bool(rng.random() < 0.15) if mixed else False,
        "gain": pick([1.0, 1.0, 1.0, 1.6, 2.2, 0.5], 1.0),
        "cast": bool(rng.random() < 0.3) if mixed else False,
        "blur": rng.uniform(0.3, 2.0) if mixed else rng.uniform(0.3, 1.0),
        "noise": rng.uniform(1, 8) if mixed else rng.uniform(1, 3),
        "jpeg": int(rng.integers(40 if mixed else 70, 96)),
        "tilt": rng.uniform(0, 0.12) if mixed else rng.uniform(0, 0.05),
        "distractors": (0, 0),
    }
    if mixed and rng.random() < 0.2:
        knobs["distractors"] = (int(rng.integers(0, 3)), int(rng.integers(0, 4)))
    if family == "ivory":
        knobs["body"] = "ivory"
    elif family == "colour_pips":
        knobs["body"] = str(rng.choice(["white", "marble"]))
    elif family == "colour_body":
        knobs["body"] = str(rng.choice(["pink", "red", "blue", "green", "black", "pink_yellow"]))
        knobs["ground"] = str(rng.choice(["leather", "wood", "cloth", "rug", "white"]))
    elif family == "paper":
        knobs["body"] = str(rng.choice(["cream", "ivory"]))
        knobs["ground"] = str(rng.choice(["paper", "white"]))
        knobs["layout"] = str(rng.choice(["scatter", "row", "chain"]))
    elif family == "block":
        knobs["layout"] = str(rng.choice(["block", "chain", "row"]))
    elif family == "small":
        knobs["small"] = True
        knobs["size"] = sizes[int(rng.integers(2))] if mixed else (1600, 1200)
    elif family == "single":
        knobs["layout"] = "single"
        knobs["size"] = [(270, 360), (360, 270), (320, 320), (640, 480)][int(rng.integers(4))]
    elif family == "glare":
        knobs["glare"] = int(rng.integers(1, 4))
        knobs["wrap"] = bool(rng.random() < 0.6)
    elif family == "exposure":
        knobs["gain"] = float(rng.choice([0.45, 0.6, 1.7, 2.0, 2.4]))
        knobs["cast"] = True
    elif family == "busy":
        knobs["ground"] = str(rng.choice(["rug", "leather", "slate", "wood"]))
    elif family == "distractors":
        knobs["distractors"] = (int(rng.integers(1, 4)), int(rng.integers(1, 5)))
    elif family == "close":
        knobs["close"] = True
        knobs["layout"] = str(rng.choice(["scatter", "row", "block", "chain"]))
    elif family == "pile":
        knobs["layout"] = "pile"
    if knobs["small"]:
        knobs["close"] = False
    return knobs


def _style(rng: np.random.Generator, body: str, top: int) -> dict:
    colour, scheme, bar = _BODIES[body]
    tone = np.array(colour, float) * rng.uniform(0.9, 1.06, 3)
    if scheme == "black":
        pips = {n: (25, 25, 25) for n in range(16)}
    elif scheme == "colour":
        pips = {n: PIP_COLOURS.get(n, (0, 0, 0)) for n in range(16)}
    elif scheme == "white":
        pips = {n: (245, 245, 245) for n in range(16)}
    else:
        pips = {n: (40, 215, 235) for n in range(16)}
    return {
        "ivory": np.clip(tone, 0, 255),
        "radius": rng.uniform(0.05, 0.16),
        # Many real sets have big pips that fill the half, others small ones.
        "pip": (rng.uniform(0.075, 0.14) if top <= 6 else rng.uniform(0.055, 0.1)),
        "spinner": rng.random() < 0.25,
        "divider": rng.uniform(0.5, 0.9),
        "bar": bar if bar is not None else pips[1],
        "thick": rng.uniform(0.02, 0.05),
        "pips": pips,
    }


def _ground(rng: np.random.Generator, kind: str, width: int, height: int) -> np.ndarray:
    """The table: the plain generator's kinds, or white, leather, a patterned rug, slate."""
    if kind in ("cloth", "felt", "wood", "paper", "card"):
        return _background(rng, width, height, kind)
    img = np.empty((height, width, 3), np.float32)
    small = rng.normal(0, 1, (max(2, height // 6), max(2, width // 6))).astype(np.float32)
    noise = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    if kind == "white":
        img[:] = rng.uniform(225, 250)
        img += (noise * 1.5)[:, :, None]
    elif kind == "leather":
        img[:] = np.array([20, 25, 35], np.float32) * rng.uniform(0.6, 1.6)
        fine = rng.normal(0, 5, (height, width)).astype(np.float32)
        img += (cv2.GaussianBlur(fine, (0, 0), 1.2) * 2 + noise * 4)[:, :, None]
    elif kind == "slate":
        img[:] = rng.uniform(45, 90)
        img += (noise * 10)[:, :, None]
    else:  # a patterned rug: two or three colours in bands and motifs
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        colours = rng.uniform(30, 220, (3, 3))
        period = rng.uniform(0.03, 0.12) * min(width, height)
        a = np.sin(2 * math.pi * xx / period) * np.sin(2 * math.pi * yy / (period * 0.7))
        b = np.sin(2 * math.pi * (xx + yy) / (period * 2.3))
        img[:] = colours[0]
        img[a > 0.3] = colours[1]
        img[b > 0.6] = colours[2]
        img += (noise * 8)[:, :, None]
    return img


def _chain(
    rng: np.random.Generator, n: int, tile_w: float, width: int, height: int
) -> tuple[list[np.ndarray | None], list[float], float]:
    """Tiles end to end along a line (a train), the whole line in the frame."""
    angle = rng.uniform(0, 360)
    theta = math.radians(angle)
    along = np.array([math.sin(theta), math.cos(theta)])  # the tiles' long axis, as rotated
    step = 2 * tile_w * (1 + rng.uniform(0, 0.03))
    reach = (n * step + tile_w) / 2
    room = np.array([width, height]) / 2 - tile_w
    fit = min(1.0, *(room / np.maximum(np.abs(along) * reach, 1e-6)).tolist())
    centre = np.array([width / 2, height / 2])
    pts: list[np.ndarray | None] = [
        centre + along * (i - (n - 1) / 2) * step * fit for i in range(n)
    ]
    return pts, [angle] * n, tile_w * fit


def _pile(
    rng: np.random.Generator, n: int, tile_w: float, width: int, height: int
) -> tuple[list[np.ndarray | None], list[float]]:
    """A loose pile: tiles scattered, then some moved to lie partly on an earlier one (the
    tiles are drawn in order, so a later tile lies on top), covering from a corner to
    most of it."""
    centres, angles, _ = _place(rng, n, tile_w, width, height, "scatter")
    placed = [i for i, c in enumerate(centres) if c is not None]
    margin = np.array([1.2 * tile_w, 1.2 * tile_w])  # as _place keeps tiles in the frame
    for earlier, j in enumerate(placed[1:], start=1):
        if rng.random() < 0.4:
            continue
        i = placed[int(rng.integers(earlier))]
        centre = centres[i]
        assert centre is not None
        theta = math.radians(angles[i])
        # The earlier tile's axes as drawn: across (its short side) and along.
        across = np.array([math.cos(theta), -math.sin(theta)])
        along = np.array([math.sin(theta), math.cos(theta)])
        s, t = rng.uniform(-1.1, 1.1), rng.uniform(-2.0, 2.0)
        if abs(s) < 0.45 and abs(t) < 0.9:
            t = math.copysign(rng.uniform(0.9, 1.9), t)  # never right on top of it
        p = centre + (s * across + t * along) * tile_w
        centres[j] = np.clip(p, margin, np.array([width, height]) - margin)
        angles[j] = float(angles[i] + rng.choice([0.0, 90.0]) + rng.uniform(-35, 35))
    return centres, angles


def _distract(
    rng: np.random.Generator,
    image: np.ndarray,
    n_down: int,
    n_printed: int,
    tile_w: float,
    centres: list[np.ndarray | None],
    style: dict,
) -> list[np.ndarray]:
    """Face-down tiles and printed pictures of dominoes where the hand leaves room."""
    h, w = image.shape[:2]
    out = []
    for k in range(n_down + n_printed):
        printed = k >= n_down
        size = tile_w * (rng.uniform(0.4, 0.8) if printed else 1.0)
        if w <= 2 * size or h <= 4 * size:
            continue
        for _ in range(40):
            p = np.array([rng.uniform(size, w - size), rng.uniform(2 * size, h - 2 * size)])
            if all(q is None or np.linalg.norm(p - q) > 1.2 * (tile_w + size) for q in centres):
                break
        else:
            continue
        centres = [*centres, p]
        if printed:
            box = _printed(rng, image, p, size, style)
        else:
            down = dict(style, face_down=True)
            sprite, alpha = _tile_sprite(rng, (0, 0), size, "black", down)
            box = _composite(image, sprite, alpha, p, rng.uniform(0, 360), size, rng, 1)
        out.append(box)
    return out


def _printed(
    rng: np.random.Generator,
    image: np.ndarray,
    centre: np.ndarray,
    size: float,
    style: dict,
    angle: float | None = None,
) -> np.ndarray:
    """A printed picture of a domino ``size`` wide drawn on ``image`` at ``centre`` (turned
    ``angle``, or at random): outline, bar and pips in ink on paper, no bevel, no shadow.
    Its outline."""
    pic = dict(style)
    pic.update(
        ivory=np.array([235.0, 235.0, 235.0]),
        pips={n: (20, 20, 20) for n in range(16)},
        bar=(20, 20, 20),
        radius=0.02,
    )
    sprite, alpha = _tile_sprite(
        rng, (int(rng.integers(0, 7)), int(rng.integers(0, 7))), size, "black", pic
    )
    cv2.rectangle(sprite, (0, 0), (sprite.shape[1] - 1, sprite.shape[0] - 1), (20,) * 3, 2)
    turn = rng.uniform(0, 360) if angle is None else angle
    return _composite(image, sprite, alpha, centre, turn, size, rng, 0, None, 0.0)


#: Over-exposure may whiten a photo's face, never a half's pips out of sight: every pip
#: colour drawn stays at least this far from the face (the distance between the two B, G,
#: R colours; a grey 12 on a white or ivory face is 150 to 215 at a gain of 1) where the
#: light falls brightest on both (the lighting gradient: up to LIT times brighter). A
#: pip's shading and the photo's blur leave it paler than its colour, so the bound is well
#: above what the eye needs on a sharp pip.
SEEN, LIT = 100.0, 1.3


def _readable_gain(gain: float, inks: tuple | None, cast: np.ndarray | None) -> float:
    """``gain``, lowered (in steps of 0.05, never under 1) until every pip colour of
    ``inks`` (the face's colour, the pip colours drawn) stays :data:`SEEN` from the face
    once the camera has scaled both (by the light, up to :data:`LIT`, by ``gain`` and by
    the colour ``cast``) and clipped them. A grey pip (a 12 of a colour set) on a white
    face at a gain of 2.4 clips to the face's white: the photo shows a blank half where
    the label says 12, a "wrong" reading no reader could avoid, and a training label that
    teaches the halves net to see pips that are not there. Some sets never meet the
    bound (yellow pips on pink): their over-exposed photos drop to a gain of 1, or near."""
    if gain <= 1.0 or not inks:
        return gain
    face, colours = inks
    tint = np.ones(3) if cast is None else np.asarray(cast, np.float64)
    face = np.asarray(face, np.float64) * tint
    pips = [np.asarray(c, np.float64) * tint for c in colours]

    def seen(g: float) -> bool:
        return all(
            float(
                np.linalg.norm(np.minimum(255.0, c * g * lit) - np.minimum(255.0, face * g * lit))
            )
            >= SEEN
            for lit in (1.0, 0.5 * (1.0 + LIT), LIT)
            for c in pips
        )

    while gain > 1.0 and not seen(gain):
        gain = max(1.0, round(gain - 0.05, 2))
    return gain


def _camera(
    rng: np.random.Generator,
    image: np.ndarray,
    boxes: list[np.ndarray],
    distractors: list[np.ndarray],
    knobs: dict,
) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """Light, glare, plastic wrap, exposure, colour cast, perspective, blur, noise, JPEG."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.3, 0.3, 2)
    image *= (1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5))[:, :, None]
    for _ in range(knobs["glare"]):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sigma = rng.uniform(0.01, 0.06) * min(w, h)
        glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2))
        image += (glare * rng.uniform(60, 220))[:, :, None]
    if knobs["wrap"]:
        # Shiny plastic: a milky haze and crinkled streaks of highlight.
        haze = rng.uniform(0.05, 0.2)
        image = image * (1 - haze) + 235 * haze
        small = rng.normal(0, 1, (max(2, h // 40), max(2, w // 40))).astype(np.float32)
        field_ = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        streak = np.clip(1 - np.abs(field_) * rng.uniform(4, 9), 0, 1) ** 2
        image += (streak * rng.uniform(60, 160))[:, :, None]
    cast = rng.uniform(0.8, 1.2, 3).astype(np.float32) if knobs["cast"] else None
    image = image * _readable_gain(knobs["gain"], knobs.get("inks"), cast)
    if cast is not None:
        image *= cast
    image = np.clip(image, 0, 255).astype(np.uint8)
    if knobs["tilt"] > 0:
        d = knobs["tilt"] * min(w, h)
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        dst = src + rng.uniform(-d, d, (4, 2)).astype(np.float32)
        matrix = cv2.getPerspectiveTransform(src, dst)
        # The band the tilt leaves at the sides repeats the edge: a reflection mirrors the
        # tiles near it into the frame, cut by its edge, and no label marks them.
        image = cv2.warpPerspective(image, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)

        def move(box: np.ndarray) -> np.ndarray:
            return cv2.perspectiveTransform(box.reshape(-1, 1, 2), matrix).reshape(-1, 2)

        boxes = [move(b) for b in boxes]
        distractors = [move(b) for b in distractors]
    sigma = knobs["blur"] * max(w, h) / 1000
    image = cv2.GaussianBlur(image, (0, 0), max(0.3, sigma))
    noise = rng.normal(0, knobs["noise"], image.shape)
    image = np.clip(image + noise, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, knobs["jpeg"]])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    return (image if decoded is None else np.asarray(decoded)), boxes, distractors
