"""Tie-breaks for standings (``cf tally --tie-break``): who goes first when totals tie.

Players equal on the ranking criterion are compared by each tie-break in turn, as many as
given; whoever is still equal after the last shares the rank (the default, with none).

- ``wins``: more wins first (a tournament: games won; one game: rounds won);
- ``out-first``: more rounds gone out first;
- ``double-blank``: fewer rounds ended holding the 0-0 (of the rounds whose hands are
  known);
- ``head-to-head``: among the tied players only, who finished ahead of the others more
  often than behind them, in the games they played together (one game: its rounds).

>>> from cf.record.league import game_of
>>> g = game_of("g", ["A", "B", "C"], [{"A": 0, "B": 5, "C": 5}, {"A": 9, "B": 4, "C": 0}])
>>> rank(["A", "B", "C"], {"A": 9, "B": 9, "C": 5}.__getitem__, [g], ["wins"], one_game=True)
[(1, 'C'), (2, 'A'), (3, 'B')]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from cf.i18n import Message
from cf.record.league import LeagueGame

TIE_BREAKS = ("wins", "out-first", "double-blank", "head-to-head")


def rank(
    players: Sequence[str],
    key: Callable[[str], object],
    games: Sequence[LeagueGame],
    breaks: Sequence[str],
    *,
    one_game: bool = False,
    count_partial: bool = False,
) -> list[tuple[int, str]]:
    """``players`` ranked by ``key`` (lower first; stable), ties then broken by ``breaks``
    in turn, counted over ``games``; competition ranks (1, 2, 2, 4)."""
    for b in breaks:
        if b not in TIE_BREAKS:
            raise ValueError(
                Message(
                    "tie-break by {TIE_BREAKS}, not {b!r}", TIE_BREAKS=", ".join(TIE_BREAKS), b=b
                )
            )
    ordered = sorted(players, key=key)  # type: ignore[arg-type]
    groups: list[list[str]] = []
    for p in ordered:
        if groups and key(groups[-1][0]) == key(p):
            groups[-1].append(p)
        else:
            groups.append([p])
    final: list[list[str]] = []
    for group in groups:
        final += _refine(group, list(breaks), games, one_game, count_partial)
    out: list[tuple[int, str]] = []
    place = 1
    for group in final:
        out += [(place, p) for p in group]
        place += len(group)
    return out


def _refine(
    group: list[str], breaks: list[str], games: Sequence[LeagueGame], one_game: bool,
    count_partial: bool,
) -> list[list[str]]:  # fmt: skip
    """``group`` (tied so far) split by the first of ``breaks``, then the rest in turn."""
    if len(group) < 2 or not breaks:
        return [group]
    first, rest = breaks[0], breaks[1:]
    values = _values(first, group, games, one_game, count_partial)
    ordered = sorted(group, key=values.__getitem__)
    out: list[list[str]] = []
    sub: list[str] = []
    for p in ordered:
        if sub and values[sub[0]] != values[p]:
            out += _refine(sub, rest, games, one_game, count_partial)
            sub = []
        sub.append(p)
    out += _refine(sub, rest, games, one_game, count_partial)
    return out


def _values(
    how: str, group: list[str], games: Sequence[LeagueGame], one_game: bool, count_partial: bool
) -> dict[str, int]:
    """Each player's value by tie-break ``how`` (lower is better)."""
    value = dict.fromkeys(group, 0)
    members = set(group)
    for g in games:
        here = members.intersection(g.seating)
        if not here:
            continue
        if how == "wins" and not one_game:
            if g.complete or count_partial:
                for p in here.intersection(g.winners):
                    value[p] -= 1
            continue
        if how == "head-to-head" and not one_game:
            _head_to_head(value, here, g.places)
            continue
        for r in g.rounds:
            low = min(r.points.values())
            for p in here:
                if how == "wins":
                    value[p] -= r.points[p] == low
                elif how == "out-first":
                    value[p] -= r.out == p
                elif how == "double-blank":
                    value[p] += r.double_blank is not None and p in r.double_blank
                else:  # head-to-head, round by round
                    _head_to_head(value, here, r.points)
                    break
    return value


def _head_to_head(value: dict[str, int], here: set[str], score: Mapping[str, int]) -> None:
    """Each of ``here`` gains for every other one it beat (lower ``score``) and loses for
    every other one that beat it."""
    for p in here:
        for q in here:
            if p != q:
                value[p] -= (score[p] < score[q]) - (score[p] > score[q])
