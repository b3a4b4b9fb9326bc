"""Skill ratings over a league with OpenSkill (``cf tally --rank-by rating``).

The ``openskill`` package does the arithmetic (Weng and Lin's Bayesian approximation; the
package is the reference, see tests/test_ratings.py); cf chooses what a result is, puts
the games in order and keeps the books:

- one update per game (or, with ``per="round"``, per round, each result taken as noisier:
  :data:`ROUND_BETA`), games in date order
  (:func:`cf.record.league.in_date_order`);
- a game's result is its final order by total, lowest first, players on the same total
  tied (a round's: its points);
- every player starts at mu 25, sigma 25/3; the ranking value is the *ordinal*,
  mu - 3 sigma, a cautious estimate that rises as the rating gets surer;
- a player with fewer than ``min_games`` games rated is *provisional*.

``openskill`` is imported here only, when ratings are asked for: the rest of cf never
loads it.

>>> from cf.record.league import game_of
>>> g = game_of("g", ["Ana", "Ben"], [{"Ana": 0, "Ben": 20}])
>>> r = rate([g, g], min_games=2)
>>> [(p.rank, p.player, p.games, p.provisional) for p in r.players]
[(1, 'Ana', 2, False), (2, 'Ben', 2, False)]
>>> r.players[0].mu > 25 > r.players[1].mu
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cf.errors import Error
from cf.i18n import Message
from cf.record.league import LeagueGame
from cf.record.standings import average

#: The model names cf accepts, and the ``openskill.models`` class of each.
MODELS = {
    "plackett-luce": "PlackettLuce",
    "bradley-terry-full": "BradleyTerryFull",
    "bradley-terry-part": "BradleyTerryPart",
    "thurstone-mosteller-full": "ThurstoneMostellerFull",
    "thurstone-mosteller-part": "ThurstoneMostellerPart",
}
DEFAULT_MODEL = "plackett-luce"
#: Fewer games rated than this: the rating is provisional.
MIN_GAMES = 3
#: What one rating update is: a whole game (its final totals) or each round (its points).
UNITS = ("game", "round")
#: Rated per round, a result is taken as four times noisier than OpenSkill's default
#: (beta 25/6): one round is mostly the luck of the deal. Chosen on bench/ratings.py's
#: simulated clubs (seed 2026) and checked on fresh ones (seed 2027): docs/leagues.md.
ROUND_BETA = 4 * 25 / 6


class RatingError(Error, ValueError):
    """Ratings cannot be made: an unknown model, or the ``openskill`` package missing."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill estimate: ``mu`` (the estimate), ``sigma`` (its uncertainty) and
    ``ordinal`` (mu - 3 sigma, the value ranked)."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class PlayerRating:
    rank: int
    player: str
    games: int
    rounds: int
    wins: int
    total: int
    rating: Rating
    provisional: bool

    @property
    def mu(self) -> float:
        return self.rating.mu

    @property
    def sigma(self) -> float:
        return self.rating.sigma

    @property
    def ordinal(self) -> float:
        return self.rating.ordinal

    @property
    def average(self) -> float | int:
        return average(self.total, self.rounds)


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """The ratings after game ``game`` (1-based, in the order rated) of everyone rated so
    far; ``played`` says who was at that game (the others' ratings did not move)."""

    game: int
    file: str
    date: str | None
    ratings: Mapping[str, Rating]
    played: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Ratings:
    model: str
    per: str
    min_games: int
    players: tuple[PlayerRating, ...]
    history: tuple[HistoryPoint, ...]


def _model(name: str, tau: float | None = None, beta: float | None = None) -> Any:
    """The ``openskill`` model called ``name`` (defaults as the package sets them, but
    ``tau`` and ``beta`` where given)."""
    if name not in MODELS:
        raise RatingError(
            Message(
                "unknown rating model {name!r}: one of {MODELS}",
                name=name,
                MODELS=", ".join(MODELS),
            )
        )
    try:
        from openskill import models
    except ImportError:  # pragma: no cover - openskill is a dependency of cf
        raise RatingError(
            Message("ratings need the openskill package: pip install openskill")
        ) from None
    kind = getattr(models, MODELS[name])
    options = {k: v for k, v in (("tau", tau), ("beta", beta)) if v is not None}
    return kind(**options)


