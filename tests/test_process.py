"""cf as a process (issue 11 items 1–8, 13, 15): output that cannot be written, closed
streams, broken pipes, signals and workers, encodings, atomic writes, odd option values.

Real subprocesses where only a real process shows the behaviour (file descriptors,
signals, the interpreter's exit); the in-process runner elsewhere.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cf.record.reader import read_game

ROOT = Path(__file__).parent.parent
GOOD = "players: [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 0}}]\n"


def run(*args: str, shell: str | None = None, env: dict | None = None, **kw):
    """``python -m cf ARGS`` (or a shell line using ``$CF``), as a real process."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("CF_")}
    environ.update(env or {})
    cmd = f"{sys.executable} -m cf"
    if shell is not None:
        environ["CF"] = cmd
        return subprocess.run(
            ["bash", "-c", shell], capture_output=True, env=environ, timeout=60, **kw
        )
    return subprocess.run(
        [sys.executable, "-m", "cf", *args], capture_output=True, env=environ, timeout=60, **kw
    )


def clean(proc) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "internal error" not in err, err[-2000:]
    assert "Exception ignored" not in err, err[-2000:]
    return err


# --- item 4: output that cannot be written -------------------------------------------------


def test_full_disk_is_an_error_not_a_silent_exit(tmp_path):
    proc = run(shell="$CF score 1-1 > /dev/full")
    assert proc.returncode == 1
    assert clean(proc).strip() == "Error: cannot write output: No space left on device"


@pytest.mark.parametrize("command", ["score 1-1", "tally good.yaml", "simulate --seed 1"])
def test_closed_stdout_is_an_error_not_lost_output(tmp_path, command):
    (tmp_path / "good.yaml").write_text(GOOD)
    proc = run(shell=f"$CF {command} >&-", cwd=tmp_path)
    assert proc.returncode == 1
    assert "Error: cannot write output: stdout is closed" in clean(proc)


@pytest.mark.parametrize("command", ["score", "validate", "tally", "show", "player Ana"])
def test_closed_stdin_is_a_usage_error(command):
    proc = run(shell=f"$CF {command} <&-")
    assert proc.returncode == 2
    assert clean(proc).strip() == "Error: cannot read stdin: stdin is closed"


