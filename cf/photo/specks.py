"""Specks: bits of face the tiles net sees apart from the tiles, on the table (a glint, a
crumb, a scrap of paper), told from a piece of a tile (under another, or cut by the
frame) by their size, their distance from other face and the colour around them. A speck
is still a doubt of the nets' (:mod:`cf.photo.nets`); docs/photo.md's model card says
where it does not stop a reading. The table's colour, as the tiles net sees it, also
tells whether a region is the table (:func:`table_share`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from cf.photo.stats import median, percentile

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
#: not stop that reading (:func:`cf.photo.combined._nothing_more`).
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
    colours, table = _table(image, view)

    def distance(points: np.ndarray) -> float:
        seen = table()
        if len(points) == 0 or seen is None:  # no table seen: nothing lies on it
            return float("inf")
        return float(np.linalg.norm(median(colours(points), axis=0) - seen[0]))

    return distance


#: A region the tiles net sees no face in lies on the table when at least this part of
#: it is of the table's colour: no farther from the median colour of what the net sees as
#: background than :data:`TABLE_SPREAD` percent of that background is (a wood's grain, a
#: cloth's pattern is the table too). A white card's corner, a tile half under a finger, a
#: face-down tile is another colour over more of it. Set on synthetic photos
#: (docs/photo-history.md, thirtieth session).
ON_TABLE = 0.8
TABLE_SPREAD = 90


def table_share(image: np.ndarray, view: Seen) -> Callable[[np.ndarray], float]:
    """The part (0 to 1) of a set of output pixels (N x 2: x, y) of the tiles net's view
    whose colour in the photo is the table's (:data:`ON_TABLE`); 0 for none, or where the
    net sees no background."""
    colours, table = _table(image, view)

    def share(points: np.ndarray) -> float:
        seen = table()
        if len(points) == 0 or seen is None:
            return 0.0
        centre, reach = seen
        return float(np.mean(np.linalg.norm(colours(points) - centre, axis=1) <= reach))

    return share


def _table(
    image: np.ndarray, view: Seen
) -> tuple[Callable[[np.ndarray], np.ndarray], Callable[[], tuple[np.ndarray, float] | None]]:
    """Two measures of a photo's table as the tiles net sees it: the Lab colours (N x 3,
    float) in the photo of output pixels (N x 2: x, y), and, measured once when first
    asked, the median colour of what the net sees as background with the distance from it
    that :data:`TABLE_SPREAD` percent of that background lies within (None: no
    background seen)."""
    from cf.photo.lab import bgr_to_lab
    from cf.photo.reader import to_bgr8

    image = to_bgr8(np.asarray(image))

    def colours(points: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        at = np.round((np.asarray(points, np.float64) + 0.5) * view.to_image).astype(int)
        xs, ys = np.clip(at[:, 0], 0, w - 1), np.clip(at[:, 1], 0, h - 1)
        bgr = np.asarray(image[ys, xs], np.uint8).reshape(-1, 1, 3)
        return bgr_to_lab(bgr).reshape(-1, 3).astype(np.float64)

    measured: list[tuple[np.ndarray, float] | None] = []

    def table() -> tuple[np.ndarray, float] | None:
        if not measured:
            ys, xs = np.nonzero(view.probs[0] >= 0.5)
            if len(xs) == 0:
                measured.append(None)
            else:
                step = max(1, len(xs) // 4000)
                everywhere = colours(np.stack([xs, ys], axis=1)[::step])
                centre = median(everywhere, axis=0).astype(np.float64)
                spread = np.linalg.norm(everywhere - centre, axis=1)
                measured.append((centre, float(percentile(spread, TABLE_SPREAD))))
        return measured[0]

    return colours, table
