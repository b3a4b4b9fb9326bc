"""Specks: bits of face the tiles net sees apart from the tiles, on the table (a glint, a
crumb, a scrap of paper), told from a piece of a tile (under another, or cut by the
frame) by their size, their distance from other face and the colour around them. A speck
is still a doubt of the nets' (:mod:`cf.photo.nets`); docs/photo.md's model card says
where it does not stop a reading.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from cf.photo.stats import median

if TYPE_CHECKING:
    from cf.photo.nets import Seen


#: A face region the tiles net sees whose area is under this part of the median face of
#: the single tiles it sees in the same photo is a speck (:data:`cf.photo.nets.SPECK_SEEN`)
#: when it also lies apart from every other face region (no face within
#: :data:`SPECK_APART` of a tile's width) and off the photo's edges: a glare spot on the
#: table, a crumb, a scrap of paper.
#: A tile shows that little of its face when the rest is under another tile (its face
#: beside that tile's) or out of the frame (at an edge): those are no specks. Bits of face
#: within that reach count with it (a tile's edge seen in pieces is no speck). A speck is
#: still a doubt of the nets'; only where both readers read the same whole hand does it
#: not stop that reading (:func:`cf.photo.merge.nothing_more`).
SPECK = 0.1
SPECK_APART = 0.5


def find_specks(
    labels: np.ndarray,
    stats: np.ndarray,
    regions: list[int],
    tile_areas: list[int],
    table: Callable[[np.ndarray], float],
) -> set[int]:
    """Which of the face ``regions`` (component numbers in ``labels``, with ``stats`` as
    :func:`cv2.connectedComponentsWithStats` gives them) are specks (:data:`SPECK`), the
    single tiles' face areas being ``tile_areas``; ``table`` measures how far from the
    table's colour a ring of output pixels is (:data:`SPECK_ON`)."""
    import cv2

    if not tile_areas or not regions:
        return set()
    typical = float(median(tile_areas))
    reach = max(1, round(SPECK_APART * math.sqrt(typical / 2)))  # a face about 1 x 2
    height, width = labels.shape
    out = set()
    for index in regions:
        x, y, bw, bh, area = (int(v) for v in stats[index])
        if area >= SPECK * typical or x <= 0 or y <= 0 or x + bw >= width or y + bh >= height:
            continue
        x0, y0 = max(0, x - reach), max(0, y - reach)
        x1, y1 = min(width, x + bw + reach), min(height, y + bh + reach)
        window = labels[y0:y1, x0:x1]
        own = (window == index).astype(np.uint8)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
        around = cv2.dilate(own, kernel) > 0
        # Bits of face beside it count with it: together they must be a speck too.
        near = np.flatnonzero(np.bincount(window[around]))
        if sum(int(stats[k, cv2.CC_STAT_AREA]) for k in near if k) >= SPECK * typical:
            continue
        ys, xs = np.nonzero(around & (window == 0))
        if table(np.stack([xs + x0, ys + y0], axis=1)) < SPECK_ON:
            out.add(index)
    return out


#: A speck lies on the table: the median colour of the ring around it (out to
#: :data:`SPECK_APART`) is within this Lab distance (8-bit Lab) of the median colour of
#: everything the tiles net sees as background. A bright bit on a face-down tile, a card
#: or a printed picture is no glint on the table; there it stays a doubt as any other.
SPECK_ON = 20.0


def table_distance(image: np.ndarray, view: Seen) -> Callable[[np.ndarray], float]:
    """How far (8-bit Lab) the median colour of a ring of output pixels (N x 2: x, y) lies
    from the median colour of the photo's background in the tiles net's view (with
    :func:`cf.photo.lab.bgr_to_lab`: OpenCV's own conversion builds its tables, 0.15 s of
    CPU, the first time a process asks)."""
    from cf.photo.lab import bgr_to_lab
    from cf.photo.reader import to_bgr8

    image = to_bgr8(np.asarray(image))

    def colours(points: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        at = np.round((np.asarray(points, np.float64) + 0.5) * view.to_image).astype(int)
        xs, ys = np.clip(at[:, 0], 0, w - 1), np.clip(at[:, 1], 0, h - 1)
        return np.asarray(image[ys, xs], np.uint8).reshape(-1, 1, 3)

    table: list[np.ndarray] = []  # measured once, when first asked

    def distance(points: np.ndarray) -> float:
        if not table:
            ys, xs = np.nonzero(view.probs[0] >= 0.5)
            if len(xs) == 0:  # no table seen: nothing lies on it
                return float("inf")
            step = max(1, len(xs) // 4000)
            everywhere = colours(np.stack([xs, ys], axis=1)[::step])
            table.append(median(bgr_to_lab(everywhere), axis=(0, 1)))
        if len(points) == 0:
            return float("inf")
        ring = median(bgr_to_lab(colours(points)), axis=(0, 1))
        return float(np.linalg.norm(ring.astype(np.float64) - table[0].astype(np.float64)))

    return distance
