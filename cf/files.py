"""Writing files so that nothing is ever lost: atomic replacement and a writers' lock.

:func:`atomic_write` writes a temporary file in the same folder, flushes it to disk and
renames it over the target, so a crash at any instant leaves the old file or the new one,
never a torn one (and the file is a new inode after every write). :func:`locked` holds a
cross-platform lock on a sidecar file (``FILE.lock``, via the ``filelock`` library) so
that two writers of one file take turns.

A write goes *through* a symbolic link: the file the link points at is locked and replaced,
and the link stays a link (:func:`target`), so writers through the link and writers of the
file itself take turns on one lock. The replaced file keeps its mode, and its owner and
group where the process may set them (root can; another user keeps the group if a member
of it). A file that the user could not write in place is refused ("… is read-only"): one
without any write permission bit (``chmod a-w``; this holds for root too, who could write
it anyway), or one the process has no write access to (:func:`read_only`).

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
from typing import Any

from cf.errors import Error
from cf.i18n import Message, os_reason


class WriteError(Error, OSError):
    """A file could not be written (it exists, its folder is missing, no permission, …)."""


class WriteFailed(WriteError):
    """The system refused the writing itself (a full disk, no permission): ``path`` and
    its ``reason``, for a command to say as output that cannot be written (SPEC §7)."""

    def __init__(self, path: str, reason: Any) -> None:
        super().__init__(Message("cannot write {path}: {value}", path=path, value=reason))
        self.path, self.reason = path, reason


def target(path: str) -> str:
    """The file that writing ``path`` changes: ``path`` itself, or, for a symbolic link
    (a chain of them, or a link to a file not there yet), the file it points at."""
    if os.path.islink(path):
        return os.path.realpath(path)
    return path


def same_file(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name one file (after links; a file not there yet is
    compared by its resolved path)."""
    with contextlib.suppress(OSError, ValueError):
        return os.path.samefile(a, b)
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def read_only(path: str) -> bool:
    """Whether the existing file ``path`` may not be written in place by this user: it has no
    write permission bit at all (``0444``: refused even to root, who could write it anyway),
    or :func:`os.access` says this process cannot write it."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not mode & 0o222 or not os.access(path, os.W_OK)


def atomic_write(path: str, data: str | bytes, *, overwrite: bool = False) -> None:
    """Write ``data`` (text is written as UTF-8, exactly as given: no newline translation)
    to ``path`` atomically, through a symbolic link. Without ``overwrite`` an existing
    ``path`` is refused; a read-only one always is (:func:`read_only`)."""
    if not path:
        raise WriteError(Message("no file name given"))
    real = target(path)
    if os.path.islink(real):
        raise WriteError(
            Message("{path} is a symbolic link that leads round in a loop", path=path)
        )
    if os.path.isdir(real):
        raise WriteError(Message("{path} is a folder", path=path))
    if not overwrite and os.path.lexists(path):
        raise WriteError(Message("{path} exists (use --force to replace it)", path=path))
    folder = os.path.dirname(os.path.abspath(real))
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if os.path.exists(real) and not os.path.isfile(real):
        _write_into(path, raw)  # a pipe or a device: renaming over it would replace it
        return
    if os.path.exists(real) and read_only(real):
        raise WriteError(Message("{path} is read-only: nothing written", path=path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".cf-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise WriteFailed(path, os_reason(exc)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        _take_over(tmp, real)
        os.replace(tmp, real)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise WriteFailed(path, os_reason(exc)) from None
    _fsync_folder(folder)


def _take_over(tmp: str, real: str) -> None:
    """Give the temporary file the owner, group and mode of the file it replaces (the owner
    and group where the process may: first, as a change of owner can clear the mode's
    set-id bits), or the mode a new file gets."""
    try:
        st = os.stat(real)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        return
    if hasattr(os, "chown"):
        try:
            os.chown(tmp, st.st_uid, st.st_gid)
        except OSError:
            with contextlib.suppress(OSError):
                os.chown(tmp, -1, st.st_gid)
    with contextlib.suppress(OSError):
        os.chmod(tmp, st.st_mode & 0o7777)


def _write_into(path: str, raw: bytes) -> None:
    """Write to a pipe or a device (``-o /dev/stdout``, a FIFO) as it is: no temporary file."""
    try:
        with open(path, "wb") as fh:
            fh.write(raw)
    except OSError as exc:
        raise WriteFailed(path, os_reason(exc)) from None


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
    """Hold the writers' lock of ``path`` (a sidecar ``FILE.lock`` beside the file that
    ``path`` names after symbolic links: one lock however the file is reached) for the block."""
    from filelock import FileLock, Timeout

    name = target(path)
    lock = FileLock(name + ".lock", timeout=timeout)
    try:
        with lock:
            _share_lock(name, lock)
            yield
    except Timeout:
        raise WriteError(
            Message("{path} is being written by another cf: try again", path=path)
        ) from None


def _share_lock(path: str, lock: object) -> None:
    """Let whoever may write ``path`` take its lock too: the lock file, made with this
    process's owner and umask, gets the game file's owner and group (when cf runs as root:
    ``sudo cf add``) and the file's read and write bits (a file the group writes, a lock
    the group takes). Without it a lock file made once by root, or by one member of the
    group, shuts every other writer out of the file for good.

    Only a lock file this process owns and holds is changed, through the descriptor
    filelock holds it by: never a name, which someone who can write the folder could
    have turned into a link to another file meanwhile; never a file with another link or
    with anything in it (a file of someone's renamed to the lock's name)."""
    import stat

    fd = getattr(getattr(lock, "_context", None), "lock_file_fd", None)
    if not isinstance(fd, int) or not hasattr(os, "fchown"):  # another filelock; not POSIX
        return
    with contextlib.suppress(OSError):  # no game file yet; a file system without owners
        st, mine = os.stat(path), os.fstat(fd)
        if (
            not stat.S_ISREG(mine.st_mode)
            or mine.st_nlink != 1
            or mine.st_uid != os.geteuid()
            or mine.st_size  # a lock file is empty: this is some file renamed to its name
        ):
            return
        mode = (stat.S_IMODE(st.st_mode) & 0o666) | 0o600
        if stat.S_IMODE(mine.st_mode) != mode:
            os.fchmod(fd, mode)
        if os.geteuid() == 0 and (mine.st_uid, mine.st_gid) != (st.st_uid, st.st_gid):
            os.fchown(fd, st.st_uid, st.st_gid)
