"""Simulation speed: rounds per CPU second of `cf simulate` with greedy players.

    .venv/bin/python bench/simulate.py             # --reps 5, --games 100, --study-games 3000
    .venv/bin/python bench/simulate.py --tree /work/main   # the same command, another tree

Measured (medians of alternating repetitions; CPU seconds, so that a busy machine
does not count against us):

1. in-process, pinned to one core: full double-nine games of 2 to 6 greedy players,
   through ``Round`` (``simulate_game``: what ``cf simulate -o`` plays) and on the fast
   engine (``study_chunk``: what ``cf simulate --stats`` plays).
2. ``cf simulate --stats --jobs 1 --games N`` as a subprocess pinned to one core, start-up
   included: its CPU seconds (user + system), and the same with ``--check``.
3. a study with ``--jobs 1``, ``--jobs 2`` and ``--jobs 0`` (all cores, not pinned): the
   JSON figures must be identical for the same seed; the wall-clock speed-up is reported.

Targets: issue 6, at least 500 rounds per second on one core through ``Round``; issue 21,
at least 15,000 greedy rounds per CPU second end to end for ``--stats`` on one core.
``--tree`` runs part 2 and 3 with the ``cf`` of another checkout (``python -m cf`` there),
for a before/after figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cf.play.simulate import simulate_game, study_chunk  # noqa: E402
from cf.rules import Rules  # noqa: E402

#: The house rules whose speed-up is reported too.
HOUSE_RULES = {
    "draw: until": Rules(top=9, draw="until"),
    "draw: one-may": Rules(top=9, draw="one-may"),
    "out_on_double 50": Rules(top=9, out_on_double=50),
    "target 150": Rules(top=9, target=150),
}
TARGET_ROUND = 500
TARGET_STUDY = 15_000
NAMES = ["Ana", "Ben", "Carla", "Dan", "Eva", "Fede"]


def pin_one_core() -> set[int]:
    """Pin this process (and its children) to one core; return the previous set."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(before)})
    return before


def in_process(
    players: int, games: int, fast: bool, rules: Rules | None = None
) -> tuple[int, float]:
    rules, names = rules or Rules(top=9), NAMES[:players]
    seats = ["greedy"] * players
    start = time.process_time()
    if fast:
        rounds = study_chunk(names, rules, seats, 0, range(games)).rounds
    else:
        rounds = sum(len(simulate_game(names, rules, seats, s).rounds) for s in range(games))
    return rounds, time.process_time() - start


