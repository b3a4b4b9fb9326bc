"""The ``cf`` command line: parse arguments, call one library function, render the result.

Heavy modules (yaml, tabulate) are imported inside the commands that use them, so that
``cf score`` starts as fast as a bare Typer app.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from enum import Enum
from typing import Annotated, Any, NoReturn, Optional

import typer

from cf import __version__
from cf.rules import Rules, RulesError
from cf.tiles import (
    DEFAULT_DOUBLE_BLANK,
    NotationError,
    SetNameError,
    Tile,
    hand_points,
    parse_hand,
    parse_set_name,
)

app = typer.Typer(
    name="cf",
    help="cf — the Chicken Foot (Pata de Gallina) toolkit: score hands, deal, validate "
    "game records, tally standings and simulate games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help texts show [code] and the like literally
    context_settings={"help_option_names": ["-h", "--help"]},
)


class TextJson(str, Enum):
    text = "text"
    json = "json"


class ValidateFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"


class RankBy(str, Enum):
    total = "total"
    average = "average"
    wins = "wins"


# --- shared helpers ---------------------------------------------------------------------


def fail(message: str, code: int = 1) -> NoReturn:
    """One clean ``Error: …`` line on stderr, then exit (1: bad input, 2: usage)."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


def _set_option(value: Optional[str]) -> int:
    """The --set value (already checked by :func:`_check_set`) as its highest pip."""
    return 9 if value is None else parse_set_name(value)


def _check_set(value: Optional[str]) -> Optional[str]:
    if value is not None:
        try:
            parse_set_name(value)
        except SetNameError as exc:
            raise typer.BadParameter(str(exc)) from None
    return value


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cf {__version__}")
        raise typer.Exit()


def _echo_json(data: object) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


SetOpt = Annotated[
    Optional[str],
    typer.Option(
        "--set",
        envvar="CF_SET",
        callback=_check_set,
        help="Domino set: double-six, double-nine (default), double-twelve, double-fifteen, "
        "double-eighteen; also double-9, d9 or 9.",
        show_default=False,
    ),
]
DoubleBlankOpt = Annotated[
    int,
    typer.Option(
        "--double-blank",
        envvar="CF_DOUBLE_BLANK",
        min=0,
        help="Points for holding the double blank 0-0 at the end of a round.",
    ),
]


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


# --- cf score ---------------------------------------------------------------------------

_NAME_LINE = re.compile(r"^\s*([^:]*?)\s*:(.*)$")


@app.command(short_help="Points left in a hand.")
def score(
    tiles: Annotated[
        Optional[list[str]],
        typer.Argument(
            help="Tiles of one hand, like 9-7 6-6 4-1 or [9|7],[6|6]. Without any, each "
            "non-empty line of stdin is a hand, optionally 'NAME: tiles'.",
            show_default=False,
        ),
    ] = None,
    set_: SetOpt = None,
    double_blank: DoubleBlankOpt = DEFAULT_DOUBLE_BLANK,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show what each tile is worth.")
    ] = False,
    format_: Annotated[
        TextJson, typer.Option("--format", "-f", help="Output format.")
    ] = TextJson.text,
) -> None:
    """Points of a hand: the sum of its pips, the double blank counting 50 (or --double-blank).

    \b
    Examples:
      cf score 9-7 6-6 4-1          → 33
      cf score "[9|7], [0|0]" --double-blank 25
      printf 'Ben: 9-7 6-6\\nAna: 0-0\\n' | cf score
    """
    top = _set_option(set_)
    if tiles is not None:
        hand = _score_or_fail(" ".join(tiles), top)
        _print_scores([(None, hand)], double_blank, explain, format_, single=True)
        return
    results: list[tuple[Optional[str], tuple[Tile, ...]]] = []
    bad = 0
    data = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        name, text = None, line
        match = _NAME_LINE.match(line)
        if match:
            name, text = match.group(1) or None, match.group(2)
        try:
            results.append((name, parse_hand(text, top)))
        except NotationError as exc:
            typer.echo(f"Error: line {number}: {exc}", err=True)
            bad += 1
    _print_scores(results, double_blank, explain, format_, single=False)
    if bad:
        raise typer.Exit(1)


def _score_or_fail(text: str, top: int) -> tuple[Tile, ...]:
    try:
        return parse_hand(text, top)
    except NotationError as exc:
        fail(str(exc))


