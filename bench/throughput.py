"""Throughput: `cf validate` and `cf tally` over a league's archive against reading its YAML.

    .venv/bin/python bench/gen_archive.py          # once: bench/out/archive/*.yaml
    .venv/bin/python bench/throughput.py           # --reps 7, --profile, --json FILE

Everything is measured in ONE process, in alternating rounds (the order rotates every
round), so that a noisy machine slows every contender alike:

- ``compose``: each file read from disk, decoded and given to
  ``yaml.compose(text, Loader=yaml.CSafeLoader)``, the tree discarded, one file at a time.
  This is the baseline of the target. ``compose-gc-off`` is the same with the cyclic garbage
  collector paused while composing (what cf's reader does), a stricter baseline, for honesty.
- ``read-lib``: cf's reader alone (read_game_file: compose and build the game, no replay).
- ``validate-lib`` / ``tally-lib``: the library calls behind ``cf validate`` and ``cf tally``
  (read_game_file, validate; plus standings and the rendered table for tally), cf's parse
  caches emptied before each run as in a new process.
- ``validate-cli`` / ``tally-cli``: ``python -m cf validate|tally bench/out/archive/*.yaml``
  as a subprocess (start-up included; ``python -c pass`` is timed too, to show it), and
  ``compose-cli``: the compose baseline as a subprocess too (``python -c "import yaml; …"``),
  so that whole invocations can be compared with whole invocations (column ``x c-cli``),
  and ``validate-cli-tiny``: ``cf validate`` on a one-round file, the cost of an invocation
  before any real work (start-up, imports).

Target (issue 6, item 2): validate and tally within 1.5 x compose. Ratios are the median of
the per-round ratios; times are medians. ``--profile`` prints where validate-lib spends its
time (cProfile) instead.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import statistics
import subprocess
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cf.record.check import validate  # noqa: E402
from cf.record.reader import read_game_file  # noqa: E402
from cf.record.standings import game_standings, tournament  # noqa: E402
from cf.render.standings import render_tournament  # noqa: E402

ARCHIVE = ROOT / "bench" / "out" / "archive"
TARGET = 1.5


def compose_all(paths: list[str]) -> None:
    for path in paths:
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8")
        yaml.compose(text, Loader=yaml.CSafeLoader)


def compose_all_gc_off(paths: list[str]) -> None:
    for path in paths:
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8")
        gc.disable()
        try:
            yaml.compose(text, Loader=yaml.CSafeLoader)
        finally:
            gc.enable()


def _cold_caches() -> None:
    """Empty cf's parse caches, so that every in-process run starts as a new process does."""
    import cf.notation
    import cf.tiles

    cf.notation._ACTION_CACHE.clear()
    cf.tiles._ORIENTED_CACHE.clear()


def read_lib(paths: list[str]) -> int:
    _cold_caches()
    return sum(len(read_game_file(path).problems) for path in paths)


def validate_lib(paths: list[str]) -> int:
    _cold_caches()
    bad = 0
    for path in paths:
        bad += not validate(read_game_file(path)).valid
    return bad


def tally_lib(paths: list[str]) -> str:
    _cold_caches()
    standings = []
    for path in paths:
        game = read_game_file(path)
        report = validate(game)
        assert report.valid, path
        standings.append(
            game_standings(game.file, game.players, report.round_points, game.top + 1)
        )
    return render_tournament(tournament(standings, "total"), "simple")


# Subprocesses run as on a user's machine, with cf's bytecode cached (this sandbox sets
# PYTHONDONTWRITEBYTECODE=1, and an editable install has no .pyc otherwise): the same
# mode as bench/startup.sh's default, and the cache lives under bench/out/pycache.
CLI_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
CLI_ENV["PYTHONPYCACHEPREFIX"] = str(ROOT / "bench" / "out" / "pycache")


def cli(command: str, paths: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cf", command, *paths], capture_output=True, cwd=ROOT, env=CLI_ENV
    )
    if done.returncode != 0:
        raise SystemExit(f"cf {command} failed ({done.returncode}): {done.stderr[-500:]!r}")


