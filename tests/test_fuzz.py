"""Seeded fuzzing of the reader, the validator and the command line (issue 11, "Proof").

The same families run for minutes in bench/fuzz.py; here a few seeds each, bounded by
time so that CI stays fast. A failure names its seed: ``fuzz_families`` rebuilds it.
"""

from __future__ import annotations

import random
import time

import fuzz_families as families
import pytest
from typer.testing import CliRunner

from cf.cli import app

BUDGET = 0.3  # seconds per family here; bench/fuzz.py runs them for as long as asked


def _campaign(generate, seed: int) -> list[str]:
    rng = random.Random(seed)
    failures = []
    deadline = time.perf_counter() + BUDGET
    tried = 0
    while time.perf_counter() < deadline or tried < 5:
        data = generate(rng)
        reason = families.check_file(data)
        if reason:
            failures.append(f"seed {seed} input {tried}: {reason}")
        tried += 1
    return failures


@pytest.mark.parametrize(
    "generate",
    [families.mutated_example, families.hostile_file, families.random_bytes],
    ids=["mutated-examples", "hostile-families", "random-bytes"],
)
def test_fuzz_files(generate):
    assert _campaign(generate, 20261201) == []


def test_fuzz_add_then_undo():
    """Issue 22 items 12-13: for any file cf add takes, add then undo gives back its bytes."""
    rng = random.Random(20261201)
    deadline = time.perf_counter() + BUDGET
    tried = 0
    while time.perf_counter() < deadline or tried < 20:
        text = families.edit_input(rng)
        assert families.check_edit(text) is None, (tried, text)
        tried += 1


@pytest.mark.parametrize("family", range(12))
def test_every_hostile_family_once(family):
    """Each family at least once, whatever the time budget leaves out."""
    for seed in range(200):
        rng = random.Random(seed)
        state = rng.getstate()
        if rng.randrange(12) == family:
            rng.setstate(state)
            assert families.check_file(families.hostile_file(rng), seconds=3.0) is None
            return
    pytest.fail(f"no seed picks family {family}")  # pragma: no cover


HOSTILE_VALUES = ["9" * 5000, "d" + "9" * 5000, "²", "-5", "", "\x1b[2J", "1e309", "0x10", "🐔"]
OPTIONS = {
    "score": ["--set", "--double-blank"],
    "deal": ["--set", "--deal", "--reserve", "--seed", "--names", "--round"],
    "simulate": [
        "--set",
        "--double-blank",
        "--starter-arms",
        "--seed",
        "--names",
        "--rounds",
        "--deal",
        "--players",
    ],
}


def test_fuzz_options_never_fail_inside():
    """Hostile option values: exit 0, 1 or 2 with a clean message, never an exception."""
    runner = CliRunner()
    rng = random.Random(11)
    deadline = time.perf_counter() + BUDGET
    tried = 0
    while time.perf_counter() < deadline or tried < 10:
        command = rng.choice(list(OPTIONS))
        args = [command]
        for option in rng.sample(OPTIONS[command], rng.randint(1, 2)):
            args += [option, rng.choice(HOSTILE_VALUES)]
        if command == "score":
            args.append("9-7")
        if command == "simulate":
            args += ["--rounds", "1"] if "--rounds" not in args else []
        result = runner.invoke(app, args)
        assert result.exit_code in (0, 1, 2), (args, result.output[-500:])
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            args,
            repr(result.exception),
        )
        assert len(result.output) < 5000 or result.exit_code == 0, (args, result.output[:300])
        tried += 1


def test_fuzz_the_compact_composer_agrees_with_libyaml(monkeypatch):
    """Files over 1 MiB are composed by cf.record.compose: on any input it must find what
    libyaml's composer finds (nesting between 200 and 1,000 deep aside, refused by it)."""
    from cf.record import reader
    from cf.record.check import validate

    def seen(data: bytes, compact_from: int) -> tuple[object, ...]:
        monkeypatch.setattr(reader, "COMPACT_FROM", compact_from)
        report = validate(reader.read_game(data, "x"))
        problems = [
            (p.code, p.line, p.column, p.round, p.move, p.message) for p in report.problems
        ]
        return tuple(problems), tuple(map(str, report.round_points))

    rng = random.Random(5)
    deadline = time.perf_counter() + BUDGET
    tried = 0
    while time.perf_counter() < deadline or tried < 10:
        generate = (families.mutated_example, families.hostile_file, families.random_bytes)[
            tried % 3
        ]
        data = generate(rng)
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        compact = seen(data, 0)
        if "nest more than" not in str(compact):
            assert compact == seen(data, 1 << 40), (tried, data[:300])
        tried += 1


# --- issue 22: the new families, a few of each ---------------------------------------------


def test_fuzz_hostile_names_into_every_writer():
    rng = random.Random(22)
    for i in range(12):
        name = families.hostile_name(rng)
        assert families.check_name_writers(name, seed=i) is None, name


def test_fuzz_writers(tmp_path):
    rng = random.Random(22)
    for _ in range(40):
        assert families.check_writer(rng, str(tmp_path)) is None


def test_fuzz_image_bombs():
    pytest.importorskip("cv2")
    rng = random.Random(22)
    for _ in range(30):
        assert families.check_image(families.image_bomb(rng)) is None


def test_fuzz_deep_yaml():
    rng = random.Random(22)
    for _ in range(10):
        assert families.check_file(families.deep_file(rng)) is None
