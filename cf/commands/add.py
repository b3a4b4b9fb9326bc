"""``cf add``: enter a round, checked before it is written, and see the scoreboard."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any, NoReturn, Optional

import typer

from cf._process import keep_freed_memory
from cf.commands.common import TextJson, check_photo_path, command_app, fail, os_failure
from cf.i18n import N_, _, os_reason, tr

app = command_app()

PHOTO_EXTRA = N_("reading a photo needs the photo extra: pip install 'chickenfoot[photo]'")


def complete_entry(ctx: typer.Context, incomplete: str) -> list[str]:
    """Tab completion of an ENTRY: ``NAME=`` for each player of FILE (read from the file)
    not given yet, a space or other character the shell splits on escaped (``Tío\\ Lu=``).
    Nothing once a ``=`` is typed: the value is the player's."""
    if "=" in incomplete:
        return []
    file = ctx.params.get("file")
    if not file or not os.path.isfile(file):
        return []
    import re

    from cf.record.keeper import fold
    from cf.record.reader import read_game

    try:
        with open(file, "rb") as fh:
            players = read_game(fh.read(2**20), file).players
    except (OSError, ValueError):
        return []
    given = {fold(e.partition("=")[0].strip()) for e in ctx.params.get("entry") or ()}
    return [re.sub(r"([^\w.@%+:,/-])", r"\\\1", p) + "=" for p in players if fold(p) not in given]


@app.command(
    short_help=_("Enter a round's scores or hands; print the scoreboard."),
    help=_("""Add the next round (or replace round K) and print the scoreboard.

    Give every player once, as NAME=VALUE. NAME matches a player exactly, else without
    regard to case and accents when that picks one player. VALUE is a score, the tiles
    left in the hand, 'out' (or nothing) for who went out, or @IMAGE, a photo of the
    hand. All tiles: the round is written as hands; otherwise as scores, with the tiles
    given scored by the file's double_blank and kept in a comment on the same line.

    The file as it would be is checked first: with any problem nothing is written, the
    problems are printed as cf validate prints them, and the exit code is 1. The write
    is atomic and locked, and leaves every other byte of the file as it was.

    \b
    Examples:
      cf add friday.yaml Ana=0 Ben=33 Carla=12 Dan=50
      cf add friday.yaml Ana=out Ben="9-7 6-6 4-1" Carla="5-5 1-1" Dan=0-0
      cf add friday.yaml --round 2 Ana=5 Ben=0 Carla=21 Dan=8
    """),
)
def add(
    file: Annotated[
        str,
        typer.Argument(help=_("The game file (from cf new)."), show_default=False, metavar="FILE"),
    ],
    entry: Annotated[
        list[str],
        typer.Argument(
            help=_(
                "NAME=VALUE for every player: a score (Ana=12), the tiles "
                'left (Ben="9-7 6-6 4-1"), out (Carla=out, or Carla=) or a '
                "photo (Dan=@hand.jpg; @- reads it piped in on stdin)."
            ),
            show_default=False,
            metavar="ENTRY...",
            autocompletion=complete_entry,
        ),
    ],
    round_: Annotated[
        Optional[int],
        typer.Option(
            "--round",
            "-r",
            min=1,
            metavar="K",
            help=_("Replace round K instead of adding the next one."),
            show_default=False,
        ),
    ] = None,
    format_: Annotated[
        TextJson, typer.Option("--format", "-f", help=_("Scoreboard as text or json."))
    ] = TextJson.text,
) -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    from cf.files import WriteError, atomic_write, locked
    from cf.record.edit import EditError, UnreadableRounds
    from cf.record.keeper import EntryError, FileError, add_entries, match_players

    pairs = entry_pairs(entry)
    _check_file(file)
    if sum(value == "@-" for _unused, value in pairs) > 1:
        fail(_("- (stdin) holds one photo: give it once"), 2)
    for _unused, value in pairs:
        if value.startswith("@"):
            check_photo_path(value[1:])
    try:
        with locked(file):
            text = _read(file)
            before = _read_game(text, file)  # read once, for add_entries
            count, top = len(before.rounds), before.top
            if round_ is not None and round_ > count + 1:
                fail(
                    _(
                        "--round {round}: {file} has {count} round(s), so K is at most {value}"
                    ).format(round=round_, file=file, count=count, value=count + 1),
                    2,
                )
            # The players are known before a photo is read: a name that is none is said
            # at once, and each photo's tiles are echoed under the player's own name.
            names = [name for name, _unused in pairs]
            photos = any(v.startswith("@") for _unused, v in pairs)
            if before.players and photos:
                try:
                    names = match_players(names, before.players)
                except EntryError as exc:
                    fail_lines(tr(exc))
            # A typed value that is none is said before any photo is read, and every photo
            # is read, so that all there is to mend (and all the hands to take again) is
            # said at once.
            typed = _typed_errors(pairs, names, top) if photos else []
            for line in typed:
                typer.echo(_("Error: {line}").format(line=line), err=True)
            values = [
                (
                    name,
                    _photo(shown, v[1:], top, format_.value == "json") if v.startswith("@") else v,
                )
                for (name, v), shown in zip(pairs, names, strict=True)
            ]
            if typed or any(value is None for _unused, value in values):
                raise typer.Exit(1)
            try:
                change = add_entries(text, file, values, round_, before=before)
            except (FileError, UnreadableRounds) as exc:
                refuse_file(exc, before)
            except (EntryError, EditError) as exc:
                fail_lines(tr(exc))
            if not change.report.valid:
                _print_problems(change.report, round_ or count + 1)
                raise typer.Exit(1)
            lost = _only_in_yaml(text, before, round_)
            atomic_write(file, change.text, overwrite=True)
    except OSError as exc:  # the write itself, or the lock file beside FILE
        fail(
            tr(exc)
            if isinstance(exc, WriteError)
            else _("cannot write {file}: {exc}").format(file=file, exc=os_failure(exc))
        )
    replaced = round_ if round_ is not None and round_ <= count else None
    if replaced is None:
        _warn_if_repeated(change.game)
    if lost is not None:
        typer.echo(
            _(
                "round {number} held what cf add does not write (a deal, a move log, its "
                "starter or notes); it was:"
            ).format(number=replaced),
            err=True,
        )
        typer.echo(lost, err=True)
    _scoreboard(change, format_.value, replaced)


