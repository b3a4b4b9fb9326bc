"""Computer players: complete, valid games under any house rules.

A strategy sees only what a real player at the table knows — its own hand, the board, hand
sizes and how many tiles can still be drawn — through a :class:`View`, and picks one of the
playable tiles. A new strategy is one function registered in :data:`STRATEGIES`.

>>> game = simulate_game(["Ana", "Ben"], Rules(top=6), ["greedy", "random"], seed=1)
>>> len(game.rounds), all(r.winner or r.blocked for r in game.rounds)
(7, True)
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Union

from cf.board import Round
from cf.deal import Deal, deal_from, seeded
from cf.errors import Error
from cf.i18n import Message
from cf.notation import Action, Move
from cf.rules import DRAW_ONE_MAY, DRAW_UNTIL, Rules
from cf.tiles import Tile, hand_points


@dataclass(frozen=True, slots=True)
class View:
    """What a player may know when choosing: nothing of other hands or the yard order.

    ``history`` is the round's log as this seat saw it (left empty for a strategy whose
    ``reads_log`` attribute is false, as greedy's and random's are): its own draws named, everyone
    else's unnamed unless the drawn tile was played (:func:`cf.play.knowledge.public_log`).
    From it, the hand and the counts, :func:`cf.play.knowledge.from_view` works out what
    each other hand may hold.
    """

    hand: tuple[Tile, ...]
    playable: tuple[Tile, ...]
    open_ends: tuple[int, ...]
    starter: Tile
    pending: int | None
    hand_sizes: dict[str, int]
    drawable: int
    double_blank: int
    seat: str = ""
    rules: Rules | None = None
    history: tuple[Move, ...] = ()
    starter_open: bool = False  # the starter still takes arms: every play holds its number

    @property
    def players(self) -> tuple[str, ...]:
        """The seating order (``hand_sizes`` lists the players in it)."""
        return tuple(self.hand_sizes)


#: Under ``draw: one-may``, a strategy may carry a ``keep_drawn(view, tile, rng)`` that says
#: whether to keep the tile it just drew, which fits, instead of playing it; ``view`` is its
#: view before the draw. Without one (greedy, smart) the drawn tile is played.
KeepDrawn = Callable[[View, Tile, random.Random], bool]

#: A strategy's choice: a playable tile (placed as :meth:`Round.orient` places it: on its
#: high half where both halves fit) or a ``(near, far)`` pair naming the end it touches.
Choice = Union[Tile, tuple[int, int]]
Strategy = Callable[[View, random.Random], Choice]


def random_strategy(view: View, rng: random.Random) -> Tile:
    """Any legal play, chosen at random."""
    return rng.choice(view.playable)


def greedy_strategy(view: View, rng: random.Random) -> Tile:
    """Shed points fast: the double blank first when it is costly, else the highest tile."""
    blank = Tile(0, 0)
    if blank in view.playable and view.double_blank > 18:
        return blank
    return max(view.playable, key=lambda t: (t.points(view.double_blank), t))


def random_keeps_drawn(view: View, tile: Tile, rng: random.Random) -> bool:
    """Under ``draw: one-may``, random keeps a drawn tile that fits one time in two."""
    return rng.random() < 0.5


random_strategy.reads_log = False  # type: ignore[attr-defined]
greedy_strategy.reads_log = False  # type: ignore[attr-defined]
random_strategy.keep_drawn = random_keeps_drawn  # type: ignore[attr-defined]


def _searcher(module: str, name: str) -> Strategy:
    # The search players load on first use: cf simulate with greedy seats never imports them.
    def strategy(view: View, rng: random.Random) -> Choice:
        import importlib

        return getattr(importlib.import_module(module), name)(view, rng)  # type: ignore[no-any-return]

    def keep_drawn(view: View, tile: Tile, rng: random.Random) -> bool:
        import importlib

        function = getattr(importlib.import_module(module), name)
        keep = getattr(function, "keep_drawn", None)
        return bool(keep(view, tile, rng)) if keep is not None else False

    strategy.__name__ = name
    strategy.__doc__ = f"{module}.{name}, loaded on first use."
    strategy.keep_drawn = keep_drawn  # type: ignore[attr-defined]
    return strategy


STRATEGIES: dict[str, Strategy] = {
    "random": random_strategy,
    "greedy": greedy_strategy,
    "smart": _searcher("cf.play.search", "smart_strategy"),
    "pimc": _searcher("cf.play.search", "pimc_strategy"),
    "ismcts": _searcher("cf.play.search", "ismcts_strategy"),
}

#: The strategies whose effort ``--playouts`` sets.
SEARCHERS = ("pimc", "ismcts")


def strategy_for(name: str, playouts: int | None = None) -> Strategy:
    """The strategy called ``name``; for a searcher, with ``playouts`` as its effort."""
    if playouts is None or name not in SEARCHERS:
        return STRATEGIES[name]
    from cf.play import search

    return search.with_effort(name, playouts)


@dataclass(frozen=True, slots=True)
class SimRound:
    starter: Tile
    first: str
    deal: dict[str, tuple[Tile, ...]]
    moves: tuple[Move, ...]
    hands: dict[str, tuple[Tile, ...]]
    scores: dict[str, int]
    winner: str | None
    blocked: bool


@dataclass(frozen=True, slots=True)
class SimGame:
    players: tuple[str, ...]
    strategies: tuple[str, ...]
    rules: Rules
    rounds: tuple[SimRound, ...] = field(default_factory=tuple)

    @property
    def totals(self) -> dict[str, int]:
        return {p: sum(r.scores[p] for r in self.rounds) for p in self.players}


class SimulationError(Error, RuntimeError):
    """The engine refused a move the simulator made: a bug, never bad input."""


def simulate_game(
    players: Sequence[str],
    rules: Rules,
    strategies: Sequence[str],
    seed: int | str | None = None,
    rounds: int | None = None,
    playouts: int | None = None,
) -> SimGame:
    """Play a game of ``rounds`` rounds (default: the rules' whole game, N+1 rounds unless
    ``rules.rounds`` says otherwise); ``playouts`` sets the effort of the search players
    (their default when ``None``)."""
    rng = seeded(seed)
    names = list(players)
    chosen = [strategy_for(s, playouts) for s in strategies]
    played: list[SimRound] = []
    totals = dict.fromkeys(names, 0)
    for k in game_rounds(rules, rounds):
        dealt = deal_from(rng, rules, names, k)
        first = names[(k - 1) % len(names)]
        r = play_round(rules, names, chosen, dealt, first, rng, k)
        played.append(r)
        for p in names:
            totals[p] += r.scores[p]
        if rules.game_over(totals.values(), k) or k == rounds:
            break
    else:
        if rules.target is not None and rules.rounds is None and rounds is None:
            # Nobody reached the target in MAX_TARGET_ROUNDS: the game written says that
            # was its last round (rules.rounds), so that it is complete as written.
            rules = dataclasses.replace(rules, rounds=len(played))
    return SimGame(tuple(names), tuple(strategies), rules, tuple(played))


#: The most rounds a simulated game to a ``target`` plays before it is called a bug.
MAX_TARGET_ROUNDS = 10_000


def game_rounds(rules: Rules, rounds: int | None = None) -> range:
    """The round numbers a simulated game may play: ``rounds`` of them if given, else the
    rules' game (one per double, or ``rules.rounds``, or up to a ``target``: the caller
    stops at :meth:`~cf.rules.Rules.game_over`)."""
    last = rounds or rules.rounds_in_game
    if last is None:  # played to a target: it ends long before this
        last = MAX_TARGET_ROUNDS
    return range(1, last + 1)


def play_round(
    rules: Rules,
    names: Sequence[str],
    strategies: Sequence[Strategy],
    dealt: Deal,
    first: str,
    rng: random.Random,
    k: int = 1,
) -> SimRound:
    """Play one round of ``dealt`` (the yard drawn from its end), ``first`` to move."""
    names = list(names)
    board = Round.dealt(rules, names, dealt.starter, dealt.hands)
    yard = list(dealt.chicken_yard)
    seat = names.index(first)
    moves: list[Move] = []
    # each seat's log of the round as it saw it: others' draws unnamed
    logs: dict[str, list[Move]] = {p: [] for p in names}
    # greedy and random never read the log: without a reader, keeping it costs 10% of a
    # simulation
    keep_logs = any(getattr(s, "reads_log", True) for s in strategies)
    limit = 4 * rules.pool + 4 * len(names)
    while not board.is_over:
        if len(moves) > limit:
            raise SimulationError(
                Message("round {k} did not end after {limit} turns", k=k, limit=limit)
            )
        player = names[seat]
        seat = (seat + 1) % len(names)
        history = logs[player] if keep_logs else None
        action = _turn(board, player, names, strategies, history, yard, rng)
        board.apply(player, action)
        move = Move(player, action)
        moves.append(move)
        if keep_logs:
            _log_seen(logs, move)
    hands = {p: tuple(sorted(board.hands[p].known, reverse=True)) for p in names}
    scores = {p: hand_points(h, rules.double_blank) for p, h in hands.items()}
    if board.winner is not None and board.out_on_double:
        scores[board.winner] = rules.out_on_double
    return SimRound(
        dealt.starter,
        first,
        dict(dealt.hands),
        tuple(moves),
        hands,
        scores,
        board.winner,
        board.winner is None,
    )


def _turn(
    board: Round,
    player: str,
    names: list[str],
    strategies: Sequence[Strategy],
    history: list[Move] | None,
    yard: list[Tile],
    rng: random.Random,
) -> Action:
    """The action ``player`` takes: their strategy's play if a tile fits, else a draw from
    the end of ``yard`` as the ``draw`` house rule says (one tile, played if it fits —
    under ``one-may`` unless the strategy keeps it —, or tiles until one fits), else a
    pass."""
    playable = board.legal_plays(player)
    if playable:
        view = _view(board, player, playable, tuple(history) if history is not None else ())
        choice = strategies[names.index(player)](view, rng)
        if isinstance(choice, Tile):
            return Action(play=board.orient(choice))
        return Action(play=(choice[0], choice[1]))
    rule = board.rules.draw
    draws: list[tuple[int, int]] = []
    left = board.drawable
    while left:
        drawn = yard.pop()
        left -= 1
        draws.append((drawn.high, drawn.low))
        earlier = tuple(draws[:-1])
        if board.fits(drawn):
            strategy = strategies[names.index(player)]
            if rule == DRAW_ONE_MAY and _keeps(strategy, board, player, history, drawn, rng):
                return Action(drew=True, drawn=draws[-1], earlier=earlier)
            return Action(play=board.orient(drawn), drew=True, drawn=draws[-1], earlier=earlier)
        if rule != DRAW_UNTIL or not left:
            return Action(drew=True, drawn=draws[-1], earlier=earlier)
    return Action()


def _keeps(
    strategy: Strategy,
    board: Round,
    player: str,
    history: list[Move] | None,
    drawn: Tile,
    rng: random.Random,
) -> bool:
    """Whether ``strategy`` keeps ``drawn``, which fits, under ``draw: one-may``."""
    keep = getattr(strategy, "keep_drawn", None)
    if keep is None:
        return False
    view = _view(board, player, [], tuple(history) if history is not None else ())
    return bool(keep(view, drawn, rng))


def _log_seen(logs: dict[str, list[Move]], move: Move) -> None:
    """Append ``move`` to every seat's log as that seat saw it: a draw named only to the
    player who drew."""
    action = move.action
    hidden = move
    if action.drew:
        unnamed = (None,) * len(action.earlier)
        hidden = Move(move.player, Action(play=action.play, drew=True, earlier=unnamed))
    for p, log in logs.items():
        log.append(move if p == move.player else hidden)


def view_of(board: Round, player: str, history: Sequence[Move]) -> View:
    """What ``player`` knows of ``board``, given the round's log as they saw it."""
    return _view(board, player, board.legal_plays(player), tuple(history))


