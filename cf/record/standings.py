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
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class GameRow:
    rank: int
    player: str
    rounds: tuple[int, ...]
    total: int


@dataclass(frozen=True, slots=True)
class GameStandings:
    file: str
    seating: tuple[str, ...]
    rows: tuple[GameRow, ...]
    rounds_played: int
    rounds_in_game: int | None = None

    @property
    def complete(self) -> bool:
        return self.rounds_in_game is None or self.rounds_played >= self.rounds_in_game

    @property
    def winners(self) -> list[str]:
        """Everyone tied on the lowest total (nobody, in a game with no rounds)."""
        if not self.rounds_played:
            return []
        return [r.player for r in self.rows if r.rank == 1]


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
) -> GameStandings:
    """One game: each player's points per round and total, lowest total first."""
    totals = {p: sum(r[p] for r in round_points) for p in players}
    ranked = competition_rank(list(players), key=lambda p: totals[p])
    rows = tuple(
        GameRow(rank, p, tuple(r[p] for r in round_points), totals[p]) for rank, p in ranked
    )
    return GameStandings(file, tuple(players), rows, len(round_points), rounds_in_game)


_KEYS: dict[str, Callable[[TournamentRow], object]] = {
    "total": lambda r: r.total,
    "average": lambda r: Fraction(r.total, r.rounds) if r.rounds else float("inf"),
    "wins": lambda r: -r.wins,
}


def tournament(games: Sequence[GameStandings], rank_by: str = "total") -> Tournament:
    """Several games: players matched by name, wins to every player tied on a game's
    lowest total, ranked by ``total`` or ``average`` (lower first) or ``wins`` (more first)."""
    if rank_by not in _KEYS:
        raise ValueError(f"rank by total, average or wins, not {rank_by!r}")
    order: list[str] = []
    acc: dict[str, list[int]] = {}  # games, rounds, wins, total
    for g in games:
        winners = set(g.winners)
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