def _only_in_yaml(text: str, before: Any, number: int | None) -> str | None:
    """The YAML text of round ``number``, which ``--round`` replaces, when it holds what
    a round of entries cannot (a deal, a move log, its starter, notes): said on stderr,
    so that nothing typed is lost unseen (``cf undo`` says it so too)."""
    from cf.record.edit import find_dash, round_texts
    from cf.record.undo import round_entries

    if number is None or number > len(before.rounds):
        return None
    if round_entries(before, before.rounds[number - 1]) is not None:
        return None
    texts = round_texts(text)
    if len(texts) < number:
        return None
    import textwrap

    said = texts[number - 1]
    start = text.find(said)
    dash = find_dash(text, start)  # from the list's "-": a list item, as cf undo says it
    if dash is not None:
        said, start = text[dash:start] + said, dash
    said = " " * (start - text.rfind("\n", 0, start) - 1) + said
    return textwrap.dedent(said.replace("\r\n", "\n")).rstrip("\n")


#: What a NAME=VALUE entry looks like, said when an argument is not one.
ENTRY_FORMS = 'Ana=12, Ben="9-7 6-6", Carla=out, Dan=@hand.jpg'


def entry_pairs(entries: list[str]) -> list[tuple[str, str]]:
    """Each ``NAME=VALUE`` argument as (NAME, VALUE). A usage error (exit 2) for an
    argument that is not one: tiles split off by a space (``Ana=5-4 3-1``, the quotes
    forgotten) get the quoted entry to type instead; ``NAME=@`` gets the photo's form."""
    from cf.record.undo import shell_word

    pairs: list[tuple[str, str]] = []
    i = 0
    while i < len(entries):
        name, sep, value = entries[i].partition("=")
        if sep and name.strip():
            if value.strip() == "@":
                raise typer.BadParameter(
                    _("{entries}: the photo's file goes after the @ ({name}=@hand.jpg)").format(
                        entries=entries[i], name=name
                    ),
                    param_hint="ENTRY",
                )
            pairs.append((name, value))
            i += 1
            continue
        loose = _loose_tiles(entries, i)
        if pairs and loose and _loose_tiles([pairs[-1][1].strip() or "0-0"], 0):
            last_name, last_value = pairs[-1]
            tiles = " ".join([last_value, *entries[i : i + loose]]).strip()
            raise typer.BadParameter(
                _('tiles with spaces need quotes: {shell_word}="{tiles}"').format(
                    shell_word=shell_word(last_name), tiles=tiles
                ),
                param_hint="ENTRY",
            )
        raise typer.BadParameter(
            _("'{entries}' is not NAME=VALUE ({ENTRY_FORMS})").format(
                entries=entries[i], ENTRY_FORMS=ENTRY_FORMS
            ),
            param_hint="ENTRY",
        )
    return pairs


