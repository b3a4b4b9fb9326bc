"""The YAML game file (docs/file-format.md): text in, a :class:`Game` with positions out.

The file is composed (never constructed) with PyYAML's safe loader, the libyaml
``CSafeLoader`` where present, so no tag can run code and every value keeps its line and
column. Scalars are read from the node's text, as written: a player called ``No`` is
``"No"`` and a score written ``033`` is 33. Everything wrong with the shape of the file
becomes a :class:`~cf.record.problems.Problem`; reading never raises for any input.
"""

from __future__ import annotations

import difflib
import gc
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO

import yaml

from cf.notation import Action, MoveNotationError, parse_action
from cf.record.problems import Problem
from cf.rules import PLAYERS, Rules, RulesError, check_option
from cf.tiles import (
    NotationError,
    SetNameError,
    Tile,
    parse_oriented,
    parse_set_name,
    split_tokens,
)

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_KIND_TAGS = {
    yaml.ScalarNode: "tag:yaml.org,2002:str",
    yaml.SequenceNode: "tag:yaml.org,2002:seq",
    yaml.MappingNode: "tag:yaml.org,2002:map",
}


class Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """The safe loader, composing only: every untagged scalar stays text.

    cf reads every scalar as written (docs/file-format.md): YAML 1.1's implicit typing
    (``No`` is false, ``033`` is 27) is never wanted; skipping it also makes reading a third
    faster.
    """

    def resolve(self, kind, value, implicit):  # type: ignore[no-untyped-def]
        return _KIND_TAGS[kind]

    # No path resolvers either: composing calls these for every node.
    def descend_resolver(self, current_node, current_index):  # type: ignore[no-untyped-def]
        pass

    def ascend_resolver(self):  # type: ignore[no-untyped-def]
        pass


#: Files larger than this are refused unread.
MAX_BYTES = 16 * 1024 * 1024

TOP_KEYS = ("title", "date", "notes", "set", "rules", "players", "rounds")
ROUND_KEYS = ("starter", "deal", "moves", "hands", "scores", "notes")
RULE_KEYS = ("starter_arms", "double_blank", "deal", "reserve", "rounds")