def test_broken_pipe_ends_quietly_with_141(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [Ana, Ben]\nrounds:\n  - hands: {Ana: " + "x " * 3000 + "}\n")
    proc = run(shell=f'$CF validate {bad} | head -1; echo "status ${{PIPESTATUS[0]}}"')
    out = proc.stdout.decode()
    assert out.splitlines()[0].startswith(f"{bad}:3:")
    assert out.splitlines()[-1] == "status 141"
    assert clean(proc) == ""


# --- items 6 and 7: signals and workers ------------------------------------------------------


@pytest.mark.parametrize(
    ("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
)
def test_a_signal_stops_every_worker(signum, status):
    """SIGHUP is a closed terminal (issue 22 item 15): it ends cf as SIGTERM does."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("CF_")}
    args = ["simulate", "--stats", "-j", "2", "--games", "10000000", "--seed", "1"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cf", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environ,
        start_new_session=True,
    )
    workers: list[str] = []
    deadline = time.monotonic() + 20
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        workers = children.read_text().split() if children.exists() else []
    assert len(workers) == 2, "the workers did not start"
    os.killpg(proc.pid, signum)  # as a terminal's Ctrl-C reaches the whole group
    sent = time.monotonic()
    _, err = proc.communicate(timeout=20)
    assert time.monotonic() - sent < 2
    assert proc.returncode == status
    assert err.decode() == "Interrupted.\n"
    time.sleep(0.2)
    assert [w for w in workers if Path(f"/proc/{w}").exists()] == []


# --- item 5: encodings ---------------------------------------------------------------------


def test_names_on_a_latin1_terminal_degrade_to_escapes(tmp_path):
    game = tmp_path / "g.yaml"
    game.write_text(
        "players: [José, 🐔]\nrounds: [{scores: {José: 1, 🐔: 0}}]\n", encoding="utf-8"
    )
    proc = run("tally", str(game), env={"PYTHONIOENCODING": "latin-1"})
    assert proc.returncode == 0, clean(proc)
    out = proc.stdout.decode("latin-1")
    assert "José" in out and "\\U0001f414" in out
    proc = run("tally", str(game), "-f", "json", env={"PYTHONIOENCODING": "ascii"})
    data = json.loads(proc.stdout.decode("utf-8"))  # JSON is UTF-8, whatever the terminal
    assert {r["player"] for r in data["standings"]} == {"José", "🐔"}


def test_simulate_yaml_is_utf8_on_any_terminal():
    proc = run("simulate", "--names", "José,🐔", "--seed", "1", "--rounds", "1",
               env={"PYTHONIOENCODING": "ascii"})  # fmt: skip
    assert proc.returncode == 0, clean(proc)
    game = read_game(proc.stdout)
    assert game.players == ["José", "🐔"] and not game.problems


def test_a_file_name_that_is_not_utf8_gives_valid_json(tmp_path):
    name = os.fsencode(tmp_path) + b"/g\xff.yaml"
    with open(name, "w") as fh:
        fh.write(GOOD)
    proc = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"cf", b"validate", b"-f", b"json", name],
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0, clean(proc)
    data = json.loads(proc.stdout.decode("utf-8"))  # strict: no raw 0xFF byte
    assert data["files"][0]["file"].endswith("g\ufffd.yaml")


def test_a_file_name_that_is_not_utf8_is_shown_with_ufffd_in_messages(tmp_path):
    """Not as the lone surrogate Python makes of the byte (\\udcff): the same name as in
    JSON, whatever the message (cannot read, wrote)."""
    missing = os.fsencode(tmp_path) + b"/nope\xff.yaml"
    out = os.fsencode(tmp_path) + b"/\xfe.svg"
    cf = [os.fsencode(sys.executable), b"-m", b"cf"]
    proc = subprocess.run([*cf, b"validate", missing], capture_output=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.decode().endswith("nope\ufffd.yaml: no such file\n"), proc.stderr
    game = os.fsencode(ROOT / "examples" / "family-night.yaml")
    proc = subprocess.run([*cf, b"show", game, b"-o", out], capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.decode().endswith("/\ufffd.svg\n") and b"udc" not in proc.stderr


# --- item 8: atomic writes, --force ----------------------------------------------------------


def test_simulate_refuses_to_overwrite_and_force_replaces_atomically(cli, tmp_path):
    target = tmp_path / "game.yaml"
    target.write_text("old")
    result = cli("simulate", "--seed", "1", "--rounds", "1", "-o", str(target))
    assert result.exit_code == 2
    assert "exists (use --force to replace it)" in result.output
    assert target.read_text() == "old"
    inode = target.stat().st_ino
    result = cli("simulate", "--seed", "1", "--rounds", "1", "-o", str(target), "--force")
    assert result.exit_code == 0, result.output
    assert target.stat().st_ino != inode  # renamed over, not rewritten in place
    assert not read_game(target.read_bytes()).problems
    assert [p.name for p in tmp_path.iterdir()] == ["game.yaml"]  # no temporary left


def test_simulate_refuses_a_folder_of_earlier_games(cli, tmp_path):
    args = ["simulate", "--seed", "1", "--rounds", "1", "--games", "2", "-o", str(tmp_path)]
    assert cli(*args).exit_code == 0
    result = cli(*args)
    assert result.exit_code == 2
    assert "holds earlier games" in result.output
    assert cli(*args, "--force").exit_code == 0


@pytest.mark.parametrize(
    ("output", "games", "words"),
    [
        ("/dev/null", 1, "not a regular file"),
        ("", 1, "give a file name"),
        ("-", 2, "several games need a folder"),
        ("{tmp}/file/sub.yaml", 1, "no such folder"),
        ("{tmp}/file", 2, "is not a folder"),
    ],
)
def test_simulate_output_that_cannot_be_written_is_a_usage_error(
    cli, tmp_path, output, games, words
):
    (tmp_path / "file").write_text("x")
    result = cli("simulate", "--seed", "1", "--rounds", "1", "--games", str(games),
                 "-o", output.format(tmp=tmp_path))  # fmt: skip
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert not Path("-").exists()


# --- items 1, 2, 13, 15: option values --------------------------------------------------------

BIG = "9" * 5000


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["score", "--set", BIG, "1-1"], {}),
        (["score", "--set", "d" + BIG, "1-1"], {}),
        (["score", "--set", "double-" + BIG, "1-1"], {}),
        (["score", "1-1"], {"CF_SET": BIG}),
        (["score", "--double-blank", BIG, "0-0"], {}),
        (["score", "0-0"], {"CF_DOUBLE_BLANK": BIG}),
        (["simulate", "--double-blank", BIG, "--seed", "1"], {}),
        (["simulate", "--starter-arms", "²", "--seed", "1"], {}),
        (["simulate", "--names", "A\x07,B", "--seed", "1"], {}),
        (["simulate", "--names", "A\x1b[2J,B", "--seed", "1"], {}),
    ],
    ids=["set", "d-set", "double-set", "CF_SET", "double-blank", "CF_DOUBLE_BLANK",
         "simulate-double-blank", "superscript-arms", "bell-name", "ansi-name"],
)  # fmt: skip
def test_hostile_option_values_are_usage_errors(cli, args, env):
    result = cli(*args, env=env)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert len(result.output) < 400, result.output[:400]
    assert "\x1b" not in result.output and "\x07" not in result.output


def test_a_huge_double_blank_in_stats_is_exact(cli):
    result = cli("simulate", "--stats", "--games", "2", "--seed", "1",
                 "--double-blank", str(10**320), "-f", "json")  # fmt: skip
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)


def test_a_good_file_is_still_reported_beside_a_file_with_a_huge_set(cli, tmp_path):
    (tmp_path / "good.yaml").write_text(GOOD)
    (tmp_path / "big.yaml").write_text(f"set: {BIG}\nplayers: [A, B]\nrounds: []\n")
    result = cli("validate", str(tmp_path / "good.yaml"), str(tmp_path / "big.yaml"))
    assert result.exit_code == 1
    assert f"{tmp_path / 'good.yaml'}: valid" in result.stdout
    assert "[rules] unknown set" in result.stdout


def test_negative_seeds_are_distinct_seeds(cli):
    def game(seed: str) -> str:
        result = cli("simulate", "--seed", seed, "--rounds", "1")
        assert result.exit_code == 0
        return result.stdout.split("\n", 1)[1]  # past the header naming the seed

    assert game("-5") != game("5")
    assert game("-5") == game("-5")


def test_control_characters_in_tally_output_are_escaped():
    from cf.record.standings import game_standings
    from cf.render.standings import render_game

    standing = game_standings("g.yaml", ["A\x1b[2J", "B\r"], [{"A\x1b[2J": 1, "B\r": 0}], 10)
    for fmt in ("simple", "csv", "grid"):
        out = render_game(standing, fmt)
        assert "\x1b" not in out and "\r" not in out, fmt
        assert "A\\x1b[2J" in out


def test_workers_end_when_the_main_process_is_killed_outright():
    """SIGKILL cannot be caught: each worker sees its pipe close and ends after its batch,
    without a traceback (the pipes are the main process's alone, none leaked to a sibling)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("CF_")}
    args = ["simulate", "--stats", "-j", "2", "--rounds", "1", "--seed", "1"]
    args += ["--games", "10000000"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cf", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=environ,
    )  # fmt: skip
    workers: list[str] = []
    deadline = time.monotonic() + 20
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        workers = children.read_text().split() if children.exists() else []
    assert len(workers) == 2, "the workers did not start"
    proc.kill()
    _, err = proc.communicate(timeout=20)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
        time.sleep(0.1)
    left = []
    for w in workers:  # a zombie (reaped by init later) has no command line left
        status = Path(f"/proc/{w}/status")
        if status.exists() and "zombie" not in status.read_text():
            left.append(w)
    for w in left:  # never leave a runaway behind, even when the test fails
        os.kill(int(w), signal.SIGKILL)
    assert left == []
    assert err == b""


def test_the_process_ends_without_a_last_walk_over_its_objects():
    """At exit everything cf made is frozen (``gc.freeze``), so that the interpreter's
    last garbage collection does not walk and free it object by object (bench/README.md,
    section 13); the output is written and atexit handlers run all the same."""
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
        "sys.argv = ['cf', 'score', '9-7', '6-6']\n"
        "from cf._entry import main\n"
        "main()\n"
    )
    environ = {k: v for k, v in os.environ.items() if not k.startswith("CF_")}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["28", "frozen", "True"]


@pytest.mark.skipif(
    not (Path(sys.executable).parent / "chickenfoot").is_file(), reason="not installed"
)
def test_usage_names_the_command_typed():
    """``chickenfoot --help`` says ``Usage: chickenfoot``; completion still answers through
    the one variable the scripts of ``--show-completion`` set for both names."""
    bin_dir = Path(sys.executable).parent
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("CF_", "_CF"))}
    for name in ("chickenfoot", "cf"):
        out = subprocess.run(
            [str(bin_dir / name), "--help"], capture_output=True, text=True, env=environ
        )
        assert out.stdout.startswith(f"Usage: {name} "), out.stdout[:80]
        env = {**environ, "_CF_COMPLETE": "complete_bash"}
        env.update({"COMP_WORDS": f"{name} vali", "COMP_CWORD": "1"})
        done = subprocess.run([str(bin_dir / name)], capture_output=True, text=True, env=env)
        assert done.stdout.split() == ["validate"]
    assert run("--help").stdout.decode().startswith("Usage: cf ")
    # Either name prints cf's completion script, registered for both.
    for shell in ("bash", "zsh", "fish"):
        scripts = [
            subprocess.run(
                [str(bin_dir / name), "--show-completion", shell],
                capture_output=True,
                text=True,
                env=environ,
            ).stdout
            for name in ("chickenfoot", "cf")
        ]
        assert scripts[0] == scripts[1] and "_CF_COMPLETE" in scripts[0], shell


# --- keep_freed_memory: what cf score --photo and cf add NAME=@PHOTO set up (the faults
# it saves: tests/test_photo_process.py) -----------------------------------------------


def test_keeping_freed_memory_sets_glibcs_thresholds(mallopt_calls):
    from cf import _process

    _process.keep_freed_memory()
    assert mallopt_calls == [(-1, 256 << 20), (-3, 32 << 20)]


def test_keeping_freed_memory_is_nothing_without_glibc(monkeypatch):
    import ctypes

    from cf import _process

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(ctypes, "CDLL", lambda name: object())  # musl-like: no mallopt
    _process.keep_freed_memory()
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(ctypes, "CDLL", lambda name: pytest.fail("not on macOS"))
    _process.keep_freed_memory()
