"""The process around a command: standard streams that fail loudly, and signals.

:func:`cf.cli.run` sets these up before any command runs, so that every command gets the
same behaviour without thinking about it:

- stdout is a stream whose failed write raises :class:`OutputFailed` (not an ``OSError``
  that some ``except OSError`` on the way could swallow, and that Click would turn into a
  silent exit 1 on a broken pipe). A closed stdout (``cf … >&-``) fails at the first write
  instead of losing the output without a word; its file descriptor is held on
  ``/dev/null`` so that no file cf opens can take its number and receive the output.
- Text that the terminal's encoding cannot show is written as backslash escapes, never a
  ``UnicodeEncodeError``; so is every control, bidi or other hidden character
  (:func:`cf.text.shown`): a title or file name holding ``\x1b]0;…`` or U+202E prints as
  those escapes on stdout and stderr, and cannot retitle, clear or reorder the terminal.
  Documents (JSON, CSV, YAML) go to the binary buffer beneath, as they are.
- SIGINT, SIGTERM and SIGHUP (a closed terminal) raise :class:`Interrupted` in the main
  thread; ``with`` blocks (the
  worker pool of ``cf simulate -j``) clean up on the way out.

The commands that read photos also keep the memory they free for their next arrays
(:func:`keep_freed_memory`).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import sys
from typing import Any

from cf.i18n import _, os_reason, tr


class Interrupted(BaseException):
    """SIGINT, SIGTERM or SIGHUP arrived. A ``BaseException``: no ``except Exception`` stops it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class OutputFailed(BaseException):
    """Writing stdout failed (``error`` says why)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


class _Sink(io.RawIOBase):
    """File descriptor 1, raising :class:`OutputFailed` once, then swallowing the rest (so
    that the flush at interpreter exit prints no "Exception ignored")."""

    def __init__(self, fd: int, closed: bool = False) -> None:
        super().__init__()
        self.fd = fd
        self.is_closed = closed
        self.failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return not self.is_closed and os.isatty(self.fd)

    def write(self, data: Any) -> int:
        size = len(memoryview(data))
        if self.failed:
            return size
        if self.is_closed:
            self.failed = True
            raise OutputFailed(OSError(errno.EBADF, "stdout is closed"))
        try:
            return os.write(self.fd, data)
        except OSError as exc:
            self.failed = True
            raise OutputFailed(exc) from None


class _Shown(io.TextIOWrapper):
    """A text stream that writes hidden characters as escapes (:func:`cf.text.shown`)."""

    def write(self, text: str) -> int:
        from cf.text import shown

        super().write(shown(text))
        return len(text)


class _ClosedInput(io.RawIOBase):
    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise OSError(errno.EBADF, "stdin is closed")


def stdin_closed() -> bool:
    """Whether cf started with no standard input (:func:`guard_streams` put a closed one
    in its place)."""
    return isinstance(getattr(getattr(sys.stdin, "buffer", None), "raw", None), _ClosedInput)


def _hold(fd: int, flags: int) -> None:
    """Keep ``fd`` taken (by /dev/null) so that no file cf opens gets its number."""
    null = os.open(os.devnull, flags)
    if null != fd:
        os.dup2(null, fd)
        os.close(null)


def _fd_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def guard_streams() -> None:
    """Replace stdin/stdout/stderr as the module docstring says. Idempotent enough: call once."""
    if sys.stdin is None or not _fd_open(0):
        _hold(0, os.O_RDONLY)
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_ClosedInput()), encoding="utf-8")
    closed = sys.stdout is None or not _fd_open(1)
    if closed:
        _hold(1, os.O_WRONLY)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        fd = 1 if closed else sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real file (embedded, tests): leave it be
    line_buffering = bool(getattr(sys.stdout, "line_buffering", False))
    sys.stdout = _Shown(
        io.BufferedWriter(_Sink(fd, closed)),
        encoding=encoding,
        errors="backslashreplace",
        line_buffering=line_buffering,
    )
    if sys.stderr is None or not _fd_open(2):
        _hold(2, os.O_WRONLY)
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115  # nowhere to report: stay quiet
    elif hasattr(sys.stderr, "buffer"):
        sys.stderr = _Shown(
            sys.stderr.buffer,
            encoding=sys.stderr.encoding or "utf-8",
            errors="backslashreplace",
            line_buffering=True,
            write_through=True,
        )


def terminal_stderr() -> Any:
    """stderr as it was before :func:`guard_streams` made hidden characters escapes: for
    what cf itself draws on a terminal (a progress bar's carriage return and cursor
    codes), never for text from a file or the command line."""
    if isinstance(sys.stderr, _Shown) and sys.__stderr__ is not None:
        sys.stderr.flush()
        return sys.__stderr__
    return sys.stderr


def keep_escapes() -> None:
    """Let Click write what cf echoes to a pipe as it is, for cf's streams to escape.

    Click strips ANSI codes from text it echoes to a stream that is not a terminal, before
    the stream sees it: ``'9-\x1b[1m7' is not a tile`` reached a pipe as ``'9-7' is not a
    tile``, naming text nobody typed. cf's streams write every such code as its escape, so
    nothing is left to strip. (On Windows Click may hand the text to colorama, which would
    act on the codes: there it strips, as before.)"""
    if os.name == "nt":
        return
    from typer._click import utils

    strip = utils.should_strip_ansi
    if getattr(strip, "cf_keeps", False):
        return

    def should_strip(stream: Any = None, color: bool | None = None) -> bool:
        shown = stream if stream is not None else sys.stdout
        return False if isinstance(shown, _Shown) else strip(stream, color)

    should_strip.cf_keeps = True  # type: ignore[attr-defined]
    utils.should_strip_ansi = should_strip


#: The signals that end cf as ``Interrupted.``: Ctrl-C, a kill, a closed terminal.
SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


#: glibc's ``mallopt`` parameters (malloc.h): the free memory at the heap's top it keeps
#: before handing it back, and the size from which a block is mapped on its own.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
#: Their values for a command that reads photos: blocks of up to 32 MiB (the largest
#: glibc takes from its heap) come from the heap, and up to 256 MiB free stays there.
KEPT_BLOCK, KEPT_FREE = 32 << 20, 256 << 20


def keep_freed_memory() -> None:
    """Keep the memory this process frees for its next arrays, not hand it back.

    For a command that reads photos and ends (``cf score --photo``, ``cf add NAME=@PHOTO``).
    The reader makes and drops arrays of a few megabytes by the hundred; glibc's malloc
    maps each one on its own and unmaps it when it is freed, so the next is mapped again
    and every page of it faulted in and zeroed afresh by the system: about half the page
    faults of a ``cf score --photo`` process, 0.02-0.04 s of its CPU on a 12 MP photo
    (docs/photo.md, Speed). From the heap, a freed array's pages are reused as they are.
    The process ends soon after, so keeping them costs nothing; ``cf serve``, which runs on,
    does not call this. Where the C library is not glibc (``mallopt`` missing, or a
    no-op), nothing changes.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_TRIM_THRESHOLD, KEPT_FREE)
    mallopt(M_MMAP_THRESHOLD, KEPT_BLOCK)


def _raise(signum: int, frame: object) -> None:
    # One interruption is enough: the cleanup it starts must not be interrupted itself.
    for other in SIGNALS:
        signal.signal(other, signal.SIG_IGN)
    raise Interrupted(signum)


def catch_signals() -> None:
    """SIGINT, SIGTERM and SIGHUP raise :class:`Interrupted` (exit 130, 143 and 129)."""
    for signum in SIGNALS:
        signal.signal(signum, _raise)


def flush_stdout() -> None:
    if sys.stdout is not None:
        sys.stdout.flush()


def say(message: str) -> None:
    """One line on stderr, whatever state stdout is in."""
    with contextlib.suppress(OSError, ValueError):
        print(message, file=sys.stderr, flush=True)


def output_failed(exc: OutputFailed) -> int:
    """Report a failed write of stdout; the exit status."""
    if exc.error.errno == errno.EPIPE:
        return 141  # the reader went away (| head): quiet, as a SIGPIPE death would be
    reason = tr(os_reason(exc.error))
    say(_("Error: cannot write output: {reason}").format(reason=reason))
    return 1
