"""The words Typer and Click print themselves, in the reader's language.

``Usage:``, ``Options``, ``[default: text]``, ``Show this message and exit.``, ``Try 'cf
add -h' for help.``, ``Error: Missing argument 'FILE'.``: cf's commands run on Typer 0.28,
which vendors Click with these words written in English in its code. cf translates them
without changing either (docs/translating.md):

- Typer marks its own words with gettext (``Options``, ``required``, ``default: …``):
  :func:`use_cf_catalogue` points those marks at cf's catalogue.
- The usage line and the help option are cf's command classes' (:class:`Words`).
- A usage error carries its parts — the parameter, the option's name, the context, the
  reason a value was refused — and :class:`Told` says it again from those parts with cf's
  own marked templates. The reason, which Click writes as one English sentence, is matched
  against the few sentences Click writes (:data:`REASONS`); a reason cf wrote itself is
  already in the reader's language and stays as it is.

In English none of this runs: every byte is Typer's and Click's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Any

import typer.core
from typer._click import exceptions as click_errors
from typer._click._compat import get_text_stderr
from typer._click.utils import echo

from cf.i18n import N_, _, language

#: The words Typer marks with gettext (typer/core.py), here so that cf's catalogue has
#: them; tests/test_i18n_click.py checks that the list is still Typer's.
TYPER_WORDS = (
    N_("(dynamic)"),
    N_("Aborted!"),
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
    N_("Arguments"),
    N_("Options"),
    N_("Commands"),
    N_("Missing command."),
    N_("No such command {name!r}."),
)

#: The placeholders of a usage line that are Click's and Typer's, not cf's.
USAGE_PIECES = {
    "[OPTIONS]": N_("[OPTIONS]"),
    "COMMAND [ARGS]...": N_("COMMAND [ARGS]..."),
}
USAGE = N_("Usage:")
HELP_OPTION = N_("Show this message and exit.")

#: The sentences in which Click and Typer say why a value or an argument is refused, as
#: a pattern of the English sentence and the template cf says it with. The patterns name
#: the template's placeholders; the values (quoted as Click quotes them) stay as written.
#: (Compiled when an error is said, not when cf starts.)
REASONS: tuple[tuple[str, str], ...] = (
    (r"(?P<value>.*) is not one of (?P<choices>.*)\.", N_("{value} is not one of {choices}.")),
    (
        r"(?P<value>.*) is not a valid whole number\.",
        N_("{value} is not a valid whole number."),
    ),
    (r"(?P<value>.*) is not a valid float(?: range)?\.", N_("{value} is not a valid number.")),
    (
        r"(?P<value>.*) is not in the range (?P<range>.*)\.",
        N_("{value} is not in the range {range}."),
    ),
    (
        r"Got unexpected extra argument\(s\) \((?P<args>.*)\)",
        N_("Got unexpected extra argument(s) ({args})"),
    ),
    (
        r"Option (?P<name>'.*') requires an argument\.",
        N_("Option {name} requires an argument."),
    ),
    (
        r"Option (?P<name>'.*') requires (?P<count>\d+) arguments\.",
        N_("Option {name} requires {count} arguments."),
    ),
    (
        r"Option (?P<name>'.*') does not take a value\.",
        N_("Option {name} does not take a value."),
    ),
    (
        r"Argument (?P<name>'.*') takes (?P<count>\d+) values\.",
        N_("Argument {name} takes {count} values."),
    ),
    (r"No such option: (?P<name>.*)", N_("No such option: {name}")),
    (r"Choose from:(?P<choices>\n\t.*)", N_("Choose from:{choices}")),
)


def reason(message: str) -> str:
    """One of Click's English sentences (:data:`REASONS`) in the reader's language; any
    other text as it is.

    >>> from cf.i18n import set_language
    >>> set_language("es")
    >>> reason("'xml' is not one of 'text', 'json'.")
    "'xml' no es ninguno de estos: 'text', 'json'."
    >>> reason("a game needs at least 2 players")
    'a game needs at least 2 players'
    >>> set_language(None)
    """
    for pattern, template in REASONS:
        found = re.fullmatch(pattern, message, re.DOTALL)
        if found:
            return _(template).format(**found.groupdict())
    return message


def use_cf_catalogue() -> None:
    """Typer's gettext marks (:data:`TYPER_WORDS`) look their words up in cf's catalogue:
    the sections of ``--help``, ``[default: …]``, ``[required]``."""
    typer.core._ = _  # type: ignore[attr-defined]


if TYPE_CHECKING:
    _Command = typer.core.TyperCommand
else:
    _Command = object


class Words(_Command):
    """What a command of cf's says itself: the usage line and the help option, in the
    reader's language (a mix-in for Typer's command and group classes)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)
        return [_(USAGE_PIECES[p]) if p in USAGE_PIECES else p for p in pieces]

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        pieces = self.collect_usage_pieces(ctx)
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_(USAGE) + " ")

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None:  # made once, shown in the language of the moment
            option.help = _(HELP_OPTION)
        return option


