"""Synthetic photos of hands, with their labels, for tests and for tuning the reader.

>>> photo = render_hand(7, size=(640, 480))
>>> photo.image.shape, len(photo.tiles) == len(photo.boxes)
((480, 640, 3), True)

Seeded and deterministic. Each photo has ivory tiles with rounded corners and a bevel,
standard pip layouts 0..12 (black pips, or a colour per number; bigger pips on double-six
sets, smaller ones for 10-12), black or grey divider bars of varied length and thickness
(sometimes with a brass spinner), laid out scattered, in a row or in a touching block (the
whole hand in the frame), at any rotation,
on cloth, felt, wood or paper; then shadows, uneven light, specular glare, perspective,
lens blur, sensor noise and JPEG compression, more of each at a higher ``difficulty``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from cf.tiles import Tile

_G = (0.22, 0.5, 0.78)
_C = (0.5, 0.5)
_ROWS5 = (0.12, 0.31, 0.5, 0.69, 0.88)

#: Pip centres of each number in a unit half, (x across, y along the tile).
LAYOUTS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [_C],
    2: [(0.22, 0.22), (0.78, 0.78)],
    3: [(0.22, 0.22), _C, (0.78, 0.78)],
    4: [(x, y) for x in (0.22, 0.78) for y in (0.22, 0.78)],
    5: [(x, y) for x in (0.22, 0.78) for y in (0.22, 0.78)] + [_C],
    6: [(x, y) for x in (0.22, 0.78) for y in _G],
    7: [(x, y) for x in (0.22, 0.78) for y in _G] + [_C],
    8: [(x, y) for x in _G for y in _G if (x, y) != _C],
    9: [(x, y) for x in _G for y in _G],
    10: [(x, y) for x in (0.2, 0.8) for y in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.3), (0.5, 0.7)],
    11: [(x, y) for x in (0.2, 0.8) for y in (0.2, 0.4, 0.6, 0.8)]
    + [(0.5, 0.25), (0.5, 0.5), (0.5, 0.75)],
    12: [(x, y) for x in (0.2, 0.5, 0.8) for y in (0.2, 0.4, 0.6, 0.8)],
    # Double-fifteen sets: five rows.
    13: [(x, y) for x in (0.2, 0.8) for y in _ROWS5] + [(0.5, 0.25), (0.5, 0.5), (0.5, 0.75)],
    14: [(x, y) for x in (0.2, 0.8) for y in _ROWS5] + [(0.5, y) for y in (0.2, 0.4, 0.6, 0.8)],
    15: [(x, y) for x in (0.2, 0.5, 0.8) for y in _ROWS5],
}

#: A colour (BGR) per number, as colour-pip double-twelve sets have.
PIP_COLOURS = {
    1: (200, 140, 40),
    2: (40, 150, 40),
    3: (40, 40, 200),
    4: (60, 90, 120),
    5: (160, 60, 20),
    6: (20, 140, 230),
    7: (140, 40, 120),
    8: (170, 170, 30),
    9: (30, 60, 110),
    10: (120, 20, 60),
    11: (30, 30, 30),
    12: (130, 130, 130),
    13: (90, 160, 200),
    14: (200, 90, 160),
    15: (60, 200, 200),
}


@dataclass
class SynthPhoto:
    """A rendered photo and what is on it."""

    image: np.ndarray
    tiles: list[Tile]
    boxes: list[np.ndarray]  # 4x2 corners of each tile, image pixels
    top: int
    #: Each tile's numbers as drawn: the half at its box's corners 0-1, then at 2-3.
    halves: list[tuple[int, int]] = field(default_factory=list)
    #: Outlines of things that look like tiles and must not be read (face-down tiles,
    #: printed pictures of dominoes).
    distractors: list[np.ndarray] = field(default_factory=list)
    family: str = ""


def render_hand(
    seed: int,
    *,
    size: tuple[int, int] = (1024, 768),
    top: int | None = None,
    count: int | None = None,
    difficulty: int = 1,
    pip_style: str | None = None,
    layout: str | None = None,
) -> SynthPhoto:
    """Render one hand. ``size`` is (width, height); ``difficulty`` 0 (clean) to 2 (hard)."""
    rng = np.random.default_rng(seed)
    width, height = size
    top = top if top is not None else int(rng.choice([6, 9, 12]))
    count = count if count is not None else int(rng.integers(1, 13))
    pip_style = pip_style or str(rng.choice(["black", "colour"]))
    layout = layout or str(rng.choice(["scatter", "scatter", "row", "block"]))
    all_tiles = [Tile.of(a, b) for a in range(top + 1) for b in range(a + 1)]
    picks = rng.choice(len(all_tiles), size=min(count, len(all_tiles)), replace=False)
    tiles = [all_tiles[i] for i in picks]

    image = _background(rng, width, height)
    short = min(width, height)
    tile_w = short / rng.uniform(5.5, 8.0) / max(1.0, math.sqrt(len(tiles) / 6))
    centres, angles, tile_w = _place(rng, len(tiles), tile_w, width, height, layout)
    grey = rng.random() < 0.3
    style = {
        "ivory": np.array([rng.uniform(215, 240), rng.uniform(228, 248), rng.uniform(232, 252)]),
        "radius": rng.uniform(0.06, 0.14),
        # Double-six sets have big pips; bigger sets need room for 10-12.
        "pip": rng.uniform(0.08, 0.1) if top <= 6 else rng.uniform(0.07, 0.09),
        "spinner": rng.random() < 0.3,
        "divider": rng.uniform(0.55, 0.85),
        "bar": (rng.uniform(70, 120),) * 3 if grey else (25, 25, 25),
        "thick": rng.uniform(0.025, 0.05),
    }
    boxes = []
    kept = []
    drawn = []
    # Angled shots show each tile's edge on the side away from the camera.
    side = None
    if difficulty and rng.random() < 0.5:
        theta = rng.uniform(0, 2 * math.pi)
        side = np.array([math.cos(theta), math.sin(theta)]) * tile_w * rng.uniform(0.08, 0.18)
    for tile, centre, angle in zip(tiles, centres, angles, strict=True):
        if centre is None:
            continue
        flip = rng.random() < 0.5
        halves = (tile.low, tile.high) if flip else (tile.high, tile.low)
        sprite, alpha = _tile_sprite(rng, halves, tile_w, pip_style, style)
        box = _composite(image, sprite, alpha, centre, angle, tile_w, rng, difficulty, side)
        boxes.append(box)
        kept.append(tile)
        drawn.append(halves)

    image = _photograph(rng, image, boxes, difficulty)
    return SynthPhoto(image, kept, boxes, top, drawn)


def _background(
    rng: np.random.Generator, width: int, height: int, kind: str | None = None
) -> np.ndarray:
    kind = kind or str(rng.choice(["cloth", "felt", "wood", "paper", "card"]))
    base = {
        "cloth": (rng.uniform(20, 70),) * 3,
        "felt": (40, rng.uniform(80, 120), 40),
        "wood": (40, 90, 140),
        "paper": (rng.uniform(200, 235),) * 3,
        "card": (rng.uniform(100, 140),) * 3,
    }[kind]
    img = np.empty((height, width, 3), np.float32)
    img[:] = np.array(base, np.float32) * rng.uniform(0.85, 1.1, 3)
    small = rng.normal(0, 1, (max(2, height // 4), max(2, width // 4))).astype(np.float32)
    noise = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    if kind == "wood":
        grain = rng.normal(0, 1, (max(2, height // 2), 8)).astype(np.float32)
        noise = 3 * cv2.resize(grain, (width, height), interpolation=cv2.INTER_CUBIC)
    elif kind == "cloth":
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        period = rng.uniform(3, 8)
        noise += 1.5 * np.sin((xx + yy) * 2 * math.pi / period)
    amp = {"cloth": 8, "felt": 6, "wood": 10, "paper": 2, "card": 4}[kind]
    img += (noise * amp)[:, :, None]
    return img


def _place(
    rng: np.random.Generator, n: int, tile_w: float, width: int, height: int, layout: str
) -> tuple[list[np.ndarray | None], list[float], float]:
    gap = tile_w * rng.uniform(0.0, 0.04)
    base = rng.uniform(0, 360)
    if layout in ("row", "block"):
        cols = min(n, 6) if layout == "row" else math.ceil(math.sqrt(n * 2))
        rows_ = math.ceil(n / cols)
        cell = np.array([tile_w + gap, 2 * tile_w + gap])
        grid = [np.array([c, r]) for r in range(rows_) for c in range(cols)][:n]
        offset = (np.array([cols, rows_]) - 1) / 2
        theta = math.radians(base)  # as cv2.getRotationMatrix2D turns the tiles
        rot = np.array([[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]])
        centre = np.array([width / 2, height / 2])
        offsets = [rot @ ((g - offset) * cell) for g in grid]
        # The whole hand in the frame: smaller tiles when the row or block would not fit.
        corners = np.array([[-0.5, -1.0], [0.5, -1.0], [0.5, 1.0], [-0.5, 1.0]]) * tile_w
        reach = np.max([np.abs(o + corners @ rot.T).max(axis=0) for o in offsets], axis=0)
        fit = min(1.0, *(((np.array([width, height]) / 2 - 0.3 * tile_w) / reach).tolist()))
        pts: list[np.ndarray | None] = [centre + o * fit for o in offsets]
        return pts, [base] * n, tile_w * fit
    centres: list[np.ndarray | None] = []
    angles = []
    for _ in range(n):
        for _attempt in range(60):
            p = np.array(
                [
                    rng.uniform(1.2 * tile_w, width - 1.2 * tile_w),
                    rng.uniform(1.2 * tile_w, height - 1.2 * tile_w),
                ]
            )
            if all(q is None or np.linalg.norm(p - q) > 2.3 * tile_w for q in centres):
                break
        else:
            p = None  # no room: fewer tiles
        centres.append(p)
        angles.append(rng.uniform(0, 360))
    return centres, angles, tile_w


def rounded_alpha(w: int, h: int, radius: int) -> np.ndarray:
    """A ``w`` x ``h`` mask (0 or 255, anti-aliased at the corners) of a rectangle whose
    corners are rounded to ``radius`` pixels (none for 0): a tile's outline."""
    alpha = np.zeros((h, w), np.uint8)
    radius = max(0, int(radius))
    if radius == 0:
        alpha[:] = 255
        return alpha
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, cv2.FILLED)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, cv2.FILLED)
    for cx, cy in (
        (radius, radius),
        (w - 1 - radius, radius),
        (radius, h - 1 - radius),
        (w - 1 - radius, h - 1 - radius),
    ):
        cv2.circle(alpha, (cx, cy), radius, 255, cv2.FILLED, cv2.LINE_AA)
    return alpha


