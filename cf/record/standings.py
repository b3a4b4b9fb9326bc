"""Standings: one game's table, or a tournament across many games (``cf tally``).

Lowest total ranks first. Ranks are competition ranks (1, 2, 2, 4); players equal on the
ranking criterion keep their order of first appearance.

>>> g = game_standings("g.yaml", ["Ana", "Ben", "Cy"], [{"Ana": 5, "Ben": 0, "Cy": 5}])
>>> [(r.rank, r.player, r.total) for r in g.rows]
[(1, 'Ben', 0), (2, 'Ana', 5), (2, 'Cy', 5)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from cf.i18n import Message

if TYPE_CHECKING:
    from cf.record.reader import Game

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class GameRow:
    rank: int
    player: str
    rounds: tuple[int, ...]
    total: int
    #: Places gained since the previous round (positive: moved up; 0 after round 1).
    movement: int = 0

    @property
    def this_round(self) -> int | None:
        """Points of the latest round, or ``None`` before any round."""
        return self.rounds[-1] if self.rounds else None


@dataclass(frozen=True, slots=True)
class GameStandings:
    file: str
    seating: tuple[str, ...]
    rows: tuple[GameRow, ...]
    rounds_played: int
    #: Rounds that make the game complete (``Rules.rounds_in_game``); ``None``: unknown,
    #: taken as complete (unless the game is played to a ``target``).
    rounds_in_game: int | None = None
    #: The ``rules.target`` of a game played to a target total, else ``None``.
    target: int | None = None

    @property
    def complete(self) -> bool:
        """All the game's rounds are in (``rules.rounds``, else one per double), or, in a
        game played to a ``target``, a total has reached it."""
        if self.target is not None:
            if self.rounds_in_game is not None and self.rounds_played >= self.rounds_in_game:
                return True
            return any(r.total >= self.target for r in self.rows)
        return self.rounds_in_game is None or self.rounds_played >= self.rounds_in_game

    @property
    def reached(self) -> GameRow | None:
        """In a game played to a ``target``, the first in seating order of the players
        whose total reached it (``None`` if nobody has)."""
        if self.target is None:
            return None
        hit = [r for r in self.rows if r.total >= self.target]
        if not hit:
            return None
        return min(hit, key=lambda r: self.seating.index(r.player))

    @property
    def top(self) -> list[str]:
        """Everyone tied on the lowest total; nobody before any round is in."""
        if not self.rounds_played:
            return []
        return [r.player for r in self.rows if r.rank == 1]

    @property
    def winners(self) -> list[str]:
        """The top once the game is complete; nobody before (they are only *leaders*)."""
        return self.top if self.complete else []

    @property
    def leaders(self) -> list[str]:
        """The top while the game is not complete; nobody after (they are *winners*)."""
        return [] if self.complete else self.top


@dataclass(frozen=True, slots=True)
class TournamentRow:
    rank: int
    player: str
    games: int
    rounds: int
    wins: int
    total: int

    @property
    def average(self) -> float | int:
        """Points per round: a float, or for totals beyond a float the whole-number part."""
        return average(self.total, self.rounds)


def average(total: int, rounds: int) -> float | int:
    """``total / rounds``, exact enough for any size of total (scores are unbounded)."""
    if not rounds:
        return 0.0
    try:
        return total / rounds
    except OverflowError:
        return total // rounds


@dataclass(frozen=True, slots=True)
class Tournament:
    rows: tuple[TournamentRow, ...]
    ranked_by: str

    @property
    def uneven_rounds(self) -> bool:
        """Players did not all play the same number of rounds (totals don't compare)."""
        return len({r.rounds for r in self.rows}) > 1


def competition_rank(items: Sequence[T], key: Callable[[T], object]) -> list[tuple[int, T]]:
    """Sort ``items`` by ``key`` (stable) and give equal keys the same rank: 1, 2, 2, 4."""
    ordered = sorted(items, key=key)  # type: ignore[arg-type]
    ranked: list[tuple[int, T]] = []
    for i, item in enumerate(ordered):
        if i and key(item) == key(ordered[i - 1]):
            ranked.append((ranked[-1][0], item))
        else:
            ranked.append((i + 1, item))
    return ranked


def game_standings(
    file: str,
    players: Sequence[str],
    round_points: Sequence[dict[str, int]],
    rounds_in_game: int | None = None,
    target: int | None = None,
) -> GameStandings:
    """One game: each player's points per round and total, lowest total first, and how
    many places each moved since the previous round.

    >>> g = game_standings("g", ["A", "B"], [{"A": 0, "B": 5}, {"A": 9, "B": 0}], 10)
    >>> [(r.rank, r.player, r.movement) for r in g.rows], g.leaders, g.winners
    ([(1, 'B', 1), (2, 'A', -1)], ['B'], [])
    """
    totals = {p: sum(r[p] for r in round_points) for p in players}
    ranked = competition_rank(list(players), key=lambda p: totals[p])
    before: dict[str, int] = {}
    if len(round_points) > 1:
        last = round_points[-1]
        earlier = {p: totals[p] - last[p] for p in players}
        before = {p: rank for rank, p in competition_rank(list(players), key=earlier.__getitem__)}
    rows = tuple(
        GameRow(
            rank,
            p,
            tuple(r[p] for r in round_points),
            totals[p],
            before[p] - rank if before else 0,
        )
        for rank, p in ranked
    )
    return GameStandings(file, tuple(players), rows, len(round_points), rounds_in_game, target)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """What a family asks about a player, over the rounds of one game or many.

    A round is *won* by whoever scored least in it (the player who went out scores 0,
    and nobody less; in a blocked round, the lowest hand), ties shared; a player is
    *last* in a round where nobody scored more, ties shared (a round everybody scored
    alike has no last).
    """

    player: str
    rounds: int
    rounds_won: int
    times_last: int
    highest: int | None
    lowest: int | None
    average: float | int
    longest_streak: int


def player_stats(games: Sequence[GameStandings]) -> list[PlayerStats]:
    """Each player's round statistics over ``games``, in order of first appearance.
    A streak of rounds won never spans two games.

    >>> g = game_standings("g", ["A", "B"], [{"A": 0, "B": 5}, {"A": 0, "B": 0}, {"A": 4, "B": 0}])
    >>> [(s.player, s.rounds_won, s.times_last, s.longest_streak) for s in player_stats([g])]
    [('A', 2, 1, 2), ('B', 2, 1, 2)]
    """
    order: list[str] = []
    points: dict[str, list[int]] = {}
    won: dict[str, int] = {}
    last: dict[str, int] = {}
    streak: dict[str, int] = {}
    for g in games:
        by_player = {r.player: r.rounds for r in g.rows}
        running = dict.fromkeys(g.seating, 0)
        for p in g.seating:
            if p not in points:
                order.append(p)
                points[p], won[p], last[p], streak[p] = [], 0, 0, 0
        for k in range(g.rounds_played):
            scores = {p: by_player[p][k] for p in g.seating}
            low, high = min(scores.values()), max(scores.values())
            for p, value in scores.items():
                points[p].append(value)
                if value == low:
                    won[p] += 1
                    running[p] += 1
                    streak[p] = max(streak[p], running[p])
                else:
                    running[p] = 0
                last[p] += value == high > low
    return [
        PlayerStats(
            p,
            len(points[p]),
            won[p],
            last[p],
            max(points[p], default=None),
            min(points[p], default=None),
            average(sum(points[p]), len(points[p])),
            streak[p],
        )
        for p in order
    ]


_KEYS: dict[str, Callable[[TournamentRow], object]] = {
    "total": lambda r: r.total,
    "average": lambda r: Fraction(r.total, r.rounds) if r.rounds else float("inf"),
    "wins": lambda r: -r.wins,
}


def tournament(
    games: Sequence[GameStandings], rank_by: str = "total", *, count_partial: bool = False
) -> Tournament:
    """Several games: players matched by name, wins to every player tied on a game's
    lowest total, ranked by ``total`` or ``average`` (lower first) or ``wins`` (more first).

    Only a complete game has winners; with ``count_partial`` the leaders of a partial
    game count as its winners too."""
    if rank_by not in _KEYS:
        raise ValueError(
            Message("rank by total, average or wins, not {rank_by!r}", rank_by=rank_by)
        )
    order: list[str] = []
    acc: dict[str, list[int]] = {}  # games, rounds, wins, total
    for g in games:
        winners = set(g.top if count_partial else g.winners)
        for row in sorted(g.rows, key=lambda r: g.seating.index(r.player)):
            if row.player not in acc:
                order.append(row.player)
                acc[row.player] = [0, 0, 0, 0]
            a = acc[row.player]
            a[0] += 1
            a[1] += len(row.rounds)
            a[2] += row.player in winners
            a[3] += row.total
    rows = [TournamentRow(0, p, *acc[p]) for p in order]
    ranked = competition_rank(rows, key=_KEYS[rank_by])
    return Tournament(
        tuple(
            TournamentRow(rank, r.player, r.games, r.rounds, r.wins, r.total) for rank, r in ranked
        ),
        rank_by,
    )


def standings_of(
    game: Game, round_points: Sequence[dict[str, int]], after_round: int | None = None
) -> GameStandings:
    """A validated game's standings (after round ``after_round``, else after the last),
    complete when the rules' number of rounds is in, or a total reached ``rules.target``."""
    from cf.rules import Rules

    rules = game.rules or Rules(top=game.top)
    points = round_points if after_round is None else round_points[:after_round]
    return game_standings(game.file, game.players, points, rules.rounds_in_game, rules.target)
