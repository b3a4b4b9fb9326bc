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
from cf.i18n import N_, Message, message_of
from cf.notation import Action, Move
from cf.play.knowledge import Knowledge, KnowledgeError, from_log, public_log
from cf.play.search import Judgement, evaluate, judge_drawn
from cf.record.reader import Game
from cf.record.replay import Replay, ReplayError, check_playable, replay, round_starter
from cf.rules import DRAW_ONE_MAY
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
    drawn: Tile | None = None,
) -> Advice:
    """Judge every legal action of the player to move (or ``player``, who must be the one
    to move) in round ``round_number`` (default: the last) of ``game``.

    ``drawn``: under the house rule ``draw: one-may``, the player has just drawn this tile
    (holding nothing playable); judge playing it against keeping it.

    Raises :class:`HintUsageError` for options that do not fit the file and
    :class:`HintError` for a round that is over or cannot be replayed.
    """
    round_number = _checked_round(game, round_number, player)
    player = _seated(game, player)
    # Whose turn it is and where the round stands need no hand: replay with none known,
    # so that nothing hidden can change the answer.
    public = _public_replay(game, round_number)
    to_move = _player_to_move(public.board, round_number, player)
    know = _knowledge(game, public, round_number, to_move, hand)
    assert game.rules is not None
    b = know.board
    own = tuple(sorted(know.tables.tiles_of(know.hand), reverse=True))
    # A block cf show sees from every hand, told from what the player to move knows,
    # so that the answer depends on nothing hidden (SPEC 11).
    if drawn is None and _blocked_for(b, to_move, own):
        raise HintError(
            Message("round {round_number} is over: it is blocked", round_number=round_number)
        )
    if drawn is not None:
        return _advise_drawn(
            game, public, round_number, to_move, hand, know, drawn, playouts, seed
        )
    try:
        judged = evaluate(know, playouts, random.Random(seed))
    except KnowledgeError as exc:
        raise HintError(
            Message("round {round_number}: {exc}", round_number=round_number, exc=exc)
        ) from None
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


def _advise_drawn(
    game: Game,
    public: Replay,
    round_number: int,
    to_move: str,
    hand: Iterable[Tile] | None,
    know: Knowledge,
    drawn: Tile,
    playouts: int,
    seed: int,
) -> Advice:
    """Under ``draw: one-may``: ``to_move`` drew ``drawn``; play it (on each end it fits)
    or keep it, judged as every action is."""
    assert game.rules is not None
    if game.rules.draw != DRAW_ONE_MAY:
        raise HintUsageError(
            Message(
                "--drawn is for the house rule draw: one-may; under draw: "
                "{draw} a drawn tile that fits is played",
                draw=game.rules.draw,
            )
        )
    b = know.board
    if b.can_play(to_move) or not b.drawable:
        raise HintUsageError(
            Message("{player} cannot draw now (a tile fits)", player=to_move)
            if b.drawable
            else Message("{player} cannot draw now: nothing to draw", player=to_move)
        )
    if know.tables.index.get(drawn) is None or drawn in b.on_table or drawn in b.owner:
        raise HintUsageError(
            Message("{drawn} cannot have been drawn: it is not in the chicken yard", drawn=drawn)
        )
    written = (drawn.high, drawn.low)
    now = None if hand is None else [*hand, drawn]
    draw = Move(to_move, Action(drew=True, drawn=written))
    kept = _knowledge(game, public, round_number, to_move, now, extra=draw)
    try:
        judged = judge_drawn(kept, kept.tables.index[drawn], playouts, random.Random(seed))
    except KnowledgeError as exc:
        raise HintError(
            Message("round {round_number}: {exc}", round_number=round_number, exc=exc)
        ) from None
    own = tuple(sorted(know.tables.tiles_of(know.hand), reverse=True))
    actions = []
    for j in judged:
        if j.near is None:
            keep = Message("keep {tile} and pass", tile=str(drawn))
            actions.append(
                Advised("pass", None, f"draw {drawn}, pass", keep, j.expected_points, j.p_out)
            )
        else:
            far = drawn.other(j.near)
            where = _where_played(b, drawn, j.near, far)
            record = f"draw {drawn}, {j.near}-{far}"
            play = Message("play it: {where}", where=where)
            actions.append(Advised("play", drawn, record, play, j.expected_points, j.p_out))
    return Advice(
        round_number,
        public.moves,
        to_move,
        own,
        game.rules.double_blank,
        Message(
            "{board}; {player} drew {tile} (draw: one-may: play it or keep it)",
            board=b.describe_board(),
            player=to_move,
            tile=str(drawn),
        ),
        tuple(actions),
        playouts,
        seed,
    )


