"""Editing a game file's rounds in place: text in, text out, every other byte kept.

A scorekeeper's file is theirs: comments, blank lines, key order, flow or block style,
quoting, CRLF line endings and a UTF-8 byte-order mark must all survive ``cf add`` and
``cf undo``. A YAML round-trip library re-emits the whole file and normalises some of
that (ruamel.yaml keeps most of it, but not every byte: indentation of sequences, spacing
inside flow collections, some comments). So this module never re-emits anything: it
composes the file (nodes carry start and end marks) and splices the text of one round in
or out at those positions. Everything outside the round added, replaced or removed is the
original text, byte for byte. It composes with :func:`cf.record.compose.compose`, as the
reader does: a file the reader takes, the editor can edit.

>>> text = "players: [A, B]  # seating\\nrounds:\\n  - scores: {A: 1, B: 0}\\n"
>>> print(add_round(text, {"scores": {"A": 0, "B": 7}}), end="")
players: [A, B]  # seating
rounds:
  - scores: {A: 1, B: 0}
  - scores: {A: 0, B: 7}
>>> print(add_round("players: [A, B]\\nrounds: []\\n", {"hands": {"A": "", "B": "6-6"}}), end="")
players: [A, B]
rounds:
  - hands: {A: "", B: 6-6}
>>> print(remove_last_round(add_round(text, {"scores": {"A": 0, "B": 7}})).text == text)
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import yaml

from cf.errors import Error
from cf.i18n import Message
from cf.record.compose import compose
from cf.record.emit import yaml_pair

#: A round to write: ``{"hands": {name: tile text}}`` or ``{"scores": {name: points}}``,
#: with an optional ``"comment"`` (text put after the round on its line, in block style).
RoundData = Mapping[str, object]

BOM = "\ufeff"


class EditError(Error, ValueError):
    """The file's rounds cannot be edited: no readable ``rounds`` list, or no such round."""


class UnreadableRounds(EditError):
    """No readable ``rounds`` list: the file is not YAML, not a mapping, or its ``rounds``
    is missing, twice, or not a list (cf validate says so too)."""


@dataclass(frozen=True, slots=True)
class Removed:
    """What :func:`remove_last_round` did: the new text, and the removed round's own text."""

    text: str
    removed: str
    number: int


# --- the public edits -----------------------------------------------------------------


def add_round(text: str, data: RoundData, number: int | None = None) -> str:
    """``text`` with round ``data`` appended, or put in place of round ``number`` (1-based;
    ``number`` one past the last round appends)."""
    doc = _Doc(text)
    items = doc.items
    if number is None or number == len(items) + 1:
        return doc.rebuild(doc.append(data))
    if not 1 <= number <= len(items):
        raise EditError(
            Message(
                "there is no round {number}: the file has {n_items}",
                number=number,
                n_items=len(items),
            )
        )
    return doc.rebuild(doc.replace(number - 1, data))


def remove_last_round(text: str) -> Removed:
    """``text`` without its last round, and that round's text as written."""
    doc = _Doc(text)
    if not doc.items:
        raise EditError(Message("the file has no rounds"))
    body, removed = doc.remove_last()
    return Removed(doc.rebuild(body), removed, len(doc.items))


def round_texts(text: str) -> list[str]:
    """The text of each round of the game file ``text``, as written: from its first key to
    the end of its last line (that line's comment with it; in a flow list, the mapping
    alone). ``[]`` when the rounds cannot be found."""
    try:
        doc = _Doc(text)
    except EditError:
        return []
    t = doc.text
    if doc.flow:
        return [t[item.start_mark.index : item.end_mark.index] for item in doc.items]
    return [t[item.start_mark.index : doc.line_end(doc.content_end(item))] for item in doc.items]


def round_text(data: RoundData, *, flow: bool = False) -> str:
    """One round as YAML: ``hands: {Ana: "", Ben: 9-7 6-6 4-1}`` (block style, the
    comment after it) or ``{hands: {…}}`` (flow style, which has no room for a comment).

    >>> round_text({"scores": {"Ana": 12, "Ben": 33}, "comment": "Ben: 9-7 6-6 4-1"})
    'scores: {Ana: 12, Ben: 33}  # Ben: 9-7 6-6 4-1'
    """
    parts = []
    for key in ("hands", "scores"):
        if key in data:
            values = data[key]
            assert isinstance(values, Mapping)
            pairs = ", ".join(yaml_pair(name, _value(v)) for name, v in values.items())
            parts.append(f"{key}: {{{pairs}}}")
    body = ", ".join(parts)
    if flow:
        return f"{{{body}}}"
    comment = data.get("comment")
    return f"{body}  # {comment}" if comment else body


def _value(value: object) -> str:
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return text if text else '""'


# --- the document and its rounds ------------------------------------------------------


