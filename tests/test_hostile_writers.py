"""Writers under hostile conditions (issue 22 items 1-3): symbolic links, foreign owners,
read-only files, an output named like an input, concurrent writers through a link.

Every writer of cf: ``cf add``, ``cf undo``, ``cf new --force``, ``-o`` / ``--chart`` /
``--annotate`` outputs. The tests run as root here, so "read-only" is checked on the mode
bits (docs/scorekeeping.md, "Safe writes"), and ownership with a chown'd file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cf.files import WriteError, atomic_write, locked, read_only, same_file, target
from cf.record.reader import read_game

GAME = "players: [Ana, Ben]\nrounds: []\n"
ROOT = Path(__file__).parent.parent


def _linked(tmp_path: Path) -> tuple[Path, Path]:
    real = tmp_path / "real.yaml"
    real.write_text(GAME)
    link = tmp_path / "link.yaml"
    link.symlink_to(real.name)
    return real, link


# --- 1. writing through a symbolic link ----------------------------------------------------


def test_atomic_write_goes_through_a_link(tmp_path):
    real, link = _linked(tmp_path)
    atomic_write(str(link), "new\n", overwrite=True)
    assert link.is_symlink()
    assert real.read_text() == "new\n"
    assert target(str(link)) == str(real.resolve())


def test_a_dangling_link_is_followed_to_the_new_file(tmp_path):
    link = tmp_path / "link.yaml"
    link.symlink_to("made.yaml")
    atomic_write(str(link), "x\n", overwrite=True)
    assert link.is_symlink() and (tmp_path / "made.yaml").read_text() == "x\n"


def test_a_link_loop_is_a_write_error(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b.name)
    b.symlink_to(a.name)
    with pytest.raises(WriteError, match="loop"):
        atomic_write(str(a), "x", overwrite=True)
    assert a.is_symlink() and b.is_symlink()


def test_the_lock_is_the_resolved_files(tmp_path):
    _real, link = _linked(tmp_path)
    with locked(str(link)):
        assert (tmp_path / "real.yaml.lock").exists()
    assert not (tmp_path / "link.yaml.lock").exists()


@pytest.mark.parametrize("command", ["add", "undo", "new"])
def test_every_game_writer_writes_through_a_link(cli, tmp_path, command):
    real, link = _linked(tmp_path)
    if command == "undo":
        real.write_text("players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 0, Ben: 5}\n")
        result = cli("undo", str(link))
    elif command == "add":
        result = cli("add", str(link), "Ana=0", "Ben=5")
    else:
        result = cli("new", str(link), "--players", "Ana,Ben,Carla", "--force")
    assert result.exit_code == 0, result.output
    assert link.is_symlink()
    text = real.read_text()
    assert {"add": "Ben: 5", "undo": "rounds: []", "new": "Carla"}[command] in text


@pytest.mark.parametrize(
    "args",
    [
        ["show", "{example}", "-f", "svg", "-o", "{out}"],
        ["tally", "{game}", "--chart", "{out}"],
        ["simulate", "--seed", "1", "--rounds", "1", "--force", "-o", "{out}"],
    ],
    ids=["show", "tally-chart", "simulate"],
)
def test_every_output_writes_through_a_link(cli, tmp_path, args):
    game = tmp_path / "g.yaml"
    game.write_text("players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 0, Ben: 5}\n")
    real = tmp_path / "picture.svg"
    real.write_text("old")
    out = tmp_path / "out.svg"
    out.symlink_to(real.name)
    example = ROOT / "examples" / "family-night.yaml"
    result = cli(*[a.format(game=game, out=out, example=example) for a in args])
    assert result.exit_code == 0, result.output
    assert out.is_symlink() and real.read_text() != "old"


def _add_process(path: Path, k: int) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CF_")}
    return subprocess.run(
        [sys.executable, "-m", "cf", "add", str(path), f"Ana={k}", "Ben=0"],
        capture_output=True,
        env=env,
        timeout=120,
    )


def test_concurrent_writers_through_a_link_and_direct_lose_nothing(tmp_path):
    real, link = _linked(tmp_path)
    with ThreadPoolExecutor(8) as pool:
        procs = list(pool.map(lambda k: _add_process(link if k % 2 else real, k), range(1, 9)))
    assert [p.returncode for p in procs] == [0] * 8, [p.stderr for p in procs]
    assert link.is_symlink()
    game = read_game(real.read_bytes())
    assert sorted(r.scores["Ana"][0] for r in game.rounds) == list(range(1, 9))


# --- 2. owner, group and mode kept; read-only refused -------------------------------------


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_owner_group_and_mode_are_kept(cli, tmp_path):
    game = tmp_path / "g.yaml"
    game.write_text(GAME)
    os.chown(game, 1234, 2345)
    os.chmod(game, 0o640)
    result = cli("add", str(game), "Ana=0", "Ben=5")
    assert result.exit_code == 0, result.output
    st = game.stat()
    assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (1234, 2345, 0o640)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_lock_file_made_by_root_is_the_owners_too(cli, tmp_path):
    """``sudo cf add`` made FILE.lock root's, 0644: the file's owner could never lock (so
    write) the file again. The lock takes the file's owner, group and read-write bits."""
    game = tmp_path / "g.yaml"
    game.write_text(GAME)
    os.chown(game, 1234, 2345)
    os.chmod(game, 0o660)
    assert cli("add", str(game), "Ana=0", "Ben=5").exit_code == 0
    st = (tmp_path / "g.yaml.lock").stat()
    assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (1234, 2345, 0o660)


