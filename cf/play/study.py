"""Studies on the fast engine: the games ``cf simulate`` plays, ten times faster.

A study (``cf simulate --stats``) plays thousands of games with seats that need no search
(``greedy`` and ``random``). :func:`fast_game` plays exactly the game
:func:`cf.play.simulate.simulate_game` plays for the same seed — the same deals from the
same random source, the same choices, the same moves — on the integers and bitmasks of
:mod:`cf.play.fast` instead of :class:`~cf.board.Round`, and keeps only what a study
counts unless asked for the moves. tests/test_study.py proves that the two agree, game for
game, and :func:`check_round` replays a fast round through ``Round.apply`` move by move
(``cf simulate --stats --check`` does it for every round of a study).

>>> from cf.rules import Rules
>>> g = fast_game(["Ana", "Ben"], Rules(top=6), ["greedy", "random"], 1)
>>> len(g.rounds), sum(r.moves for r in g.rounds) > 0
(7, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from cf.board import Round, RuleViolation
from cf.deal import seeded
from cf.i18n import Message
from cf.notation import Action, Move
from cf.play.fast import DRAW_CODES, ONE_MAY, TOES, UNTIL, Tables, bits
from cf.play.simulate import SimulationError, game_rounds
from cf.rules import Rules
from cf.tiles import DominoSet, Tile

#: The strategies a study plays on the fast engine (the others read a View or search).
FAST_STRATEGIES = frozenset({"greedy", "random"})

#: One logged turn: (seat, tile played or -1, number it touches or -1, tiles drawn).
Turn = tuple[int, int, int, tuple[int, ...]]


def fast_enough(strategies: Sequence[str]) -> bool:
    """Whether every seat's strategy can play on the fast engine."""
    return all(s in FAST_STRATEGIES for s in strategies)


@dataclass(frozen=True, slots=True)
class FastRound:
    """One round as a study counts it; ``log`` holds its turns when they were asked for."""

    first: int
    scores: list[int]
    moves: int
    winner: int  # the seat that went out, or -1 (blocked)
    deal: list[int] | None = None  # hand masks as dealt, with ``log``
    yard: list[int] | None = None  # the chicken yard, next drawn last, with ``log``
    hands: list[int] | None = None  # hand masks at the end, with ``log``
    log: list[Turn] | None = None

    @property
    def blocked(self) -> bool:
        return self.winner < 0


@dataclass(frozen=True, slots=True)
class FastGame:
    players: tuple[str, ...]
    strategies: tuple[str, ...]
    rules: Rules
    rounds: tuple[FastRound, ...]

    @property
    def totals(self) -> list[int]:
        return [sum(r.scores[i] for r in self.rounds) for i in range(len(self.players))]


def _inline_shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``, the same permutation, without a call per tile: a study spends a
    third of its time shuffling otherwise. Used only where it is proven the same
    (:data:`_shuffle`)."""
    getrandbits = rng.getrandbits
    for i, k in _STEPS[len(x)]:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


class _Steps(dict[int, list[tuple[int, int]]]):
    """For a list of length L, the shuffle's steps: (i, bits of i + 1) for i = L-1 .. 1."""

    def __missing__(self, length: int) -> list[tuple[int, int]]:
        steps = self[length] = [(i, (i + 1).bit_length()) for i in range(length - 1, 0, -1)]
        return steps


_STEPS = _Steps()


def _same_shuffle() -> bool:
    a, b = list(range(300)), list(range(300))
    random.Random(7).shuffle(a)
    _inline_shuffle(random.Random(7), b)
    below = getattr(random.Random, "_randbelow", None)
    return a == b and below is getattr(random.Random, "_randbelow_with_getrandbits", 0)


#: How the fast engine shuffles: inline where this Python's ``Random.shuffle`` is the same.
_shuffle = _inline_shuffle if _same_shuffle() else random.Random.shuffle


