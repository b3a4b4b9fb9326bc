"""What the picture-making commands share: writing their output, and ``--chart``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional

import typer

from cf.commands.common import cannot_write_output, fail
from cf.i18n import _, tr

if TYPE_CHECKING:
    from cf.record.standings import GameStandings


def write_output(data: str | bytes, output: Optional[str]) -> None:
    """``data`` to stdout (no ``output``, or ``-``) or to the file ``output``, written
    atomically and replacing what was there (a picture is made again and again), then
    ``wrote FILE`` on stderr (stdout stays what a script pipes on)."""
    if output is None or output == "-":
        typer.echo(data, nl=False)
        return
    from cf.files import WriteError, WriteFailed, atomic_write

    try:
        atomic_write(output, data, overwrite=True)
    except WriteFailed as exc:  # a full disk, no permission: SPEC §7's words
        fail(cannot_write_output(exc))
    except WriteError as exc:
        fail(tr(exc))
    typer.echo(_("wrote {output}").format(output=output), err=True)


def refuse_input(output: Optional[str], inputs: Sequence[str], option: str) -> None:
    """Refuse, before anything is read or written, an output that cannot be one: no name,
    a folder, a file in a folder that is not there, or one of the command's inputs (the
    same file, after links), which it would replace while reading it. Each is a bad
    option value, a usage error (exit 2), as ``cf simulate -o`` says them; a file that is
    there but cannot be written (read-only, a full disk) is exit 1, when it is written."""
    if output is None or output == "-":
        return
    import os

    from cf.files import same_file, target

    if not output:
        fail(_("{option}: give a file name").format(option=option), 2)
    if os.path.isdir(output):
        fail(_("{output} is a folder").format(output=output), 2)
    if not os.path.isdir(os.path.dirname(os.path.abspath(target(output)))):
        fail(_("cannot write {output}: no such folder").format(output=output), 2)

    for path in inputs:
        if path != "-" and same_file(output, path):
            same = "" if output == path else f" ({path})"
            fail(
                _("{output} is one of the inputs{same}: {option} would write over it").format(
                    output=output, same=same, option=option
                ),
                2,
            )


def check_chart(path: Optional[str]) -> Optional[str]:
    """The ``--chart`` option's check: a usage error before anything is printed."""
    from cf.render.chart import ChartError, chart_kind, check_png

    if path == "":
        raise typer.BadParameter(_("give a file name"))
    if path is not None:
        try:
            if chart_kind(path) == "png":
                check_png()
        except ChartError as exc:
            raise typer.BadParameter(tr(exc)) from None
    return path


def write_chart(games: Sequence[GameStandings], path: str, title: str | None = None) -> None:
    """``cf tally --chart``: write the chart of ``games`` (one game: its ``title``), or
    fail with one ``Error:`` line (exit 2 for PNG without the charts extra, 1 for a file
    that cannot be written)."""
    from cf.render.chart import ChartError, chart_bytes, chart_kind

    try:
        data = chart_bytes(games, chart_kind(path), title)
    except ChartError as exc:
        fail(tr(exc), 2)
    write_output(data, path)