def test_a_lock_file_takes_the_files_read_write_bits(tmp_path):
    """A file the group writes: the lock a member makes under umask 022 lets the group
    lock too (else only its maker could write the file again)."""
    game = tmp_path / "g.yaml"
    game.write_text(GAME)
    os.chmod(game, 0o664)
    old = os.umask(0o022)
    try:
        with locked(str(game)):
            pass
    finally:
        os.umask(old)
    assert (tmp_path / "g.yaml.lock").stat().st_mode & 0o777 == 0o664


def test_mode_is_kept(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("a")
    os.chmod(path, 0o600)
    atomic_write(str(path), "b", overwrite=True)
    assert path.stat().st_mode & 0o7777 == 0o600


@pytest.mark.parametrize("command", ["add", "undo", "new"])
def test_a_read_only_game_is_refused_and_unchanged(cli, tmp_path, command):
    game = tmp_path / "g.yaml"
    before = "players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 0, Ben: 5}\n"
    game.write_text(before)
    os.chmod(game, 0o444)
    args = {
        "add": ["add", str(game), "Ana=1", "Ben=0"],
        "undo": ["undo", str(game)],
        "new": ["new", str(game), "--players", "A,B", "--force"],
    }[command]
    result = cli(*args)
    assert result.exit_code == 1, result.output
    assert "is read-only" in result.output
    assert game.read_text() == before
    assert game.stat().st_mode & 0o7777 == 0o444
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".cf-")]


def test_read_only_means_no_write_bit_or_no_access(tmp_path):
    path = tmp_path / "f"
    path.write_text("x")
    os.chmod(path, 0o644)
    assert not read_only(str(path))
    os.chmod(path, 0o444)
    assert read_only(str(path))
    assert not read_only(str(tmp_path / "missing"))


def test_a_read_only_output_is_refused(cli, tmp_path):
    game = tmp_path / "g.yaml"
    game.write_text("players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 0, Ben: 5}\n")
    chart = tmp_path / "c.svg"
    chart.write_text("mine")
    os.chmod(chart, 0o444)
    result = cli("tally", str(game), "--chart", str(chart))
    assert result.exit_code == 1 and "read-only" in result.output
    assert chart.read_text() == "mine"


# --- 3. an output written over its own input -----------------------------------------------


def test_same_file_sees_through_links(tmp_path):
    real, link = _linked(tmp_path)
    assert same_file(str(link), str(real))
    assert same_file(str(tmp_path / "x" / ".." / "real.yaml"), str(real))
    assert not same_file(str(tmp_path / "new.svg"), str(real))


@pytest.mark.parametrize("via_link", [False, True])
@pytest.mark.parametrize(
    "args",
    [
        ["show", "{game}", "-o", "{out}"],
        ["show", "{game}", "-f", "html", "-o", "{out}"],
        ["tally", "{game}", "--chart", "{out}"],
    ],
    ids=["show", "show-html", "tally-chart"],
)
def test_an_output_over_its_own_input_is_refused(cli, tmp_path, args, via_link):
    game = tmp_path / "g.svg"  # a game file may have any name
    text = "players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 0, Ben: 5}\n"
    game.write_text(text)
    out = game
    if via_link:
        out = tmp_path / "l.svg"
        out.symlink_to(game.name)
    result = cli(*[a.format(game=game, out=out) for a in args])
    assert result.exit_code == 2, result.output
    assert "is one of the inputs" in result.output
    assert game.read_text() == text


def test_annotate_over_the_photo_it_reads_is_refused(cli, tmp_path):
    pytest.importorskip("cv2")
    photo = tmp_path / "p.png"
    photo.write_bytes(b"not really a photo")
    result = cli("score", "--photo", str(photo), "--annotate", str(photo))
    assert result.exit_code == 2, result.output
    assert "is one of the inputs" in result.output
    assert photo.read_bytes() == b"not really a photo"


def test_a_lock_that_cannot_be_made_is_said_without_pythons_words(cli, tmp_path, monkeypatch):
    """The system's reason and the lock file it names, never '[Errno 1] …: '…''."""
    import contextlib

    import cf.files

    game = tmp_path / "g.yaml"
    game.write_text(GAME)

    @contextlib.contextmanager
    def refused(path, timeout=30.0):
        raise PermissionError(1, "Operation not permitted", str(game) + ".lock")
        yield

    monkeypatch.setattr(cf.files, "locked", refused)
    for args in (["add", str(game), "Ana=0", "Ben=5"], ["undo", str(game)]):
        result = cli(*args)
        assert result.exit_code == 1
        assert result.stderr == (
            f"Error: cannot write {game}: Operation not permitted ({game}.lock)\n"
        )
    assert game.read_text() == GAME


def test_a_lock_file_that_is_another_files_link_is_never_changed(tmp_path):
    """Only a lock this process made and holds is shared, through its descriptor: a lock
    name planted as a hard link to another file (someone who can write the folder) leaves
    that file's mode and owner as they are."""
    game = tmp_path / "g.yaml"
    game.write_text(GAME)
    os.chmod(game, 0o666)
    victim = tmp_path / "victim"
    victim.write_text("secret")
    os.chmod(victim, 0o600)
    os.link(victim, tmp_path / "g.yaml.lock")
    with locked(str(game)):
        pass
    assert victim.stat().st_mode & 0o777 == 0o600
    assert victim.read_text() == "secret"


def test_a_file_renamed_to_the_locks_name_is_never_changed(tmp_path):
    """A lock file is empty: a file with something in it at the lock's name (renamed there
    by someone who can write the folder) keeps its mode and owner."""
    game = tmp_path / "g.yaml"
    game.write_text(GAME)
    os.chmod(game, 0o666)
    lock = tmp_path / "g.yaml.lock"
    lock.write_text("secret")
    os.chmod(lock, 0o600)
    with locked(str(game)):
        pass
    assert lock.stat().st_mode & 0o777 == 0o600 and lock.read_text() == "secret"
