"""The photo reader: find face-up tiles, their dividers and pips, with a confidence each.

A classical OpenCV + numpy pipeline, tuned on synthetic photos (:mod:`cf.photo.synth`):

1. Scale the photo so its long side is :data:`WORK_SIZE` pixels.
2. Segment light, low-chroma regions (the tile faces) on LAB lightness above the
   background *as lit where the tile lies* (a quadratic lighting surface fitted to the
   background, so a dim corner does not hide a tile); on a light background, whatever the
   border cannot reach without crossing an edge. Holes (pips, dividers) are filled.
3. Find the *divider bars*: straight dark bars with face on both sides and both ends short
   of the region's edge, at several ink levels (a bar touching a pip stands alone at a
   stricter one); pieces of one bar cut by a spinner are joined. Every face-up tile has
   exactly one, so each divider anchors one tile, whatever touches it.
4. Outline each tile around its divider: as wide as the face runs on along the divider's
   line (touching tiles end at the dark seam between them; no wider than the step to the
   next divider in the row), and twice as long, or as far as the face runs along the
   tile. One hand is one set: the width-to-divider ratio of the well-measured tiles sizes
   the others. A tile alone in its region takes the region's own outline.
5. Warp each tile upright from a copy of the photo where it is about :data:`CW` pixels
   wide, find the face's own edges (past pips and seams) and the divider row, and count
   each half's pips: blobs darker than the face or of another colour, cut at half their
   own contrast, thin marks opened away, pips run together by blur split.
6. Check what the game and the pip layouts guarantee — every standard layout is symmetric
   about the half's centre, pips of one half are alike in size and colour, a half has at
   most N pips, a hand has no tile twice — and look for faint pip-like blobs a weaker
   threshold sees. Each doubt lowers the tile's confidence; a tile below the minimum
   confidence is *unreadable* and comes with its likeliest readings. A light region with
   pip-like marks that no outline covers is unreadable too: never silently left out.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import cv2
import numpy as np

from cf.errors import Error
from cf.i18n import Message
from cf.photo.reasons import Reason
from cf.tiles import Tile

# OpenCV logs its own decoder errors ("[ERROR…] imdecode_ … can't read header") on stderr;
# cf says in its words what it could not read, so OpenCV's lines are not shown.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)

#: Tiles read with less confidence than this are reported as unreadable (``--min-confidence``).
DEFAULT_MIN_CONFIDENCE = 0.6

#: How a half's reason says it holds more pips than the set has (see :func:`_final_doubt`).
_OVER_SET = re.compile(r"(\d+) pips, more than the set has")

#: Long side, in pixels, of the image the reader works on.
WORK_SIZE = 1024

#: The least long side, in pixels, that :func:`read_photo` decodes a big JPEG to: a tile
#: of the working image (:data:`WORK_SIZE`) keeps half as much detail again.
READ_SIZE = 3 * WORK_SIZE // 2

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
    """A tile found but not read with confidence: its outline, what it might be, why, and
    (``pips``) the most pips a half of it showed when that is more than the set has."""

    box: Box
    candidates: list[Tile]
    reason: str = ""
    pips: int = 0

    def describe(self) -> str:
        """``cannot read the tile at x=…, y=… with confidence (why); it might be: …``."""
        x = round(sum(p[0] for p in self.box) / len(self.box)) if self.box else 0
        y = round(sum(p[1] for p in self.box) / len(self.box)) if self.box else 0
        maybe = ", ".join(str(t) for t in self.candidates) or Message("unknown")
        if self.reason:
            return Message(
                "cannot read the tile at x={x}, y={y} with confidence ({why}); "
                "it might be: {maybe}",
                x=x,
                y=y,
                why=Reason(self.reason),
                maybe=maybe,
            )
        return Message(
            "cannot read the tile at x={x}, y={y} with confidence; it might be: {maybe}",
            x=x,
            y=y,
            maybe=maybe,
        )


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
    def found(self) -> bool:
        """True when some tile was found, read or not: a photo with none is a refusal."""
        return bool(self.reads or self.unreadable)

    @property
    def ok(self) -> bool:
        """True when some tile was found and every tile found was read with confidence:
        only then may the tiles be counted (no domino found is never a total of 0)."""
        return bool(self.reads) and not self.unreadable


# --- loading --------------------------------------------------------------------------------


def load_image(path: str) -> np.ndarray:
    """Read an image file as a BGR uint8 array; :class:`PhotoError` if it is not an image,
    or is refused by :mod:`cf.photo.limits` (not a regular file, too big a file, too many
    pixels) before it is decoded.

    Greyscale, 16-bit and RGBA images are converted (transparency is dropped).
    """
    return decode_image(_read_file(path), path)


def load_reduced(path: str, least: int) -> tuple[np.ndarray, int]:
    """Read an image file as :func:`load_image` does, but a JPEG whose long side is at
    least twice ``least`` pixels is decoded at 1/2, 1/4 or 1/8 of its size (the decoder
    skips the detail, which is much faster than decoding it all and scaling down), so
    that the long side stays at least ``least``. Returns the image and the reduction."""
    from cf.photo.limits import image_size

    data = _read_file(path)
    size = image_size(data)
    reduction = 1
    if size is not None and data[:2] == b"\xff\xd8":
        reduction = max((r for r in (1, 2, 4, 8) if max(size) >= r * least), default=1)
    return decode_image(data, path, reduction), reduction


def _read_file(path: str) -> bytes:
    """The bytes of an image file; :class:`PhotoError` when it cannot be read or is
    refused by :mod:`cf.photo.limits` (not a regular file, too big a file)."""
    from cf.photo.limits import PhotoLimitError, read_photo_file

    try:
        return read_photo_file(path)
    except PhotoLimitError as exc:
        raise PhotoError(str(exc)) from None
    except OSError as exc:
        raise PhotoError(
            Message("cannot read {path}: {value}", path=path, value=exc.strerror or exc)
        ) from None


#: OpenCV's flags for decoding a JPEG at 1/2, 1/4 and 1/8 of its size.
_REDUCED = {
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}


def decode_image(data: bytes, name: str = "image", reduction: int = 1) -> np.ndarray:
    """Decode image bytes (JPEG, PNG, …) to BGR uint8; :class:`PhotoError` if they are not
    one, or if the header gives more pixels than :data:`cf.photo.limits.MAX_PIXELS`.

    Every decode goes through here. ``reduction`` 2, 4 or 8 decodes at that fraction of
    the size (JPEG; others are decoded whole).
    """
    from cf.photo.limits import PhotoLimitError, check_pixels

    if not data:
        raise PhotoError(Message("{name} is empty, not an image", name=name))
    try:
        check_pixels(data, name)
    except PhotoLimitError as exc:
        raise PhotoError(str(exc)) from None
    buffer = np.frombuffer(data, dtype=np.uint8)
    try:
        image = cv2.imdecode(buffer, _REDUCED.get(reduction, cv2.IMREAD_UNCHANGED))
    except cv2.error:
        image = None
    if image is None or image.size == 0:
        raise PhotoError(
            Message("{name} is not an image (JPEG or PNG) that can be read", name=name)
        )
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
    raise PhotoError(
        Message("an image with {channels} channels is not a photo", channels=channels)
    )


def read_photo(
    path: str, top: int = 9, min_confidence: float = DEFAULT_MIN_CONFIDENCE
) -> PhotoReading:
    """Load ``path`` and read its hand (see :func:`read_hand`). A big JPEG is decoded at
    a fraction of its size that still shows the tiles in the detail the reader uses;
    outlines, width and height are in the photo's own pixels all the same."""
    image, reduction = load_reduced(path, READ_SIZE)
    return read_hand(image, top, min_confidence, reduction=reduction)


# --- the pipeline ---------------------------------------------------------------------------

