"""How the photo reader sets up its process (cf/photo/__init__.py, cf/photo/reader.py): one
core for numpy's BLAS and for OpenCV, whose idle threads cost CPU time for nothing on the
small images it works on (bench/README.md has the figures; no timing here)."""

from __future__ import annotations

import os
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