def _print_scores(
    results: list[tuple[Optional[str], tuple[Tile, ...]]],
    double_blank: int,
    explain: bool,
    format_: TextJson,
    *,
    single: bool,
) -> None:
    if format_ is TextJson.json:
        objects = []
        for name, hand in results:
            obj: dict[str, object] = {}
            if name is not None:
                obj["name"] = name
            obj["tiles"] = [str(t) for t in hand]
            obj["points"] = hand_points(hand, double_blank)
            objects.append(obj)
        _echo_json(objects[0] if single else objects)
        return
    for name, hand in results:
        points = hand_points(hand, double_blank)
        prefix = f"{name}: " if name is not None else ""
        if explain:
            parts = [f"{t} = {t.points(double_blank)}" for t in hand] or ["empty hand"]
            typer.echo(f"{prefix}{points}  ({', '.join(parts)})")
        else:
            typer.echo(f"{prefix}{points}")


# --- cf deal ----------------------------------------------------------------------------


@app.command(short_help="The deal table, or real shuffled hands.")
def deal(
    players: Annotated[
        Optional[int],
        typer.Argument(help="Number of players: print just that row.", show_default=False),
    ] = None,
    set_: SetOpt = None,
    deal_: Annotated[
        Optional[int],
        typer.Option("--deal", min=1, help="Tiles per player, instead of the table's."),
    ] = None,
    reserve: Annotated[
        Optional[int],
        typer.Option(
            "--reserve",
            min=0,
            help="Tiles that can never be drawn (default 2 with two players, else 1).",
        ),
    ] = None,
    shuffle: Annotated[
        bool, typer.Option("--shuffle", help="Deal real hands, ready to paste into a round.")
    ] = False,
    seed: Annotated[
        Optional[int], typer.Option("--seed", help="Seed for a repeatable --shuffle.")
    ] = None,
    names: Annotated[
        Optional[str],
        typer.Option("--names", help="Comma-separated player names for --shuffle."),
    ] = None,
    round_: Annotated[
        int,
        typer.Option(
            "--round", min=1, help="Round number: which double is set aside (1 = the highest)."
        ),
    ] = 1,
    format_: Annotated[
        TextJson, typer.Option("--format", "-f", help="Output format.")
    ] = TextJson.text,
) -> None:
    """How many tiles each player gets, the chicken yard and its reserve; --shuffle deals.

    \b
    Examples:
      cf deal                   the double-nine table
      cf deal 4                 one row: 11 tiles each
      cf deal --set 12 6 -f json
      cf deal --shuffle --names Ana,Ben,Carla,Dan --seed 7
    """
    top = _set_option(set_)
    try:
        rules = Rules(top=top, deal=deal_, reserve=reserve)
    except RulesError as exc:
        fail(str(exc), 2)
    name_list = _names_option(names, players)
    if shuffle:
        if round_ > top + 1:
            raise typer.BadParameter(
                f"{rules.set_name} has rounds 1 to {top + 1}", param_hint="'--round'"
            )
        if name_list is None:
            if players is None:
                fail("--shuffle needs the number of players or --names", 2)
            name_list = [f"P{i}" for i in range(1, players + 1)]
        _shuffle(rules, name_list, round_, seed, format_)
        return
    count = len(name_list) if name_list is not None else players
    if count is None:
        rows = rules.table()
        if not rows:
            fail(f"{rules.set_name} has no deal table: give --deal and a number of players")
    else:
        try:
            rows = [rules.row(count)]
        except RulesError as exc:
            fail(str(exc))
    if format_ is TextJson.json:
        data = [r.as_dict() for r in rows]
        _echo_json(data if count is None else data[0])
        return
    from tabulate import tabulate

    table = [[r.players, r.tiles_each, r.yard, r.reserve] for r in rows]
    headers = ["players", "tiles each", "chicken yard", "never drawn"]
    typer.echo(f"{rules.set_name} (the starting double is set aside before the deal)")
    typer.echo(tabulate(table, headers, tablefmt="simple"))


def _names_option(names: Optional[str], players: Optional[int]) -> Optional[list[str]]:
    if names is None:
        return None
    name_list = [n.strip() for n in names.split(",") if n.strip()]
    if len(set(name_list)) != len(name_list):
        raise typer.BadParameter("a name is given twice", param_hint="'--names'")
    if players is not None and players != len(name_list):
        raise typer.BadParameter(
            f"{len(name_list)} names for {players} players", param_hint="'--names'"
        )
    return name_list


def _shuffle(
    rules: Rules, names: list[str], round_: int, seed: Optional[int], format_: TextJson
) -> None:
    from cf.deal import shuffle_deal

    try:
        dealt = shuffle_deal(rules, names, round_, seed)
    except RulesError as exc:
        fail(str(exc))
    if format_ is TextJson.json:
        _echo_json(
            {
                "starter": str(dealt.starter),
                "deal": {n: [str(t) for t in h] for n, h in dealt.hands.items()},
                "chicken_yard": [str(t) for t in dealt.chicken_yard],
            }
        )
        return
    from cf.yamlout import yaml_key

    typer.echo(f"starter: {dealt.starter}")
    typer.echo("deal:")
    for name, hand in dealt.hands.items():
        typer.echo(f"  {yaml_key(name)}: {' '.join(str(t) for t in hand)}")
    typer.echo(f"# chicken yard: {' '.join(str(t) for t in dealt.chicken_yard)}")


