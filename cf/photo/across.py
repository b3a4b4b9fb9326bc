"""What runs across the middle of a region the tiles net outlined, measured in the tile
warped upright: a divider (:func:`divided`, dark or light, whatever the net saw) or a
fainter line (:func:`line_across`: a faint divider, or a groove). A tile's back or a
card shows neither; the reader (:mod:`cf.photo.nets`, docs/photo.md's model card) takes
a region with no divider class for a tile only when one is measured.
"""

from __future__ import annotations

import numpy as np

from cf.photo.stats import median, percentile

#: A divider measured across a tile's middle: in the tile warped upright, some row between
#: :data:`MIDDLE` of its length from either end differs from the face over at least
#: :data:`DIVIDED` of the width (its sides' tenths left out). Pips lie off that band (the
#: row of a 7, 8 or 9 nearest the divider is centred at about 0.36 of the length), so a
#: row of marks so wide there is a bar.
MIDDLE, DIVIDED = 0.42, 0.6
#: A pixel differs from the face when its Lab distance from the face's colour (the tile's
#: median) is above half the tile's strongest marks (their 98th percentile) and above this.
INK_FLOOR = 10.0


def _from_face(image: np.ndarray, corners: np.ndarray, width: int) -> np.ndarray:
    """The tile outlined by ``corners`` (4 x 2, image pixels), warped upright ``width``
    pixels wide: each pixel's Lab distance from the face's colour (the tile's median)."""
    import cv2

    from cf.photo.lab import bgr_to_lab
    from cf.photo.nets import upright

    crop = upright(image, corners, width)
    lab = bgr_to_lab(cv2.GaussianBlur(crop, (3, 3), 0)).astype(np.float32)
    face = median(lab.reshape(-1, 3), axis=0)
    return np.asarray(np.linalg.norm(lab - face, axis=2))


def divided(image: np.ndarray, corners: np.ndarray, width: int = 48) -> bool:
    """Whether a divider is measured across the middle of the tile outlined by ``corners``
    (4 x 2, image pixels), whatever its colour: a bar darker or lighter than the face."""
    distance = _from_face(image, corners, width)
    ink = distance > max(0.5 * float(percentile(distance, 98)), INK_FLOOR)
    side = width // 10
    across = ink[:, side : width - side].mean(axis=1)
    length = distance.shape[0]
    middle = across[int(MIDDLE * length) : int((1 - MIDDLE) * length) + 1]
    return bool(middle.size) and float(middle.max()) >= DIVIDED


#: A line across a blank tile's middle: in the tile warped upright, the median (across
#: its width, the sides' tenths left out) of each row's Lab distance from the face's colour;
#: the strongest row between :data:`MIDDLE` of its length from either end is at least
#: :data:`LINE_FLOOR` and :data:`LINE_OVER` times the rows of the halves' middles (their
#: 90th percentile). A faint divider or a groove passes; a plain back, its bevel and its
#: noise (alike on every row) do not.
LINE_FLOOR, LINE_OVER = 4.0, 1.5
#: The rows of the halves' middles, as parts of the tile's length.
HALF_MIDDLES = ((0.1, 0.35), (0.65, 0.9))


def line_across(image: np.ndarray, corners: np.ndarray, width: int = 48) -> bool:
    """Whether a line, however faint, runs across the middle of the tile outlined by
    ``corners`` (4 x 2, image pixels): a divider too faint for :func:`divided`, or a
    groove."""
    distance = _from_face(image, corners, width)
    side = width // 10
    rows = median(distance[:, side : width - side], axis=1)
    length = distance.shape[0]
    middle = rows[int(MIDDLE * length) : int((1 - MIDDLE) * length) + 1]
    first, second = (rows[int(a * length) : int(b * length)] for a, b in HALF_MIDDLES)
    halves = np.concatenate([first, second])
    if not middle.size or not halves.size:
        return False
    strongest = float(middle.max())
    return strongest >= LINE_FLOOR and strongest >= LINE_OVER * float(percentile(halves, 90))
