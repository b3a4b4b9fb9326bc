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
from typing import Annotated, Any, Optional

import typer
import typer.core
from typer._completion_classes import completion_init

from cf import __version__
from cf.cli_words import Command, Words, told, use_cf_catalogue
from cf.i18n import N_, _, lang_options, language_from_args

# Typer's completion protocol (`_CF_COMPLETE=complete_bash` and its zsh and fish kin): the
# scripts that `cf --show-completion` prints talk to it. typer.main has imported it
# already, so this costs nothing at start-up.
completion_init()
# The words Typer prints itself (Options, [required], …) in the reader's language.
use_cf_catalogue()

#: Command name -> module in cf.commands, in the order ``cf --help`` lists them.
COMMANDS = (
    "score",
    "deal",
    "validate",
    "tally",
    "player",
    "simulate",
    "new",
    "add",
    "undo",
    "serve",
    "show",
    "hint",
    "schema",
    "explain",
)


def _plain_number_words() -> None:
    """Usage errors in words, not Click's notation: "'abc' is not a valid whole number",
    "1 is not in the range from 2 to 100" (not "int range" and "2<=x<=100")."""
    from typer._click import types

    def describe(self: Any) -> str:
        if self.min is None:
            return _("up to {max}").format(max=self.max)
        if self.max is None:
            return _("from {min} up").format(min=self.min)
        return _("from {min} to {max}").format(min=self.min, max=self.max)

    types.IntRange.name = "whole number"
    types.IntParamType.name = "whole number"
    types.IntRange._describe_range = describe  # type: ignore[method-assign]


_plain_number_words()


def _plain_metavars() -> None:
    """One placeholder style in every ``--help``: a value is a word in capitals (``FILE``,
    ``ENTRY...``, ``K``; a whole number ``N``, a fraction ``X``, other text the option's
    name: ``--set SET``), a choice its values (``text|json``); an optional argument is
    in brackets (``[FILE]``). Not Typer's mix of ``{FILE}``, ``[tiles]...``, ``<str>``,
    ``<whole number>`` and ``<text|json>``."""
    from typer._click import types

    def option_metavar(self: Any, ctx: Any) -> str:
        if self.metavar is not None:
            return str(self.metavar)
        kind = self.type
        if hasattr(kind, "choices"):
            word = "|".join(str(getattr(c, "value", c)) for c in kind.choices)
        elif isinstance(kind, types.IntParamType):
            word = "N"
        elif isinstance(kind, types.FloatParamType):
            word = "X"
        else:
            word = (self.name or "value").strip("_").upper()
        return word + ("..." if self.nargs != 1 else "")

    def argument_metavar(self: Any, ctx: Any, *, usage: bool = False) -> str:
        word = str(self.metavar or (self.name or "value").strip("_").upper())
        if word.startswith("["):
            return word
        if self.nargs != 1 and not word.endswith("..."):
            word += "..."
        return f"[{word}]" if usage and not self.required else word

    typer.core.TyperOption.make_metavar = option_metavar  # type: ignore[method-assign]
    typer.core.TyperArgument.make_metavar = argument_metavar  # type: ignore[method-assign]


_plain_metavars()


def _lang_first(args: list[str]) -> list[str]:
    """``args`` with every ``--lang X`` given after the command (``cf tally g.yaml --lang
    es``) moved before it, where the option is defined: it is cf's, whatever the command
    (the last one wins, as for any option; not past ``--``).

    >>> _lang_first(["tally", "g.yaml", "--lang", "es"])
    ['--lang', 'es', 'tally', 'g.yaml']
    >>> _lang_first(["--lang", "es", "deal", "--lang=gl"])
    ['--lang', 'es', '--lang=gl', 'deal']
    >>> _lang_first(["score", "--", "--lang=es"])
    ['score', '--', '--lang=es']
    """
    options, rest = lang_options(args)
    return [*options, *rest]


