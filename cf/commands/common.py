"""What the commands share: error exits, option types, file reading, JSON output.

Kept light: ``cf score`` imports this, and nothing here imports yaml or tabulate.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from enum import Enum
from typing import Annotated, Any, NoReturn, Optional

import typer

from cf.errors import clip
from cf.i18n import _, os_reason, tr
from cf.tiles import SetNameError, parse_set_name


class _CommandApp(typer.Typer):
    """A Typer app whose commands print Click's own words (``Usage:``, the help option)
    in the reader's language (:mod:`cf.cli_words`)."""

    def command(self, *args: Any, **kwargs: Any) -> Any:
        from cf.cli_words import Command

        kwargs.setdefault("cls", Command)
        return super().command(*args, **kwargs)


def command_app() -> typer.Typer:
    """The one-command Typer app each command module defines, set up like ``cf`` itself."""
    return _CommandApp(
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings={"help_option_names": ["-h", "--help"]},
    )


class TextJson(str, Enum):
    text = "text"
    json = "json"


class ValidateFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"


class DrawRule(str, Enum):
    """The house rule ``draw`` (docs/rules.md, "House rules")."""

    one = "one"
    one_may = "one-may"
    until = "until"


class RankBy(str, Enum):
    total = "total"
    average = "average"
    wins = "wins"
    rating = "rating"


def cannot_write_output(exc: Any) -> str:
    """``cannot write output: FILE: why`` for a :class:`cf.files.WriteFailed` (SPEC §7:
    output that cannot be written, as for a full disk on stdout)."""
    return _("cannot write output: {path}: {why}").format(path=exc.path, why=tr(exc.reason))


def fail(message: str, code: int = 1) -> NoReturn:
    """One clean ``Error: …`` line on stderr, then exit (1: bad input, 2: usage)."""
    typer.echo(_("Error: {message}").format(message=message), err=True)
    raise typer.Exit(code)


def fail_rules(exc: Exception, code: int = 1) -> NoReturn:
    """A house rule the options set that cannot be played (a player count the set's deal
    table has no row for, starter arms the set cannot take): ``Error: …`` naming the
    option to give, then exit ``code`` (``cf new``: 2, as SPEC 8 says; ``cf deal`` and
    ``cf simulate``: 1, as docs/cli.md says)."""
    # The deal's errors end in a hint for a game file; on the command line it is an option.
    fail(tr(exc).replace(_("give the deal explicitly"), _("give it with --deal")), code)


def check_photo_path(path: str) -> None:
    """Exit 2 unless ``path`` names a file, or is ``-`` (standard input, not a terminal):
    the same words for a missing photo in ``cf score --photo`` and ``cf add NAME=@PHOTO``."""
    if path == "-":
        from cf._process import stdin_closed

        if sys.stdin is None or stdin_closed():
            fail(_("cannot read stdin: {value}").format(value=_("stdin is closed")), 2)
        if sys.stdin.isatty():
            fail(_("stdin is a terminal: pipe the photo in (… < hand.jpg)"), 2)
        return
    if os.path.isdir(path):
        fail(_("{path} is a directory, not a photo").format(path=path), 2)
    if not os.path.exists(path):
        fail(_("cannot read {path}: no such file").format(path=path), 2)


#: The most a command reads from stdin (game files have the same limit).
MAX_STDIN = 16 * 2**20


