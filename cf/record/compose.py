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

_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"


#: Deeper nesting is refused (a game file nests five deep; Python's stack has its limits).
MAX_DEPTH = 200


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
                "expected a single document in the stream",
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

    def check_anchor(self, event: Any) -> None:
        if event.anchor is not None and event.anchor in self.anchors:
            raise ComposerError(
                f"found duplicate anchor {event.anchor!r}; first occurrence",
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
