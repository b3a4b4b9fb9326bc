"""``cf undo``: remove the last round, safely, and say how to put it back."""

from __future__ import annotations

from typing import Annotated

import typer

from cf.commands.common import command_app, fail, os_failure
from cf.i18n import _, tr

app = command_app()


@app.command(
    short_help=_("Remove the last round; print how to put it back."),
    help=_("""Remove the last round of FILE and print the cf add command that puts it back
    (for a round with a deal, a move log, a starter or notes, the removed YAML text
    instead).

    Same safety as cf add: the file as it would be is checked first, and the write is
    atomic and locked and leaves every other byte as it was.

    \b
    Examples:
      cf undo friday.yaml
    """),
)
def undo(
    file: Annotated[
        str, typer.Argument(help=_("The game file."), show_default=False, metavar="FILE")
    ],
) -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    from cf.commands.add import _check_file, _print_problems, _read, refuse_file
    from cf.files import WriteError, atomic_write, locked
    from cf.record.edit import EditError, UnreadableRounds
    from cf.record.keeper import EntryError, FileError
    from cf.record.reader import read_game
    from cf.record.undo import restore_command, undo_last

    _check_file(file)
    try:
        with locked(file):
            text = _read(file)
            try:
                result = undo_last(text, file)
            except (FileError, UnreadableRounds) as exc:
                refuse_file(exc, read_game(text, file))
            except (EntryError, EditError) as exc:
                fail(tr(exc))
            if not result.change.report.valid:
                _print_problems(result.change.report)
                raise typer.Exit(1)
            atomic_write(file, result.change.text, overwrite=True)
    except OSError as exc:  # the write itself, or the lock file beside FILE
        fail(
            tr(exc)
            if isinstance(exc, WriteError)
            else _("cannot write {file}: {exc}").format(file=file, exc=os_failure(exc))
        )
    game = result.change.game
    number = result.removed.number
    command = restore_command(file, game, result.removed, result.removed_text, result.change.text)
    if command is not None:
        typer.echo(_("removed round {number}; to put it back:").format(number=number))
        typer.echo(f"  {command}")
    else:
        typer.echo(_("removed round {number}, which was:").format(number=number))
        typer.echo(_dedent(result.removed_text))


def _dedent(text: str) -> str:
    import textwrap

    return textwrap.dedent(text.replace("\r\n", "\n")).rstrip("\n")