# --- cf validate ------------------------------------------------------------------------


FilesArg = Annotated[
    Optional[list[str]],
    typer.Argument(help="Game files (YAML); '-' or none reads stdin.", show_default=False),
]


@app.command(short_help="Check recorded games against the rules.")
def validate(
    files: FilesArg = None,
    format_: Annotated[
        ValidateFormat,
        typer.Option("--format", "-f", help="text, json, or github (workflow annotations)."),
    ] = ValidateFormat.text,
) -> None:
    """Replay recorded games against every rule and report each problem.

    One line per problem, FILE:LINE:COL: round R, move M: [code] message, then a summary
    line per file. Exit 0 when every file is valid, 1 when any has a problem.

    \b
    Examples:
      cf validate examples/*.yaml
      cf validate game.yaml --format json
    """
    from cf.report import render_validation
    from cf.validate import validate as check

    reports = [check(game) for game in _read_games(files)]
    typer.echo(render_validation(reports, format_.value), nl=False)
    if any(not r.valid for r in reports):
        raise typer.Exit(1)


def _read_games(files: Optional[list[str]]) -> Iterator[Any]:
    """Every file is checked first, so that a missing one is a usage error before any output;
    then each is read when its turn comes, so that a large archive is never all in memory."""
    from cf.gamefile import read_game_file

    paths = files or ["-"]
    for path in paths:
        if path == "-":
            continue
        if os.path.isdir(path):
            fail(f"{path} is a directory, not a game file", 2)
        if not os.path.exists(path):
            fail(f"cannot read {path}: no such file", 2)
        if not os.access(path, os.R_OK):
            fail(f"cannot read {path}: permission denied", 2)
    for path in paths:
        try:
            yield read_game_file(path)
        except OSError as exc:
            fail(f"cannot read {path}: {exc.strerror or exc}", 2)


# --- cf tally ---------------------------------------------------------------------------


def _table_format(value: str) -> str:
    from tabulate import tabulate_formats

    if value in ("json", "csv") or value in tabulate_formats:
        return value
    raise typer.BadParameter(
        f"'{value}' is not a format: use json, csv or a tabulate format "
        f"({', '.join(sorted(tabulate_formats))})"
    )


@app.command(short_help="Standings of a game or a tournament.")
def tally(
    files: FilesArg = None,
    rank_by: Annotated[
        RankBy,
        typer.Option("--rank-by", help="Tournament order: lower total or average, more wins."),
    ] = RankBy.total,
    format_: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="json, csv, or any tabulate format (simple, github, grid, …).",
        ),
    ] = "simple",
) -> None:
    """Standings: one file gives the game's table, several give a tournament.

    A file with any problem (as cf validate reports them) is not tallied: its problems go
    to stderr and the exit code is 1.

    \b
    Examples:
      cf tally examples/family-night.yaml
      cf tally examples/*.yaml --rank-by average
      cf tally league/*.yaml -f csv > standings.csv
    """
    from cf.report import problem_line, summary_line
    from cf.standings import game_standings, tournament
    from cf.tally_out import render_game, render_tournament
    from cf.validate import validate as check

    fmt = _table_format(format_)
    tallied = []
    failed = False
    count = 0
    for game in _read_games(files):
        count += 1
        report = check(game)
        if not report.valid:
            failed = True
            for p in report.problems:
                typer.echo(problem_line(report.file, p), err=True)
            typer.echo(f"{summary_line(report)}: not tallied", err=True)
            continue
        standing = game_standings(
            game.file,
            game.players,
            report.round_points,  # type: ignore[arg-type]  # a valid game scores every round
            game.top + 1,
        )
        if not standing.complete:
            typer.echo(
                f"note: {game.file} is a partial game: {standing.rounds_played} of "
                f"{standing.rounds_in_game} rounds",
                err=True,
            )
        tallied.append(standing)
    if tallied:
        if count == 1:
            typer.echo(render_game(tallied[0], fmt), nl=False)
        else:
            result = tournament(tallied, rank_by.value)
            if rank_by is RankBy.total and result.uneven_rounds:
                typer.echo(
                    "warning: players played different numbers of rounds; totals do not "
                    "compare, consider --rank-by average",
                    err=True,
                )
            typer.echo(render_tournament(result, fmt), nl=False)
    if failed:
        raise typer.Exit(1)


# --- cf simulate ------------------------------------------------------------------------

NAMES = (
    *("Ana", "Ben", "Carla", "Dan", "Eva", "Fede", "Gala", "Hugo", "Inés"),
    *("Juan", "Kira", "Luis", "Mar", "Nico", "Olga", "Pablo", "Quim", "Rosa"),
)


