"""``cf tally``: standings of a game or a tournament."""

from __future__ import annotations

from typing import Annotated

import typer

from cf.commands.common import (
    FilesArg,
    RankBy,
    command_app,
    read_games,
    table_format,
    write_document,
)

app = command_app()


# --- cf tally ---------------------------------------------------------------------------


@app.command(short_help="Standings of a game or a tournament.")
def tally(
    files: FilesArg = None,
    rank_by: Annotated[
        RankBy,
        typer.Option("--rank-by", help="Tournament order: lower total or average, more wins."),
    ] = RankBy.total,
    format_: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="json, csv, or any tabulate format (simple, github, grid, …).",
        ),
    ] = "simple",
) -> None:
    """Standings: one file gives the game's table, several give a tournament.

    A file with any problem (as cf validate reports them) is not tallied: its problems go
    to stderr and the exit code is 1.

    \b
    Examples:
      cf tally examples/family-night.yaml
      cf tally examples/*.yaml --rank-by average
      cf tally league/*.yaml -f csv > standings.csv
    """
    from cf.record.check import validate as check
    from cf.record.standings import game_standings, tournament
    from cf.render.problems import omitted_lines, problem_line, summary_line
    from cf.render.standings import render_game, render_tournament

    fmt = table_format(format_)
    tallied = []
    failed = False
    count = 0
    for game in read_games(files):
        count += 1
        report = check(game)
        if not report.valid:
            failed = True
            for p in report.problems:
                typer.echo(problem_line(report.file, p), err=True)
            for line in omitted_lines(report):
                typer.echo(line, err=True)
            typer.echo(f"{summary_line(report)}: not tallied", err=True)
            continue
        standing = game_standings(
            game.file,
            game.players,
            report.round_points,  # type: ignore[arg-type]  # a valid game scores every round
            game.top + 1,
        )
        if not standing.complete:
            typer.echo(
                f"note: {game.file} is a partial game: {standing.rounds_played} of "
                f"{standing.rounds_in_game} rounds",
                err=True,
            )
        tallied.append(standing)
    if tallied:
        if count == 1:
            if rank_by is not RankBy.total:
                typer.echo(
                    f"note: --rank-by {rank_by.value} orders tournaments; one game is ranked "
                    "by total",
                    err=True,
                )
            _emit(render_game(tallied[0], fmt), fmt)
        else:
            result = tournament(tallied, rank_by.value)
            if rank_by is RankBy.total and result.uneven_rounds:
                typer.echo(
                    "warning: players played different numbers of rounds; totals do not "
                    "compare, consider --rank-by average",
                    err=True,
                )
            _emit(render_tournament(result, fmt), fmt)
    if failed:
        raise typer.Exit(1)


def _emit(text: str, fmt: str) -> None:
    if fmt in ("json", "csv"):
        write_document(text)
    else:
        typer.echo(text, nl=False)
