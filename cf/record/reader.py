"""The YAML game file (docs/file-format.md): text in, a :class:`Game` with positions out.

The file is composed (never constructed) by :func:`cf.record.compose.compose` — the one
composer that cf add and cf undo use too — on the events of PyYAML's safe loader, the
libyaml ``CSafeLoader`` where present, so no tag can run code and every value keeps its
line and column. Scalars are read from the node's text, as written: a player called ``No`` is
``"No"`` and a score written ``033`` is 33. Everything wrong with the shape of the file
becomes a :class:`~cf.record.problems.Problem`; reading never raises for any input.

The reader is four small layers, each a class a newcomer can read on its own:

- :class:`_Values` — positions, problems (capped per file) and the shapes every part is
  made of: a scalar, a mapping, a whole number; it also keeps the alias budget.
- :class:`_Names` — the seated players, how a name written in a round is matched to one
  (Unicode NFC, "did you mean"), and the typo check of ``players:`` itself.
- :class:`_FileReader` — the top level: known keys, ``set``, ``rules``, ``players``.
- :class:`_RoundReader` and :class:`_MoveReader` — one item of ``rounds``, and its log.
"""

from __future__ import annotations

import difflib
import gc
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

import yaml

from cf.errors import clip
from cf.i18n import Message, Plural
from cf.notation import Action, parse_action
from cf.record.compose import Move, TooLong, compose
from cf.record.problems import Problem, ProblemLog, has_control
from cf.rules import DRAW_RULES, RULE_KEYS, Rules, RulesError, check_option, parse_starter_arms
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
#: From this many characters on, move logs are composed compact (cf.record.compose: a
#: quarter of the memory).
COMPACT_FROM = 1024 * 1024

TOP_KEYS = ("title", "date", "notes", "set", "rules", "players", "rounds")
ROUND_KEYS = ("starter", "deal", "moves", "hands", "scores", "notes")