class LazyGroup(Words, typer.core.TyperGroup):
    """Click's lazy-loading group pattern: a command is imported when it is asked for.

    Also ``cf help COMMAND``, "did you mean" for a misspelled command, and Click's own
    words and usage errors in the reader's language (:mod:`cf.cli_words`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.extend(_completion_options())

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        # The language first, before any error, as the cf command does (cf._entry).
        given = language_from_args(args)
        with told():
            if not given:
                raise typer.BadParameter(_("give a language: es, gl or en"), param_hint="'--lang'")
            return super().parse_args(ctx, _completion_args(_lang_first(args)))

    def list_commands(self, ctx: Any) -> list[str]:
        return [*COMMANDS, "help"]

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            import difflib

            names = [*COMMANDS, "help"]
            # A prefix (sim, ad) or a near spelling (valdate); nothing for a word that is
            # merely as long as a command (nosuch is not schema).
            close = [c for c in names if len(name) >= 2 and c.startswith(name.lower())]
            close = close or difflib.get_close_matches(name.lower(), names, n=1, cutoff=0.65)
            if len(close) == 1:
                message = _(
                    "No such command '{name}'. Did you mean '{command}'? (cf --help lists them)"
                ).format(name=name, command=close[0])
            else:
                message = _("No such command '{name}'. (cf --help lists them)").format(name=name)
            ctx.fail(message)
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name == "help":
            return _help_command(self)
        if cmd_name not in COMMANDS:
            return None
        if cmd_name not in self.commands:
            module = importlib.import_module(f"cf.commands.{cmd_name}")
            command = typer.main.get_command(module.app)
            command.name = cmd_name
            self.commands[cmd_name] = command
        return self.commands[cmd_name]

    def invoke(self, ctx: Any) -> Any:
        with told():
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


HELP_HELP = N_("Show the help of a command: cf help tally is cf tally --help.")


def _help_command(group: LazyGroup) -> Any:
    """``cf help [COMMAND]``: the same text as ``cf COMMAND --help``."""
    helper = typer.Typer(add_completion=False, rich_markup_mode=None)

    @helper.command(cls=Command, help=_(HELP_HELP))
    def help(
        ctx: typer.Context,
        command: Annotated[
            Optional[str], typer.Argument(metavar=_("COMMAND"), show_default=False)
        ] = None,
    ) -> None:
        parent = ctx.parent
        assert parent is not None
        if command is None:
            typer.echo(group.get_help(parent))
            return
        target = group.get_command(parent, command)
        if target is None:
            group.resolve_command(parent, [command])  # fails, with "did you mean"
        with target.make_context(command, ["--help"], parent=parent) as sub:
            typer.echo(target.get_help(sub))

    command = typer.main.get_command(helper)
    command.name = "help"
    return command


app = typer.Typer(
    name="cf",
    cls=LazyGroup,
    help=_(
        "cf — the Chicken Foot (Pata de Gallina) toolkit: keep score at the table round "
        "by round (cf new, cf add, cf undo), score a hand, deal, check recorded games, tally "
        "standings, draw the table, get advice and simulate games."
    ),
    no_args_is_help=True,
    add_completion=False,  # cf's own --install-completion/--show-completion, below
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help texts show [code] and the like literally
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cf {__version__}")  # untranslated: the program and its version
        raise typer.Exit()


#: The shells whose completion scripts cf prints and installs.
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
_DETECT = "detect"
_COMPLETION_OPTIONS = ("--install-completion", "--show-completion")


def _completion_args(args: list[str]) -> list[str]:
    """``--show-completion [SHELL]``: the shell is optional, which Typer's options cannot
    say, so a bare option (one followed by nothing, another option or a command) is given
    the value ``detect``: ask the shell cf runs under."""
    out: list[str] = []
    for i, arg in enumerate(args):
        if not arg.startswith("-"):  # the command: its own arguments are left alone
            return out + args[i:]
        if arg in _COMPLETION_OPTIONS:
            following = args[i + 1] if i + 1 < len(args) else "-"
            if following.startswith("-") or following in (*COMMANDS, "help"):
                arg = f"{arg}={_DETECT}"
        out.append(arg)
    return out


def _complete_shell(ctx: Any, args: list[str], incomplete: str) -> list[str]:
    return [shell for shell in ("bash", "zsh", "fish") if shell.startswith(incomplete)]


def _completion_options() -> list[Any]:
    """``--install-completion`` and ``--show-completion``, built directly: declared in the
    callback, Typer would read their annotations at every start (0.8 ms of cf score)."""
    return [
        typer.core.TyperOption(
            param_decls=[name],
            callback=callback,
            autocompletion=_complete_shell,
            metavar="[SHELL]",
            is_eager=True,
            expose_value=False,
            help=_(help),
        )
        for name, callback, help in (
            (
                "--install-completion",
                _install_completion,
                N_("Install tab completion for SHELL (bash, zsh or fish; default: this shell)."),
            ),
            (
                "--show-completion",
                _show_completion,
                N_("Print the tab-completion script for SHELL, to install it by hand."),
            ),
        )
    ]


def _completion_shell(value: str) -> str:
    if value == _DETECT:
        from typer._completion_shared import _get_shell_name

        detected = _get_shell_name()
        if detected not in SHELLS:
            if detected:
                found = _("cf runs under {shell}: name the shell (bash, zsh or fish)")
            else:
                found = _("cannot tell the shell: name the shell (bash, zsh or fish)")
            raise typer.BadParameter(found.format(shell=detected))
        value = detected
    if value not in SHELLS:
        raise typer.BadParameter(
            _("'{value}' is not a shell cf completes: {shells}").format(
                value=value, shells=", ".join(SHELLS)
            )
        )
    return value


def _show_completion(ctx: Any, param: Any, value: Optional[str]) -> None:
    if value is None or ctx.resilient_parsing:
        return
    from typer._completion_shared import get_completion_script

    shell = _completion_shell(value)
    # The script is cf's, registered for both names, whichever name was typed: the
    # program answers completion through _CF_COMPLETE under either (cf.cli.run).
    script = get_completion_script(prog_name="cf", complete_var="_CF_COMPLETE", shell=shell)
    typer.echo(both_names(script))
    raise typer.Exit()


#: The program's two names (pyproject.toml's scripts): completion registers for both.
NAMES = ("cf", "chickenfoot")


def both_names(script: str) -> str:
    """Typer's completion ``script`` for ``cf``, registered for ``chickenfoot`` too (the
    same program); in bash, no space after a completed ``NAME=`` (its value follows)."""
    import re

    both = " ".join(NAMES)
    script = script.replace("#compdef cf\n", f"#compdef {both}\n")
    script = re.sub(
        r"^compdef _cf_completion cf$", f"compdef _cf_completion {both}", script, flags=re.M
    )
    script = script.replace(
        "    return 0\n}",
        "    [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace\n"
        "    return 0\n}",
    )
    script = script.replace(
        "complete -o default -F _cf_completion cf", f"complete -o default -F _cf_completion {both}"
    )
    if script.startswith("complete --command cf "):  # fish: one line per command name
        script += "\n" + script.rstrip("\n").replace("--command cf ", "--command chickenfoot ")
    return script


def _install_completion(ctx: Any, param: Any, value: Optional[str]) -> None:
    if value is None or ctx.resilient_parsing:
        return
    import typer._completion_shared as shared
    from typer._completion_shared import install

    shell = _completion_shell(value)
    prog = "cf"  # the script is cf's under either name (_show_completion)
    script_of = shared.get_completion_script
    shared.get_completion_script = lambda **kw: both_names(script_of(**kw))  # type: ignore[assignment]
    try:
        shell, path = install(shell=shell, prog_name=prog)
    finally:
        shared.get_completion_script = script_of  # type: ignore[assignment]
    if shell == "fish":  # fish loads completions/NAME.fish for the command NAME
        from pathlib import Path

        Path(path).with_name("chickenfoot.fish").write_text(Path(path).read_text())
    typer.echo(
        _("{shell} completion for {prog} installed in {path}").format(
            shell=shell, prog=prog, path=path
        )
    )
    typer.echo(_("It takes effect in new shells (or after sourcing that file)."))
    raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help=_("Show the version and exit.")
        ),
    ] = False,
    lang: Annotated[
        Optional[str],
        typer.Option(
            "--lang",
            metavar="LANG",
            callback=_language,
            is_eager=True,
            expose_value=False,
            help=_(
                "Language of what cf prints: en, es or gl "
                "(default: CF_LANG, then LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."
            ),
        ),
    ] = None,
) -> None:
    """cf — the Chicken Foot (Pata de Gallina) toolkit.

    Keep score at the table round by round (cf new, cf add, cf undo), score hands, deal,
    check recorded games against the rules, tally standings for a game or a tournament,
    and let computer players play whole games.
    """


def _language(value: Optional[str]) -> None:
    if value is not None:
        from cf import i18n

        i18n.set_language(value)


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
        _process.keep_escapes()
        try:
            # One completion variable whatever the name typed: the scripts
            # (--show-completion) serve both names through it.
            app(prog_name=prog_name, complete_var="_CF_COMPLETE")
        finally:
            _process.flush_stdout()
    except SystemExit as exc:
        code = exc.code
    except _process.Interrupted as exc:
        _process.say(_("Interrupted."))
        code = 128 + exc.signum
    except _process.OutputFailed as exc:
        code = _process.output_failed(exc)
    except Exception as exc:  # a bug in cf, never the user's fault: say so in one line
        if os.environ.get("CF_DEBUG"):
            raise
        _process.say(
            _(
                "Error: internal error ({kind}: {error}); "
                "run again with CF_DEBUG=1 for details and please report it"
            ).format(kind=type(exc).__name__, error=exc)
        )
        code = 1
    sys.exit(code)