#: Width and length, in pixels, of the upright image each tile is read from, and the margin
#: (in tile widths) it shows around the outline on each side.
CW, CL = 128, 256
PAD = 0.2
PW, PL = round(CW * (1 + 2 * PAD)), round(CL + 2 * PAD * CW)

_Result = tuple[np.ndarray, "Tile | None", float, list[Tile], str]


@dataclass
class _Divider:
    center: np.ndarray  # (x, y) in working pixels
    u: np.ndarray  # unit vector along the bar
    length: float
    thickness: float
    component: int
    fill: float  # blob area over its bounding rectangle: 1 for a clean bar


@dataclass
class _Candidate:
    corners: np.ndarray  # 4x2 float, working pixels, ordered as the upright image's corners
    geometry: float  # confidence in the outline
    center: np.ndarray
    width: float
    quality: float = 0.0  # for choosing between overlapping outlines


@dataclass
class _Half:
    count: int
    confidence: float
    alternatives: list[int]
    colour: np.ndarray | None  # mean (a, b) of the pips
    pip_area: float  # median pip area, in upright-image pixels
    reason: str = ""
    centres: list[np.ndarray] = field(default_factory=list)  # in the half's pixels


def read_hand(
    image: np.ndarray,
    top: int = 9,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    *,
    reduction: int = 1,
) -> PhotoReading:
    """Read every face-up tile of one hand in a BGR (or grey) image.

    ``top`` is the set's highest pip (9 for double-nine). Returns the tiles read with
    confidence at least ``min_confidence``, and the others as :class:`Unreadable`.
    Boxes are in the pixels of ``image``, times ``reduction`` when ``image`` is the photo
    decoded at a fraction of its size.
    """
    image = to_bgr8(np.asarray(image))
    height, width = image.shape[:2]
    reading = PhotoReading(width=width * reduction, height=height * reduction)
    if min(height, width) < 16:
        return reading
    scale = WORK_SIZE / max(height, width)
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    work = cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=interp)
    work = cv2.GaussianBlur(work, (3, 3), 0)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB).astype(np.float32)
    light = lab[:, :, 0]
    ab = lab[:, :, 1:] - 128.0

    mask, dark_background = _tile_mask(light, ab)
    labels, stats, regions, dividers = _regions_and_dividers(mask, light, ab)
    candidates = _tile_outlines(dividers, mask, light, labels, regions, stats)
    results, read = _read_candidates(image, candidates, scale, top, dark_background)
    _cross_check(results)
    # Whatever no tile read covers is looked at again: a candidate that turned out to be
    # no tile face must not hide a tile it overlapped.
    results.extend(_uncovered(read, regions, stats, light, ab))
    results.extend(_missed_faces(read, results, light, ab))

    def to_box(corners: np.ndarray) -> Box:
        pts = np.asarray(corners, dtype=np.float64) * (reduction / scale)
        pts[:, 0] = np.clip(pts[:, 0], 0, reading.width - 1)
        pts[:, 1] = np.clip(pts[:, 1], 0, reading.height - 1)
        return [(round(float(px)), round(float(py))) for px, py in pts]

    results.sort(key=lambda r: (round(float(r[0][:, 1].mean()) / 40), float(r[0][:, 0].mean())))
    for corners, tile, conf, alts, reason in results:
        box = to_box(corners)
        if tile is not None and conf >= min_confidence:
            reading.reads.append(TileRead(tile, round(float(conf), 3), box))
        else:
            over = [int(n) for n in _OVER_SET.findall(reason)]
            reading.unreadable.append(Unreadable(box, alts, reason, max(over, default=0)))
    return reading


def _regions_and_dividers(
    mask: np.ndarray, light: np.ndarray, ab: np.ndarray
) -> tuple[np.ndarray, np.ndarray, dict[int, np.ndarray], list[_Divider]]:
    """The face mask's big connected regions (labels, stats, boolean crop per label) and
    the dividers found in each, with cuts across the mask closed first."""
    # Where a divider runs nearly edge to edge, the face mask may be cut in two halves:
    # dividers are looked for in the mask with such cuts closed.
    k = max(5, round(0.012 * WORK_SIZE)) | 1
    joined = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(2, (k, k)))
    contours, _ = cv2.findContours(joined, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(joined, contours, -1, 255, thickness=cv2.FILLED)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=4)
    min_area = max(300.0, 0.0006 * mask.size)
    dividers: list[_Divider] = []
    regions: dict[int, np.ndarray] = {}
    for index in range(1, count):
        if stats[index, cv2.CC_STAT_AREA] < min_area:
            continue
        x, y, w, h = stats[index, :4]
        region = labels[y : y + h, x : x + w] == index
        regions[index] = region
        dividers.extend(_find_dividers(light, ab, region, (x, y), index))
    return labels, stats, regions, dividers


def _read_candidates(
    image: np.ndarray,
    candidates: list[_Candidate],
    scale: float,
    top: int,
    dark_background: bool,
) -> tuple[list[_Result], list[_Candidate]]:
    """Read every candidate outline: the results, and the candidates that were tile faces."""
    height, width = image.shape[:2]
    # Read each tile from an image where it is about CW pixels wide: the photo itself for
    # small tiles, a reduced copy for big ones (so that no detail is lost, nor aliased).
    results: list[_Result] = []
    read: list[_Candidate] = []
    if candidates:
        tile_w = float(np.median([c.width for c in candidates])) / scale
        factor = min(1.0, 1.4 * CW / max(tile_w, 1.0))
        if factor < 1.0:
            source = cv2.resize(
                image,
                (max(1, round(width * factor)), max(1, round(height * factor))),
                interpolation=cv2.INTER_AREA,
            )
        else:
            source = image
        for cand in candidates:
            tile_img = _warp(source, cand.corners * (factor / scale))
            if tile_img is None:
                continue
            # On a dark background a face that runs on past the outline means the outline
            # is too small; on a light one the background itself looks like face.
            sure = cand.geometry >= 0.95 or not dark_background
            halves, doubt, why = _read_tile(tile_img, top, sure)
            if halves is None:
                continue  # not a tile face after all
            read.append(cand)
            tile, conf, alts, reason = _combine(halves, top)
            conf *= cand.geometry * doubt
            if why:
                reason = f"{reason}; {why}".lstrip("; ")
            results.append((cand.corners, tile, conf, alts, reason))
    return results, read


def _tile_mask(light: np.ndarray, ab: np.ndarray) -> tuple[np.ndarray, bool]:
    """Light, low-chroma regions (tile faces) with their holes (pips) filled, as uint8 0/255,
    and whether the background is darker than the tiles."""
    h, w = light.shape
    chroma = np.hypot(ab[:, :, 0], ab[:, :, 1])
    l8 = np.clip(light, 0, 255).astype(np.uint8)
    ring = max(2, min(h, w) // 40)
    rise = light - _lighting(light)
    border = np.concatenate(
        [
            rise[:ring].ravel(),
            rise[-ring:].ravel(),
            rise[:, :ring].ravel(),
            rise[:, -ring:].ravel(),
        ]
    )
    bg = float(np.median(border))
    neutral = rise[chroma < 25]
    face = float(np.percentile(neutral, 99.5)) if neutral.size else 0.0
    darker = face - bg >= 40
    if darker:
        # Tiles lighter than the background (as lit where they lie): halfway between.
        faces = (rise > (face + bg) / 2) & (chroma < 40)
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
    mask = faces.astype(np.uint8) * 255
    # Holes (pips, the divider) are filled before any opening: a divider that runs close
    # to the tile's edge must not be opened into a notch.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    # Thin bridges of cloth or shadow between tiles are cut by a small opening.
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8)), darker