def _view(board: Round, player: str, playable: list[Tile], history: tuple[Move, ...]) -> View:
    return View(
        hand=tuple(sorted(board.hands[player].known)),
        playable=tuple(playable),
        open_ends=tuple(board.ends()),
        starter=board.starter,
        pending=board.pending,
        hand_sizes={p: h.size for p, h in board.hands.items()},
        drawable=board.drawable,
        double_blank=board.rules.double_blank,
        seat=player,
        rules=board.rules,
        history=history,
        starter_open=board.arms < board.arms_needed,
    )


# --- studies ------------------------------------------------------------------------------


@dataclass
class Stats:
    """Figures over many simulated games, for a table choosing its house rules."""

    games: int = 0
    rounds: int = 0
    moves: int = 0
    blocked: int = 0
    first_wins: int = 0  # rounds won by the player who moved first
    points: int = 0  # over every player's every round
    points_squared: int = 0
    seat_points: Counter[int] = field(default_factory=Counter)
    seat_rounds: Counter[int] = field(default_factory=Counter)
    strategy_points: Counter[str] = field(default_factory=Counter)
    strategy_rounds: Counter[str] = field(default_factory=Counter)
    strategy_wins: Counter[str] = field(default_factory=Counter)
    strategy_games: Counter[str] = field(default_factory=Counter)

    def add(self, game: SimGame) -> None:
        players = game.players
        for r in game.rounds:
            winner = -1 if r.winner is None else players.index(r.winner)
            first = players.index(r.first)
            self.add_round(game.strategies, [r.scores[p] for p in players], len(r.moves),
                           winner, first)  # fmt: skip
        totals = game.totals
        self.add_game(game.strategies, [totals[p] for p in players])

    def add_round(
        self, strategies: Sequence[str], scores: Sequence[int], moves: int, winner: int, first: int
    ) -> None:
        """One round: each seat's points, its moves, the seat that went out (-1: blocked)
        and the seat that moved first."""
        self.rounds += 1
        self.moves += moves
        self.blocked += winner < 0
        self.first_wins += winner == first
        seat_points, seat_rounds = self.seat_points, self.seat_rounds
        strategy_points, strategy_rounds = self.strategy_points, self.strategy_rounds
        for i, points in enumerate(scores):
            s = strategies[i]
            seat_points[i + 1] += points
            seat_rounds[i + 1] += 1
            strategy_points[s] += points
            strategy_rounds[s] += 1
            self.points += points
            self.points_squared += points * points

    def add_game(self, strategies: Sequence[str], totals: Sequence[int]) -> None:
        """The end of a game: each seat's total (the lowest wins, ties share)."""
        self.games += 1
        best = min(totals)
        for s, total in zip(strategies, totals, strict=True):
            self.strategy_games[s] += 1
            self.strategy_wins[s] += total == best

    def merge(self, other: Stats) -> None:
        for name in (
            "games",
            "rounds",
            "moves",
            "blocked",
            "first_wins",
            "points",
            "points_squared",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in (
            "seat_points",
            "seat_rounds",
            "strategy_points",
            "strategy_rounds",
            "strategy_wins",
            "strategy_games",
        ):
            getattr(self, name).update(getattr(other, name))

    @property
    def spread(self) -> float | int:
        """The standard deviation of one player's points in one round (sample)."""
        n = sum(self.seat_rounds.values())
        if n < 2:
            return 0.0
        # exact in integers: n * sum(x^2) - (sum x)^2, over n (n - 1)
        top, bottom = n * self.points_squared - self.points * self.points, n * (n - 1)
        try:
            return round(math.sqrt(top / bottom), 4)
        except OverflowError:  # points beyond a float (a huge double_blank): whole
            return math.isqrt(top // bottom)

    def as_dict(self) -> dict[str, object]:
        return {
            "games": self.games,
            "rounds": self.rounds,
            "moves_per_round": _ratio(self.moves, self.rounds),
            "blocked_share": _ratio(self.blocked, self.rounds),
            "first_player_wins_share": _ratio(self.first_wins, self.rounds),
            "points_per_player_round": _ratio(self.points, sum(self.seat_rounds.values())),
            "points_spread": self.spread,
            "points_per_round_by_seat": {
                str(s): _ratio(self.seat_points[s], self.seat_rounds[s])
                for s in sorted(self.seat_rounds)
            },
            "by_strategy": {
                s: {
                    "points_per_round": _ratio(self.strategy_points[s], self.strategy_rounds[s]),
                    "win_rate": _ratio(self.strategy_wins[s], self.strategy_games[s]),
                }
                for s in sorted(self.strategy_games)
            },
        }


def _ratio(a: float, b: float) -> float:
    if not b:
        return 0.0
    try:
        return round(a / b, 4)
    except OverflowError:  # points beyond a float (a huge double_blank): exact, whole
        return a // b


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a series: the same whichever process plays it,
    and the one ``cf simulate --seed`` takes to play that game again on its own."""
    return seed + index


def study_chunk(
    players: Sequence[str],
    rules: Rules,
    strategies: Sequence[str],
    seed: int,
    indices: Sequence[int],
    rounds: int | None = None,
    playouts: int | None = None,
    check: bool = False,
) -> Stats:
    """Play the games ``indices`` of a study and sum their figures: on the fast engine
    when every seat can play there (:mod:`cf.play.study`), each round replayed through
    ``Round`` as well with ``check``."""
    from cf.play import study

    stats = Stats()
    fast = study.fast_enough(strategies)
    for i in indices:
        seed_i = game_seed(seed, i)
        if not fast:
            stats.add(simulate_game(players, rules, strategies, seed_i, rounds, playouts))
            continue
        game = study.fast_game(players, rules, strategies, seed_i, rounds, log=check)
        if check:
            study.check_game(game)
        for r in game.rounds:
            stats.add_round(strategies, r.scores, r.moves, r.winner, r.first)
        stats.add_game(strategies, game.totals)
    return stats
