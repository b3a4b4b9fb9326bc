"""``cf player``: one player's record over a league's game files."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated

import typer

from cf.commands.common import FilesArg, TextJson, command_app, fail, read_games, write_document
from cf.i18n import _, tr

if TYPE_CHECKING:
    from cf.record.league import LeagueGame
    from cf.record.reader import Game

app = command_app()


@app.command(
    short_help=_("A player's record over a league: wins, rounds, head-to-head."),
    help=_("""NAME's record over the game FILES: games, rounds, wins, times out first, points
    per round, best and worst round, 0-0 held, streaks, and head-to-head against every
    opponent met, with the rival (the closest record) and the nemesis (who finished
    ahead of NAME most often). Games are taken in date order (each file's date, then
    the order given).

    A file with any problem (as cf validate reports them) is left out: its problems go to
    stderr and the exit code is 1.

    \b
    Examples:
      cf player Ana examples/league/*.yaml
      cf player felix examples/league/*.yaml --format json
    """),
)
def player(
    name: Annotated[
        str,
        typer.Argument(
            help=_("The player (as cf add matches names: exact, else ignoring case and accents)."),
            show_default=False,
            metavar="NAME",
        ),
    ],
    files: FilesArg = None,
    format_: Annotated[
        TextJson, typer.Option("--format", "-f", help=_("text or json."))
    ] = TextJson.text,
) -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    from cf.record.keeper import EntryError, match_player
    from cf.record.league import in_date_order
    from cf.record.player import player_record, players_of
    from cf.render.player import render_record

    league, failed = _valid_games(read_games(files))
    games = in_date_order(league)
    everyone = players_of(games)
    if not everyone:
        fail(_("no valid game to read a record from"))
    try:
        who = match_player(name, everyone, league=True)
    except EntryError as exc:
        fail(tr(exc))
    text = render_record(player_record(who, games), format_.value)
    if format_ is TextJson.json:
        write_document(text)
    else:
        typer.echo(text, nl=False)
    if failed:
        raise typer.Exit(1)


def _valid_games(games: Iterable[Game]) -> tuple[list[LeagueGame], bool]:
    """The valid games as league games; the problems of the others on stderr."""
    from cf.record.check import validate
    from cf.record.league import league_game
    from cf.render.problems import omitted_lines, problem_line, summary_line

    out = []
    failed = False
    for game in games:
        report = validate(game)
        if not report.valid:
            failed = True
            for p in report.problems:
                typer.echo(problem_line(report.file, p), err=True)
            for line in omitted_lines(report):
                typer.echo(line, err=True)
            typer.echo(
                _("{summary_line}: left out").format(summary_line=summary_line(report)), err=True
            )
            continue
        out.append(league_game(game, report.round_points))  # type: ignore[arg-type]
    return out, failed
