"""A league: the games of a club, each reduced to what ratings, records and tie-breaks need.

A :class:`LeagueGame` keeps, for each round, every player's points, who went out (where
that can be told) and who was left holding the double blank (where the hands are known).
It is built from a validated game file (:func:`league_game`) or from any scores
(:func:`game_of`), so the benchmark's simulated nights and a club's files go through the
same code.

>>> g = game_of("g.yaml", ["Ana", "Ben"], [{"Ana": 0, "Ben": 9}, {"Ana": 4, "Ben": 0}])
>>> g.totals, g.places, g.rounds[0].out
({'Ana': 4, 'Ben': 9}, {'Ana': 1, 'Ben': 2}, 'Ana')
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cf.tiles import Tile

if TYPE_CHECKING:
    from cf.record.reader import Game

DOUBLE_BLANK = Tile(0, 0)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One round's end: points per player (seating order), who went out (``None``: the
    round was blocked, or it cannot be told), and who held the 0-0 at the end (``None``:
    the hands are not known)."""

    points: Mapping[str, int]
    out: str | None = None
    double_blank: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class LeagueGame:
    """One game of a league: its file, date (as written, or ``None``), seating and rounds.

    ``complete`` is false for a game whose last round is not in yet (its leaders are not
    winners)."""

    file: str
    date: str | None
    seating: tuple[str, ...]
    rounds: tuple[RoundResult, ...]
    complete: bool = True

    @property
    def totals(self) -> dict[str, int]:
        """Each player's total, in seating order."""
        return {p: sum(r.points[p] for r in self.rounds) for p in self.seating}

    @property
    def places(self) -> dict[str, int]:
        """Each player's place by total, lowest first, ties sharing a place (1, 2, 2, 4)."""
        totals = self.totals
        return {p: 1 + sum(t < totals[p] for t in totals.values()) for p in self.seating}

    @property
    def winners(self) -> list[str]:
        """Everyone on the lowest total (nobody before any round)."""
        if not self.rounds:
            return []
        return [p for p, place in self.places.items() if place == 1]

    def renamed(self, names: Mapping[str, str]) -> LeagueGame:
        """The same game with players renamed by ``names`` (others kept)."""

        def new(p: str) -> str:
            return names.get(p, p)

        rounds = tuple(
            RoundResult(
                {new(p): v for p, v in r.points.items()},
                None if r.out is None else new(r.out),
                None if r.double_blank is None else frozenset(map(new, r.double_blank)),
            )
            for r in self.rounds
        )
        return LeagueGame(
            self.file, self.date, tuple(map(new, self.seating)), rounds, self.complete
        )


def game_of(
    file: str,
    seating: Sequence[str],
    round_points: Sequence[Mapping[str, int]],
    *,
    date: str | None = None,
    complete: bool = True,
    out: Sequence[str | None] | None = None,
    double_blank: Sequence[frozenset[str] | None] | None = None,
) -> LeagueGame:
    """A league game from its points per round. Without ``out``, the one player on 0 in a
    round is taken as the one who went out (a blocked round leaves everybody holding tiles).
    """
    rounds = []
    for k, points in enumerate(round_points):
        gone = out[k] if out is not None else _only_zero(points)
        held = double_blank[k] if double_blank is not None else None
        rounds.append(RoundResult(dict(points), gone, held))
    return LeagueGame(file, date, tuple(seating), tuple(rounds), complete)


def _only_zero(points: Mapping[str, int]) -> str | None:
    zero = [p for p, v in points.items() if v == 0]
    return zero[0] if len(zero) == 1 else None


def league_game(game: Game, round_points: Sequence[Mapping[str, int]]) -> LeagueGame:
    """A validated ``game`` (``round_points`` as :func:`cf.record.check.validate` found
    them) as a league game: out and 0-0 from the hands where they are recorded or can be
    replayed from the deal and the log, else from the scores (the one player on 0 went
    out; who held the 0-0 is not known)."""
    from cf.rules import Rules

    rules = game.rules or Rules(top=game.top)
    rounds = []
    for rec, points in zip(game.rounds, round_points, strict=False):
        hands = _end_hands(game, rec)
        if hands is None:
            rounds.append(RoundResult(dict(points), _only_zero(points), None))
            continue
        out = next((p for p, h in hands.items() if not h), None)
        held = frozenset(p for p, h in hands.items() if DOUBLE_BLANK in h)
        rounds.append(RoundResult(dict(points), out, held))
    complete = len(round_points) >= rules.rounds_in_game
    return LeagueGame(game.file, game.date, tuple(game.players), tuple(rounds), complete)


def _end_hands(game: Game, rec: object) -> dict[str, frozenset[Tile]] | None:
    """The tiles each player held at the end of round ``rec``, or ``None`` if not known."""
    from cf.record.reader import RoundRecord

    assert isinstance(rec, RoundRecord)
    if rec.hands is not None:
        if any(e.tiles is None for e in rec.hands.values()):
            return None
        return {p: frozenset(e.tiles or ()) for p, e in rec.hands.items()}
    if rec.deal is None or rec.moves is None:
        return None
    from cf.record.replay import replay

    board = replay(game, rec.number).board
    if any(h.unseen for h in board.hands.values()):
        return None
    return {p: frozenset(h.known) for p, h in board.hands.items()}


# --- order ------------------------------------------------------------------------------


def date_key(date: str | None) -> datetime.date | None:
    """The calendar date of a game's ``date`` text (ISO, ``2026-11-28``), or ``None``.

    >>> date_key("2026-11-28"), date_key("last Friday"), date_key(None)
    (datetime.date(2026, 11, 28), None, None)
    """
    if date is None:
        return None
    try:
        return datetime.date.fromisoformat(date.strip()[:10])
    except ValueError:
        return None


def in_date_order(games: Iterable[LeagueGame]) -> list[LeagueGame]:
    """``games`` by date, games of the same date in the order given; games with no
    readable date (ISO, ``YYYY-MM-DD``) after the dated ones, in the order given.

    >>> a, b, c = (game_of(f, ["A", "B"], [], date=d) for f, d in
    ...            [("a", "2026-02-01"), ("b", None), ("c", "2026-01-05")])
    >>> [g.file for g in in_date_order([a, b, c])]
    ['c', 'a', 'b']
    """
    keyed = [(date_key(g.date), i, g) for i, g in enumerate(games)]
    keyed.sort(key=lambda k: (k[0] is None, k[0] or datetime.date.min, k[1]))
    return [g for _, _, g in keyed]