COMPOSE_SCRIPT = """
import sys, yaml
for path in sys.argv[1:]:
    with open(path, "rb") as fh:
        yaml.compose(fh.read().decode("utf-8"), Loader=yaml.CSafeLoader)
"""


def compose_cli(paths: list[str]) -> None:
    subprocess.run([sys.executable, "-c", COMPOSE_SCRIPT, *paths], check=True, env=CLI_ENV)


TINY = ROOT / "bench" / "out" / "tiny.yaml"


def cli_tiny(_paths: list[str]) -> None:
    """`cf validate` on a one-round file: what an invocation costs before any real work."""
    if not TINY.exists():
        TINY.write_text("players: [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 0}}]\n")
    cli("validate", [str(TINY)])


def python_pass(_paths: list[str]) -> None:
    subprocess.run([sys.executable, "-c", "pass"], check=True, env=CLI_ENV)


CONTENDERS = {
    "compose": compose_all,
    "compose-gc-off": compose_all_gc_off,
    "read-lib": read_lib,
    "validate-lib": validate_lib,
    "tally-lib": tally_lib,
    "validate-cli": lambda p: cli("validate", p),
    "tally-cli": lambda p: cli("tally", p),
    "compose-cli": compose_cli,
    "validate-cli-tiny": cli_tiny,
    "python -c pass": python_pass,
}


def measure(paths: list[str], reps: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in CONTENDERS}
    names = list(CONTENDERS)
    for name in names:  # warm-up: page cache, .pyc files, parse caches
        CONTENDERS[name](paths)
    for r in range(reps):
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            start = time.perf_counter()
            CONTENDERS[name](paths)
            times[name].append(time.perf_counter() - start)
    return times


def profile(paths: list[str]) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    validate_lib(paths)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(20)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=7, help="alternating rounds (default 7)")
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--profile", action="store_true", help="cProfile validate-lib, once")
    parser.add_argument("--json", type=Path, help="also write the raw times here")
    args = parser.parse_args()

    paths = sorted(str(p) for p in args.archive.glob("*.yaml"))
    if not paths:
        print(f"no files in {args.archive}: run bench/gen_archive.py first", file=sys.stderr)
        return 2
    if args.profile:
        profile(paths)
        return 0

    moves = sum(read_game_file(p).move_count for p in paths)
    size = sum(Path(p).stat().st_size for p in paths)
    assert validate_lib(paths) == 0, "the archive should be valid"
    with redirect_stdout(io.StringIO()):
        tally_lib(paths)

    times = measure(paths, args.reps)
    med = {name: statistics.median(ts) for name, ts in times.items()}

    def ratio(name: str, base: str = "compose") -> float:
        return statistics.median(a / b for a, b in zip(times[name], times[base], strict=True))

    print(
        f"archive: {len(paths)} files, {moves} moves, {size / 2**20:.2f} MiB; "
        f"{args.reps} alternating rounds, medians"
    )
    head = f"{'':17} {'seconds':>8} {'moves/s':>10} {'x compose':>10} {'x gc-off':>9}"
    print(head + f" {'x c-cli':>8}")
    for name in CONTENDERS:
        if name in ("python -c pass", "validate-cli-tiny"):
            print(f"{name:17} {med[name]:8.3f}")
            continue
        print(
            f"{name:17} {med[name]:8.3f} {moves / med[name]:10,.0f} "
            f"{ratio(name):10.2f} {ratio(name, 'compose-gc-off'):9.2f}"
            + (f" {ratio(name, 'compose-cli'):8.2f}" if name.endswith("-cli") else "")
        )
    verdicts = []
    for name, base in (
        ("validate-lib", "compose"),
        ("tally-lib", "compose"),
        ("validate-cli", "compose"),
        ("tally-cli", "compose"),
        ("validate-cli", "compose-cli"),
        ("tally-cli", "compose-cli"),
    ):
        r = ratio(name, base)
        verdicts.append(f"{name}/{base} {r:.2f} {'<=' if r <= TARGET else '>'} {TARGET}")
    print("target 1.5:\n  " + "\n  ".join(verdicts))
    if args.json:
        args.json.write_text(
            json.dumps(
                {"files": len(paths), "moves": moves, "bytes": size, "times": times}, indent=1
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
