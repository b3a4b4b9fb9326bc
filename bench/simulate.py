"""Simulation speed: rounds per second of `cf simulate` with greedy players, on one core.

    .venv/bin/python bench/simulate.py             # --reps 5, --games 100, --json FILE

Measured (medians of alternating repetitions):

1. in-process, pinned to one core: ``simulate_game`` for 2 to 6 greedy players, double-nine,
   full games (10 rounds); and the same with each game written as a YAML file's text.
2. ``cf simulate --stats --jobs 1`` as a subprocess pinned to one core (start-up included),
   and ``cf simulate --games N -o DIR`` (files written to disk).
3. a study with ``--jobs 2`` against ``--jobs 1`` (not pinned: two processes want two cores):
   the JSON figures must be identical for the same seed; the speed-up is reported.

Target (issue 6, item 3): at least 500 rounds per second on one core.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cf.play.simulate import simulate_game  # noqa: E402
from cf.record.emit import game_yaml  # noqa: E402
from cf.rules import Rules  # noqa: E402

CF = str(Path(sys.executable).with_name("cf"))
TARGET = 500
NAMES = ["Ana", "Ben", "Carla", "Dan", "Eva", "Fede"]


def pin_one_core() -> set[int]:
    """Pin this process (and its children) to one core; return the previous set."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(before)})
    return before


def in_process(players: int, games: int, write: bool) -> tuple[int, float]:
    rules, names = Rules(top=9), NAMES[:players]
    rounds = 0
    start = time.perf_counter()
    for seed in range(games):
        game = simulate_game(names, rules, ["greedy"] * players, seed)
        rounds += len(game.rounds)
        if write:
            game_yaml(game, "cf simulate")
    return rounds, time.perf_counter() - start


def run_cf(*args: str) -> tuple[bytes, float]:
    start = time.perf_counter()
    done = subprocess.run([CF, "simulate", *args], capture_output=True, check=True)
    return done.stdout, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--games", type=int, default=100, help="games per measurement")
    parser.add_argument("--study-games", type=int, default=1000, help="games of the jobs study")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    figures: dict[str, object] = {}

    cores = pin_one_core()
    print(f"pinned to core {min(cores)} of {sorted(cores)}; {args.reps} reps, medians")
    print("in-process, greedy, double-nine, full games:")
    print(f"  {'players':>7} {'rounds/s':>10} {'+ YAML text':>12}")
    for players in range(2, 7):
        in_process(players, 3, False)  # warm-up
        rates: dict[bool, list[float]] = {False: [], True: []}
        for r in range(args.reps):
            for write in (bool(r % 2), not r % 2):
                rounds, seconds = in_process(players, args.games, write)
                rates[write].append(rounds / seconds)
        plain, written = statistics.median(rates[False]), statistics.median(rates[True])
        figures[f"in_process_{players}p"] = {"rounds_per_s": plain, "with_yaml": written}
        print(f"  {players:7} {plain:10,.0f} {written:12,.0f}")

    print(f"cf simulate as a subprocess, one core, 4 greedy players, {args.games} games:")
    stats_t, files_t = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.reps):
            seed = str(r)
            out, t = run_cf("--games", str(args.games), "--stats", "-f", "json", "--seed", seed)
            stats_t.append(t)
            rounds = json.loads(out)["rounds"]
            _, t = run_cf("--games", str(args.games), "--seed", seed, "-o", f"{tmp}/{r}")
            files_t.append(t)
    for label, times in (("--stats --jobs 1", stats_t), ("-o DIR (files)", files_t)):
        med = statistics.median(times)
        figures[f"cli {label}"] = {"seconds": med, "rounds_per_s": rounds / med}
        print(f"  {label:18} {med:6.3f} s  {rounds / med:8,.0f} rounds/s (start-up included)")

    os.sched_setaffinity(0, cores)
    n = str(args.study_games)
    print(f"study, {n} games, 4 greedy players, all cores ({len(cores)}):")
    jobs_t: dict[str, list[float]] = {"1": [], "2": []}
    outputs: dict[str, set[bytes]] = {"1": set(), "2": set()}
    for r in range(max(3, args.reps // 2)):
        for jobs in ("1", "2") if r % 2 == 0 else ("2", "1"):
            out, t = run_cf("--games", n, "--stats", "-f", "json", "--seed", "7", "--jobs", jobs)
            jobs_t[jobs].append(t)
            outputs[jobs].add(out)
    same = len(outputs["1"] | outputs["2"]) == 1
    study_rounds = json.loads(next(iter(outputs["1"])))["rounds"]
    for jobs in ("1", "2"):
        med = statistics.median(jobs_t[jobs])
        figures[f"study --jobs {jobs}"] = {"seconds": med, "rounds_per_s": study_rounds / med}
        print(f"  --jobs {jobs}: {med:6.3f} s  {study_rounds / med:8,.0f} rounds/s")
    speedup = statistics.median(jobs_t["1"]) / statistics.median(jobs_t["2"])
    figures["jobs_identical"] = same
    figures["speedup"] = speedup
    print(f"  speed-up x{speedup:.2f}; --jobs 2 figures identical to --jobs 1: {same}")

    best = min(v["rounds_per_s"] for k, v in figures.items() if k.startswith("in_process"))  # type: ignore[index]
    print(f"target >= {TARGET} rounds/s on one core: slowest in-process {best:,.0f}", end="")
    print(" -> met" if best >= TARGET else " -> MISSED")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