def read_stdin(what: str) -> str:
    """All of stdin as text (UTF-8, a BOM dropped). On a terminal, first a one-line hint on
    stderr, so that a command waiting for input does not look hung."""
    _hint_if_terminal(what)
    try:
        raw = sys.stdin.buffer.read(MAX_STDIN + 1)
    except (OSError, ValueError) as exc:
        fail(_("cannot read stdin: {value}").format(value=tr(os_reason(exc))), 2)
    if len(raw) > MAX_STDIN:
        fail(_("stdin holds more than {value} MiB").format(value=MAX_STDIN // 2**20))
    return raw.decode("utf-8-sig", errors="replace")


def _hint_if_terminal(what: str) -> None:
    stdin = sys.stdin
    if stdin is None:
        fail(_("no standard input to read (it is closed)"), 2)
    try:
        tty = stdin.isatty()
    except (OSError, ValueError):
        tty = False
    if tty:
        typer.echo(
            _("reading {what} from the terminal; end with Ctrl-D").format(what=what), err=True
        )


def set_option(value: Optional[str]) -> int:
    """The --set value (already checked by :func:`check_set`) as its highest pip."""
    return 9 if value is None else parse_set_name(value)


def check_set(value: Optional[str]) -> Optional[str]:
    if value is not None:
        try:
            parse_set_name(value)
        except SetNameError as exc:
            raise typer.BadParameter(tr(exc)) from None
    return value


# --- shell completion: candidates for option values (loaded only when completing) --------


def complete_set(incomplete: str) -> list[str]:
    """--set: the canonical set names."""
    from cf.tiles import SET_NAMES

    return [name for name in SET_NAMES.values() if name.startswith(incomplete.lower())]


def complete_strategy(incomplete: str) -> list[str]:
    """--strategy: a strategy name for the seat being typed (after the last comma)."""
    from cf.play.simulate import STRATEGIES

    done, _unused, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    return [prefix + name for name in STRATEGIES if name.startswith(last.lower())]


def complete_table_format(incomplete: str) -> list[str]:
    """tally --format: json, csv, the aliases (markdown, md) and every tabulate format."""
    from tabulate import tabulate_formats

    names = ["json", "csv", *FORMAT_ALIASES, *sorted(tabulate_formats)]
    return [name for name in names if name.startswith(incomplete)]


def echo_json(data: object) -> None:
    from cf.render.jsontext import dumps

    write_document(dumps(data))


def write_document(text: str) -> None:
    """Write a document (JSON, YAML, CSV) to stdout as UTF-8, whatever the terminal's
    encoding: a file format has one encoding, and an escape would change the data."""
    out = sys.stdout
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        out.write(text)
        return
    out.flush()
    buffer.write(text.encode("utf-8", "backslashreplace"))
    buffer.flush()


SetOpt = Annotated[
    Optional[str],
    typer.Option(
        "--set",
        envvar="CF_SET",
        callback=check_set,
        autocompletion=complete_set,
        help=_(
            "Domino set: double-six, double-nine (default), "
            "double-twelve, double-fifteen, double-eighteen; also "
            "double-9, d9 or 9."
        ),
        show_default=False,
    ),
]


def whole_number(value: object) -> int:
    """An option's value as a whole number, 0 or more, written as every number option of
    cf takes one (click's: what Python's ``int`` reads, so ``+3`` and ``1_000`` too), at
    most 1000 characters (Python refuses to convert more than 4300 digits). A bad value is
    a usage error that quotes it clipped."""
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if len(text) <= 1000:
        try:
            number = int(text)
        except ValueError:
            pass
        else:
            if number >= 0:
                return number
    raise typer.BadParameter(_("a whole number, 0 or more, not '{text}'").format(text=clip(text)))


StarterArmsOpt = Annotated[
    str,
    typer.Option(
        "--starter-arms", metavar="ARMS", help=_("Arms the starter takes: 2..N or 'players'.")
    ),
]
DoubleBlankOpt = Annotated[
    int,
    typer.Option(
        "--double-blank",
        envvar="CF_DOUBLE_BLANK",
        parser=whole_number,
        metavar="N",
        help=_("Points for holding the double blank 0-0 at the end of a round."),
    ),
]


# The house rules of docs/rules.md, "House rules": the same flags for cf new and cf simulate.
DrawOpt = Annotated[
    DrawRule,
    typer.Option(
        "--draw",
        case_sensitive=False,  # as the file's rules.draw and --starter-arms players
        help=_(
            "What a player who cannot play does: draw one tile and play "
            "it if it fits (one, the rule sheets'), draw one and may "
            "play it (one-may), or draw until a tile fits (until)."
        ),
    ),
]
OutOnDoubleOpt = Annotated[
    int,
    typer.Option(
        "--out-on-double",
        parser=whole_number,
        metavar="N",
        help=_("Points for going out by playing a double as the last tile (some tables: 50)."),
    ),
]
TargetOpt = Annotated[
    Optional[int],
    typer.Option(
        "--target",
        min=1,
        metavar="T",
        help=_(
            "Play to a target total: the game ends after the round in "
            "which a total reaches T (lowest total wins); --rounds is "
            "then the most rounds it may have."
        ),
        show_default=False,
    ),
]


def names_option(names: Optional[str], players: Optional[int]) -> Optional[list[str]]:
    if names is None:
        return None
    name_list = [n.strip() for n in names.split(",")]
    if not all(name_list):
        raise typer.BadParameter(
            _("an empty name (two commas in a row, or one at an end)"), param_hint="'--names'"
        )
    from cf.record.problems import has_control, one_line

    odd = [n for n in name_list if has_control(n)]
    if odd:
        raise typer.BadParameter(
            _("a name may not hold control characters: {odd}").format(odd=clip(one_line(odd[0]))),
            param_hint="'--names'",
        )
    if len(set(name_list)) != len(name_list):
        raise typer.BadParameter(_("a name is given twice"), param_hint="'--names'")
    if any("=" in n for n in name_list):  # as cf new --players: cf add could not name them
        raise typer.BadParameter(
            _("a name may not hold '=': cf add NAME=VALUE could not name that player"),
            param_hint="'--names'",
        )
    if players is not None and players != len(name_list):
        raise typer.BadParameter(
            _("{n_name_list} names for {players} players").format(
                n_name_list=len(name_list), players=players
            ),
            param_hint="'--names'",
        )
    return name_list


#: Friendlier names for tabulate formats.
FORMAT_ALIASES = {"markdown": "github", "md": "github"}


def table_format(value: str) -> str:
    """A --format value as the format to render: json, csv, or a tabulate format name
    (``markdown`` and ``md`` are tabulate's ``github``)."""
    from tabulate import tabulate_formats

    value = FORMAT_ALIASES.get(value, value)
    if value in ("json", "csv") or value in tabulate_formats:
        return value
    raise typer.BadParameter(
        _(
            "'{value}' is not a format: use json, csv, markdown (md) or "
            "a tabulate format ({tabulate_formats})"
        ).format(value=value, tabulate_formats=", ".join(sorted(tabulate_formats)))
    )


FilesArg = Annotated[
    Optional[list[str]],
    typer.Argument(
        help=_("Game files (YAML); '-' or none reads stdin."), show_default=False, metavar="FILE"
    ),
]


def read_games(files: Optional[list[str]]) -> Iterator[Any]:
    """Every file is checked first, so that a missing one is a usage error before any output;
    then each is read when its turn comes, so that a large archive is never all in memory."""
    from cf._process import stdin_closed
    from cf.record.reader import display_name, read_game_file

    paths = files or ["-"]
    for path in paths:
        if path == "-":
            continue
        shown = display_name(path)  # bytes that are not UTF-8 shown as U+FFFD
        if os.path.isdir(path):
            fail(_("{path} is a directory, not a game file").format(path=shown), 2)
        if not os.path.exists(path):
            fail(_("cannot read {path}: no such file").format(path=shown), 2)
        if not os.access(path, os.R_OK):
            fail(_("cannot read {path}: permission denied").format(path=shown), 2)
    for path in paths:
        if path == "-":
            if sys.stdin is None or stdin_closed():
                fail(_("cannot read stdin: {value}").format(value=_("stdin is closed")), 2)
            _hint_if_terminal("a game file")
        try:
            yield read_game_file(path)
        except OSError as exc:
            fail(
                _("cannot read {path}: {value}").format(
                    path="stdin" if path == "-" else display_name(path),
                    value=tr(os_reason(exc)),
                ),
                2,
            )


def os_failure(exc: OSError) -> str:
    """Why ``exc`` failed, for a person: the system's reason and the file it names (the
    lock beside a game file, say), never Python's ``[Errno N] …: '…'`` form."""
    from cf.record.reader import display_name

    reason = tr(os_reason(exc))
    if exc.filename:
        reason = f"{reason} ({display_name(os.fsdecode(exc.filename))})"
    return reason
