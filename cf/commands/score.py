"""``cf score``: points left in a hand."""

from __future__ import annotations

import re
from typing import Annotated, Optional

import typer

from cf.commands.common import (
    DoubleBlankOpt,
    SetOpt,
    TextJson,
    command_app,
    echo_json,
    fail,
    read_stdin,
    set_option,
)
from cf.i18n import _, tr
from cf.tiles import DEFAULT_DOUBLE_BLANK, NotationError, Tile, hand_points, parse_hand

app = command_app()

# --- cf score ---------------------------------------------------------------------------

_NAME_LINE = re.compile(r"^\s*([^:]*?)\s*:(.*)$")


@app.command(
    short_help=_("Points left in a hand."),
    help=_("""Points of a hand: the sum of its pips, the double blank counting 50 (or --double-blank).

    \b
    Examples:
      cf score 9-7 6-6 4-1          → 33
      cf score "[9|7], [0|0]" --double-blank 25
      printf 'Ben: 9-7 6-6\\nAna: 0-0\\n' | cf score
      cf score --photo hand.jpg --set double-twelve --annotate checked.png
    """),  # noqa: E501
)
def score(
    ctx: typer.Context,
    tiles: Annotated[
        Optional[list[str]],
        typer.Argument(
            help=_(
                "Tiles of one hand, like 9-7 6-6 4-1 or [9|7],[6|6]. Without "
                "any, each non-empty line of stdin is a hand, optionally "
                "'NAME: tiles'; # starts a comment."
            ),
            show_default=False,
        ),
    ] = None,
    set_: SetOpt = None,
    double_blank: DoubleBlankOpt = DEFAULT_DOUBLE_BLANK,
    explain: Annotated[
        bool, typer.Option("--explain", help=_("Show what each tile is worth."))
    ] = False,
    format_: Annotated[
        TextJson, typer.Option("--format", "-f", help=_("Output format."))
    ] = TextJson.text,
    photo: Annotated[
        bool,
        typer.Option(
            "--photo",
            help=_(
                "The arguments are photos (JPEG or PNG), one hand each, read "
                "for their face-up tiles; - (or no photo) reads one piped in on stdin. Needs the "
                "photo extra: pip install 'chickenfoot[photo]'."
            ),
        ),
    ] = False,
    annotate: Annotated[
        Optional[str],
        typer.Option(
            "--annotate",
            metavar="FILE",
            help=_(
                "With --photo: write the photo with each tile's outline and "
                "reading to FILE, a .png (several photos: FILE-1.png, "
                "FILE-2.png, ...)."
            ),
            show_default=False,
        ),
    ] = None,
    min_confidence: Annotated[
        float,
        typer.Option(
            "--min-confidence",
            min=0.0,
            max=1.0,
            callback=_a_number,
            help=_(
                "With --photo: a tile read with less confidence is reported "
                "as unreadable (exit 1) instead of counted."
            ),
        ),
    ] = 0.6,
) -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    top = set_option(set_)
    if not photo and annotate is None and _given(ctx, "min_confidence"):
        fail(_("--min-confidence is for photos: add --photo (cf score --photo hand.jpg)"), 2)
    if photo or annotate is not None:
        from cf.commands.score_photo import score_photos

        score_photos(tiles or [], top, double_blank, explain, format_, annotate, min_confidence)
        return
    if tiles is not None and tiles != ["-"]:  # '-' reads stdin, as a file argument would
        hand = _score_or_fail(" ".join(tiles), top)
        _print_scores([(None, hand)], double_blank, explain, format_, single=True)
        return
    results, bad = _read_hands(read_stdin("hands"), top)
    _print_scores(results, double_blank, explain, format_, single=False)
    if bad:
        raise typer.Exit(1)


def _read_hands(data: str, top: int) -> tuple[list[tuple[Optional[str], tuple[Tile, ...]]], int]:
    """Each non-empty line a hand, ``NAME: tiles`` or bare tiles; ``#`` starts a comment.
    Bad lines are reported on stderr by number; the count of them is returned."""
    results: list[tuple[Optional[str], tuple[Tile, ...]]] = []
    bad = 0
    # Lines end at "\n" only (not at form feeds and the like), so numbers match an editor's.
    for number, line in enumerate(data.split("\n"), start=1):
        line = line.removesuffix("\r").split("#", 1)[0]
        if not line.strip():
            continue
        if line[0].isspace():
            typer.echo(
                _(
                    "Error: line {number}: indented: cf score reads one hand per "
                    "line ('NAME: tiles' or tiles), and this looks like YAML; to "
                    "check a game file use cf validate"
                ).format(number=number),
                err=True,
            )
            bad += 1
            continue
        name, text = None, line
        match = _NAME_LINE.match(line)
        if match:
            name, text = match.group(1) or None, match.group(2)
        try:
            results.append((name, parse_hand(text, top)))
        except NotationError as exc:
            typer.echo(
                _("Error: line {number}: {exc}").format(number=number, exc=tr(exc)), err=True
            )
            bad += 1
    return results, bad


def _score_or_fail(text: str, top: int) -> tuple[Tile, ...]:
    try:
        return parse_hand(text, top)
    except NotationError as exc:
        fail(tr(exc))


def _print_scores(
    results: list[tuple[Optional[str], tuple[Tile, ...]]],
    double_blank: int,
    explain: bool,
    format_: TextJson,
    *,
    single: bool,
) -> None:
    if format_ is TextJson.json:
        objects = []
        for name, hand in results:
            obj: dict[str, object] = {}
            if name is not None:
                obj["name"] = name
            obj["tiles"] = [str(t) for t in hand]
            obj["points"] = hand_points(hand, double_blank)
            objects.append(obj)
        echo_json(objects[0] if single else objects)
        return
    for name, hand in results:
        points = hand_points(hand, double_blank)
        prefix = f"{name}: " if name is not None else ""
        if explain:
            parts = [f"{t} = {t.points(double_blank)}" for t in hand] or ["empty hand"]
            typer.echo(f"{prefix}{points}  ({', '.join(parts)})")
        else:
            typer.echo(f"{prefix}{points}")


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the option ``name`` was typed (not its default, nor an environment
    variable's)."""
    source = ctx.get_parameter_source(name)  # Typer's own Click's enum: told by its name
    return source is not None and source.name == "COMMANDLINE"


def _a_number(value: float) -> float:
    """--min-confidence: ``nan`` is no confidence (the range check lets it through, as
    every comparison with it is false)."""
    if value != value:
        raise typer.BadParameter(_("a number from 0 to 1, not nan"))
    return value
