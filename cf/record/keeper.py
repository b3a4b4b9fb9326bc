"""Keeping score at the table (docs/scorekeeping.md): new game files, rounds from ``NAME=VALUE``
entries, and the change a ``cf add`` or ``cf undo`` makes, checked before it is written.

Everything here is text in, text out: the commands hold the lock and write the file.

>>> text = new_game_text(["Ana", "Ben"], Rules(top=6), title="Test", date="2026-12-01")
>>> print(text, end="")
title: Test
date: 2026-12-01
set: double-six
rules:
  starter_arms: 4
  double_blank: 50
  deal: 7
  reserve: 2
  rounds: 7
players: [Ana, Ben]
rounds: []
>>> change = add_entries(text, "g.yaml", [("ana", "12"), ("Ben", "5-5 1-0")])
>>> change.report.valid, change.text.splitlines()[-1]
(True, '  - scores: {Ana: 12, Ben: 11}  # Ben: 5-5 1-0')
"""

from __future__ import annotations

import difflib
import re
import shlex
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from cf.errors import Error
from cf.record.check import Report, validate
from cf.record.edit import add_round, remove_last_round
from cf.record.emit import yaml_key
from cf.record.reader import Game, RoundRecord, read_game
from cf.rules import Rules
from cf.tiles import DominoSet, NotationError, Tile, format_hand, hand_points, parse_hand

#: The most digits a score may have (the reader allows as many).
MAX_DIGITS = 1000

#: The value that says a player went out (so holds no tile); ``NAME=`` says it too.
OUT = "out"


class EntryError(Error, ValueError):
    """An entry that names no player (or several), gives a player twice, or reads as
    neither a score nor tiles; or a round that leaves a player out."""


# --- cf new ---------------------------------------------------------------------------


def new_game_text(
    players: Sequence[str],
    rules: Rules,
    *,
    title: str | None = None,
    date: str | None = None,
) -> str:
    """A new game file with every house rule written out, so that it scores the same
    under any later default. Raises :class:`~cf.rules.RulesError` if ``rules`` cannot
    deal to ``players``."""
    n = len(players)
    row = rules.row(n)
    rules.arms_for(n)
    lines = []
    if title is not None:
        lines.append(f"title: {yaml_key(title)}")
    if date is not None:
        lines.append(f"date: {date}")
    lines += [
        f"set: {rules.set_name}",
        "rules:",
        f"  starter_arms: {rules.starter_arms}",
        f"  double_blank: {rules.double_blank}",
        f"  deal: {row.tiles_each}",
        f"  reserve: {row.reserve}",
        f"  rounds: {rules.rounds_in_game}",
        f"players: [{', '.join(yaml_key(p) for p in players)}]",
        "rounds: []",
    ]
    return "\n".join(lines) + "\n"


# --- names ----------------------------------------------------------------------------


