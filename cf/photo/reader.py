"""The photo reader: find face-up tiles, their dividers and pips, with a confidence each.

A classical OpenCV + numpy pipeline, tuned on synthetic photos (:mod:`cf.photo.synth`):

1. Scale the photo so its long side is :data:`WORK_SIZE` pixels (a 12 MP photo reads as
   fast as a small one).
2. Segment light, low-chroma regions (the tile faces) on the LAB lightness channel: an
   Otsu threshold when the background is darker than the tiles, edges flooded from the
   border when it is light.
3. In each region find the *divider bars*: straight dark bars whose ends lie well inside
   the region. Every face-up tile has exactly one, so a region holding several dividers is
   several touching tiles, split around their dividers, never by aspect ratio; a region
   without one is not a face-up tile (a face-down tile, a box, a hand).
4. Warp each tile upright and find its pips on both halves: blobs darker than the face or
   more saturated than it (black and colour pips), of pip size and roundish. Count each half.
5. Check what the game and the pip layouts guarantee — every standard layout is symmetric
   about the half's centre, pips of one half are alike in size and colour, a half has at
   most N pips, a hand has no tile twice — and look for faint pip-like blobs a second,
   weaker threshold sees. Each doubt lowers the tile's confidence; a tile below the
   minimum confidence is *unreadable* and comes with its likeliest readings.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

import cv2
import numpy as np

from cf.errors import Error
from cf.tiles import Tile

#: Tiles read with less confidence than this are reported as unreadable (``--min-confidence``).
DEFAULT_MIN_CONFIDENCE = 0.6

#: Long side, in pixels, of the image the reader works on.
WORK_SIZE = 1024

#: Width and length of the upright tile image each tile is read from.
CW, CL = 96, 192

#: The largest file ``read_photo`` opens (a phone photo is 3–10 MB).
MAX_FILE_BYTES = 200 * 2**20

Box = list[tuple[int, int]]


class PhotoError(Error):
    """A photo that cannot be read at all: not an image, empty, unreadable file."""

    code = "photo"


@dataclass(frozen=True)
class TileRead:
    """One tile read from the photo: the tile, how sure the reader is (0..1), its outline."""

    tile: Tile
    confidence: float
    box: Box


@dataclass(frozen=True)
class Unreadable:
    """A tile found but not read with confidence: its outline and what it might be."""

    box: Box
    candidates: list[Tile]
    reason: str = ""


@dataclass
class PhotoReading:
    """Everything read from one photo."""

    reads: list[TileRead] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    width: int = 0
    height: int = 0

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles read, in reading order (top to bottom, left to right)."""
        return tuple(r.tile for r in self.reads)

    @property
    def ok(self) -> bool:
        """True when every tile found was read with confidence."""
        return not self.unreadable


# --- loading --------------------------------------------------------------------------------


def load_image(path: str) -> np.ndarray:
    """Read an image file as a BGR uint8 array; :class:`PhotoError` if it is not an image.

    Greyscale, 16-bit and RGBA images are converted (transparency is dropped).
    """
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise PhotoError(f"{path}: {size // 2**20} MiB is too big for a photo")
        with open(path, "rb") as handle:
            data = handle.read()
    except PhotoError:
        raise
    except OSError as exc:
        raise PhotoError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode_image(data, path)


def decode_image(data: bytes, name: str = "image") -> np.ndarray:
    """Decode image bytes (JPEG, PNG, …) to BGR uint8; :class:`PhotoError` if they are not one."""
    if not data:
        raise PhotoError(f"{name} is empty, not an image")
    buffer = np.frombuffer(data, dtype=np.uint8)
    try:
        image = cv2.imdecode(buffer, cv2.IMREAD_UNCHANGED)
    except cv2.error:
        image = None
    if image is None or image.size == 0:
        raise PhotoError(f"{name} is not an image (JPEG or PNG) that can be read")
    return to_bgr8(image)


