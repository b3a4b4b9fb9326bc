"""Writing files so that nothing is ever lost: atomic replacement and a writers' lock.

:func:`atomic_write` writes a temporary file in the same folder, flushes it to disk and
renames it over the target, so a crash at any instant leaves the old file or the new one,
never a torn one (and the file is a new inode after every write). :func:`locked` holds a
cross-platform lock on a sidecar file (``FILE.lock``, via the ``filelock`` library) so
that two writers of one file take turns.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "game.yaml")
>>> atomic_write(path, "players: [Ana, Ben]\\n")
>>> with locked(path):
...     atomic_write(path, "players: [Ana, Ben, Carla]\\n", overwrite=True)
>>> open(path, encoding="utf-8").read()
'players: [Ana, Ben, Carla]\\n'
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator

from cf.errors import Error


class WriteError(Error, OSError):
    """A file could not be written (it exists, its folder is missing, no permission, …)."""


def atomic_write(path: str, data: str | bytes, *, overwrite: bool = False) -> None:
    """Write ``data`` (text is written as UTF-8, exactly as given: no newline translation)
    to ``path`` atomically. Without ``overwrite`` an existing ``path`` is refused."""
    if not path:
        raise WriteError("no file name given")
    if os.path.isdir(path):
        raise WriteError(f"{path} is a folder")
    if not overwrite and os.path.lexists(path):
        raise WriteError(f"{path} exists (use --force to replace it)")
    folder = os.path.dirname(os.path.abspath(path))
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if os.path.exists(path) and not os.path.isfile(path):
        _write_into(path, raw)  # a pipe or a device: renaming over it would replace it
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=".cf-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        if os.path.exists(path):
            with contextlib.suppress(OSError):
                os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from None
    _fsync_folder(folder)


def _write_into(path: str, raw: bytes) -> None:
    """Write to a pipe or a device (``-o /dev/stdout``, a FIFO) as it is: no temporary file."""
    try:
        with open(path, "wb") as fh:
            fh.write(raw)
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from None


def _fsync_folder(folder: str) -> None:
    # The rename itself must reach the disk too; not every platform can open a folder.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def locked(path: str, timeout: float = 30.0) -> Iterator[None]:
    """Hold the writers' lock of ``path`` (a sidecar ``path + '.lock'``) for the block."""
    from filelock import FileLock, Timeout

    lock = FileLock(path + ".lock", timeout=timeout)
    try:
        with lock:
            yield
    except Timeout:
        raise WriteError(f"{path} is being written by another cf: try again") from None
