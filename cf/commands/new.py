"""``cf new``: start a game file with every house rule written out (docs/cli.md, "cf new")."""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable
from typing import Annotated, Optional

import typer

from cf.commands.common import (
    DoubleBlankOpt,
    DrawOpt,
    DrawRule,
    OutOnDoubleOpt,
    SetOpt,
    StarterArmsOpt,
    TargetOpt,
    command_app,
    fail,
    fail_rules,
    set_option,
)
from cf.i18n import N_, _, ngettext, tr
from cf.tiles import DEFAULT_DOUBLE_BLANK

app = command_app()


@app.command(
    short_help=_("Start a game file to keep score in."),
    help=_("""Start a game file: the players, the set and every house rule, and no rounds yet.

    Every rule is written out (starter_arms, double_blank, deal, reserve, rounds, draw,
    out_on_double, and target when given), so the file scores the same under any later
    default. Then keep score round by round with cf add. FILE is never replaced without
    --force.

    \b
    Examples:
      cf new friday.yaml --players Ana,Ben,Carla,Dan
      cf new club.yaml --players Ana,Ben --set double-six --double-blank 25 --title Club
      cf new quick.yaml --players Ana,Ben,Carla --rounds 5
      cf new club.yaml --players Ana,Ben,Carla --target 150 --draw until --out-on-double 50
    """),
)
def new(
    file: Annotated[
        str, typer.Argument(help=_("The game file to write."), show_default=False, metavar="FILE")
    ],
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            help=_("Comma-separated names, in seating order (turn order)."),
            show_default=False,
        ),
    ],
    set_: SetOpt = None,
    starter_arms: StarterArmsOpt = "4",
    double_blank: DoubleBlankOpt = DEFAULT_DOUBLE_BLANK,
    reserve: Annotated[
        Optional[int],
        typer.Option(
            "--reserve",
            min=0,
            help=_("Tiles that stay in the chicken yard (default 2 with two players, else 1)."),
            show_default=False,
        ),
    ] = None,
    deal: Annotated[
        Optional[int],
        typer.Option(
            "--deal",
            min=1,
            help=_("Tiles per player (default: the set's table; needed where it has no row)."),
            show_default=False,
        ),
    ] = None,
    rounds: Annotated[
        Optional[int],
        typer.Option(
            "--rounds",
            min=1,
            help=_(
                "Rounds in the game, from the top double down (default: one "
                "per double; with --target, the most it may have)."
            ),
            show_default=False,
        ),
    ] = None,
    draw: DrawOpt = DrawRule.one,
    out_on_double: OutOnDoubleOpt = 0,
    target: TargetOpt = None,
    title: Annotated[
        Optional[str],
        typer.Option(
            "--title", help=_("The game's title (default: FILE's name)."), show_default=False
        ),
    ] = None,
    date: Annotated[
        Optional[str],
        typer.Option(
            "--date", help=_("The game's date, YYYY-MM-DD (default: today)."), show_default=False
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help=_("Replace FILE if it exists."))] = False,
) -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    from cf.record.keeper import new_game_text
    from cf.record.replay import round_starter
    from cf.rules import Rules, RulesError

    top = set_option(set_)
    names = _player_names(players)
    if title is not None:
        _plain_text(title, "'--title'", _("the title"))
    arms = _starter_arms(starter_arms)
    date = _game_date(date)
    try:
        rules = Rules(
            top=top,
            deal=deal,
            starter_arms=arms,
            double_blank=double_blank,
            reserve=reserve,
            rounds=rounds,
            draw=draw.value,
            out_on_double=out_on_double,
            target=target,
        )
        if title is None:  # a game file has a title: the file's name will do
            title = os.path.splitext(os.path.basename(file))[0] or None
        text = new_game_text(names, rules, title=title, date=date)
    except RulesError as exc:
        fail_rules(exc, 2)
    _write_new(file, text, force)
    if rules.target is None:
        n = rules.rounds_in_game or 0
        length = ngettext("{rounds} round", "{rounds} rounds", n).format(rounds=n)
    else:
        from cf.render.standings import played_to

        length = played_to(rules.target, rules.rounds)
    typer.echo(
        _("wrote {file}: {names}; {set}, {length}").format(
            file=file, names=", ".join(names), set=rules.set_name, length=length
        )
    )
    typer.echo(_("round 1 starts with {starter}").format(starter=round_starter(top, 1)))


#: What --players may not be, and the usage error for each.
_BAD_PLAYERS: tuple[tuple[Callable[[list[str]], bool], str], ...] = (
    (lambda names: any(not n for n in names), N_("a name is empty")),
    (lambda names: len(set(names)) != len(names), N_("a name is given twice")),
    (lambda names: len(names) < 2, N_("a game needs at least 2 players")),
    (
        lambda names: any("=" in n for n in names),
        N_("a name may not hold '=': cf add NAME=VALUE could not name that player"),
    ),
)


def _player_names(players: str) -> list[str]:
    """The names of --players, in seating order: none empty, none twice, at least two."""
    names = [n.strip() for n in players.split(",")]
    for bad, message in _BAD_PLAYERS:
        if bad(names):
            raise typer.BadParameter(_(message), param_hint="'--players'")
    for name in names:
        _plain_text(name, "'--players'", _("a name"))
    return names


def _plain_text(text: str, option: str, what: str) -> None:
    """A usage error for text a game file may not hold: control characters, or bytes that
    are not UTF-8 (which reach Python as lone surrogates)."""
    from cf.errors import clip
    from cf.record.problems import has_control, one_line

    if has_control(text):
        raise typer.BadParameter(
            _(
                "{what} may not hold control characters or bytes that are not UTF-8: '{text}'"
            ).format(what=what, text=clip(one_line(text))),
            param_hint=option,
        )


def _starter_arms(text: str) -> int | str:
    """--starter-arms as a number, or ``"players"``."""
    from cf.rules import RulesError, parse_starter_arms

    try:
        return parse_starter_arms(text)  # ASCII digits, not too many: not '²', not 5,000 9s
    except RulesError:
        raise typer.BadParameter(
            _("a number or 'players'"), param_hint="'--starter-arms'"
        ) from None


def _game_date(date: str | None) -> str:
    """--date as YYYY-MM-DD (default: today)."""
    if date is None:
        return datetime.date.today().isoformat()
    try:
        return datetime.date.fromisoformat(date).isoformat()
    except ValueError:
        raise typer.BadParameter(
            _("'{date}' is not a date YYYY-MM-DD").format(date=date), param_hint="'--date'"
        ) from None


def _write_new(file: str, text: str, force: bool) -> None:
    """Write the new game ``text`` to ``file`` once it validates; an existing ``file`` is
    a usage error without ``force``."""
    from cf.files import WriteError, atomic_write, target
    from cf.record.keeper import check_text

    check = check_text(text, file)
    if not check.report.valid:  # cf never writes a file it would not accept
        fail(
            _("internal error: the new file would not validate: {problems}").format(
                problems=check.report.problems[0]
            )
        )
    if not file:
        fail(_("no file name given"), 2)  # a usage error, as a missing folder is
    if os.path.lexists(file) and not force:
        fail(_("{file} exists (use --force to replace it)").format(file=file), 2)
    if not os.path.isdir(os.path.dirname(os.path.abspath(target(file)))):
        fail(_("cannot write {output}: no such folder").format(output=file), 2)
    try:
        atomic_write(file, text, overwrite=force)
    except WriteError as exc:
        fail(tr(exc), 2 if "exists" in str(exc) else 1)
