"""Step 3 of the photo reader (:mod:`cf.photo.reader`): the divider bars.

The face mask's big connected regions (cuts across the mask closed first), and in each
the straight dark bars with face on both sides and both ends short of the region's edge,
looked for at several ink levels (a bar touching a pip stands alone at a stricter one);
pieces of one bar cut by a spinner, a highlight or a chip are joined. Every face-up tile
has exactly one, so each divider anchors one tile (:mod:`cf.photo.outlines`), whatever
touches it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from cf.photo.faces import WORK_SIZE, ink_map, sample


@dataclass
class Divider:
    center: np.ndarray  # (x, y) in working pixels
    u: np.ndarray  # unit vector along the bar
    length: float
    thickness: float
    component: int
    fill: float  # blob area over its bounding rectangle: 1 for a clean bar


def regions_and_dividers(
    mask: np.ndarray, light: np.ndarray, ab: np.ndarray
) -> tuple[np.ndarray, np.ndarray, dict[int, np.ndarray], list[Divider]]:
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
    dividers: list[Divider] = []
    regions: dict[int, np.ndarray] = {}
    for index in range(1, count):
        if stats[index, cv2.CC_STAT_AREA] < min_area:
            continue
        x, y, w, h = stats[index, :4]
        region = labels[y : y + h, x : x + w] == index
        regions[index] = region
        dividers.extend(_find_dividers(light, ab, region, (x, y), index))
    return labels, stats, regions, dividers


def _find_dividers(
    light: np.ndarray,
    ab: np.ndarray,
    region: np.ndarray,
    origin: tuple[int, int],
    index: int,
) -> list[Divider]:
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
    ink = ink_map(sub_l, sub_ab, inner, min(0.35 * size, 60.0))
    dist = cv2.distanceTransform(reg, cv2.DIST_L2, 3)
    found: list[Divider] = []
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
            found.append(Divider(c, u, length, thick, index, fill))
    found = _join_pieces(found, ink)
    for bar in found:
        bar.center = bar.center + np.array([x0 - pad, y0 - pad])
    return found


def _join_pieces(found: list[Divider], ink: np.ndarray) -> list[Divider]:
    """Join pieces of one bar cut in two (by a spinner in its middle, a highlight, a
    chip): collinear, end to end, with a short gap between them that is not clean face
    (the dividers of two tiles side by side have face between them)."""
    joined = True
    while joined:
        joined = False
        # Pairs in the order a scan of every pair takes them; only those the geometry
        # (a cheap test on all pairs at once, looser than _can_join's) leaves are tried:
        # a region of a patterned table can hold hundreds of bars.
        for i, j in zip(*np.nonzero(_may_join(found)), strict=True):
            a, b = found[i], found[j]
            if not _can_join(a, b, ink):
                continue
            merged = _merged(a, b)
            found = [f for k, f in enumerate(found) if k not in (i, j)] + [merged]
            joined = True
            break
    return found


def _may_join(found: list[Divider]) -> np.ndarray:
    """For every pair i < j of bars, whether :func:`_can_join` may accept it: its tests of
    direction, offset across and gap along, a little looser (rounding never excludes a
    pair it would join)."""
    n = len(found)
    if n < 2:
        return np.zeros((n, n), bool)
    u = np.array([f.u for f in found], np.float64)
    c = np.array([f.center for f in found], np.float64)
    length = np.array([f.length for f in found], np.float64)
    thick = np.array([f.thickness for f in found], np.float64)
    d = c[None, :, :] - c[:, None, :]  # b - a for a = i, b = j
    along = np.abs((d * u[:, None, :]).sum(axis=2))
    across = np.abs(u[:, None, 0] * d[:, :, 1] - u[:, None, 1] * d[:, :, 0])
    gap = along - (length[:, None] + length[None, :]) / 2
    eps = 1e-6
    ok = np.abs(u @ u.T) >= 0.97 - eps
    ok &= across <= np.maximum(thick[:, None], thick[None, :]) + 2 + eps
    ok &= gap >= -2 - eps
    ok &= gap <= 0.6 * np.maximum(length[:, None], length[None, :]) + eps
    return np.triu(ok, k=1)


def _can_join(a: Divider, b: Divider, ink: np.ndarray) -> bool:
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
        if float((sample(ink, pts) < 0.5).mean()) > 0.3:
            return False
        # A seam between two tiles crosses the bar's line; a spinner does not
        # reach far beside the bar.
        mid_gap = start + step * gap / 2
        v = np.array([-a.u[1], a.u[0]])
        off = 2.5 * max(a.thickness, b.thickness)
        beside = np.array([mid_gap + v * off, mid_gap - v * off])
        if float(sample(ink, beside).min()) > 0.5:
            return False
    return True


def _merged(a: Divider, b: Divider) -> Divider:
    """One divider spanning both pieces ``a`` and ``b``, along ``a``'s direction."""
    ends = [a.center + a.u * a.length / 2 * s for s in (-1, 1)] + [
        b.center + a.u * b.length / 2 * s for s in (-1, 1)
    ]
    proj = [float(np.dot(e - a.center, a.u)) for e in ends]
    lo, hi = min(proj), max(proj)
    centre = a.center + a.u * (lo + hi) / 2
    fill = min(a.fill, b.fill)
    return Divider(centre, a.u, hi - lo, max(a.thickness, b.thickness), a.component, fill)


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


#: The points :func:`_face_both_sides` looks at: 0.3, 0.5 and 0.7 bar lengths out, each
#: 0.3 bar lengths to either side along the bar and level with its centre.
_OUT = np.repeat([0.3, 0.5, 0.7], 3)[:, None]
_ALONG = np.tile([-0.3, 0.0, 0.3], 3)[:, None]


def _face_both_sides(c: np.ndarray, u: np.ndarray, length: float, reg: np.ndarray) -> bool:
    """Whether the region mask ``reg`` holds face on both sides of the bar, at 8 in 10 of
    nine points from 0.3 to 0.7 bar lengths out."""
    hgt, wid = reg.shape[:2]
    v = np.array([-u[1], u[0]])
    for sign in (-1, 1):
        pts = c + sign * v * _OUT * length + u * _ALONG * length
        ix, iy = np.round(pts[:, 0]).astype(np.intp), np.round(pts[:, 1]).astype(np.intp)
        inside = (iy >= 0) & (iy < hgt) & (ix >= 0) & (ix < wid)
        hits = int(np.count_nonzero(reg[iy[inside], ix[inside]]))
        if hits < 0.8 * len(pts):
            return False
    return True
