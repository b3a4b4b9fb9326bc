"""What ``cf simulate`` does once its options are checked: write games or print a study."""

from __future__ import annotations

import json
import os
import shlex
import sys
from concurrent.futures import ProcessPoolExecutor

import typer

from cf.rules import Rules
from cf.simulate import Stats, game_seed, simulate_game, study_chunk
from cf.yamlout import game_yaml


def command_line(
    names: list[str], rules: Rules, seats: list[str], seed: int, rounds: int | None
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
) -> None:
    if stats:
        result = study(names, rules, seats, seed, rounds, games, jobs)
        typer.echo(render_stats(result, names, seats, fmt, seed), nl=False)
        return
    if games == 1:
        game = simulate_game(names, rules, seats, seed, rounds)
        text = game_yaml(game, command_line(names, rules, seats, seed, rounds))
        _write(output, text)
        return
    if output is None:
        raise typer.BadParameter("several games need a folder: -o DIR", param_hint="'--games'")
    os.makedirs(output, exist_ok=True)
    width = len(str(games))
    for i in range(games):
        seed_i = game_seed(seed, i)
        game = simulate_game(names, rules, seats, seed_i, rounds)
        text = game_yaml(game, command_line(names, rules, seats, seed_i, rounds))
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
) -> Stats:
    """Play ``games`` games; ``jobs`` processes give the same figures as one."""
    total = Stats()
    chunk = 25
    batches = [list(range(i, min(i + chunk, games))) for i in range(0, games, chunk)]
    show = sys.stderr.isatty()
    if jobs == 1:
        results = (study_chunk(names, rules, seats, seed, b, rounds) for b in batches)
        _gather(total, results, len(batches), show)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(study_chunk, names, rules, seats, seed, b, rounds) for b in batches
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


def render_stats(stats: Stats, names: list[str], seats: list[str], fmt: str, seed: int) -> str:
    data = {"seed": seed, **stats.as_dict()}
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    from tabulate import tabulate

    lines = [
        f"{stats.games} games, {stats.rounds} rounds (seeds {seed} to {seed + stats.games - 1}: "
        f"cf simulate --seed S plays one again)",
        f"moves per round: {data['moves_per_round']:.1f}",
        f"rounds ending blocked: {100 * data['blocked_share']:.1f}%",  # type: ignore[operator]
        "",
    ]
    by_seat = data["points_per_round_by_seat"]
    seat_rows = [
        [int(s), names[int(s) - 1], seats[int(s) - 1], v]
        for s, v in by_seat.items()  # type: ignore[attr-defined]
    ]
    lines.append(
        tabulate(seat_rows, ["seat", "player", "strategy", "points/round"], floatfmt=".2f")
    )
    lines.append("")
    strat_rows = [
        [s, v["points_per_round"], f"{100 * v['win_rate']:.1f}%"]
        for s, v in data["by_strategy"].items()  # type: ignore[attr-defined]
    ]
    lines.append(tabulate(strat_rows, ["strategy", "points/round", "win rate"], floatfmt=".2f"))
    return "\n".join(lines) + "\n"
