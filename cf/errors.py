"""The one exception every cf error derives from."""

from __future__ import annotations


class Error(Exception):
    """Base class of every exception cf raises on purpose.

    ``code`` is the problem code where the error has one, else ``None``.
    """

    code: str | None = None