def find_dash(text: str, start: int) -> int | None:
    """Index of the ``-`` that opens the block sequence item whose content starts at
    ``start``: on its own line (``- scores: …``), or on a line above it, alone but for a
    comment (``-`` or ``- # round 3``, the keys indented below, blank or comment lines
    between); ``None`` where there is none (a ``-`` ending a comment is no dash)."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    while True:
        code = before.rstrip(" \t\r")
        if code.strip(" \t") == "-":
            return line_start + len(code) - 1
        if code.strip(" \t"):
            return None
        if line_start == 0:
            return None
        end = line_start - 1  # the line above: its text up to a comment
        line_start = text.rfind("\n", 0, end) + 1
        before = _code(text[line_start:end])


def _code(line: str) -> str:
    """``line`` without its comment: a ``#`` at its start or after a blank (this is only
    asked of the lines between a round's ``-`` and its keys, which hold no quoted text)."""
    for i, char in enumerate(line):
        if char == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


class _Doc:
    """The file's text (BOM aside) and the nodes that matter: the root, ``rounds``."""

    def __init__(self, text: str) -> None:
        self.bom = text.startswith(BOM)
        self.text = text[1:] if self.bom else text
        # Lines that end in CR alone (old Macs): edited as LF lines, written back as CR.
        self.cr_only = "\r" in self.text and "\n" not in self.text
        if self.cr_only:
            self.text = self.text.replace("\r", "\n")
        self.newline = "\r\n" if "\r\n" in self.text else "\n"
        try:
            root = compose(self.text, outline=True)  # the rounds as outlines
        except yaml.YAMLError as exc:
            raise UnreadableRounds(Message("the file is not valid YAML: {exc}", exc=exc)) from None
        if not isinstance(root, yaml.MappingNode):
            raise UnreadableRounds(Message("the file is not a mapping with players and rounds"))
        self.root = root
        found = [(k, v) for k, v in root.value if isinstance(k, yaml.ScalarNode)]
        rounds = [(k, v) for k, v in found if k.value == "rounds"]
        if len(rounds) != 1:
            raise UnreadableRounds(
                "the file has no 'rounds' list" if not rounds else "two 'rounds'"
            )
        self.key, self.node = rounds[0]
        if isinstance(self.node, yaml.SequenceNode):
            self.items: list[yaml.Node] = list(self.node.value)
        elif _is_null(self.node):  # as the reader takes it: no rounds
            self.items = []
        else:
            raise UnreadableRounds(Message("'rounds' is not a list"))

    def rebuild(self, body: str) -> str:
        if self.cr_only:
            body = body.replace("\n", "\r")
        return (BOM if self.bom else "") + body

    @property
    def flow(self) -> bool:
        """Rounds are written in flow style: ``rounds: [{…}, {…}]`` or a flow root."""
        if isinstance(self.node, yaml.SequenceNode) and self.node.flow_style:
            return bool(self.items) or bool(self.root.flow_style)
        return bool(self.root.flow_style)

    # positions ---------------------------------------------------------------------------
    def line_end(self, index: int) -> int:
        """Index of the line break ending the line that holds ``index`` (or the end)."""
        end = self.text.find("\n", index)
        if end == -1:
            return len(self.text)
        return end - 1 if end and self.text[end - 1] == "\r" else end

    def after_line(self, index: int) -> int:
        """Index just after the line break ending ``index``'s line (or the end)."""
        end = self.text.find("\n", index)
        return len(self.text) if end == -1 else end + 1

    def content_end(self, node: yaml.Node) -> int:
        """Where a node's own text ends: block collections' end marks run on to the next
        token, so follow the last value down; a block scalar's text ends before its
        final line break. A round is an outline (:func:`~cf.record.compose.compose`):
        its ``tail`` is that last value's text, found while it was parsed."""
        tail = getattr(node, "tail", None)
        if tail is None:
            while isinstance(node, yaml.MappingNode | yaml.SequenceNode) and not node.flow_style:
                if not node.value:
                    break
                last = node.value[-1]
                if isinstance(node, yaml.MappingNode):
                    node = last[0] if _is_empty(last[1]) else last[1]
                else:
                    node = last
            tail = node.start_mark.index, node.end_mark.index
        start, end = tail
        while end > start and self.text[end - 1] in "\r\n":
            end -= 1
        return end

    def dash(self, item: yaml.Node) -> int:
        """Index of the ``-`` that opens a block sequence item."""
        at = find_dash(self.text, item.start_mark.index)
        if at is None:
            line = item.start_mark.line + 1
            raise EditError(
                Message("cannot find where the round at line {line} begins", line=line)
            )
        return at

    def column(self, index: int) -> int:
        return index - (self.text.rfind("\n", 0, index) + 1)

    # edits ---------------------------------------------------------------------------------
    def append(self, data: RoundData) -> str:
        t, nl = self.text, self.newline
        if self.flow:
            item = round_text(data, flow=True)
            if self.items:
                at = self.items[-1].end_mark.index
                return f"{t[:at]}, {item}{t[at:]}"
            if isinstance(self.node, yaml.SequenceNode):  # [] in a flow root: fill it
                at = self.node.end_mark.index - 1
                return f"{t[:at]}{item}{t[at:]}"
            start, end = self.node.start_mark.index, self.node.end_mark.index  # a null value
            return f"{t[:start]}[{item}]{t[end:]}"
        line = round_text(data)
        if self.items:
            last = self.items[-1]
            dash = self.dash(last)
            indent = " " * self.column(dash)
            gap = t[dash + 1 : last.start_mark.index]
            if "#" in gap:  # the last round's comment is its own: the new one has the layout
                gap = nl + " " * self.column(last.start_mark.index)
            at = self.after_line(self.content_end(last))
            lead = nl if at == len(t) and not t.endswith("\n") else ""
            tail = "" if lead else nl
            return f"{t[:at]}{lead}{indent}-{gap}{line}{tail}{t[at:]}"
        # rounds: [] or no list: the list becomes a block under the key. After `[]` it is
        # indented under the key; after no list (`rounds:`, `rounds: ~`) its dash is flush
        # with the key. What was written other than ` []` or nothing stays on the key's
        # line as a comment (`rounds: # was ~`, `rounds:  # was [ ]`), so that cf undo of
        # that round writes back what was there (remove_last).
        key_end = self.key.end_mark.index
        colon = t.index(":", key_end)
        value_start, value_end = colon + 1, self.node.end_mark.index
        key_column = self.column(self.key.start_mark.index)
        flush = not isinstance(self.node, yaml.SequenceNode)
        indent = " " * (key_column if flush else key_column + 2)
        word = ""
        if _is_empty(self.node):  # `rounds:` and nothing: its marks may lie further on
            value_end = value_start
        elif t[value_start:value_end] != " []" and "\n" not in t[value_start:value_end]:
            start = self.node.start_mark.index
            word = t[value_start:start] + WAS + t[start:value_end]
        rest = t[value_end : self.line_end(value_end)]  # a comment after [] stays on the line
        before = t[:value_start] + word + rest
        at = self.after_line(value_end)
        lead = nl if at == len(t) and not t.endswith("\n") else ""
        middle = nl if not lead else ""
        tail = nl if not lead else ""
        return f"{before}{middle}{lead}{indent}- {line}{tail}{t[at:]}"

    def replace(self, index: int, data: RoundData) -> str:
        t = self.text
        item = self.items[index]
        if self.flow:
            start, end = item.start_mark.index, item.end_mark.index
            return f"{t[:start]}{round_text(data, flow=True)}{t[end:]}"
        start = item.start_mark.index
        end = self.line_end(self.content_end(item))  # its last line's comment goes with it
        return f"{t[:start]}{round_text(data)}{t[end:]}"

    def remove_last(self) -> tuple[str, str]:
        t = self.text
        item = self.items[-1]
        if self.flow:
            start, end = item.start_mark.index, item.end_mark.index
            removed = t[start:end]
            if len(self.items) > 1:
                start = self.items[-2].end_mark.index
            return t[:start] + t[end:], removed
        dash = self.dash(item)
        start = dash - self.column(dash)
        end = self.after_line(self.content_end(item))
        removed = t[start:end]
        if end == len(t) and not t.endswith("\n") and start:  # the file ended on that line
            start -= 2 if t[start - 2 : start] == "\r\n" else 1
        if len(self.items) > 1:
            return t[:start] + t[end:], removed
        # the only round: back to `rounds: []`, as cf new writes it; or, for a list flush
        # with its key (what cf add makes of `rounds:` or `rounds: ~`), to no list, the
        # null word back from its comment (see append)
        key_end = self.key.end_mark.index
        colon = t.index(":", key_end)
        between = t[colon + 1 : start]
        line_rest = between[: between.find("\n")] if "\n" in between else between
        line_rest = line_rest.rstrip("\r")
        flush = self.column(dash) == self.column(self.key.start_mark.index)
        was = (_WAS_NULL if flush else _WAS_EMPTY).fullmatch(line_rest)
        if was:
            head = t[: colon + 1] + "".join(was.groups())
        else:
            head = t[: colon + 1] + ("" if flush else " []") + line_rest
        gap = t[colon + 1 + len(line_rest) : start]  # the line break, comment lines between
        return head + gap + t[end:], removed


#: What cf add leaves on ``rounds``'s line of a value it replaces by a list, other than
#: `` []`` or nothing: ``rounds: # was ~``, ``rounds:  # was [ ]``; cf undo puts it back.
WAS = "# was "
_TAIL = r"([ \t]+#.*|[ \t]*)"  # what followed the value: a comment, or spaces
_WAS_NULL = re.compile(r"([ \t]+)# was (~|null|Null|NULL)" + _TAIL)
_WAS_EMPTY = re.compile(r"([ \t]+)# was (\[[ \t]*\])" + _TAIL)


def _is_null(node: yaml.Node) -> bool:
    """A value YAML reads as null: nothing, ``~``, ``null`` (the reader's nulls)."""
    return (
        isinstance(node, yaml.ScalarNode)
        and not node.style
        and node.value in ("", "~", "null", "Null", "NULL")
    )


def _is_empty(node: yaml.Node) -> bool:
    """A value written as nothing at all (``key:`` and no value)."""
    return isinstance(node, yaml.ScalarNode) and node.value == "" and not node.style
