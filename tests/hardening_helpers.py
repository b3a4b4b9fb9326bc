"""Helpers of the hardening tests (hostile files, fuzzing, names and numbers): read and
validate with every renderer, run ``python -m cf`` as a real process, small games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

from cf.play.simulate import simulate_game
from cf.record.check import Report, validate
from cf.record.emit import game_yaml
from cf.record.problems import CODES
from cf.record.reader import read_game
from cf.render.problems import render_validation
from cf.rules import Rules

ROOT = Path(__file__).parent.parent
FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def check(data: bytes | str, name: str = "hostile.yaml") -> Report:
    """Read and validate; every problem must be well formed and every format must render."""
    game = read_game(data, name)
    report = validate(game)
    for p in report.problems:
        assert p.code in CODES, p
        assert isinstance(p.message, str) and p.message.strip(), p
        assert p.line is None or p.line >= 1, p
        assert p.column is None or p.column >= 1, p
    render_validation([report], "text")
    render_validation([report], "github")
    json.loads(render_validation([report], "json"))
    return report


def assert_one_line_each(report: Report) -> None:
    """SPEC §7: one line per problem, then the summary line."""
    text = render_validation([report], "text")
    assert len(text.splitlines()) == len(report.problems) + 1, text[:2000]


def messages(report: Report) -> str:
    return "\n".join(f"[{p.code}] {p.message}" for p in report.problems)


def cf(
    *args: str, stdin: bytes | None = None, stdin_file=None, limit_memory: int | None = None
) -> subprocess.CompletedProcess:
    """Run ``python -m cf ARGS`` as a real process (a hang fails at the timeout)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CF_")}

    def limits() -> None:  # pragma: no cover - runs in the child
        if limit_memory is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (limit_memory, limit_memory))

    return subprocess.run(
        [sys.executable, "-m", "cf", *args],
        input=stdin,
        stdin=stdin_file,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        preexec_fn=limits if limit_memory else None,
    )


def assert_clean_failure(proc: subprocess.CompletedProcess, codes=(1, 2)) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err[-3000:]
    assert "internal error" not in err, err[-3000:]
    assert proc.returncode in codes, (proc.returncode, err[-3000:])
    return err


def small_game(names: list[str], rounds: int = 2, seed: int = 5) -> str:
    """A complete, valid game file written by the simulator."""
    game = simulate_game(names, Rules(top=9), ["greedy"] * len(names), seed, rounds)
    return game_yaml(game)
