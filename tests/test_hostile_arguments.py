"""Odd command-line values (issue 22 items 10, 14): control characters, bytes that are not
UTF-8, digits that are not ASCII, thousands of digits. Each is a clear usage message
(exit 2) or a problem (exit 1), never an internal error or a ``Problem(...)`` repr.
Real processes: only they get bytes that are not UTF-8 in their arguments."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

BIG = "9" * 5000


def run(*args: str | bytes, cwd=None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CF_")}
    argv = [a if isinstance(a, bytes) else a.encode() for a in args]
    return subprocess.run(
        [sys.executable.encode(), b"-m", b"cf", *argv],
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=60,
    )


def assert_clear(proc: subprocess.CompletedProcess, code: int, *words: str) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == code, (proc.returncode, err)
    for bad in ("internal error", "Traceback", "Problem("):
        assert bad not in err, err
    for word in words:
        assert word in err, err
    assert len(err) < 2000, err
    return err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ([b"--players", b"A\x07,B"], ["--players", "control characters", "A\\x07"]),
        ([b"--players", b"\xff,B"], ["--players", "not UTF-8"]),
        ([b"--players", b"A,B", b"--title", b"\xff"], ["--title", "not UTF-8"]),
        ([b"--players", b"A,B", b"--title", b"T\x1b[2J"], ["--title", "\\x1b[2J"]),
        ([b"--players", b"A,B", b"--starter-arms", "²".encode()], ["--starter-arms"]),
        ([b"--players", b"A,B", b"--starter-arms", BIG.encode()], ["--starter-arms"]),
    ],
    ids=["bell", "not-utf8-name", "not-utf8-title", "escape-title", "superscript", "5000"],
)
def test_cf_new_odd_values_are_usage_errors(tmp_path, args, words):
    proc = run("new", str(tmp_path / "g.yaml"), *args)
    assert_clear(proc, 2, *words)
    assert not (tmp_path / "g.yaml").exists()


def test_cf_add_a_score_of_5000_digits_is_a_problem(tmp_path):
    game = tmp_path / "g.yaml"
    game.write_text("players: [Ana, Ben]\nrounds: []\n")
    proc = run("add", str(game), f"Ana={BIG}", "Ben=0")
    assert_clear(proc, 1, "5000 digits")
    assert game.read_text() == "players: [Ana, Ben]\nrounds: []\n"


def test_cf_add_a_name_that_is_not_utf8_is_a_problem(tmp_path):
    game = tmp_path / "g.yaml"
    game.write_text("players: [Ana, Ben]\nrounds: []\n")
    proc = run("add", str(game), b"\xff=1", b"Ben=0")
    assert_clear(proc, 1, "is not a player")