@app.command(short_help="Computer players play complete games.")
def simulate(
    players: Annotated[
        Optional[int], typer.Option("--players", "-p", min=2, help="Number of players.")
    ] = None,
    names: Annotated[
        Optional[str], typer.Option("--names", help="Comma-separated names, in seating order.")
    ] = None,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            "-s",
            help="Strategy per seat, comma-separated (greedy, random), or one for all.",
        ),
    ] = "greedy",
    seed: Annotated[
        Optional[int], typer.Option("--seed", help="Same seed, same game, on every machine.")
    ] = None,
    rounds: Annotated[
        Optional[int],
        typer.Option("--rounds", min=1, help="Rounds to play (default: a full game, N+1)."),
    ] = None,
    set_: SetOpt = None,
    deal_: Annotated[
        Optional[int], typer.Option("--deal", min=1, help="Tiles per player.")
    ] = None,
    starter_arms: Annotated[
        str,
        typer.Option("--starter-arms", help="Arms the starter takes: 2..N or 'players'."),
    ] = "4",
    double_blank: DoubleBlankOpt = DEFAULT_DOUBLE_BLANK,
    reserve: Annotated[
        Optional[int],
        typer.Option(
            "--reserve", min=0, help="Undrawable tiles (default 2 with two players, else 1)."
        ),
    ] = None,
    output: Annotated[
        Optional[str],
        typer.Option(
            "--output", "-o", help="Write the game here (a folder with --games); default stdout."
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-g", min=1, help="How many games to play.")
    ] = 1,
    stats: Annotated[
        bool, typer.Option("--stats", help="Print figures over the games instead of files.")
    ] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Processes for --stats.")] = 1,
    format_: Annotated[
        TextJson, typer.Option("--format", "-f", help="Format of --stats.")
    ] = TextJson.text,
) -> None:
    """Computer players play complete, valid games; --stats plays many and sums them up.

    Each game is written as a full game file (deal, moves, hands and scores for every
    round) that cf validate accepts.

    \b
    Examples:
      cf simulate --players 4 --seed 1 -o game.yaml
      cf simulate --names Ana,Ben,Carla --strategy greedy,random,greedy --seed 7
      cf simulate --set 12 --players 6 --starter-arms players --seed 3
      cf simulate --games 200 --stats --strategy greedy,random,greedy,random
    """
    from cf.simulate import STRATEGIES

    top = _set_option(set_)
    arms: int | str = starter_arms.strip().lower()
    if arms != "players":
        if not str(arms).isdigit():
            raise typer.BadParameter("a number or 'players'", param_hint="'--starter-arms'")
        arms = int(arms)
        if not 2 <= arms <= top:
            raise typer.BadParameter(
                f"from 2 to {top} in this set, or 'players'", param_hint="'--starter-arms'"
            )
    try:
        rules = Rules(
            top=top, deal=deal_, starter_arms=arms, double_blank=double_blank, reserve=reserve
        )
    except RulesError as exc:
        fail(str(exc), 2)
    name_list = _names_option(names, players)
    if name_list is None:
        count = players or 4
        name_list = (
            list(NAMES[:count]) if count <= len(NAMES) else [f"P{i}" for i in range(1, count + 1)]
        )
    if len(name_list) < 2:
        raise typer.BadParameter("a game needs at least 2 players", param_hint="'--names'")
    seats = [s.strip().lower() for s in strategy.split(",")]
    if len(seats) == 1:
        seats = seats * len(name_list)
    unknown = [s for s in seats if s not in STRATEGIES]
    if unknown or len(seats) != len(name_list):
        raise typer.BadParameter(
            f"give one strategy for all or one per seat ({len(name_list)}), from: "
            f"{', '.join(STRATEGIES)}",
            param_hint="'--strategy'",
        )
    if rounds is not None and rounds > top + 1:
        raise typer.BadParameter(f"{rules.set_name} has {top + 1} rounds", param_hint="'--rounds'")
    try:
        rules.row(len(name_list))
        rules.arms_for(len(name_list))
    except RulesError as exc:
        fail(str(exc))
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    from cf import simulate_cli

    simulate_cli.run(
        name_list, rules, seats, seed, rounds, output, games, stats, jobs, format_.value
    )


def run(prog_name: str = "cf") -> None:
    """Console-script entry point: no input ever ends in a traceback."""
    try:
        app(prog_name=prog_name)
    except KeyboardInterrupt:
        typer.echo("Interrupted.", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug in cf, never the user's fault: say so in one line
        if os.environ.get("CF_DEBUG"):
            raise
        typer.echo(
            f"Error: internal error ({type(exc).__name__}: {exc}); "
            "run again with CF_DEBUG=1 for details and please report it",
            err=True,
        )
        sys.exit(1)