def _tile_sprite(
    rng: np.random.Generator,
    halves: tuple[int, int],
    tile_w: float,
    pip_style: str,
    style: dict,
) -> tuple[np.ndarray, np.ndarray]:
    w = max(16, round(tile_w))
    h = 2 * w
    alpha = rounded_alpha(w, h, max(2, round(style["radius"] * w)))
    dist = cv2.distanceTransform((alpha > 127).astype(np.uint8), cv2.DIST_L2, 3)
    bevel = np.clip(dist / (0.08 * w), 0, 1) ** 0.5
    face = np.empty((h, w, 3), np.float32)
    face[:] = style["ivory"]
    face *= (0.75 + 0.25 * bevel)[:, :, None]
    if style.get("face_down"):
        return face, alpha
    # The divider bar.
    dl = style["divider"] * w
    th = max(1, round(style["thick"] * w))
    cv2.rectangle(
        face,
        (round((w - dl) / 2), h // 2 - th),
        (round((w + dl) / 2), h // 2 + th),
        style["bar"],
        cv2.FILLED,
        cv2.LINE_AA,
    )
    if style["spinner"]:
        cv2.circle(
            face,
            (w // 2, h // 2),
            max(2, round(0.06 * w)),
            (60, 150, 190),
            cv2.FILLED,
            cv2.LINE_AA,
        )
    for part, number in enumerate(halves):
        r = style["pip"] * w * (0.68 if number > 9 else 1.0) * (0.85 if number > 12 else 1.0)
        if "pips" in style:
            colour = np.array(style["pips"][number], float)
        else:
            colour = np.array(
                (25, 25, 25) if pip_style == "black" else PIP_COLOURS.get(number, (0, 0, 0)),
                float,
            )
        for x0, y0 in LAYOUTS[number]:
            # Sets differ: a 2 or 3 on the other diagonal, a 6 in rows, not columns.
            x, y = (y0, x0) if style.get("swap") else (x0, y0)
            x = 1 - x if style.get("mirror") else x
            px = 0.1 * w + x * 0.8 * w
            py = (part * w) + 0.1 * w + y * 0.8 * w
            c = colour * rng.uniform(0.9, 1.05)
            cv2.circle(
                face,
                (round(px * 4), round(py * 4)),
                round(r * 4),
                c.tolist(),
                cv2.FILLED,
                cv2.LINE_AA,
                shift=2,
            )
            cv2.circle(
                face,
                (round((px - r * 0.3) * 4), round((py - r * 0.3) * 4)),
                max(1, round(r * 4 * 0.3)),
                np.clip(c + 40, 0, 255).tolist(),
                cv2.FILLED,
                cv2.LINE_AA,
                shift=2,
            )
    return face, alpha


def _composite(
    image: np.ndarray,
    sprite: np.ndarray,
    alpha: np.ndarray,
    centre: np.ndarray,
    angle: float,
    tile_w: float,
    rng: np.random.Generator,
    difficulty: int,
    side: np.ndarray | None = None,
    shadow_strength: float | None = None,
) -> np.ndarray:
    h, w = alpha.shape
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[:, 2] += centre - np.array([w / 2, h / 2])
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    box = corners @ matrix[:, :2].T + matrix[:, 2]
    x0, y0 = np.floor(box.min(axis=0)).astype(int) - 8
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + 8
    H, W = image.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if x1 <= x0 or y1 <= y0:
        return box
    m = matrix.copy()
    m[:, 2] -= (x0, y0)
    size = (x1 - x0, y1 - y0)
    a = cv2.warpAffine(alpha, m, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    s = cv2.warpAffine(sprite, m, size, flags=cv2.INTER_LINEAR)
    roi = image[y0:y1, x0:x1]
    # A soft shadow, offset away from the light.
    shift = np.array([[1, 0, 0.06 * tile_w], [0, 1, 0.08 * tile_w]], np.float32)
    shadow = cv2.warpAffine(a, shift, size)
    k = max(3, round(0.15 * tile_w)) | 1
    strength = rng.uniform(0.3, 0.6) if shadow_strength is None else shadow_strength
    shadow = cv2.GaussianBlur(shadow, (k, k), 0) * strength
    roi *= (1 - shadow)[:, :, None]
    if side is not None:
        # Seen a little from the side: the tile's edge shows as a darker band beyond it.
        move = np.array([[1, 0, side[0]], [0, 1, side[1]]], np.float32)
        edge = cv2.warpAffine(a, move, size) * (1 - a)
        tone = np.median(s[a > 0.9], axis=0) * 0.8 if (a > 0.9).any() else 180
        roi[:] = roi * (1 - edge[:, :, None]) + np.asarray(tone) * edge[:, :, None]
    roi[:] = roi * (1 - a[:, :, None]) + s * a[:, :, None]
    return box


def _photograph(
    rng: np.random.Generator, image: np.ndarray, boxes: list[np.ndarray], difficulty: int
) -> np.ndarray:
    h, w = image.shape[:2]
    # Uneven light: a broad gradient.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2) * 0.12 * (1 + difficulty)
    light = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    image *= light[:, :, None]
    # Specular glare.
    for _ in range(int(rng.integers(0, 1 + difficulty))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sigma = rng.uniform(0.02, 0.06) * min(w, h)
        glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2))
        image += (glare * rng.uniform(30, 90))[:, :, None]
    image = np.clip(image, 0, 255).astype(np.uint8)
    # Perspective: the camera a little off overhead.
    if difficulty:
        d = 0.04 * difficulty * min(w, h)
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        dst = src + rng.uniform(-d, d, (4, 2)).astype(np.float32)
        matrix = cv2.getPerspectiveTransform(src, dst)
        # The band the tilt leaves at the sides repeats the edge: a reflection mirrors the
        # tiles near it into the frame, cut by its edge, and no label marks them.
        image = cv2.warpPerspective(image, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)
        for i, box in enumerate(boxes):
            boxes[i] = cv2.perspectiveTransform(box.reshape(-1, 1, 2), matrix).reshape(-1, 2)
    sigma = rng.uniform(0.3, 0.8 + 0.5 * difficulty) * max(w, h) / 1000
    image = cv2.GaussianBlur(image, (0, 0), sigma)
    noise = rng.normal(0, 2 + 2 * difficulty, image.shape)
    image = np.clip(image + noise, 0, 255).astype(np.uint8)
    quality = int(rng.integers(95 - 25 * difficulty, 96))
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
    return image if decoded is None else np.asarray(decoded)
