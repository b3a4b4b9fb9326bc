"""Keeping score at the table (docs/scorekeeping.md): new game files, rounds from ``NAME=VALUE``
entries, and the change a ``cf add`` makes, checked before it is written (``cf undo``'s:
:mod:`cf.record.undo`).

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
  draw: one
  out_on_double: 0
players: [Ana, Ben]
rounds: []
>>> change = add_entries(text, "g.yaml", [("ana", "12"), ("Ben", "5-5 1-0")])
>>> change.report.valid, change.text.splitlines()[-1]
(True, '  - scores: {Ana: 12, Ben: 11}  # Ben: 5-5 1-0')
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from cf.errors import Error
from cf.i18n import Lines, Message, Plural, message_of
from cf.record.check import Report, validate
from cf.record.edit import add_round
from cf.record.emit import yaml_key
from cf.record.problems import Problem
from cf.record.reader import Game, Pos, RoundRecord, read_game
from cf.rules import Rules
from cf.tiles import (
    DominoSet,
    NotationError,
    Tile,
    format_hand,
    hand_points,
    parse_hand,
    split_tokens,
)

#: The most digits a score may have (the reader allows as many).
MAX_DIGITS = 1000

#: The value that says a player went out (so holds no tile); ``NAME=`` says it too.
OUT = "out"
#: ``out`` as the table says it: English, Spanish (fuera) and Galician (fóra), in any
#: language setting; the file always gets ``out``.
OUT_WORDS = frozenset({OUT, "fuera", "fóra"})
#: The value that says a player went out by playing a double (scores ``out_on_double``).
OUT_DOUBLE = "out-double"


class EntryError(Error, ValueError):
    """An entry that names no player (or several), gives a player twice, or reads as
    neither a score nor tiles; or a round that leaves a player out."""


class FileError(EntryError):
    """The game file itself cannot take a change (not YAML, no readable players or
    rounds): its own problems, as ``cf validate`` reports them, say why."""


class GameOverError(EntryError):
    """A round added to a game that is over (its last round is in, or a total reached the
    target)."""


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
    ]
    if rules.rounds_in_game is not None:  # a target game without `rounds` has no maximum
        lines.append(f"  rounds: {rules.rounds_in_game}")
    lines += [f"  draw: {rules.draw}", f"  out_on_double: {rules.out_on_double}"]
    if rules.target is not None:
        lines.append(f"  target: {rules.target}")
    lines += [
        f"players: [{', '.join(yaml_key(p) for p in players)}]",
        "rounds: []",
    ]
    return "\n".join(lines) + "\n"


# --- names ----------------------------------------------------------------------------


def fold(name: str) -> str:
    """A name compared case- and accent-insensitively: ``fold("Mamá") == fold("MAMA")``."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def match_player(name: str, players: Sequence[str], *, league: bool = False) -> str:
    """The player ``name`` means: exactly (in Unicode NFC), else case- and
    accent-insensitively when that picks one player. Raises :class:`EntryError`
    (``league``: the players are those of several games, not one game's seats).

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
        quoted = [f"'{p}'" for p in folded]
        which = Message("{names} or {last}", names=", ".join(quoted[:-1]), last=quoted[-1])
        raise EntryError(
            Message(
                "'{name}' matches {n_folded} players: did you mean {which}?",
                name=name,
                n_folded=len(folded),
                which=which,
            )
        )
    by_fold = {fold(p): p for p in players}
    close = difflib.get_close_matches(fold(nfc), list(by_fold), n=1, cutoff=0.6)
    if close:
        hint = Message("did you mean '{name}'?", name=by_fold[close[0]])
    else:
        hint = Message("did you mean one of {names}?", names=", ".join(f"'{p}'" for p in players))
    if league:
        raise EntryError(
            Message("'{name}' played in none of these games ({hint})", name=name, hint=hint)
        )
    raise EntryError(Message("'{name}' is not a player ({hint})", name=name, hint=hint))


def match_players(names: Sequence[str], players: Sequence[str]) -> list[str]:
    """The player each of ``names`` means (:func:`match_player`). Raises one
    :class:`EntryError` that names every name matching nobody (or several), one a line,
    each with its "did you mean", so that a command with two typos is fixed in one go.

    >>> try:
    ...     match_players(["anna", "Bem"], ["Ana", "Ben"])
    ... except EntryError as exc:
    ...     print(exc)
    'anna' is not a player (did you mean 'Ana'?)
    'Bem' is not a player (did you mean 'Ben'?)
    """
    found, wrong = [], []
    for name in names:
        try:
            found.append(match_player(name, players))
        except EntryError as exc:
            wrong.append(message_of(exc))
    if wrong:
        raise EntryError(wrong[0] if len(wrong) == 1 else Lines(wrong))
    return found


# --- entries and the round they make --------------------------------------------------


#: What a score is, said where a value looks like a number but is not one (-4, 12.5).
SCORE_IS = Message("a score is a whole number, 0 or more")


@dataclass(frozen=True, slots=True)
class OutOnDouble:
    """The entry ``NAME=out-double``: the player went out by playing a double."""


#: What an entry's value is: points, the tiles left in the hand (none: went out), or
#: going out on a double.
Value = int | tuple[Tile, ...] | OutOnDouble


def parse_value(text: str, top: int) -> Value:
    """``12`` (a score), ``9-7 6-6 4-1`` (the tiles left), ``out`` or nothing (went out),
    ``out-double`` (went out on a double)."""
    text = text.strip()
    if unicodedata.normalize("NFC", text.lower()) in OUT_WORDS or not text:
        return ()
    if text.lower() == OUT_DOUBLE:
        return OutOnDouble()
    if re.fullmatch(r"[0-9]+", text):
        if len(text) > MAX_DIGITS:  # int() refuses more than 4,300 digits; no score has them
            raise EntryError(
                Message(
                    "a score of {n_text} digits is not a score (at most {MAX_DIGITS})",
                    n_text=len(text),
                    MAX_DIGITS=MAX_DIGITS,
                )
            )
        return int(text)
    if re.fullmatch(r"[+-]?([0-9]+([.,][0-9]*)?|[.,][0-9]+)", text):
        raise EntryError(
            Message("'{text}' is not a score ({SCORE_IS})", text=text, SCORE_IS=SCORE_IS)
        )
    try:
        return parse_hand(text, top)
    except NotationError as exc:
        tiles = _tiles_as_given(text)
        if tiles is not None:  # tiles, but not a hand of this set: the file's problems say why
            return tiles
        raise EntryError(
            Message(
                "{exc} (a value is a score, tiles, '{OUT}', '{OUT_DOUBLE}' or @PHOTO)",
                exc=exc,
                OUT=OUT,
                OUT_DOUBLE=OUT_DOUBLE,
            )
        ) from None


def _tiles_as_given(text: str) -> tuple[Tile, ...] | None:
    """The tiles ``text`` names, whatever the set, a tile twice kept twice; None unless each
    word is a tile. Such a hand is written as given: the file as it would be has the
    problem (``tile``, ``duplicate-tile``), printed as cf validate prints it (SPEC 8)."""
    try:
        return tuple(Tile.parse(token) for token in split_tokens(text))
    except NotationError:
        return None


def round_data(
    entries: Sequence[tuple[str, Value]],
    players: Sequence[str],
    double_blank: int,
    out_on_double: int = 0,
) -> dict[str, object]:
    """The round that ``entries`` (player, value) make, in seating order: ``hands`` when
    every value is tiles, else ``scores`` for all, the tiles scored with ``double_blank``
    (going out on a double with ``out_on_double``) and named in a ``comment``. Raises
    :class:`EntryError` unless each player is given exactly once, or for ``out-double``
    when the game scores it 0. Two players out is a problem of the file as it would be
    (:func:`add_entries`), not an error here."""
    given: dict[str, Value] = {}
    for player, value in entries:
        if player in given:
            raise EntryError(Message("{player} is given twice", player=player))
        given[player] = value
    missing = [p for p in players if p not in given]
    if missing:
        raise EntryError(
            Plural(
                "every player must be given: {missing} missing",
                "every player must be given: {missing} missing",
                len(missing),
                missing=", ".join(missing),
            )
        )
    _check_out_double(given, players, out_on_double)
    if all(isinstance(given[p], tuple) for p in players):
        return {"hands": {p: format_hand(given[p]) for p in players}}  # type: ignore[arg-type]
    scores: dict[str, int] = {}
    noted = []
    for p in players:
        value = given[p]
        if isinstance(value, OutOnDouble):
            scores[p] = out_on_double
            noted.append(f"{p}: {OUT_DOUBLE}")
        elif isinstance(value, tuple):
            scores[p] = hand_points(value, double_blank)
            noted.append(f"{p}: {format_hand(value) or OUT}")
        else:
            scores[p] = value
    data: dict[str, object] = {"scores": scores}
    if noted:
        data["comment"] = "; ".join(noted)
    return data


def _went_out(given: Sequence[tuple[str, Value]]) -> list[str]:
    """The players an entry gives as out (no tiles left, or ``out-double``), in order."""
    return [p for p, value in given if value == () or isinstance(value, OutOnDouble)]


def _two_out(change: Change, number: int, out: Sequence[str]) -> Problem:
    """``hands-mismatch`` (SPEC §4): the entries of round ``number`` give two or more
    players as out, written as scores (a round of hands has cf validate's own check).
    Reported once, with the second such player, at that player's score."""
    second = out[1]
    pos = _score_pos(change, number, second)
    message = (
        Message(
            "only one player can go out in a round, and {names} are all given as "
            "out: give the others the tiles left in their hands (or their scores)",
            names=_names(out),
        )
        if len(out) > 2
        else Message(
            "only one player can go out in a round, and {first} and {second} are "
            "both given as out: give the other one the tiles left in the hand (or the score)",
            first=out[0],
            second=second,
        )
    )
    return Problem("hands-mismatch", message, pos.line, pos.column, number, None, second)


def _check_out_double(given: dict[str, Value], players: Sequence[str], out_on_double: int) -> None:
    """``out-double`` needs a game that scores it."""
    doubled = [p for p in players if isinstance(given[p], OutOnDouble)]
    if doubled and not out_on_double:
        p = doubled[0]
        raise EntryError(
            Message(
                "{p}={OUT_DOUBLE}: this game scores going out on a double as "
                "0 (rules.out_on_double is 0), so write {p}={OUT}",
                p=p,
                OUT_DOUBLE=OUT_DOUBLE,
                OUT=OUT,
            )
        )


def _names(names: Sequence[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return Message("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def game_over(game: Game) -> str | None:
    """Why no round can be added to ``game``, in plain words, or ``None`` while it goes on
    (or while its file has problems: those are reported as they are).

    >>> text = "set: 6\\nrules: {target: 50}\\nplayers: [Ana, Ben]\\nrounds:\\n"
    >>> print(game_over(read_game(text + "  - scores: {Ana: 52, Ben: 3}\\n", "g.yaml")))
    the game is over (Ana reached 52 of 50; Ben won). Start the next one with cf new
    """
    from cf.record.standings import standings_of

    if game.rules is None or not game.rounds:
        return None
    report = validate(game)
    if not report.valid or any(p is None for p in report.round_points):
        return None
    standing = standings_of(game, [p for p in report.round_points if p is not None])
    if not standing.complete:
        return None
    won = Message("{names} won", names=_names(standing.winners))
    hit = standing.reached
    if hit is not None:
        why = Message(
            "{player} reached {total} of {target}",
            player=hit.player,
            total=hit.total,
            target=standing.target,
        )
    else:
        why = Message(
            "{played} of {rounds} rounds",
            played=standing.rounds_played,
            rounds=standing.rounds_in_game,
        )
    return Message(
        "the game is over ({why}; {won}). Start the next one with cf new", why=why, won=won
    )


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
    *,
    before: Game | None = None,
) -> Change:
    """The game file ``text`` with the round ``entries`` (NAME, VALUE) make appended, or
    put in place of round ``number``; checked. VALUE is text (:func:`parse_value`) or
    already a score or tiles (a photo read). ``before`` is ``text`` already read, if the
    caller has it (each version of the file is read once). Raises :class:`EntryError`
    (:class:`FileError` when the file itself cannot take a round) or
    :class:`~cf.record.edit.EditError`; problems of the file as it would be are in
    the returned report."""
    game = read_game(text, file) if before is None else before
    check_yaml(game)
    if not game.players:
        raise FileError(Message("{file} has no readable players list", file=file))
    top = game.top
    players = match_players([name for name, _ in entries], game.players)
    resolved = [
        (player, entry_value(player, v, top))
        for player, (_, v) in zip(players, entries, strict=True)
    ]
    if number is None or number == len(game.rounds) + 1:  # a round after the last
        over = game_over(game)
        if over is not None:
            raise GameOverError(over)
    rules = game.rules or Rules(top=top)
    k = len(game.rounds) + 1 if number is None else number
    data = round_data(resolved, game.players, rules.double_blank, rules.out_on_double)
    change = check_text(add_round(text, data, number), file)
    if "scores" in data and len(change.game.rounds) >= k:  # else unreadable: its own problem
        # Tiles kept in a comment beside scores: no check reads them again, so they are
        # checked here, and two players out too. A round of hands is checked by cf
        # validate's own rules (duplicate-tile, hands-mismatch), as written.
        order = {p: i for i, p in enumerate(game.players)}
        seated = sorted(resolved, key=lambda item: order[item[0]])
        problems = tile_problems(change, seated, DominoSet(top).starter(k), k)
        out = _went_out(seated)
        if len(out) > 1:
            problems.append(_two_out(change, k, out))
        if problems:
            for problem in problems:
                change.report.problems.append(problem)  # counted past the cap, as any
            change.report.problems.sort(key=Problem.sort_key)
    return change


def repeats_previous(game: Game, number: int) -> bool:
    """Whether round ``number`` of ``game`` gives every player the same score or the
    same tiles as round ``number - 1`` (a round entered twice, likely).

    >>> game = read_game("players: [Ana, Ben]\\nrounds:\\n- scores: {Ana: 0, Ben: 5}\\n"
    ...                  "- scores: {Ana: 0, Ben: 5}\\n", "g.yaml")
    >>> repeats_previous(game, 2), repeats_previous(game, 1)
    (True, False)
    """
    if not 2 <= number <= len(game.rounds):
        return False
    this, before = _entries_of(game.rounds[number - 1]), _entries_of(game.rounds[number - 2])
    return this is not None and this == before


def _entries_of(rec: RoundRecord) -> object:
    """What ``cf add`` writes of a round (its scores, or its hands), comparable; ``None``
    for a round with more than that (a deal, a move log)."""
    if rec.deal is not None or rec.moves is not None:
        return None
    if rec.hands is not None:
        return "hands", {p: h.tiles for p, h in rec.hands.items()}
    if rec.scores is not None:
        return "scores", {p: v for p, (v, _) in rec.scores.items()}
    return None


def entry_value(player: str, value: str | Value, top: int) -> Value:
    """``value`` read as :func:`parse_value` reads it, an error naming ``player``."""
    if not isinstance(value, str):
        return value
    try:
        return parse_value(value, top)
    except EntryError as exc:
        raise EntryError(Message("{player}: {exc}", player=player, exc=exc)) from None


def check_yaml(game: Game) -> None:
    """A file that is not YAML cannot take a change: :class:`FileError` with the problem,
    as cf validate words it."""
    for p in game.problems:
        if p.code == "yaml":
            where = f":{p.line}" if p.line is not None else ""
            raise FileError(f"{game.file}{where}: {p.message}")


def _score_pos(change: Change, number: int, player: str) -> Pos:
    """Where ``player``'s score of round ``number`` is written in the changed file."""
    rec = change.game.rounds[number - 1]
    if rec.scores and player in rec.scores:
        return rec.scores[player][1]
    return rec.pos


def tile_problems(
    change: Change, entries: Sequence[tuple[str, Value]], starter: Tile, number: int
) -> list[Problem]:
    """``duplicate-tile`` for tiles no hand can hold at the end of round ``number``, written
    as scores in ``change``: its starter, a tile in two hands or twice in one; ``tile`` for
    one the set does not have (a round written as scores keeps the tiles only in a
    comment, which no check reads again). Each at the score of the player it names, as cf
    validate would report it of a round of hands."""
    problems: list[Problem] = []
    held: dict[Tile, str] = {}
    top = change.game.top
    for player, value in entries:
        if not isinstance(value, tuple):
            continue
        pos = _score_pos(change, number, player)
        hand = Message("{player}'s hand", player=player)
        for tile in value:
            code = "duplicate-tile"
            if tile.high > top:  # as cf validate says it of a hand
                code = "tile"
                message = Message("{what}: {why}", what=hand, why=_not_in_set(tile, top))
            elif tile == starter:
                message = Message(
                    "{player}: {tile} starts round {number}, so it is in no hand",
                    player=player,
                    tile=tile,
                    number=number,
                )
            elif held.get(tile) == player:
                message = Message("{what} holds {tile} twice", what=hand, tile=tile)
            elif tile in held:
                message = Message(
                    "{tile} is given to {held} and to {player}",
                    tile=tile,
                    held=held[tile],
                    player=player,
                )
            else:
                held[tile] = player
                continue
            problems.append(Problem(code, message, pos.line, pos.column, number, None, player))
    return problems


def _not_in_set(tile: Tile, top: int) -> str:
    """Why ``tile`` is in no hand of the double-``top`` set, as the notation says it."""
    try:
        Tile.parse(str(tile), top)
    except NotationError as exc:
        return message_of(exc)
    return str(tile)  # not reached: the tile is above the set
