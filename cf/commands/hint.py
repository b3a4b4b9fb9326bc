"""``cf hint``: what should I play? Advice for a round in progress."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cf.commands.common import TextJson, command_app, echo_json, fail, read_games
from cf.i18n import _, tr

app = command_app()


# --- cf hint ----------------------------------------------------------------------------


@app.command(
    short_help=_("What should I play? Advice for a round in progress."),
    help=_("""List every legal action of the player to move, best first, with the points they
    can expect to hold at the end of the round and their chance of going out first.

    The round is replayed as far as its log goes (a log that stops mid-round is what this
    is for). The advice uses only what the player could know at the table: their own deal
    (or --hand), the tiles on the table, hand sizes and what each draw and pass revealed;
    other players' recorded deals and drawn tiles are ignored. Each action is judged by
    dealing the unseen tiles at random, consistently with all of that, --playouts times,
    and playing the round out with greedy players.

    Under the house rule draw: one-may, a player who drew a tile that fits may play it
    or keep it: --drawn TILE judges both.

    Exit 0 with advice; 1 when the round is over or its log breaks the rules; 2 when the
    options do not fit the file (no such round, another player's turn, no hand known).

    \b
    Examples:
      cf hint examples/in-progress/half-played.yaml
      cf hint game.yaml --round 3 --player Ana --hand "9-3 7-2 5-5" --format json
      cf hint game.yaml --drawn 6-2
    """),
)
def hint(
    file: Annotated[
        Optional[str],
        typer.Argument(
            metavar="FILE",
            help=_("The game file (YAML); '-' or none reads stdin."),
            show_default=False,
        ),
    ] = None,
    round_: Annotated[
        Optional[int],
        typer.Option("--round", "-r", min=1, help=_("The round (default: the last).")),
    ] = None,
    player: Annotated[
        Optional[str],
        typer.Option(
            "--player",
            "-p",
            help=_("Who asks: must be the player to move (default: that player)."),
        ),
    ] = None,
    hand: Annotated[
        Optional[str],
        typer.Option(
            "--hand",
            help=_("Your hand now, e.g. '9-3 7-2 5-5', when the file has no deal for you."),
        ),
    ] = None,
    drawn: Annotated[
        Optional[str],
        typer.Option(
            "--drawn",
            metavar="TILE",
            help=_(
                "Under the house rule draw: one-may: the tile you just drew. "
                "Play it or keep it? Both are judged."
            ),
        ),
    ] = None,
    playouts: Annotated[
        int,
        typer.Option(
            "--playouts", "-n", min=1, max=100_000, help=_("Deals played out per legal action.")
        ),
    ] = 200,
    seed: Annotated[
        int, typer.Option("--seed", help=_("Same seed, same advice, on every machine."))
    ] = 0,
    format_: Annotated[TextJson, typer.Option("--format", "-f", help=_("text or json."))] = (
        TextJson.text
    ),
) -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    from cf.play.hint import HintError, HintUsageError, advise
    from cf.tiles import NotationError, Tile, parse_hand

    games = read_games([file] if file else None)
    game = next(iter(games))
    tiles = None
    drawn_tile = None
    if drawn is not None:
        try:
            drawn_tile = Tile.parse(drawn, game.top)
        except NotationError as exc:
            raise typer.BadParameter(tr(exc), param_hint="'--drawn'") from None
    if hand is not None:
        try:
            tiles = parse_hand(hand, game.top)
        except NotationError as exc:
            raise typer.BadParameter(tr(exc), param_hint="'--hand'") from None
    try:
        advice = advise(game, round_, player, tiles, playouts, seed, drawn_tile)
    except HintUsageError as exc:
        fail(tr(exc), 2)
    except HintError as exc:
        fail(tr(exc), 1)
    if format_ is TextJson.json:
        echo_json(advice.as_dict())
        return
    from cf.render.hint import render_advice

    typer.echo(render_advice(advice), nl=False)
