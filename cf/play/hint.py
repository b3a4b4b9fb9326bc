"""Advice for a round in progress (``cf hint``, SPEC §11): what should I play?

:func:`advise` replays a recorded round as far as its log goes, takes the seat of the player
to move, forgets everything that seat could not have seen — the other players' dealt
hands, even where the file records them, and the tiles they drew — and judges every
legal action with :func:`cf.play.search.evaluate` (the ``pimc`` search): the points the
player is expected to hold at the end of the round, and the chance of going out first.
Advice therefore depends only on what the player knows: two files that differ only in
the other players' unseen tiles get the same advice for the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from cf.board import Round, RuleViolation
from cf.errors import Error
from cf.notation import Move
from cf.play.knowledge import Knowledge, KnowledgeError, from_log, public_log
from cf.play.search import Judgement, evaluate
from cf.record.reader import Game
from cf.record.replay import Replay, ReplayError, replay, round_starter, unusable
from cf.tiles import Tile, hand_points

#: Default effort of ``cf hint``: deals (playouts) per legal action.
HINT_PLAYOUTS = 200
HINT_SEED = 0
_NOBODY = "\0"  # a seat name no player has: replay with every hand unseen


class HintError(Error, ValueError):
    """No advice can be given for this file: its round is over, or its record is broken."""


class HintUsageError(Error, ValueError):
    """The options do not fit the file: another player's turn, no such round, no hand."""


@dataclass(frozen=True, slots=True)
class Advised:
    """One legal action, as ``cf hint`` lists it."""

    action: str  # "play", "draw" or "pass"
    tile: Tile | None
    record: str  # what to write in the log: the tile near end first, "draw" or "pass"
    where: str
    expected_points: float
    p_out: float

    def as_dict(self) -> dict[str, object]:
        return {
            "action": self.action,
            "tile": None if self.tile is None else str(self.tile),
            "record": self.record,
            "expected_points": round(self.expected_points, 2),
            "p_out": round(self.p_out, 3),
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """Every legal action of ``player`` after ``moves`` moves of round ``round_number``."""

    round_number: int
    moves: int
    player: str
    hand: tuple[Tile, ...]
    double_blank: int
    board: str
    actions: tuple[Advised, ...]
    playouts: int
    seed: int

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round_number,
            "move": self.moves,
            "player": self.player,
            "hand": [str(t) for t in self.hand],
            "actions": [a.as_dict() for a in self.actions],
        }

    @property
    def points(self) -> int:
        return hand_points(self.hand, self.double_blank)


def advise(
    game: Game,
    round_number: int | None = None,
    player: str | None = None,
    hand: Iterable[Tile] | None = None,
    playouts: int = HINT_PLAYOUTS,
    seed: int = HINT_SEED,
) -> Advice:
    """Judge every legal action of the player to move (or ``player``, who must be the one
    to move) in round ``round_number`` (default: the last) of ``game``.

    Raises :class:`HintUsageError` for options that do not fit the file and
    :class:`HintError` for a round that is over or cannot be replayed.
    """
    round_number = _checked_round(game, round_number, player)
    # Whose turn it is and where the round stands need no hand: replay with none known,
    # so that nothing hidden can change the answer.
    public = _public_replay(game, round_number)
    to_move = _player_to_move(public.board, round_number, player)
    know = _knowledge(game, public, round_number, to_move, hand)
    try:
        judged = evaluate(know, playouts, random.Random(seed))
    except KnowledgeError as exc:
        raise HintError(f"round {round_number}: {exc}") from None
    assert game.rules is not None
    b = know.board
    own = tuple(sorted(know.tables.tiles_of(know.hand), reverse=True))
    return Advice(
        round_number,
        public.moves,
        to_move,
        own,
        game.rules.double_blank,
        b.describe_board(),
        tuple(_advised(j, b) for j in judged),
        playouts,
        seed,
    )


