"""The photo reader's two small networks, run with OpenCV's own ``cv2.dnn`` (no new
dependency): where tiles are, and how many pips each half has.

Trained on synthetic photos only by :mod:`cf.photo.train`; the ONNX files are in
``cf/photo/models/`` (docs/photo.md has the model card).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cf.photo.across import divided, line_across
from cf.photo.outlines import TILE_ASPECT, shared_area
from cf.photo.specks import find_specks, table_distance
from cf.tiles import Tile

#: The files, in ``cf/photo/models/``.
TILE_NET = "tiles.onnx"
HALF_NET = "halves.onnx"

#: Long side, in pixels, of the image the tiles net sees (it was trained on parts of
#: photos 192 to 288 pixels a side, tiles of every size in them; at 512 touching tiles come
#: apart more often than at 384: bench/photo_nets.py).
SEG_SIZE = 512

#: Side, in pixels, of the upright half-tile the halves net reads.
HALF_SIDE = 32

#: The halves net's last class: not a half-tile at all (0..15 are pip counts).
NOT_A_HALF = 16

#: Why a tile of the nets' is unreadable when one of its halves is of that class.
NOT_A_HALF_TILE = "not a half-tile"


def prepare_photo(image: np.ndarray) -> np.ndarray:
    """A BGR uint8 photo (sides multiples of 8) as the tiles net's input, 1 x 3 x H x W:
    each channel less its mean, over the photo's spread."""
    x = image.astype(np.float32)
    x -= x.reshape(-1, 3).mean(axis=0)
    x /= float(x.std()) + 8.0
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None])


def prepare_halves(crops: Sequence[np.ndarray]) -> np.ndarray:
    """Upright half-tiles (BGR uint8, :data:`HALF_SIDE` square) as the halves net's input,
    N x 3 x S x S: each crop's channels less their means, over the crop's spread."""
    x = np.stack([np.asarray(c, np.float32) for c in crops]) if crops else np.zeros((0, 1, 1, 3))
    x = x - x.mean(axis=(1, 2), keepdims=True)
    x /= x.std(axis=(1, 2, 3), keepdims=True) + 4.0
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32)


#: Part of a tile's width left out of the tiles net's face class on each side (and half
#: that at each end): touching tiles come apart. As :data:`cf.photo.labels.RIM`.
RIM = 0.16

#: How much of a tile's width and length the tiles net's face region spans, as measured on
#: synthetic photos (the net's face runs past the rim it was taught: its labels were
#: pooled to its output's half size): the outline is the region grown by these. A
#: retrained tiles net scales them by what ``bench/photo_face.py`` measures for it over
#: what it measures for this one (0.865 across, 0.920 along, by its own measure).
FACE_ACROSS, FACE_ALONG = 0.916, 0.963

#: Where the model files are.
MODELS = Path(__file__).parent / "models"

_loaded: dict[str, Any] = {}


def available() -> bool:
    """Whether both model files are there (a source checkout without them reads classically)."""
    return (MODELS / TILE_NET).is_file() and (MODELS / HALF_NET).is_file()


def _net(name: str) -> Any:
    import cv2

    if name not in _loaded:
        _loaded[name] = cv2.dnn.readNetFromONNX(str(MODELS / name))
    return _loaded[name]


def run(name: str, x: np.ndarray) -> np.ndarray:
    """The output of model ``name`` (a file in :data:`MODELS`) on input ``x``."""
    net = _net(name)
    net.setInput(x)
    return np.asarray(net.forward())


