"""The end of step 6 of the photo reader (:mod:`cf.photo.reader`): what no tile covers.

After the tiles are read, the reader looks again at whatever no outline covers, so that
no tile is silently left out of a total: a light region with pip-like marks or a bar
(a tile whose divider went unseen, one cut by the photo's edge), a blank piece of face
as big as a tile beside the tiles read (:func:`uncovered`), and, past the face mask, a
light, tile-sized region with marks on it (a tile in shadow, :func:`missed_faces`). Each
is an unreadable tile, a doubt.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from cf.photo.faces import holes_filled, ink_map
from cf.photo.outlines import Candidate
from cf.photo.pips import Result
from cf.photo.stats import median, percentile

#: The reasons for what no outline covers: their boxes are regions, not tiles' outlines.
ONE_MORE = "face enough for one more tile than were read"
UNCOVERED = "a light, tile-sized region with pip-like marks that no tile read accounts for"


def uncovered(
    candidates: list[Candidate],
    regions: dict[int, np.ndarray],
    stats: np.ndarray,
    light: np.ndarray,
    ab: np.ndarray,
) -> list[Result]:
    """Light regions that no tile outline covers and that carry pip-like marks or a bar: a
    tile whose divider went unseen (or one cut by the photo's edge). Never silently left
    out of the total. In a region that holds tiles read, a blank piece of face as big as
    a tile is a doubt too: the region holds more tiles than were read."""
    widths = [c.width for c in candidates]
    tile_w = float(median(widths)) if widths else 0.0
    covered = np.zeros(light.shape, np.uint8)
    for cand in candidates:
        grown = cand.center + (cand.corners - cand.center) * 1.08
        cv2.fillConvexPoly(covered, grown.astype(np.int32), 1)
    holding = set()
    for cand in candidates:
        px = min(max(round(float(cand.center[0])), 0), light.shape[1] - 1)
        py = min(max(round(float(cand.center[1])), 0), light.shape[0] - 1)
        holding.add(_region_at(regions, stats, px, py))
    out: list[Result] = []
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
            size = tile_w or math.sqrt(area / 2)
            marks = _marks(part, light[y : y + h, x : x + w], ab[y : y + h, x : x + w], size)
            if not marks:
                if index in holding and _one_more_tile(part, tile_w):
                    # Face enough for one more tile beside the tiles read: the hand reads
                    # as fewer tiles than its outline holds (a double-blank missed?).
                    corners = cv2.boxPoints(cv2.minAreaRect(cv2.findNonZero(part)))
                    why = ONE_MORE
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


def missed_faces(
    candidates: list[Candidate], results: list[Result], light: np.ndarray, ab: np.ndarray
) -> list[Result]:
    """A second look, past the face mask, for tiles it left out (a tile in shadow, dimmer
    than the others): a light, tile-sized region outside every outline found, lighter than
    the background by at least a third of what the tiles read are, with pip-like marks or
    a bar on it. Such a region is a doubt, never silently left out of the total."""
    if not candidates:
        return []
    tile_w = float(median([c.width for c in candidates]))
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
    face = float(percentile(rise[covered > 0], 75))
    if face < 30:
        return []  # tiles hardly lighter than the table: the face mask's own look is all
    chroma = np.hypot(ab[:, :, 0], ab[:, :, 1])
    loose = (rise > face / 3) & (chroma < 45) & (covered == 0)
    k = max(3, round(0.3 * tile_w)) | 1
    # Pips and the bar are holes: filled first, or the opening cuts a tile at its bar.
    loose = holes_filled(loose)
    if loose.sum() < 1.2 * tile_w * tile_w:
        return []  # an opening only takes away: nothing left as big as a tile
    loose = _opened(loose, cv2.getStructuringElement(2, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(loose, connectivity=4)
    out: list[Result] = []
    for i in range(1, n):
        x, y, w, h = stats[i, :4]
        if stats[i, cv2.CC_STAT_AREA] < 1.2 * tile_w * tile_w:
            continue
        part = holes_filled(labels[y : y + h, x : x + w] == i)  # its pips and bar are holes
        contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        (_, _), (rw, rh), _ = cv2.minAreaRect(max(contours, key=cv2.contourArea))
        if min(rw, rh) < 0.6 * tile_w or part.sum() < 0.6 * rw * rh:
            continue  # not tile-shaped: a strip of table, a glint
        marks = _marks(part, light[y : y + h, x : x + w], ab[y : y + h, x : x + w], tile_w)
        if not marks:
            continue  # blank: a face-down tile, a sheet of paper
        pts = np.concatenate(marks).reshape(-1, 2).astype(np.float32)
        (cx, cy), (mw, mh), angle = cv2.minAreaRect(pts)
        rect = ((cx, cy), (mw + 0.3 * tile_w, mh + 0.3 * tile_w), angle)
        corners = cv2.boxPoints(rect) + np.array([x, y], np.float32)
        why = UNCOVERED
        out.append((corners.astype(np.float64), None, 0.0, [], why))
    return out


def _marks(part: np.ndarray, sub_l: np.ndarray, sub_ab: np.ndarray, size: float) -> list:
    """The pip-like marks (contours) inside the region ``part`` (0/1, the size of the
    lightness and colour crops ``sub_l``, ``sub_ab``) of tiles ``size`` pixels wide."""
    inner = cv2.erode(part, np.ones((5, 5), np.uint8), iterations=2)
    ink = ink_map(sub_l, sub_ab, inner, min(0.35 * size, 60.0))
    found, _ = cv2.findContours(
        (ink > 1.0).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
    )
    depth = cv2.distanceTransform(part, cv2.DIST_L2, 3)
    return [c for c in found if _is_mark(c, depth, size)]


def _opened(binary: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """``cv2.morphologyEx(binary, cv2.MORPH_OPEN, kernel)``, the same to the pixel, computed
    only around what is set: the opening of a 0/1 image is within it, and what it does to
    a pixel depends on nothing farther than the kernel's reach (``kernel`` odd-sized)."""
    x, y, w, h = cv2.boundingRect(binary)
    reach = max(kernel.shape) // 2
    x0, y0 = max(0, x - reach), max(0, y - reach)
    x1, y1 = min(binary.shape[1], x + w + reach), min(binary.shape[0], y + h + reach)
    out = np.zeros_like(binary)
    out[y0:y1, x0:x1] = cv2.morphologyEx(binary[y0:y1, x0:x1], cv2.MORPH_OPEN, kernel)
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
