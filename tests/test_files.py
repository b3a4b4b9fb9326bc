"""cf.files: atomic writes never tear a file and never replace a pipe or a device."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from cf.files import WriteError, atomic_write


def test_a_new_inode_every_write(tmp_path):
    path = tmp_path / "g.yaml"
    atomic_write(str(path), "a\n")
    first = path.stat().st_ino
    atomic_write(str(path), "b\r\n", overwrite=True)
    assert path.read_bytes() == b"b\r\n"
    assert path.stat().st_ino != first
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".cf-")]


def test_an_existing_file_needs_overwrite(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("old")
    with pytest.raises(WriteError, match="exists"):
        atomic_write(str(path), "new")
    assert path.read_text() == "old"


def test_a_missing_folder_is_a_write_error(tmp_path):
    with pytest.raises(WriteError, match="cannot write"):
        atomic_write(str(tmp_path / "no" / "g.yaml"), "x")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_written_into_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    atomic_write(str(fifo), "<svg/>\n", overwrite=True)
    reader.join(10)
    assert got == [b"<svg/>\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_full_device_is_a_write_error_and_stays_a_device():
    with pytest.raises(WriteError, match="cannot write /dev/full"):
        atomic_write("/dev/full", "x" * 10, overwrite=True)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