def upright(image: np.ndarray, box: np.ndarray, width: int) -> np.ndarray:
    """The tile in ``box`` (4 x 2 corners, the first half's end first) warped upright,
    ``width`` x 2 ``width`` BGR pixels; big tiles are shrunk first, so no detail aliases."""
    import cv2

    box = np.asarray(box, np.float64)
    tile_w = float(np.linalg.norm(box[1] - box[0]))
    factor = min(1.0, 1.5 * width / max(tile_w, 1.0))
    if factor < 1.0:
        h, w = image.shape[:2]
        x0, y0 = np.maximum(np.floor(box.min(axis=0)).astype(int) - 2, 0)
        x1, y1 = np.ceil(box.max(axis=0)).astype(int) + 2
        x1, y1 = min(int(x1), w), min(int(y1), h)
        if x1 - x0 >= 2 and y1 - y0 >= 2:
            roi = image[y0:y1, x0:x1]
            size = (max(1, round((x1 - x0) * factor)), max(1, round((y1 - y0) * factor)))
            image = cv2.resize(roi, size, interpolation=cv2.INTER_AREA)
            box = (box - (x0, y0)) * (size[0] / (x1 - x0), size[1] / (y1 - y0))
    dst = np.array([[0, 0], [width, 0], [width, 2 * width], [0, 2 * width]], np.float32)
    matrix = cv2.getPerspectiveTransform(box.astype(np.float32), dst)
    return cv2.warpPerspective(
        image, matrix, (width, 2 * width), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


@dataclass(frozen=True)
class Found:
    """One thing the nets found: its outline (4 x 2, image pixels), the tile read (None if
    unreadable), how sure (0..1), other likely tiles, why in doubt, and (``pips``) the
    count a half most likely shows when that is more than the set has."""

    corners: np.ndarray
    tile: Tile | None
    confidence: float
    candidates: list[Tile]
    reason: str = ""
    pips: int = 0


#: The reasons :func:`tile_outlines` gives for a face region it does not take as a tile.
NOT_ONE_TILE = "face seen, but not the shape of one tile"
NO_DIVIDER = "a tile whose divider was not found"
BLANK_OR_BACK = "a double blank with a faint divider, or the back of a tile?"
SPECK_SEEN = "a speck of face apart from the tiles (a glint, a crumb?)"


@dataclass(frozen=True)
class Seen:
    """What the tiles net sees in a photo: its class probabilities (3 x h x w: background,
    tile face, divider), at half the size it reads, and the factor from those pixels to
    the photo's (x, y)."""

    probs: np.ndarray
    to_image: np.ndarray


def seen(image: np.ndarray, smaller: np.ndarray | None = None) -> Seen:
    """The tiles net's view of a BGR photo, its long side scaled to :data:`SEG_SIZE`.
    ``smaller``: a copy of the photo scaled down to at least that size, to scale from
    (:func:`cf.photo.reader.reduced`), when the caller has one."""
    import cv2

    h, w = image.shape[:2]
    scale = SEG_SIZE / max(h, w)
    sw, sh = max(32, round(w * scale / 32) * 32), max(32, round(h * scale / 32) * 32)
    base = image if smaller is None or max(smaller.shape[:2]) < max(sw, sh) else smaller
    small = cv2.resize(base, (sw, sh), interpolation=cv2.INTER_AREA)
    probs = run(TILE_NET, prepare_photo(small))[0]
    return Seen(probs, np.array([w / (sw / 2), h / (sh / 2)]))


def _in_view(view: Seen, boxes: list[np.ndarray]) -> np.ndarray:
    """Where the outlines ``boxes`` (each N x 2 photo pixels) lie in the tiles net's view,
    as a boolean map of its size (an outline of fewer than three points covers nothing)."""
    import cv2

    inside = np.zeros(view.probs.shape[1:], np.uint8)
    for box in boxes:
        if len(box) >= 3:
            pts = np.round(np.asarray(box, np.float64) / view.to_image).astype(np.int32)
            cv2.fillConvexPoly(inside, pts, 1)
    return inside > 0


def face_share(view: Seen, box: np.ndarray) -> float:
    """The part of the outline ``box`` (N x 2 photo pixels) the tiles net sees as tile face
    or divider; 1 (all face: never taken for bare table) for an outline that covers no
    pixel of its view (no area, outside the photo)."""
    inside = _in_view(view, [box])
    n = int(inside.sum())
    return float((view.probs[0][inside] < 0.5).sum()) / n if n else 1.0


def face_left(view: Seen, box: np.ndarray, others: list[np.ndarray]) -> float:
    """The area, in photo pixels, the tiles net sees as tile face or divider in the outline
    ``box`` outside the outlines ``others`` (each N x 2 photo pixels)."""
    left = (view.probs[0] < 0.5) & _in_view(view, [box]) & ~_in_view(view, others)
    return int(left.sum()) * float(view.to_image[0] * view.to_image[1])


def tile_outlines(
    image: np.ndarray, view: Seen | None = None
) -> tuple[list[np.ndarray], list[tuple[np.ndarray, str]]]:
    """Where the tiles net sees tiles in a BGR photo: outlines of single tiles (4 x 2
    corners in image pixels, the short side first), and outlines of face regions it does
    not take as one tile, each with the reason: not one tile's shape (tiles run together, a
    part of a tile), no divider across its middle (every face-up tile has one: a blank
    face is the back of a tile or a piece of card), or a speck
    (:data:`cf.photo.specks.SPECK`). ``view``: :func:`seen` of the photo, when the caller
    has it."""
    import cv2

    view = view or seen(image)
    face = (view.probs[0] < 0.5).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(face, connectivity=4)
    tiles: list[np.ndarray] = []
    odd: list[tuple[np.ndarray, str]] = []
    tile_areas: list[int] = []  # the face of each region taken as one tile, whole
    lone: list[tuple[int, int]] = []  # (place in odd, component) of whole odd regions
    for index in range(1, count):
        if stats[index, cv2.CC_STAT_AREA] < 6:
            continue
        x, y, bw, bh = stats[index, :4]
        mask = (labels[y : y + bh, x : x + bw] == index).astype(np.uint8)
        found = [_region(mask, (x, y), view)]
        if found[0][1] == "":
            tile_areas.append(int(stats[index, cv2.CC_STAT_AREA]))
        if found[0][1] == NOT_ONE_TILE:
            # Tiles run together: kept apart where a stricter bound splits them into at
            # least one tile (the other parts stay doubts).
            background = view.probs[0][y : y + bh, x : x + bw]
            parts = [_region(m, (x, y), view) for m in _split(mask, background)]
            if any(kind == "" for _, kind in parts):
                # A part too small to tell stays a doubt: nothing is left out.
                found = [(c, NOT_ONE_TILE if kind is None else kind) for c, kind in parts]
        if len(found) == 1 and found[0][1]:  # kept whole, not a tile: a speck maybe
            lone.append((len(odd), index))
        for corners, kind in found:
            if kind == "":
                tiles.append(corners)
            elif kind is not None:
                odd.append((corners, kind))
    specks = find_specks(
        labels, stats, [i for _, i in lone], tile_areas, table_distance(image, view)
    )
    for n, index in lone:
        if index in specks:
            odd[n] = (odd[n][0], SPECK_SEEN)
    return tiles, odd


#: Stricter bounds on the background probability that split a face region of no tile's
#: shape into tiles run together (the rim between touching tiles is less sure background
#: than the table), loosest first.
SPLIT_LEVELS = (0.25, 0.1, 0.03)


def _split(mask: np.ndarray, background: np.ndarray) -> list[np.ndarray]:
    """A face region (a 0/1 mask) of no tile's shape cut into the parts that a stricter
    bound on the background probability separates (:data:`SPLIT_LEVELS`: at least two
    seeds of 6 pixels or more), each grown back over the region by a watershed on the
    probability; every pixel of the region is in one part. [] if no bound splits it."""
    import cv2

    for level in SPLIT_LEVELS:
        strict = ((background < level) & (mask > 0)).astype(np.uint8)
        count, seeds = cv2.connectedComponents(strict, connectivity=4)
        sizes = np.bincount(seeds.ravel(), minlength=count)
        big = [k for k in range(1, count) if sizes[k] >= 6]
        if len(big) < 2:
            continue
        # Seeds renumbered 1..n, the smaller ones flooded by the others (the parts are cut
        # to the region after). A one-pixel border keeps the watershed's frame, which it
        # marks as a line, off the region.
        markers = np.zeros((mask.shape[0] + 2, mask.shape[1] + 2), np.int32)
        inner = markers[1:-1, 1:-1]
        for n, k in enumerate(big, start=1):
            inner[seeds == k] = n
        grey = np.clip(background * 255, 0, 255).astype(np.uint8)
        grey = cv2.copyMakeBorder(grey, 1, 1, 1, 1, cv2.BORDER_REPLICATE)
        cv2.watershed(cv2.merge([grey, grey, grey]), markers)
        parts = np.where(mask > 0, np.maximum(markers[1:-1, 1:-1], 0), 0)
        # The watershed's lines between parts (-1) go to a neighbouring part.
        left = (mask > 0) & (parts == 0)
        while left.any():
            grown = cv2.dilate(parts.astype(np.uint16), np.ones((3, 3), np.uint8))
            parts[left] = grown[left]
            now = (mask > 0) & (parts == 0)
            if now.sum() == left.sum():
                break
            left = now
        return [(parts == n).astype(np.uint8) for n in range(1, len(big) + 1)]
    return []


def _region(
    mask: np.ndarray, origin: tuple[int, int], view: Seen
) -> tuple[np.ndarray, str | None]:
    """The outline (4 x 2 image pixels, the short side first) of one face region (a 0/1
    mask whose top left is ``origin`` in the net's output) and what it is: "" a tile,
    :data:`NO_DIVIDER`, :data:`NOT_ONE_TILE`, or None (too small to tell)."""
    import cv2

    x, y = origin
    area = int(mask.sum())
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return np.zeros((4, 2)), None
    points = np.vstack(contours).reshape(-1, 2).astype(np.float32) + np.array([x, y], np.float32)
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
    rw, rh = rw + 1, rh + 1  # pixel centres to pixel edges
    long_, short = max(rw, rh), min(rw, rh)
    theta = np.radians(angle if rw >= rh else angle + 90)
    v = np.array([np.cos(theta), np.sin(theta)])  # along the tile
    u = np.array([v[1], -v[0]])  # across, as the training crops have it (no mirror)
    tile_w = short / FACE_ACROSS
    length = long_ / FACE_ALONG
    centre = np.array([cx, cy])
    corners = (
        np.array(
            [
                centre - u * tile_w / 2 - v * length / 2,
                centre + u * tile_w / 2 - v * length / 2,
                centre + u * tile_w / 2 + v * length / 2,
                centre - u * tile_w / 2 + v * length / 2,
            ]
        )
        * view.to_image
    )
    ratio = length / tile_w
    fill = area / (rw * rh)
    if area < 6:
        return corners, None
    if TILE_ASPECT[0] <= ratio <= TILE_ASPECT[1] and fill >= 0.7 and short >= 2:
        # The divider class somewhere in the middle third of the tile's length.
        ys, xs = np.nonzero(mask)
        inside = np.stack([xs + x, ys + y], axis=1)
        along = (inside - centre) @ v
        middle = inside[np.abs(along) <= long_ / 6]
        divider = (view.probs[2][middle[:, 1], middle[:, 0]] > 0.5).any()
        return corners, "" if divider else NO_DIVIDER
    return corners, NOT_ONE_TILE if area >= 20 else None


def read_halves(crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The halves net's probabilities (N x 17) for upright half-tiles, each read as it is
    and turned half a turn (every pip layout looks the same both ways): the mean of both,
    and the largest difference between the two (N,)."""
    import cv2

    if not crops:
        return np.zeros((0, NOT_A_HALF + 1)), np.zeros(0)
    both = [*crops, *(cv2.rotate(c, cv2.ROTATE_180) for c in crops)]
    probs = run(HALF_NET, prepare_halves(both))
    n = len(crops)
    return (probs[:n] + probs[n:]) / 2, np.abs(probs[:n] - probs[n:]).max(axis=1)


def read_tiles(image: np.ndarray, top: int, view: Seen | None = None) -> list[Found]:
    """Find and read every face-up tile of a BGR photo with the two nets, the game's rules
    checked on top: at most ``top`` pips a half, each tile once a hand, a half reads the
    same both ways up; a tile's shape the tiles net saw no divider in is read only where
    :func:`divided` measures one. ``view``: :func:`seen` of the photo, when the caller has
    it."""
    import cv2

    tiles, odd = tile_outlines(image, view)
    # A tile's shape whose divider the net did not see is read too when it stands apart
    # and a divider is measured across its middle (the net misses faint dividers, on
    # coloured bodies and small tiles most): then pips on it make it a face-up tile. Two
    # readers agreeing there is a divider, not pips alone: a card or a decorated back can
    # carry marks like pips, and between touching tiles a tile's shape can span the seam
    # of two, half of each, the seam across its middle. A double blank stays a doubt (it
    # looks like the back of a tile).
    outlines = [*tiles, *(c for c, _ in odd)]
    faint = [
        c
        for c, why in odd
        if why == NO_DIVIDER
        and _apart(c, [o for o in outlines if o is not c])
        and divided(image, c)
    ]
    # A tile's shape with no divider seen and no pips is the back of a tile, or a double
    # blank whose divider is faint: where a line runs across its middle, a doubt (0-0?).
    # It need not stand apart: between touching tiles such a shape (blank halves of two,
    # the seam across it) lies on tiles read, where no reading counts it.
    lined = [
        c
        for c, why in odd
        if why == NO_DIVIDER and not any(c is f for f in faint) and line_across(image, c)
    ]
    found = [
        Found(c, None, 0.0, [], why) for c, why in odd if not any(c is f for f in [*faint, *lined])
    ]
    crops = []
    for corners in [*tiles, *faint, *lined]:
        tile_img = upright(image, corners, HALF_SIDE)
        crops += [tile_img[:HALF_SIDE], cv2.rotate(tile_img[HALF_SIDE:], cv2.ROTATE_180)]
    probs, unsure = read_halves(crops)
    for i, corners in enumerate([*faint, *lined], start=len(tiles)):
        pair = probs[2 * i : 2 * i + 2], unsure[2 * i : 2 * i + 2]
        one = _tile(corners, *pair, top) if i < len(tiles) + len(faint) else None
        if (
            one is not None
            and one.tile is not None
            and one.tile.high > 0
            and one.confidence >= FAINT_CONFIDENCE
        ):
            found.append(one)
        elif _blank(*pair, top):
            found.append(Found(corners, None, 0.0, [Tile.of(0, 0)], BLANK_OR_BACK))
        else:
            found.append(Found(corners, None, 0.0, [], NO_DIVIDER))
    for i, corners in enumerate(tiles):
        one = _tile(corners, probs[2 * i : 2 * i + 2], unsure[2 * i : 2 * i + 2], top)
        if one is not None:
            found.append(one)
        elif _aspect(corners) < FACE_ON:
            # Tiles run together side by side look like one short tile whose halves are
            # no halves: reported, never left out (a face-down tile or a printed picture,
            # which are left out, has a tile's own shape).
            found.append(Found(corners, None, 0.0, [], NOT_ONE_TILE))
    return _once_each(found)


#: How far around a face region no other must lie for it to stand apart: its outline grown
#: this many times about its centre meets no other region's outline.
APART = 1.3


def _blank(probs: np.ndarray, unsure: np.ndarray, top: int) -> bool:
    """Whether a tile's two halves (their probabilities and doubts) show no pips: one half
    read as blank, the other blank or no half (a faint face at the photo's edge, glare)."""
    counts = {_half(probs[k], unsure[k], top)[0] for k in (0, 1)}
    return 0 in counts and counts <= {0, None}


def _apart(corners: np.ndarray, others: Sequence[np.ndarray]) -> bool:
    """Whether the outline ``corners`` (4 x 2), grown :data:`APART` times about its centre,
    meets none of the outlines ``others``."""
    centre = corners.mean(axis=0)
    grown = centre + (corners - centre) * APART
    return not any(shared_area(grown, other) > 0 for other in others)


#: How sure the halves net must be of a tile read where only the measure saw a divider:
#: more than of others (a back with a groove, a printed picture can pass the measure).
FAINT_CONFIDENCE = 0.9


#: Length over width below which an outline is not a tile seen face on (about 2): a slanted
#: view, a squeezed photo, or tiles run together.
FACE_ON = 1.6


def _aspect(corners: np.ndarray) -> float:
    """Length over width of a 4 x 2 outline (its longer side over its shorter)."""
    a, b = (float(np.linalg.norm(corners[i + 1] - corners[i])) for i in (0, 1))
    return max(a, b) / max(min(a, b), 1e-6)


def _tile(corners: np.ndarray, probs: np.ndarray, unsure: np.ndarray, top: int) -> Found | None:
    """One tile from its two halves' probabilities; None when neither is a half (not a
    tile at all: a face-down tile, a printed picture)."""
    (a, ca, alt_a, why_a), (b, cb, alt_b, why_b) = (
        _half(probs[i], unsure[i], top) for i in (0, 1)
    )
    if a is None and b is None:
        return None
    reason = "; ".join(r for r in (why_a, why_b) if r)
    pips = max(_over(probs[i], top) for i in (0, 1))
    if a is None or b is None:
        return Found(corners, None, 0.0, [], reason or "one half is not a half", pips)
    cands = [Tile.of(x, b) for x in alt_a] + [Tile.of(a, y) for y in alt_b]
    return Found(corners, Tile.of(a, b), ca * cb, cands[:6], reason, pips)


def _over(p: np.ndarray, top: int) -> int:
    """The count a half most likely shows, when it is a half and that count is more than
    ``top`` (the set's most); else 0. It names the set to try (``cf score --photo``'s
    "say so with --set")."""
    if p[NOT_A_HALF] > 0.5:
        return 0
    n = int(np.argmax(p[:NOT_A_HALF]))
    return n if n > top else 0


def short_side_first(
    box: np.ndarray, aspect: tuple[float, float] = TILE_ASPECT
) -> np.ndarray | None:
    """A tile's outline (4 x 2) turned so that its first side is a short one, as
    :func:`upright` takes it; None when it is not a tile's shape (long side over short
    within ``aspect``, by default :data:`TILE_ASPECT`)."""
    box = np.asarray(box, np.float64)
    first, second = (float(np.linalg.norm(box[i + 1] - box[i])) for i in (0, 1))
    if first > second:
        box = np.roll(box, -1, axis=0)
        first, second = second, first
    if first < 4 or not aspect[0] <= second / first <= aspect[1]:
        return None
    return box


def read_outlined(image: np.ndarray, corners: np.ndarray, top: int) -> Found:
    """The halves net's reading of the tile outlined by ``corners`` (short side first)."""
    import cv2

    tile_img = upright(image, corners, HALF_SIDE)
    crops = [tile_img[:HALF_SIDE], cv2.rotate(tile_img[HALF_SIDE:], cv2.ROTATE_180)]
    probs, unsure = read_halves(crops)
    found = _tile(corners, probs, unsure, top)
    return found or Found(corners, None, 0.0, [], "not a tile face")


def _half(p: np.ndarray, unsure: float, top: int) -> tuple[int | None, float, list[int], str]:
    """One half's count from its probabilities: (count or None for "not a half", how sure,
    other likely counts, why in doubt)."""
    if p[NOT_A_HALF] > 0.5:
        return None, 0.0, [], NOT_A_HALF_TILE
    counts = p[: top + 1]
    n = int(np.argmax(counts))
    conf = float(counts[n] / max(float(p[:NOT_A_HALF].sum()), 1e-6))
    why = ""
    over = float(p[top + 1 : NOT_A_HALF].sum())
    if over > 0.2:
        conf *= 1 - over
        why = f"more pips than a double-{top} set has?"
    if unsure > 0.4:
        conf *= 0.5
        why = why or "reads differently turned half a turn"
    alts = [int(k) for k in np.argsort(counts)[::-1][1:3] if counts[k] > 0.05]
    return n, conf, alts, why


def _once_each(found: list[Found]) -> list[Found]:
    """A hand holds each tile once: two reads of one tile are both in doubt."""
    seen: dict[Tile, int] = {}
    for f in found:
        if f.tile is not None:
            seen[f.tile] = seen.get(f.tile, 0) + 1
    return [
        Found(
            f.corners,
            f.tile,
            f.confidence * 0.3,
            f.candidates,
            f"{f.tile} read twice (a hand holds each tile once)",
            f.pips,
        )
        if f.tile is not None and seen[f.tile] > 1
        else f
        for f in found
    ]


def reading(
    image: np.ndarray,
    top: int,
    min_confidence: float,
    reduction: int = 1,
    view: Seen | None = None,
) -> Any:
    """The nets' :class:`cf.photo.reader.PhotoReading` of a BGR photo: the tiles read with
    at least ``min_confidence``, the others unreadable; outlines times ``reduction`` (the
    photo decoded at a fraction of its size). ``view``: :func:`seen` of the photo, when
    the caller has it."""
    from cf.photo.reader import PhotoReading, TileRead, Unreadable, to_bgr8

    image = to_bgr8(np.asarray(image))
    height, width = image.shape[:2]
    out = PhotoReading(width=width * reduction, height=height * reduction)
    if min(height, width) < 16:
        return out
    found = read_tiles(image, top, view)
    found.sort(
        key=lambda f: (round(float(f.corners[:, 1].mean()) / 40), float(f.corners[:, 0].mean()))
    )
    for f in found:
        pts = np.clip(f.corners * reduction, 0, [out.width - 1, out.height - 1])
        box = [(round(float(x)), round(float(y))) for x, y in pts]
        if f.tile is not None and f.confidence >= min_confidence:
            out.reads.append(TileRead(f.tile, round(f.confidence, 3), box))
        else:
            # A tile read, but not with confidence: it is the likeliest of what it might be.
            guesses = [f.tile, *f.candidates] if f.tile is not None else f.candidates
            out.unreadable.append(Unreadable(box, list(dict.fromkeys(guesses)), f.reason, f.pips))
    return out
