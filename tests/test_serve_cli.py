"""``cf serve`` as a command: the address it prints, Ctrl-C (exit 130), a port in use
(exit 1), ``--new`` as ``cf new``, usage errors (exit 2), and the extra missing."""

from __future__ import annotations

import builtins
import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cf.cli import app

pytest.importorskip("uvicorn", reason="cf serve needs the serve extra")

CF = [sys.executable, "-m", "cf"]


def start(args: list[str], cwd: Path) -> tuple[subprocess.Popen, str]:
    """``cf serve ARGS`` in the background, and the address it printed."""
    proc = subprocess.Popen(
        [*CF, "serve", *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    lines = []
    m = None
    while m is None and proc.stdout and len(lines) < 5:
        lines.append(proc.stdout.readline())
        m = re.search(r"http://\S+", lines[-1])
    if m is None:
        proc.kill()
        raise AssertionError(f"no address printed: {lines!r} {proc.stderr.read()}")
    return proc, m.group(0)


def stop(proc: subprocess.Popen) -> tuple[int, str]:
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    return code, proc.stderr.read() if proc.stderr else ""


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


@pytest.fixture
def game(tmp_path) -> Path:
    r = CliRunner().invoke(app, ["new", str(tmp_path / "g.yaml"), "--players", "Ana,Ben"])
    assert r.exit_code == 0, r.output
    return tmp_path / "g.yaml"


def request(url: str, data: bytes | None = None, **headers: str) -> tuple[int, str]:
    req = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_serves_on_loopback_and_stops_on_ctrl_c(game):
    """SPEC 13: by default it listens on 127.0.0.1 and prints the address; only --lan asks
    for the join token, so http://127.0.0.1:PORT/ as it is opens the page (the printed
    address, with its token, too)."""
    proc, url = start([game.name, "--port", "0"], game.parent)
    try:
        assert url.startswith("http://127.0.0.1:") and "/?t=" in url
        base = url.split("?")[0]
        status, page = get(base)
        assert status == 200 and "cf-state" in page
        status, page = get(url)
        assert status == 200 and "cf-state" in page
        status, text = get(base + "api/state")
        assert json.loads(text)["players"] == ["Ana", "Ben"]
        port = base.rsplit(":", 1)[1].rstrip("/")
        assert get(f"http://localhost:{port}/api/state")[0] == 200
        # an open event stream does not hold up the stop
        stream = urllib.request.urlopen(base + "events", timeout=10)
        assert stream.readline().startswith(b"retry:")
    finally:
        start_stop = time.monotonic()
        code, err = stop(proc)
    assert code == 130
    assert "Interrupted." in err and "Traceback" not in err
    assert time.monotonic() - start_stop < 10


def test_on_loopback_a_write_needs_no_token_but_another_site_is_refused(game):
    """A shell's POST needs no token on loopback; a web page's that another site made (its
    Origin), or that a name of its own pointed here (DNS rebinding: its Host), is 403
    without the token, and nothing is written."""
    proc, url = start([game.name, "--port", "0"], game.parent)
    try:
        base = url.split("?")[0]
        token = url.split("?t=")[1]
        body = json.dumps({"entries": [["Ana", "0"], ["Ben", "7"]]}).encode()
        json_type = {"Content-Type": "application/json"}
        evil = {"Origin": "http://evil.example", **json_type}
        assert request(base + "api/round", body, **evil) == (403, "forbidden")
        rebound = {"Host": "evil.example", **json_type}
        assert request(base + "api/state", **rebound) == (403, "forbidden")
        assert request(base + "api/round", body, **rebound) == (403, "forbidden")
        assert game.read_text(encoding="utf-8").endswith("rounds: []\n")
        assert (
            request(base + "api/state", **{"Host": "evil.example", "X-CF-Token": token})[0] == 200
        )
        status, text = request(base + "api/round", body, **json_type)
        assert status == 200, text
        assert "Ben: 7" in game.read_text(encoding="utf-8")
    finally:
        stop(proc)


def test_a_port_in_use_is_a_clear_error(game):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        r = subprocess.run(
            [*CF, "serve", str(game), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        taken.close()
    assert r.returncode == 1
    assert f"port {port} is in use" in r.stderr and "--port" in r.stderr
    assert "Traceback" not in r.stderr


def test_new_starts_the_game_as_cf_new_does(tmp_path):
    proc, url = start(
        ["--new", "night.yaml", "--players", "Ana,Ben,Cy", "--set", "double-six", "--port", "0"],
        tmp_path,
    )
    try:
        status, text = get(url.replace("/?", "/api/state?"))
        state = json.loads(text)
        assert status == 200
        assert state["players"] == ["Ana", "Ben", "Cy"] and state["top"] == 6
    finally:
        stop(proc)
    assert "set: double-six" in (tmp_path / "night.yaml").read_text()


def test_lan_prints_the_address_with_its_token_and_a_qr_code(game):
    proc, url = start([game.name, "--port", "0", "--lan"], game.parent)
    try:
        assert "/?t=" in url and not url.startswith("http://127.0.0.1:")
        out = proc.stdout.readline() if proc.stdout else ""
        assert "█" in out or "▀" in out or "▄" in out  # the QR code, in block characters
        # this computer too needs the token with --lan: it listens on every address
        port = url.split("?")[0].rsplit(":", 1)[1].rstrip("/")
        assert get(f"http://127.0.0.1:{port}/") == (403, "forbidden")
        assert get(f"http://127.0.0.1:{port}/?t={url.split('?t=')[1]}")[0] == 200
    finally:
        stop(proc)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.yaml"], "no such file"),
        (["--new", "g2.yaml"], "--players"),
        (["--new", "g2.yaml", "--players", "Ana"], "at least 2 players"),
        (["g.yaml", "--players", "Ana,Ben"], "go with --new"),
        (["g.yaml", "--port", "70000"], "70000"),
    ],
)
def test_usage_errors_are_exit_2(game, monkeypatch, args, message):
    monkeypatch.chdir(game.parent)
    r = CliRunner().invoke(app, ["serve", *args])
    assert r.exit_code == 2, r.output
    assert message in r.output
    assert not (game.parent / "g2.yaml").exists()


def test_an_existing_file_is_not_replaced_by_new(game, monkeypatch):
    monkeypatch.chdir(game.parent)
    before = game.read_bytes()
    r = CliRunner().invoke(app, ["serve", "--new", "g.yaml", "--players", "X,Y"])
    assert r.exit_code == 2 and "exists" in r.output
    assert game.read_bytes() == before


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("es", ["Prueba 'cf serve --new -h' para ver la ayuda.", "Falta la opción '--players'"]),
        ("gl", ["Proba 'cf serve --new -h' para ver a axuda.", "Falta a opción '--players'"]),
    ],
)
def test_new_says_its_usage_errors_in_the_language(tmp_path, monkeypatch, lang, words):
    """The options after --new are cf new's: its usage errors in the reader's language,
    as cf new says them (Click's own words were English here)."""
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["serve", "--new", "x.yaml"], env={"CF_LANG": lang})
    assert r.exit_code == 2 and not (tmp_path / "x.yaml").exists()
    for said in words:
        assert said in r.output, r.output
    assert "Try" not in r.output and "Missing" not in r.output


def test_without_the_serve_extra_it_says_how_to_get_it(game, monkeypatch):
    real = builtins.__import__

    def no_uvicorn(name, *args, **kwargs):
        if name == "uvicorn" or name.startswith("starlette"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvicorn)
    monkeypatch.delitem(sys.modules, "cf.serve.app", raising=False)
    r = CliRunner().invoke(app, ["serve", str(game)])
    assert r.exit_code == 2
    assert "pip install 'chickenfoot[serve]'" in r.output
