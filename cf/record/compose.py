"""YAML text to nodes, keeping a round's move log compact.

PyYAML's composer builds a node, with two position marks, for every scalar, list and
mapping: about 1.1 kB for a move like ``- Ana: 9-8``, so a 600,000-move file took 800 MB
before a single move was read. This composer takes the parser's events (libyaml's, where
present) and builds the same :mod:`yaml` nodes, except for the items of a round's
``moves`` list: an item of the common shape ``PLAYER: TEXT`` (two plain scalars, no anchor,
no tag) is kept as a :class:`Move` tuple of its texts and positions — a sixth of the
memory. Anything else in ``moves`` stays a node, so the reader sees everything as written.

>>> root = compose("rounds:\\n  - moves:\\n      - Ana: 9-8\\n      - Ben: 'pass'\\n")
>>> moves = root.value[0][1].value[0].value[0][1].value
>>> moves[0]
Move(player='Ana', text='9-8', line=2, column=8, text_line=2, text_column=13)
>>> type(moves[1]).__name__
'MappingNode'
"""

# The yaml stubs give every event an optional mark of one of two Mark classes; the parser
# always sets them.
# mypy: disable-error-code="arg-type,union-attr"

from __future__ import annotations

from typing import Any, NamedTuple

import yaml
from yaml.composer import ComposerError
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from cf.i18n import Message

_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"


#: Deeper nesting is refused (a game file nests five deep; Python's stack has its limits).
MAX_DEPTH = 200
#: The longest line, and the longest value, read. A game file's lines and values are
#: short (a long round's move log is a few kilobytes); megabytes on one line (a flow list
#: of moves, a hand of junk) cost the parser and the reader hundreds of times their size.
MAX_LINE = 64 * 1024
MAX_SCALAR = 64 * 1024


