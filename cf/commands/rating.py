"""``cf tally --rank-by rating``: the options and the output of ratings over a league.

Kept out of cf/commands/tally.py, which only declares the options (their types are here)
and hands the games over: the rating table, and with ``--history`` the rating of every
player after each game, as JSON, CSV or a chart.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from cf.commands.common import fail
from cf.i18n import _, ngettext, tr

if TYPE_CHECKING:
    from cf.record.league import LeagueGame
    from cf.record.reader import Game
    from cf.record.standings import GameStandings, Tournament


class Model(str, Enum):
    """The OpenSkill models (cf.record.ratings.MODELS)."""

    plackett_luce = "plackett-luce"
    bradley_terry_full = "bradley-terry-full"
    bradley_terry_part = "bradley-terry-part"
    thurstone_mosteller_full = "thurstone-mosteller-full"
    thurstone_mosteller_part = "thurstone-mosteller-part"


class Per(str, Enum):
    game = "game"
    round = "round"


HISTORY_KINDS = ("json", "csv", "svg", "png")


def _check_history(path: Optional[str]) -> Optional[str]:
    """The ``--history`` option's check: a usage error before anything is printed (a PNG
    without the charts extra too)."""
    if path is not None and _kind(path) not in HISTORY_KINDS:
        raise typer.BadParameter(
            _("{path}: the history is written as .json, .csv, .svg or .png").format(path=path)
        )
    if path is not None and _kind(path) == "png":
        from cf.render.chart import ChartError, check_png

        try:
            check_png()
        except ChartError as exc:
            raise typer.BadParameter(tr(exc)) from None
    return path


def _kind(path: str) -> str:
    return path.rsplit(".", 1)[-1].lower() if "." in path else ""


ModelOpt = Annotated[
    Optional[Model],
    typer.Option(
        "--model",
        help=_("With --rank-by rating: the OpenSkill model [default: plackett-luce]."),
        show_default=False,
    ),
]
MinGamesOpt = Annotated[
    Optional[int],
    typer.Option(
        "--min-games",
        min=1,
        metavar="N",
        help=_(
            "With --rank-by rating: a rating from fewer games is marked provisional [default: 3]."
        ),
        show_default=False,
    ),
]
PerOpt = Annotated[
    Optional[Per],
    typer.Option(
        "--per",
        help=_(
            "With --rank-by rating: one rating update per game (its "
            "final order) or per round (each round's points) [default: "
            "game]."
        ),
        show_default=False,
    ),
]
HistoryOpt = Annotated[
    Optional[str],
    typer.Option(
        "--history",
        callback=_check_history,
        metavar="FILE",
        help=_(
            "With --rank-by rating: also write every player's rating "
            "after each game to FILE: .json, .csv, or a chart (.svg, "
            ".png)."
        ),
        show_default=False,
    ),
]


def refuse_without_rating(rating: bool, **given: object) -> None:
    """The rating options mean nothing to another ranking: a usage error (exit 2)."""
    if rating:
        return
    for name, value in given.items():
        if value is not None:
            option = "--" + name.replace("_", "-")
            raise typer.BadParameter(_("only with --rank-by rating"), param_hint=f"'{option}'")


def league_entry(game: Game, standing: GameStandings) -> LeagueGame:
    """A tallied game as a league game (its points from ``standing``, its date, out and
    0-0 from the file)."""
    from cf.record.league import league_game

    points = [
        {r.player: r.rounds[k] for r in standing.rows} for k in range(standing.rounds_played)
    ]
    return league_game(game, points)


def rated_games(games: Sequence[LeagueGame], count_partial: bool) -> list[LeagueGame]:
    """The games to rate, in date order: complete ones (partial ones too with
    ``count_partial``; a note on stderr names what is left out, and undated games)."""
    from cf.record.league import date_key, in_date_order

    left = [g for g in games if not g.complete and not count_partial]
    if left:
        typer.echo(
            ngettext(
                "note: {count} partial game not rated (--count-partial rates it): {files}",
                "note: {count} partial games not rated (--count-partial rates them): {files}",
                len(left),
            ).format(count=len(left), files=", ".join(g.file for g in left)),
            err=True,
        )
    kept = [g for g in games if g.complete or count_partial]
    undated = [g.file for g in kept if date_key(g.date) is None]
    if undated and len(undated) < len(kept):
        typer.echo(
            _(
                "note: rated after the dated games, in the order given (no YYYY-MM-DD date): "
                "{files}"
            ).format(files=", ".join(undated)),
            err=True,
        )
    return in_date_order(kept)


def print_ratings(
    games: Sequence[LeagueGame],
    fmt: str,
    *,
    model: Model | None,
    min_games: int | None,
    history: str | None,
    count_partial: bool,
    per: Per | None = None,
) -> None:
    """Rate ``games`` and print the table; write the history where asked."""
    from cf.commands.common import write_document
    from cf.commands.pictures import write_output
    from cf.record.ratings import MIN_GAMES, RatingError, rate
    from cf.render.ratings import render_ratings

    try:
        ratings = rate(
            rated_games(games, count_partial),
            (model or Model.plackett_luce).value,
            per=(per or Per.game).value,
            min_games=MIN_GAMES if min_games is None else min_games,
            appearance=[p for g in games for p in g.seating],
        )
    except RatingError as exc:
        fail(tr(exc), 2)
    text = render_ratings(ratings, fmt)
    if fmt in ("json", "csv"):
        write_document(text)
    else:
        typer.echo(text, nl=False)
    if history is not None:
        write_output(_history_bytes(ratings, _kind(history)), history)


def _history_bytes(ratings: object, kind: str) -> bytes:
    from cf.record.ratings import Ratings
    from cf.render.chart import ChartError
    from cf.render.jsontext import dumps
    from cf.render.rating_chart import history_chart_bytes
    from cf.render.ratings import history_csv, history_json

    assert isinstance(ratings, Ratings)
    if kind == "json":
        return dumps(history_json(ratings)).encode("utf-8")
    if kind == "csv":
        return history_csv(ratings).encode("utf-8")
    try:
        return history_chart_bytes(ratings, kind)
    except ChartError as exc:
        fail(tr(exc), 2)


# --- tie-breaks (cf tally --tie-break) -------------------------------------------------


class TieBreak(str, Enum):
    """cf.record.tiebreak.TIE_BREAKS."""

    wins = "wins"
    out_first = "out-first"
    double_blank = "double-blank"
    head_to_head = "head-to-head"


TieBreakOpt = Annotated[
    Optional[list[TieBreak]],
    typer.Option(
        "--tie-break",
        help=_(
            "Order players tied on the ranking by: more wins, more "
            "rounds out first, fewer rounds ending with the 0-0 "
            "(double-blank), or their head-to-head; repeat it for a "
            "second tie-break. Default: tied players share the rank."
        ),
        show_default=False,
    ),
]


def refuse_tie_break_with_rating(
    rating: bool, breaks: list[TieBreak] | None, stats: bool = False
) -> None:
    """Ratings rarely tie and have their own columns: --tie-break and --stats are usage
    errors with them (exit 2)."""
    if rating and breaks:
        raise typer.BadParameter(_("not with --rank-by rating"), param_hint="'--tie-break'")
    if rating and stats:
        raise typer.BadParameter(
            _("not with --rank-by rating (cf player NAME gives a player's figures)"),
            param_hint="'--stats'",
        )


def break_game_ties(
    standing: GameStandings, game: LeagueGame, breaks: Sequence[TieBreak]
) -> GameStandings:
    """One game's standings with the players tied on total put in order by ``breaks``."""
    from dataclasses import replace

    from cf.record.tiebreak import rank

    by_player = {r.player: r for r in standing.rows}
    ranked = rank(
        [r.player for r in standing.rows],
        lambda p: by_player[p].rank,
        [game],
        [b.value for b in breaks],
        one_game=True,
    )
    rows = tuple(replace(by_player[p], rank=k) for k, p in ranked)
    return replace(standing, rows=rows)


def break_tournament_ties(
    result: Tournament,
    games: Sequence[LeagueGame],
    breaks: Sequence[TieBreak],
    count_partial: bool,
) -> Tournament:
    """A tournament with the players tied on its ranking put in order by ``breaks``."""
    from dataclasses import replace

    from cf.record.tiebreak import rank

    by_player = {r.player: r for r in result.rows}
    ranked = rank(
        [r.player for r in result.rows],
        lambda p: by_player[p].rank,
        games,
        [b.value for b in breaks],
        count_partial=count_partial,
    )
    rows = tuple(replace(by_player[p], rank=k) for k, p in ranked)
    return replace(result, rows=rows)