def run_cf(tree: Path, *args: str) -> tuple[bytes, float, float]:
    """stdout, CPU seconds (user + system) and wall seconds of one ``cf simulate``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "cf", "simulate", *args],
        capture_output=True,
        check=True,
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return done.stdout, cpu, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--games", type=int, default=100, help="games per in-process figure")
    parser.add_argument("--study-games", type=int, default=3000, help="games of a cf study")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose cf runs")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    figures: dict[str, object] = {}
    tree = args.tree.resolve()
    n = str(args.study_games)

    cores = pin_one_core()
    print(f"pinned to core {min(cores)} of {sorted(cores)}; {args.reps} reps, medians")
    if tree == ROOT:
        print("in-process, greedy, double-nine, full games, rounds per CPU second:")
        print(f"  {'players':>7} {'Round':>9} {'fast':>9} {'x':>6}")
        for players in range(2, 7):
            in_process(players, 3, False)  # warm-up
            rates: dict[bool, list[float]] = {False: [], True: []}
            for r in range(args.reps):
                for fast in (bool(r % 2), not r % 2):
                    games = args.games * (10 if fast else 1)
                    rounds, seconds = in_process(players, games, fast)
                    rates[fast].append(rounds / seconds)
            slow, quick = statistics.median(rates[False]), statistics.median(rates[True])
            figures[f"in_process_{players}p"] = {"round": slow, "fast": quick}
            print(f"  {players:7} {slow:9,.0f} {quick:9,.0f} {quick / slow:6.1f}")
        print("  the house rules (issue 20), 4 players:")
        for label, house in HOUSE_RULES.items():
            rates = {False: [], True: []}
            for r in range(args.reps):
                for fast in (bool(r % 2), not r % 2):
                    games = args.games * (10 if fast else 1)
                    rounds, seconds = in_process(4, games, fast, house)
                    rates[fast].append(rounds / seconds)
            slow, quick = statistics.median(rates[False]), statistics.median(rates[True])
            figures[f"in_process_4p {label}"] = {"round": slow, "fast": quick}
            print(f"  {label:>17} {slow:9,.0f} {quick:9,.0f} {quick / slow:6.1f}")

    print(f"cf simulate --stats, one core, 4 greedy players, {n} games, start-up included:")
    print(f"  (cf of {tree})")
    timed: dict[str, list[float]] = {"--stats": [], "--stats --check": []}
    rounds = 0
    for r in range(args.reps):
        for label in timed if r % 2 == 0 else reversed(list(timed)):
            if "--check" in label and tree != ROOT:
                continue
            extra = ["--check"] if "--check" in label else []
            games = n if not extra else str(max(args.study_games // 10, 1))
            out, cpu, _ = run_cf(tree, "--games", games, "--stats", "-f", "json", "--seed",
                                 str(r), *extra)  # fmt: skip
            rounds_here = json.loads(out)["rounds"]
            timed[label].append(rounds_here / cpu)
            rounds = rounds_here if not extra else rounds
    for label, rates_ in timed.items():
        if rates_:
            med = statistics.median(rates_)
            figures[f"cli {label}"] = {"rounds_per_cpu_s": med}
            print(f"  {label:18} {med:8,.0f} rounds per CPU second")

    os.sched_setaffinity(0, cores)
    print(f"study, {n} games, 4 greedy players, all cores ({len(cores)}):")  # not pinned
    jobs_list = ["1", "2", "0"] if tree == ROOT else ["1", "2"]  # -j 0 came with issue 21
    walls: dict[str, list[float]] = {j: [] for j in jobs_list}
    outputs: set[bytes] = set()
    for r in range(max(3, args.reps // 2)):
        for jobs in jobs_list if r % 2 == 0 else reversed(jobs_list):
            out, _, wall = run_cf(tree, "--games", n, "--stats", "-f", "json", "--seed", "7",
                                  "--jobs", jobs)  # fmt: skip
            walls[jobs].append(wall)
            outputs.add(out)
    same = len(outputs) == 1
    study_rounds = json.loads(next(iter(outputs)))["rounds"]
    for jobs in jobs_list:
        med = statistics.median(walls[jobs])
        figures[f"study --jobs {jobs}"] = {"seconds": med, "rounds_per_s": study_rounds / med}
        print(f"  --jobs {jobs}: {med:6.3f} s wall  {study_rounds / med:8,.0f} rounds/s")
    speedup = statistics.median(walls["1"]) / statistics.median(walls["2"])
    figures["jobs_identical"] = same
    figures["speedup"] = speedup
    print(f"  speed-up of --jobs 2 x{speedup:.2f}; figures identical for every --jobs: {same}")

    if "in_process_2p" in figures:
        best = min(v["round"] for k, v in figures.items() if k.startswith("in_process_"))  # type: ignore[index]
        verdict = "met" if best >= TARGET_ROUND else "MISSED"
        print(f"target >= {TARGET_ROUND} rounds/s through Round: slowest {best:,.0f} -> {verdict}")
    study_rate = figures["cli --stats"]["rounds_per_cpu_s"]  # type: ignore[index]
    verdict = "met" if study_rate >= TARGET_STUDY else "MISSED"
    print(
        f"target >= {TARGET_STUDY:,} rounds per CPU s for --stats: {study_rate:,.0f} -> {verdict}"
    )
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