def fold(name: str) -> str:
    """A name compared case- and accent-insensitively: ``fold("Mamá") == fold("MAMA")``."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def match_player(name: str, players: Sequence[str]) -> str:
    """The player ``name`` means: exactly (in Unicode NFC), else case- and
    accent-insensitively when that picks one player. Raises :class:`EntryError`.

    >>> match_player("mama", ["Ana", "Mamá"])
    'Mamá'
    """
    nfc = unicodedata.normalize("NFC", name.strip())
    for p in players:
        if unicodedata.normalize("NFC", p) == nfc:
            return p
    folded = [p for p in players if fold(p) == fold(nfc)]
    if len(folded) == 1:
        return folded[0]
    if folded:
        which = " or ".join(f"'{p}'" for p in folded)
        raise EntryError(f"'{name}' matches {len(folded)} players: did you mean {which}?")
    by_fold = {fold(p): p for p in players}
    close = difflib.get_close_matches(fold(nfc), list(by_fold), n=1, cutoff=0.6)
    if close:
        hint = f"did you mean '{by_fold[close[0]]}'?"
    else:
        hint = "did you mean one of " + ", ".join(f"'{p}'" for p in players) + "?"
    raise EntryError(f"'{name}' is not a player ({hint})")


# --- entries and the round they make --------------------------------------------------

#: What an entry's value is: points, or the tiles left in the hand.
Value = int | tuple[Tile, ...]


def parse_value(text: str, top: int) -> Value:
    """``12`` (a score), ``9-7 6-6 4-1`` (the tiles left), ``out`` or nothing (went out)."""
    text = text.strip()
    if text.lower() == OUT or not text:
        return ()
    if re.fullmatch(r"[0-9]+", text):
        if len(text) > MAX_DIGITS:  # int() refuses more than 4,300 digits; no score has them
            raise EntryError(
                f"a score of {len(text)} digits is not a score (at most {MAX_DIGITS})"
            )
        return int(text)
    try:
        return parse_hand(text, top)
    except NotationError as exc:
        raise EntryError(f"{exc} (a value is a score, tiles, '{OUT}' or @PHOTO)") from None


def round_data(
    entries: Sequence[tuple[str, Value]], players: Sequence[str], double_blank: int
) -> dict[str, object]:
    """The round that ``entries`` (player, value) make, in seating order: ``hands`` when
    every value is tiles, else ``scores`` for all, the tiles scored with ``double_blank``
    and named in a ``comment``. Raises :class:`EntryError` unless each player is given
    exactly once."""
    given: dict[str, Value] = {}
    for player, value in entries:
        if player in given:
            raise EntryError(f"{player} is given twice")
        given[player] = value
    missing = [p for p in players if p not in given]
    if missing:
        raise EntryError(f"every player must be given: {', '.join(missing)} missing")
    if all(isinstance(given[p], tuple) for p in players):
        return {"hands": {p: format_hand(given[p]) for p in players}}  # type: ignore[arg-type]
    scores: dict[str, int] = {}
    noted = []
    for p in players:
        value = given[p]
        if isinstance(value, tuple):
            scores[p] = hand_points(value, double_blank)
            if value:  # who went out scores 0: nothing to keep
                noted.append(f"{p}: {format_hand(value)}")
        else:
            scores[p] = value
    data: dict[str, object] = {"scores": scores}
    if noted:
        data["comment"] = "; ".join(noted)
    return data


# --- the change, checked --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """A file's new text, the game read from it and its validation report. Write the
    text only if ``report.valid``."""

    text: str
    game: Game
    report: Report


def check_text(text: str, file: str) -> Change:
    """Read and validate ``text`` as the game file ``file``."""
    game = read_game(text, file)
    return Change(text, game, validate(game))


def add_entries(
    text: str,
    file: str,
    entries: Sequence[tuple[str, str | Value]],
    number: int | None = None,
) -> Change:
    """The game file ``text`` with the round ``entries`` (NAME, VALUE) make appended, or
    put in place of round ``number``; checked. VALUE is text (:func:`parse_value`) or
    already a score or tiles (a photo read). Raises :class:`EntryError` or
    :class:`~cf.record.edit.EditError`; problems of the file as it would be are in
    the returned report."""
    game = read_game(text, file)
    _check_yaml(game)
    if not game.players:
        raise EntryError(f"{file} has no readable players list")
    top = game.top
    resolved = [
        (match_player(name, game.players), parse_value(v, top) if isinstance(v, str) else v)
        for name, v in entries
    ]
    double_blank = (game.rules or Rules(top=top)).double_blank
    k = len(game.rounds) + 1 if number is None else number
    if k <= top + 1:
        check_tiles(resolved, DominoSet(top).starter(k), k)
    data = round_data(resolved, game.players, double_blank)
    return check_text(add_round(text, data, number), file)


def _check_yaml(game: Game) -> None:
    """A file that is not YAML cannot take a change: :class:`EntryError` with the problem,
    as cf validate words it."""
    for p in game.problems:
        if p.code == "yaml":
            where = f":{p.line}" if p.line is not None else ""
            raise EntryError(f"{game.file}{where}: {p.message}")


def check_tiles(entries: Sequence[tuple[str, Value]], starter: Tile, number: int) -> None:
    """Tiles no hand can hold at the end of round ``number``: its starter, or a tile in
    two hands. (A round written as scores keeps the tiles only in a comment, which no
    check reads again: so they are checked here.)"""
    held: dict[Tile, str] = {}
    for player, value in entries:
        if not isinstance(value, tuple):
            continue
        for tile in value:
            if tile == starter:
                raise EntryError(f"{player}: {tile} starts round {number}, so it is in no hand")
            if tile in held and held[tile] != player:
                raise EntryError(f"{tile} is given to {held[tile]} and to {player}")
            held[tile] = player


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
    _check_yaml(before)
    result = remove_last_round(text)
    if not before.rounds or len(before.rounds) != result.number:
        raise EntryError(f"{file}: the rounds cannot be read, so none can be undone")
    return Undo(check_text(result.text, file), before.rounds[-1], result.removed)


def restore_command(file: str, game: Game, rec: RoundRecord, text: str = "") -> str | None:
    """The ``cf add`` command that writes ``rec`` (a round of ``game``) back, or ``None``
    when it holds more than hands and scores (a deal, a move log) and only its YAML
    ``text`` can restore it. Tiles that ``cf add`` kept in a comment beside the scores
    are given as tiles again, where they still make the score.

    >>> game = read_game("players: [Ana, Ben]\\nrounds: []\\n", "g.yaml")
    >>> from cf.record.reader import Pos
    >>> rec = RoundRecord(1, Pos(), scores={"Ana": (0, Pos()), "Ben": (28, Pos())})
    >>> print(restore_command("my.yaml", game, rec, "- scores: {Ana: 0, Ben: 28}  # Ben: 9-7 6-6"))
    cf add my.yaml Ana=0 Ben="9-7 6-6"
    """
    if rec.deal is not None or rec.moves is not None:
        return None
    noted = _noted_tiles(text, game)
    args = []
    for p in game.players:
        if rec.hands is not None and p in rec.hands and rec.hands[p].tiles is not None:
            tiles = rec.hands[p].tiles
            value = format_hand(tiles) if tiles else OUT
        elif rec.scores is not None and p in rec.scores and rec.scores[p][0] is not None:
            value = str(rec.scores[p][0])
            double_blank = (game.rules or Rules(top=game.top)).double_blank
            if p in noted and hand_points(noted[p], double_blank) == rec.scores[p][0]:
                value = format_hand(noted[p]) or OUT
        else:
            return None
        args.append(_shell_entry(p, value))
    return " ".join(["cf add", shlex.quote(file), *args])


def _noted_tiles(text: str, game: Game) -> dict[str, tuple[Tile, ...]]:
    """``Ben: 9-7 6-6 4-1; Carla: out`` from the comment ``cf add`` writes after scores."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != 1 or " # " not in lines[0]:
        return {}
    found = {}
    for piece in lines[0].split(" # ", 1)[1].split(";"):
        name, sep, value = piece.partition(":")
        if not sep or name.strip() not in game.players:
            continue
        try:
            tiles = parse_value(value, game.top)
        except EntryError:
            continue
        if isinstance(tiles, tuple):
            found[name.strip()] = tiles
    return found


def _shell_entry(name: str, value: str) -> str:
    if not re.fullmatch(r"[\w.-]+", name):
        return shlex.quote(f"{name}={value}")
    if re.fullmatch(r"[0-9a-z-]+", value):
        return f"{name}={value}"
    if re.fullmatch(r"[0-9 |\[\],-]+", value):
        return f'{name}="{value}"'
    return f"{name}={shlex.quote(value)}"
