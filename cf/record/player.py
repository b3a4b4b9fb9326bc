"""A player's record over a league (``cf player NAME FILES…``): one place for their story.

Everything is counted from :class:`~cf.record.league.LeagueGame` values, games in date
order (streaks follow it):

- a game is *won* by everyone on its lowest total, counted for complete games only;
- a round is *won* by whoever scored least in it (as ``cf tally --stats``); *out first*
  is going out (an empty hand; in a round scored by totals only, the one player on 0);
- *0-0 held* counts rounds that ended with the double blank in the player's hand, of the
  rounds whose hands are known (recorded, or replayed from the deal and the log);
- head-to-head, for each opponent met: games together, how often the player finished
  ahead of, behind or level with them (by the game's totals), and the *margin per round*:
  the opponent's points less the player's, per round played together (positive: the
  player scored less, which is better);
- the *rival* is the opponent with the closest head-to-head (the smallest difference
  between finishes ahead and behind, among those met in the most games), the *nemesis*
  the one who finished ahead of the player most often (none if nobody ever did).

>>> from cf.record.league import game_of
>>> g1 = game_of("a", ["Ana", "Ben"], [{"Ana": 0, "Ben": 9}, {"Ana": 5, "Ben": 0}])
>>> g2 = game_of("b", ["Ana", "Ben"], [{"Ana": 20, "Ben": 0}])
>>> r = player_record("Ana", [g1, g2])
>>> r.games, r.wins, r.out_first, r.best.points, r.worst.points, r.nemesis
(2, 1, 1, 0, 20, 'Ben')
>>> h = r.head_to_head[0]
>>> h.opponent, h.games, h.ahead, h.behind, h.rounds, h.margin_per_round
('Ben', 2, 1, 1, 3, -5.333333333333333)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cf.record.league import LeagueGame
from cf.record.standings import average


@dataclass(frozen=True, slots=True)
class RoundRef:
    """A round of a game: its points for the player, the game's file and the round number."""

    points: int
    file: str
    round: int


@dataclass(frozen=True, slots=True)
class HeadToHead:
    opponent: str
    games: int
    ahead: int
    behind: int
    level: int
    rounds: int
    #: The opponent's points less the player's, over the rounds played together.
    margin: int

    @property
    def margin_per_round(self) -> float | int:
        return average(self.margin, self.rounds)


@dataclass(frozen=True, slots=True)
class Streaks:
    """The longest runs: games won in a row (games the player played), rounds won in a
    row and rounds gone out first in a row (each within one game)."""

    games_won: int
    rounds_won: int
    out_first: int


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    player: str
    games: int
    rounds: int
    wins: int
    rounds_won: int
    out_first: int
    total: int
    best: RoundRef | None
    worst: RoundRef | None
    double_blank_held: int
    double_blank_known: int
    streaks: Streaks
    head_to_head: tuple[HeadToHead, ...]
    rival: str | None
    nemesis: str | None
    first_date: str | None = None
    last_date: str | None = None

    @property
    def average(self) -> float | int:
        return average(self.total, self.rounds)


def players_of(games: Sequence[LeagueGame]) -> list[str]:
    """Everyone who played in ``games``, in order of first appearance."""
    order: dict[str, None] = {}
    for g in games:
        order.update(dict.fromkeys(g.seating))
    return list(order)


def player_record(player: str, games: Sequence[LeagueGame]) -> PlayerRecord:
    """``player``'s record over ``games`` (taken in the order given: date order is the
    caller's, :func:`cf.record.league.in_date_order`)."""
    mine = [g for g in games if player in g.seating]
    rounds = wins = rounds_won = out_first = total = held = known = 0
    best: RoundRef | None = None
    worst: RoundRef | None = None
    run_games = long_games = long_rounds = long_out = 0
    meet: dict[str, list[int]] = {}  # games, ahead, behind, level, rounds, margin
    for g in mine:
        places = g.places
        won = g.complete and places[player] == 1
        wins += won
        run_games = run_games + 1 if won else 0 if g.complete else run_games
        long_games = max(long_games, run_games)
        run_rounds = run_out = 0
        for k, r in enumerate(g.rounds, 1):
            points = r.points[player]
            rounds += 1
            total += points
            if best is None or points < best.points:
                best = RoundRef(points, g.file, k)
            if worst is None or points > worst.points:
                worst = RoundRef(points, g.file, k)
            if points == min(r.points.values()):
                rounds_won += 1
                run_rounds += 1
            else:
                run_rounds = 0
            long_rounds = max(long_rounds, run_rounds)
            if r.out == player:
                out_first += 1
                run_out += 1
            else:
                run_out = 0
            long_out = max(long_out, run_out)
            if r.double_blank is not None:
                known += 1
                held += player in r.double_blank
        for other in g.seating:
            if other == player:
                continue
            m = meet.setdefault(other, [0, 0, 0, 0, 0, 0])
            m[0] += 1
            m[1] += places[player] < places[other]
            m[2] += places[player] > places[other]
            m[3] += places[player] == places[other]
            m[4] += len(g.rounds)
            m[5] += sum(r.points[other] - r.points[player] for r in g.rounds)
    # most games together first; equal counts in the order first met
    h2h = tuple(sorted((HeadToHead(o, *m) for o, m in meet.items()), key=lambda h: -h.games))
    dates = [g.date for g in mine if g.date]
    return PlayerRecord(
        player,
        len(mine),
        rounds,
        wins,
        rounds_won,
        out_first,
        total,
        best,
        worst,
        held,
        known,
        Streaks(long_games, long_rounds, long_out),
        h2h,
        _rival(h2h),
        _nemesis(h2h),
        dates[0] if dates else None,
        dates[-1] if dates else None,
    )


def _rival(h2h: Sequence[HeadToHead]) -> str | None:
    """The closest record: the smallest gap between finishes ahead and behind, then the
    most games together, then the smallest margin per round, then first met."""
    if not h2h:
        return None
    return min(
        h2h, key=lambda h: (abs(h.ahead - h.behind), -h.games, abs(h.margin_per_round))
    ).opponent


def _nemesis(h2h: Sequence[HeadToHead]) -> str | None:
    """Who finished ahead of the player most often (then by share of games, then by
    margin), or ``None`` if nobody ever did."""
    beaten = [h for h in h2h if h.behind]
    if not beaten:
        return None
    return max(beaten, key=lambda h: (h.behind, h.behind / h.games, -h.margin_per_round)).opponent