_Y = "tag:yaml.org,2002:"
_PLAIN_TAGS = {_Y + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_NULLS = {"", "~", "null", "Null", "NULL"}
_DECIMAL = re.compile(r"[0-9]+")
_MAX_DIGITS = 1000


@dataclass(frozen=True, slots=True)
class Pos:
    """1-based line and column of a value in the file."""

    line: int | None = None
    column: int | None = None


@dataclass(frozen=True, slots=True)
class HandEntry:
    """A hand as written for one player: its tiles, or ``None`` if it could not be read."""

    tiles: tuple[Tile, ...] | None
    pos: Pos


@dataclass(slots=True)
class MoveEntry:
    """One turn of the log. ``action`` is ``None`` when it could not be read, and then
    ``problem`` says why (a ``notation``, ``tile`` or ``player`` problem)."""

    number: int
    player: str | None
    action: Action | None
    line: int  # 0-based, as YAML marks count: most moves never need a position
    column: int
    problem: Problem | None = None

    @property
    def pos(self) -> Pos:
        return Pos(self.line + 1, self.column + 1)


@dataclass
class RoundRecord:
    """One item of ``rounds``. A part that is missing, or too broken to use, is ``None``."""

    number: int
    pos: Pos
    starter: Tile | None = None
    starter_pos: Pos | None = None
    deal: dict[str, HandEntry] | None = None
    deal_pos: Pos | None = None
    moves: list[MoveEntry] | None = None
    moves_pos: Pos | None = None
    hands: dict[str, HandEntry] | None = None
    hands_pos: Pos | None = None
    scores: dict[str, tuple[int | None, Pos]] | None = None
    scores_pos: Pos | None = None
    broken: bool = False  # a part was present but unreadable: do not replay
    # Parts (or typos of parts) present but not readable: already a problem, so nobody is
    # reported missing from them.
    unreadable: set[str] = field(default_factory=set)


@dataclass
class Game:
    """A game file as read, with the problems found while reading it."""

    file: str
    top: int = 9
    rules: Rules | None = None
    players: list[str] = field(default_factory=list)
    players_pos: Pos = Pos()
    rounds: list[RoundRecord] = field(default_factory=list)
    title: str | None = None
    date: str | None = None
    problems: list[Problem] = field(default_factory=list)

    @property
    def move_count(self) -> int:
        return sum(len(r.moves or ()) for r in self.rounds)


# --- entry points --------------------------------------------------------------------


def read_game(source: bytes | str | IO[bytes] | IO[str], file: str = "<stdin>") -> Game:
    """Read a game file from bytes, text or a file object. Never raises for bad input."""
    data = source.read(MAX_BYTES + 1) if hasattr(source, "read") else source  # type: ignore[union-attr]
    game = Game(file)
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            game.problems.append(
                Problem("yaml", f"the file is larger than {MAX_BYTES // 2**20} MiB: not read")
            )
            return game
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            game.problems.append(
                Problem("yaml", f"the file is not UTF-8 text (bad byte at offset {exc.start})")
            )
            return game
    else:
        text = data.removeprefix("\ufeff")
        if len(text) > MAX_BYTES:
            game.problems.append(
                Problem("yaml", f"the file is larger than {MAX_BYTES // 2**20} MiB: not read")
            )
            return game
    # A composed file is a large tree with no reference cycles: the cyclic garbage collector
    # would only walk it again and again while it is built. Reference counting frees it.
    collecting = gc.isenabled()
    gc.disable()
    try:
        _compose_and_read(game, text)
    finally:
        if collecting:
            gc.enable()
    return game


def _compose_and_read(game: Game, text: str) -> None:
    try:
        node = yaml.compose(text, Loader=Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = " ".join(str(x) for x in (exc.context, exc.problem) if x)
        if exc.context_mark is not None and exc.context_mark is not mark:
            what += f", begun at line {exc.context_mark.line + 1}"
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        game.problems.append(Problem("yaml", f"not valid YAML: {what}", line, col))
        return
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow
        pos = exc.position
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        game.problems.append(
            Problem(
                "yaml",
                f"not valid YAML: the character U+{ord(char):04X} is not allowed in YAML text",
                line,
                column,
            )
        )
        return
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        game.problems.append(Problem("yaml", f"not valid YAML: {exc}"))
        return
    _Reader(game).read(node)


def read_game_file(path: str) -> Game:
    """Read the game file at ``path`` (``-`` reads stdin). Raises ``OSError`` if unreadable."""
    if path == "-":
        import sys

        return read_game(sys.stdin.buffer, "<stdin>")
    with open(path, "rb") as fh:
        return read_game(fh, path)


# --- the reader --------------------------------------------------------------------------


def _pos(node: yaml.Node) -> Pos:
    return Pos(node.start_mark.line + 1, node.start_mark.column + 1)


def _kind(node: yaml.Node) -> str:
    if node.tag not in _PLAIN_TAGS | {_Y + "seq", _Y + "map"}:
        return f"a value tagged {node.tag}"
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return f"'{_clip(node.value)}'"


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and not node.style and node.value in _NULLS


def suggest(key: str, known: tuple[str, ...]) -> str:
    """`` (did you mean 'x'?)`` for the closest known key, or nothing."""
    close = difflib.get_close_matches(key.lower(), known, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else f" (known keys: {', '.join(known)})"


class _Reader:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.round: int | None = None
        self.walked: set[int] = set()

    def first_walk(self, node: yaml.Node, what: str) -> bool:
        """Whether this list or mapping is met for the first time.

        A YAML alias is the same node again: walking it each time would let a few
        kilobytes of aliases stand for millions of moves. Each part is read once.
        """
        if node.tag not in (_Y + "seq", _Y + "map"):
            self.report("schema", f"{what} has the tag {node.tag}, which cf does not accept", node)
            return False
        if id(node) not in self.walked:
            self.walked.add(id(node))
            return True
        self.report(
            "schema",
            f"{what} repeats, through a YAML alias, a part already read: write it out in full",
            node,
        )
        return False

    # problems ----------------------------------------------------------------------
    def problem(
        self, code: str, message: str, node: yaml.Node | Pos | None = None, **kw: object
    ) -> Problem:
        pos = node if isinstance(node, Pos) else (_pos(node) if node is not None else Pos())
        p = Problem(code, message, pos.line, pos.column, round=self.round, **kw)  # type: ignore[arg-type]
        return p

    def report(
        self, code: str, message: str, node: yaml.Node | Pos | None = None, **kw: object
    ) -> None:
        self.game.problems.append(self.problem(code, message, node, **kw))

    # generic shapes ------------------------------------------------------------------
    def scalar(self, node: yaml.Node, what: str, code: str = "schema") -> str | None:
        """The text of a scalar, or a problem and ``None``."""
        if not isinstance(node, yaml.ScalarNode):
            self.report(code, f"{what} must be a single value, not {_kind(node)}", node)
            return None
        if node.tag not in _PLAIN_TAGS:
            self.report(code, f"{what} has the tag {node.tag}, which cf does not accept", node)
            return None
        return node.value

    def mapping(
        self, node: yaml.Node, what: str, code: str = "schema"
    ) -> Iterator[tuple[str, yaml.Node, yaml.Node]]:
        """Items of a mapping as (key text, key node, value node); duplicates reported."""
        if not isinstance(node, yaml.MappingNode) or node.tag != _Y + "map":
            self.report(
                code, f"{what} must be a mapping of keys to values, not {_kind(node)}", node
            )
            return
        if not self.first_walk(node, what):
            return
        seen: set[str] = set()
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _PLAIN_TAGS | {
                _Y + "merge"
            }:
                self.report("schema", f"a key in {what} must be plain text", key_node)
                continue
            key = key_node.value
            if key in seen:
                self.report("schema", f"duplicate key '{_clip(key)}' in {what}", key_node)
                continue
            seen.add(key)
            yield key, key_node, value_node

    def decimal(self, node: yaml.Node, what: str, code: str) -> int | None:
        text = self.scalar(node, what, code)
        if text is None:
            return None
        text = text.strip()
        if not _DECIMAL.fullmatch(text) or len(text) > _MAX_DIGITS:
            self.report(
                code, f"{what} must be a whole number, 0 or more, not '{_clip(text)}'", node
            )
            return None
        return int(text)

    # the document --------------------------------------------------------------------
    def read(self, root: yaml.Node | None) -> None:
        game = self.game
        if root is None or _is_null(root):
            self.report(
                "schema", "the file is empty: a game file is a mapping with players and rounds"
            )
            return
        if not isinstance(root, yaml.MappingNode):
            self.report(
                "schema",
                f"a game file must be a mapping with players and rounds, not {_kind(root)}",
                root,
            )
            return
        items = {}
        meant: set[str] = set()  # known keys that unknown ones look like (typos)
        for key, key_node, value in self.mapping(root, "the game file"):
            if key not in TOP_KEYS:
                self.report(
                    "schema", f"unknown key '{_clip(key)}'{suggest(key, TOP_KEYS)}", key_node
                )
                meant.update(difflib.get_close_matches(key.lower(), TOP_KEYS, n=1, cutoff=0.6))
                continue
            items[key] = value
        for key in ("title", "date", "notes"):
            if key in items:
                text = self.scalar(items[key], key)
                if key == "title":
                    game.title = text
                elif key == "date":
                    game.date = text
        self.read_set(items.get("set"))
        self.read_rules(items.get("rules"))
        if "players" in items:
            self.read_players(items["players"])
        else:
            self.players_ok = False
            if "players" not in meant:
                self.report("schema", "the game file has no 'players' list", root)
        if "rounds" in items:
            self.read_rounds(items["rounds"])
        elif "rounds" not in meant:
            self.report("schema", "the game file has no 'rounds' list", root)

    def read_set(self, node: yaml.Node | None) -> None:
        if node is None:
            return
        text = self.scalar(node, "set", "rules")
        if text is None:
            self.game.top = 18
            self.set_ok = False
            return
        try:
            self.game.top = parse_set_name(text)
        except SetNameError as exc:
            self.report("rules", str(exc), node)
            self.game.top = 18  # read tiles leniently; nothing is replayed
            self.set_ok = False

    set_ok = True

    def read_rules(self, node: yaml.Node | None) -> None:
        top = self.game.top
        values: dict[str, object] = {}
        ok = self.set_ok
        if node is not None and not _is_null(node):
            for key, key_node, value in self.mapping(node, "rules", "rules"):
                if key not in RULE_KEYS:
                    self.report(
                        "schema", f"unknown rule '{_clip(key)}'{suggest(key, RULE_KEYS)}", key_node
                    )
                    continue
                parsed = self.rule_value(key, value)
                if parsed is None:
                    ok = False
                    continue
                try:
                    check_option(key, parsed, top)
                except RulesError as exc:
                    self.report("rules", str(exc), value)
                    ok = False
                    continue
                values[key] = parsed
            if not isinstance(node, yaml.MappingNode):
                ok = False
        if ok:
            self.game.rules = Rules(top=top, **values)  # type: ignore[arg-type]

    def rule_value(self, key: str, node: yaml.Node) -> object:
        text = self.scalar(node, f"rules.{key}", "rules")
        if text is None:
            return None
        text = text.strip()
        if key == "starter_arms" and text.lower() == PLAYERS:
            return PLAYERS
        if _DECIMAL.fullmatch(text) and len(text) <= _MAX_DIGITS:
            return int(text)
        allowed = (
            "a whole number from 2 up or 'players'"
            if key == "starter_arms"
            else ("a whole number")
        )
        self.report("rules", f"rules.{key} must be {allowed}, not '{_clip(text)}'", node)
        return None

    players_ok = True  # False: no readable players list, so names elsewhere go unchecked

    def read_players(self, node: yaml.Node) -> None:
        self.game.players_pos = _pos(node)
        if _is_null(node):
            self.report("player", "a game needs at least 2 players, this one lists none", node)
            return
        if not isinstance(node, yaml.SequenceNode):
            self.report("schema", f"players must be a list of names, not {_kind(node)}", node)
            self.players_ok = False
            return
        if not self.first_walk(node, "players"):
            self.players_ok = False
            return
        names: list[str] = []
        for item in node.value:
            name = self.scalar(item, "a player's name")
            if name is None:
                continue
            name = name.strip()
            if not name:
                self.report("schema", "a player's name is empty", item)
            elif name in names:
                self.report("player", f"{name} is seated twice", item, player=name)
            else:
                names.append(name)
        if len(names) < 2 and len(node.value) == len(names):
            self.report(
                "player", f"a game needs at least 2 players, this one has {len(names)}", node
            )
        self.game.players = names

    def read_rounds(self, node: yaml.Node) -> None:
        if _is_null(node):
            return
        if not isinstance(node, yaml.SequenceNode):
            self.report("schema", f"rounds must be a list, not {_kind(node)}", node)
            return
        if not self.first_walk(node, "rounds"):
            return
        for number, item in enumerate(node.value, start=1):
            self.round = number
            self.game.rounds.append(self.read_round(number, item))
        self.round = None

    def read_round(self, number: int, node: yaml.Node) -> RoundRecord:
        rec = RoundRecord(number, _pos(node))
        if not isinstance(node, yaml.MappingNode):
            self.report("schema", f"round {number} must be a mapping, not {_kind(node)}", node)
            rec.broken = True
            return rec
        for key, key_node, value in self.mapping(node, f"round {number}"):
            if key not in ROUND_KEYS:
                self.report(
                    "schema",
                    f"unknown key '{_clip(key)}' in round {number}{suggest(key, ROUND_KEYS)}",
                    key_node,
                )
                rec.unreadable.update(
                    difflib.get_close_matches(key.lower(), ROUND_KEYS, n=1, cutoff=0.6)
                )
                continue
            pos = _pos(value) if not _is_null(value) else _pos(key_node)
            if key == "starter":
                rec.starter_pos = pos
                text = self.scalar(value, "starter")
                if text is None:
                    rec.broken = True
                    continue
                try:
                    rec.starter = Tile.parse(text, self.game.top)
                except NotationError as exc:
                    self.report("tile", f"starter: {exc}", value)
                    rec.broken = True
            elif key in ("deal", "hands"):
                hands = self.read_hands(value, key, rec)
                setattr(rec, key, hands)
                setattr(rec, f"{key}_pos", pos)
            elif key == "scores":
                rec.scores_pos = pos
                rec.scores = self.read_scores(value, rec)
            elif key == "moves":
                rec.moves_pos = pos
                rec.moves = self.read_moves(value, rec)
            elif key == "notes":
                self.scalar(value, "notes")
        return rec

    def read_names(
        self, node: yaml.Node, what: str, rec: RoundRecord
    ) -> Iterator[tuple[str, yaml.Node, yaml.Node]]:
        """Items of a mapping keyed by player names (an empty one lists nobody).

        Only a broken deal stops the round's replay: the end of a round (hands, scores)
        is checked against the log, never needed to replay it.
        """
        if _is_null(node):
            return
        deal = what == "deal"
        if not isinstance(node, yaml.MappingNode):
            rec.unreadable.add(what)
        for key, key_node, value in self.mapping(node, what):
            name = key.strip()
            if not self.players_ok:
                continue
            if name not in self.game.players:
                self.report("player", f"{name} in {what} is not a player", key_node, player=name)
                rec.broken = rec.broken or deal
                continue
            yield name, key_node, value
        if not isinstance(node, yaml.MappingNode):
            rec.broken = rec.broken or deal

    def read_hands(self, node: yaml.Node, what: str, rec: RoundRecord) -> dict[str, HandEntry]:
        hands: dict[str, HandEntry] = {}
        for name, key_node, value in self.read_names(node, what, rec):
            pos = _pos(value) if not _is_null(value) else _pos(key_node)
            tiles = self.read_tiles(
                value, f"{name}'s {'dealt hand' if what == 'deal' else 'hand'}", name
            )
            if tiles is None and what == "deal":
                rec.broken = True
            hands[name] = HandEntry(tiles, pos)
        return hands

    def read_tiles(self, node: yaml.Node, what: str, name: str) -> tuple[Tile, ...] | None:
        """A hand: tile text or a list of tiles. Every bad token is reported."""
        if _is_null(node):
            return ()
        top = self.game.top
        if type(node) is yaml.ScalarNode and node.tag in _PLAIN_TAGS:
            try:  # the common case, fast: every token a tile, none twice
                tiles = tuple(Tile.of(*parse_oriented(t, top)) for t in split_tokens(node.value))
                if len(set(tiles)) == len(tiles):
                    return tiles
            except NotationError:
                pass
        tokens: list[tuple[str, yaml.Node | Pos]] = []
        if isinstance(node, yaml.SequenceNode):
            if not self.first_walk(node, what):
                return None
            for item in node.value:
                text = self.scalar(item, f"a tile in {what}")
                if text is None:
                    return None
                tokens.append((text.strip(), item))
        else:
            text = self.scalar(node, what)
            if text is None:
                return None
            base = _pos(node)
            single = (
                not getattr(node, "style", None) and "\n" not in text and base.column is not None
            )
            for match in re.finditer(r"[^\s,]+", text):
                column = base.column + match.start() if single else base.column  # type: ignore[operator]
                tokens.append((match.group(), Pos(base.line, column)))
        tiles_: list[Tile] = []
        ok = True
        for token, where in tokens:
            try:
                tile = Tile.of(*parse_oriented(token, top))
            except NotationError as exc:
                self.report("tile", f"{what}: {exc}", where, player=name)
                ok = False
                continue
            if tile in tiles_:
                self.report("duplicate-tile", f"{what} holds {tile} twice", where, player=name)
                ok = False
                continue
            tiles_.append(tile)
        return tuple(tiles_) if ok else None

    def read_scores(self, node: yaml.Node, rec: RoundRecord) -> dict[str, tuple[int | None, Pos]]:
        scores: dict[str, tuple[int | None, Pos]] = {}
        for name, _key, value in self.read_names(node, "scores", rec):
            points = self.decimal(value, f"{name}'s score", "schema")
            scores[name] = (points, _pos(value))
        return scores

    def read_moves(self, node: yaml.Node, rec: RoundRecord) -> list[MoveEntry] | None:
        if _is_null(node):
            return []
        if not isinstance(node, yaml.SequenceNode):
            self.report(
                "schema",
                f"moves must be a list of 'PLAYER: ACTION' entries, not {_kind(node)}",
                node,
            )
            rec.broken = True
            return None
        if not self.first_walk(node, "moves"):
            rec.broken = True
            return None
        moves = []
        players, top = set(self.game.players), self.game.top
        mapping, scalar, plain = yaml.MappingNode, yaml.ScalarNode, _PLAIN_TAGS
        for number, item in enumerate(node.value, start=1):
            if type(item) is mapping and len(item.value) == 1:  # the common case, fast
                key, value = item.value[0]
                if (
                    type(key) is scalar
                    and key.value in players
                    and type(value) is scalar
                    and value.tag in plain
                ):
                    try:
                        action = parse_action(value.value, top)
                    except NotationError:
                        pass
                    else:
                        mark = item.start_mark
                        moves.append(MoveEntry(number, key.value, action, mark.line, mark.column))
                        continue
            moves.append(self.read_move(number, item))
        return moves

    def read_move(self, number: int, node: yaml.Node) -> MoveEntry:
        """One move, slowly and carefully, with a problem if it cannot be read."""
        mark = node.start_mark

        def bad(
            code: str, message: str, where: yaml.Node | None = None, player: str | None = None
        ) -> MoveEntry:
            p = self.problem(code, message, where or node, move=number, player=player)
            return MoveEntry(number, player, None, mark.line, mark.column, p)

        if not isinstance(node, yaml.MappingNode) or len(node.value) != 1:
            what = _kind(node)
            if isinstance(node, yaml.MappingNode) and what == "a mapping":
                what = f"a mapping with {len(node.value)} entries"
            return bad("schema", f"a move is one 'PLAYER: ACTION' entry, not {what}")
        key_node, value = node.value[0]
        if not isinstance(key_node, yaml.ScalarNode):
            return bad("schema", "a move's player must be a name")
        player = key_node.value.strip()
        if player not in self.game.players:
            if not self.players_ok:
                return MoveEntry(number, player, None, mark.line, mark.column)
            return bad("player", f"{_clip(player)} is not a player in this game", player=player)
        text: str | None = None
        if isinstance(value, yaml.ScalarNode) and value.tag in _PLAIN_TAGS:
            text = value.value
        elif (  # `- Ana: [7-3]` is a YAML list holding one tile: read it as the tile
            isinstance(value, yaml.SequenceNode)
            and value.tag == _Y + "seq"
            and len(value.value) == 1
            and isinstance(value.value[0], yaml.ScalarNode)
        ):
            text = value.value[0].value
        if text is None:
            return bad(
                "schema", f"{player}'s move must be text, not {_kind(value)}", value, player
            )
        try:
            action = parse_action(text, self.game.top)
        except MoveNotationError as exc:
            return bad("notation", f"{player}: {exc}", value, player)
        except NotationError as exc:
            return bad("tile", f"{player}: {exc}", value, player)
        return MoveEntry(number, player, action, mark.line, mark.column)


__all__ = ["Game", "HandEntry", "MoveEntry", "Pos", "RoundRecord", "read_game", "read_game_file"]