def _loose_tiles(entries: list[str], i: int) -> int:
    """How many arguments from ``entries[i]`` on read as tiles without a name (``3-1``,
    ``[6|6]``): the rest of a hand whose quotes were forgotten."""
    import re

    n = 0
    while i + n < len(entries) and re.fullmatch(r"\[?\d+[-|]\d+\]?", entries[i + n].strip()):
        n += 1
    return n


def fail_lines(message: str, code: int = 1) -> NoReturn:
    """:func:`fail` for a message of several lines (each problem one): each line its own
    ``Error:`` line."""
    *first, last = message.splitlines() or [message]
    for line in first:
        typer.echo(_("Error: {line}").format(line=line), err=True)
    fail(last, code)


def _warn_if_repeated(game: Any) -> None:
    """A warning on stderr when the round just added repeats the one before it."""
    from cf.record.keeper import repeats_previous

    k = len(game.rounds)
    if repeats_previous(game, k):
        typer.echo(
            _(
                "warning: round {k} has the same entries as round {value} — "
                "entered twice? cf undo removes it"
            ).format(k=k, value=k - 1),
            err=True,
        )


def _check_file(file: str) -> None:
    if os.path.isdir(file):
        fail(_("{file} is a directory, not a game file").format(file=file), 2)
    if not os.path.exists(file):
        fail(_("cannot read {file}: no such file (start one with cf new)").format(file=file), 2)