def _checked_round(game: Game, round_number: int | None, player: str | None) -> int:
    """The round to advise on (default: the last), once the game and options fit it."""
    if game.rules is None or len(game.players) < 2:
        raise HintError(unusable(game))
    if not game.rounds:
        raise HintError("the game has no rounds yet")
    if round_number is None:
        round_number = len(game.rounds)
    if not 1 <= round_number <= len(game.rounds):
        raise HintUsageError(f"there is no round {round_number} (the game has {len(game.rounds)})")
    if player is not None and player not in game.players:
        raise HintUsageError(f"{player} is not a player ({', '.join(game.players)})")
    return round_number


def _public_replay(game: Game, round_number: int) -> Replay:
    """The round replayed with no hand known, refused if it is broken or over."""
    try:
        public = replay(game, round_number, seen_by=_NOBODY)
    except ReplayError as exc:
        raise HintError(str(exc)) from None
    if public.problem is not None:
        p = public.problem
        raise HintError(f"round {round_number}, move {p.move}: {p.message} ({p.code})")
    _refuse_finished(public, round_number)
    return public


def _refuse_finished(public: Replay, round_number: int) -> None:
    """Raise :class:`HintError` if the round went out, blocked, or has its end recorded."""
    board = public.board
    if board.winner is not None:
        raise HintError(f"round {round_number} is over: {board.winner} went out")
    if board.is_blocked():
        raise HintError(f"round {round_number} is over: it is blocked")
    ended = "scores" if public.record.scores is not None else "hands"
    if public.record.scores is not None or public.record.hands is not None:
        raise HintError(f"round {round_number} is over: its {ended} are recorded")


def _player_to_move(board: Round, round_number: int, player: str | None) -> str:
    """Whose turn it is: the board's next player, or ``player`` before the first move."""
    to_move = board.next_player
    if to_move is None:
        if player is None:
            raise HintUsageError(
                f"round {round_number} has no moves yet: say who plays first with --player"
            )
        to_move = player
    if player is not None and player != to_move:
        raise HintUsageError(f"it is {to_move}'s turn, not {player}'s")
    return to_move


def _knowledge(
    game: Game, public: Replay, round_number: int, to_move: str, hand: Iterable[Tile] | None
) -> Knowledge:
    """What ``to_move`` knows of the round: its own hand and the public log."""
    assert game.rules is not None
    rec = public.record
    entry = (rec.deal or {}).get(to_move)
    dealt = entry.tiles if entry is not None and hand is None else None
    log = [Move(e.player or "", e.action) for e in (rec.moves or [])[: public.moves] if e.action]
    try:
        return from_log(
            game.rules,
            game.players,
            round_starter(game.top, round_number),
            to_move,
            public_log(log, to_move),
            dealt=dealt,
            hand=None if hand is None else list(hand),
        )
    except RuleViolation as exc:
        raise HintError(f"round {round_number}: {exc.message} ({exc.code})") from None
    except KnowledgeError as exc:
        if hand is None:
            raise HintUsageError(
                f"{exc}: no deal is recorded for {to_move}; give the hand with --hand"
            ) from None
        raise HintUsageError(f"--hand does not fit the record: {exc}") from None


def _advised(j: Judgement, b: Round) -> Advised:
    """One judged action as ``cf hint`` lists it: what to record and where it goes."""
    if j.tile is None:
        kind = "draw" if b.drawable else "pass"
        where = (
            "nothing fits: draw (play the drawn tile if it fits)"
            if b.drawable
            else "nothing fits and nothing can be drawn"
        )
        return Advised(kind, None, kind, where, j.expected_points, j.p_out)
    assert j.near is not None
    far = j.tile.other(j.near)
    where = _where_played(b, j.tile, j.near, far)
    return Advised("play", j.tile, f"{j.near}-{far}", where, j.expected_points, j.p_out)


def _where_played(b: Round, tile: Tile, near: int, far: int) -> str:
    """Where a play of ``tile`` on ``near`` goes: a starter arm, a toe, or an open end."""
    if b.in_starter_phase:
        return f"arm {b.arms + 1} of {b.arms_needed} of the starter {b.starter}"
    if b.pending is not None:
        return f"toe {b.toes + 1} of 3 on {b.pending}-{b.pending}"
    if tile.is_double:
        return f"on a {near} end: opens a chicken foot"
    return f"on a {near} end, leaves {far} open"
