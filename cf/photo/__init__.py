"""Read the tiles of a hand from a photo (``cf score --photo``, SPEC §9).

An optional extra: this package needs OpenCV and numpy (``pip install
'chickenfoot[photo]'``), so nothing else in :mod:`cf` imports it at start-up. The reader
is a classical pipeline (:mod:`cf.photo.reader`); two small networks trained on synthetic
photos check its reading and read again where it refuses, run by OpenCV's own ``cv2.dnn``
from the ONNX files in ``cf/photo/models`` (:mod:`cf.photo.combined`, :mod:`cf.photo.nets`). No
download, no network, no dependency beyond OpenCV and numpy.
"""

from __future__ import annotations

import os

from cf.photo.limits import MAX_PIXELS

# OpenCV reads its own pixel limit once, when it first decodes: any format whose header
# cf.photo.limits does not read is held to the same count.
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))
# OpenCV's own decoder log lines are not shown (see cf/photo/reader.py); an OpenCV whose
# Python module cannot set its log level reads this when it first logs.
os.environ.setdefault("OPENCV_LOG_LEVEL", "SILENT")
# The reader works on one core. numpy's BLAS would start a thread per core when it loads,
# and they spin, waiting, through the lighting's small least-squares fit: CPU spent for
# nothing (it reads its setting once, so before numpy is first imported).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from cf.photo.combined import read_hand, read_photo
from cf.photo.reader import (
    DEFAULT_MIN_CONFIDENCE,
    PhotoError,
    PhotoReading,
    TileRead,
    Unreadable,
    load_image,
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
