"""A photo of a hand sent from the page: checked for size before anything decodes it, then
read by the same reader as ``cf score --photo`` (:mod:`cf.photo`, the photo extra).

A phone photo is a JPEG of 2-10 MB and 12-50 megapixels. Bigger uploads are refused while
they arrive (:data:`MAX_BYTES`); an image whose header declares more than
:data:`MAX_PIXELS` (a decompression bomb: 30,000 x 30,000 pixels fit in a PNG of a few
kilobytes) is refused from its header, before a single pixel is decoded. Only JPEG and
PNG are read. Nothing is written anywhere: the annotated picture goes back inline.

>>> png = b"\\x89PNG\\r\\n\\x1a\\n" + b"\\0\\0\\0\\rIHDR" + (30000).to_bytes(4, "big") * 2
>>> image_size(png)
('png', 30000, 30000)
"""

from __future__ import annotations

import base64
import struct
from typing import Any

from cf.errors import Error
from cf.tiles import hand_points

#: The largest upload read (a phone photo is 2-10 MB).
MAX_BYTES = 25 * 2**20
#: The most pixels an image may declare (a 50-megapixel phone photo is 8160 x 6120).
MAX_PIXELS = 52_000_000
#: Long side of the annotated picture sent back to the page.
SHOWN_SIZE = 1024

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: JPEG start-of-frame markers (SOF0-SOF15 but DHT, JPG and DAC), which give the size.
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


class UploadError(Error):
    """An upload that is not read: too big, not a JPEG or PNG, too many pixels."""


def image_size(data: bytes) -> tuple[str, int, int]:
    """The kind (``png`` or ``jpeg``), width and height an image's header declares.
    Raises :class:`UploadError` for anything else."""
    if data.startswith(PNG_SIGNATURE):
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise UploadError("the photo is a damaged PNG")
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data.startswith(b"\xff\xd8"):
        return ("jpeg", *_jpeg_size(data))
    raise UploadError("the upload is not a photo (JPEG or PNG)")


def _jpeg_size(data: bytes) -> tuple[int, int]:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            break
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if marker in _SOF and i + 9 <= len(data):
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return width, height
        if length < 2:
            break
        i += 2 + length
    raise UploadError("the photo is a damaged JPEG (no size in its header)")


def check_upload(data: bytes) -> tuple[str, int, int]:
    """The header's kind and size, if the photo may be decoded; else :class:`UploadError`."""
    if len(data) > MAX_BYTES:
        raise UploadError(f"the photo is larger than {MAX_BYTES // 2**20} MB")
    if not data:
        raise UploadError("the upload is empty")
    kind, width, height = image_size(data)
    if width * height > MAX_PIXELS:
        raise UploadError(
            f"the photo has {width} x {height} pixels; at most {MAX_PIXELS // 1_000_000} "
            "megapixels are read"
        )
    if not width or not height:
        raise UploadError("the photo has no pixels")
    return kind, width, height


def read_upload(data: bytes, top: int, double_blank: int) -> dict[str, Any]:
    """Read one hand from the photo ``data``: the tiles read, those that could not be read
    (with what they might be), their points, and the photo annotated as a data: URL.
    Raises :class:`UploadError`, or :class:`ImportError` without the photo extra."""
    check_upload(data)
    from cf.photo import PhotoError, read_hand
    from cf.photo.reader import decode_image

    try:
        image = decode_image(data, "the photo")
        reading = read_hand(image, top)
    except PhotoError as exc:
        raise UploadError(str(exc)) from None
    picture = _annotated(image, reading)
    del image
    tiles = [str(t) for t in reading.tiles]
    found = bool(reading.reads or reading.unreadable)
    return {
        "tiles": tiles,
        "points": hand_points(reading.tiles, double_blank),
        "unreadable": [
            {"candidates": [str(t) for t in u.candidates], "reason": u.reason}
            for u in reading.unreadable
        ],
        "found": found,
        "message": _summary(len(tiles), len(reading.unreadable), found),
        "image": picture,
    }


def _annotated(image: Any, reading: Any) -> str:
    """The photo, at most :data:`SHOWN_SIZE` pixels long, with what was read drawn on it
    (drawn on the small copy: a 12 MP photo is not drawn on whole), as a data: URL."""
    import dataclasses

    import cv2

    from cf.photo.annotate import annotate

    scale = min(1.0, SHOWN_SIZE / max(image.shape[:2]))
    if scale < 1:
        size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)

        def small(box: list[tuple[int, int]]) -> list[tuple[int, int]]:
            return [(round(x * scale), round(y * scale)) for x, y in box]

        reading = dataclasses.replace(
            reading,
            reads=[dataclasses.replace(r, box=small(r.box)) for r in reading.reads],
            unreadable=[dataclasses.replace(u, box=small(u.box)) for u in reading.unreadable],
        )
    ok, jpeg = cv2.imencode(".jpg", annotate(image, reading), [cv2.IMWRITE_JPEG_QUALITY, 80])
    return "data:image/jpeg;base64," + base64.b64encode(jpeg.tobytes()).decode() if ok else ""


def _summary(read: int, unreadable: int, found: bool) -> str:
    if not found:
        return "no domino found in the photo: take it again, or enter the hand by hand"
    text = f"{read} tile{'s' if read != 1 else ''} read"
    if unreadable:
        text += (
            f"; {unreadable} could not be read with confidence: pick "
            f"{'it' if unreadable == 1 else 'them'} in the grid"
        )
    return text