def _checked_round(game: Game, round_number: int | None, player: str | None) -> int:
    """The round to advise on (default: the last), once the game and options fit it."""
    try:
        check_playable(game)
    except ReplayError as exc:
        raise HintError(exc.args[0]) from None
    if not game.rounds:
        raise HintError(Message("the game has no rounds yet"))
    if round_number is None:
        round_number = len(game.rounds)
    if not 1 <= round_number <= len(game.rounds):
        raise HintUsageError(
            Message(
                "there is no round {round_number} (the game has {n_rounds})",
                round_number=round_number,
                n_rounds=len(game.rounds),
            )
        )
    return round_number


def _seated(game: Game, player: str | None) -> str | None:
    """The seated player ``--player`` names: exactly, else case- and accent-insensitively
    when that picks one (as cf add matches names), else a usage error that says who."""
    if player is None or player in game.players:
        return player
    from cf.record.keeper import EntryError, match_player

    try:
        return match_player(player, game.players)
    except EntryError as exc:
        raise HintUsageError(message_of(exc)) from None


def _public_replay(game: Game, round_number: int) -> Replay:
    """The round replayed with no hand known, refused if it is broken or over."""
    try:
        public = replay(game, round_number, seen_by=_NOBODY)
    except ReplayError as exc:
        raise HintError(message_of(exc)) from None
    if public.problem is not None:
        p = public.problem
        raise HintError(
            Message(
                "round {round_number}, move {move}: {message} ({code})",
                round_number=round_number,
                move=p.move,
                message=p.message,
                code=p.code,
            )
        )
    _refuse_finished(public, round_number)
    return public


def _blocked_for(board: Round, player: str, own: Iterable[Tile]) -> bool:
    """Whether ``player``, to move, can tell that the round is blocked (SPEC 4: nothing to
    draw and nobody can play) from what it knows: nothing can be drawn, its own hand has
    nothing that fits, and the others cannot play either: each has passed since the
    board last changed (as the player's knowledge counts passes: under ``draw: one-may``
    a pass after a draw is none, the tile kept may fit), or every tile that would fit is
    on the table already; never while a tile of its hand (``own``) or one known to be in
    another's fits. The public replay alone cannot tell: under ``draw: one-may`` it counts
    a pass after a draw as a stuck player (SPEC 4's rule for a log), though the tile kept
    may fit."""
    fits = board.fits
    if board.drawable or any(fits(t) for t in own) or any(fits(t) for t in board.owner):
        return False
    if board.passes_in_a_row >= len(board.players) - 1:
        return True
    top = board.rules.top
    fitting = (Tile.of(a, b) for a in range(top + 1) for b in range(a + 1))
    return all(t in board.on_table for t in fitting if board.fits(t))


def _refuse_finished(public: Replay, round_number: int) -> None:
    """Raise :class:`HintError` if someone went out or the round has its end recorded (a
    block is told from what the player to move knows: :func:`_blocked_for`)."""
    board = public.board
    if board.winner is not None:
        raise HintError(
            Message(
                "round {round_number} is over: {winner} went out",
                round_number=round_number,
                winner=board.winner,
            )
        )
    ended = "scores" if public.record.scores is not None else "hands"
    if public.record.scores is not None or public.record.hands is not None:
        raise HintError(
            Message(
                "round {round_number} is over: its {ended} are recorded",
                round_number=round_number,
                ended=ended,
            )
        )


