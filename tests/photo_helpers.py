"""Photos as phones store them, for the photo reader's and cf serve's tests."""

from __future__ import annotations

import cv2
import numpy as np


def stored_on_its_side(image: np.ndarray) -> bytes:
    """A JPEG of ``image`` as a phone stores a portrait photo: its pixels turned a quarter
    anticlockwise, with the EXIF orientation (6) that says to turn them back to show it."""
    ok, data = cv2.imencode(".jpg", cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE))
    assert ok
    entry = b"\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06\x00\x00"  # Orientation (SHORT) = 6
    tiff = b"MM\x00*\x00\x00\x00\x08" + b"\x00\x01" + entry + b"\x00\x00\x00\x00"
    exif = b"Exif\x00\x00" + tiff
    raw = data.tobytes()
    return raw[:2] + b"\xff\xe1" + (len(exif) + 2).to_bytes(2, "big") + exif + raw[2:]
