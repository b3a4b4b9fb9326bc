"""What ``cf undo`` does (docs/scorekeeping.md): the game file without its last round,
checked, and the ``cf add`` command that puts the round back (``cf add`` uses that too,
to echo a replaced round).

Text in, text out, as :mod:`cf.record.keeper`: the commands hold the lock and write the
file.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from cf.i18n import Message
from cf.record.edit import EditError, remove_last_round
from cf.record.keeper import (
    OUT,
    OUT_DOUBLE,
    Change,
    EntryError,
    FileError,
    OutOnDouble,
    Value,
    add_entries,
    check_text,
    check_yaml,
    parse_value,
)
from cf.record.reader import Game, RoundRecord, read_game
from cf.rules import Rules
from cf.tiles import Tile, format_hand, hand_points


@dataclass(frozen=True, slots=True)
class Undo:
    """What removing the last round gives: the change, the round as it was read, and
    its own text."""

    change: Change
    removed: RoundRecord
    removed_text: str


def undo_last(text: str, file: str) -> Undo:
    """The game file ``text`` without its last round; checked."""
    before = read_game(text, file)
    check_yaml(before)
    result = remove_last_round(text)
    if not before.rounds or len(before.rounds) != result.number:
        raise FileError(
            Message("{file}: the rounds cannot be read, so none can be undone", file=file)
        )
    return Undo(check_text(result.text, file), before.rounds[-1], result.removed)


def restore_command(
    file: str, game: Game, rec: RoundRecord, text: str = "", after: str | None = None
) -> str | None:
    """The ``cf add`` command that writes ``rec`` (a round of ``game``) back, or ``None``
    when only its YAML ``text`` can restore it (see :func:`round_entries`). ``after``: the
    file without the round; the command is then one ``cf add`` takes there (tiles a
    comment names that the round could not hold, as a file edited by hand may say, give
    way to the scores).

    >>> game = read_game("players: [Ana, Ben]\\nrounds: []\\n", "g.yaml")
    >>> from cf.record.reader import Pos
    >>> rec = RoundRecord(1, Pos(), scores={"Ana": (0, Pos()), "Ben": (28, Pos())})
    >>> print(restore_command("my.yaml", game, rec, "- scores: {Ana: 0, Ben: 28}  # Ben: 9-7 6-6"))
    cf add my.yaml Ana=0 Ben="9-7 6-6"
    """
    values = round_entries(game, rec, text)
    if values is None or any("=" in name for name in values):
        return None  # NAME=VALUE cannot name a player whose name holds '=' (a file by hand)
    if after is not None and not _takes(after, file, values, rec.number):
        scores = round_entries(game, rec)  # the scores alone, as the round holds them
        if scores is None or scores == values or not _takes(after, file, scores, rec.number):
            return None
        values = scores
    args = [shell_word(file), *(_shell_entry(p, value) for p, value in values.items())]
    # A word starting with '-' (a player called -x, quoted or not) would be an option.
    ends = ["--"] if any(w.startswith("-") for w in [file, *values]) else []
    return " ".join(["cf add", *ends, *args])


def _takes(after: str, file: str, values: dict[str, str], number: int) -> bool:
    """Whether ``cf add`` would write round ``number`` of ``values`` into ``after`` without
    a problem in it (other rounds' problems are no concern of the command)."""
    try:
        change = add_entries(after, file, list(values.items()))
    except (EntryError, EditError):
        return False
    return not any(p.round == number for p in change.report.problems)


def round_entries(game: Game, rec: RoundRecord, text: str = "") -> dict[str, str] | None:
    """The entries (player -> VALUE, as ``cf add`` takes them, in seating order) that
    write round ``rec`` of ``game`` again, or ``None`` when it holds more than hands and
    scores (a deal, a move log, its starter, notes): only its YAML ``text`` restores it.
    Tiles that ``cf add`` kept in a comment beside the scores (in ``text``) are given as
    tiles again, where they still make the score."""
    if rec.deal is not None or rec.moves is not None or rec.starter_pos is not None or rec.notes:
        return None
    noted = _noted_tiles(text, game)
    rules = game.rules or Rules(top=game.top)
    values: dict[str, str] = {}
    for p in game.players:
        if rec.hands is not None and p in rec.hands and rec.hands[p].tiles is not None:
            tiles = rec.hands[p].tiles
            value = format_hand(tiles) if tiles else OUT
        elif rec.scores is not None and p in rec.scores and rec.scores[p][0] is not None:
            value = str(rec.scores[p][0])
            note = noted.get(p)
            if isinstance(note, OutOnDouble) and rules.out_on_double == rec.scores[p][0]:
                # cf add takes out-double only where the rules score it: else it is out
                value = OUT_DOUBLE if rules.out_on_double else OUT
            elif (
                isinstance(note, tuple)
                and hand_points(note, rules.double_blank) == rec.scores[p][0]
            ):
                value = format_hand(note) or OUT
        else:
            return None
        values[p] = value
    return values


def _noted_tiles(text: str, game: Game) -> dict[str, Value]:
    """``Ben: 9-7 6-6 4-1; Carla: out-double`` from the comment ``cf add`` writes after
    scores: only a hand this set can hold (each tile of the set, once), which ``cf add``
    takes again; a comment edited by hand may say more."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != 1 or " # " not in lines[0]:
        return {}
    found: dict[str, Value] = {}
    for piece in lines[0].split(" # ", 1)[1].split(";"):
        name, sep, value = piece.partition(":")
        if not sep or name.strip() not in game.players:
            continue
        try:
            tiles = parse_value(value, game.top)
        except EntryError:
            continue
        if isinstance(tiles, tuple) and not _a_hand_of(tiles, game.top):
            continue
        if isinstance(tiles, (tuple, OutOnDouble)):
            found[name.strip()] = tiles
    return found


def _shell_entry(name: str, value: str) -> str:
    """``NAME=VALUE`` as a shell word, each part in double quotes where it needs quoting
    (``"Tío Lu"=out``, ``Ben="9-7 6-6"``), as the docs write entries; a part holding
    what double quotes do not protect (``$``, a backquote) puts the whole in single quotes.

    >>> _shell_entry("Tío Lu", "out"), _shell_entry("Ben", "9-7 6-6"), _shell_entry("A$", "1")
    ('"Tío Lu"=out', 'Ben="9-7 6-6"', "'A$=1'")
    """
    if any(c in name + value for c in '$`"\\!'):
        return shlex.quote(f"{name}={value}")
    return f"{shell_word(name)}={shell_word(value)}"


def shell_word(text: str) -> str:
    """``text`` as one shell word: bare when the shell takes it as it is, else in double
    quotes (single quotes when it holds ``$``, a backquote, ``"``, ``\\`` or ``!``).

    >>> shell_word("family.yaml"), shell_word("my game.yaml"), shell_word("a$b")
    ('family.yaml', '"my game.yaml"', "'a$b'")
    """
    if text and re.fullmatch(r"[\w./@%+:,=-]+", text):
        return text
    if any(c in text for c in '$`"\\!'):
        return shlex.quote(text)
    return f'"{text}"'


def _a_hand_of(tiles: tuple[Tile, ...], top: int) -> bool:
    """Whether ``tiles`` can be one hand of the double-``top`` set: each in it, once."""
    return len(set(tiles)) == len(tiles) and all(t.high <= top for t in tiles)