def _player_to_move(board: Round, round_number: int, player: str | None) -> str:
    """Whose turn it is: the board's next player, or ``player`` before the first move."""
    to_move = board.next_player
    if to_move is None:
        if player is None:
            raise HintUsageError(
                Message(
                    "round {round_number} has no moves yet: say who plays first with --player",
                    round_number=round_number,
                )
            )
        to_move = player
    if player is not None and player != to_move:
        raise HintUsageError(
            Message("it is {to_move}'s turn, not {player}'s", to_move=to_move, player=player)
        )
    return to_move


def _knowledge(
    game: Game,
    public: Replay,
    round_number: int,
    to_move: str,
    hand: Iterable[Tile] | None,
    extra: Move | None = None,
) -> Knowledge:
    """What ``to_move`` knows of the round: its own hand and the public log (and
    ``extra``, a move of its own not yet in the file)."""
    assert game.rules is not None
    rec = public.record
    entry = (rec.deal or {}).get(to_move)
    dealt = entry.tiles if entry is not None and hand is None else None
    log = [Move(e.player or "", e.action) for e in (rec.moves or [])[: public.moves] if e.action]
    if extra is not None:
        log.append(extra)
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
        raise HintError(
            Message(
                "round {round_number}: {message} ({code})",
                round_number=round_number,
                message=exc.message,
                code=exc.code,
            )
        ) from None
    except KnowledgeError as exc:
        if hand is None and dealt is not None:  # the deal is there: an own draw unnamed
            raise HintUsageError(
                Message(
                    "{exc}: a tile {to_move} drew is not named in the log; give the hand "
                    "with --hand",
                    exc=exc,
                    to_move=to_move,
                )
            ) from None
        if hand is None:
            raise HintUsageError(
                Message(
                    "{exc}: no deal is recorded for {to_move}; give the hand with --hand",
                    exc=exc,
                    to_move=to_move,
                )
            ) from None
        raise HintUsageError(Message("--hand does not fit the record: {exc}", exc=exc)) from None


def _advised(j: Judgement, b: Round) -> Advised:
    """One judged action as ``cf hint`` lists it: what to record and where it goes."""
    if j.tile is None:
        kind = "draw" if b.drawable else "pass"
        where = (
            Message(_DRAWING[b.rules.draw])
            if b.drawable
            else Message("nothing fits and nothing can be drawn")
        )
        return Advised(kind, None, kind, where, j.expected_points, j.p_out)
    assert j.near is not None
    far = j.tile.other(j.near)
    played = _where_played(b, j.tile, j.near, far)
    return Advised("play", j.tile, f"{j.near}-{far}", played, j.expected_points, j.p_out)


#: What a draw does, by the house rule ``draw``.
_DRAWING = {
    "one": N_("nothing fits: draw (play the drawn tile if it fits)"),
    "one-may": N_("nothing fits: draw; a drawn tile that fits you may keep (--drawn TILE)"),
    "until": N_("nothing fits: draw until a tile fits, and play it"),
}


def _where_played(b: Round, tile: Tile, near: int, far: int) -> str:
    """Where a play of ``tile`` on ``near`` goes: a starter arm, a toe, or an open end."""
    if b.in_starter_phase:
        return Message(
            "arm {arm} of {arms} of the starter {starter}",
            arm=b.arms + 1,
            arms=b.arms_needed,
            starter=str(b.starter),
        )
    if b.pending is not None:
        return Message(
            "toe {toe} of 3 on {double}", toe=b.toes + 1, double=f"{b.pending}-{b.pending}"
        )
    # English says "an 8", "an 11", "an 18" (eight, eleven, eighteen).
    if near in AN:
        if tile.is_double:
            return Message("on an {near} end: opens a chicken foot", near=near)
        return Message("on an {near} end, leaves {far} open", near=near, far=far)
    if tile.is_double:
        return Message("on a {near} end: opens a chicken foot", near=near)
    return Message("on a {near} end, leaves {far} open", near=near, far=far)


#: Numbers whose English name starts with a vowel sound, up to double-eighteen's 18.
AN = frozenset({8, 11, 18})
