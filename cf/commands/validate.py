"""``cf validate``: check recorded games against the rules."""

from __future__ import annotations

from typing import Annotated

import typer

from cf.commands.common import (
    FilesArg,
    ValidateFormat,
    command_app,
    read_games,
    write_document,
)
from cf.i18n import _

app = command_app()


# --- cf validate ------------------------------------------------------------------------


@app.command(
    short_help=_("Check recorded games against the rules."),
    help=_("""Replay recorded games against every rule and report each problem.

    One line per problem, FILE:LINE:COL: round R, move M: [code] message, then a summary
    line per file. Exit 0 when every file is valid, 1 when any has a problem.
    cf explain CODE tells what a code means, with a failing example and its fix.

    \b
    Examples:
      cf validate examples/*.yaml
      cf validate game.yaml --format json
      cf validate games/*.yaml --format sarif > cf.sarif
    """),
)
def validate(
    files: FilesArg = None,
    format_: Annotated[
        ValidateFormat,
        typer.Option(
            "--format",
            "-f",
            help=_(
                "text, json, github (workflow annotations) or sarif (SARIF "
                "2.1.0, for code scanning)."
            ),
        ),
    ] = ValidateFormat.text,
) -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    from cf.record.check import validate as check
    from cf.render.problems import render_validation

    reports = [check(game) for game in read_games(files)]
    text = render_validation(reports, format_.value)
    if format_ is ValidateFormat.json:
        write_document(text)
    else:
        typer.echo(text, nl=False)
    if any(not r.valid for r in reports):
        raise typer.Exit(1)
