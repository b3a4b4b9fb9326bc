"""``cf show``: the table after any move of a recorded game, as text, JSON, SVG or HTML."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from cf.commands.common import command_app, fail, read_games
from cf.commands.pictures import refuse_input, write_output
from cf.i18n import _, tr

if TYPE_CHECKING:
    from cf.record.reader import Game
    from cf.render.table import Table

app = command_app()


class ShowFormat(str, Enum):
    text = "text"
    json = "json"
    svg = "svg"
    html = "html"


@app.command(
    short_help=_("The table after any move, drawn: text, JSON, SVG or HTML."),
    help=_("""Show the table of a recorded round after any move: the starter and its arms, each
    line of play, the open chicken foot, the open ends, every hand, the chicken yard and
    whose turn it is. A move the rules refuse stops the replay there, and cf show says so.

    Where two open ends show the same number and the log cannot say which one a tile went
    on, it is drawn on the one opened first. --format html ignores --round and --move: the
    page holds the whole game, every move of it, and marks each problem cf validate finds.

    Text draws the lines of play with Unicode's domino characters (tiles up to 6-6)
    where the terminal can show them (PYTHONIOENCODING=ascii for plain [9|7] tiles);
    hands are written 9-7 5-0, to copy into cf score or cf hint --hand.

    \b
    Examples:
      cf show examples/family-night.yaml --round 3 --move 20
      cf show game.yaml --move 0 --format json
      cf show examples/family-night.yaml -r 3 -m 20 -f svg -o board.svg
      cf show examples/family-night.yaml -f html -o replay.html
    """),
)
def show(
    file: Annotated[
        Optional[str],
        typer.Argument(help=_("A game file (YAML); '-' or none reads stdin."), show_default=False),
    ] = None,
    round_: Annotated[
        Optional[int],
        typer.Option(
            "--round",
            "-r",
            min=1,
            help=_("Which round (default: the last round that has moves)."),
            show_default=False,
        ),
    ] = None,
    move: Annotated[
        Optional[int],
        typer.Option(
            "--move",
            "-m",
            min=0,
            help=_(
                "Show the table after this many moves (0: before the first; "
                "default: the whole log)."
            ),
            show_default=False,
        ),
    ] = None,
    format_: Annotated[
        Optional[ShowFormat],
        typer.Option(
            "--format",
            "-f",
            help=_(
                "text (the terminal), json (for scripts), svg (a picture) or "
                "html (a page that steps through the whole game). Default: "
                "from the -o file's ending (.json, .svg, .html), else text."
            ),
            show_default=False,
        ),
    ] = None,
    colour: Annotated[
        bool,
        typer.Option(
            "--colour", "--color", help=_("svg, html: each number's pips in its own colour.")
        ),
    ] = False,
    output: Annotated[
        Optional[str],
        typer.Option(
            "--output",
            "-o",
            metavar="FILE",
            help=_("Write to FILE (replaced if it exists) instead of stdout."),
            show_default=False,
        ),
    ] = None,
) -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    from cf.record.replay import ReplayError
    from cf.render.table import table_at

    refuse_input(output, [file] if file else [], "--output")
    format_ = format_ or _format_of(output)
    game = next(read_games([file] if file else None))
    if format_ is ShowFormat.html:
        _write_page(game, colour, output)
        return
    _check_position(game, round_, move)
    try:
        table = table_at(game, round_, move)
    except ReplayError as exc:
        fail(f"{game.file}: {tr(exc)}")
    write_output(_RENDERERS[format_](table, colour, output), output)


def _write_page(game: Game, colour: bool, output: str | None) -> None:
    """Write the replay page of the whole game (bad input without usable rules or players)."""
    from cf.record.check import validate
    from cf.render.html import game_page

    if game.rules is None or len(game.players) < 2:
        from cf.record.replay import unusable

        fail(f"{game.file}: {unusable(game)}")
    write_output(game_page(game, validate(game), colour=colour), output)


def _check_position(game: Game, round_: int | None, move: int | None) -> None:
    """A round or move the file does not have is a usage error (exit 2); a game that cannot
    be replayed at all (no usable rules, no move log anywhere) is left to the replay, which
    says the file's own problem (exit 1) whatever round was asked for."""
    from cf.record.replay import ReplayError, check_playable

    try:
        check_playable(game)
    except ReplayError:
        return
    count = len(game.rounds)
    if round_ is not None and round_ > count:
        fail(
            _("{file}: there is no round {round} (the game has {count})").format(
                file=game.file, round=round_, count=count
            ),
            2,
        )
    chosen = round_ or next((r.number for r in reversed(game.rounds) if r.moves is not None), None)
    if move is not None and chosen is not None:
        length = len(game.rounds[chosen - 1].moves or [])
        if move > length:
            fail(
                _("{file}: round {chosen} has moves 0 to {length}, not {move}").format(
                    file=game.file, chosen=chosen, length=length, move=move
                ),
                2,
            )


def _json_text(table: Table, colour: bool, output: str | None) -> str:
    """The table's JSON object (docs/cli.md, "cf show"), indented."""
    from cf.render.jsontext import dumps
    from cf.render.table import table_facts

    return dumps(table_facts(table))


def _svg_text(table: Table, colour: bool, output: str | None) -> str:
    """The table as an SVG picture."""
    from cf.render.svg import table_svg

    return table_svg(table, colour=colour)


def _terminal_text(table: Table, colour: bool, output: str | None) -> str:
    """The table as text: domino characters where the output (a file: UTF-8) can hold them."""
    from cf.render.table import can_encode, render_text

    encoding = "utf-8" if output else getattr(sys.stdout, "encoding", None)
    return render_text(table, unicode=can_encode(encoding))


#: How each format but html draws one table: (table, colour, output file) -> text.
_RENDERERS: dict[ShowFormat, Callable[[Table, bool, Optional[str]], str]] = {
    ShowFormat.json: _json_text,
    ShowFormat.svg: _svg_text,
    ShowFormat.text: _terminal_text,
}


def _format_of(output: Optional[str]) -> ShowFormat:
    """The format an ``-o`` file's ending names (``board.svg``), else text."""
    ending = os.path.splitext(output or "")[1].lower().lstrip(".")
    return {"json": ShowFormat.json, "svg": ShowFormat.svg, "html": ShowFormat.html,
            "htm": ShowFormat.html}.get(ending, ShowFormat.text)  # fmt: skip
