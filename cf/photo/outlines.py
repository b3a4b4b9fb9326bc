"""Step 4 of the photo reader (:mod:`cf.photo.reader`): one tile outline per divider.

Each outline is centred on its divider (:mod:`cf.photo.dividers`): as wide as the face
runs on along the divider's line (touching tiles end at the dark seam between them; no
wider than the step to the next divider in the row), and twice as long, or as far as the
face runs along the tile. One hand is one set: the width-to-divider ratio of the
well-measured tiles sizes the others. Of outlines that overlap, the better one is kept;
a tile alone in its region takes the region's own outline (perspective, exact size).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from cf.photo.dividers import Divider
from cf.photo.faces import sample
from cf.photo.stats import median, percentile

#: Length over width of a tile's outline, as the photo shows it: 2 face on, shorter seen at
#: a slant or in a photo squeezed to a square (datasets resize so), longer the other way.
TILE_ASPECT = (1.3, 2.6)


@dataclass
class Candidate:
    corners: np.ndarray  # 4x2 float, working pixels, ordered as the upright image's corners
    geometry: float  # confidence in the outline
    center: np.ndarray
    width: float
    quality: float = 0.0  # for choosing between overlapping outlines


def _edges(
    light: np.ndarray,
    mask: np.ndarray,
    starts: np.ndarray,
    d: np.ndarray,
    near: float,
    far: float,
) -> np.ndarray:
    """How far from each of ``starts`` (k x 2) along ``d`` the tile face ends: where the
    region ends or the lightness drops well below what it has been (a gap or the bevel of
    a touching tile); ``far`` where no end is found. The k lines are sampled at once."""
    ts = np.arange(near, far, 0.5)
    if ts.size == 0:
        return np.full(len(starts), far)
    pts = starts[:, None, :] + ts[None, :, None] * d[None, None, :]
    flat = pts.reshape(-1, 2)
    vals = sample(light, flat).reshape(len(starts), ts.size)
    inside = sample(mask, flat).reshape(len(starts), ts.size) > 127
    # The face's lightness: what most of the way out looks like (a pip or the bar's blur
    # at the start does not count); the face ends well below it.
    ref = percentile(vals[:, : max(4, int(0.5 * ts.size))], 75, axis=1)[:, None]
    end = (~inside) | (vals < ref - np.maximum(22.0, 0.12 * ref))
    first = np.argmax(end, axis=1)
    return np.where(end.any(axis=1), ts[first], far)


def _spacing_caps(
    measured: list[tuple[Divider, float, float, float, bool]],
) -> list[tuple[Divider, float, float, float, bool]]:
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


def tile_outlines(
    dividers: list[Divider],
    mask: np.ndarray,
    light: np.ndarray,
    labels: np.ndarray,
    regions: dict[int, np.ndarray],
    stats: np.ndarray,
) -> list[Candidate]:
    """One outline per divider: a rectangle centred on the divider, as wide as the face
    runs on along the divider's line and twice as long (touching tiles end at the dark
    seam between them), or the region's own outline for a tile that stands alone."""
    maskf = mask.astype(np.float32)
    # One hand, one set: every divider is about as long as the others (give or take the
    # perspective). Much shorter bars are marks on a face (a glint's edge, a scratch).
    if len(dividers) >= 2:
        longest = float(percentile([d.length for d in dividers], 75))
        dividers = [d for d in dividers if d.length >= 0.5 * longest]
    measured = _measure_dividers(dividers, light, maskf)
    measured = _spacing_caps(measured)
    ratios = [m[3] / m[0].length for m in measured if m[4]]
    lengths = [m[0].length for m in measured]
    ratio = float(median(ratios)) if ratios else 0.0
    typical = float(median(lengths)) if lengths else 0.0
    cands: list[Candidate] = []
    for entry in measured:
        cand = _divider_outline(entry, ratio, typical, len(lengths), light, maskf)
        if cand is not None:
            cands.append(cand)
    kept = _without_overlaps(cands)
    _fit_lone_tiles(kept, labels, regions, stats)
    return kept


def _measure_dividers(
    dividers: list[Divider], light: np.ndarray, maskf: np.ndarray
) -> list[tuple[Divider, float, float, float, bool]]:
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
            beyond = _edges(light, maskf, div.center[None], sign * u, div.length / 2 + 1, far)
            starts = np.array([div.center + v * beside, div.center - v * beside])
            runs = [*beyond, *_edges(light, maskf, starts, sign * u, 0.0, far)]
            sides.append(float(median(runs)))
        e1, e2 = sides
        width = e1 + e2
        good = abs(e1 - e2) < 0.15 * width and 1.05 * div.length < width < 2.6 * div.length
        measured.append((div, e1, e2, width, good))
    return measured


def _divider_outline(
    entry: tuple[Divider, float, float, float, bool],
    ratio: float,
    typical: float,
    count: int,
    light: np.ndarray,
    maskf: np.ndarray,
) -> Candidate | None:
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
    starts = centre[None, :] + u[None, :] * np.linspace(-0.4, 0.4, 9)[:, None] * width
    for sign in (1, -1):
        runs.append(float(_edges(light, maskf, starts, sign * v, near, 1.6 * width).max()))
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
    cover = float((sample(maskf, grid) > 127).mean())
    if cover < 0.8:
        return None
    return Candidate(corners, geo, centre, width, quality + cover)


#: An outline as numpy points or as a list of (x, y) pixels.
Points = np.ndarray | list[tuple[int, int]]


def shared_area(a: Points, b: Points) -> float:
    """The area two convex outlines (N x 2 points each) share; 0 when either has fewer than
    three points."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    if len(a) < 3 or len(b) < 3:
        return 0.0
    area, _ = cv2.intersectConvexConvex(a, b)
    return float(area)


def _without_overlaps(cands: list[Candidate]) -> list[Candidate]:
    """Of outlines overlapping by more than a quarter, the better one (by quality)."""
    cands.sort(key=lambda c: -c.quality)
    kept: list[Candidate] = []
    for cand in cands:
        area = abs(cv2.contourArea(cand.corners.astype(np.float32)))
        clash = False
        for other in kept:
            inter = shared_area(cand.corners, other.corners)
            other_area = abs(cv2.contourArea(other.corners.astype(np.float32)))
            if inter > 0.25 * min(area, other_area):
                clash = True
                break
        if not clash:
            kept.append(cand)
    return kept


def _fit_lone_tiles(
    kept: list[Candidate], labels: np.ndarray, regions: dict[int, np.ndarray], stats: np.ndarray
) -> None:
    """Give a tile standing alone in its region the region's own outline (perspective,
    exact size) when it fits the divider's outline; changes the candidates in place."""
    by_region: dict[int, list[Candidate]] = {}
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
            TILE_ASPECT[0] <= aspect <= TILE_ASPECT[1]
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
