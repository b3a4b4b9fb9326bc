"""``cf tally``: standings of a game or a tournament."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from cf.commands.common import (
    FilesArg,
    RankBy,
    command_app,
    complete_table_format,
    fail,
    read_games,
    table_format,
    write_document,
)
from cf.commands.pictures import check_chart, refuse_input, write_chart
from cf.commands.rating import (
    HistoryOpt,
    MinGamesOpt,
    ModelOpt,
    PerOpt,
    TieBreak,
    TieBreakOpt,
)
from cf.i18n import _

if TYPE_CHECKING:
    from cf.record.league import LeagueGame
    from cf.record.reader import Game
    from cf.record.standings import GameStandings, PlayerStats

app = command_app()


# --- cf tally ---------------------------------------------------------------------------


@app.command(
    short_help=_("Standings of a game or a tournament."),
    help=_("""Standings: one file gives the game's table, several give a tournament.

    A file with any problem (as cf validate reports them) is not tallied: its problems go
    to stderr and the exit code is 1. Until a game's last round is in (rules.rounds, else
    one per double), its top is the leader, not the winner, and a tournament counts no
    win from it unless --count-partial.

    \b
    Examples:
      cf tally examples/family-night.yaml
      cf tally game.yaml --after-round 3
      cf tally examples/*.yaml --rank-by average --stats
      cf tally league/*.yaml -f csv > standings.csv
      cf tally examples/*.yaml --chart league.svg
      cf tally examples/league/*.yaml --rank-by rating --history ratings.svg
    """),
)
def tally(
    files: FilesArg = None,
    rank_by: Annotated[
        RankBy,
        typer.Option(
            "--rank-by",
            help=_(
                "Tournament order: lower total or average, more wins, or the "
                "OpenSkill rating (highest ordinal first; --model and --per "
                "choose how it is computed)."
            ),
        ),
    ] = RankBy.total,
    format_: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            autocompletion=complete_table_format,
            help=_("json, csv, markdown (md), or any tabulate format (simple, github, grid, …)."),
        ),
    ] = "simple",
    after_round: Annotated[
        Optional[int],
        typer.Option(
            "--after-round",
            min=1,
            help=_("One game: the standings as they stood after round K."),
            metavar="K",
            show_default=False,
        ),
    ] = None,
    stats: Annotated[
        bool,
        typer.Option(
            "--stats",
            help=_(
                "Add each player's rounds won, times last, highest and "
                "lowest round, average per round and longest streak of "
                "rounds won."
            ),
        ),
    ] = False,
    count_partial: Annotated[
        bool,
        typer.Option(
            "--count-partial",
            help=_("Tournament: a partial game's leaders count as its winners too."),
        ),
    ] = False,
    chart: Annotated[
        Optional[str],
        typer.Option(
            "--chart",
            callback=check_chart,
            metavar="FILE",
            help=_(
                "Also draw each player's running total, round by round, to "
                "this .svg or .png file (PNG needs the charts extra)."
            ),
            show_default=False,
        ),
    ] = None,
    model: ModelOpt = None,
    min_games: MinGamesOpt = None,
    per: PerOpt = None,
    history: HistoryOpt = None,
    tie_break: TieBreakOpt = None,
) -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    from cf.commands.rating import (
        league_entry,
        print_ratings,
        refuse_tie_break_with_rating,
        refuse_without_rating,
    )
    from cf.record.standings import player_stats
    from cf.render.standings import DATA_FORMATS

    rating = rank_by is RankBy.rating
    refuse_without_rating(rating, model=model, min_games=min_games, per=per, history=history)
    refuse_tie_break_with_rating(rating, tie_break, stats)

    fmt = table_format(format_)
    paths = files or ["-"]
    _refuse_repeats(paths)
    refuse_input(chart, paths, "--chart")
    refuse_input(history, paths, "--history")
    if after_round is not None and len(paths) > 1:
        raise typer.BadParameter(_("takes one game file"), param_hint="'--after-round'")
    tallied = []
    league = []
    titles = []
    failed = False
    count = 0
    # One game's table says "partial game" in its last line: said once, not on stderr too.
    table_says = len(paths) == 1 and fmt not in DATA_FORMATS
    for game in read_games(files):
        count += 1
        standing = _standing(game, after_round, note_partial=not table_says)
        if standing is None:
            failed = True
        else:
            tallied.append(standing)
            titles.append(game.title)
            if rating or tie_break:
                league.append(league_entry(game, standing))
    if rating and tallied:
        print_ratings(
            league,
            fmt,
            model=model,
            min_games=min_games,
            history=history,
            count_partial=count_partial,
            per=per,
        )
    elif tallied:
        table_stats = player_stats(tallied) if stats else None
        if count == 1:
            _print_game(tallied[0], rank_by, fmt, table_stats, tie_break, league)
        else:
            _print_tournament(tallied, rank_by, fmt, table_stats, count_partial, tie_break, league)
    if chart is not None and tallied:
        write_chart(tallied, chart, titles[0] if count == 1 else None)
    if failed:
        raise typer.Exit(1)


def _standing(
    game: Game, after_round: int | None, *, note_partial: bool = True
) -> GameStandings | None:
    """The standings of a valid ``game`` (after round ``after_round``, if given), with a
    note on stderr for a partial game (if ``note_partial``); ``None``, its problems on
    stderr, if it is not valid."""
    from cf.record.check import validate
    from cf.record.standings import standings_of
    from cf.render.problems import omitted_lines, problem_line, summary_line

    report = validate(game)
    if not report.valid:
        for p in report.problems:
            typer.echo(problem_line(report.file, p), err=True)
        for line in omitted_lines(report):
            typer.echo(line, err=True)
        typer.echo(
            _("{summary_line}: not tallied").format(summary_line=summary_line(report)), err=True
        )
        return None
    if after_round is not None and after_round > report.rounds:
        fail(
            _("--after-round {after_round}: {file} has {rounds} round(s)").format(
                after_round=after_round, file=game.file, rounds=report.rounds
            ),
            2,
        )
    # a valid game scores every round
    standing = standings_of(game, report.round_points, after_round)  # type: ignore[arg-type]
    if not standing.complete and after_round is None and note_partial:
        from cf.render.standings import how_far

        typer.echo(
            _("note: {file} is a partial game: {how_far}").format(
                file=game.file, how_far=how_far(standing)
            ),
            err=True,
        )
    return standing


def _print_game(
    standing: GameStandings,
    rank_by: RankBy,
    fmt: str,
    stats: list[PlayerStats] | None,
    tie_break: list[TieBreak] | None = None,
    league: list[LeagueGame] | None = None,
) -> None:
    """Print one game's table (a note on stderr if --rank-by asked for a tournament order)."""
    from cf.render.standings import render_game

    if tie_break and league:
        from cf.commands.rating import break_game_ties

        standing = break_game_ties(standing, league[0], tie_break)

    if rank_by is not RankBy.total:
        typer.echo(
            _("note: --rank-by {value} orders tournaments; one game is ranked by total").format(
                value=rank_by.value
            ),
            err=True,
        )
    _emit(render_game(standing, fmt, stats), fmt)


def _print_tournament(
    tallied: list[GameStandings],
    rank_by: RankBy,
    fmt: str,
    stats: list[PlayerStats] | None,
    count_partial: bool,
    tie_break: list[TieBreak] | None = None,
    league: list[LeagueGame] | None = None,
) -> None:
    """Print the tournament of ``tallied`` (a warning on stderr where totals over uneven
    numbers of rounds are ranked)."""
    from cf.record.standings import tournament
    from cf.render.standings import render_tournament

    result = tournament(tallied, rank_by.value, count_partial=count_partial)
    if tie_break and league:
        from cf.commands.rating import break_tournament_ties

        result = break_tournament_ties(result, league, tie_break, count_partial)
    if rank_by is RankBy.total and result.uneven_rounds:
        typer.echo(
            _(
                "warning: players played different numbers of rounds; totals "
                "do not compare, consider --rank-by average"
            ),
            err=True,
        )
    _emit(render_tournament(result, fmt, stats), fmt)


def _refuse_repeats(paths: list[str]) -> None:
    """The same game given twice would count twice: a usage error (exit 2)."""
    seen: dict[object, str] = {}
    for path in paths:
        try:
            st = os.stat(path) if path != "-" else None
        except OSError:
            continue  # read_games reports it
        key = (st.st_dev, st.st_ino) if st is not None else "-"
        if key in seen:
            same = "" if seen[key] == path else f" (the same file as {seen[key]})"
            fail(
                _("{path} is given twice{same}: each game counts once").format(
                    path=path, same=same
                ),
                2,
            )
        seen[key] = path


def _emit(text: str, fmt: str) -> None:
    """A document format goes out as UTF-8 whatever the terminal; a table as text."""
    if fmt in ("json", "csv"):
        write_document(text)
    else:
        typer.echo(text, nl=False)
