"""The ``cf`` command line: a group of commands, each loaded only when it runs.

Each command lives in its own module under :mod:`cf.commands` and parses arguments, calls
one library function and renders the result. ``cf score`` — what people type most —
loads neither the other commands nor yaml or tabulate, so it starts about as fast as a
bare Typer app (bench/README.md).
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Annotated, Any

import typer
import typer.core

from cf import __version__

#: Command name -> module in cf.commands, in the order ``cf --help`` lists them.
COMMANDS = ("score", "deal", "validate", "tally", "simulate")


class LazyGroup(typer.core.TyperGroup):
    """Click's lazy-loading group pattern: a command is imported when it is asked for."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in COMMANDS:
            return None
        if cmd_name not in self.commands:
            module = importlib.import_module(f"cf.commands.{cmd_name}")
            command = typer.main.get_command(module.app)
            command.name = cmd_name
            self.commands[cmd_name] = command
        return self.commands[cmd_name]

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except typer.core._click.exceptions.ClickException as exc:
            exc.message = _clip_words(exc.message)  # Click quotes a bad value whole
            raise


def _clip_words(message: str, limit: int = 60) -> str:
    """``message`` with every overlong word (a pasted value) cut short, as cf's own
    messages quote values."""
    from cf.errors import clip

    if len(message) <= 2 * limit:
        return message
    return " ".join(clip(w, limit) if len(w) > limit else w for w in message.split(" "))


app = typer.Typer(
    name="cf",
    cls=LazyGroup,
    help="cf — the Chicken Foot (Pata de Gallina) toolkit: score hands, deal, validate "
    "game records, tally standings and simulate games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help texts show [code] and the like literally
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cf {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """cf — the Chicken Foot (Pata de Gallina) toolkit.

    Score hands, deal, check recorded games against the rules, tally standings for a game
    or a tournament, and let computer players play whole games.
    """


def run(prog_name: str = "cf") -> None:
    """Console-script entry point: no input ever ends in a traceback.

    Exit statuses beyond the commands' own 0/1/2 (docs/cli.md, "Exit status"): output that
    cannot be written is ``Error: cannot write output: …``, 1; a closed pipe (``| head``)
    ends quietly with 141, as a program killed by SIGPIPE does; Ctrl-C is 130 and SIGTERM
    143, printed as ``Interrupted.`` once, after every worker process has stopped.
    """
    from cf import _process

    try:
        _process.catch_signals()
        _process.guard_streams()
        try:
            app(prog_name=prog_name)
        finally:
            _process.flush_stdout()
    except SystemExit as exc:
        code = exc.code
    except _process.Interrupted as exc:
        _process.say("Interrupted.")
        code = 128 + exc.signum
    except _process.OutputFailed as exc:
        code = _process.output_failed(exc)
    except Exception as exc:  # a bug in cf, never the user's fault: say so in one line
        if os.environ.get("CF_DEBUG"):
            raise
        _process.say(
            f"Error: internal error ({type(exc).__name__}: {exc}); "
            "run again with CF_DEBUG=1 for details and please report it"
        )
        code = 1
    sys.exit(code)
