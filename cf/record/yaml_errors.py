"""A YAML syntax error, in words a scorekeeper can act on."""

from __future__ import annotations

import re

import yaml

from cf.errors import clip
from cf.i18n import Message
from cf.record.compose import MAX_DEPTH
from cf.record.problems import Problem

_BRACKET_TILE = re.compile(r"\[\s*[0-9]+\s*[-|]\s*[0-9]+\s*\]")
#: The line breaks YAML counts lines by (libyaml's marks): CR LF, CR, LF, NEL, LS, PS.
_LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")


#: Messages more than one kind of parser error is said by.
_TABS = Message("tabs cannot indent YAML: use spaces")
_DOCUMENT_END = Message(
    "a line that ends or starts a YAML document ('---', '...') or a '%' line: "
    "a game file is one document and needs neither; remove it"
)
_INDENTATION = Message(
    "this line's indentation does not fit the lines above it: the items of one "
    "list or mapping start in the same column (indent with spaces)"
)


def yaml_problem(exc: yaml.MarkedYAMLError, text: str) -> Problem:
    """A parser error in plain words, where the mistake most likely is."""
    mark = exc.problem_mark or exc.context_mark
    lines = _LINE_BREAK.split(text)
    said = " ".join(str(x) for x in (exc.context, exc.problem) if x)
    found = _plain_words(exc, said, lines)
    where, plain = (
        (mark.line if mark else None, _parser_words(exc, said)) if found is None else found
    )
    if where is None:
        return Problem("yaml", Message("not valid YAML: {plain}", plain=plain))
    where = min(where, len(lines) - 1)  # the end of a file with no last line break
    column = mark.column + 1 if mark and where == mark.line else _indent(lines[where]) + 1
    return Problem("yaml", Message("not valid YAML: {plain}", plain=plain), where + 1, column)


def _plain_words(exc: yaml.MarkedYAMLError, said: str, lines: list[str]) -> tuple[int, str] | None:
    """(0-based line, message) for the mistakes people make, or ``None``."""
    mark = exc.problem_mark or exc.context_mark
    if mark is None:
        return None
    if "<document start>" in said:
        return _past_the_end(mark.line, lines)
    if mark.line >= len(lines):  # past the last line: a file with no last line break
        return _unclosed(exc, said, "")
    line = lines[mark.line]
    char = line[mark.column : mark.column + 1]
    if "cannot start any token" in said and char == "\t":
        return mark.line, _TABS
    if _starts_token(said):
        at = mark
        if char not in _NO_START and exc.context_mark is not None:
            at = exc.context_mark  # an anchor or directive: the parser stopped past it
        start = lines[at.line][at.column : at.column + 1] if at.line < len(lines) else ""
        if start and start in _NO_START:
            word = _word_at(lines[at.line], at.column)
            return at.line, Message(
                "a value cannot start with {start}: put it in quotes, as in "
                '"{word}" (or remove the stray {start})',
                start=repr(start),
                word=word,
            )
    if len(_BRACKET_TILE.findall(line)) > 1 or (
        _BRACKET_TILE.search(line) and ("expected" in said or "found" in said)
    ):
        return mark.line, Message(
            'quote a hand written with brackets, as in Ana: "[5|4] [3|1]" '
            "(unquoted, YAML reads [5|4] as a list)"
        )
    missing: int | None = None
    if "could not find expected ':'" in said and exc.context_mark is not None:
        missing = exc.context_mark.line
    elif "mapping values are not allowed" in said:
        missing = _line_without_colon(lines, mark.line)
        if missing is None:
            return mark.line, _colon_in_value(line, mark.column)
    if missing is None:
        return _unclosed(exc, said, line)
    return missing, Message(
        "a key without its ':' ({key}): write 'key: value'", key=repr(clip(lines[missing].strip()))
    )


def _past_the_end(stop: int, lines: list[str]) -> tuple[int, str] | None:
    """The line that ended the file's one document (``...``, or a ``%`` directive after
    it), which the parser reads past, stopping at the next line that holds anything."""
    for before in range(min(stop, len(lines) - 1), -1, -1):
        if lines[before].startswith(("...", "---", "%")):
            return before, _DOCUMENT_END
    return None


