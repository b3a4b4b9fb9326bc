"""The one exception every cf error derives from.

>>> import cf
>>> try:
...     cf.parse_hand("9-7 12-1")
... except cf.Error as exc:
...     print(exc.code, "-", exc)
tile - '12-1' is not in double-nine: pips go from 0 to 9
"""

from __future__ import annotations


class Error(Exception):
    """Base class of every exception cf raises on purpose.

    ``code`` is the problem code (docs/file-format.md, "Problem codes") where the error
    has one, else ``None``.
    """

    code: str | None = None


def clip(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for quoting input in messages.

    >>> clip("Bartholomew", 6)
    'Barth…'
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"
