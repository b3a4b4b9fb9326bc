"""Read the tiles of a hand from a photo (``cf score --photo``, SPEC §9).

An optional extra: this package needs OpenCV and numpy (``pip install
'chickenfoot[photo]'``), so nothing else in :mod:`cf` imports it at start-up. The reader
is a classical pipeline (no model, no network): see :mod:`cf.photo.reader`.
"""

from __future__ import annotations

import os

from cf.photo.limits import MAX_PIXELS

# OpenCV reads its own pixel limit once, when it first decodes: any format whose header
# cf.photo.limits does not read is held to the same count.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))

from cf.photo.reader import (
    DEFAULT_MIN_CONFIDENCE,
    PhotoError,
    PhotoReading,
    TileRead,
    Unreadable,
    load_image,
    read_hand,
    read_photo,
)

__all__ = [
    "DEFAULT_MIN_CONFIDENCE",
    "PhotoError",
    "PhotoReading",
    "TileRead",
    "Unreadable",
    "load_image",
    "read_hand",
    "read_photo",
]
