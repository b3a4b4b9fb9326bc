"""Reading a game file, layers 4 and 5: one item of ``rounds``, and its move log."""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Iterator
from typing import Any

import yaml

from cf.errors import clip
from cf.i18n import Message, Plural, message_of
from cf.notation import Action, parse_action
from cf.record.compose import Move
from cf.record.game import ROUND_KEYS, HandEntry, MoveEntry, Pos, RoundRecord
from cf.record.shapes import (
    PLAIN_TAGS,
    STR_TAG,
    SURROGATE,
    TOKEN,
    YAML_TAG,
    Names,
    Values,
    is_null,
    kind_of,
    node_pos,
    suggest,
)
from cf.tiles import (
    NotationError,
    Tile,
    parse_oriented,
    split_tokens,
)

# --- layer 4: one round -------------------------------------------------------------------

#: The parts of a round that let its players be scored (``missing-score`` without them).
_SCORED_BY = ("scores", "hands", "deal", "moves")


class RoundReader:
    """One item of ``rounds``. ``top`` is ``None`` when the set is unknown: tiles are then
    read for their shape only."""

    def __init__(self, values: Values, names: Names, top: int | None) -> None:
        self.v = values
        self.names = names
        self.top = top
        self.moves = _MoveReader(values, names, top)
        self.failed: dict[str, str] = {}  # tokens that are no tile, and why (a Message)

    def read(self, number: int, node: yaml.Node) -> RoundRecord:
        v = self.v
        rec = RoundRecord(number, node_pos(node))
        if not isinstance(node, yaml.MappingNode):
            v.report(
                "schema",
                Message(
                    "round {number} must be a mapping, not {kind}",
                    number=number,
                    kind=kind_of(node),
                ),
                node,
            )
            rec.broken = True
            rec.unreadable.update(_SCORED_BY)  # one fault, one problem: nobody is "missing"
            return rec
        if node.tag != YAML_TAG + "map" or id(node) in v.walked:  # a tag, an alias: unread
            rec.unreadable.update(_SCORED_BY)
        for key, key_node, value in v.mapping(node, Message("round {number}", number=number)):
            if key not in ROUND_KEYS:
                v.report(
                    "schema",
                    Message(
                        "unknown key '{key}' in round {number}{suggest}",
                        key=clip(key),
                        number=number,
                        suggest=suggest(key, ROUND_KEYS),
                    ),
                    key_node,
                )
                rec.unreadable.update(
                    difflib.get_close_matches(key.lower(), ROUND_KEYS, n=1, cutoff=0.6)
                )
                continue
            pos = node_pos(value) if not is_null(value) else node_pos(key_node)
            if key == "starter":
                rec.starter_pos = pos
                self.read_starter(value, rec)
            elif key in ("deal", "hands"):
                setattr(rec, key, self.read_hands(value, key, rec))
                setattr(rec, f"{key}_pos", pos)
            elif key == "scores":
                rec.scores_pos = pos
                rec.scores = self.read_scores(value, rec)
            elif key == "moves":
                rec.moves_pos = pos
                rec.moves = self.moves.read(value, rec)
            elif key == "notes":
                rec.notes = True
                v.scalar(value, "notes")
        return rec

    def read_starter(self, node: yaml.Node, rec: RoundRecord) -> None:
        if (  # `starter: [6|6]` is a YAML list holding one tile: read it as the tile
            isinstance(node, yaml.SequenceNode)
            and node.tag == YAML_TAG + "seq"
            and len(node.value) == 1
            and isinstance(node.value[0], yaml.ScalarNode)
        ):
            node = node.value[0]
        text = self.v.scalar(node, "starter")
        if text is None:
            rec.broken = True
            return
        try:
            rec.starter = Tile.parse(text, self.top)
        except NotationError as exc:
            self.v.report("tile", Message("starter: {exc}", exc=exc), node)
            rec.broken = True

    def read_names(
        self, node: yaml.Node, what: str, rec: RoundRecord
    ) -> Iterator[tuple[str, yaml.Node, yaml.Node]]:
        """Items of a mapping keyed by player names (an empty one lists nobody).

        Only a broken deal stops the round's replay: the end of a round (hands, scores)
        is checked against the log, never needed to replay it.
        """
        if is_null(node):
            return
        deal = what == "deal"
        if not isinstance(node, yaml.MappingNode):
            rec.unreadable.add(what)
        read = 0
        seen: dict[str, str] = {}  # player -> the key that named them first
        for key, key_node, value in self.v.mapping(node, what, player_of=self._named):
            read += 1
            if not self.names.ok:
                continue
            name = self.names.resolve(key)
            if name is None:
                self.unknown_name(key.strip(), what, key_node, rec)
                rec.broken = rec.broken or deal
                self.check_shape(value, what, key.strip())
                continue
            if name in seen:  # 'Ana ' after Ana, an NFD José after an NFC one
                self.v.report(
                    "schema",
                    Message(
                        "{name} is listed twice in {what} (as '{first}' and '{key}')",
                        name=clip(name),
                        what=what,
                        first=clip(seen[name]),
                        key=clip(key),
                    ),
                    key_node,
                    player=name,
                )
                rec.broken = rec.broken or deal
                continue
            seen[name] = key
            yield name, key_node, value
        if not isinstance(node, yaml.MappingNode):
            rec.broken = rec.broken or deal
        elif deal and read < len(node.value):  # a key given twice: which hand was dealt?
            rec.broken = True

    def _named(self, key: str) -> str | None:
        """The player a key of hands, deal or scores names (as written if it is none)."""
        if not self.names.ok:
            return None
        return self.names.resolve(key) or key.strip()

    def check_shape(self, value: yaml.Node, what: str, name: str) -> None:
        """The value of a name that is not a player still has the shape its part needs (a
        score that is not a whole number is a ``schema`` problem whoever it is for)."""
        if what == "scores":
            self.v.decimal(
                value, Message("{player}'s score", player=clip(name)), "schema", player=name
            )
        elif not is_null(value):
            self.tokens(value, Message("{player}'s hand", player=clip(name)), name)

    def unknown_name(self, name: str, what: str, key_node: yaml.Node, rec: RoundRecord) -> None:
        guess = self.names.guess(name)
        self.v.report(
            "player",
            Message(
                "{name} in {what} is not a player{did_you_mean}",
                name=clip(name),
                what=what,
                did_you_mean=self.names.did_you_mean(name),
            ),
            key_node,
            player=name,
        )
        if guess is not None:
            rec.misnamed.setdefault((what, guess), node_pos(key_node))

    def read_hands(self, node: yaml.Node, what: str, rec: RoundRecord) -> dict[str, HandEntry]:
        hands: dict[str, HandEntry] = {}
        for name, key_node, value in self.read_names(node, what, rec):
            pos = node_pos(value) if not is_null(value) else node_pos(key_node)
            label = (
                Message("{player}'s dealt hand", player=clip(name))
                if what == "deal"
                else Message("{player}'s hand", player=clip(name))
            )
            hands[name] = entry = self.read_tiles(value, label, name, pos)
            if entry.tiles is None and what == "deal":
                rec.broken = True
        return hands

    def read_tiles(self, node: yaml.Node, what: str, name: str, pos: Pos) -> HandEntry:
        """A hand: tile text or a list of tiles. Every bad token is reported."""
        if is_null(node):
            return HandEntry((), pos)
        top = self.top
        if type(node) is yaml.ScalarNode and node.tag in PLAIN_TAGS:
            self.v.spend(node.value)
            try:  # the common case, fast: every token a tile, none twice
                tiles = tuple(Tile.of(*parse_oriented(t, top)) for t in split_tokens(node.value))
                if len(set(tiles)) == len(tiles):
                    return HandEntry(tiles, pos)
            except NotationError:
                pass
        tokens = self.tokens(node, what, name)
        if tokens is None:
            return HandEntry(None, pos)
        read, ok = self.check_tokens(tokens, what, name)
        if ok:
            return HandEntry(read, pos)
        return HandEntry(None, pos, read, len(tokens))

    def tokens(
        self, node: yaml.Node, what: str, player: str | None = None
    ) -> list[tuple[str, yaml.Node | Pos]] | None:
        """The tokens of ``player``'s hand with where each is, or ``None`` after a problem."""
        tokens: list[tuple[str, yaml.Node | Pos]] = []
        if isinstance(node, yaml.SequenceNode):
            if not self.v.first_walk(node, what, player):
                return None
            for item in node.value:
                text = self.v.scalar(item, Message("a tile in {what}", what=what), player=player)
                if text is None:
                    return None
                tokens.append((text.strip(), item))
            return tokens
        text = self.v.scalar(node, what, spent=True, player=player)
        if text is None:
            return None
        base = node_pos(node)
        # A plain text on one line: each token at its own column. A multi-line one is folded
        # (its line breaks read as spaces): its tokens are placed at its start.
        single = (
            not getattr(node, "style", None)
            and "\n" not in text
            and base.column is not None
            and node.start_mark.line == node.end_mark.line
        )
        for match in TOKEN.finditer(text):
            column = base.column + match.start() if single else base.column  # type: ignore[operator]
            tokens.append((match.group(), Pos(base.line, column)))
        return tokens

    def check_tokens(
        self, tokens: list[tuple[str, yaml.Node | Pos]], what: str, name: str
    ) -> tuple[tuple[Tile, ...], bool]:
        """The tiles of the tokens that are tiles (each once), and whether every token was
        a tile and none came twice; each that was not is reported."""
        tiles: dict[Tile, None] = {}
        ok = True
        failed, log = self.failed, self.v.log
        for token, where in tokens:
            why = failed.get(token)
            if why is None:
                try:
                    tile = Tile.of(*parse_oriented(token, self.top))
                except NotationError as exc:
                    why = message_of(exc)  # a Message: said in any language
                    if len(failed) < 10_000:  # a file of one bad token a million times
                        failed[token] = why
            if why is not None:
                if log.full:
                    log.skip("tile")
                else:
                    self.v.report(
                        "tile", Message("{what}: {why}", what=what, why=why), where, player=name
                    )
                ok = False
                continue
            if tile in tiles:
                self.v.report(
                    "duplicate-tile",
                    Message("{what} holds {tile} twice", what=what, tile=tile),
                    where,
                    player=name,
                )
                ok = False
                continue
            tiles[tile] = None
        return tuple(tiles), ok

    def read_scores(self, node: yaml.Node, rec: RoundRecord) -> dict[str, tuple[int | None, Pos]]:
        scores: dict[str, tuple[int | None, Pos]] = {}
        for name, _key, value in self.read_names(node, "scores", rec):
            points = self.v.decimal(
                value, Message("{player}'s score", player=clip(name)), "schema", player=name
            )
            scores[name] = (points, node_pos(value))
        return scores