def outcomes(game: LeagueGame, per: str) -> list[dict[str, int]]:
    """The results one game gives to rate: its places by total (``per="game"``) or each
    round's points (``per="round"``); lower is better, equal values are ties."""
    if per == "game":
        return [game.places] if game.rounds else []
    if per == "round":
        return [dict(r.points) for r in game.rounds]
    raise RatingError(Message("rate per game or per round, not {per!r}", per=per))


def rate(
    games: Sequence[LeagueGame],
    model: str = DEFAULT_MODEL,
    *,
    per: str = "game",
    min_games: int = MIN_GAMES,
    tau: float | None = None,
    beta: float | None = None,
    appearance: Sequence[str] = (),
) -> Ratings:
    """Rate the players of ``games``, taken in the order given (put them in date order
    first: :func:`cf.record.league.in_date_order`). A game without rounds changes nothing.
    Ranked by ordinal, highest first; equal ordinals share a rank, in order of first
    appearance: the order of ``appearance`` (the players as they first appear in the files
    in the order given, where that is not date order), then as rated. ``tau`` is the
    model's dynamics (how much a rating may drift between two updates) and ``beta`` how
    noisy one result is; ``None``: openskill's defaults (25/300 and 25/6), but
    :data:`ROUND_BETA` per round."""
    if per == "round" and beta is None:
        beta = ROUND_BETA
    os_model = _model(model, tau, beta)
    current: dict[str, Any] = {}
    books: dict[str, list[int]] = {}  # games, rounds, wins, total
    history: list[HistoryPoint] = []
    for number, game in enumerate(games, 1):
        for p in game.seating:
            if p not in current:
                current[p] = os_model.rating(name=p)
                books[p] = [0, 0, 0, 0]
        for result in outcomes(game, per):
            _update(os_model, current, result)
        winners = set(game.winners)
        for p, total in game.totals.items():
            b = books[p]
            b[0] += 1
            b[1] += len(game.rounds)
            b[2] += p in winners
            b[3] += total
        history.append(
            HistoryPoint(
                number,
                game.file,
                game.date,
                {p: Rating(r.mu, r.sigma) for p, r in current.items()},
                game.seating,
            )
        )
    rows = [
        PlayerRating(0, p, *_four(books[p]), Rating(r.mu, r.sigma), books[p][0] < min_games)
        for p, r in current.items()
    ]
    first = {p: i for i, p in enumerate(dict.fromkeys(appearance))}
    rows.sort(key=lambda r: first.get(r.player, len(first)))  # stable: then as rated
    # Ratings equal to the precision shown (openskill's results differ in the last bits with
    # the order of a game's players) are a tie.
    ranked = _ranked(rows, key=lambda r: -round(r.ordinal, 6))
    return Ratings(model, per, min_games, tuple(ranked), tuple(history))


def _four(b: list[int]) -> tuple[int, int, int, int]:
    return b[0], b[1], b[2], b[3]


def _update(os_model: Any, current: dict[str, Any], result: Mapping[str, int]) -> None:
    """One OpenSkill update: each player a team of one, ``result`` their ranks."""
    players = list(result)
    teams = [[current[p]] for p in players]
    new = os_model.rate(teams, ranks=[float(result[p]) for p in players])
    for p, team in zip(players, new, strict=True):
        current[p] = team[0]


def _ranked(rows: list[PlayerRating], key: Callable[[PlayerRating], float]) -> list[PlayerRating]:
    from dataclasses import replace

    from cf.record.standings import competition_rank

    return [replace(r, rank=rank) for rank, r in competition_rank(rows, key)]
