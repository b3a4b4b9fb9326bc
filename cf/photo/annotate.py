"""Draw what the reader saw: each tile's outline and reading on the photo (``--annotate``)."""

from __future__ import annotations

import os
import unicodedata

import cv2
import numpy as np

from cf.i18n import Message, decimal, ngettext
from cf.photo.reader import PhotoError, PhotoReading

GREEN = (60, 200, 60)
RED = (40, 40, 230)


def annotate(image: np.ndarray, reading: PhotoReading) -> np.ndarray:
    """A copy of ``image`` with each tile read outlined in green and labelled ``9-7 0.98``,
    and each unreadable tile outlined in red and labelled ``? 9-7/9-8``."""
    out = image.copy()
    size = max(out.shape[:2])
    thick = max(2, round(size / 400))
    font = max(0.5, size / 1400)
    for read in reading.reads:
        _draw(out, read.box, f"{read.tile} {decimal(read.confidence, 2)}", GREEN, thick, font)
    for bad in reading.unreadable:
        label = "? " + "/".join(str(t) for t in bad.candidates[:3])
        _draw(out, bad.box, label, RED, thick, font)
    summary = caption(len(reading.reads), len(reading.unreadable))
    _label(out, (thick * 4, thick * 4), summary, (255, 255, 255), thick, font)
    return out


def caption(read: int, unreadable: int) -> str:
    """The picture's top-left line in the reader's language, as the picture's font can
    draw it: OpenCV's Hershey fonts have ASCII only, so accents are dropped
    (``leídas`` -> ``leidas``) rather than drawn as ``?``.

    >>> caption(3, 1)
    '3 of 4 tiles read, 1 unreadable'
    """
    total = read + unreadable
    text = ngettext("{read} of {n} tile read", "{read} of {n} tiles read", total).format(
        read=read, n=total
    )
    if unreadable:
        text = ngettext("{text}, {n} unreadable", "{text}, {n} unreadable", unreadable).format(
            text=text, n=unreadable
        )
    return ascii_letters(text)


def ascii_letters(text: str) -> str:
    """``text`` with each accented letter as its plain letter (``ñ`` -> ``n``, ``…`` ->
    ``...``); any other character outside ASCII becomes ``?``, as the Hershey fonts would
    draw it."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return plain.encode("ascii", "replace").decode("ascii")


def write_annotated(path: str, image: np.ndarray, reading: PhotoReading) -> None:
    """Write the annotated photo to ``path`` (PNG, or whatever its extension says)."""
    ok = False
    try:
        ok = cv2.imwrite(path, annotate(image, reading))
    except cv2.error:
        ok = False
    if ok:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not cv2.haveImageWriter(path) or not os.path.isdir(folder):
        raise PhotoError(
            Message(
                "cannot write {path} (use a .png or .jpg name in a folder that exists)", path=path
            )
        )
    # A good name in a folder that is there: the system refused the picture (OpenCV says
    # no more), output that cannot be written (SPEC §7).
    raise PhotoError(
        Message("cannot write output: {path} (a full disk, or no permission?)", path=path)
    )


def _draw(
    out: np.ndarray,
    box: list[tuple[int, int]],
    text: str,
    colour: tuple[int, int, int],
    thick: int,
    font: float,
) -> None:
    pts = np.array(box, np.int32).reshape(-1, 1, 2)
    cv2.polylines(out, [pts], True, colour, thick, cv2.LINE_AA)
    x = int(min(p[0] for p in box))
    y = int(min(p[1] for p in box))
    _label(out, (x, max(0, y - thick * 2)), text, colour, thick, font)


def _label(
    out: np.ndarray,
    corner: tuple[int, int],
    text: str,
    colour: tuple[int, int, int],
    thick: int,
    font: float,
) -> None:
    face = cv2.FONT_HERSHEY_SIMPLEX
    (w, h), base = cv2.getTextSize(text, face, font, thick)
    x = min(max(0, corner[0]), max(0, out.shape[1] - w - 4))
    y = max(h + 4, corner[1])
    cv2.rectangle(out, (x, y - h - 4), (x + w + 4, y + base), (0, 0, 0), cv2.FILLED)
    cv2.putText(out, text, (x + 2, y - 2), face, font, colour, thick, cv2.LINE_AA)
