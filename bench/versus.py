"""Old code against new, alternating in one run: did a change make replay or simulation slower?

    .venv/bin/python bench/gen_archive.py                 # once: bench/out/archive/*.yaml
    .venv/bin/python bench/versus.py --old 716c80a        # --reps 7, --games 40

The old revision is checked out (``git worktree``) under bench/out/versus-old. Every
repetition runs, for each tree in turn (the order alternating), one subprocess per
workload, pinned to one core where the platform allows, that times the work in-process
and prints the seconds:

- ``validate``: read_game_file + validate for every archive file (what ``cf validate`` does
  after start-up);
- ``simulate``: 40 full double-nine games, 4 greedy players (what ``cf simulate`` does).

Each figure is the median over the repetitions of CPU seconds (``time.process_time``: a
machine busy with other work slows the wall clock far more than the CPU time); the ratio
new/old is the median of the per-repetition ratios. The target of issue "One turn, one
call": no more than 5% slower.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from _worktree import checkout

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"

# Runs in the tree under test; works with the flat layout (cf.validate) and the new one.
# Each run also checks that it imported the tree it was given.
VALIDATE = """
import glob, sys, time
try:  # the old flat names first: the venv's editable finder knows only the new ones
    from cf.gamefile import read_game_file
    from cf.validate import validate
except ImportError:
    from cf.record.reader import read_game_file
    from cf.record.check import validate
files = sorted(glob.glob(sys.argv[1] + "/*.yaml"))
t = time.process_time()
moves = 0
for f in files:
    r = validate(read_game_file(f))
    assert r.valid, f
    moves += r.moves
print(time.process_time() - t, moves)
import cf.board; assert cf.board.__file__.startswith(sys.argv[2]), cf.board.__file__
"""

SIMULATE = """
import sys, time
from cf.rules import Rules
try:
    from cf.simulate import simulate_game
except ImportError:
    from cf.play.simulate import simulate_game
games = int(sys.argv[1])
rules = Rules(top=9)
t = time.process_time()
rounds = 0
for seed in range(games):
    g = simulate_game(["A", "B", "C", "D"], rules, ["greedy"] * 4, seed)
    rounds += len(g.rounds)
print(time.process_time() - t, rounds)
import cf.board; assert cf.board.__file__.startswith(sys.argv[2]), cf.board.__file__
"""


def run(tree: Path, code: str, *args: str) -> tuple[float, int]:
    cmd = [sys.executable, "-c", code, *args, str(tree)]
    if Path("/usr/bin/taskset").exists():
        cmd = ["/usr/bin/taskset", "-c", "0", *cmd]
    out = subprocess.run(
        cmd,
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return float(out[0]), int(out[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="the revision to compare with (e.g. 716c80a)")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--json", help="also write the figures to this file")
    a = ap.parse_args()
    archive = OUT / "archive"
    if not any(archive.glob("*.yaml")):
        sys.exit("no archive: run bench/gen_archive.py first")
    old = checkout(a.old, OUT / "versus-old")
    trees = {"old": old, "new": ROOT}
    work = {"validate": (VALIDATE, str(archive)), "simulate": (SIMULATE, str(a.games))}
    times: dict[str, dict[str, list[float]]] = {w: {"old": [], "new": []} for w in work}
    sizes: dict[str, int] = {}
    try:
        for rep in range(a.reps):
            order = ["old", "new"] if rep % 2 == 0 else ["new", "old"]
            for w, (code, arg) in work.items():
                for name in order:
                    seconds, size = run(trees[name], code, arg)
                    times[w][name].append(seconds)
                    sizes[w] = size
            print(f"repetition {rep + 1}/{a.reps} done", file=sys.stderr)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT)
    result = {}
    print(f"old = {a.old}, new = working tree; medians of {a.reps} alternating repetitions")
    print(f"{'workload':<10} {'old s':>8} {'new s':>8} {'new/old':>8}  per second (new)")
    for w in work:
        o, n = times[w]["old"], times[w]["new"]
        ratio = statistics.median(y / x for x, y in zip(o, n, strict=True))
        unit = "moves" if w == "validate" else "rounds"
        rate = sizes[w] / statistics.median(n)
        print(
            f"{w:<10} {statistics.median(o):8.3f} {statistics.median(n):8.3f} {ratio:8.3f}"
            f"  {rate:,.0f} {unit}/s"
        )
        result[w] = {"old": o, "new": n, "ratio": ratio, unit: sizes[w]}
    if a.json:
        Path(a.json).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
