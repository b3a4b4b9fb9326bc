"""Replay a recorded round on a :class:`~cf.board.Round`, as far as its log goes.

This is what ``cf show`` and ``cf hint`` stand on: the table after any move of a game file.
Unlike :func:`cf.record.check.validate` it reports only the problem that stopped the replay,
and a log that stops mid-round is no problem at all.

>>> from cf.record.reader import read_game_file
>>> r = replay(read_game_file("examples/family-night.yaml"), round_number=1, move=12)
>>> r.moves, r.board.ends(), r.board.next_player
(12, [3, 5, 7, 8], 'Ana')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NoReturn

from cf.board import Hand, Round, RuleViolation
from cf.errors import Error
from cf.i18n import Message, message_of
from cf.record.problems import Problem
from cf.record.reader import Game, HandEntry, MoveEntry, RoundRecord
from cf.rules import Rules, RulesError
from cf.tiles import DominoSet, Tile, set_name


class ReplayError(Error, ValueError):
    """The game cannot be replayed as asked: no such round or move, or no rules to play by."""


@dataclass
class Replay:
    """The table after ``moves`` moves of round ``round_number``.

    ``problem`` is the rule violation that stopped the replay before ``moves`` moves,
    if any (then ``moves`` counts the moves applied before it).
    """

    round_number: int
    moves: int
    board: Round
    record: RoundRecord
    problem: Problem | None = None


def round_starter(top: int, round_number: int) -> Tile:
    """The double that starts round ``round_number`` of a double-``top`` game."""
    return DominoSet(top).starter(round_number)


def unusable(game: Game) -> str:
    """Why ``game`` (without usable rules or players) cannot be replayed: its YAML problem,
    as cf validate words it, where it has one."""
    for p in game.problems:
        if p.code == "yaml":
            if p.line is not None:
                return Message("line {line}: [yaml] {message}", line=p.line, message=p.message)
            return Message("[yaml] {message}", message=p.message)
    return Message("the game has no usable rules or players: run cf validate")


def check_playable(game: Game) -> None:
    """Raise :class:`ReplayError` unless ``game`` can be replayed: usable rules and
    players, and a deal its set can make for them (a deal of 100,000,000 tiles, which cf
    validate reports as a ``rules`` problem, would hold that many unseen tiles)."""
    if game.rules is None or len(game.players) < 2:
        raise ReplayError(unusable(game))
    try:
        game.rules.row(len(game.players))
    except RulesError as exc:
        raise ReplayError(
            Message("{why}: no round can be replayed (run cf validate)", why=exc.args[0])
        ) from None


def round_count_message(game: Game) -> str | None:
    """The validator's words for a game with more rounds than it may have (its set's
    doubles, or ``rules.rounds``), else ``None`` (and ``None`` for a set cf does not know).

    The ``round-count`` problem of cf validate, and what every command that replays a round
    past the set's last says instead of trying.
    """
    rules = game.rules or Rules(top=game.top)
    last = rules.rounds_in_game
    if last is None or len(game.rounds) <= last or not game.set_known:
        return None  # a game to a target with no rules.rounds has no last round
    limit = (
        Message("this game has {last} (rules.rounds)", last=last)
        if rules.rounds is not None
        else Message("a game with {set} has {last} at most", set=set_name(game.top), last=last)
    )
    return Message("{count} rounds: {limit}", count=len(game.rounds), limit=limit)


def start_round(
    rules: Rules,
    players: Sequence[str],
    starter: Tile,
    deal: Mapping[str, HandEntry] | None,
    *,
    seen_by: str | None = None,
) -> Round:
    """The round before its first move: hands from ``deal`` where recorded, else unseen.

    With ``seen_by``, only that player's dealt hand is used; every other hand starts as
    unseen tiles, as that player saw the table.
    """
    if deal is None:
        return Round.unseen(rules, players, starter)
    each = rules.tiles_each(len(players))
    hands = {}
    for p in players:
        entry = deal.get(p)
        if (seen_by is not None and p != seen_by) or entry is None or entry.tiles is None:
            hands[p] = Hand(set(), each)
        else:
            hands[p] = Hand(set(entry.tiles))
    dealt = sum(h.size for h in hands.values())
    return Round(rules, players, starter, hands, rules.pool - dealt)


def apply_entry(board: Round, entry: MoveEntry) -> None:
    """Apply one log entry; an unreadable one raises its problem once turn order allows."""
    if entry.action is None:
        _unreadable(board, entry)
    board.apply(entry.player or "", entry.action)


def _unreadable(board: Round, entry: MoveEntry) -> NoReturn:
    # Only after-end, then turn, come before the problem of an unreadable move.
    assert entry.problem is not None
    if board.winner is not None:
        if entry.player is not None:  # as for a move that could be read: who moved
            board.check_turn(entry.player)
        raise RuleViolation(
            "after-end",
            Message("a move after {winner} went out: the round is over", winner=board.winner),
        )
    if entry.player is not None and entry.problem.code != "player":
        board.check_turn(entry.player)
        shape = entry.shape
        if shape is not None and shape.drew:
            board.check_draw_before_its_tiles(entry.player, shape)
    raise RuleViolation(entry.problem.code, entry.problem.message)


def replay(
    game: Game,
    round_number: int | None = None,
    move: int | None = None,
    *,
    seen_by: str | None = None,
) -> Replay:
    """Replay round ``round_number`` (default: the last round that has moves) up to
    ``move`` moves (default: the whole log). Raises :class:`ReplayError` for a round or
    move that does not exist, or a game without usable rules or players."""
    check_playable(game)
    assert game.rules is not None  # checked
    if round_number is None:
        with_moves = [r.number for r in game.rounds if r.moves is not None]
        if not with_moves:
            raise ReplayError(Message("no round of the game has moves"))
        round_number = with_moves[-1]
    if not 1 <= round_number <= len(game.rounds):
        raise ReplayError(
            Message(
                "there is no round {round_number} (the game has {n_rounds})",
                round_number=round_number,
                n_rounds=len(game.rounds),
            )
        )
    rec = game.rounds[round_number - 1]
    entries = rec.moves or []
    if move is None:
        move = len(entries)
    if not 0 <= move <= len(entries):
        raise ReplayError(
            Message(
                "round {round_number} has moves 0 to {n_entries}, not {move}",
                round_number=round_number,
                n_entries=len(entries),
                move=move,
            )
        )
    if round_number > game.top + 1 and game.rules.target is None:
        # no double starts it (only a game to a target starts again from the top double):
        # cf validate's round-count
        first = (game.rules.rounds_in_game or game.top + 1) + 1
        words = round_count_message(game) or Message(
            "{set} has no round {number}", set=set_name(game.top), number=round_number
        )
        raise ReplayError(
            Message("round {first}: [round-count] {words}", first=first, words=words)
        )
    starter = round_starter(game.top, round_number)
    try:
        board = start_round(game.rules, game.players, starter, rec.deal, seen_by=seen_by)
    except Error as exc:
        raise ReplayError(message_of(exc)) from exc
    for entry in entries[:move]:
        try:
            apply_entry(board, entry)
        except RuleViolation as exc:
            pos = entry.pos
            problem = Problem(
                exc.code,
                exc.message,
                pos.line,
                pos.column,
                round_number,
                entry.number,
                entry.player,
            )
            return Replay(round_number, entry.number - 1, board, rec, problem)
    return Replay(round_number, move, board, rec)
