"""Rendering ratings (``cf tally --rank-by rating``) and their history (``--history``).

Tables go through the same renderer as the other standings (any tabulate format, csv, tsv,
json), so a name is escaped in them exactly as everywhere else. Rating values are rounded
to 2 places in tables and to 6 in data (JSON, CSV), which keeps the output the same
whichever build of ``openskill`` computed it.
"""

from __future__ import annotations

import html

from cf.i18n import N_, _, ngettext
from cf.record.ratings import Rating, Ratings
from cf.render.jsontext import dumps
from cf.render.standings import DATA_FORMATS, HTML_FORMATS, WINNER, _names, _render, _two_places

PROVISIONAL = " ?"
#: Places kept in JSON and CSV.
DATA_PLACES = 6


def _data(value: float) -> float:
    return round(value, DATA_PLACES) + 0.0  # + 0.0: never -0.0


def rating_json(r: Rating) -> dict[str, float]:
    return {"mu": _data(r.mu), "sigma": _data(r.sigma), "ordinal": _data(r.ordinal)}


def ratings_json(ratings: Ratings) -> dict[str, object]:
    """The rating table as JSON data (docs/leagues.md, "JSON")."""
    return {
        "ranked_by": "rating",
        "model": ratings.model,
        "per": ratings.per,
        "min_games": ratings.min_games,
        "standings": [
            {
                "rank": p.rank,
                "player": p.player,
                "games": p.games,
                "rounds": p.rounds,
                "wins": p.wins,
                "total": p.total,
                "average": p.average,
                **rating_json(p.rating),
                "provisional": p.provisional,
            }
            for p in ratings.players
        ],
    }


HEADERS = [
    N_("rank"),
    N_("player"),
    N_("games"),
    N_("rounds"),
    N_("wins"),
    N_("average"),
    "mu",
    "sigma",
    "ordinal",  # SPEC 15: mu, sigma and ordinal (the ranking value), named as in JSON
]
#: How ratings were updated, as the note under the table says it.
PER = {"game": N_("per game"), "round": N_("per round")}


def render_ratings(ratings: Ratings, fmt: str) -> str:
    """The rating table: rank, player, games, rounds, wins, average per round, mu, sigma
    and the rating ranked (the ordinal, mu - 3 sigma). A provisional rating is marked ``?``
    in the formats people read and explained under the table."""
    if fmt == "json":
        return dumps(ratings_json(ratings))
    data = fmt in DATA_FORMATS
    rows: list[list[object]] = []
    for p in ratings.players:
        cells: list[object] = [p.rank, p.player, p.games, p.rounds, p.wins]
        cells.append(_two_places(p.average))
        if data:
            cells += [_data(p.mu), _data(p.sigma), _data(p.ordinal)]
        else:
            cells += [p.mu, p.sigma, p.ordinal]  # two places, as the reader writes decimals
        rows.append(cells)
    if data:
        marked = [[*r, p.provisional] for r, p in zip(rows, ratings.players, strict=True)]
        return _render([*HEADERS, "provisional"], marked, fmt, None)
    for row, p in zip(rows, ratings.players, strict=True):
        if p.provisional:
            row[1] = f"{p.player}{PROVISIONAL}"
    leaders = _names([p.player for p in ratings.players if p.rank == 1])
    per = _(PER[ratings.per]) if ratings.per in PER else ratings.per
    # No game rated: no leader to name (stderr says why).
    note = None
    if leaders:
        note = f"{WINNER.strip()} " + _("leader by rating ({model}, {per}): {names}").format(
            model=ratings.model, per=per, names=leaders
        )
    text = _render(HEADERS, rows, fmt, note)
    if any(p.provisional for p in ratings.players):
        few = f"{PROVISIONAL.strip()} " + ngettext(
            "provisional: fewer than {n} game rated",
            "provisional: fewer than {n} games rated",
            ratings.min_games,
        ).format(n=ratings.min_games)
        text += f"<p>{html.escape(few)}</p>\n" if fmt in HTML_FORMATS else f"{few}\n"
    return text


# --- history ------------------------------------------------------------------------


def history_json(ratings: Ratings) -> dict[str, object]:
    """Every player's rating after each game (docs/leagues.md, "JSON")."""
    return {
        "model": ratings.model,
        "per": ratings.per,
        "games": [
            {
                "game": h.game,
                "file": h.file,
                "date": h.date,
                "ratings": [
                    {"player": p, "played": p in h.played, **rating_json(r)}
                    for p, r in h.ratings.items()
                ],
            }
            for h in ratings.history
        ],
    }


HISTORY_HEADERS = ["game", "file", "date", "player", "played", "mu", "sigma", "ordinal"]


def history_csv(ratings: Ratings) -> str:
    """The history as CSV, one row per game and player rated so far (a long table: any
    spreadsheet pivots it)."""
    rows: list[list[object]] = []
    for h in ratings.history:
        for p, r in h.ratings.items():
            rows.append([h.game, h.file, h.date or "", p, p in h.played, *rating_json(r).values()])
    return _render(HISTORY_HEADERS, rows, "csv", None)
