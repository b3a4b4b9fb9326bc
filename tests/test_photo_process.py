"""How the photo reader sets up its process (cf/photo/__init__.py, cf/photo/reader.py): one
core for numpy's BLAS and for OpenCV, whose idle threads cost CPU time for nothing on the
small images it works on; and the photo commands keep the memory they free for their next
arrays (bench/README.md has the figures; no timing here)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

pytest.importorskip("cv2")


def test_the_reader_runs_numpy_and_opencv_on_one_core():
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    code = (
        "import os, cf.photo, cv2; print(os.environ['OPENBLAS_NUM_THREADS'], cv2.getNumThreads())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["1", "1"]


def test_a_blas_setting_of_ones_own_is_kept():
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2"}
    code = "import os, cf.photo; print(os.environ['OPENBLAS_NUM_THREADS'])"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "2"


#: Makes and drops arrays of 1 to 3.4 MiB, each larger than the last (as the reader's
#: images of several sizes come and go), touching each page; prints the page faults taken.
FAULTS = """
import resource, sys
import numpy as np
from cf import _process
if sys.argv[1] == "keep":
    _process.keep_freed_memory()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for step in range(40):
    block = np.empty((1 << 20) + step * (64 << 10), np.uint8)
    block[::4096] = 1
    del block
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(mode: str) -> int:
    out = subprocess.run(
        [sys.executable, "-c", FAULTS, mode], capture_output=True, text=True, check=True
    )
    return int(out.stdout)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc")
def test_a_photo_command_reuses_the_memory_it_frees():
    # Each array is mapped on its own and unmapped when dropped, so the next one faults in
    # all its pages again (256 to 870); kept in the heap, they are reused as they are.
    dropped = _faults("drop")
    if dropped < 40 * 200:
        pytest.skip(f"this system faults in few pages for a new array ({dropped})")
    assert _faults("keep") < dropped // 4


def test_the_photo_commands_keep_freed_memory(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from cf.cli import app
    from cf.commands import add, score_photo

    kept = []
    monkeypatch.setattr(score_photo, "keep_freed_memory", lambda: kept.append("score"))
    monkeypatch.setattr(add, "keep_freed_memory", lambda: kept.append("add"))
    photo = os.path.join(os.path.dirname(__file__), "..", "examples", "photos")
    photo = os.path.join(photo, "double-twelve-8-8-7-0.jpg")
    result = CliRunner().invoke(app, ["score", "--photo", photo, "--set", "12"])
    assert result.exit_code == 0, result.output
    game = tmp_path / "g.yaml"
    result = CliRunner().invoke(app, ["new", str(game), "--players", "Ana,Ben", "--set", "12"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(app, ["add", str(game), f"Ana=@{photo}", "Ben=out"])
    assert result.exit_code == 0, result.output
    assert kept == ["score", "add"]
