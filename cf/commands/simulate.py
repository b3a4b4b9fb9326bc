"""``cf simulate``: computer players play complete games."""

from __future__ import annotations

import os
import shlex
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Annotated, Optional

import typer

from cf.commands.common import (
    DoubleBlankOpt,
    SetOpt,
    TextJson,
    command_app,
    complete_strategy,
    fail,
    names_option,
    set_option,
)
from cf.play.simulate import Stats, game_seed, simulate_game, study_chunk
from cf.record.emit import game_yaml
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
            autocompletion=complete_strategy,
            help="Strategy per seat, comma-separated (greedy, random, smart, pimc, ismcts), "
            "or one for all.",
        ),
    ] = "greedy",
    playouts: Annotated[
        Optional[int],
        typer.Option(
            "--playouts",
            "-n",
            min=1,
            max=100_000,
            help="Effort of the searchers: pimc's playouts per legal action (default 100), "
            "ismcts' iterations per move (default 800).",
        ),
    ] = None,
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
      cf simulate --games 20 --stats --strategy ismcts,greedy,greedy,greedy
    """
    from cf.play.simulate import STRATEGIES

    if format_ is TextJson.json and not stats:
        raise typer.BadParameter(
            "json is the format of --stats figures; a simulated game is a YAML game file",
            param_hint="'--format'",
        )
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
    run(name_list, rules, seats, seed, rounds, output, games, stats, jobs, format_.value, playouts)


# --- what the command does once its options are checked ---------------------------------


def command_line(
    names: list[str],
    rules: Rules,
    seats: list[str],
    seed: int,
    rounds: int | None,
    playouts: int | None = None,
) -> str:
    """The ``cf simulate`` call that plays this game again, for the file's header."""
    parts = ["cf simulate", f"--names {shlex.quote(','.join(names))}"]
    if len(set(seats)) == 1:
        parts.append(f"--strategy {seats[0]}")
    else:
        parts.append(f"--strategy {','.join(seats)}")
    parts.append(f"--seed {seed}")
    if rules.top != 9:
        parts.append(f"--set {rules.set_name}")
    if rounds is not None:
        parts.append(f"--rounds {rounds}")
    if playouts is not None and set(seats) & {"pimc", "ismcts"}:
        parts.append(f"--playouts {playouts}")
    if rules.deal is not None:
        parts.append(f"--deal {rules.deal}")
    if rules.starter_arms != 4:
        parts.append(f"--starter-arms {rules.starter_arms}")
    if rules.double_blank != 50:
        parts.append(f"--double-blank {rules.double_blank}")
    if rules.reserve is not None:
        parts.append(f"--reserve {rules.reserve}")
    return " ".join(parts)


def run(
    names: list[str],
    rules: Rules,
    seats: list[str],
    seed: int,
    rounds: int | None,
    output: str | None,
    games: int,
    stats: bool,
    jobs: int,
    fmt: str,
    playouts: int | None = None,
) -> None:
    if stats:
        from cf.render.stats import render_stats

        result = study(names, rules, seats, seed, rounds, games, jobs, playouts)
        typer.echo(render_stats(result, names, seats, fmt, seed), nl=False)
        return
    if games == 1:
        game = simulate_game(names, rules, seats, seed, rounds, playouts)
        text = game_yaml(game, command_line(names, rules, seats, seed, rounds, playouts))
        _write(output, text)
        return
    if output is None:
        raise typer.BadParameter("several games need a folder: -o DIR", param_hint="'--games'")
    os.makedirs(output, exist_ok=True)
    width = len(str(games))
    for i in range(games):
        seed_i = game_seed(seed, i)
        game = simulate_game(names, rules, seats, seed_i, rounds, playouts)
        text = game_yaml(game, command_line(names, rules, seats, seed_i, rounds, playouts))
        _write(os.path.join(output, f"game-{i + 1:0{width}d}.yaml"), text)


def _write(path: str | None, text: str) -> None:
    if path is None or path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        typer.echo(f"Error: cannot write {path}: {exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None


def study(
    names: list[str],
    rules: Rules,
    seats: list[str],
    seed: int,
    rounds: int | None,
    games: int,
    jobs: int,
    playouts: int | None = None,
) -> Stats:
    """Play ``games`` games; ``jobs`` processes give the same figures as one."""
    total = Stats()
    chunk = 25
    batches = [list(range(i, min(i + chunk, games))) for i in range(0, games, chunk)]
    show = sys.stderr.isatty()
    if jobs == 1:
        results = (study_chunk(names, rules, seats, seed, b, rounds, playouts) for b in batches)
        _gather(total, results, len(batches), show)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(study_chunk, names, rules, seats, seed, b, rounds, playouts)
                for b in batches
            ]
            _gather(total, (f.result() for f in futures), len(batches), show)
    return total


def _gather(total: Stats, results, count: int, show: bool) -> None:  # type: ignore[no-untyped-def]
    if not show:
        for r in results:
            total.merge(r)
        return
    with typer.progressbar(results, length=count, label="playing", file=sys.stderr) as bar:
        for r in bar:
            total.merge(r)