def _lighting(light: np.ndarray) -> np.ndarray:
    """The background's lightness as lit, everywhere: a quadratic surface fitted to the
    pixels that are not tile face (starting from the photo's border), so that uneven light
    does not hide a tile in a dim corner."""
    h, w = light.shape
    f = 96 / max(h, w)
    small = cv2.resize(
        light, (max(2, round(w * f)), max(2, round(h * f))), interpolation=cv2.INTER_AREA
    )
    sh, sw = small.shape
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xs, ys = xx / sw - 0.5, yy / sh - 0.5
    basis = np.stack([np.ones_like(xs), xs, ys, xs * xs, xs * ys, ys * ys], axis=-1)
    ring = max(1, min(sh, sw) // 10)
    use = np.zeros((sh, sw), bool)
    use[:ring], use[-ring:], use[:, :ring], use[:, -ring:] = True, True, True, True
    coef = np.zeros(6, np.float32)
    for _ in range(3):
        a, b = basis[use], small[use]
        if b.size < 12:
            break
        coef = np.linalg.lstsq(a, b, rcond=None)[0].astype(np.float32)
        resid = small - basis @ coef
        spread = float(np.percentile(resid, 99))
        use = resid < max(12.0, 0.4 * spread)
        use = cv2.erode(use.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xs, ys = xx / w - 0.5, yy / h - 0.5
    c = coef
    return c[0] + c[1] * xs + c[2] * ys + c[3] * xs * xs + c[4] * xs * ys + c[5] * ys * ys


def _ink(light: np.ndarray, ab: np.ndarray, region: np.ndarray, scale: float) -> np.ndarray:
    """How strongly each pixel of ``region`` stands out from the face: darker than the face
    around it, or of another colour. Returns a float map, 1.0 at the detection threshold."""
    inside = region.astype(bool)
    if not inside.any():
        return np.zeros(light.shape, np.float32)
    face_l = float(np.percentile(light[inside], 70))
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
) -> list[_Divider]:
    """Divider bars in one light region: straight, narrow marks that run across a tile
    face (face on both sides, both ends short of the region's edge)."""
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
    ink = _ink(sub_l, sub_ab, inner, min(0.35 * size, 60.0))
    dist = cv2.distanceTransform(reg, cv2.DIST_L2, 3)
    found: list[_Divider] = []
    taken = np.zeros(reg.shape, np.uint8)
    # A bar that touches a pip at 1.0 may stand alone at a stricter level; a bar found at
    # 1.0 is not looked at again (its pieces at the stricter level are no bars).
    for level in (1.0, 1.7, 2.6, 3.5):
        strong = (ink > level).astype(np.uint8)
        contours, _ = cv2.findContours(strong, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            div = _bar(contour, dist, reg)
            if div is None:
                continue
            cx, cy = (round(float(t)) for t in div[0])
            if taken[cy, cx]:
                continue
            cv2.drawContours(taken, [contour], -1, 1, cv2.FILLED)
            c, u, length, thick, fill = div
            found.append(_Divider(c, u, length, thick, index, fill))
    found = _join_pieces(found, ink)
    for bar in found:
        bar.center = bar.center + np.array([x0 - pad, y0 - pad])
    return found


def _join_pieces(found: list[_Divider], ink: np.ndarray) -> list[_Divider]:
    """Join pieces of one bar cut in two (by a spinner in its middle, a highlight, a
    chip): collinear, end to end, with a short gap between them that is not clean face
    (the dividers of two tiles side by side have face between them)."""
    joined = True
    while joined:
        joined = False
        for i, a in enumerate(found):
            for j in range(i + 1, len(found)):
                b = found[j]
                if not _can_join(a, b, ink):
                    continue
                merged = _merged(a, b)
                found = [f for k, f in enumerate(found) if k not in (i, j)] + [merged]
                joined = True
                break
            if joined:
                break
    return found


def _can_join(a: _Divider, b: _Divider, ink: np.ndarray) -> bool:
    """Whether ``a`` and ``b`` are two pieces of one bar: collinear, end to end, and any
    gap between them is ink (not clean face) that does not cross the bar's line."""
    if abs(float(np.dot(a.u, b.u))) < 0.97:
        return False
    d = b.center - a.center
    along = abs(float(np.dot(d, a.u)))
    across = abs(float(a.u[0] * d[1] - a.u[1] * d[0]))
    gap = along - (a.length + b.length) / 2
    if across > max(a.thickness, b.thickness) + 2 or not (
        -2 <= gap <= 0.6 * max(a.length, b.length)
    ):
        return False
    if gap > 2:
        start = a.center + a.u * np.sign(np.dot(d, a.u)) * a.length / 2
        step = a.u * np.sign(np.dot(d, a.u))
        pts = np.array([start + step * t for t in np.linspace(0, gap, 9)])
        if float((_sample(ink, pts) < 0.5).mean()) > 0.3:
            return False
        # A seam between two tiles crosses the bar's line; a spinner does not
        # reach far beside the bar.
        mid_gap = start + step * gap / 2
        v = np.array([-a.u[1], a.u[0]])
        off = 2.5 * max(a.thickness, b.thickness)
        beside = np.array([mid_gap + v * off, mid_gap - v * off])
        if float(_sample(ink, beside).min()) > 0.5:
            return False
    return True


def _merged(a: _Divider, b: _Divider) -> _Divider:
    """One divider spanning both pieces ``a`` and ``b``, along ``a``'s direction."""
    ends = [a.center + a.u * a.length / 2 * s for s in (-1, 1)] + [
        b.center + a.u * b.length / 2 * s for s in (-1, 1)
    ]
    proj = [float(np.dot(e - a.center, a.u)) for e in ends]
    lo, hi = min(proj), max(proj)
    centre = a.center + a.u * (lo + hi) / 2
    fill = min(a.fill, b.fill)
    return _Divider(centre, a.u, hi - lo, max(a.thickness, b.thickness), a.component, fill)


def _bar(
    contour: np.ndarray, dist: np.ndarray, reg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float, float, float] | None:
    """A divider bar from one dark blob: (centre, unit direction, length, thickness,
    fill), or None when the blob is not bar-shaped or not inside a tile face."""
    blob_area = cv2.contourArea(contour)
    if blob_area < 12:
        return None
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    length, thick = max(rw, rh), max(1.0, min(rw, rh))
    fill = blob_area / (length * thick)
    if length < 10 or length / thick < 3.5 or fill < 0.6:
        return None
    theta = math.radians(angle if rw >= rh else angle + 90)
    u = np.array([math.cos(theta), math.sin(theta)])
    c = np.array([cx, cy])
    if not _ends_inside(c, u, length, dist):
        return None  # reaches the region's edge: a gap between tiles or a shadow line
    # A divider has tile face on both sides of it, at least half a tile width deep.
    if not _face_both_sides(c, u, length, reg):
        return None
    return c, u, float(length), float(thick), float(fill)


def _ends_inside(c: np.ndarray, u: np.ndarray, length: float, dist: np.ndarray) -> bool:
    """Whether both ends of the bar (centre ``c``, direction ``u``) lie well inside the
    region, by its distance transform ``dist``."""
    hgt, wid = dist.shape
    for end in (c + u * length * 0.5, c - u * length * 0.5):
        ex, ey = (round(float(v)) for v in end)
        inside = 0 <= ey < hgt and 0 <= ex < wid
        if not inside or dist[ey, ex] < max(1.5, 0.025 * length):
            return False
    return True


def _face_both_sides(c: np.ndarray, u: np.ndarray, length: float, reg: np.ndarray) -> bool:
    """Whether the region mask ``reg`` holds face on both sides of the bar, at 8 in 10 of
    nine points from 0.3 to 0.7 bar lengths out."""
    hgt, wid = reg.shape[:2]
    v = np.array([-u[1], u[0]])
    for sign in (-1, 1):
        hits = total = 0
        for t in (0.3, 0.5, 0.7):
            for along in (-0.3, 0.0, 0.3):
                px, py = c + sign * v * t * length + u * along * length
                ix, iy = round(float(px)), round(float(py))
                total += 1
                if 0 <= iy < hgt and 0 <= ix < wid and reg[iy, ix]:
                    hits += 1
        if hits < 0.8 * total:
            return False
    return True


def _sample(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of a float image at (x, y) points."""
    h, w = image.shape[:2]
    xs, ys = pts[:, 0], pts[:, 1]
    outside = (xs < 0) | (ys < 0) | (xs > w - 1) | (ys > h - 1)
    xs, ys = np.clip(xs, 0, w - 1.001), np.clip(ys, 0, h - 1.001)
    x0, y0 = xs.astype(np.intp), ys.astype(np.intp)
    fx, fy = xs - x0, ys - y0
    top = image[y0, x0] * (1 - fx) + image[y0, x0 + 1] * fx
    bottom = image[y0 + 1, x0] * (1 - fx) + image[y0 + 1, x0 + 1] * fx
    values = top * (1 - fy) + bottom * fy
    values[outside] = 0
    return values


def _edge(
    light: np.ndarray, mask: np.ndarray, start: np.ndarray, d: np.ndarray, near: float, far: float
) -> float:
    """How far from ``start`` along ``d`` the tile face ends: where the region ends or the
    lightness drops well below what it has been (a gap or the bevel of a touching tile).
    Returns ``far`` when no end is found."""
    ts = np.arange(near, far, 0.5)
    if ts.size == 0:
        return far
    pts = start[None, :] + ts[:, None] * d[None, :]
    vals = _sample(light, pts)
    inside = _sample(mask, pts) > 127
    # The face's lightness: what most of the way out looks like (a pip or the bar's blur
    # at the start does not count); the face ends well below it.
    ref = float(np.percentile(vals[: max(4, int(0.5 * vals.size))], 75))
    end = (~inside) | (vals < ref - max(22.0, 0.12 * ref))
    where = np.flatnonzero(end)
    return float(ts[where[0]]) if where.size else far


def _spacing_caps(
    measured: list[tuple[_Divider, float, float, float, bool]],
) -> list[tuple[_Divider, float, float, float, bool]]:
    """Tiles do not overlap: a tile is no wider than the step to the next divider in its
    row (side by side) and no longer than the step to the next in its column (end to
    end). Where a seam was too faint to stop the measurement, this is the width."""
    out = []
    for i, (div, e1, e2, width, good) in enumerate(measured):
        u = div.u
        v = np.array([-u[1], u[0]])
        cap = math.inf
        for j, other in enumerate(measured):
            if i == j or abs(float(np.dot(u, other[0].u))) < 0.95:
                continue
            if not 0.7 < other[0].length / div.length < 1.4:
                continue
            d = other[0].center - div.center
            du, dv = abs(float(np.dot(d, u))), abs(float(np.dot(d, v)))
            if dv < 0.3 * width and du > 0.8 * div.length:
                cap = min(cap, du)  # side by side
            elif du < 0.3 * width and dv > 1.6 * div.length:
                cap = min(cap, dv / 2)  # end to end
        if width > 1.05 * cap:
            out.append((div, cap / 2, cap / 2, cap, 1.05 * div.length < cap < 2.6 * div.length))
        else:
            out.append((div, e1, e2, width, good))
    return out


def _tile_outlines(
    dividers: list[_Divider],
    mask: np.ndarray,
    light: np.ndarray,
    labels: np.ndarray,
    regions: dict[int, np.ndarray],
    stats: np.ndarray,
) -> list[_Candidate]:
    """One outline per divider: a rectangle centred on the divider, as wide as the face
    runs on along the divider's line and twice as long (touching tiles end at the dark
    seam between them), or the region's own outline for a tile that stands alone."""
    maskf = mask.astype(np.float32)
    # One hand, one set: every divider is about as long as the others (give or take the
    # perspective). Much shorter bars are marks on a face (a glint's edge, a scratch).
    if len(dividers) >= 2:
        longest = float(np.percentile([d.length for d in dividers], 75))
        dividers = [d for d in dividers if d.length >= 0.5 * longest]
    measured = _measure_dividers(dividers, light, maskf)
    measured = _spacing_caps(measured)
    ratios = [m[3] / m[0].length for m in measured if m[4]]
    lengths = [m[0].length for m in measured]
    ratio = float(np.median(ratios)) if ratios else 0.0
    typical = float(np.median(lengths)) if lengths else 0.0
    cands: list[_Candidate] = []
    for entry in measured:
        cand = _divider_outline(entry, ratio, typical, len(lengths), light, maskf)
        if cand is not None:
            cands.append(cand)
    kept = _without_overlaps(cands)
    _fit_lone_tiles(kept, labels, regions, stats)
    return kept


def _measure_dividers(
    dividers: list[_Divider], light: np.ndarray, maskf: np.ndarray
) -> list[tuple[_Divider, float, float, float, bool]]:
    """How far the face runs on each side along every divider's line: (divider, e1, e2,
    width, whether the two sides agree and the width is plausible)."""
    measured = []
    for div in dividers:
        u = div.u
        v = np.array([-u[1], u[0]])
        far = 1.6 * div.length
        beside = div.thickness / 2 + max(2.0, 0.12 * div.length)
        sides = []
        for sign in (1, -1):
            # On the bar's line beyond its end, and on both sides of the bar, where no pip
            # lies in any standard layout.
            runs = [
                _edge(light, maskf, div.center, sign * u, div.length / 2 + 1, far),
                _edge(light, maskf, div.center + v * beside, sign * u, 0.0, far),
                _edge(light, maskf, div.center - v * beside, sign * u, 0.0, far),
            ]
            sides.append(float(np.median(runs)))
        e1, e2 = sides
        width = e1 + e2
        good = abs(e1 - e2) < 0.15 * width and 1.05 * div.length < width < 2.6 * div.length
        measured.append((div, e1, e2, width, good))
    return measured


def _divider_outline(
    entry: tuple[_Divider, float, float, float, bool],
    ratio: float,
    typical: float,
    count: int,
    light: np.ndarray,
    maskf: np.ndarray,
) -> _Candidate | None:
    """The outline around one measured divider (``ratio``: the hand's median width over
    divider length, ``typical``: its median divider length, of ``count`` dividers), or
    None when it does not lie on tile face."""
    div, e1, e2, width, good = entry
    u = div.u
    v = np.array([-u[1], u[0]])
    centre = div.center.copy()
    quality = div.fill
    if count >= 3 and not 0.6 * typical < div.length < 1.5 * typical:
        quality -= 0.5  # not like the other dividers of the hand
    if ratio and good and abs(width - ratio * div.length) < 0.15 * ratio * div.length:
        centre = centre + u * (e1 - e2) / 2
        geo = 1.0
        quality += 1.0
    elif ratio:
        width = ratio * div.length
        geo = 0.9
    else:
        width = 1.4 * div.length
        geo = 0.8
    # Along the tile: from the divider both ways to the face's end. Pips stop some of
    # the lines early; the longest run is the face's (a seam stops every line).
    runs = []
    near = div.thickness + 0.1 * width  # clear of the bar and its blur
    for sign in (1, -1):
        ends = [
            _edge(light, maskf, centre + u * off * width, sign * v, near, 1.6 * width)
            for off in np.linspace(-0.4, 0.4, 9)
        ]
        runs.append(max(ends))
    # The divider is in the middle: pips in every line's way (big pips, a diagonal
    # layout) can stop one side short, so the longer side tells the half's length.
    half = max(runs)
    length = 2 * half if 0.65 * width <= half <= 1.25 * width else 2 * width
    corners = np.array(
        [
            centre - v * length / 2 - u * width / 2,
            centre - v * length / 2 + u * width / 2,
            centre + v * length / 2 + u * width / 2,
            centre + v * length / 2 - u * width / 2,
        ]
    )
    # The outline must lie on tile face.
    grid = np.array(
        [
            centre + u * a * width + v * b * length
            for a in np.linspace(-0.4, 0.4, 5)
            for b in np.linspace(-0.35, 0.35, 9)
        ]
    )
    cover = float((_sample(maskf, grid) > 127).mean())
    if cover < 0.8:
        return None
    return _Candidate(corners, geo, centre, width, quality + cover)


def _without_overlaps(cands: list[_Candidate]) -> list[_Candidate]:
    """Of outlines overlapping by more than a quarter, the better one (by quality)."""
    cands.sort(key=lambda c: -c.quality)
    kept: list[_Candidate] = []
    for cand in cands:
        area = abs(cv2.contourArea(cand.corners.astype(np.float32)))
        clash = False
        for other in kept:
            inter, _ = cv2.intersectConvexConvex(
                cand.corners.astype(np.float32), other.corners.astype(np.float32)
            )
            other_area = abs(cv2.contourArea(other.corners.astype(np.float32)))
            if inter > 0.25 * min(area, other_area):
                clash = True
                break
        if not clash:
            kept.append(cand)
    return kept


def _fit_lone_tiles(
    kept: list[_Candidate], labels: np.ndarray, regions: dict[int, np.ndarray], stats: np.ndarray
) -> None:
    """Give a tile standing alone in its region the region's own outline (perspective,
    exact size) when it fits the divider's outline; changes the candidates in place."""
    by_region: dict[int, list[_Candidate]] = {}
    for cand in kept:
        px, py = (round(float(t)) for t in cand.center)
        py = min(max(py, 0), labels.shape[0] - 1)
        px = min(max(px, 0), labels.shape[1] - 1)
        by_region.setdefault(int(labels[py, px]), []).append(cand)
    for index, group in by_region.items():
        if len(group) != 1 or index not in regions:
            continue
        cand = group[0]
        x, y = stats[index, 0], stats[index, 1]
        region = regions[index].astype(np.uint8)
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        contour = max(contours, key=cv2.contourArea) + np.array([x, y])
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour.astype(np.float32))
        long_, short = float(max(rw, rh)), float(min(rw, rh))
        if short <= 0:
            continue
        theta = math.radians(angle if rw >= rh else angle + 90)
        v = np.array([math.cos(theta), math.sin(theta)])
        old_v = cand.corners[3] - cand.corners[0]
        old_v /= np.linalg.norm(old_v) + 1e-9
        fill = cv2.contourArea(contour.astype(np.float32)) / (long_ * short)
        aspect = long_ / short
        if (
            1.3 <= aspect <= 2.6
            and abs(float(np.dot(v, old_v))) > 0.95
            and fill > 0.85
            and abs(short - cand.width) < 0.2 * cand.width
        ):
            quad = _quad(contour, np.array([cx, cy]), v, long_, short)
            # Keep the corner order of the divider's outline (u, v as before).
            order = [int(np.argmin(np.linalg.norm(quad - c, axis=1))) for c in cand.corners]
            if len(set(order)) == 4:
                cand.corners = quad[order]
                cand.geometry = max(cand.geometry, 0.95)


def _uncovered(
    candidates: list[_Candidate],
    regions: dict[int, np.ndarray],
    stats: np.ndarray,
    light: np.ndarray,
    ab: np.ndarray,
) -> list[_Result]:
    """Light regions that no tile outline covers and that carry pip-like marks or a bar: a
    tile whose divider went unseen (or one cut by the photo's edge). Never silently left
    out of the total. In a region that holds tiles read, a blank piece of face as big as
    a tile is a doubt too: the region holds more tiles than were read."""
    widths = [c.width for c in candidates]
    tile_w = float(np.median(widths)) if widths else 0.0
    covered = np.zeros(light.shape, np.uint8)
    for cand in candidates:
        grown = cand.center + (cand.corners - cand.center) * 1.08
        cv2.fillConvexPoly(covered, grown.astype(np.int32), 1)
    holding = set()
    for cand in candidates:
        px = min(max(round(float(cand.center[0])), 0), light.shape[1] - 1)
        py = min(max(round(float(cand.center[1])), 0), light.shape[0] - 1)
        holding.add(_region_at(regions, stats, px, py))
    out: list[_Result] = []
    for index, region in regions.items():
        x, y, w, h = stats[index, :4]
        free = region & (covered[y : y + h, x : x + w] == 0)
        k = max(5, round(0.15 * tile_w)) if tile_w else 9
        free = cv2.morphologyEx(free.astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
        n, labels, st, _ = cv2.connectedComponentsWithStats(free, connectivity=4)
        for i in range(1, n):
            area = float(st[i, cv2.CC_STAT_AREA])
            if area < max(0.25 * tile_w * tile_w, 300.0 if tile_w else 1500.0):
                continue
            part = (labels == i).astype(np.uint8)
            inner = cv2.erode(part, np.ones((5, 5), np.uint8), iterations=2)
            sub_l = light[y : y + h, x : x + w]
            sub_ab = ab[y : y + h, x : x + w]
            size = tile_w or math.sqrt(area / 2)
            ink = _ink(sub_l, sub_ab, inner, min(0.35 * size, 60.0))
            contours, _ = cv2.findContours(
                (ink > 1.0).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
            )
            depth = cv2.distanceTransform(part, cv2.DIST_L2, 3)
            marks = [c for c in contours if _is_mark(c, depth, size)]
            if not marks:
                if index in holding and _one_more_tile(part, tile_w):
                    # Face enough for one more tile beside the tiles read: the hand reads
                    # as fewer tiles than its outline holds (a double-blank missed?).
                    corners = cv2.boxPoints(cv2.minAreaRect(cv2.findNonZero(part)))
                    why = "face enough for one more tile than were read"
                    corners = (corners + np.array([x, y], np.float32)).astype(np.float64)
                    out.append((corners, None, 0.0, [], why))
                continue  # blank: a face-down tile or the like
            pts = np.concatenate(marks).reshape(-1, 2).astype(np.float32)
            (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts)
            pad = 0.3 * size
            rect = ((cx, cy), (rw + pad, rh + pad), angle)
            corners = cv2.boxPoints(rect) + np.array([x, y], np.float32)
            out.append(
                (corners.astype(np.float64), None, 0.0, [], "a tile whose divider was not found")
            )
    return out


def _region_at(regions: dict[int, np.ndarray], stats: np.ndarray, x: int, y: int) -> int:
    """The label of the region that holds pixel (x, y), or 0."""
    for index, region in regions.items():
        rx, ry, rw, rh = stats[index, :4]
        if rx <= x < rx + rw and ry <= y < ry + rh and region[y - ry, x - rx]:
            return index
    return 0


def _one_more_tile(part: np.ndarray, tile_w: float) -> bool:
    """Whether a blank piece of face (uint8 0/1) left over beside the tiles read is a
    whole tile's worth: most of a tile's area, a tile's width across, filling its box."""
    area = float(part.sum())
    if area < 1.5 * tile_w * tile_w:
        return False
    (_, _), (rw, rh), _ = cv2.minAreaRect(cv2.findNonZero(part))
    return 0.75 * tile_w <= min(rw, rh) and area >= 0.75 * rw * rh


def _missed_faces(
    candidates: list[_Candidate], results: list[_Result], light: np.ndarray, ab: np.ndarray
) -> list[_Result]:
    """A second look, past the face mask, for tiles it left out (a tile in shadow, dimmer
    than the others): a light, tile-sized region outside every outline found, lighter than
    the background by at least a third of what the tiles read are, with pip-like marks or
    a bar on it. Such a region is a doubt, never silently left out of the total."""
    if not candidates:
        return []
    tile_w = float(np.median([c.width for c in candidates]))
    covered = np.zeros(light.shape, np.uint8)
    for corners, *_ in results:
        centre = corners.mean(axis=0)
        cv2.fillConvexPoly(covered, (centre + (corners - centre) * 1.15).astype(np.int32), 1)
    if not covered.any() or covered.all():
        return []
    # Lightness above the table around it (a white top-hat wider than a tile is broad):
    # a tile in a shadow stands out from the shadowed table as the others do from theirs.
    f = min(1.0, 24 / tile_w)
    small = cv2.resize(light, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    k_bg = max(3, round(1.5 * tile_w * f)) | 1
    table = cv2.morphologyEx(small, cv2.MORPH_OPEN, np.ones((k_bg, k_bg), np.uint8))
    table = cv2.resize(table, (light.shape[1], light.shape[0]), interpolation=cv2.INTER_LINEAR)
    rise = light - table
    face = float(np.percentile(rise[covered > 0], 75))
    if face < 30:
        return []  # tiles hardly lighter than the table: the face mask's own look is all
    chroma = np.hypot(ab[:, :, 0], ab[:, :, 1])
    loose = (rise > face / 3) & (chroma < 45) & (covered == 0)
    k = max(3, round(0.3 * tile_w)) | 1
    # Pips and the bar are holes: filled first, or the opening cuts a tile at its bar.
    loose = cv2.morphologyEx(_filled(loose), cv2.MORPH_OPEN, cv2.getStructuringElement(2, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(loose, connectivity=4)
    out: list[_Result] = []
    for i in range(1, n):
        x, y, w, h = stats[i, :4]
        if stats[i, cv2.CC_STAT_AREA] < 1.2 * tile_w * tile_w:
            continue
        part = _filled(labels[y : y + h, x : x + w] == i)  # its pips and bar are holes
        contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        (_, _), (rw, rh), _ = cv2.minAreaRect(max(contours, key=cv2.contourArea))
        if min(rw, rh) < 0.6 * tile_w or part.sum() < 0.6 * rw * rh:
            continue  # not tile-shaped: a strip of table, a glint
        inner = cv2.erode(part, np.ones((5, 5), np.uint8), iterations=2)
        sub_l, sub_ab = light[y : y + h, x : x + w], ab[y : y + h, x : x + w]
        ink = _ink(sub_l, sub_ab, inner, min(0.35 * tile_w, 60.0))
        found, _ = cv2.findContours(
            (ink > 1.0).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
        )
        depth = cv2.distanceTransform(part, cv2.DIST_L2, 3)
        marks = [c for c in found if _is_mark(c, depth, tile_w)]
        if not marks:
            continue  # blank: a face-down tile, a sheet of paper
        pts = np.concatenate(marks).reshape(-1, 2).astype(np.float32)
        (cx, cy), (mw, mh), angle = cv2.minAreaRect(pts)
        rect = ((cx, cy), (mw + 0.3 * tile_w, mh + 0.3 * tile_w), angle)
        corners = cv2.boxPoints(rect) + np.array([x, y], np.float32)
        why = "a light, tile-sized region with pip-like marks that no tile read accounts for"
        out.append((corners.astype(np.float64), None, 0.0, [], why))
    return out


def _is_mark(contour: np.ndarray, depth: np.ndarray, size: float) -> bool:
    """Whether an ink contour in an uncovered region looks like a pip or a divider bar
    (and is not a line along the region's edge); ``depth`` is the region's distance
    transform, ``size`` the tile width."""
    h, w = depth.shape
    blob = float(cv2.contourArea(contour))
    m = cv2.moments(contour)
    if not m["m00"]:
        return False
    mx, my = round(m["m10"] / m["m00"]), round(m["m01"] / m["m00"])
    if depth[min(my, h - 1), min(mx, w - 1)] < max(3.0, 0.1 * size):
        return False  # along the region's edge: a shadow's or a bevel's line
    (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
    long_ = max(rw, rh)
    pip_like = math.pi * (0.04 * size) ** 2 <= blob <= math.pi * (0.2 * size) ** 2
    bar_like = 0.35 * size <= long_ <= 1.1 * size and long_ > 3 * min(rw, rh)
    return bool(pip_like or bar_like)


def _quad(
    contour: np.ndarray, center: np.ndarray, v: np.ndarray, long_: float, short: float
) -> np.ndarray:
    """The tile's four corners: a perspective-aware quadrilateral when the outline
    simplifies to one, else the min-area rectangle."""
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
    return q


def _warp(image: np.ndarray, corners: np.ndarray) -> np.ndarray | None:
    """The tile upright, CW x CL pixels inside a margin of PAD tile widths, as float LAB."""
    src = corners.astype(np.float32)
    p = PAD * CW
    dst = np.array(
        [[p, p], [p + CW - 1, p], [p + CW - 1, p + CL - 1], [p, p + CL - 1]], np.float32
    )
    if abs(cv2.contourArea(src)) < 50:
        return None
    matrix = cv2.getPerspectiveTransform(src, dst)
    bgr = cv2.warpPerspective(
        image, matrix, (PW, PL), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    bgr = cv2.GaussianBlur(bgr, (3, 3), 0)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


def _read_tile(
    tile_lab: np.ndarray, top: int, sure: bool = True
) -> tuple[list[_Half] | None, float, str]:
    """Find the face and divider of an upright tile image (see :func:`_warp`) and read both
    halves; ``sure`` when the outline was measured, not sized from the other tiles.
    Returns the halves (None when this is no tile face), a factor for the doubt about the
    tile as a whole, and why."""
    light = tile_lab[:, :, 0]
    ab = tile_lab[:, :, 1:] - 128.0
    chroma = np.hypot(ab[:, :, 0], ab[:, :, 1])
    p = round(PAD * CW)
    nominal = (slice(p, p + CL), slice(p, p + CW))
    face_l = float(np.percentile(light[nominal], 75))
    bright = light > face_l - max(30.0, 0.18 * face_l)
    face_ab = np.zeros(2)
    if bright[nominal].any():
        face_ab = np.median(ab[nominal][bright[nominal]], axis=0)
    tint = np.hypot(ab[:, :, 0] - face_ab[0], ab[:, :, 1] - face_ab[1])
    facelike = bright & (chroma < 35) & (tint < 14)
    if float(facelike[nominal].mean()) < 0.45:
        return None, 0.0, "not a tile face"
    # The face's edges: outermost rows and columns that are mostly face.
    # Pips are holes in the face: filled, a row of pips near the end is face too.
    solid = _filled(facelike)
    x0, x1, miss_x, y0, y1, miss_y = _face_edges(solid, p)
    seen_x, seen_y = miss_x == 0, miss_y == 0
    fx0, fx1 = x0, x1  # the face's own side edges
    inset = max(2, int(0.04 * CW))
    x0, x1, y0, y1 = x0 + inset, x1 - inset, y0 + inset, y1 - inset
    region = np.zeros(light.shape, np.uint8)
    region[y0:y1, x0:x1] = 1
    ink = _ink(light, ab, region, 0.4 * CW)
    d0, d1, doubt, why = _divider_rows(ink, light, face_l, (x0, y0, x1, y1), (fx0, fx1))
    if not sure and (miss_x == 2 or miss_y == 2):
        # Sized from the other tiles, not measured, and the face runs on past both ends:
        # the outline may hold only the middle of the tile (and a wrong count of pips).
        doubt *= 0.4
        why = f"{why}; the tile's outline is unsure".lstrip("; ")
    elif not (seen_x and seen_y):
        doubt *= 0.8
        why = f"{why}; the tile's edges are not clear".lstrip("; ")
    gap = max(2, int(0.04 * CW))
    halves = [
        _read_half(ink, ab, (x0, y0, x1, d0 - gap), top),
        _read_half(ink, ab, (x0, d1 + gap, x1, y1), top),
    ]
    return halves, doubt, why


def _face_edges(solid: np.ndarray, p: int) -> tuple[int, int, int, int, int, int]:
    """The face's edges in the upright tile image (``p`` its padding): x0, x1, how many
    side ends were not seen, y0, y1, how many top/bottom ends were not seen; the nominal
    outline where the measured one is implausible."""
    # Across the tile, band by band (a seam a little aslant still stops each band).
    x0, x1, miss_x = p, p + CW, 0
    bands = [
        _ends(solid[r : r + CL // 5].mean(axis=0), p, p + CW)
        for r in range(p + CL // 10, p + CL - CL // 5, CL // 5)
    ]
    if bands:
        x0 = max(b[0] for b in bands)
        x1 = min(b[1] for b in bands)
        miss_x = max(b[2] for b in bands)
    y0, y1, miss_y = _ends(solid[:, p + CW // 4 : p + CW - CW // 4].mean(axis=1), p, p + CL)
    if not (0.8 * CW <= x1 - x0 <= 1.3 * CW):
        x0, x1, miss_x = p, p + CW, max(miss_x, 1)
    if not (0.7 * CL <= y1 - y0 <= 1.25 * CL):
        y0, y1, miss_y = p, p + CL, max(miss_y, 1)
    return x0, x1, miss_x, y0, y1, miss_y


def _divider_rows(
    ink: np.ndarray,
    light: np.ndarray,
    face_l: float,
    box: tuple[int, int, int, int],
    sides: tuple[int, int],
) -> tuple[int, int, float, str]:
    """The divider's rows d0..d1 within the face ``box`` (x0, y0, x1, y1), with a doubt
    factor and why: off the middle, running right across to the face's ``sides``, or
    not found (then d0 = d1 = the middle)."""
    x0, y0, x1, y1 = box
    fx0, fx1 = sides
    # The divider: the row band near the middle where ink runs across the tile.
    mid = (y0 + y1) // 2
    lo, hi = mid - int(0.2 * CW), mid + int(0.2 * CW)
    cx0, cx1 = x0 + (x1 - x0) // 5, x1 - (x1 - x0) // 5
    across = (ink[lo:hi, cx0:cx1] >= 1.0).mean(axis=1)
    doubt, why = 1.0, ""
    if across.size and across.max() > 0.5:
        band = np.flatnonzero(across >= 0.5 * across.max())
        peak = int(np.argmax(across))
        # The contiguous run of the band around the peak.
        top_row = peak
        while top_row - 1 in band:
            top_row -= 1
        bottom_row = peak
        while bottom_row + 1 in band:
            bottom_row += 1
        d0, d1 = lo + top_row, lo + bottom_row + 1
        if abs((d0 + d1) / 2 - mid) > 0.12 * CW:
            doubt, why = 0.7, "the divider is off the middle"
        # A divider stops short of the tile's sides; the seam between two touching tiles
        # (taken for a divider, the "tile" being halves of two) runs right across.
        dark = light[d0:d1] < face_l - max(40.0, 0.3 * face_l)
        rim = max(2, round(0.04 * CW))
        left = float(dark[:, fx0 : fx0 + rim].mean()) if dark.size else 0.0
        right = float(dark[:, fx1 - rim : fx1].mean()) if dark.size else 0.0
        if min(left, right) > 0.5:
            doubt, why = 0.3, "the bar runs right across (a seam between two tiles?)"
    else:
        d0 = d1 = mid
        doubt, why = 0.5, "no divider across the tile"
    return d0, d1, doubt, why


def _ends(profile: np.ndarray, start: int, end: int) -> tuple[int, int, int]:
    """Where the face ends near the outline's ``start`` and ``end``: going outward from a
    little inside, the first place the face stops (a touching tile's face beyond the seam
    does not count). The outline's own end where no stop is seen; and on how many of the
    two sides none was seen."""
    inside = round(0.1 * CW)
    missing = 0
    lo = start
    for i in range(min(start + inside, profile.size - 1), -1, -1):
        if profile[i] < 0.6:
            lo = i + 1
            break
    else:
        missing += 1
    hi = end
    for i in range(max(end - inside, 0), profile.size):
        if profile[i] < 0.6:
            hi = i
            break
    else:
        missing += 1
    return lo, hi, missing


def _extent(profile: np.ndarray, level: float) -> tuple[int, int]:
    """First and last index (end exclusive) where ``profile`` reaches ``level``."""
    where = np.flatnonzero(profile >= level)
    if where.size == 0:
        return 0, profile.size
    return int(where[0]), int(where[-1]) + 1


#: Pip areas, in upright-image pixels: a pip is 7% to 34% of the tile's width across.
MIN_PIP = math.pi * (0.035 * CW) ** 2
MAX_PIP = math.pi * (0.17 * CW) ** 2


_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (round(0.055 * CW),) * 2)


def _read_half(
    ink: np.ndarray, ab: np.ndarray, rect: tuple[int, int, int, int], top: int
) -> _Half:
    """Count the pips of one half: ``rect`` is (x0, y0, x1, y1) in the upright tile image."""
    x0, y0, x1, y1 = rect
    if x1 - x0 < 8 or y1 - y0 < 8:
        return _Half(0, 0.0, [], None, 0.0, "no room for a half")
    sub = ink[y0:y1, x0:x1]
    sub_ab = ab[y0:y1, x0:x1]
    hh, ww = sub.shape
    # Pips are cut at half their own contrast (so that blur does not run them together),
    # but never finer than the detection threshold.
    peak = float(np.percentile(sub, 99.5))
    level = max(1.0, 0.55 * peak)
    # An opening a little finer than the smallest pip wipes out thin marks: the bevel's
    # shading along the edges, what is left of the divider, scratches.
    strong_bin = cv2.morphologyEx(_filled(sub >= level), cv2.MORPH_OPEN, _OPEN)
    strong = _blobs(strong_bin, sub_ab)
    strong = [b for b in strong if not _at_edge(b, ww, hh)]
    reasons: list[str] = []
    conf = 1.0
    alternatives: set[int] = set()
    pips, med = _clean_pips(strong)
    centres = [b[2] for b in pips]
    colours = [b[4] for b in pips]
    for blob in strong:
        if any(blob is pip for pip in pips):
            continue
        conf = _other_blob(blob, med, len(pips), conf, reasons, alternatives, centres, colours)
    n = len(centres)
    colour = None
    conf = _size_doubt(pips, med, conf, reasons)
    if n:
        conf, colour = _check_pips(sub, centres, colours, med, conf, reasons, alternatives)
    else:
        conf = _check_blank(sub, sub_ab, conf, reasons, alternatives)
    conf, alts = _final_doubt(n, top, conf, reasons, alternatives)
    return _Half(n, conf, alts, colour, med, "; ".join(dict.fromkeys(reasons)), centres)


def _clean_pips(strong: list[tuple]) -> tuple[list[tuple], float]:
    """The blobs that are pips by size and shape, and their median area (0 if none)."""
    pips = [b for b in strong if MIN_PIP <= b[0] <= MAX_PIP and b[1] > 0.6]
    med = float(np.median([b[0] for b in pips])) if pips else 0.0
    return pips, med


def _size_doubt(pips: list[tuple], med: float, conf: float, reasons: list[str]) -> float:
    """The confidence, lowered when the pips' areas differ much from their median."""
    if pips:
        areas = np.array([b[0] for b in pips])
        if np.any(areas < 0.5 * med) or np.any(areas > 1.8 * med):
            conf *= 0.4
            reasons.append("pips of different sizes")
    return conf


def _final_doubt(
    n: int, top: int, conf: float, reasons: list[str], alternatives: set[int]
) -> tuple[float, list[int]]:
    """No confidence in more pips than the set has; the other counts (0..top) that the
    half might hold, sorted."""
    if n > top:
        conf = 0.0
        reasons.append(f"{n} pips, more than the set has")  # _OVER_SET reads it back
    alternatives.discard(n)
    alts = sorted(a for a in alternatives if 0 <= a <= top)
    return conf, alts


def _at_edge(blob: tuple, ww: int, hh: int) -> bool:
    """Whether a blob of a ``ww`` x ``hh`` half is shading along its edge, not a pip: it
    touches the edge and is thin, faint or small."""
    edge = 0.03 * CW
    bx, by, bw, bh = blob[3]
    touches = bx <= edge or by <= edge or bx + bw >= ww - edge or by + bh >= hh - edge
    thin = max(bw, bh) > 2.2 * min(bw, bh) or blob[1] < 0.4
    return touches and (thin or blob[0] < 0.5 * MIN_PIP)


def _other_blob(
    blob: tuple,
    med: float,
    n_pips: int,
    conf: float,
    reasons: list[str],
    alternatives: set[int],
    centres: list[np.ndarray],
    colours: list[np.ndarray],
) -> float:
    """A blob of a half that is not one clean pip: a speck (ignored), k pips run together
    by blur (added to ``centres`` and ``colours``), or a doubt. Returns the confidence."""
    if blob[0] < (0.3 * med if med else 0.35 * MIN_PIP):
        return conf  # a speck
    (bcx, bcy), (rw, rh), angle = blob[5]
    long_, short = max(rw, rh), min(rw, rh)
    # The size of one pip: the others', or the blob's own width.
    one = med or math.pi * short * short / 4
    ratio = blob[0] / one if one else 0.0
    k = round(ratio)
    if 2 <= k <= 4 and abs(ratio - k) < 0.3 and blob[1] < 0.75 and one >= MIN_PIP:
        # Pips run together by blur: k pips in a line along the blob.
        theta = math.radians(angle if rw >= rh else angle + 90)
        axis = np.array([math.cos(theta), math.sin(theta)])
        diameter = 2 * math.sqrt(one / math.pi)
        if abs(long_ - k * diameter) < 0.35 * diameter * k:
            for j in range(k):
                t = (j - (k - 1) / 2) * long_ / k
                centres.append(np.array([bcx, bcy]) + axis * t)
                colours.append(blob[4])
            conf *= 0.85
            return conf
    conf *= 0.3
    reasons.append("a blob that is not a pip")
    if k >= 2:
        alternatives.add(n_pips + k)
    alternatives.add(n_pips + 1)
    return conf


def _check_pips(
    sub: np.ndarray,
    centres: list[np.ndarray],
    colours: list[np.ndarray],
    med: float,
    conf: float,
    reasons: list[str],
    alternatives: set[int],
) -> tuple[float, np.ndarray]:
    """Doubts about the pips found in a half (``sub``, its ink): faint blobs beside them,
    a layout that is not symmetric or off centre, mixed colours. Returns the confidence
    and the pips' mean colour; adds to ``reasons`` and ``alternatives``."""
    hh, ww = sub.shape
    edge = 0.03 * CW
    n = len(centres)
    cents = np.array(centres)
    # Faint pip-like blobs that only a weaker threshold sees, away from every pip.
    weak_bin = cv2.morphologyEx(_filled(sub >= 0.55), cv2.MORPH_OPEN, _OPEN)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(weak_bin, connectivity=8)
    holds = np.zeros(count, bool)
    for cx, cy in cents:
        holds[labels[min(hh - 1, max(0, round(cy))), min(ww - 1, max(0, round(cx)))]] = True
    for i in range(1, count):
        area = float(stats[i, cv2.CC_STAT_AREA])
        if holds[i] or area < 0.5 * med or area > 3 * med:
            continue
        bx, by, bw, bh = stats[i, :4]
        compact = max(bw, bh) <= 2.2 * min(bw, bh) and area >= 0.6 * bw * bh
        if _touches((bx, by, bw, bh), ww, hh, edge) and not compact:
            continue  # shading along the face's edge
        conf *= 0.35
        reasons.append("a faint blob")
        alternatives.add(n + 1)
    # Symmetry: every standard layout looks the same turned half a turn.
    centroid = cents.mean(axis=0)
    mirrored = 2 * centroid - cents
    dists = np.linalg.norm(mirrored[:, None, :] - cents[None, :, :], axis=2).min(axis=1)
    err = float(dists.max()) / CW
    off = float(np.linalg.norm(centroid - np.array([ww / 2, hh / 2]))) / CW
    conf *= _ramp(err, 0.08, 0.16) * _ramp(off, 0.1, 0.2)
    if err > 0.08:
        reasons.append("pips not in a standard layout")
        alternatives.update({n - 1, n + 1})
    if off > 0.1:
        reasons.append("pips off the centre of the half")
    cols = np.array(colours)
    colour = cols.mean(axis=0)
    spread = float(np.max(np.linalg.norm(cols - colour, axis=1)))
    if spread > 25:
        conf *= 0.5
        reasons.append("pips of different colours")
    return conf, colour


def _check_blank(
    sub: np.ndarray,
    sub_ab: np.ndarray,
    conf: float,
    reasons: list[str],
    alternatives: set[int],
) -> float:
    """Doubt about a half read as blank: faint pip-like marks a weaker threshold sees.
    Returns the confidence; adds to ``reasons`` and ``alternatives``."""
    hh, ww = sub.shape
    weak = [
        b
        for b in _blobs(cv2.morphologyEx(_filled(sub >= 0.55), cv2.MORPH_OPEN, _OPEN), sub_ab)
        if not _at_edge(b, ww, hh) and MIN_PIP <= b[0] <= MAX_PIP and b[1] > 0.5
    ]
    if weak:
        conf *= 0.3 ** len(weak)
        reasons.append("faint pip-like marks on a blank half")
        alternatives.update({len(weak), 1})
    return conf


def _filled(binary: np.ndarray) -> np.ndarray:
    """``binary`` as uint8 0/1 with its holes filled (glare on a pip, a ring-shaped pip)."""
    out = binary.astype(np.uint8)
    contours, _ = cv2.findContours(out, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(out, contours, -1, 1, thickness=cv2.FILLED)
    return out


def _touches(box: tuple, ww: int, hh: int, edge: float) -> bool:
    bx, by, bw, bh = box
    return bx <= edge or by <= edge or bx + bw >= ww - edge or by + bh >= hh - edge


def _blobs(binary: np.ndarray, ab: np.ndarray) -> list[tuple]:
    """(area, circularity, centre, bounding box, median colour, min-area rectangle) of each
    blob, holes (glare on a pip) filled."""
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
        bx, by, bw, bh = cv2.boundingRect(contour)
        pixels = ab[by : by + bh, bx : bx + bw].reshape(-1, 2)
        colour = np.median(pixels, axis=0) if pixels.size else np.zeros(2)
        rect = cv2.minAreaRect(contour)
        out.append((area, min(1.0, circ), centre, (bx, by, bw, bh), colour, rect))
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
    if a.count and b.count and min(a.pip_area, b.pip_area) < 0.3 * max(a.pip_area, b.pip_area):
        conf *= 0.5
        reasons.append("pips of different sizes on the two halves")
    tile = Tile.of(a.count, b.count) if max(a.count, b.count) <= top else None
    cands: list[Tile] = [tile] if tile is not None else []
    for alt in a.alternatives:
        cands.append(Tile.of(alt, min(b.count, top)))
    for alt in b.alternatives:
        cands.append(Tile.of(min(a.count, top), alt))
    return tile, conf, list(dict.fromkeys(cands))[:6], "; ".join(reasons)


def _cross_check(results: list[_Result]) -> None:
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
