"""A long fuzzing campaign against cf (issue 11, "Proof"): counts tried / failures.

    .venv/bin/python bench/fuzz.py                 # 10,000 file inputs and the rest
    .venv/bin/python bench/fuzz.py --files 50000 --seed 7 --show 5

Families, each with its own count (the generators are tests/fuzz_families.py, which
tests/test_fuzz.py runs for a few seconds):

- ``mutated``: the examples and tests/games with random edits (lines dropped, doubled,
  swapped; bytes changed; hostile tokens dropped in; tabs; lost colons; truncation);
- ``hostile``: issue 11's families (huge numbers, control characters and surrogates,
  scalar aliases, tags, many players, problems per token, deep nesting, long values,
  unknown sets) and issue 10's slips;
- ``bytes``: random bytes behind a game-file start;
- ``options``: hostile option values through the command line (in-process runner: an
  exception that is not a clean exit counts as a failure);
- ``process``: real ``cf`` processes: closed stdout and stdin, a full disk, a broken pipe,
  hostile arguments, odd terminal encodings — no traceback, no "internal error", no
  "Exception ignored", the documented status;
- ``names`` (issue 22): the hostile-name matrix (markup, script, formulas, escape codes,
  bidi controls, surrogates), alone and run together, as player and title through every
  writer of SVG, HTML, CSV and terminal text: well-formed XML with no handler, page data
  that cannot change the parse, no formula cell, no hidden character;
- ``writers``: ``atomic_write`` through chains of symbolic links, over read-only files and
  files of another owner and mode: the link kept, the target written with its owner and
  mode, a read-only file refused and unchanged;
- ``images``: image headers (PNG, JPEG, GIF, BMP, WebP) that claim up to 4 gigapixels, and
  junk: refused before decoding, within 2 s of CPU;
- ``deep``: YAML nested 150 to 1,500 deep (notes, a round, moves, block lists) into every
  command that reads a game (validate, tally, show, hint, add, undo): no exception; past
  200 deep, exit 1 or 2 and the file unchanged;
- ``edits`` (issue 22, items 12 and 13): mutated examples and files whose ``rounds`` is
  written every way people write it (no list, ``~``, ``null``, ``[ ]``, comments, a list
  flush with its key; LF, CRLF, CR, a BOM): where cf add takes the file, cf add then
  cf undo (the library calls) gives back every byte;
- ``signals``: ``cf simulate --stats -j 2`` sent SIGINT, SIGTERM or SIGHUP after a random delay
  (to the process group, as a terminal's Ctrl-C, or to the main process alone): exit
  130/143 within 2 s, ``Interrupted.`` once, no worker left; or SIGKILL to the main
  process: every worker gone within 5 s, nothing printed.

A file input fails when reading, validating or rendering it raises, takes more than 2 s
for a file under 1 MB, keeps more than the problem cap, or gives a message that is not
one line. The figures of the last run are in bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import fuzz_families as families  # noqa: E402

from cf.cli import app  # noqa: E402

CF = [sys.executable, "-m", "cf"]


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CF_")}
    env.update(extra or {})
    return env


def _bad_stderr(err: bytes) -> str | None:
    text = err.decode("utf-8", "replace")
    for sign in ("Traceback", "internal error", "Exception ignored"):
        if sign in text:
            return f"{sign}: {text.strip()[-200:]}"
    return None


def files(generate, count: int, rng: random.Random, failures: list[str]) -> int:
    for i in range(count):
        data = generate(rng)
        reason = families.check_file(data)
        if reason:
            failures.append(f"{generate.__name__} #{i}: {reason}")
    return count


def names(count: int, rng: random.Random, failures: list[str]) -> int:
    for i in range(count):
        name = families.hostile_name(rng)
        reason = families.check_name_writers(name, seed=i)
        if reason:
            failures.append(f"names #{i}: {name!r:.80}: {reason}")
    return count


def writers(count: int, rng: random.Random, failures: list[str]) -> int:
    with tempfile.TemporaryDirectory() as folder:
        for i in range(count):
            reason = families.check_writer(rng, folder)
            if reason:
                failures.append(f"writers #{i}: {reason}")
    return count


def images(count: int, rng: random.Random, failures: list[str]) -> int:
    for i in range(count):
        reason = families.check_image(families.image_bomb(rng))
        if reason:
            failures.append(f"images #{i}: {reason}")
    return count


def deep(count: int, rng: random.Random, failures: list[str]) -> int:
    from typer.testing import CliRunner

    runner = CliRunner()
    commands = [["validate"], ["tally"], ["show"], ["show", "-f", "html"], ["hint"],
                ["add", "Ana=1", "Ben=0"], ["undo"]]  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deep.yaml"
        for i in range(count):
            text = families.deep_file(rng)
            path.write_text(text)
            command = rng.choice(commands)
            result = runner.invoke(app, [command[0], str(path), *command[1:]])
            too_deep = "nest more than" in str(families.check_file(text) or "") or any(
                p.code == "yaml" for p in families.read_game(text).problems
            )
            crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
            # Up to 200 deep is read (and may be shown, or edited); deeper is refused alike
            # by every command, and the file is left as it was.
            refused = result.exit_code in (1, 2) and path.read_text() == text
            bad = crashed or "internal error" in result.output or (too_deep and not refused)
            if bad:
                failures.append(f"deep #{i}: {command} -> {result.exit_code} "
                                f"{result.exception!r:.150} {result.output[-150:]!r}")  # fmt: skip
    return count


def edits(count: int, rng: random.Random, failures: list[str]) -> int:
    for i in range(count):
        reason = families.check_edit(families.edit_input(rng))
        if reason:
            failures.append(f"edits #{i}: {reason}")
    return count


def options(count: int, rng: random.Random, failures: list[str]) -> int:
    from test_fuzz import HOSTILE_VALUES, OPTIONS
    from typer.testing import CliRunner

    runner = CliRunner()
    values = [*HOSTILE_VALUES, "0", "1", "2", "4", "9", "100", "players", "Ana,Ana", "A,,B"]
    for i in range(count):
        command = rng.choice(list(OPTIONS))
        args = [command]
        for option in rng.sample(OPTIONS[command], rng.randint(1, len(OPTIONS[command]))):
            args += [option, rng.choice(values)]
        if command == "score":
            args.append(rng.choice(["9-7", "0-0 1-1", "x", ""]))
        if command == "simulate" and "--rounds" not in args:
            args += ["--rounds", "1"]
        result = runner.invoke(app, args)
        bad = result.exit_code not in (0, 1, 2) or (
            result.exception is not None and not isinstance(result.exception, SystemExit)
        )
        if bad:
            failures.append(f"options #{i}: {args!r:.200} -> {result.exit_code} "
                            f"{result.exception!r:.200}")  # fmt: skip
    return count


def _process_cases(tmp: Path) -> list[tuple[str, set[int]]]:
    good = tmp / "good.yaml"
    good.write_text("players: [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 0}}]\n")
    bad = tmp / "bad.yaml"
    bad.write_text("players: [Ana, Ben]\nrounds:\n  - hands: {Ana: " + "x " * 5000 + "}\n")
    uni = tmp / "uni.yaml"
    uni.write_text("players: [José, 🐔, مرحبا]\nrounds: [{scores: {José: 1, 🐔: 0, مرحبا: 2}}]\n")
    big = "9" * 5000
    return [
        ("$CF score 1-1 > /dev/full", {1}),
        ("$CF score 1-1 >&-", {1}),
        (f"$CF tally {good} >&-", {1}),
        (f"$CF tally {good} -f json >&-", {1}),
        ("$CF simulate --seed 1 --rounds 1 >&-", {1}),
        (f"$CF validate {bad} > /dev/full", {1}),
        ("$CF score <&-", {2}),
        ("$CF validate <&-", {2}),
        (f"$CF validate {bad} | head -c 10 >/dev/null; exit ${{PIPESTATUS[0]}}", {141}),
        (f"$CF validate -f json {bad} | head -1 >/dev/null; exit ${{PIPESTATUS[0]}}", {141}),
        (f"$CF tally {uni}", {0}),
        (f"PYTHONIOENCODING=ascii $CF tally {uni}", {0}),
        (f"PYTHONIOENCODING=latin-1 $CF tally {uni} -f json", {0}),
        (f"LC_ALL=C PYTHONUTF8=0 $CF tally {uni}", {0}),
        ("PYTHONIOENCODING=ascii $CF simulate --names José,🐔 --seed 2 --rounds 1", {0}),
        (f"$CF score --set {big} 1-1", {2}),
        (f"CF_SET=d{big} $CF score 1-1", {2}),
        (f"CF_DOUBLE_BLANK={big} $CF simulate --seed 1", {2}),
        (f"$CF simulate --stats --games 2 --double-blank 1{'0' * 320}", {0}),
        (f"$CF validate {good} {tmp / 'big-set.yaml'}", {1}),
        ("$CF simulate --starter-arms ² --seed 1", {2}),
        (f"$CF simulate --seed 1 --rounds 1 -o {good}", {2}),
        ("$CF simulate --seed 1 -o /dev/null", {2}),
        (f"$CF simulate --seed 1 -o {good}/x.yaml", {2}),
        ("$CF simulate --seed 1 --games 2 -o -", {2}),
        ("$CF simulate --names $'A\\x07,B' --seed 1", {2}),
        (f"$CF new {tmp}/n1.yaml --players $'A\\x07,B'", {2}),
        (f"$CF new {tmp}/n2.yaml --players $'\\xff,B'", {2}),
        (f"$CF new {tmp}/n3.yaml --players A,B --title $'\\xff'", {2}),
        (f"$CF new {tmp}/n4.yaml --players A,B --starter-arms ²", {2}),
        (f"$CF new {tmp}/n5.yaml --players A,B --starter-arms {big}", {2}),
        (f"$CF add {good} A={big} B=0", {1}),
        (f"$CF show {good} -o {good}", {2}),
        (f"$CF tally {good} --chart {good}", {2}),
        ("$CF score --photo /dev/zero", {1, 2}),
    ]


def processes(count: int, rng: random.Random, failures: list[str]) -> int:
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        cases = _process_cases(tmp)
        (tmp / "big-set.yaml").write_text(f"set: {'9' * 5000}\nplayers: [A, B]\nrounds: []\n")
        env = _env({"CF": " ".join(CF)})
        for i in range(count):
            line, statuses = cases[i % len(cases)] if i < len(cases) else rng.choice(cases)
            proc = subprocess.run(
                ["bash", "-c", line], capture_output=True, env=env, cwd=tmp, timeout=120
            )
            why = _bad_stderr(proc.stderr)
            if why or proc.returncode not in statuses:
                failures.append(f"process #{i}: {line[:120]} -> {proc.returncode} {why or ''}")
    return count


def signals(count: int, rng: random.Random, failures: list[str]) -> int:
    for i in range(count):
        signum = rng.choice([signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
        proc = subprocess.Popen(
            [*CF, "simulate", "--stats", "-j", "2", "--games", "1000000", "--seed", str(i)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_env(),
            start_new_session=True,
        )
        time.sleep(rng.uniform(0.25, 1.5))  # after start-up: see cf/_entry.py
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        workers = children.read_text().split() if children.exists() else []
        if signum == signal.SIGKILL:
            proc.kill()  # the main process alone: its workers must end by themselves
            _, err = proc.communicate(timeout=20)
            _killed(i, workers, err, failures)
            continue
        (os.killpg if rng.random() < 0.5 else lambda pid, s: os.kill(pid, s))(proc.pid, signum)
        sent = time.monotonic()
        try:
            _, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            failures.append(f"signals #{i}: still running 20 s after {signum!r}")
            continue
        took = time.monotonic() - sent
        time.sleep(0.1)
        left = [w for w in workers if Path(f"/proc/{w}").exists()]
        expected = 128 + signum
        text = err.decode("utf-8", "replace")
        if proc.returncode != expected or text != "Interrupted.\n" or left or took > 2:
            failures.append(
                f"signals #{i}: {signum!r} -> {proc.returncode} in {took:.1f} s, "
                f"stderr {text[-120:]!r}, workers left {left}"
            )
    return count


def _killed(i: int, workers: list[str], err: bytes, failures: list[str]) -> None:
    """After SIGKILL of the main process: every worker gone within 5 s, nothing said."""
    deadline = time.monotonic() + 5
    left = workers
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = [w for w in workers if _running(w)]
    for w in left:
        os.kill(int(w), signal.SIGKILL)  # never leave a runaway behind
    if left or err:
        failures.append(f"signals #{i}: SIGKILL -> workers left {left}, stderr {err[-120:]!r}")


def _running(pid: str) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "zombie" not in status.read_text()
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=10_000, help="file inputs in all")
    parser.add_argument("--options", type=int, default=2_000)
    parser.add_argument("--processes", type=int, default=300)
    parser.add_argument("--signals", type=int, default=40)
    parser.add_argument("--names", type=int, default=1_000)
    parser.add_argument("--writers", type=int, default=1_000)
    parser.add_argument("--images", type=int, default=1_000)
    parser.add_argument("--deep", type=int, default=300)
    parser.add_argument("--edits", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=10, help="failures to print per family")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    third = args.files // 3
    plan = [
        ("mutated", lambda f: files(families.mutated_example, third, rng, f)),
        ("hostile", lambda f: files(families.hostile_file, third, rng, f)),
        ("bytes", lambda f: files(families.random_bytes, args.files - 2 * third, rng, f)),
        ("names", lambda f: names(args.names, rng, f)),
        ("writers", lambda f: writers(args.writers, rng, f)),
        ("images", lambda f: images(args.images, rng, f)),
        ("deep", lambda f: deep(args.deep, rng, f)),
        ("edits", lambda f: edits(args.edits, rng, f)),
        ("options", lambda f: options(args.options, rng, f)),
        ("process", lambda f: processes(args.processes, rng, f)),
        ("signals", lambda f: signals(args.signals, rng, f)),
    ]
    total_tried = total_failed = 0
    print(f"cf fuzz campaign, seed {args.seed}")
    print(f"{'family':<10} {'tried':>8} {'failures':>9} {'seconds':>8}")
    for name, work in plan:
        failures: list[str] = []
        start = time.perf_counter()
        tried = work(failures)
        elapsed = time.perf_counter() - start
        print(f"{name:<10} {tried:>8} {len(failures):>9} {elapsed:>8.1f}", flush=True)
        for line in failures[: args.show]:
            print(f"    {line}")
        total_tried += tried
        total_failed += len(failures)
    print(f"{'total':<10} {total_tried:>8} {total_failed:>9}")
    sys.exit(1 if total_failed else 0)


if __name__ == "__main__":
    main()
