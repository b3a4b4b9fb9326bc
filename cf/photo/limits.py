"""What a photo may cost before it is decoded: its file's kind and size, and its pixels.

A photo is anyone's file. A JPEG or PNG of a few kilobytes can say it is 30,000 × 30,000
pixels, and decoding it takes gigabytes; ``/dev/zero`` never ends; a FIFO blocks until a
writer comes. So a photo is opened without blocking, refused unless it is a regular file,
read up to :data:`MAX_PHOTO_BYTES` and no further, and its width and height are read from
the header (PNG, JPEG, GIF, BMP, WebP) and refused above :data:`MAX_PIXELS` before OpenCV
decodes anything. OpenCV's own limit (``OPENCV_IO_MAX_IMAGE_PIXELS``, set to the same
count by :mod:`cf.photo` before OpenCV loads) stops any other format it can read.

>>> header = b"\\x89PNG\\r\\n\\x1a\\n" + b"\\x00\\x00\\x00\\rIHDR"
>>> image_size(header + (30000).to_bytes(4, "big") * 2)
(30000, 30000)
"""

from __future__ import annotations

import os
import stat
import struct

from cf.i18n import Message

#: The most pixels a photo may have (a 50-megapixel camera's; a phone's is 12 to 48).
MAX_PIXELS = 50_000_000
#: The largest photo file read (a phone photo is 3 to 15 MB).
MAX_PHOTO_BYTES = 64 * 2**20


class PhotoLimitError(ValueError):
    """A photo refused before it is decoded; the message says why."""


#: The name a photo read from standard input (``-``) goes by in messages and JSON.
STDIN = "<stdin>"

#: Standard input as last read: (the stream, its bytes).
_stdin: list[tuple[object, bytes]] = []


def read_photo_file(path: str) -> bytes:
    """The bytes of the photo file ``path``: a regular file of at most
    :data:`MAX_PHOTO_BYTES` (anything else raises :class:`PhotoLimitError`; a file that
    cannot be opened raises ``OSError``). ``-`` is standard input, read once (a second
    read of it, to draw ``--annotate``, gets the same bytes), at most as much."""
    if path == "-":
        import sys

        if not _stdin or _stdin[0][0] is not sys.stdin:
            _stdin[:] = [(sys.stdin, sys.stdin.buffer.read(MAX_PHOTO_BYTES + 1))]
        data, path = _stdin[0][1], STDIN
    else:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO: no wait
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise PhotoLimitError(
                    Message("{path} is not a regular file, not a photo", path=path)
                )
            data = handle.read(MAX_PHOTO_BYTES + 1)
    if len(data) > MAX_PHOTO_BYTES:
        raise PhotoLimitError(
            Message(
                "{path}: more than {value} MiB is too big for a photo",
                path=path,
                value=MAX_PHOTO_BYTES // 2**20,
            )
        )
    return data


def check_pixels(data: bytes, name: str) -> None:
    """Raise :class:`PhotoLimitError` if the header of image ``data`` gives it more than
    :data:`MAX_PIXELS` pixels (a header that cannot be read is left to the decoder)."""
    size = image_size(data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        w, h = size
        raise PhotoLimitError(
            Message(
                "{name} is {w} × {h} pixels: more than {value} megapixels is "
                "too big for a photo (make it smaller first)",
                name=name,
                w=w,
                h=h,
                value=MAX_PIXELS // 1_000_000,
            )
        )


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the header of a PNG, JPEG, GIF, BMP or WebP; else ``None``."""
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
            w, h = struct.unpack(">II", data[16:24])
            return w, h
        if data.startswith(b"\xff\xd8"):
            return _jpeg_size(data)
        if data[:6] in (b"GIF87a", b"GIF89a"):
            w, h = struct.unpack("<HH", data[6:10])
            return w, h
        if data.startswith(b"BM"):
            w, h = struct.unpack("<ii", data[18:26])
            return abs(w), abs(h)
        if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
            return _webp_size(data)
    except struct.error:
        return None
    return None


#: JPEG start-of-frame markers (they give the size); C4, C8 and CC are other segments.
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The size in the first start-of-frame segment (the largest, for a multi-frame file)."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD9)):  # no length
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if marker in _SOF:
            h, w = struct.unpack(">HH", data[i + 5 : i + 9])
            return w, h
        if marker == 0xDA:  # image data: no size before it
            return None
        i += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":
        w = int.from_bytes(data[24:27], "little") + 1
        h = int.from_bytes(data[27:30], "little") + 1
        return w, h
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 ":
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    return None


#: The brands of an ISO media file (``ftyp``) that hold a HEIF or AVIF image: HEIF is an
#: iPhone's photos by default, which OpenCV's wheels do not decode (some builds decode
#: AVIF: the reader names the format only where decoding failed).
_HEIF_BRANDS = (
    b"heic",
    b"heix",
    b"hevc",
    b"hevx",
    b"heim",
    b"heis",
    b"mif1",
    b"msf1",
    b"avif",
    b"avis",
)


def heif(data: bytes) -> bool:
    """Whether ``data`` is a HEIF (HEIC) or AVIF image.

    >>> heif(b"\\x00\\x00\\x00\\x18ftypheic\\x00\\x00\\x00\\x00mif1heic"), heif(b"\\xff\\xd8\\xff")
    (True, False)
    """
    return data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS
