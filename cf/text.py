r"""Text from a file or the command line, made safe for where it goes: a terminal, markup
(SVG, HTML), a spreadsheet.

A game file is anyone's text. A title may hold terminal escape codes
(``\x1b]0;PWNED\x07``), a name a right-to-left override (U+202E) that reorders what the
terminal shows, a quote that ends an XML attribute, or ``=HYPERLINK(…)`` that a
spreadsheet runs. Every text cf shows or writes goes through one of these:

- :func:`visible`: control characters (C0, DEL, C1), line and paragraph separators, bidi
  controls, lone surrogates and non-characters written as backslash escapes (``\x1b``,
  ``\u202e``): what a person reads is what the text holds, on one line. :func:`shown` is
  the same but keeps tabs and line feeds; the streams of :mod:`cf._process` apply it to
  every text cf prints.
- :func:`xml_text` and :func:`xml_attr`: :func:`visible` text, then escaped for an XML
  text node or a quoted attribute (``xml.sax.saxutils``): well-formed whatever the input.
- :func:`csv_cell`: the OWASP rule against formula injection: a cell starting with
  ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``.

>>> print(visible("Ana\x1b[2J\u202eB"))
Ana\x1b[2J\u202eB
>>> xml_attr('Ana" onfocus="alert(1)')
'"Ana&quot; onfocus=&quot;alert(1)"'
>>> csv_cell('=HYPERLINK("http://x")'), csv_cell("-5"), csv_cell(-5)
('\'=HYPERLINK("http://x")', "'-5", -5)
"""

from __future__ import annotations

import re

#: Characters written as escapes: C0 and C1 controls, DEL, the line and paragraph
#: separators, the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069:
#: the "Trojan Source" characters, which reorder a whole line; the marks LRM, RLM and ALM
#: that right-to-left names use stay), the byte-order mark, non-characters U+FFFE/U+FFFF
#: and lone surrogates (none is allowed in XML, most move a terminal's cursor or change
#: what it shows).
HIDDEN = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff\ud800-\udfff]"
)


def _escape(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape", "backslashreplace").decode("ascii")


def visible(text: str) -> str:
    r"""``text`` with every character that is not shown as itself written as an escape.

    >>> visible("Ben\u2028\ud800")
    'Ben\\u2028\\ud800'
    """
    return HIDDEN.sub(_escape, text)


#: What :func:`shown` escapes: all that :data:`HIDDEN` holds but the tab and line feed
#: that lay out a terminal's lines and columns.
TERMINAL_HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ufeff\ufffe\uffff\ud800-\udfff]"
)


#: The lone surrogates a byte that is not UTF-8 becomes in a file name or an argument
#: (Python's ``surrogateescape``).
UNDECODED = re.compile("[\udc80-\udcff]")


def shown(text: str) -> str:
    r"""Text for a terminal: as :func:`visible`, but lines and tabs stay lines and tabs, and
    a byte of a file name that is not UTF-8 is shown as U+FFFD, as the file name is in JSON.

    >>> shown("a\tb\nc\x1b[2J\r"), shown("nope\udcff.yaml")
    ('a\tb\nc\\x1b[2J\\r', 'nope\ufffd.yaml')
    """
    if not text.isascii():
        text = UNDECODED.sub("\ufffd", text)
    return TERMINAL_HIDDEN.sub(_escape, text)


def has_hidden(text: str) -> bool:
    """Whether :func:`visible` would change ``text``."""
    return HIDDEN.search(text) is not None


def xml_text(text: str) -> str:
    """``text`` for an XML (SVG, HTML) text node: visible, ``&``, ``<`` and ``>`` escaped."""
    # Imported here: xml.sax.saxutils pulls in urllib.request, ~60 ms at every start-up.
    from xml.sax.saxutils import escape

    return escape(visible(text))


def xml_attr(text: str) -> str:
    """``text`` as a double-quoted XML attribute value, quotes included."""
    from xml.sax.saxutils import quoteattr

    return quoteattr(visible(text), {'"': "&quot;"})


#: What a spreadsheet takes for the start of a formula (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """A CSV cell that no spreadsheet runs as a formula: text starting with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return gets a leading ``'``. Numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value