def to_bgr8(image: np.ndarray) -> np.ndarray:
    """Any decoded image (grey, BGR, BGRA; 8 or 16 bit, or float) as 3-channel BGR uint8."""
    if image.dtype != np.uint8:
        if image.dtype == np.uint16:
            image = (image // 257).astype(np.uint8)
        else:
            image = np.clip(image, 0, 255).astype(np.uint8)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    channels = image.shape[2]
    if channels == 1:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if channels == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if channels == 3:
        return image
    raise PhotoError(f"an image with {channels} channels is not a photo")


def read_photo(
    path: str, top: int = 9, min_confidence: float = DEFAULT_MIN_CONFIDENCE
) -> PhotoReading:
    """Load ``path`` and read its hand (see :func:`read_hand`)."""
    return read_hand(load_image(path), top, min_confidence)


# --- the pipeline ---------------------------------------------------------------------------


@dataclass
class _Divider:
    center: np.ndarray  # (x, y) in working pixels
    u: np.ndarray  # unit vector along the bar
    length: float
    thickness: float
    component: int


@dataclass
class _Candidate:
    corners: np.ndarray  # 4x2 float, working pixels: c-v-u, c-v+u, c+v+u, c+v-u order
    geometry: float  # confidence in the outline
    center: np.ndarray


@dataclass
class _Half:
    count: int
    confidence: float
    alternatives: list[int]
    colour: np.ndarray | None  # mean (a, b) of the pips
    pip_area: float
    reason: str = ""


def read_hand(
    image: np.ndarray, top: int = 9, min_confidence: float = DEFAULT_MIN_CONFIDENCE
) -> PhotoReading:
    """Read every face-up tile of one hand in a BGR (or grey) image.

    ``top`` is the set's highest pip (9 for double-nine). Returns the tiles read with
    confidence at least ``min_confidence``, and the others as :class:`Unreadable`.
    Boxes are in the pixels of ``image``.
    """
    image = to_bgr8(np.asarray(image))
    height, width = image.shape[:2]
    reading = PhotoReading(width=width, height=height)
    if min(height, width) < 16:
        return reading
    scale = WORK_SIZE / max(height, width)
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    work = cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=interp)
    work = cv2.GaussianBlur(work, (3, 3), 0)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB).astype(np.float32)
    light = lab[:, :, 0]
    ab = lab[:, :, 1:] - 128.0

    mask, face_min = _tile_mask(light, ab)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    min_area = max(300.0, 0.0006 * mask.size)
    dividers: list[_Divider] = []
    regions: dict[int, np.ndarray] = {}
    for index in range(1, count):
        if stats[index, cv2.CC_STAT_AREA] < min_area:
            continue
        x, y, w, h = stats[index, :4]
        region = labels[y : y + h, x : x + w] == index
        regions[index] = region
        dividers.extend(_find_dividers(light, ab, region, (x, y), index, face_min))

    candidates = _tile_outlines(dividers, regions, stats, labels)
    results: list[tuple[np.ndarray, Tile | None, float, list[Tile], str]] = []
    for cand in candidates:
        tile_img = _warp(lab, cand.corners)
        if tile_img is None:
            continue
        halves = _read_tile(tile_img, top, face_min)
        tile, conf, alts, reason = _combine(halves, top)
        conf *= cand.geometry
        results.append((cand.corners, tile, conf, alts, reason))

    _cross_check(results, top)
    results.extend(_uncovered(candidates, regions, stats, light, ab))

    def to_box(corners: np.ndarray) -> Box:
        pts = np.asarray(corners, dtype=np.float64) / scale
        pts[:, 0] = np.clip(pts[:, 0], 0, width - 1)
        pts[:, 1] = np.clip(pts[:, 1], 0, height - 1)
        return [(round(float(px)), round(float(py))) for px, py in pts]

    results.sort(key=lambda r: (round(float(r[0][:, 1].mean()) / 40), float(r[0][:, 0].mean())))
    for corners, tile, conf, alts, reason in results:
        box = to_box(corners)
        if tile is not None and conf >= min_confidence:
            reading.reads.append(TileRead(tile, round(float(conf), 3), box))
        else:
            reading.unreadable.append(Unreadable(box, alts, reason))
    return reading


