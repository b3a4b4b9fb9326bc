"""``cf simulate``: computer players play complete games."""

from __future__ import annotations

import os
from typing import Annotated, Optional

import typer

from cf.commands.common import (
    DoubleBlankOpt,
    SetOpt,
    TextJson,
    command_app,
    fail,
    names_option,
    set_option,
)
from cf.rules import Rules, RulesError
from cf.tiles import DEFAULT_DOUBLE_BLANK

app = command_app()


# --- cf simulate ------------------------------------------------------------------------

NAMES = (
    *("Ana", "Ben", "Carla", "Dan", "Eva", "Fede", "Gala", "Hugo", "Inés"),
    *("Juan", "Kira", "Luis", "Mar", "Nico", "Olga", "Pablo", "Quim", "Rosa"),
)


@app.command(short_help="Computer players play complete games.")
def simulate(
    players: Annotated[
        Optional[int], typer.Option("--players", "-p", min=2, max=100, help="Number of players.")
    ] = None,
    names: Annotated[
        Optional[str], typer.Option("--names", help="Comma-separated names, in seating order.")
    ] = None,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            "-s",
            help="Strategy per seat, comma-separated (greedy, random), or one for all.",
        ),
    ] = "greedy",
    seed: Annotated[
        Optional[int], typer.Option("--seed", help="Same seed, same game, on every machine.")
    ] = None,
    rounds: Annotated[
        Optional[int],
        typer.Option("--rounds", min=1, help="Rounds to play (default: a full game, N+1)."),
    ] = None,
    set_: SetOpt = None,
    deal_: Annotated[
        Optional[int], typer.Option("--deal", min=1, help="Tiles per player.")
    ] = None,
    starter_arms: Annotated[
        str,
        typer.Option("--starter-arms", help="Arms the starter takes: 2..N or 'players'."),
    ] = "4",
    double_blank: DoubleBlankOpt = DEFAULT_DOUBLE_BLANK,
    reserve: Annotated[
        Optional[int],
        typer.Option(
            "--reserve", min=0, help="Undrawable tiles (default 2 with two players, else 1)."
        ),
    ] = None,
    output: Annotated[
        Optional[str],
        typer.Option(
            "--output", "-o", help="Write the game here (a folder with --games); default stdout."
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-g", min=1, max=10_000_000, help="How many games to play.")
    ] = 1,
    stats: Annotated[
        bool, typer.Option("--stats", help="Print figures over the games instead of files.")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, max=64, help="Processes for --stats.")
    ] = 1,
    format_: Annotated[
        TextJson, typer.Option("--format", "-f", help="Format of --stats.")
    ] = TextJson.text,
) -> None:
    """Computer players play complete, valid games; --stats plays many and sums them up.

    Each game is written as a full game file (deal, moves, hands and scores for every
    round) that cf validate accepts.

    \b
    Examples:
      cf simulate --players 4 --seed 1 -o game.yaml
      cf simulate --names Ana,Ben,Carla --strategy greedy,random,greedy --seed 7
      cf simulate --set 12 --players 6 --starter-arms players --seed 3
      cf simulate --games 200 --stats --strategy greedy,random,greedy,random
    """
    from cf.simulate import STRATEGIES

    top = set_option(set_)
    arms: int | str = starter_arms.strip().lower()
    if arms != "players":
        if not str(arms).isdigit():
            raise typer.BadParameter("a number or 'players'", param_hint="'--starter-arms'")
        arms = int(arms)
        if not 2 <= arms <= top:
            raise typer.BadParameter(
                f"from 2 to {top} in this set, or 'players'", param_hint="'--starter-arms'"
            )
    try:
        rules = Rules(
            top=top, deal=deal_, starter_arms=arms, double_blank=double_blank, reserve=reserve
        )
    except RulesError as exc:
        fail(str(exc), 2)
    name_list = names_option(names, players)
    if name_list is None:
        count = players or 4
        name_list = (
            list(NAMES[:count]) if count <= len(NAMES) else [f"P{i}" for i in range(1, count + 1)]
        )
    if len(name_list) < 2:
        raise typer.BadParameter("a game needs at least 2 players", param_hint="'--names'")
    seats = [s.strip().lower() for s in strategy.split(",")]
    if len(seats) == 1:
        seats = seats * len(name_list)
    unknown = [s for s in seats if s not in STRATEGIES]
    if unknown or len(seats) != len(name_list):
        raise typer.BadParameter(
            f"give one strategy for all or one per seat ({len(name_list)}), from: "
            f"{', '.join(STRATEGIES)}",
            param_hint="'--strategy'",
        )
    if rounds is not None and rounds > top + 1:
        raise typer.BadParameter(f"{rules.set_name} has {top + 1} rounds", param_hint="'--rounds'")
    try:
        rules.row(len(name_list))
        rules.arms_for(len(name_list))
    except RulesError as exc:
        fail(str(exc))
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    from cf import simulate_cli

    simulate_cli.run(
        name_list, rules, seats, seed, rounds, output, games, stats, jobs, format_.value
    )