_Y = "tag:yaml.org,2002:"
_PLAIN_TAGS = {_Y + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_COLLECTION_TAGS = {_Y + "seq", _Y + "map"}
_STR = _Y + "str"
_NULLS = {"", "~", "null", "Null", "NULL"}
_DECIMAL = re.compile(r"[0-9]+")
_MAX_DIGITS = 1000
_TOKEN = re.compile(r"[^\s,]+")
#: Text that aliases may add to what is read, beyond the file's own length.
_ALIAS_SLACK = 64 * 1024


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
    notes: bool = False  # the round has notes (which cf add cannot write)
    broken: bool = False  # a part was present but unreadable: do not replay
    # Parts (or typos of parts) present but not readable: already a problem, so nobody is
    # reported missing from them.
    unreadable: set[str] = field(default_factory=set)
    # (part, player) -> where a misspelling of that player's name stands in that part: the
    # player is reported missing there, right after the misspelling (the root cause).
    misnamed: dict[tuple[str, str], Pos] = field(default_factory=dict)


@dataclass
class Game:
    """A game file as read, with the problems found while reading it.

    ``set_known`` is false when the file names a set cf does not know: then ``top`` is
    only a placeholder and nothing that depends on the set is checked.
    """

    file: str
    top: int = 9
    rules: Rules | None = None
    players: list[str] = field(default_factory=list)
    players_pos: Pos = Pos()
    rounds: list[RoundRecord] = field(default_factory=list)
    title: str | None = None
    date: str | None = None
    problems: ProblemLog = field(default_factory=ProblemLog)
    set_known: bool = True
    #: The path as given, where ``file`` had to replace bytes that are not UTF-8.
    path: str | None = None

    @property
    def move_count(self) -> int:
        return sum(len(r.moves or ()) for r in self.rounds)


# --- entry points --------------------------------------------------------------------


def read_game(source: bytes | str | IO[bytes] | IO[str], file: str = "<stdin>") -> Game:
    """Read a game file from bytes, text or a file object. Never raises for bad input."""
    data = source.read(MAX_BYTES + 1) if hasattr(source, "read") else source  # type: ignore[union-attr]
    game = Game(file)
    text = _decode(game, data)
    if text is None:
        return game
    # A composed file is a large tree with no reference cycles: the cyclic garbage collector
    # would only walk it again and again while it is built. Reference counting frees it.
    collecting = gc.isenabled()
    gc.disable()
    try:
        composed, node = _compose(game, text)
        if composed:
            _FileReader(_Values(game, len(text))).read(node)
    except _TooMuch:
        pass  # already reported
    finally:
        if collecting:
            gc.enable()
    return game


def read_game_file(path: str) -> Game:
    """Read the game file at ``path`` (``-`` reads stdin). Raises ``OSError`` if unreadable."""
    if path == "-":
        import sys

        if sys.stdin is None:
            raise OSError(9, "stdin is closed")
        return read_game(sys.stdin.buffer, "<stdin>")
    with open(path, "rb") as fh:
        game = read_game(fh, display_name(path))
    game.path = path
    return game


def display_name(path: str) -> str:
    """``path`` as it can be shown and put in JSON: bytes that are not UTF-8 (which the OS
    hands over as lone surrogates) become U+FFFD."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return path


# --- text to YAML nodes -------------------------------------------------------------------


def _decode(game: Game, data: bytes | str) -> str | None:
    if len(data) > MAX_BYTES:
        game.problems.append(
            Problem(
                "yaml",
                Message("the file is larger than {value} MiB: not read", value=MAX_BYTES // 2**20),
            )
        )
        return None
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        binary = not_text(data)
        if binary is not None:
            game.problems.append(Problem("yaml", binary, 1, 1))
            return None
        start = exc.start
        line = data.count(b"\n", 0, start) + 1
        column = start - (data.rfind(b"\n", 0, start) + 1) + 1
        game.problems.append(
            Problem(
                "yaml",
                Message(
                    "the byte 0x{data:02X} is not UTF-8 text: save the file as UTF-8",
                    data=data[start],
                ),
                line,
                column,
            )
        )
        return None


#: How image files begin (the photos cf score --photo reads, and their kin).
_IMAGE_MAGIC = (
    b"\xff\xd8\xff",
    b"\x89PNG\r\n\x1a\n",
    b"GIF87a",
    b"GIF89a",
    b"II*\x00",
    b"MM\x00*",
)


def not_text(data: bytes) -> str | None:
    """What to say of ``data`` that is not text at all (a photo given for a game file,
    a zip), or ``None`` for text, even text in the wrong encoding (that has its own words).

    >>> not_text(bytes.fromhex("ffd8ffe0") + b"JFIF"), not_text(b"players: [Ana]")
    ('not a text file (is this an image?): a game file is YAML text, saved as UTF-8', None)
    """
    head = data[:4096]
    image = head.startswith(_IMAGE_MAGIC) or (
        head[4:8] == b"ftyp" and head[8:12] in (b"heic", b"heix", b"mif1", b"avif")
    )
    if image or (head[:4] == b"RIFF" and head[8:12] == b"WEBP"):
        return Message(
            "not a text file (is this an image?): a game file is YAML text, saved as UTF-8"
        )
    if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")):
        return Message("not a text file: a game file is YAML text, saved as UTF-8")
    return None


def _compose(game: Game, text: str) -> tuple[bool, yaml.Node | None]:
    """Whether the text is YAML, and its root node (``None`` if empty); a ``yaml`` problem
    if it is not."""
    try:
        return True, compose(text, Loader, compact=len(text) >= COMPACT_FROM)
    except TooLong as exc:
        game.problems.append(Problem("yaml", exc.message, exc.line + 1, exc.column + 1))
    except yaml.MarkedYAMLError as exc:
        game.problems.append(_yaml_problem(exc, text))
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow
        pos = exc.position
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        game.problems.append(
            Problem(
                "yaml",
                Message(
                    "not valid YAML: the character U+{ord:04X} is not allowed in YAML text",
                    ord=ord(char),
                ),
                line,
                column,
            )
        )
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        game.problems.append(Problem("yaml", Message("not valid YAML: {exc}", exc=exc)))
    return False, None


_BRACKET_TILE = re.compile(r"\[\s*[0-9]+\s*[-|]\s*[0-9]+\s*\]")


def _yaml_problem(exc: yaml.MarkedYAMLError, text: str) -> Problem:
    """A parser error in plain words, where the mistake most likely is."""
    mark = exc.problem_mark or exc.context_mark
    lines = text.split("\n")
    said = " ".join(str(x) for x in (exc.context, exc.problem) if x)
    found = _plain_words(exc, said, lines)
    if found is None:
        where = mark.line if mark else None
        plain = said
        if exc.context_mark is not None and exc.context_mark is not mark:
            plain += f", begun at line {exc.context_mark.line + 1}"
    else:
        where, plain = found
    if where is None:
        return Problem("yaml", Message("not valid YAML: {plain}", plain=plain))
    column = mark.column + 1 if mark and where == mark.line else _indent(lines[where]) + 1
    return Problem("yaml", Message("not valid YAML: {plain}", plain=plain), where + 1, column)


def _plain_words(exc: yaml.MarkedYAMLError, said: str, lines: list[str]) -> tuple[int, str] | None:
    """(0-based line, message) for the mistakes people make, or ``None``."""
    mark = exc.problem_mark or exc.context_mark
    if mark is None or mark.line >= len(lines):
        return None
    line = lines[mark.line]
    char = line[mark.column : mark.column + 1]
    if "cannot start any token" in said and char == "\t":
        return mark.line, Message("tabs cannot indent YAML: use spaces")
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
    if "while parsing a block" in said and ("expected key" in said or "<block end>" in said):
        return mark.line, Message(
            "this line's indentation does not fit the lines above it: the items of one "
            "list or mapping start in the same column (indent with spaces)"
        )
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


# --- layer 1: positions, problems, shapes -------------------------------------------------


class _TooMuch(Exception):
    """Aliases expand to more than the file holds: reading stops (already reported)."""


def _pos(node: yaml.Node) -> Pos:
    return Pos(node.start_mark.line + 1, node.start_mark.column + 1)


def _kind(node: yaml.Node) -> str:
    if node.tag not in _PLAIN_TAGS | _COLLECTION_TAGS:
        return f"a value tagged {clip(node.tag)}"
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return f"'{clip(node.value)}'"


def _is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and not node.style and node.value in _NULLS


_SURROGATE = re.compile("[\ud800-\udfff]")


def suggest(key: str, known: tuple[str, ...]) -> str:
    """`` (did you mean 'x'?)`` for the closest known key, or nothing."""
    close = difflib.get_close_matches(key.lower(), known, n=1, cutoff=0.6)
    if close:
        return Message(" (did you mean '{key}'?)", key=close[0])
    return Message(" (known keys: {keys})", keys=", ".join(known))


class _Values:
    """Problems and the shapes of values, shared by every reader of one file.

    Problems go to the game's capped :class:`ProblemLog`. A YAML alias is the same node
    again: a list or mapping is read once (a repeat is refused), and the text of every
    scalar read counts against a budget of the file's own length, so aliases can never
    make reading cost more than a file of the same size written out.
    """

    def __init__(self, game: Game, length: int) -> None:
        self.game = game
        self.log = game.problems
        self.round: int | None = None
        self.walked: set[int] = set()
        self.budget = length + _ALIAS_SLACK

    def spend(self, text: str) -> None:
        self.budget -= len(text)
        if self.budget < 0:
            self.log.keep(
                Problem(
                    "schema",
                    Message(
                        "YAML aliases repeat more text than the file holds: write the parts out"
                    ),
                )
            )
            raise _TooMuch

    # problems ----------------------------------------------------------------------
    def problem(
        self, code: str, message: str, node: yaml.Node | Pos | None = None, **kw: object
    ) -> Problem:
        pos = node if isinstance(node, Pos) else (_pos(node) if node is not None else Pos())
        return Problem(code, message, pos.line, pos.column, round=self.round, **kw)  # type: ignore[arg-type]

    def report(
        self, code: str, message: str, node: yaml.Node | Pos | None = None, **kw: object
    ) -> None:
        if self.log.full:
            self.log.skip(code)
        else:
            self.log.append(self.problem(code, message, node, **kw))

    # shapes --------------------------------------------------------------------------
    def first_walk(self, node: yaml.Node, what: str, player: str | None = None) -> bool:
        """Whether this list or mapping is met for the first time (``player``: whose it
        is, for a problem).

        A YAML alias is the same node again: walking it each time would let a few
        kilobytes of aliases stand for millions of moves. Each part is read once.
        """
        if node.tag not in _COLLECTION_TAGS:
            self.report(
                "schema",
                Message(
                    "{what} has the tag {tag}, which cf does not accept",
                    what=what,
                    tag=clip(node.tag),
                ),
                node,
                player=player,
            )
            return False
        if id(node) not in self.walked:
            self.walked.add(id(node))
            return True
        self.report(
            "schema",
            Message(
                "{what} repeats, through a YAML alias, a part already read: write it out in full",
                what=what,
            ),
            node,
            player=player,
        )
        return False

    def scalar(
        self,
        node: yaml.Node,
        what: str,
        code: str = "schema",
        *,
        spent: bool = False,
        player: str | None = None,
    ) -> str | None:
        """The text of a scalar, or a problem and ``None`` (``spent``: already counted
        against the alias budget; ``player``: whose value it is, for the problem)."""
        if not isinstance(node, yaml.ScalarNode):
            hint = ""
            if isinstance(node, yaml.MappingNode):  # Ben: Jr, read as {Ben: Jr}
                hint = Message(" (a ': ' in it? put it in quotes)")
            self.report(
                code,
                Message(
                    "{what} must be a single value, not {kind}{hint}",
                    what=what,
                    kind=_kind(node),
                    hint=hint,
                ),
                node,
                player=player,
            )
            return None
        if node.tag not in _PLAIN_TAGS:
            self.report(
                code,
                Message(
                    "{what} has the tag {tag}, which cf does not accept",
                    what=what,
                    tag=clip(node.tag),
                ),
                node,
                player=player,
            )
            return None
        text: str = node.value
        if not spent:
            self.spend(text)
        if not text.isascii() and _SURROGATE.search(text):
            self.report(
                code,
                Message("{what} holds a lone surrogate (\\u escape), not text", what=what),
                node,
                player=player,
            )
            return None
        return text

    def mapping(
        self,
        node: yaml.Node,
        what: str,
        code: str = "schema",
        player_of: Callable[[str], str | None] | None = None,
    ) -> Iterator[tuple[str, yaml.Node, yaml.Node]]:
        """Items of a mapping as (key text, key node, value node); duplicates reported
        (``player_of``: the player a key names, for the problem)."""
        if not isinstance(node, yaml.MappingNode) or node.tag != _Y + "map":
            self.report(
                code,
                Message(
                    "{what} must be a mapping of keys to values, not {kind}",
                    what=what,
                    kind=_kind(node),
                ),
                node,
            )
            return
        if not self.first_walk(node, what):
            return
        seen: set[str] = set()
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _PLAIN_TAGS | {
                _Y + "merge"
            }:
                self.report(
                    "schema", Message("a key in {what} must be plain text", what=what), key_node
                )
                continue
            key = key_node.value
            self.spend(key)
            if key in seen:
                self.report(
                    "schema",
                    Message("duplicate key '{key}' in {what}", key=clip(key), what=what),
                    key_node,
                    player=player_of(key) if player_of else None,
                )
                continue
            seen.add(key)
            yield key, key_node, value_node

    def decimal(
        self, node: yaml.Node, what: str, code: str, player: str | None = None
    ) -> int | None:
        """A whole number, 0 or more, from the node's text, or a problem (``player``: whose
        number it is, for the problem's ``player`` field) and None."""
        text = self.scalar(node, what, code, player=player)
        if text is None:
            return None
        text = text.strip()
        if not _DECIMAL.fullmatch(text) or len(text) > _MAX_DIGITS:
            self.report(
                code,
                Message(
                    "{what} must be a whole number, 0 or more, not '{text}'",
                    what=what,
                    text=clip(text),
                ),
                node,
                player=player,
            )
            return None
        return int(text)


# --- layer 2: names -----------------------------------------------------------------------


def _nfc(name: str) -> str:
    return name if name.isascii() else unicodedata.normalize("NFC", name)


def _fold(name: str) -> str:
    """A name without case or accents, to find what a misspelling meant."""
    decomposed = unicodedata.normalize("NFD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class _Names:
    """The seated players and how a name written elsewhere is matched to one of them.

    Names compare in Unicode NFC (an NFD ``José`` is the same player). ``aliases`` maps
    the name the rounds use to a seat whose name in ``players:`` is a typo of it.
    """

    def __init__(self) -> None:
        self.seated: dict[str, None] = {}  # ordered, and O(1) to look up
        self.aliases: dict[str, str] = {}
        self.ok = True  # False: no readable players list, so names elsewhere go unchecked
        self._folded: dict[str, list[str]] | None = None
        self._guesses: dict[str, str | None] = {}

    def resolve(self, written: str) -> str | None:
        """The seated name ``written`` stands for, or ``None``."""
        if written in self.seated:
            return written
        name = _nfc(written.strip())
        if name in self.seated:
            return name
        return self.aliases.get(name)

    def guess(self, written: str) -> str | None:
        """The seated player a name that is not seated most likely means, or ``None``."""
        if written in self._guesses:
            return self._guesses[written]
        if self._folded is None:
            self._folded = {}
            for name in self.seated:
                self._folded.setdefault(_fold(name), []).append(name)
        same = self._folded.get(_fold(written), [])
        guess: str | None = same[0] if len(same) == 1 else None
        if guess is None and len(self.seated) <= 200:  # difflib is quadratic in names
            close = difflib.get_close_matches(written, list(self.seated), n=2, cutoff=0.6)
            guess = close[0] if len(close) == 1 else None
        if len(self._guesses) < 10_000:
            self._guesses[written] = guess
        return guess

    def did_you_mean(self, written: str) -> str:
        guess = self.guess(written)
        return Message(" (did you mean '{key}'?)", key=clip(guess)) if guess else ""


def _mentioned(rounds: yaml.Node) -> Counter[str]:
    """How often each name is written in the rounds (keys of deal, hands, scores, moves).

    A quick look at the shapes only; reading the rounds reports whatever is wrong.
    """
    seen: Counter[str] = Counter()
    if not isinstance(rounds, yaml.SequenceNode):
        return seen
    done: set[int] = set()  # an alias is the same node again: look at each once
    for item in rounds.value:
        if isinstance(item, yaml.MappingNode) and id(item) not in done:
            done.add(id(item))
            _mentioned_in_round(item, seen, done)
    return Counter({_nfc(k.strip()): n for k, n in seen.items()})


def _mentioned_in_round(item: yaml.MappingNode, seen: Counter[str], done: set[int]) -> None:
    for key, value in item.value:
        if id(value) in done or not isinstance(key, yaml.ScalarNode):
            continue
        done.add(id(value))
        if key.value in ("deal", "hands", "scores") and isinstance(value, yaml.MappingNode):
            seen.update(k.value for k, _ in value.value if isinstance(k, yaml.ScalarNode))
        elif key.value == "moves" and isinstance(value, yaml.SequenceNode):
            seen.update(_movers(value.value))


def _movers(items: list[Any]) -> list[str]:
    """The player of each move that names one. Every move of the file passes here: a
    comprehension, not a call per move."""
    return [
        item.player if type(item) is Move else item.value[0][0].value  # type: ignore[union-attr]
        for item in items
        if type(item) is Move
        or (
            type(item) is yaml.MappingNode
            and len(item.value) == 1
            and type(item.value[0][0]) is yaml.ScalarNode
        )
    ]


# --- layer 3: the top level ---------------------------------------------------------------


class _FileReader:
    def __init__(self, values: _Values) -> None:
        self.v = values
        self.game = values.game
        self.names = _Names()

    def read(self, root: yaml.Node | None) -> None:
        v = self.v
        if root is None or _is_null(root):
            v.report(
                "schema",
                Message("the file is empty: a game file is a mapping with players and rounds"),
            )
            return
        if not isinstance(root, yaml.MappingNode):
            v.report(
                "schema",
                Message(
                    "a game file must be a mapping with players and rounds, not {kind}",
                    kind=_kind(root),
                ),
                root,
            )
            return
        items, meant = self.top_items(root)
        self.read_header(items)
        self.read_set(items.get("set"))
        self.read_rules(items.get("rules"))
        if "players" in items:
            self.read_players(items["players"], items.get("rounds"))
        else:
            self.names.ok = False
            if "players" not in meant:
                v.report("schema", Message("the game file has no 'players' list"), root)
        if "rounds" in items:
            self.read_rounds(items["rounds"])
        elif "rounds" not in meant:
            v.report("schema", Message("the game file has no 'rounds' list"), root)

    def top_items(self, root: yaml.Node) -> tuple[dict[str, yaml.Node], set[str]]:
        """The known top-level keys' values, and the known keys unknown ones look like."""
        items: dict[str, yaml.Node] = {}
        meant: set[str] = set()
        for key, key_node, value in self.v.mapping(root, "the game file"):
            if key not in TOP_KEYS:
                self.v.report(
                    "schema",
                    Message(
                        "unknown key '{key}'{suggest}",
                        key=clip(key),
                        suggest=suggest(key, TOP_KEYS),
                    ),
                    key_node,
                )
                meant.update(difflib.get_close_matches(key.lower(), TOP_KEYS, n=1, cutoff=0.6))
                continue
            items[key] = value
        return items, meant

    def read_header(self, items: dict[str, yaml.Node]) -> None:
        for key in ("title", "date", "notes"):
            if key in items:
                text = self.v.scalar(items[key], key)
                if key == "title":
                    self.game.title = text
                elif key == "date":
                    self.game.date = text

    def read_set(self, node: yaml.Node | None) -> None:
        if node is None:
            return
        text = self.v.scalar(node, "set", "rules")
        if text is not None:
            try:
                self.game.top = parse_set_name(text)
                return
            except SetNameError as exc:
                self.v.report("rules", exc.args[0], node)  # a Message: translated where shown
        # Unknown set: tiles are read for their shape only and nothing is replayed.
        self.game.top = 18
        self.game.set_known = False

    def read_rules(self, node: yaml.Node | None) -> None:
        top = self.game.top
        values: dict[str, object] = {}
        ok = self.game.set_known
        if node is not None and not _is_null(node):
            parsed_values: list[tuple[str, object, yaml.Node]] = []
            for key, key_node, value in self.v.mapping(node, "rules", "rules"):
                if key not in RULE_KEYS:
                    self.v.report(
                        "schema",
                        Message(
                            "unknown rule '{key}'{suggest}",
                            key=clip(key),
                            suggest=suggest(key, RULE_KEYS),
                        ),
                        key_node,
                    )
                    continue
                parsed = self.rule_value(key, value)
                if parsed is None:
                    ok = False
                    continue
                parsed_values.append((key, parsed, value))
            # `rounds` may pass N+1 only in a game played to a target.
            target = any(key == "target" for key, _, _ in parsed_values)
            for key, parsed, value in parsed_values:
                try:
                    check_option(key, parsed, top, target=target)
                except RulesError as exc:
                    self.v.report("rules", str(exc), value)
                    ok = False
                    continue
                values[key] = parsed
            if not isinstance(node, yaml.MappingNode):
                ok = False
        if ok:
            self.game.rules = Rules(top=top, **values)  # type: ignore[arg-type]

    def rule_value(self, key: str, node: yaml.Node) -> object:
        text = self.v.scalar(node, f"rules.{key}", "rules")
        if text is None:
            return None
        text = text.strip()
        if key == "starter_arms":
            try:
                return parse_starter_arms(text)
            except RulesError as exc:
                self.v.report("rules", Message("rules.{exc}", exc=exc), node)
                return None
        if key == "draw":
            if text in DRAW_RULES:
                return text
            self.v.report(
                "rules",
                Message(
                    "rules.draw must be one of {DRAW_RULES}, not '{text}'",
                    DRAW_RULES=", ".join(DRAW_RULES),
                    text=clip(text),
                ),
                node,
            )
            return None
        if _DECIMAL.fullmatch(text) and len(text) <= _MAX_DIGITS:
            return int(text)
        self.v.report(
            "rules",
            Message("rules.{key} must be a whole number, not '{text}'", key=key, text=clip(text)),
            node,
        )
        return None

    def read_players(self, node: yaml.Node, rounds: yaml.Node | None) -> None:
        v, names = self.v, self.names
        self.game.players_pos = _pos(node)
        if _is_null(node):
            v.report(
                "player", Message("a game needs at least 2 players, this one lists none"), node
            )
            return
        if not isinstance(node, yaml.SequenceNode):
            v.report(
                "schema",
                Message("players must be a list of names, not {kind}", kind=_kind(node)),
                node,
            )
            names.ok = False
            return
        if not v.first_walk(node, "players"):
            names.ok = False
            return
        where: dict[str, yaml.Node] = {}
        for item in node.value:
            name = self.player_name(item)
            if name is None:
                continue
            if name in names.seated:
                v.report(
                    "player", Message("{name} is seated twice", name=clip(name)), item, player=name
                )
            else:
                names.seated[name] = None
                where[name] = item
        if len(names.seated) < 2 and len(node.value) == len(names.seated):
            v.report(
                "player",
                Message(
                    "a game needs at least 2 players, this one has {n_seated}",
                    n_seated=len(names.seated),
                ),
                node,
            )
        self.game.players = list(names.seated)
        if rounds is not None:
            self.find_typos(where, _mentioned(rounds))

    def player_name(self, item: yaml.Node) -> str | None:
        """One name of ``players:``, in NFC, or a problem and ``None``."""
        name = self.v.scalar(item, "a player's name")
        if name is None:
            return None
        name = _nfc(name.strip())
        if not name:
            self.v.report("schema", Message("a player's name is empty"), item)
            return None
        if has_control(name):
            self.v.report(
                "schema",
                Message(
                    "a player's name may not hold control characters: {name!r}", name=clip(name)
                ),
                item,
            )
            return None
        return name

    def find_typos(self, where: dict[str, yaml.Node], mentioned: Counter[str]) -> None:
        """A seat whose name the rounds never use, while they use a name like it that is not
        seated (and use it more than once), is a typo in ``players:``: reported once there,
        and the rounds' name is read as that seat, so the typo is not reported again at
        every mention."""
        names = self.names
        unseated = [m for m in mentioned if m not in names.seated]
        if not unseated or len(unseated) > 50 or len(where) > 1000:
            return
        for name, item in where.items():
            if name in mentioned:
                continue
            # Named twice or more: a name written once may be the typo itself.
            like = [m for m in unseated if mentioned[m] > 1 and _looks_like(m, name)]
            if len(like) != 1 or like[0] in names.aliases:
                continue
            meant = like[0]
            names.aliases[meant] = name
            times = mentioned[meant]
            self.v.report(
                "player",
                Plural(
                    "{name} is seated but never named in the rounds, which name "
                    "{meant} {times} time: did you mean '{meant}'?",
                    "{name} is seated but never named in the rounds, which name "
                    "{meant} {times} times: did you mean '{meant}'?",
                    times,
                    name=clip(name),
                    meant=clip(meant),
                    times=times,
                ),
                item,
                player=name,
            )

    def read_rounds(self, node: yaml.Node) -> None:
        v = self.v
        if _is_null(node):
            return
        if not isinstance(node, yaml.SequenceNode):
            v.report(
                "schema", Message("rounds must be a list, not {kind}", kind=_kind(node)), node
            )
            return
        if not v.first_walk(node, "rounds"):
            return
        reader = _RoundReader(v, self.names, self.game.top if self.game.set_known else None)
        for number, item in enumerate(node.value, start=1):
            v.round = number
            self.game.rounds.append(reader.read(number, item))
        v.round = None


def _looks_like(a: str, b: str) -> bool:
    if _fold(a) == _fold(b):
        return True
    return difflib.SequenceMatcher(None, a.casefold(), b.casefold()).ratio() >= 0.6


# --- layer 4: one round -------------------------------------------------------------------


class _RoundReader:
    """One item of ``rounds``. ``top`` is ``None`` when the set is unknown: tiles are then
    read for their shape only."""

    def __init__(self, values: _Values, names: _Names, top: int | None) -> None:
        self.v = values
        self.names = names
        self.top = top
        self.moves = _MoveReader(values, names, top)
        self.failed: dict[str, str] = {}  # tokens that are no tile, and why (a Message)

    def read(self, number: int, node: yaml.Node) -> RoundRecord:
        v = self.v
        rec = RoundRecord(number, _pos(node))
        if not isinstance(node, yaml.MappingNode):
            v.report(
                "schema",
                Message(
                    "round {number} must be a mapping, not {kind}", number=number, kind=_kind(node)
                ),
                node,
            )
            rec.broken = True
            return rec
        for key, key_node, value in v.mapping(node, f"round {number}"):
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
            pos = _pos(value) if not _is_null(value) else _pos(key_node)
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
        if _is_null(node):
            return
        deal = what == "deal"
        if not isinstance(node, yaml.MappingNode):
            rec.unreadable.add(what)
        for key, key_node, value in self.v.mapping(node, what, player_of=self._named):
            if not self.names.ok:
                continue
            name = self.names.resolve(key)
            if name is None:
                self.unknown_name(key.strip(), what, key_node, rec)
                rec.broken = rec.broken or deal
                self.check_shape(value, what, key.strip())
                continue
            yield name, key_node, value
        if not isinstance(node, yaml.MappingNode):
            rec.broken = rec.broken or deal

    def _named(self, key: str) -> str | None:
        """The player a key of hands, deal or scores names (as written if it is none)."""
        if not self.names.ok:
            return None
        return self.names.resolve(key) or key.strip()

    def check_shape(self, value: yaml.Node, what: str, name: str) -> None:
        """The value of a name that is not a player still has the shape its part needs (a
        score that is not a whole number is a ``schema`` problem whoever it is for)."""
        if what == "scores":
            self.v.decimal(value, f"{clip(name)}'s score", "schema", player=name)
        elif not _is_null(value):
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
            rec.misnamed.setdefault((what, guess), _pos(key_node))

    def read_hands(self, node: yaml.Node, what: str, rec: RoundRecord) -> dict[str, HandEntry]:
        hands: dict[str, HandEntry] = {}
        for name, key_node, value in self.read_names(node, what, rec):
            pos = _pos(value) if not _is_null(value) else _pos(key_node)
            label = (
                Message("{player}'s dealt hand", player=clip(name))
                if what == "deal"
                else Message("{player}'s hand", player=clip(name))
            )
            tiles = self.read_tiles(value, label, name)
            if tiles is None and what == "deal":
                rec.broken = True
            hands[name] = HandEntry(tiles, pos)
        return hands

    def read_tiles(self, node: yaml.Node, what: str, name: str) -> tuple[Tile, ...] | None:
        """A hand: tile text or a list of tiles. Every bad token is reported."""
        if _is_null(node):
            return ()
        top = self.top
        if type(node) is yaml.ScalarNode and node.tag in _PLAIN_TAGS:
            self.v.spend(node.value)
            try:  # the common case, fast: every token a tile, none twice
                tiles = tuple(Tile.of(*parse_oriented(t, top)) for t in split_tokens(node.value))
                if len(set(tiles)) == len(tiles):
                    return tiles
            except NotationError:
                pass
        tokens = self.tokens(node, what, name)
        if tokens is None:
            return None
        return self.check_tokens(tokens, what, name)

    def tokens(
        self, node: yaml.Node, what: str, player: str | None = None
    ) -> list[tuple[str, yaml.Node | Pos]] | None:
        """The tokens of ``player``'s hand with where each is, or ``None`` after a problem."""
        tokens: list[tuple[str, yaml.Node | Pos]] = []
        if isinstance(node, yaml.SequenceNode):
            if not self.v.first_walk(node, what, player):
                return None
            for item in node.value:
                text = self.v.scalar(item, f"a tile in {what}", player=player)
                if text is None:
                    return None
                tokens.append((text.strip(), item))
            return tokens
        text = self.v.scalar(node, what, spent=True, player=player)
        if text is None:
            return None
        base = _pos(node)
        single = not getattr(node, "style", None) and "\n" not in text and base.column is not None
        for match in _TOKEN.finditer(text):
            column = base.column + match.start() if single else base.column  # type: ignore[operator]
            tokens.append((match.group(), Pos(base.line, column)))
        return tokens

    def check_tokens(
        self, tokens: list[tuple[str, yaml.Node | Pos]], what: str, name: str
    ) -> tuple[Tile, ...] | None:
        tiles: dict[Tile, None] = {}
        ok = True
        failed, log = self.failed, self.v.log
        for token, where in tokens:
            why = failed.get(token)
            if why is None:
                try:
                    tile = Tile.of(*parse_oriented(token, self.top))
                except NotationError as exc:
                    said = exc.args[0] if exc.args else str(exc)
                    why = said if isinstance(said, Message) else str(exc)  # said in any language
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
        return tuple(tiles) if ok else None

    def read_scores(self, node: yaml.Node, rec: RoundRecord) -> dict[str, tuple[int | None, Pos]]:
        scores: dict[str, tuple[int | None, Pos]] = {}
        for name, _key, value in self.read_names(node, "scores", rec):
            points = self.v.decimal(value, f"{clip(name)}'s score", "schema", player=name)
            scores[name] = (points, _pos(value))
        return scores


# --- layer 5: the log ---------------------------------------------------------------------


def _move_node(move: Move) -> yaml.MappingNode:
    """The nodes a compact move stands for, to read it slowly and carefully."""

    def mark(line: int, column: int) -> yaml.Mark:
        return yaml.Mark("<file>", 0, line, column, None, None)  # type: ignore[arg-type]

    start, at = mark(move.line, move.column), mark(move.text_line, move.text_column)
    key = yaml.ScalarNode(_Y + "str", move.player, start, start)
    value = yaml.ScalarNode(_Y + "str", move.text, at, at)
    return yaml.MappingNode(_Y + "map", [(key, value)], start, at)


class _MoveReader:
    """A round's ``moves``: the common entry fast, anything else slowly and carefully."""

    def __init__(self, values: _Values, names: _Names, top: int | None) -> None:
        self.v = values
        self.names = names
        self.top = top
        # Move texts that could not be read, and why: an alias repeated a thousand times
        # is worked out once.
        self.failed: dict[str, NotationError] = {}
        self.messages: dict[tuple[str, str], str] = {}

    def read(self, node: yaml.Node, rec: RoundRecord) -> list[MoveEntry] | None:
        if _is_null(node):
            return []
        if not isinstance(node, yaml.SequenceNode):
            self.v.report(
                "schema",
                Message(
                    "moves must be a list of 'PLAYER: ACTION' entries, not {kind}",
                    kind=_kind(node),
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
        mapping, scalar, plain = yaml.MappingNode, yaml.ScalarNode, _PLAIN_TAGS
        for number, item in enumerate(items, start=1):
            # The common case, `- Ana: 9-8` by a seated player, inlined: every move of
            # every file passes here (fast() is the same for a compact Move).
            kind = type(item)
            if kind is mapping and len(item.value) == 1:
                key, value = item.value[0]
                if (
                    type(key) is scalar
                    and key.tag == _STR
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
                and key.tag == _STR
                and type(value) is yaml.ScalarNode
                and value.tag in _PLAIN_TAGS
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
            code: str, message: str, where: yaml.Node | None = None, player: str | None = None
        ) -> MoveEntry:
            p = self.v.problem(code, message, where or node, move=number, player=player)
            return MoveEntry(number, player, None, mark.line, mark.column, p)

        if not isinstance(node, yaml.MappingNode) or len(node.value) != 1:
            what = _kind(node)
            if isinstance(node, yaml.MappingNode) and what == "a mapping":
                what = f"a mapping with {len(node.value)} entries"
            return bad(
                "schema", Message("a move is one 'PLAYER: ACTION' entry, not {what}", what=what)
            )
        key_node, value = node.value[0]
        if not isinstance(key_node, yaml.ScalarNode):
            return bad("schema", Message("a move's player must be a name"))
        if key_node.tag != _Y + "str":
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
                    kind=_kind(value),
                ),
                value,
                player,
            )
        self.v.spend(text)
        try:
            action = self.parse(text)
        except NotationError as exc:
            return bad(exc.code or "notation", self.said(player, text, exc), value, player)
        return MoveEntry(number, player, action, mark.line, mark.column)

    def said(self, player: str, text: str, exc: NotationError) -> str:
        """Why ``player``'s move ``text`` cannot be read: one string for every repeat (a
        message is a few hundred bytes; a log may repeat a bad move a million times)."""
        key = (player, text)
        message = self.messages.get(key)
        if message is None:
            message = f"{clip(player)}: {exc}"
            if len(self.messages) < 10_000:
                self.messages[key] = message
        return message

    @staticmethod
    def move_text(value: yaml.Node) -> str | None:
        if isinstance(value, yaml.ScalarNode) and value.tag in _PLAIN_TAGS:
            text: str = value.value
            return None if not text.isascii() and _SURROGATE.search(text) else text
        if (  # `- Ana: [7-3]` is a YAML list holding one tile: read it as the tile
            isinstance(value, yaml.SequenceNode)
            and value.tag == _Y + "seq"
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


__all__ = [
    "Game",
    "HandEntry",
    "MoveEntry",
    "Pos",
    "RoundRecord",
    "display_name",
    "read_game",
    "read_game_file",
]