def _tile_mask(light: np.ndarray, ab: np.ndarray) -> tuple[np.ndarray, float]:
    """Light, low-chroma regions (tile faces) with their holes (pips) filled, as uint8 0/255,
    and the lightness a tile face has at least."""
    h, w = light.shape
    chroma = np.hypot(ab[:, :, 0], ab[:, :, 1])
    l8 = np.clip(light, 0, 255).astype(np.uint8)
    ring = max(2, min(h, w) // 40)
    border = np.concatenate(
        [l8[:ring].ravel(), l8[-ring:].ravel(), l8[:, :ring].ravel(), l8[:, -ring:].ravel()]
    )
    bg = float(np.median(border))
    neutral = light[chroma < 25]
    face = float(np.percentile(neutral, 99)) if neutral.size else 255.0
    if face - bg >= 45:
        # Tiles lighter than the background: halfway between the two.
        thresh = (face + bg) / 2
        faces = (light > thresh) & (chroma < 40)
        face_min = bg + 0.55 * (face - bg)
    else:
        # A light background: the tiles are whatever the border cannot reach without
        # crossing an edge (tile outlines and their shadows). Where an outline is too
        # faint, the region leaks; dividers are still found in what is left of it.
        edges = cv2.Canny(l8, 10, 30)
        edges = cv2.dilate(edges, np.ones((3, 3), np.uint8), iterations=3)
        free = (edges == 0).astype(np.uint8)
        n, lab_free = cv2.connectedComponents(free, connectivity=4)
        outside = np.zeros(n, bool)
        edge_labels = np.concatenate([lab_free[0], lab_free[-1], lab_free[:, 0], lab_free[:, -1]])
        outside[np.unique(edge_labels)] = True
        outside[0] = False
        background = outside[lab_free]
        background = (
            cv2.erode(background.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=4) > 0
        )
        faces = (~background) & (chroma < 40)
        face_min = 0.75 * face
    mask = faces.astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    # Thin bridges of cloth or shadow between tiles are cut by a small opening.
    filled = cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
    return filled, face_min


def _ink(light: np.ndarray, ab: np.ndarray, region: np.ndarray, scale: float) -> np.ndarray:
    """How strongly each pixel of ``region`` stands out from the face: darker or more coloured.

    Returns a float map, 1.0 at the detection threshold.
    """
    inside = region.astype(bool)
    if not inside.any():
        return np.zeros(light.shape, np.float32)
    face_l = float(np.median(light[inside]))
    face_ab = np.median(ab[inside], axis=0)
    filled = light.copy()
    filled[~inside] = face_l
    k = int(max(5, min(201, scale))) | 1
    local = cv2.morphologyEx(filled, cv2.MORPH_CLOSE, cv2.getStructuringElement(0, (k, k)))
    dark = (local - light) / max(28.0, 0.2 * face_l)
    colour = np.hypot(ab[:, :, 0] - face_ab[0], ab[:, :, 1] - face_ab[1]) / 24.0
    ink = np.maximum(dark, colour).astype(np.float32)
    ink[~inside] = 0
    return ink


def _find_dividers(
    light: np.ndarray,
    ab: np.ndarray,
    region: np.ndarray,
    origin: tuple[int, int],
    index: int,
    face_min: float,
) -> list[_Divider]:
    x0, y0 = origin
    h, w = region.shape
    pad = 4
    sub_l = np.full((h + 2 * pad, w + 2 * pad), 0, np.float32)
    sub_ab = np.zeros((h + 2 * pad, w + 2 * pad, 2), np.float32)
    reg = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    sub_l[pad:-pad, pad:-pad] = light[y0 : y0 + h, x0 : x0 + w]
    sub_ab[pad:-pad, pad:-pad] = ab[y0 : y0 + h, x0 : x0 + w]
    reg[pad:-pad, pad:-pad] = region
    area = float(region.sum())
    size = math.sqrt(area / 2)
    inner = cv2.erode(reg, np.ones((3, 3), np.uint8), iterations=2)
    ink = _ink(sub_l, sub_ab, inner, 0.35 * size)
    strong = (ink > 1.0).astype(np.uint8)
    dist = cv2.distanceTransform(reg, cv2.DIST_L2, 3)
    contours, _ = cv2.findContours(strong, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    found: list[_Divider] = []
    for contour in contours:
        blob_area = cv2.contourArea(contour)
        if blob_area < 12:
            continue
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
        length, thick = max(rw, rh), max(1.0, min(rw, rh))
        if length < 12 or length / thick < 4.0 or blob_area / (length * thick) < 0.6:
            continue
        theta = math.radians(angle if rw >= rh else angle + 90)
        u = np.array([math.cos(theta), math.sin(theta)])
        c = np.array([cx, cy])
        ends = [c + u * length * 0.5, c - u * length * 0.5]
        margin = []
        for end in ends:
            ex, ey = (round(float(v)) for v in end)
            if 0 <= ey < dist.shape[0] and 0 <= ex < dist.shape[1]:
                margin.append(float(dist[ey, ex]))
            else:
                margin.append(0.0)
        if min(margin) < max(2.0, 0.06 * length):
            continue  # reaches the region's edge: a gap between tiles or a shadow line
        # A divider has tile face on both sides of it.
        v = np.array([-u[1], u[0]])
        sides = []
        for sign in (-1, 1):
            vals = []
            for t in (0.25, 0.35, 0.45):
                for along in (-0.3, 0.0, 0.3):
                    px, py = c + sign * v * t * length + u * along * length
                    ix, iy = round(float(px)), round(float(py))
                    if 0 <= iy < sub_l.shape[0] and 0 <= ix < sub_l.shape[1]:
                        vals.append(float(sub_l[iy, ix]))
            sides.append(float(np.median(vals)) if vals else 0.0)
        if min(sides) < face_min:
            continue
        found.append(
            _Divider(
                np.array([cx + x0 - pad, cy + y0 - pad]), u, float(length), float(thick), index
            )
        )
    return found


def _tile_outlines(
    dividers: list[_Divider],
    regions: dict[int, np.ndarray],
    stats: np.ndarray,
    labels: np.ndarray,
) -> list[_Candidate]:
    """One outline per divider: the region's own outline for a lone tile, else a rectangle
    around the divider sized from the lone tiles of the photo (or from the region's area)."""
    by_region: dict[int, list[_Divider]] = {}
    for div in dividers:
        by_region.setdefault(div.component, []).append(div)
    lone: dict[int, tuple[np.ndarray, float]] = {}
    ratios = []
    for index, divs in by_region.items():
        if len(divs) != 1:
            continue
        div = divs[0]
        x, y = stats[index, 0], stats[index, 1]
        region = regions[index].astype(np.uint8)
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        contour = max(contours, key=cv2.contourArea) + np.array([x, y])
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour.astype(np.float32))
        long_, short = max(rw, rh), min(rw, rh)
        if short <= 0:
            continue
        theta = math.radians(angle if rw >= rh else angle + 90)
        v = np.array([math.cos(theta), math.sin(theta)])
        aspect = long_ / short
        across = abs(float(np.dot(v, div.u)))
        offset = abs(float(np.dot(div.center - np.array([cx, cy]), v))) / long_
        fill = cv2.contourArea(contour.astype(np.float32)) / (long_ * short)
        if 1.6 <= aspect <= 2.6 and across < 0.3 and offset < 0.08 and fill > 0.85:
            quad = _quad(contour, np.array([cx, cy]), v, long_, short)
            lone[index] = (quad, 1.0)
            ratios.append(short / div.length)
    ratio = float(np.median(ratios)) if ratios else 0.0
    out: list[_Candidate] = []
    for index, divs in by_region.items():
        if index in lone:
            quad, geo = lone[index]
            out.append(_Candidate(quad, geo, quad.mean(axis=0)))
            continue
        area = float(stats[index, cv2.CC_STAT_AREA])
        from_area = math.sqrt(area / (2 * len(divs)))
        for div in divs:
            if ratio:
                width = div.length * ratio
                geo = 0.95
            else:
                width = from_area if len(divs) > 1 else div.length * 1.35
                geo = 0.85
            u = div.u
            v = np.array([-u[1], u[0]])
            c = div.center
            half_w, half_l = width / 2, width
            corners = np.array(
                [
                    c - v * half_l - u * half_w,
                    c - v * half_l + u * half_w,
                    c + v * half_l + u * half_w,
                    c + v * half_l - u * half_w,
                ]
            )
            out.append(_Candidate(corners, geo, c))
    return out


def _uncovered(
    candidates: list[_Candidate],
    regions: dict[int, np.ndarray],
    stats: np.ndarray,
    light: np.ndarray,
    ab: np.ndarray,
) -> list[tuple[np.ndarray, Tile | None, float, list[Tile], str]]:
    """Light regions, big enough for a tile, that no tile outline covers and that carry
    marks: a tile whose divider went unseen. Never silently left out of the total."""
    if candidates:
        areas = [abs(cv2.contourArea(c.corners.astype(np.float32))) for c in candidates]
        tile_area = float(np.median(areas))
    else:
        tile_area = 0.0
    covered = np.zeros(light.shape, np.uint8)
    for cand in candidates:
        cv2.fillConvexPoly(covered, cand.corners.astype(np.int32), 1)
    out: list[tuple[np.ndarray, Tile | None, float, list[Tile], str]] = []
    for index, region in regions.items():
        x, y, w, h = stats[index, :4]
        free = region & (covered[y : y + h, x : x + w] == 0)
        free = cv2.morphologyEx(free.astype(np.uint8), cv2.MORPH_OPEN, np.ones((9, 9), np.uint8))
        n, labels, st, _ = cv2.connectedComponentsWithStats(free, connectivity=4)
        for i in range(1, n):
            area = float(st[i, cv2.CC_STAT_AREA])
            if area < max(0.45 * tile_area, 300.0 if tile_area else 1500.0):
                continue
            part = (labels == i).astype(np.uint8)
            inner = cv2.erode(part, np.ones((5, 5), np.uint8), iterations=2)
            sub_l = light[y : y + h, x : x + w]
            sub_ab = ab[y : y + h, x : x + w]
            ink = _ink(sub_l, sub_ab, inner, 0.35 * math.sqrt(area / 2))
            if float((ink > 1.0).mean()) * region.size < 0.02 * area:
                continue  # blank: a face-down tile or the like
            contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            rect = cv2.minAreaRect(max(contours, key=cv2.contourArea))
            corners = cv2.boxPoints(rect) + np.array([x, y], np.float32)
            out.append(
                (corners.astype(np.float64), None, 0.0, [], "a tile whose divider was not found")
            )
    return out


def _quad(
    contour: np.ndarray, center: np.ndarray, v: np.ndarray, long_: float, short: float
) -> np.ndarray:
    """The tile's four corners, ordered as in :class:`_Candidate`: a perspective-aware
    quadrilateral when the outline simplifies to one, else the min-area rectangle."""
    u = np.array([-v[1], v[0]])
    pts = contour.reshape(-1, 2).astype(np.float64)
    rect = np.array(
        [
            center - v * long_ / 2 - u * short / 2,
            center - v * long_ / 2 + u * short / 2,
            center + v * long_ / 2 + u * short / 2,
            center + v * long_ / 2 - u * short / 2,
        ]
    )
    # For each rectangle corner, the contour point furthest out in that corner's direction
    # (a rounded corner moves the point inward a little; that is harmless for reading).
    quad = []
    for corner in rect:
        direction = corner - center
        direction /= np.linalg.norm(direction) + 1e-9
        proj = (pts - center) @ direction
        quad.append(pts[int(np.argmax(proj))])
    q = np.array(quad)
    # A corner that lands far from the rectangle (a bump on the outline) falls back to it.
    if np.max(np.linalg.norm(q - rect, axis=1)) > 0.12 * long_:
        return rect
    # Push the corners out to undo the corner rounding.
    return center + (q - center) * 1.0


#: The upright tile image reaches this far (in tile widths) beyond the outline on each side.
PAD = 0.12
PW, PL = round(CW * (1 + 2 * PAD)), round(CL + 2 * PAD * CW)


def _warp(lab: np.ndarray, corners: np.ndarray) -> np.ndarray | None:
    src = corners.astype(np.float32)
    p = PAD * CW
    dst = np.array(
        [[p, p], [p + CW - 1, p], [p + CW - 1, p + CL - 1], [p, p + CL - 1]], np.float32
    )
    if abs(cv2.contourArea(src)) < 50:
        return None
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(
        lab, matrix, (PW, PL), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _read_tile(tile_lab: np.ndarray, top: int, face_min: float) -> list[_Half]:
    """Find the face and divider of an upright tile image (see :func:`_warp`) and read both
    halves."""
    light = tile_lab[:, :, 0]
    ab = tile_lab[:, :, 1:] - 128.0
    chroma = np.hypot(ab[:, :, 0], ab[:, :, 1])
    facelike = (light >= face_min) & (chroma < 40)
    # The face's edges: outermost rows and columns that are mostly face.
    cols = facelike.mean(axis=0)
    rows = facelike.mean(axis=1)
    x0, x1 = _extent(cols, 0.3)
    y0, y1 = _extent(rows, 0.35)
    if x1 - x0 < 0.6 * CW or y1 - y0 < 0.6 * CL:
        x0, x1, y0, y1 = 0, PW, 0, PL
    inset = max(2, int(0.035 * CW))
    x0, x1, y0, y1 = x0 + inset, x1 - inset, y0 + inset, y1 - inset
    region = np.zeros(light.shape, np.uint8)
    region[y0:y1, x0:x1] = 1
    ink = _ink(light, ab, region, 0.4 * CW)
    # Shading along the edges (bevel, shadow, background) touches the face's border.
    strong = (ink >= 0.55).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(strong, connectivity=8)
    for i in range(1, n):
        bx, by, bw, bh = stats[i, :4]
        touches = bx <= x0 or by <= y0 or bx + bw >= x1 or by + bh >= y1
        central = abs(by + bh / 2 - (y0 + y1) / 2) < 0.25 * CW
        if (touches and max(bw, bh) > 0.32 * CW) or (
            central and bw > 0.4 * (x1 - x0) and bh < 0.3 * CW
        ):
            ink[labels == i] = 0  # an edge, or the divider bar
    # The divider: the row band near the middle where ink runs across the tile.
    mid = (y0 + y1) // 2
    lo, hi = mid - int(0.15 * CW), mid + int(0.15 * CW)
    across = (ink[lo:hi, x0:x1] >= 1.0).mean(axis=1)
    yd = lo + int(np.argmax(across)) if across.size and across.max() > 0.25 else mid
    width = x1 - x0
    return [
        _read_half(ink, ab, (x0, y0, x1, yd - int(0.06 * width)), top, width),
        _read_half(ink, ab, (x0, yd + int(0.06 * width), x1, y1), top, width),
    ]


def _extent(profile: np.ndarray, level: float) -> tuple[int, int]:
    """First and last index (end exclusive) where ``profile`` reaches ``level``."""
    where = np.flatnonzero(profile >= level)
    if where.size == 0:
        return 0, profile.size
    return int(where[0]), int(where[-1]) + 1


def _read_half(
    ink: np.ndarray, ab: np.ndarray, rect: tuple[int, int, int, int], top: int, width: int
) -> _Half:
    """Count the pips of one half: ``rect`` is (x0, y0, x1, y1) in the upright tile image."""
    x0, y0, x1, y1 = rect
    if x1 - x0 < 8 or y1 - y0 < 8:
        return _Half(0, 0.0, [], None, 0.0, "no room for a half")
    sub = ink[y0:y1, x0:x1]
    sub_ab = ab[y0:y1, x0:x1]
    half_center = np.array([(x1 - x0) / 2, (y1 - y0) / 2])
    CW = width
    strong = _blobs(sub >= 1.0)
    weak = _blobs(sub >= 0.55)
    min_pip = (0.07 * CW) ** 2
    max_pip = (0.34 * CW) ** 2
    is_pip = [min_pip <= b[0] <= max_pip and b[1] > 0.55 for b in strong]
    pips = [b for b, yes in zip(strong, is_pip, strict=True) if yes]
    odd = [b for b, yes in zip(strong, is_pip, strict=True) if not yes and b[0] >= 0.35 * min_pip]
    reasons = []
    conf = 1.0
    alternatives: set[int] = set()
    n = len(pips)
    areas = np.array([b[0] for b in pips]) if pips else np.zeros(0)
    med = float(np.median(areas)) if n else 0.0
    # Two pips run together by blur: one blob about twice a pip, not round.
    for blob in odd:
        conf *= 0.3
        reasons.append("a blob that is not a pip")
        if n and blob[0] > 1.5 * med:
            alternatives.add(n + round(blob[0] / med))
        alternatives.add(n + 1)
    if n:
        if np.any(areas < 0.45 * med) or np.any(areas > 2.0 * med):
            conf *= 0.4
            reasons.append("pips of different sizes")
        # Faint pip-like blobs that only the weak threshold sees.
        centres = np.array([b[2] for b in pips])
        for blob in weak:
            if blob[0] < 0.6 * med or blob[0] > 3 * max(med, min_pip):
                continue
            d = np.min(np.linalg.norm(centres - blob[2], axis=1))
            if d > 0.6 * math.sqrt(med):
                conf *= 0.35
                reasons.append("a faint blob")
                alternatives.add(n + 1)
        # Symmetry: every standard layout looks the same turned half a turn.
        centroid = centres.mean(axis=0)
        mirrored = 2 * centroid - centres
        dists = np.linalg.norm(mirrored[:, None, :] - centres[None, :, :], axis=2).min(axis=1)
        err = float(dists.max()) / CW
        off = float(np.linalg.norm(centroid - half_center)) / CW
        conf *= _ramp(err, 0.07, 0.16) * _ramp(off, 0.12, 0.22)
        if err > 0.07:
            reasons.append("pips not in a standard layout")
            alternatives.update({n - 1, n + 1})
        if off > 0.12:
            reasons.append("pips off the centre of the half")
        colours = np.array([sub_ab[int(b[2][1]), int(b[2][0])] for b in pips])
        colour = colours.mean(axis=0)
        spread = float(np.max(np.linalg.norm(colours - colour, axis=1)))
        if spread > 25:
            conf *= 0.5
            reasons.append("pips of different colours")
    else:
        colour = None
        faint = [b for b in weak if min_pip <= b[0] <= max_pip and b[1] > 0.5]
        if faint:
            conf *= 0.3 ** len(faint)
            reasons.append("faint pip-like marks on a blank half")
            alternatives.update({len(faint), 1})
    if n > top:
        conf = 0.0
        reasons.append(f"{n} pips, more than the set has")
    alternatives.discard(n)
    alts = sorted(a for a in alternatives if 0 <= a <= top)
    return _Half(n, conf, alts, colour, med, "; ".join(dict.fromkeys(reasons)))


def _blobs(binary: np.ndarray) -> list[tuple[float, float, np.ndarray]]:
    """(area, circularity, centre) of each connected blob, holes (glare on a pip) filled."""
    contours, _ = cv2.findContours(
        binary.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
    )
    out = []
    for contour in contours:
        area = float(cv2.contourArea(contour))
        if area < 4:
            continue
        perimeter = cv2.arcLength(contour, True)
        circ = 4 * math.pi * area / (perimeter * perimeter) if perimeter else 0.0
        m = cv2.moments(contour)
        centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
        out.append((area, min(1.0, circ), centre))
    return out


def _ramp(value: float, good: float, bad: float) -> float:
    """1 up to ``good``, falling linearly to 0 at ``bad``."""
    if value <= good:
        return 1.0
    if value >= bad:
        return 0.0
    return (bad - value) / (bad - good)


def _combine(halves: list[_Half], top: int) -> tuple[Tile | None, float, list[Tile], str]:
    a, b = halves
    conf = min(a.confidence, b.confidence)
    reasons = [h.reason for h in halves if h.reason]
    if a.count and b.count and min(a.pip_area, b.pip_area) < 0.4 * max(a.pip_area, b.pip_area):
        conf *= 0.5
        reasons.append("pips of different sizes on the two halves")
    tile = Tile.of(a.count, b.count) if max(a.count, b.count) <= top else None
    cands: list[Tile] = [tile] if tile is not None else []
    for alt in a.alternatives:
        cands.append(Tile.of(alt, min(b.count, top)))
    for alt in b.alternatives:
        cands.append(Tile.of(min(a.count, top), alt))
    return tile, conf, list(dict.fromkeys(cands))[:6], "; ".join(reasons)


def _cross_check(
    results: list[tuple[np.ndarray, Tile | None, float, list[Tile], str]], top: int
) -> None:
    """A hand never holds a tile twice: two reads of one tile are both in doubt."""
    seen: dict[Tile, list[int]] = {}
    for i, (_, tile, _, _, _) in enumerate(results):
        if tile is not None:
            seen.setdefault(tile, []).append(i)
    for tile, where in seen.items():
        if len(where) > 1:
            for i in where:
                corners, _, conf, alts, reason = results[i]
                why = f"{tile} read twice (a hand holds each tile once)"
                results[i] = (corners, tile, conf * 0.3, alts, f"{reason}; {why}".lstrip("; "))
