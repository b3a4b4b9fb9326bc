"""``cf explain``: what a problem code means, a failing example and its fix."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cf.commands.common import command_app, fail
from cf.i18n import _, tr

app = command_app()


def complete_code(incomplete: str) -> list[str]:
    """Shell completion: the problem codes that start with what is typed."""
    from cf.record.problems import CODES

    return [code for code in CODES if code.startswith(incomplete.lower())]


@app.command(
    short_help=_("What a problem code means, with an example and its fix."),
    help=_(
        """Tell the long story behind a problem line of cf validate.

    For CODE: what the rule is, a small game file that breaks it, what cf validate says
    about that file, and how to fix it (the lines to change). Without CODE: every code
    with a one-line summary. (The project's file-format page holds the same text: cf
    explain is it, offline.)

    \b
    Examples:
      cf explain
      cf explain foot-open
    """
    ),
)
def explain(
    code: Annotated[
        Optional[str],
        typer.Argument(
            help=_(
                "A problem code, as cf validate prints it in brackets: turn, foot-open, "
                "score-mismatch, … Without it, every code is listed."
            ),
            autocompletion=complete_code,
            show_default=False,
        ),
    ] = None,
) -> None:
    """``cf explain [CODE]``: its help text is in the decorator, marked for translation."""
    from cf.record.explain import UnknownCodeError, explanation
    from cf.render.explain import code_list, explain_text

    if code is None:
        typer.echo(code_list(), nl=False)
        return
    try:
        found = explanation(code)
    except UnknownCodeError as exc:
        fail(tr(exc.args[0]), 2)
    typer.echo(explain_text(found), nl=False)
