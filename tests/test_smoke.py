"""The commands of the README's first screen, end to end."""

from __future__ import annotations

import subprocess
import sys


def test_score_the_rule_sheet_example(cli):
    result = cli("score", "9-7", "6-6", "4-1")
    assert result.exit_code == 0
    assert result.stdout == "33\n"


def test_cf_runs_as_a_real_process():
    proc = subprocess.run(
        [sys.executable, "-m", "cf", "score", "9-7 6-6 4-1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "33\n"
