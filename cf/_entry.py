"""The ``cf`` and ``chickenfoot`` commands' entry point: signals are caught from here on.

Imported before anything heavy (typer, the commands), so that Ctrl-C or SIGTERM during
start-up already ends as ``Interrupted.`` and 130/143, not a ``KeyboardInterrupt``
traceback from the middle of an import. Only the interpreter's own start-up (before this
module runs, a few tens of milliseconds) keeps Python's default behaviour.
"""

from __future__ import annotations

import gc
import sys

from cf import _process

_process.catch_signals()

from cf.i18n import _, language_from_args  # noqa: E402 (after the signals are caught)


def main() -> None:
    """Run ``cf`` (see :func:`cf.cli.run`)."""
    # The language of --lang is set before the commands are imported, so that their
    # --help texts (made when a command's module loads) are in it too.
    language_from_args(sys.argv[1:])
    try:
        from cf.cli import run
    except _process.Interrupted as exc:
        _process.say(_("Interrupted."))
        sys.exit(128 + exc.signum)
    # Usage lines name the command typed: ``chickenfoot`` or ``cf`` (``python -m cf`` too).
    called = sys.argv[0].replace("\\", "/").rsplit("/", 1)[-1] if sys.argv else ""
    try:
        run("chickenfoot" if called.startswith("chickenfoot") else "cf")
    finally:
        # The process ends here. Everything it made stays put for the system to reclaim,
        # instead of Python's last garbage collection walking and freeing it object by
        # object: 0.03-0.05 s of CPU at every exit, more with numpy and OpenCV loaded
        # (bench/README.md, section 13). Output is flushed and atexit handlers run all
        # the same.
        gc.freeze()
