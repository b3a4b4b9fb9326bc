"""The pre-commit hook (.pre-commit-hooks.yaml): its entry, run as pre-commit runs it."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).parent.parent
GAMES = ROOT / "tests" / "games"


def hook() -> dict:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (found,) = [h for h in hooks if h["id"] == "cf-validate"]
    return found


def test_the_hook_definition():
    h = hook()
    assert h["entry"] == "cf validate"
    assert h["language"] == "python"  # pre-commit pip-installs this repository
    assert h["types"] == ["yaml"]
    assert h["name"] and h["description"]
    assert h.get("pass_filenames", True)


def run_entry(*files: Path) -> subprocess.CompletedProcess[str]:
    """``entry`` plus the file names, with the installed ``cf`` first on PATH."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    command = [*shlex.split(hook()["entry"]), *map(str, files)]
    return subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)


def test_the_entry_fails_a_bad_file_and_passes_good_ones():
    good = [GAMES / "valid-foot-blocks.yaml", ROOT / "examples" / "scorekeeper.yaml"]
    bad = GAMES / "turn.yaml"
    passed = run_entry(*good)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert passed.stdout.count(": valid (") == 2
    failed = run_entry(good[0], bad)
    assert failed.returncode == 1
    assert f"{bad}:11:9: round 1, move 2: [turn]" in failed.stdout
