"""Steps 5 and 6 of the photo reader (:mod:`cf.photo.reader`): read each tile outlined.

Each outline (:mod:`cf.photo.outlines`) is warped upright from a copy of the photo where
the tile is about :data:`CW` pixels wide; the face's own edges (past pips and seams) and
the divider row are found, and each half's pips counted: blobs darker than the face or
of another colour, cut at half their own contrast, thin marks opened away, pips run
together by blur split. Then what the game and the pip layouts guarantee is checked —
every standard layout is symmetric about the half's centre, pips of one half are alike
in size and colour, a half has at most N pips, a hand has no tile twice — and faint
pip-like blobs a weaker threshold sees are looked for. Each doubt lowers the tile's
confidence, with the reason written down.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import cv2
import numpy as np

from cf.photo.faces import holes_filled, ink_map, median_ab
from cf.photo.lab import bgr_to_lab
from cf.photo.outlines import Candidate
from cf.photo.stats import median, percentile
from cf.tiles import Tile

#: How a half's reason says it holds more pips than the set has (see :func:`_final_doubt`).
OVER_SET = re.compile(r"(\d+) pips, more than the set has")

#: Why a half is in doubt whose count leaves the centre of its layout empty (2, 4, 6, 8,
#: 10: :data:`EMPTY_CENTRE`) but whose centre is faintly marked (:func:`_centre_mark`): the
#: next odd number is the same layout with a pip at the centre, and a pip worn down to a
#: trace of its ink leaves exactly the even layout, which every other check takes for
#: right. No other reading settles it (:func:`cf.photo.merge.unsettled`): a net that
#: reads the even count sees no pip there, which is no evidence that none was, and one
#: that reads the odd count may be counting a speck of dirt (an independent review's).
WORN = "a faint mark where a pip would make the next number (a worn pip?)"
EMPTY_CENTRE = (2, 4, 6, 8, 10)

#: The least ink (:func:`cf.photo.faces.ink_map`: 1.0 at the detection threshold) by which
#: the middle of a half's centre stands out from the face around it for :data:`WORN`.
#: Set on synthetic photos only: over 2,000 even halves read with confidence in scenes of
#: 12 families the mark is at most 0.17 (docs/photo-history.md, twenty-ninth session).
WORN_INK = 0.2


#: Width and length, in pixels, of the upright image each tile is read from, and the margin
#: (in tile widths) it shows around the outline on each side.
CW, CL = 128, 256
PAD = 0.2
PW, PL = round(CW * (1 + 2 * PAD)), round(CL + 2 * PAD * CW)

Result = tuple[np.ndarray, "Tile | None", float, list[Tile], str]


@dataclass
class _Half:
    count: int
    confidence: float
    alternatives: list[int]
    colour: np.ndarray | None  # mean (a, b) of the pips
    pip_area: float  # median pip area, in upright-image pixels
    reason: str = ""
    centres: list[np.ndarray] = field(default_factory=list)  # in the half's pixels
    run_together: bool = False  # pip_area the size its run-together pips were split by


def read_candidates(
    image: np.ndarray,
    candidates: list[Candidate],
    scale: float,
    top: int,
    dark_background: bool,
    smaller: np.ndarray | None = None,
) -> tuple[list[Result], list[Candidate]]:
    """Read every candidate outline: the results, and the candidates that were tile faces.
    ``smaller``: the image scaled down by ``scale`` (the reader's working image before its
    blur), when there is one: a reduced copy is scaled from it where it is big enough."""
    height, width = image.shape[:2]
    # Read each tile from an image where it is about CW pixels wide: the photo itself for
    # small tiles, a reduced copy for big ones (so that no detail is lost, nor aliased).
    results: list[Result] = []
    read: list[Candidate] = []
    if candidates:
        tile_w = float(median([c.width for c in candidates])) / scale
        factor = min(1.0, 1.4 * CW / max(tile_w, 1.0))
        if factor < 1.0:
            base = smaller if smaller is not None and factor <= scale else image
            source = cv2.resize(
                base,
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
    return bgr_to_lab(bgr).astype(np.float32)


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
    face_l = float(percentile(light[nominal], 75))
    bright = light > face_l - max(30.0, 0.18 * face_l)
    face_ab = np.zeros(2)
    if bright[nominal].any():
        face_ab = median_ab(ab[nominal], bright[nominal])
    tint = np.hypot(ab[:, :, 0] - face_ab[0], ab[:, :, 1] - face_ab[1])
    facelike = bright & (chroma < 35) & (tint < 14)
    if float(facelike[nominal].mean()) < 0.45:
        return None, 0.0, "not a tile face"
    # The face's edges: outermost rows and columns that are mostly face.
    # Pips are holes in the face: filled, a row of pips near the end is face too.
    solid = holes_filled(facelike)
    x0, x1, miss_x, y0, y1, miss_y = _face_edges(solid, p)
    seen_x, seen_y = miss_x == 0, miss_y == 0
    fx0, fx1 = x0, x1  # the face's own side edges
    inset = max(2, int(0.04 * CW))
    x0, x1, y0, y1 = x0 + inset, x1 - inset, y0 + inset, y1 - inset
    region = np.zeros(light.shape, np.uint8)
    region[y0:y1, x0:x1] = 1
    ink = ink_map(light, ab, region, 0.4 * CW)
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
    peak = float(percentile(sub, 99.5))
    level = max(1.0, 0.55 * peak)
    # An opening a little finer than the smallest pip wipes out thin marks: the bevel's
    # shading along the edges, what is left of the divider, scratches.
    strong_bin = cv2.morphologyEx(holes_filled(sub >= level), cv2.MORPH_OPEN, _OPEN)
    strong = _blobs(strong_bin, sub_ab)
    strong = [b for b in strong if not _at_edge(b, ww, hh)]
    reasons: list[str] = []
    conf = 1.0
    alternatives: set[int] = set()
    pips, med = _clean_pips(strong)
    centres = [b[2] for b in pips]
    colours = [b[4] for b in pips]
    run_together: list[float] = []  # the size of one pip of each blob split into pips
    for blob in strong:
        if any(blob is pip for pip in pips):
            continue
        conf = _other_blob(
            blob, med, len(pips), conf, reasons, alternatives, centres, colours, run_together
        )
    n = len(centres)
    colour = None
    conf = _size_doubt(pips, med, conf, reasons)
    if n:
        conf, colour = _check_pips(sub, centres, colours, med, conf, reasons, alternatives)
    else:
        conf = _check_blank(sub, sub_ab, conf, reasons, alternatives)
    # A worn centre pip: only where the next odd number is in the set and the half looks
    # right otherwise (a faint blob aside, which a pip worn less leaves): beside a blob that
    # is no pip, or pips out of layout, its count is no even layout to look into (a 12 read
    # as 6, its pips run together). A trace, under the detection threshold: a mark as dark
    # as that is a pip the count left out (lighter or smaller than the others: a 3 read as 2
    # with its centre pip a faint blob), which the nets read, as any faint blob's tile.
    if (
        n in EMPTY_CENTRE
        and n < top
        and med > 0
        and set(reasons) <= {"a faint blob"}
        and WORN_INK <= _centre_mark(sub, np.array(centres), med) < 1.0
    ):
        conf *= 0.35
        reasons.append(WORN)
        alternatives.add(n + 1)
    conf, alts = _final_doubt(n, top, conf, reasons, alternatives)
    # Pips all run together (two columns of three, blurred) have no clean pip to measure:
    # their size is the one their blobs were split by, so that the halves still compare.
    # Not a 4 or an 8: neither layout has lines of pips close enough to run together
    # whole (a 4's are at the corners, an 8's middle column has a gap), so counted so it
    # is a 6 or a 9 split wrong, its size unknown (0: the halves do not compare).
    split = not med and bool(run_together) and n not in (4, 8)
    size = med or (float(median(run_together)) if split else 0.0)
    why = "; ".join(dict.fromkeys(reasons))
    return _Half(n, conf, alts, colour, size, why, centres, split)


def _clean_pips(strong: list[tuple]) -> tuple[list[tuple], float]:
    """The blobs that are pips by size and shape, and their median area (0 if none)."""
    pips = [b for b in strong if MIN_PIP <= b[0] <= MAX_PIP and b[1] > 0.6]
    med = float(median([b[0] for b in pips])) if pips else 0.0
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
        reasons.append(f"{n} pips, more than the set has")  # OVER_SET reads it back
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
    run_together: list[float],
) -> float:
    """A blob of a half that is not one clean pip: a speck (ignored), k pips run together
    by blur (added to ``centres`` and ``colours``, the size of one of them to
    ``run_together``), or a doubt. Returns the confidence."""
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
            run_together.append(one)
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
    weak_bin = cv2.morphologyEx(holes_filled(sub >= 0.55), cv2.MORPH_OPEN, _OPEN)
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


def _centre_mark(sub: np.ndarray, cents: np.ndarray, med: float) -> float:
    """How much more ink (:func:`cf.photo.faces.ink_map`) the middle of a half's centre
    holds than the face around it: the mean over a disc of a pip's size (0.9 of its
    radius, from the median pip area ``med``) at the centre of the pips ``cents`` (every
    standard layout is centred there) less the median over a ring around it (1.3 to 1.8
    radii; pip pixels left out), in the ink opened as pips are found (:data:`_OPEN`: a
    scratch, or a speck smaller than the smallest pip, is no mark). 0 where a pip lies
    within 2.2 radii of the centre: that layout's centre is no empty place to look at."""
    r = math.sqrt(med / math.pi)
    centre = cents.mean(axis=0)
    if float(np.linalg.norm(cents - centre, axis=1).min()) < 2.2 * r:
        return 0.0
    ink = cv2.morphologyEx(sub, cv2.MORPH_OPEN, _OPEN)
    hh, ww = ink.shape
    yy, xx = np.ogrid[:hh, :ww]
    away = np.hypot(xx - centre[0], yy - centre[1])
    disc = ink[away <= 0.9 * r]
    ring = ink[(away >= 1.3 * r) & (away <= 1.8 * r) & (ink < 0.55)]
    if disc.size == 0 or ring.size == 0:
        return 0.0
    return float(disc.mean()) - float(median(ring))


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
        for b in _blobs(cv2.morphologyEx(holes_filled(sub >= 0.55), cv2.MORPH_OPEN, _OPEN), sub_ab)
        if not _at_edge(b, ww, hh) and MIN_PIP <= b[0] <= MAX_PIP and b[1] > 0.5
    ]
    if weak:
        conf *= 0.3 ** len(weak)
        reasons.append("faint pip-like marks on a blank half")
        alternatives.update({len(weak), 1})
    return conf


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
        colour = median(pixels, axis=0) if pixels.size else np.zeros(2)
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


