"""A photo of a hand sent from the page: checked for size before anything decodes it, then
read by the same reader as ``cf score --photo`` (:mod:`cf.photo`, the photo extra).

A phone photo is a JPEG of 2-10 MB and 12-50 megapixels. Bigger uploads are refused while
they arrive (:data:`MAX_BYTES`); an image whose header declares more than
``cf.photo.limits.MAX_PIXELS`` (a decompression bomb: 30,000 x 30,000 pixels fit in a PNG
of a few kilobytes) is refused from its header (read by :mod:`cf.photo.limits`), before a
single pixel is decoded. Only JPEG and PNG are read. Nothing is written anywhere: the
annotated picture goes back inline.

>>> png = b"\\x89PNG\\r\\n\\x1a\\n" + b"\\0\\0\\0\\rIHDR" + (30000).to_bytes(4, "big") * 2
>>> image_size(png)
('png', 30000, 30000)
"""

from __future__ import annotations

import base64
from typing import Any

from cf.errors import Error
from cf.i18n import Message, gettext, ngettext, speaking
from cf.tiles import hand_points

#: The largest upload read (a phone photo is 2-10 MB).
MAX_BYTES = 25 * 2**20
#: Long side of the annotated picture sent back to the page.
SHOWN_SIZE = 1024


class UploadError(Error):
    """An upload that is not read: too big, not a JPEG or PNG, too many pixels."""


def image_size(data: bytes) -> tuple[str, int, int]:
    """The kind (``png`` or ``jpeg``), width and height an image's header declares, as
    :mod:`cf.photo.limits` reads them. Raises :class:`UploadError` for anything else."""
    from cf.photo.limits import heif
    from cf.photo.limits import image_size as header_size

    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        kind = "png"
    elif data.startswith(b"\xff\xd8"):
        kind = "jpeg"
    elif heif(data):
        raise UploadError(
            Message(
                "the photo is HEIC (or AVIF), which cannot be read here: send a JPEG (an "
                "iPhone takes JPEG photos with Settings > Camera > Formats > Most Compatible)"
            )
        )
    else:
        raise UploadError(Message("the upload is not a photo (JPEG or PNG)"))
    size = header_size(data)
    if size is None:
        raise UploadError(
            Message("the photo is a damaged {kind} (no size in its header)", kind=kind.upper())
        )
    return kind, size[0], size[1]


def check_upload(data: bytes) -> tuple[str, int, int]:
    """The header's kind and size, if the photo may be decoded; else :class:`UploadError`."""
    from cf.photo.limits import MAX_PIXELS

    if len(data) > MAX_BYTES:
        raise UploadError(Message("the photo is larger than {size} MB", size=MAX_BYTES // 2**20))
    if not data:
        raise UploadError(Message("the upload is empty"))
    kind, width, height = image_size(data)
    if width * height > MAX_PIXELS:
        raise UploadError(
            Message(
                "the photo has {width} x {height} pixels; at most {most} megapixels are read",
                width=width,
                height=height,
                most=MAX_PIXELS // 1_000_000,
            )
        )
    if not width or not height:
        raise UploadError(Message("the photo has no pixels"))
    return kind, width, height


def read_upload(
    data: bytes, top: int, double_blank: int, lang: str | None = None
) -> dict[str, Any]:
    """Read one hand from the photo ``data``: the tiles read, those that could not be read
    (with what they might be), their points, and the photo annotated as a data: URL; the
    message saying so in English and, with ``lang``, also ``shown`` in that language.
    Raises :class:`UploadError`, or :class:`ImportError` without the photo extra."""
    kind, width, height = check_upload(data)
    from cf.photo import PhotoError, read_hand
    from cf.photo.reader import READ_SIZE, decode_image

    # A big JPEG is decoded at 1/2, 1/4 or 1/8 of its size, as cf score --photo does
    # (cf.photo.reader.load_reduced): the decoder skips detail the reader never uses.
    reduction = 1
    if kind == "jpeg":
        longest = max(width, height)
        reduction = max((r for r in (2, 4, 8) if longest >= r * READ_SIZE), default=1)
    try:
        image = decode_image(data, Message("the photo"), reduction)
        reading = read_hand(image, top, reduction=reduction)
    except PhotoError as exc:
        args = exc.args
        raise UploadError(args[0] if len(args) == 1 else str(exc)) from None
    with speaking(lang or "en"):  # the picture's caption in the page's language
        picture = _annotated(image, reading, reduction)
    del image
    tiles = [str(t) for t in reading.tiles]
    found = reading.found
    counts = (len(tiles), len(reading.unreadable), found)
    result: dict[str, object] = {
        "tiles": tiles,
        # A refused reading has no total (SPEC §9), as in cf score --photo's JSON: no
        # domino found, or a tile not read beside those that were.
        "points": hand_points(reading.tiles, double_blank) if reading.ok else None,
        "unreadable": [
            {"candidates": [str(t) for t in u.candidates], "reason": u.reason}
            for u in reading.unreadable
        ],
        "found": found,
        "message": _summary(*counts, "en"),
        "image": picture,
    }
    if lang is not None:
        result["shown"] = {"message": _summary(*counts, lang)}
    return result


def _annotated(image: Any, reading: Any, reduction: int = 1) -> str:
    """The photo, at most :data:`SHOWN_SIZE` pixels long, with what was read drawn on it
    (drawn on the small copy: a 12 MP photo is not drawn on whole), as a data: URL.
    ``image`` is the photo decoded at 1/``reduction`` of its size; the reading's outlines
    are in the photo's own pixels."""
    import dataclasses

    import cv2

    from cf.photo.annotate import annotate

    shrink = min(1.0, SHOWN_SIZE / max(image.shape[:2]))
    if shrink < 1:
        size = (round(image.shape[1] * shrink), round(image.shape[0] * shrink))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    scale = shrink / reduction  # the photo's pixels -> the picture's
    if scale != 1:

        def small(box: list[tuple[int, int]]) -> list[tuple[int, int]]:
            return [(round(x * scale), round(y * scale)) for x, y in box]

        reading = dataclasses.replace(
            reading,
            reads=[dataclasses.replace(r, box=small(r.box)) for r in reading.reads],
            unreadable=[dataclasses.replace(u, box=small(u.box)) for u in reading.unreadable],
        )
    ok, jpeg = cv2.imencode(".jpg", annotate(image, reading), [cv2.IMWRITE_JPEG_QUALITY, 80])
    return "data:image/jpeg;base64," + base64.b64encode(jpeg.tobytes()).decode() if ok else ""


def _summary(read: int, unreadable: int, found: bool, lang: str) -> str:
    """What the reading found, in ``lang``.

    >>> _summary(2, 1, True, "en"), _summary(1, 0, True, "es")
    ('2 tiles read; 1 could not be read with confidence: pick it in the grid', '1 ficha leída')
    """
    with speaking(lang):
        if not found:
            return gettext(
                "no domino found in the photo: take it again, or enter the hand by hand"
            )
        text = ngettext("{n} tile read", "{n} tiles read", read).format(n=read)
        if unreadable:
            doubt = ngettext(
                "{n} could not be read with confidence: pick it in the grid",
                "{n} could not be read with confidence: pick them in the grid",
                unreadable,
            ).format(n=unreadable)
            text = gettext("{read}; {doubt}").format(read=text, doubt=doubt)
        return text
