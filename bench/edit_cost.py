"""What cf add, cf undo and cf validate cost on large game files (issue 22, item 12).

Each command runs as its own process (``python -m cf``) on generated files, and the peak
memory (``ru_maxrss``) and CPU time of that process are taken from :func:`os.wait4`.
``--tree DIR`` runs the ``cf`` package of another checkout instead (``PYTHONPATH=DIR``),
so that the code before a change can be measured in the same run: trees alternate per
file and command, so that a busy machine weighs on both alike.

    .venv/bin/python bench/edit_cost.py                      # this tree
    .venv/bin/python bench/edit_cost.py --tree /work/main    # and another, alternating

Files (in bench/out/edit_cost/):

- ``flow-bad``: one round whose ``moves`` is a flow list spread over lines,
  ``[{Ana: draw}, {Ben: draw}, …]``, N moves that are all wrong (``draw`` names no tile);
- ``block-bad``: the same moves written one a line (``- Ana: draw``);
- ``comments``: a valid one-round game followed by ~15 MiB of comment lines;
- ``rounds-K``: a valid double-eighteen game of K rounds (simulated, every move logged;
  K = 1, 6, 18), where ``cf add --round 1`` replaces the first round: its cost should grow
  with the file no faster than cf validate's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "edit_cost"


def _flow_bad(n: int) -> str:
    items = ["{Ana: draw}", "{Ben: draw}"] * (n // 2)
    lines = [", ".join(items[i : i + 8]) for i in range(0, len(items), 8)]
    return "players: [Ana, Ben]\nrounds:\n  - moves: [\n      " + ",\n      ".join(lines) + "]\n"


def _block_bad(n: int) -> str:
    return (
        "players: [Ana, Ben]\nrounds:\n  - moves:\n"
        + "      - Ana: draw\n      - Ben: draw\n" * (n // 2)
    )


def _comments() -> str:
    head = "players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 1, Ben: 0}\n"
    return head + ("# " + "c" * 77 + "\n") * (15 * 2**20 // 80)


def _rounds(k: int) -> str:
    """A valid double-eighteen game of ``k`` rounds, simulated (moves logged)."""
    out = subprocess.run(
        [sys.executable, "-m", "cf", "simulate", "--set", "18", "--deal", "30",
         "--names", "A,B,C,D", "--rounds", str(k), "--seed", "22"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    return out.stdout


def files(n: int) -> dict[str, Path]:
    OUT.mkdir(parents=True, exist_ok=True)
    made = {
        f"flow-bad-{n // 1000}k": _flow_bad(n),
        f"block-bad-{n // 1000}k": _block_bad(n),
        "comments-15MiB": _comments(),
    }
    for k in (1, 6, 18):
        made[f"rounds-{k}"] = _rounds(k)
    paths = {}
    for name, text in made.items():
        path = OUT / f"{name}.yaml"
        path.write_text(text)
        paths[name] = path
    return paths


def run(tree: Path, args: list[str]) -> tuple[int, float, int]:
    """Exit code, CPU seconds and peak RSS (MB) of ``python -m cf ARGS`` with ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.Popen(
        [sys.executable, "-m", "cf", *args],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tree,
    )  # fmt: skip
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", action="append", default=[], help="another checkout")
    parser.add_argument("--moves", type=int, default=400_000, help="moves of the bad logs")
    parser.add_argument("--only", default="", help="run only the files whose name has this")
    opts = parser.parse_args()
    trees = [ROOT, *(Path(t).resolve() for t in opts.tree)]
    paths = files(opts.moves)
    print(f"{'file':16} {'command':9} " + " ".join(f"{t.name:>22}" for t in trees))
    print(f"{'':16} {'':9} " + " ".join(f"{'exit  CPU s  peak MB':>22}" for _ in trees))
    for name, path in paths.items():
        if opts.only not in name:
            continue
        for command in (["validate"], ["add", "Ana=1", "Ben=0"], ["undo"]):
            if name.startswith("rounds") and command[0] == "add":
                command = ["add", "A=1", "B=0", "C=2", "D=3", "--round", "1"]
            cells = []
            for tree in trees:
                work = OUT / f"work-{tree.name}.yaml"
                work.write_bytes(path.read_bytes())
                code, cpu, peak = run(tree, [command[0], str(work), *command[1:]])
                cells.append(f"{code:>4} {cpu:7.2f} {peak:8d}")
            print(f"{name:16} {command[0]:9} " + " ".join(f"{c:>22}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