class Command(Words, typer.core.TyperCommand):
    """The class of every cf command (``cf.commands.common.command_app``)."""


class Told(click_errors.ClickException):
    """A Click error said again in the reader's language: Typer shows it as it shows
    Click's, and exits with the same status."""

    def __init__(self, original: click_errors.ClickException) -> None:
        super().__init__(original.message)
        self.original = original
        self.exit_code = original.exit_code

    def format_message(self) -> str:
        return in_words(self.original)

    def show(self, file: IO[Any] | None = None) -> None:
        if file is None:
            file = get_text_stderr()
        error = self.original
        color = self.show_color
        ctx = error.ctx if isinstance(error, click_errors.UsageError) else None
        if ctx is not None:
            color = ctx.color
            hint = ""
            if ctx.command.get_help_option(ctx) is not None:
                hint = _("Try '{command} {option}' for help.").format(
                    command=ctx.command_path, option=ctx.help_option_names[0]
                )
                hint += "\n"
            echo(f"{ctx.get_usage()}\n{hint}", file=file, color=color)
        echo(
            _("Error: {message}").format(message=self.format_message()),
            file=file,
            color=color,
        )


def in_words(error: click_errors.ClickException) -> str:
    """The message of Click's ``error`` in the reader's language, built from its parts."""
    if isinstance(error, click_errors.BadParameter):
        hint = error.param_hint
        if hint is None and error.param is not None:
            hint = error.param.get_error_hint(error.ctx)  # type: ignore[arg-type]
        name = click_errors._join_param_hints(hint)
        envvar = getattr(error.param, "envvar", None)
        said_envvar = f" (env var: '{envvar}')"
        if name and envvar and error.param_hint is None and name.endswith(said_envvar):
            name = "{} ({})".format(
                name.removesuffix(said_envvar), _("env var: {var}").format(var=f"'{envvar}'")
            )
        if isinstance(error, click_errors.MissingParameter):
            return _missing(error, name)
        if name is None:
            return _("Invalid value: {reason}").format(reason=reason(error.message))
        return _("Invalid value for {name}: {reason}").format(
            name=name, reason=reason(error.message)
        )
    if isinstance(error, click_errors.NoSuchOption) and error.possibilities:
        return "{} {}".format(
            reason(error.message),
            _("(Possible options: {options})").format(
                options=", ".join(sorted(error.possibilities))
            ),
        )
    if isinstance(error, click_errors.FileError):
        return _("Could not open file {name}: {reason}").format(
            name=repr(error.ui_filename), reason=reason(error.message)
        )
    return reason(error.message)


def _missing(error: click_errors.MissingParameter, name: str | None) -> str:
    kind = error.param_type
    if kind is None and error.param is not None:
        kind = error.param.param_type_name
    if name is None:
        said = _("Missing parameter.")
    elif kind == "argument":
        said = _("Missing argument {name}.").format(name=name)
    elif kind == "option":
        said = _("Missing option {name}.").format(name=name)
    else:
        said = _("Missing parameter {name}.").format(name=name)
    more = reason(error.message) if error.message else ""
    if error.param is not None:
        extra = error.param.type.get_missing_message(param=error.param, ctx=error.ctx)
        if extra:
            more = f"{more}. {reason(extra)}" if more else reason(extra)
    return f"{said} {more}" if more else said


@contextmanager
def told() -> Iterator[None]:
    """Click's errors raised inside are said again in the reader's language. In English
    they are left as they are, and so is an error that shows a help page (the page is in
    the reader's language already)."""
    try:
        yield
    except click_errors.NoArgsIsHelpError:
        raise
    except click_errors.ClickException as error:
        if language() == "en" or isinstance(error, Told):
            raise
        raise Told(error) from error
