"""Outlines as the readers report them (lists of (x, y) corners, convex): their area,
whether a point lies in one, whether two are of one tile, how much of one others cover,
and whether tiles lie apart. Shared by :mod:`cf.photo.combined`'s checks."""

from __future__ import annotations

import cv2
import numpy as np

from cf.photo.outlines import shared_area


def area(box: list[tuple[int, int]]) -> float:
    """The area an outline encloses (the shoelace formula)."""
    pts = np.asarray(box, np.float64)
    x, y = pts[:, 0], pts[:, 1]
    return abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))) / 2


def inside(point: np.ndarray, box: list[tuple[int, int]]) -> bool:
    """Whether ``point`` lies inside the convex outline ``box``."""
    pts = np.asarray(box, np.float64)
    if len(pts) < 3 or area(box) < 1:
        return False  # a point or a line holds nothing
    edges = np.roll(pts, -1, axis=0) - pts
    to_point = np.asarray(point, np.float64) - pts
    signs = (edges[:, 0] * to_point[:, 1] - edges[:, 1] * to_point[:, 0]).tolist()
    return all(v >= 0 for v in signs) or all(v <= 0 for v in signs)


def overlap(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> bool:
    """Whether two outlines are of one tile: the centre of either lies in the other."""
    return inside(np.asarray(a, np.float64).mean(axis=0), b) or inside(
        np.asarray(b, np.float64).mean(axis=0), a
    )


def covered(box: list[tuple[int, int]], others: list[list[tuple[int, int]]]) -> float:
    """The part of the outline ``box`` that the outlines ``others`` cover together (each
    pixel once, however many of them lie over it); 0 for an outline with no pixel."""
    pts = np.asarray(box, np.int32)
    if len(pts) < 3:
        return 0.0
    low = pts.min(axis=0)
    size = pts.max(axis=0) - low + 1
    within = np.zeros((int(size[1]), int(size[0])), np.uint8)
    cv2.fillConvexPoly(within, pts - low, 1)
    under = np.zeros_like(within)
    for other in others:
        if len(other) >= 3:
            cv2.fillConvexPoly(under, np.asarray(other, np.int32) - low, 1)
    n = int(within.sum())
    return float((within & under).sum()) / n if n else 0.0


#: Outlines grown this many times about their centres that meet are of tiles touching,
#: or nearly: each grows by 5% of its width at its sides and 5% of its length at its
#: ends, so two tiles side by side meet across a gap under a tenth of a tile's width, and
#: end to end under a fifth.
TOUCHING = 1.1


def apart(boxes: list[list[tuple[int, int]]]) -> bool:
    """Whether no two of the outlines ``boxes``, each grown :data:`TOUCHING` times about
    its centre, meet. In a photo's negative the dark seams and shadows between touching
    tiles are light, as their faces are: a row or a block runs together into one band,
    where a tile half under another, one cut by the frame or a card in the row shows no
    edge of its own, and the checks that find such things in the photo (face enough for
    one more tile, marks no tile accounts for) find none. On the trap sets of
    `bench/traps/`, 12 of the 13 wrong totals the negative read were of touching tiles."""
    grown = []
    for box in boxes:
        pts = np.asarray(box, np.float64)
        centre = pts.mean(axis=0)
        grown.append(centre + (pts - centre) * TOUCHING)
    return not any(
        shared_area(grown[i], grown[j]) > 0 for i in range(len(grown)) for j in range(i)
    )