class TooLong(ComposerError):
    """A line or a value longer than :data:`MAX_LINE` / :data:`MAX_SCALAR`: refused
    before (or while) it is parsed. ``line`` and ``column`` are 0-based."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(None, None, message, yaml.Mark("<text>", 0, line, column, None, None))
        self.message = message
        self.line = line
        self.column = column


def check_lines(text: str) -> None:
    """Raise :class:`TooLong` for the first line of ``text`` longer than :data:`MAX_LINE`
    characters (one step per line: cheap next to parsing)."""
    size = len(text)
    if size <= MAX_LINE:
        return
    start = line = 0
    find = text.find
    newline = "\n" if "\n" in text else "\r"  # lines that end in CR alone (old Macs)
    while start < size:
        end = find(newline, start, start + MAX_LINE + 1)
        if end == -1:
            if size - start <= MAX_LINE:
                return
            break
        start = end + 1
        line += 1
    else:
        return
    raise TooLong(
        Message(
            "line {line} is longer than {kib} KiB: cf reads no line that long "
            "(a game file's lines are short; write a long list one item a line)",
            line=line + 1,
            kib=MAX_LINE // 1024,
        ),
        line,
        0,
    )


class Move(NamedTuple):
    """An item ``PLAYER: TEXT`` of a ``moves`` list, as written (0-based positions, as
    YAML marks count)."""

    player: str
    text: str
    line: int
    column: int
    text_line: int
    text_column: int


def compose(text: str, loader: Any = None, *, compact: bool = True) -> yaml.Node | None:
    """The root node of the single YAML document in ``text`` (``None`` if there is none),
    parsed with ``loader`` (default: cf's :class:`~cf.record.reader.Loader`); with
    ``compact``, the plain items of move logs as :class:`Move` tuples, else every item a
    node (as the editor of cf add and cf undo needs).

    The one composer of game files: the reader and the editor both use it, so both refuse
    the same files (nesting deeper than :data:`MAX_DEPTH`, as a ``ComposerError``, never a
    ``RecursionError``). Raises what :func:`yaml.compose` raises for text that is not YAML.
    """
    if loader is None:
        from cf.record.reader import Loader

        loader = Loader
    check_lines(text)
    parser = loader(text)
    try:
        return _Composer(parser, compact).document()
    finally:
        parser.dispose()


class _Composer:
    def __init__(self, parser: Any, compact: bool = True) -> None:
        self.compact = compact
        self.get = parser.get_event
        self.peek = parser.peek_event
        self.anchors: dict[str, yaml.Node] = {}
        # Strings met again and again (player names, "pass", "9-8"): one object each.
        self.texts: dict[str, str] = {}
        self.depth = 0

    def document(self) -> yaml.Node | None:
        self.get()  # stream start
        if isinstance(self.peek(), StreamEndEvent):
            return None
        self.get()  # document start
        root = self.node(top=True)
        self.get()  # document end
        if not isinstance(self.peek(), StreamEndEvent):
            event = self.get()
            raise ComposerError(
                Message("expected a single document in the stream"),
                root.start_mark,
                "but found another document",
                event.start_mark,
            )
        return root

    def node(self, top: bool = False, in_rounds: bool = False, moves: bool = False) -> Any:
        event = self.get()
        if isinstance(event, AliasEvent):
            if event.anchor not in self.anchors:
                raise ComposerError(None, None, "found undefined alias", event.start_mark)
            return self.anchors[event.anchor]
        anchor = event.anchor
        self.check_anchor(event)
        if isinstance(event, ScalarEvent):
            self.check_length(event)
            tag = event.tag if event.tag not in (None, "!") else _STR
            node: Any = yaml.ScalarNode(
                tag, event.value, event.start_mark, event.end_mark, event.style
            )
        else:
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise ComposerError(
                    None,
                    None,
                    f"lists and mappings nest more than {MAX_DEPTH} deep",
                    event.start_mark,
                )
            if isinstance(event, SequenceStartEvent):
                node = self.sequence(event, in_rounds, moves)
            else:
                node = self.mapping(event, top, in_rounds)
            self.depth -= 1
        if anchor is not None:
            self.anchors[anchor] = node
        return node

    @staticmethod
    def check_length(event: Any) -> None:
        if len(event.value) > MAX_SCALAR:
            mark = event.start_mark
            raise TooLong(
                Message(
                    "a value of more than {kib} KiB: cf reads no value that long",
                    kib=MAX_SCALAR // 1024,
                ),
                mark.line,
                mark.column,
            )

    def check_anchor(self, event: Any) -> None:
        if event.anchor is not None and event.anchor in self.anchors:
            raise ComposerError(
                Message(
                    "found duplicate anchor {anchor!r}; first occurrence", anchor=event.anchor
                ),
                self.anchors[event.anchor].start_mark,
                "second occurrence",
                event.start_mark,
            )

    def sequence(self, event: Any, in_rounds: bool, moves: bool) -> yaml.SequenceNode:
        tag = event.tag if event.tag not in (None, "!") else _SEQ
        node = yaml.SequenceNode(tag, [], event.start_mark, None, event.flow_style)
        if event.anchor is not None:
            self.anchors[event.anchor] = node  # an alias inside may point back at it
        items = node.value
        while not isinstance(self.peek(), SequenceEndEvent):
            move = self.move() if moves and self.compact else None
            items.append(move if move is not None else self.node(in_rounds=in_rounds))
        node.end_mark = self.get().end_mark
        return node

    def mapping(self, event: Any, top: bool, in_rounds: bool) -> yaml.MappingNode:
        tag = event.tag if event.tag not in (None, "!") else _MAP
        node = yaml.MappingNode(tag, [], event.start_mark, None, event.flow_style)
        if event.anchor is not None:
            self.anchors[event.anchor] = node
        pairs = node.value
        while not isinstance(self.peek(), MappingEndEvent):
            key = self.node()
            part = key.value if isinstance(key, yaml.ScalarNode) else None
            # The root's `rounds` is a list of rounds; a round's `moves` is a move log.
            value = self.node(
                in_rounds=top and part == "rounds", moves=in_rounds and part == "moves"
            )
            pairs.append((key, value))
        node.end_mark = self.get().end_mark
        return node

    def move(self) -> Any:
        """The next item as a :class:`Move` if it is a plain ``PLAYER: TEXT`` mapping."""
        start = self.peek()
        if not isinstance(start, MappingStartEvent) or start.anchor or start.tag:
            return None
        self.get()
        key = self.get()
        if isinstance(key, MappingEndEvent):  # `- {}`
            return yaml.MappingNode(_MAP, [], start.start_mark, key.end_mark, start.flow_style)
        value = self.peek()
        if not self._plain(key) or not self._plain(value):
            return self._rest_of_mapping(start, key)
        self.check_length(key)
        self.check_length(value)
        self.get()
        if not isinstance(self.peek(), MappingEndEvent):
            return self._rest_of_mapping(start, key, value)
        self.get()
        texts = self.texts
        player = texts.setdefault(key.value, key.value) if len(texts) < 100_000 else key.value
        text = texts.setdefault(value.value, value.value) if len(texts) < 100_000 else value.value
        smark, vmark = start.start_mark, value.start_mark
        return Move(player, text, smark.line, smark.column, vmark.line, vmark.column)

    @staticmethod
    def _plain(event: Any) -> bool:
        return (
            isinstance(event, ScalarEvent)
            and event.anchor is None
            and event.tag in (None, "!")
            and not event.style
        )

    def _rest_of_mapping(self, start: Any, key: Any, value: Any = None) -> Any:
        """Finish composing an item that turned out not to be a plain move, as a node."""
        node = yaml.MappingNode(_MAP, [], start.start_mark, None, start.flow_style)
        key_node = self._scalar_or_node(key)
        value_node = self.node() if value is None else self._scalar_or_node(value)
        node.value.append((key_node, value_node))
        while not isinstance(self.peek(), MappingEndEvent):
            k = self.node()
            node.value.append((k, self.node()))
        node.end_mark = self.get().end_mark
        return node

    def _scalar_or_node(self, event: Any) -> Any:
        """A node for an event already taken from the parser (a key, or a scalar value)."""
        if isinstance(event, ScalarEvent):
            self.check_anchor(event)
            self.check_length(event)
            tag = event.tag if event.tag not in (None, "!") else _STR
            node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
            if event.anchor is not None:
                self.anchors[event.anchor] = node
            return node
        # Not a scalar: it is still in the parser (peeked, not taken) unless it was a key.
        return self._taken(event)

    def _taken(self, event: Any) -> Any:
        if isinstance(event, AliasEvent):
            if event.anchor not in self.anchors:
                raise ComposerError(None, None, "found undefined alias", event.start_mark)
            return self.anchors[event.anchor]
        if isinstance(event, SequenceStartEvent):
            return self.sequence(event, False, False)
        return self.mapping(event, False, False)