def _read(file: str) -> str:
    from cf.record.reader import MAX_BYTES

    try:
        with open(file, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)  # the reader's limit: no more is ever read
    except OSError as exc:
        fail(_("cannot read {file}: {value}").format(file=file, value=tr(os_reason(exc))), 2)
    if len(data) > MAX_BYTES:
        fail(
            _("{file} is larger than {value} MiB: not read").format(
                file=file, value=MAX_BYTES // 2**20
            )
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        from cf.record.reader import not_text

        binary = not_text(data)
        if binary is not None:  # a photo given for the game file
            fail(f"{file}: {tr(binary)}")
        fail(
            _("{file} is not UTF-8 text (bad byte at offset {start}): save it as UTF-8").format(
                file=file, start=exc.start
            )
        )


def _read_game(text: str, file: str) -> Any:
    """The game file's ``text`` read (as :func:`cf.record.reader.read_game`)."""
    from cf.record.reader import read_game

    return read_game(text, file)


def _typed_errors(pairs: list[tuple[str, str]], names: list[str], top: int) -> list[str]:
    """What is wrong with each value typed (not a photo), as cf add would say it once the
    photos are read: one line each."""
    from cf.record.keeper import EntryError, entry_value

    lines = []
    for (_unused, value), name in zip(pairs, names, strict=True):
        if not value.startswith("@"):
            try:
                entry_value(name, value, top)
            except EntryError as exc:
                lines.append(tr(exc))
    return lines


def _photo(name: str, path: str, top: int, json_out: bool = False) -> Any:
    """The tiles a photo of one hand shows (``cf.photo``, an optional extra), echoed so
    that the table can check them (above the scoreboard; on stderr when the scoreboard is
    JSON); None, the reader's reasons said, when it refuses (no domino found is never a
    player out) or the file is not a photo it can read."""
    keep_freed_memory()
    try:
        from cf.commands.score_photo import refusal_lines
        from cf.photo import read_photo  # type: ignore[import-not-found,unused-ignore]
        from cf.photo.reader import shown
    except ImportError:
        fail(_(PHOTO_EXTRA), 2)
    from cf.errors import Error
    from cf.tiles import format_hand

    given, path = path, shown(path)
    nothing = _("{path}: nothing written (enter {name}'s hand as tiles or a score)")
    result = None
    try:
        result = read_photo(given, top)
    except (Error, OSError) as exc:
        lines = [tr(exc) if path in str(exc) else f"{path}: {tr(exc)}"]
    if result is None or not result.ok:
        if result is not None:
            hint = _("the game file's set is wrong (cf new FILE --set {set})")
            lines = refusal_lines(path, result, top, hint)
        for line in [*lines, nothing.format(path=path, name=name)]:
            typer.echo(_("Error: {line}").format(line=line), err=True)
        return None
    tiles = tuple(result.tiles)
    typer.echo(
        _("{name}: {path} reads {format_hand}").format(
            name=name, path=path, format_hand=format_hand(tiles)
        ),
        err=json_out,  # stdout is the scoreboard's JSON then
    )
    return tiles


def refuse_file(exc: Exception, game: Any) -> NoReturn:
    """Exit 1 for a game file that cannot be edited (``exc`` says why: not YAML, no
    readable players or rounds): its problems as ``cf validate`` prints them, when it has
    any; else ``exc``'s words (no such round, no rounds to undo)."""
    from cf.record.check import validate
    from cf.render.problems import render_validation

    report = validate(game)
    if report.valid:
        fail_lines(tr(exc))
    typer.echo(render_validation([report]), err=True, nl=False)
    fail(_("nothing written: {file} has the problems above").format(file=game.file))


def _print_problems(report: Any, k: int | None = None) -> None:
    """The problems the change would make, as ``cf validate`` prints them (SPEC 8), lines
    and columns those of the file as it would be: a problem of round ``k``, the round being
    entered, points where that round would be written."""
    from cf.render.problems import render_validation

    typer.echo(render_validation([report]), err=True, nl=False)
    if k is None or all(p.round != k for p in report.problems):
        typer.echo(_("Error: nothing written: the file would have the problems above"), err=True)
        return
    typer.echo(
        _("Error: nothing written: round {k} would have the problems above").format(k=k), err=True
    )


def can_encode(text: str) -> bool:
    """Whether stdout can print ``text`` (else the scoreboard falls back to ASCII)."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _scoreboard(change: Any, fmt: str, replaced: int | None) -> None:
    """The scoreboard after the write: the standings now, each row's movement the places
    gained since the previous round (as ``cf tally`` has it, after ``--round K`` too)."""
    from cf.record.replay import round_starter
    from cf.record.standings import standings_of
    from cf.render.standings import ARROWS, render_scoreboard

    game, report = change.game, change.report
    standing = standings_of(game, report.round_points)
    k = standing.rounds_played + 1
    next_starter = None if standing.complete else str(round_starter(game.top, k))
    out = render_scoreboard(
        standing,
        next_starter,
        fmt,
        ascii_only=not can_encode("".join(ARROWS)),
        replaced=replaced,
    )
    typer.echo(out, nl=False)
