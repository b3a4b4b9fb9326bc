"""``cf deal``: the deal table, or real shuffled hands."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cf.commands.common import (
    SetOpt,
    TextJson,
    command_app,
    echo_json,
    fail,
    fail_rules,
    names_option,
    set_option,
)
from cf.i18n import _, tr
from cf.rules import DealRow, Rules, RulesError

app = command_app()


# --- cf deal ----------------------------------------------------------------------------


@app.command(
    short_help=_("The deal table, or real shuffled hands."),
    help=_("""How many tiles each player gets, the chicken yard and its reserve; --shuffle deals.

    \b
    Examples:
      cf deal                   the double-nine table
      cf deal 4                 one row: 11 tiles each
      cf deal --set 12 6 -f json
      cf deal --shuffle --names Ana,Ben,Carla,Dan --seed 7
    """),
)
def deal(
    players: Annotated[
        Optional[int],
        typer.Argument(help=_("Number of players: print just that row."), show_default=False),
    ] = None,
    set_: SetOpt = None,
    deal_: Annotated[
        Optional[int],
        typer.Option("--deal", min=1, help=_("Tiles per player, instead of the table's.")),
    ] = None,
    reserve: Annotated[
        Optional[int],
        typer.Option(
            "--reserve",
            min=0,
            help=_("Tiles that can never be drawn (default 2 with two players, else 1)."),
        ),
    ] = None,
    shuffle: Annotated[
        bool, typer.Option("--shuffle", help=_("Deal real hands, ready to paste into a round."))
    ] = False,
    seed: Annotated[
        Optional[int], typer.Option("--seed", help=_("Seed for a repeatable --shuffle."))
    ] = None,
    names: Annotated[
        Optional[str],
        typer.Option("--names", help=_("Comma-separated player names for --shuffle.")),
    ] = None,
    round_: Annotated[
        int,
        typer.Option(
            "--round", min=1, help=_("Round number: which double is set aside (1 = the highest).")
        ),
    ] = 1,
    format_: Annotated[
        TextJson, typer.Option("--format", "-f", help=_("Output format."))
    ] = TextJson.text,
) -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    top = set_option(set_)
    try:
        rules = Rules(top=top, deal=deal_, reserve=reserve)
    except RulesError as exc:
        fail(tr(exc), 2)
    name_list = names_option(names, players)
    if round_ > top + 1:  # a bad value whatever else is asked (as --round 0 is)
        raise typer.BadParameter(
            _("{set} has rounds 1 to {last}").format(set=rules.set_name, last=top + 1),
            param_hint="'--round'",
        )
    if shuffle:
        _shuffle(rules, _seats(rules, name_list, players, round_), round_, seed, format_)
        return
    count = len(name_list) if name_list is not None else players
    rows = _rows(rules, count, deal_)
    if format_ is TextJson.json:
        data = [r.as_dict() for r in rows]
        echo_json(data if count is None else data[0])
        return
    from tabulate import tabulate

    table = [[r.players, r.tiles_each, r.yard, r.reserve] for r in rows]
    headers = [_("players"), _("tiles each"), _("chicken yard"), _("never drawn")]
    typer.echo(
        _("{set} (the starting double is set aside before the deal)").format(set=rules.set_name)
    )
    typer.echo(tabulate(table, headers, tablefmt="simple"))


def _seats(
    rules: Rules, names: Optional[list[str]], players: Optional[int], round_: int
) -> list[str]:
    """Who is dealt to with --shuffle: the names, else P1..Pn."""
    if names is not None:
        return names
    if players is None:
        fail(_("--shuffle needs the number of players or --names"), 2)
    try:
        rules.row(players)  # before making up names for a million players
    except RulesError as exc:
        fail_rules(exc)
    return [f"P{i}" for i in range(1, players + 1)]


def _rows(rules: Rules, count: Optional[int], deal_: Optional[int]) -> list[DealRow]:
    """The table's rows, or the one row for ``count`` players."""
    if count is not None:
        try:
            return [rules.row(count)]
        except RulesError as exc:
            fail_rules(exc)
    rows = rules.table()
    if not rows and deal_ is not None:
        fail(
            _("dealing {deal} tiles each leaves too few in {set} for 2 players").format(
                deal=deal_, set=rules.set_name
            )
        )
    if not rows:
        fail(
            _("{set} has no deal table: give --deal and a number of players").format(
                set=rules.set_name
            )
        )
    return rows


def _shuffle(
    rules: Rules, names: list[str], round_: int, seed: Optional[int], format_: TextJson
) -> None:
    from cf.deal import shuffle_deal

    try:
        dealt = shuffle_deal(rules, names, round_, seed)
    except RulesError as exc:
        fail_rules(exc)
    if format_ is TextJson.json:
        echo_json(
            {
                "starter": str(dealt.starter),
                "deal": {n: [str(t) for t in h] for n, h in dealt.hands.items()},
                "chicken_yard": [str(t) for t in dealt.chicken_yard],
            }
        )
        return
    from cf.record.emit import yaml_pair
    from cf.tiles import format_hand

    typer.echo(f"starter: {dealt.starter}")  # untranslated: YAML to paste into a game file
    typer.echo("deal:")  # untranslated: YAML
    for name, hand in dealt.hands.items():
        typer.echo("  " + yaml_pair(name, format_hand(hand), "  "))
    # YAML for a game file (SPEC 7): the same words in every language (SPEC 14).
    typer.echo("# chicken yard: " + format_hand(dealt.chicken_yard))  # untranslated: YAML