# --- layer 5: the log ---------------------------------------------------------------------


def _move_node(move: Move) -> yaml.MappingNode:
    """The nodes a compact move stands for, to read it slowly and carefully."""

    def mark(line: int, column: int) -> yaml.Mark:
        return yaml.Mark("<file>", 0, line, column, None, None)  # type: ignore[arg-type]

    start, at = mark(move.line, move.column), mark(move.text_line, move.text_column)
    key = yaml.ScalarNode(YAML_TAG + "str", move.player, start, start)
    value = yaml.ScalarNode(YAML_TAG + "str", move.text, at, at)
    return yaml.MappingNode(YAML_TAG + "map", [(key, value)], start, at)


class _MoveReader:
    """A round's ``moves``: the common entry fast, anything else slowly and carefully."""

    def __init__(self, values: Values, names: Names, top: int | None) -> None:
        self.v = values
        self.names = names
        self.top = top
        # Move texts that could not be read, and why: an alias repeated a thousand times
        # is worked out once.
        self.failed: dict[str, NotationError] = {}
        self.messages: dict[tuple[str, str], str] = {}

    def read(self, node: yaml.Node, rec: RoundRecord) -> list[MoveEntry] | None:
        if is_null(node):
            return []
        if not isinstance(node, yaml.SequenceNode):
            self.v.report(
                "schema",
                Message(
                    "moves must be a list of 'PLAYER: ACTION' entries, not {kind}",
                    kind=kind_of(node),
                ),
                node,
            )
            rec.broken = True
            return None
        if not self.v.first_walk(node, "moves"):
            rec.broken = True
            return None
        return self.read_items(node.value)

    def read_items(self, items: list[Any]) -> list[MoveEntry]:
        """Every move of a log, the common case read at once."""
        moves = []
        seated, top, v = self.names.seated, self.top, self.v
        mapping, scalar, plain = yaml.MappingNode, yaml.ScalarNode, PLAIN_TAGS
        for number, item in enumerate(items, start=1):
            # The common case, `- Ana: 9-8` by a seated player, inlined: every move of
            # every file passes here (fast() is the same for a compact Move).
            kind = type(item)
            if kind is mapping and len(item.value) == 1:
                key, value = item.value[0]
                if (
                    type(key) is scalar
                    and key.tag == STR_TAG
                    and key.value in seated
                    and type(value) is scalar
                    and value.tag in plain
                ):
                    text = value.value
                    try:
                        action = parse_action(text, top)
                    except NotationError:
                        pass
                    else:
                        v.budget -= len(text)  # v.spend, inlined
                        if v.budget < 0:
                            v.spend("")
                        mark = item.start_mark
                        moves.append(MoveEntry(number, key.value, action, mark.line, mark.column))
                        continue
            elif kind is Move:
                entry = self.fast(number, item)
                if entry is not None:
                    moves.append(entry)
                    continue
            moves.append(self.read_move(number, _move_node(item) if kind is Move else item))
        return moves

    def fast(self, number: int, item: object) -> MoveEntry | None:
        """The common case, ``- Ana: 9-8`` by a seated player, read at once; else ``None``.

        ``item`` is a compact :class:`~cf.record.compose.Move` (a large file) or a node.
        """
        if type(item) is Move:
            player, text, line, column = item.player, item.text, item.line, item.column
        elif type(item) is yaml.MappingNode and len(item.value) == 1:
            key, value = item.value[0]
            if not (
                type(key) is yaml.ScalarNode
                and key.tag == STR_TAG
                and type(value) is yaml.ScalarNode
                and value.tag in PLAIN_TAGS
            ):
                return None
            player, text = key.value, value.value
            line, column = item.start_mark.line, item.start_mark.column
        else:
            return None
        if player not in self.names.seated:
            return None
        try:
            action = parse_action(text, self.top)
        except NotationError:
            return None
        v = self.v
        v.budget -= len(text)  # v.spend, inlined: this runs for every move
        if v.budget < 0:
            v.spend("")
        return MoveEntry(number, player, action, line, column)

    def read_move(self, number: int, node: yaml.Node) -> MoveEntry:
        """One move, slowly and carefully, with a problem if it cannot be read."""
        mark = node.start_mark

        def bad(
            code: str,
            message: str,
            where: yaml.Node | None = None,
            player: str | None = None,
            shape: Action | None = None,
        ) -> MoveEntry:
            p = self.v.problem(code, message, where or node, move=number, player=player)
            return MoveEntry(number, player, None, mark.line, mark.column, p, shape)

        if not isinstance(node, yaml.MappingNode) or len(node.value) != 1:
            what = kind_of(node)
            if isinstance(node, yaml.MappingNode) and what == "a mapping":
                n = len(node.value)
                what = Plural("a mapping with {n} entry", "a mapping with {n} entries", n, n=n)
            return bad(
                "schema", Message("a move is one 'PLAYER: ACTION' entry, not {what}", what=what)
            )
        key_node, value = node.value[0]
        if not isinstance(key_node, yaml.ScalarNode):
            return bad("schema", Message("a move's player must be a name"))
        if key_node.tag != YAML_TAG + "str":
            return bad(
                "schema",
                Message("a move's player has the tag {tag}, not a name", tag=clip(key_node.tag)),
            )
        written = key_node.value.strip()
        player = self.names.resolve(written)
        if player is None:
            if not self.names.ok:
                return MoveEntry(number, written, None, mark.line, mark.column)
            return bad(
                "player",
                Message(
                    "{written} is not a player in this game{did_you_mean}",
                    written=clip(written),
                    did_you_mean=self.names.did_you_mean(written),
                ),
                player=written,
            )
        text = self.move_text(value)
        if text is None:
            return bad(
                "schema",
                Message(
                    "{player}'s move must be text, not {kind}",
                    player=clip(player),
                    kind=kind_of(value),
                ),
                value,
                player,
            )
        self.v.spend(text)
        try:
            action = self.parse(text)
        except NotationError as exc:
            shape = None
            if exc.code == "tile" and self.top is not None:  # a draw comes before its tiles
                with contextlib.suppress(NotationError):
                    shape = parse_action(text, None)
            code = exc.code or "notation"
            return bad(code, self.said(player, text, exc), value, player, shape)
        return MoveEntry(number, player, action, mark.line, mark.column)

    def said(self, player: str, text: str, exc: NotationError) -> str:
        """Why ``player``'s move ``text`` cannot be read: one string for every repeat (a
        message is a few hundred bytes; a log may repeat a bad move a million times)."""
        key = (player, text)
        message = self.messages.get(key)
        if message is None:
            message = Message("{player}: {exc}", player=clip(player), exc=exc)
            if len(self.messages) < 10_000:
                self.messages[key] = message
        return message

    @staticmethod
    def move_text(value: yaml.Node) -> str | None:
        if isinstance(value, yaml.ScalarNode) and value.tag in PLAIN_TAGS:
            text: str = value.value
            return None if not text.isascii() and SURROGATE.search(text) else text
        if (  # `- Ana: [7-3]` is a YAML list holding one tile: read it as the tile
            isinstance(value, yaml.SequenceNode)
            and value.tag == YAML_TAG + "seq"
            and len(value.value) == 1
            and isinstance(value.value[0], yaml.ScalarNode)
        ):
            return value.value[0].value  # type: ignore[no-any-return]
        return None

    def parse(self, text: str) -> Action:
        failed = self.failed.get(text)
        if failed is not None:
            # Raised afresh: an exception raised again keeps every earlier traceback, and
            # with it the frames of every move it failed before (2.6 kB a bad move).
            raise failed.with_traceback(None)
        try:
            return parse_action(text, self.top)
        except NotationError as exc:
            if len(self.failed) < 10_000:
                self.failed[text] = exc
            raise