#: The two halves' pips differ in size when the smaller is under this share of the
#: larger (pips measured, or both halves' run together) ...
HALVES_ALIKE = 0.3
#: ... or under this one where one half's pips all ran together and the other's did not.
RUN_TOGETHER_ALIKE = 0.8


def _combine(halves: list[_Half], top: int) -> tuple[Tile | None, float, list[Tile], str]:
    a, b = halves
    conf = min(a.confidence, b.confidence)
    reasons = [h.reason for h in halves if h.reason]
    # Pips run together were counted by the size their blob's width gives: right, it is
    # the other half's (one set's pips); one more or one fewer in a blob of up to 4 would
    # make it 5/4 or more of it, or 4/5 or less.
    alike = RUN_TOGETHER_ALIKE if a.run_together != b.run_together else HALVES_ALIKE
    if a.count and b.count and min(a.pip_area, b.pip_area) < alike * max(a.pip_area, b.pip_area):
        conf *= 0.5
        reasons.append("pips of different sizes on the two halves")
    tile = Tile.of(a.count, b.count) if max(a.count, b.count) <= top else None
    cands: list[Tile] = [tile] if tile is not None else []
    for alt in a.alternatives:
        cands.append(Tile.of(alt, min(b.count, top)))
    for alt in b.alternatives:
        cands.append(Tile.of(min(a.count, top), alt))
    return tile, conf, list(dict.fromkeys(cands))[:6], "; ".join(reasons)


def cross_check(results: list[Result]) -> None:
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
