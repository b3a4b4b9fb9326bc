"""The YAML game file (docs/file-format.md): text in, a :class:`Game` with positions out.

The file is composed (never constructed) by :func:`cf.record.compose.compose` — the one
composer that cf add and cf undo use too — on the events of PyYAML's safe loader, the
libyaml ``CSafeLoader`` where present, so no tag can run code and every value keeps its
line and column. Scalars are read from the node's text, as written: a player called ``No`` is
``"No"`` and a score written ``033`` is 33. Everything wrong with the shape of the file
becomes a :class:`~cf.record.problems.Problem`; reading never raises for any input.

The reader is small layers, each a class a newcomer can read on its own, each in a module
of its own; this module holds the entry points and turns text into YAML nodes:

- :mod:`cf.record.game` — what is read: :class:`Game`, its rounds, hands and moves.
- :mod:`cf.record.yaml_errors` — a YAML syntax error in words a scorekeeper can act on.
- :class:`~cf.record.shapes.Values` — positions, problems (capped per file) and the shapes
  every part is made of: a scalar, a mapping, a whole number; it also keeps the alias
  budget. :class:`~cf.record.shapes.Names` — the seated players, how a name written in a
  round is matched to one (Unicode NFC, "did you mean"), and the typo check of
  ``players:`` itself.
- :class:`~cf.record.file_reader.FileReader` — the top level: known keys, ``set``,
  ``rules``, ``players``.
- :class:`~cf.record.round_reader.RoundReader` and its ``_MoveReader`` — one item of
  ``rounds``, and its log.
"""

from __future__ import annotations

import gc
from typing import IO

import yaml

from cf.i18n import Message
from cf.record.compose import TooLong, compose
from cf.record.file_reader import FileReader
from cf.record.game import ROUND_KEYS, TOP_KEYS, Game, HandEntry, MoveEntry, Pos, RoundRecord
from cf.record.problems import Problem
from cf.record.shapes import TooMuch, Values
from cf.record.yaml_errors import yaml_problem

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
            FileReader(Values(game, len(text))).read(node)
    except TooMuch:
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
        game.problems.append(yaml_problem(exc, text))
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


__all__ = [
    "MAX_BYTES",
    "ROUND_KEYS",
    "TOP_KEYS",
    "Game",
    "HandEntry",
    "Loader",
    "MoveEntry",
    "Pos",
    "RoundRecord",
    "display_name",
    "not_text",
    "read_game",
    "read_game_file",
]