class _Setup:
    """Per rules and table size: the tables, the tile pools in deal order, canonical ranks."""

    _cache: ClassVar[dict[tuple[Rules, int], _Setup]] = {}

    def __init__(self, rules: Rules, players: int) -> None:
        self.tables = t = Tables.get(rules.top, rules.double_blank)
        self.each = rules.row(players).tiles_each
        self.reserve = rules.reserve_for(players)
        self.arms_needed = rules.arms_for(players)
        self.draw = DRAW_CODES[rules.draw]
        self.out_on_double = rules.out_on_double
        dominoes = DominoSet(rules.top)
        every = [t.index[tile] for tile in dominoes.tiles()]
        self.pools: dict[int, tuple[int, list[int]]] = {}
        for k in range(1, rules.top + 2):
            starter = dominoes.starter(k)
            self.pools[k] = (starter.high, [i for i in every if t.tiles[i] != starter])
        self.bit = [1 << i for i in range(len(t.tiles))]
        # points of a hand, a byte of its mask at a time
        self.byte_points = [
            [
                sum(t.points[8 * c + b] for b in bits(v) if 8 * c + b < len(t.tiles))
                for v in range(256)
            ]
            for c in range((len(t.tiles) + 7) // 8)
        ]
        # the tiles that fit each set of open numbers, as a list where it is small
        self.fits: list[int] | dict[int, int] = t._open
        if t.top <= 15:
            fits = [0] * (1 << (t.top + 1))
            for b in range(1, len(fits)):
                low = b & -b
                fits[b] = fits[b ^ low] | t.number[low.bit_length() - 1]
            self.fits = fits
        canonical = sorted(range(len(t.tiles)), key=t.tiles.__getitem__)
        self.rank = [0] * len(t.tiles)
        for r, i in enumerate(canonical):
            self.rank[i] = r

    def points(self, mask: int) -> int:
        """The points of the tiles in ``mask``."""
        total = 0
        for table in self.byte_points:
            if mask & 255:
                total += table[mask & 255]
            mask >>= 8
        return total

    @classmethod
    def get(cls, rules: Rules, players: int) -> _Setup:
        key = (rules, players)
        setup = cls._cache.get(key)
        if setup is None:
            setup = cls._cache[key] = cls(rules, players)
        return setup


def fast_game(
    players: Sequence[str],
    rules: Rules,
    strategies: Sequence[str],
    seed: int | str | None = None,
    rounds: int | None = None,
    *,
    log: bool = False,
) -> FastGame:
    """The game :func:`~cf.play.simulate.simulate_game` plays for ``seed``, on the fast
    engine; ``log`` keeps each round's deal and turns (for :func:`check_round`)."""
    if not fast_enough(strategies):
        raise ValueError(
            Message(
                "only {FAST_STRATEGIES} play on the fast engine",
                FAST_STRATEGIES=", ".join(sorted(FAST_STRATEGIES)),
            )
        )
    rng = seeded(seed)
    n = len(players)
    setup = _Setup.get(rules, n)
    randoms = [s == "random" for s in strategies]
    played = []
    totals = [0] * n
    for k in game_rounds(rules, rounds):
        r = _round(setup, n, randoms, k, rng, log)
        played.append(r)
        for i, points in enumerate(r.scores):
            totals[i] += points
        if k == rounds or rules.game_over(totals, k):
            break
    return FastGame(tuple(players), tuple(strategies), rules, tuple(played))


def _round(
    setup: _Setup, n: int, randoms: list[bool], k: int, rng: random.Random, keep: bool
) -> FastRound:
    """Deal round ``k`` as :func:`cf.deal.deal_from` does (the same shuffle of the same
    pool) and play it as :func:`cf.play.simulate.play_round` does."""
    starter, pool = setup.pools[(k - 1) % len(setup.pools) + 1]
    pool = pool[:]
    _shuffle(rng, pool)
    each = setup.each
    bit = setup.bit
    hands = [sum(map(bit.__getitem__, pool[i * each : (i + 1) * each])) for i in range(n)]
    yard = pool[n * each :]
    first = (k - 1) % n
    deal = hands[:] if keep else None
    yard_dealt = yard[:] if keep else None
    log: list[Turn] | None = [] if keep else None
    moves, winner, on_double = play(setup, hands, yard, starter, first, randoms, rng, log)
    scores = [0 if i == winner else setup.points(h) for i, h in enumerate(hands)]
    if on_double:
        scores[winner] = setup.out_on_double
    return FastRound(first, scores, moves, winner, deal, yard_dealt, hands if keep else None, log)


def play(
    setup: _Setup,
    hands: list[int],
    yard: list[int],
    s: int,
    cur: int,
    randoms: list[bool],
    rng: random.Random,
    log: list[Turn] | None,
) -> tuple[int, int, bool]:
    """Play a round to its end from the deal (``hands`` change in place; ``yard`` is drawn
    from its end): greedy seats play the highest tile of greedy's order, random seats a
    random one of their playable tiles in canonical order, each placed where
    ``Round.orient`` places it; a player with nothing playable draws as the ``draw`` rule
    says (under ``one-may`` a random seat keeps a drawn tile that fits one time in two).
    Returns (moves, winning seat or -1 when blocked, whether it went out on a double).

    One loop, as :func:`cf.play.fast.playout`'s, because it is where a study spends its
    time.
    """
    t = setup.tables
    number, high, low, fit_open, rank = t.number, t.high, t.low, t.fit_open, setup.rank
    fits = setup.fits  # fit_open(b) is fits[b]: a lookup without a call
    listed = isinstance(fits, list)
    n = len(hands)
    ends = [0] * (t.top + 1)
    open_bits = 0
    arms, arms_needed, pending, toes = 0, setup.arms_needed, -1, 0
    drawable = max(len(yard) - setup.reserve, 0)
    fit = number[s]
    until, one_may = setup.draw == UNTIL, setup.draw == ONE_MAY
    moves = 0
    drew: tuple[int, ...] = ()
    if not drawable and not any(h & fit for h in hands):
        return 0, -1, False
    while True:
        moves += 1
        hand = hands[cur]
        playable = hand & fit
        tile = -1
        if playable:
            if randoms[cur]:
                tile = rng.choice(sorted(bits(playable), key=rank.__getitem__))
            else:
                tile = playable.bit_length() - 1
            hands[cur] = hand ^ 1 << tile
        elif drawable:
            pulled = []
            while drawable:
                drawable -= 1
                got = yard.pop()
                pulled.append(got)
                if fit >> got & 1:
                    if one_may and randoms[cur] and rng.random() < 0.5:
                        hand |= 1 << got  # kept
                    else:
                        tile = got
                    break
                hand |= 1 << got
                if not until:
                    break
            hands[cur] = hand
            drew = tuple(pulled)
        if tile >= 0:
            hi, lo = high[tile], low[tile]
            if arms < arms_needed:
                arms += 1
                near = s
                new = lo if hi == s else hi
            elif pending >= 0:
                near = pending
                toes += 1
                new = lo if hi == pending else hi
                if toes == TOES:
                    pending = -1
            else:
                near = hi if ends[hi] else lo
                left = ends[near] - 1
                ends[near] = left
                if not left:
                    open_bits ^= 1 << near
                if hi == lo:
                    pending = near
                    toes = 0
                    new = -1
                else:
                    new = lo if near == hi else hi
            if new >= 0:
                if not ends[new]:
                    open_bits |= 1 << new
                ends[new] += 1
            if log is not None:
                log.append((cur, tile, near, drew))
                drew = ()
            if not hands[cur]:
                return moves, cur, hi == lo
            if arms < arms_needed:
                fit = number[s]
            elif pending >= 0:
                fit = number[pending]
            else:
                fit = fits[open_bits] if listed else fit_open(open_bits)
        elif log is not None:
            log.append((cur, -1, -1, drew))
            drew = ()
        cur = cur + 1 if cur + 1 < n else 0
        if not drawable:
            for h in hands:
                if h & fit:
                    break
            else:
                return moves, -1, False


# --- the record of a fast round, and its check through Round ------------------------------


def round_moves(tables: Tables, players: Sequence[str], r: FastRound) -> list[Move]:
    """A logged fast round's turns as the moves of a game file (as the simulator writes
    them: a drawn tile named, a play near end first)."""
    assert r.log is not None, "the round was played without its log"
    tiles = tables.tiles
    out = []
    for seat, tile, near, drew in r.log:
        play = None if tile < 0 else (near, tiles[tile].other(near))
        if not drew:
            action = Action(play=play)
        else:
            written = [(tiles[d].high, tiles[d].low) for d in drew]
            action = Action(play=play, drew=True, drawn=written[-1], earlier=tuple(written[:-1]))
        out.append(Move(players[seat], action))
    return out


class CheckError(SimulationError):
    """A fast round that ``Round`` does not play the same way: a bug, never bad input."""


def check_round(rules: Rules, players: Sequence[str], k: int, r: FastRound) -> None:
    """Replay a logged fast round through ``Round.apply``, move by move; raise
    :class:`CheckError` if a move is refused, or if the round does not end, or ends
    otherwise, than the fast engine said."""
    setup = _Setup.get(rules, len(players))
    t = setup.tables
    assert r.deal is not None and r.hands is not None
    number = setup.pools[(k - 1) % len(setup.pools) + 1][0]
    starter = Tile.of(number, number)
    deal = {p: t.tiles_of(m) for p, m in zip(players, r.deal, strict=True)}
    board = Round.dealt(rules, list(players), starter, deal)
    moves = round_moves(t, players, r)
    for i, move in enumerate(moves, start=1):
        if board.is_over:
            raise CheckError(
                Message("round {k}: the fast engine played move {i} after the end", k=k, i=i)
            )
        try:
            board.apply(move.player, move.action)
        except RuleViolation as exc:
            raise CheckError(
                Message(
                    "round {k}, move {i}: Round refuses it: {message}",
                    k=k,
                    i=i,
                    message=exc.message,
                )
            ) from None
    if not board.is_over:
        raise CheckError(
            Message("round {k}: Round has not ended after the fast engine's last move", k=k)
        )
    winner = None if r.winner < 0 else players[r.winner]
    if board.winner != winner:
        raise CheckError(
            Message(
                "round {k}: Round's winner is {winner}, not {winner2}",
                k=k,
                winner=board.winner,
                winner2=winner,
            )
        )
    for i, (p, m) in enumerate(zip(players, r.hands, strict=True)):
        if sorted(board.hands[p].known) != t.tiles_of(m):
            raise CheckError(
                Message("round {k}: {p}'s hand at the end differs from Round's", k=k, p=p)
            )
        score = t.points_of(m)
        if p == board.winner and board.out_on_double:
            score = rules.out_on_double
        if r.scores[i] != score:
            raise CheckError(
                Message(
                    "round {k}: {p} scores {score} by Round, not {scores}",
                    k=k,
                    p=p,
                    score=score,
                    scores=r.scores[i],
                )
            )


def check_game(game: FastGame) -> None:
    """:func:`check_round` for every round of a logged game."""
    for k, r in enumerate(game.rounds, start=1):
        check_round(game.rules, game.players, k, r)
