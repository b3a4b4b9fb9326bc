"""The ``cf`` and ``chickenfoot`` commands' entry point: signals are caught from here on.

Imported before anything heavy (typer, the commands), so that Ctrl-C or SIGTERM during
start-up already ends as ``Interrupted.`` and 130/143, not a ``KeyboardInterrupt``
traceback from the middle of an import. Only the interpreter's own start-up (before this
module runs, a few tens of milliseconds) keeps Python's default behaviour.
"""

from __future__ import annotations

import sys

from cf import _process

_process.catch_signals()


def main() -> None:
    """Run ``cf`` (see :func:`cf.cli.run`)."""
    _language_from_argv(sys.argv[1:])
    try:
        from cf.cli import run
    except _process.Interrupted as exc:
        _process.say("Interrupted.")
        sys.exit(128 + exc.signum)
    run()


def _language_from_argv(args: list[str]) -> None:
    """``cf --lang es …``: set before the commands are imported, so that their ``--help``
    texts (made when a command's module loads) are in that language too."""
    for i, arg in enumerate(args):
        if arg == "--":
            return
        if arg.startswith("--lang="):
            value: str | None = arg.partition("=")[2]
        elif arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        else:
            continue
        from cf import i18n

        i18n.set_language(value)
        return