def _parser_words(exc: yaml.MarkedYAMLError, said: str) -> Message:
    """The parser's (or the composer's) message, in cf's words and so in the table's
    language: what each of libyaml's and the composer's messages left means, or where to
    look. Never the parser's English: every text a person reads is translated (SPEC 14)."""
    if "expected a single document" in said:
        return Message(
            "a second YAML document begins here (after a '---' line): a game file is one document"
        )
    if "<document start>" in said or "document indicator" in said:
        return _DOCUMENT_END
    if "block sequence entries are not allowed" in said:
        return Message(
            "a list item ('- ') cannot start here: write the list on the lines under its "
            "key, indented"
        )
    if "directive" in said or "incompatible YAML document" in said:
        return Message("a '%' line cf does not read: a game file needs none; remove it")
    if "tag" in said:  # a tag's handle, or a '%' escape in it (a "URI escaped octet")
        return Message("a tag ('!') YAML does not know here: remove it")
    if "escape" in said or "hexdecimal" in said:
        return Message(
            "a backslash in double quotes that YAML does not know: write \\\\ for one "
            "backslash, or use single quotes"
        )
    if "tab character" in said:
        return _TABS
    if "duplicate anchor" in said:
        anchor = getattr(exc.context, "params", {}).get("anchor", "")
        return Message(
            "the anchor &{anchor} is set twice: give each anchor a name of its own",
            anchor=anchor,
        )
    if "nest more than" in said or "nesting depth" in said:
        return Message("lists and mappings nest more than {depth} deep", depth=MAX_DEPTH)
    if "node content" in said:
        return Message(
            "a value is missing here, or begins with a character no value can begin with"
        )
    return Message(
        "YAML cannot read the file from here: look at this line and the one before it "
        "(indent with spaces, start the items of one list or mapping in one column, and "
        "close every quote and bracket)"
    )


#: Characters YAML reserves at the start of a plain value: a stray one stops the parser
#: with "found character that cannot start any token" (or an alias or anchor error).
_NO_START = "%@`*&!|>"


def _starts_token(said: str) -> bool:
    """The parser's words for a reserved character at the start of a value."""
    return any(
        words in said
        for words in (
            "cannot start any token",
            "undefined alias",
            "while scanning an alias",
            "while scanning an anchor",
            "while scanning a directive",
            "while scanning a tag",
            "while scanning a block scalar",
        )
    )


def _word_at(line: str, column: int) -> str:
    """The value that starts at ``column``: up to a comma, bracket, brace or the end."""
    end = column
    while end < len(line) and line[end] not in ",]}#" and line[end : end + 2] != ": ":
        end += 1
    return clip(line[column:end].strip(), 30)


def _colon_in_value(line: str, column: int) -> str:
    """A second ``: `` on a line (``title: Game: one``, ``Ben: Jr: 0``): a name or a
    value that holds one needs quotes."""
    parts = [p.strip() for p in line.strip().lstrip("- ").split(": ")]
    said = "a second ': ' on the line: a name or a value holding ': ' needs quotes"
    if len(parts) != 3 or not all(parts):
        return Message(said)
    a, b, c = (clip(p, 30) for p in parts)
    return Message(
        "a second ': ' on the line: a name or a value holding ': ' needs quotes, "
        'as in {a}: "{b}: {c}" or "{a}: {b}": {c}',
        a=a,
        b=b,
        c=c,
    )


def _unclosed(exc: yaml.MarkedYAMLError, said: str, line: str) -> tuple[int, str] | None:
    """A list, a mapping in braces or a quote that is not closed, in plain words."""
    mark = exc.problem_mark or exc.context_mark
    begun = exc.context_mark.line + 1 if exc.context_mark is not None else None
    if mark is None or begun is None:
        return None
    if "while parsing a flow sequence" in said:
        return mark.line, Message(
            "the list begun with '[' on line {begun} is not closed here: a ',' or its ']' "
            "is missing (or a name with ':' or ',' needs quotes)",
            begun=begun,
        )
    if "while parsing a flow mapping" in said:
        return mark.line, Message(
            "the '{{…}}' begun on line {begun} is not closed here: a ',' or its '}}' is "
            "missing (or a name with ':' or ',' needs quotes)",
            begun=begun,
        )
    if "while parsing a block" in said and any(
        words in said for words in ("expected key", "<block end>", "'-' indicator")
    ):
        return mark.line, _INDENTATION
    if "while scanning a quoted scalar" in said:
        return exc.context_mark.line, Message(  # type: ignore[union-attr]
            "a quote opened on line {begun} is never closed: close it with its partner",
            begun=begun,
        )
    return None


def _line_without_colon(lines: list[str], line: int) -> int | None:
    """The line before ``line`` that reads as the start of a plain scalar the parser ran on
    into ``line``'s key: a key that lost its colon."""
    for before in range(line - 1, max(line - 20, -1), -1):
        text = lines[before].strip()
        if not text or text.startswith("#"):
            continue
        if ":" in text:
            return None
        if _indent(lines[before]) == _indent(lines[line]):
            return before
        return None
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
