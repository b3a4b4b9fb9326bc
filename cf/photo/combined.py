"""The reader ``cf score --photo`` runs: the classical pipeline, then the networks.

The classical reader (:mod:`cf.photo.reader`) reads first. Where it refuses, or finds no
tile at all, the two small networks (:mod:`cf.photo.nets`, trained on synthetic photos
only) read the photo again, and their reading stands when every tile they found was read
with confidence and it holds every tile the classical reader did read with confidence
(two readers that disagree are a refusal); otherwise the classical refusal stands.
Without the model files (a source checkout that lacks them) the reader is the classical
one.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from cf.photo import nets, reader
from cf.photo.reader import DEFAULT_MIN_CONFIDENCE, READ_SIZE, PhotoReading, load_reduced


def read_hand(
    image: np.ndarray,
    top: int = 9,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    *,
    reduction: int = 1,
) -> PhotoReading:
    """Read every face-up tile of one hand in a BGR (or grey) image (see
    :func:`cf.photo.reader.read_hand`; the networks read it again where that refuses)."""
    first = reader.read_hand(image, top, min_confidence, reduction=reduction)
    if (first.ok and first.reads) or not nets.available():
        return first
    second: PhotoReading = nets.reading(image, top, min_confidence, reduction)
    if second.ok and second.reads and not Counter(first.tiles) - Counter(second.tiles):
        return second
    return first


def read_photo(
    path: str, top: int = 9, min_confidence: float = DEFAULT_MIN_CONFIDENCE
) -> PhotoReading:
    """Load ``path`` and read its hand (see :func:`read_hand`), a big JPEG decoded at a
    fraction of its size as :func:`cf.photo.reader.read_photo` does."""
    image, reduction = load_reduced(path, READ_SIZE)
    return read_hand(image, top, min_confidence, reduction=reduction)
