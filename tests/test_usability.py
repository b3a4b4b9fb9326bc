"""Rough edges a first evening finds (issue "Installs anywhere"): each test fails without
its fix. Packaging: the wheel carries every module and names the commands; stdin hints;
names; formats; misspelled commands; usage errors in words."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
CF = [sys.executable, "-m", "cf"]


# --- packaging ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "-w", str(out), str(ROOT)],
        check=True, capture_output=True,
    )  # fmt: skip
    return next(out.glob("*.whl"))


def test_the_wheel_carries_every_module(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {str(p.relative_to(ROOT)) for p in (ROOT / "cf").rglob("*.py")}
    assert modules - names == set()


def test_the_wheel_carries_the_photo_readers_networks(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    models = {str(p.relative_to(ROOT)) for p in (ROOT / "cf" / "photo" / "models").glob("*.onnx")}
    assert models and models <= names


def test_the_wheel_carries_the_page_of_cf_serve(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    static = {str(p.relative_to(ROOT)) for p in (ROOT / "cf" / "serve" / "static").iterdir()}
    assert {"cf/serve/static/page.html", "cf/serve/static/app.js"} <= static
    assert static - names == set()


def test_the_wheel_is_chickenfoot_with_two_commands(wheel):
    assert wheel.name.startswith("chickenfoot-")
    z = zipfile.ZipFile(wheel)
    entry = next(n for n in z.namelist() if n.endswith("entry_points.txt"))
    text = z.read(entry).decode()
    assert "cf = cf._entry:main" in text and "chickenfoot = cf._entry:main" in text
    meta = z.read(next(n for n in z.namelist() if n.endswith("METADATA"))).decode()
    assert "Requires-Python: >=3.10" in meta
    assert "License-Expression: MIT" in meta


def test_an_old_python_gets_the_reason_not_a_resolver_error():
    env = {**os.environ, "PYTHONPATH": str(ROOT / "build_backend")}
    code = "import sys; sys.version_info = (3, 9, 18); import chickenfoot_build"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert r.returncode == 1
    assert "needs Python 3.10 or newer" in r.stderr


# --- cf score's stdin ----------------------------------------------------------------------


def test_a_hash_starts_a_comment(cli):
    r = cli("score", input="Ana: 9-7 6-6 # left over\n# a whole line of comment\n1-1\n")
    assert r.exit_code == 0
    assert r.stdout == "Ana: 28\n2\n"


def test_an_indented_line_is_an_error_that_says_one_hand_per_line(cli):
    r = cli("score", input="starter: 9-9\ndeal:\n  Ana: 9-7 6-6\n")
    assert r.exit_code == 1
    assert "line 3" in r.stderr and "one hand per line" in r.stderr
    assert "Ana" not in r.stdout


def test_a_shuffled_deal_piped_into_score_is_refused_line_by_line(cli):
    dealt = cli("deal", "--shuffle", "--seed", "1", "--names", "Ana,Ben")
    r = cli("score", input=dealt.stdout)
    assert r.exit_code == 1
    assert "chicken yard" not in r.stdout  # the comment line is a comment
    assert r.stderr.count("one hand per line") == 2  # the two indented hands


def test_a_terminal_gets_a_hint_instead_of_silence():
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: cf score reading the terminal
        os.execv(sys.executable, [sys.executable, "-m", "cf", "score"])
    import select

    def read_until(marker: bytes, seen: bytes) -> bytes:
        while marker not in seen and select.select([fd], [], [], 20)[0]:
            seen += os.read(fd, 1024)
        return seen

    try:
        seen = read_until(b"Ctrl-D", b"")
        os.write(fd, b"9-7\n\x04")
        seen = read_until(b"16", seen)
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    assert b"reading hands from the terminal; end with Ctrl-D" in seen


def test_no_hint_when_stdin_is_a_pipe():
    r = subprocess.run([*CF, "score"], input="9-7\n", capture_output=True, text=True)
    assert r.stdout == "16\n" and r.stderr == ""


# --- names, formats, commands ----------------------------------------------------------------


@pytest.mark.parametrize("names", ["Ana,,Ben", "Ana,Ben,", ",Ana,Ben", "Ana, ,Ben"])
def test_an_empty_name_is_a_usage_error(cli, names):
    r = cli("simulate", "--names", names, "--seed", "1")
    assert r.exit_code == 2
    assert "empty name" in r.stderr


def test_simulate_json_without_stats_is_a_usage_error(cli):
    r = cli("simulate", "--seed", "1", "-f", "json")
    assert r.exit_code == 2
    assert "--stats" in r.stderr and r.stdout == ""


def test_a_misspelled_command_gets_a_suggestion(cli):
    r = cli("scroe", "9-7")
    assert r.exit_code == 2
    assert "Did you mean 'score'?" in r.stderr


def test_cf_help_command_is_its_help(cli):
    assert cli("help", "tally").stdout == cli("tally", "--help").stdout
    assert cli("help").stdout == cli("--help").stdout
    bad = cli("help", "tallly")
    assert bad.exit_code == 2 and "Did you mean 'tally'?" in bad.stderr


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "--players", "abc"], "'abc' is not a valid whole number"),
        (["simulate", "--players", "1"], "1 is not in the range from 2 to 100"),
        (["deal", "--deal", "x"], "'x' is not a valid whole number"),
    ],
)
def test_usage_errors_have_no_click_jargon(cli, args, words):
    r = cli(*args)
    assert r.exit_code == 2
    assert words in r.stderr
    assert "int range" not in r.stderr and "<=x<=" not in r.stderr


def test_the_wheel_carries_the_message_catalogues(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for lang in ("es", "gl"):
        assert f"cf/locale/{lang}/LC_MESSAGES/cf.mo" in names
