"""``cf simulate``: computer players play complete games."""

from __future__ import annotations

import dataclasses
import os
import shlex
import sys
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Annotated, Any, Optional

import typer

from cf import _process
from cf.commands.common import (
    DoubleBlankOpt,
    SetOpt,
    StarterArmsOpt,
    TextJson,
    command_app,
    complete_strategy,
    fail,
    fail_rules,
    names_option,
    set_option,
    write_document,
)
from cf.commands.pool import dispatch, workers
from cf.commands.simulate_files import check_output, remove_earlier, write_game
from cf.errors import Error, clip
from cf.i18n import _, ngettext, os_reason, tr
from cf.play.simulate import Stats, game_seed, simulate_game, study_chunk
from cf.record.emit import game_yaml
from cf.rules import PLAYERS, Rules, RulesError, parse_starter_arms
from cf.tiles import DEFAULT_DOUBLE_BLANK

app = command_app()


# --- cf simulate ------------------------------------------------------------------------

NAMES = (
    *("Ana", "Ben", "Carla", "Dan", "Eva", "Fede", "Gala", "Hugo", "Inés"),
    *("Juan", "Kira", "Luis", "Mar", "Nico", "Olga", "Pablo", "Quim", "Rosa"),
)


class DrawRule(str, Enum):
    one = "one"
    one_may = "one-may"
    until = "until"


@app.command(
    short_help=_("Computer players play complete games."),
    help=_("""Computer players play complete, valid games; --stats plays many and sums them up.

    Each game is written as a full game file (deal, moves, hands and scores for every
    round) that cf validate accepts.

    \b
    Examples:
      cf simulate --players 4 --seed 1 -o game.yaml
      cf simulate --names Ana,Ben,Carla --strategy greedy,random,greedy --seed 7
      cf simulate --set 12 --players 6 --starter-arms players --seed 3
      cf simulate --games 200 --stats --strategy greedy,random,greedy,random
      cf simulate --games 20 --stats --strategy ismcts,greedy,greedy,greedy
      cf simulate --games 500 --stats --compare draw=one --compare draw=until

    Studies whose seats are all greedy or random play on the fast engine (the same games,
    move for move, ten times faster); --check replays each of their rounds through the
    rules engine as well.
    """),
)
def simulate(
    players: Annotated[
        Optional[int],
        typer.Option("--players", "-p", min=2, max=100, help=_("Number of players.")),
    ] = None,
    names: Annotated[
        Optional[str], typer.Option("--names", help=_("Comma-separated names, in seating order."))
    ] = None,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            "-s",
            autocompletion=complete_strategy,
            help=_(
                "Strategy per seat, comma-separated (greedy, random, smart, "
                "pimc, ismcts), or one for all."
            ),
        ),
    ] = "greedy",
    playouts: Annotated[
        Optional[int],
        typer.Option(
            "--playouts",
            "-n",
            min=1,
            max=100_000,
            help=_(
                "Effort of the searchers: pimc's playouts per legal action "
                "(default 100), ismcts' iterations per move (default 800)."
            ),
        ),
    ] = None,
    seed: Annotated[
        Optional[int], typer.Option("--seed", help=_("Same seed, same game, on every machine."))
    ] = None,
    rounds: Annotated[
        Optional[int],
        typer.Option("--rounds", min=1, help=_("Rounds to play (default: a full game, N+1).")),
    ] = None,
    set_: SetOpt = None,
    deal_: Annotated[
        Optional[int], typer.Option("--deal", min=1, help=_("Tiles per player."))
    ] = None,
    starter_arms: StarterArmsOpt = "4",
    double_blank: DoubleBlankOpt = DEFAULT_DOUBLE_BLANK,
    reserve: Annotated[
        Optional[int],
        typer.Option(
            "--reserve", min=0, help=_("Undrawable tiles (default 2 with two players, else 1).")
        ),
    ] = None,
    draw: Annotated[
        DrawRule,
        typer.Option(
            "--draw",
            case_sensitive=False,  # as the file's rules.draw and --starter-arms players
            help=_(
                "What a player with nothing to play does: draw one tile and "
                "play it if it fits (one), draw one and may play it "
                "(one-may), or draw until one fits (until)."
            ),
        ),
    ] = DrawRule.one,
    out_on_double: Annotated[
        int,
        typer.Option("--out-on-double", min=0, help=_("Points for going out on a double.")),
    ] = 0,
    target: Annotated[
        Optional[int],
        typer.Option(
            "--target",
            min=1,
            help=_("Play until a player's total reaches this (then --rounds is the most rounds)."),
        ),
    ] = None,
    compare: Annotated[
        Optional[list[str]],
        typer.Option(
            "--compare",
            metavar="RULES",
            help=_(
                "With --stats: play the same games under each of these house "
                "rules and compare them in one table; give it twice or more, "
                "e.g. --compare draw=one --compare draw=until (RULES: "
                "OPTION=VALUE[,OPTION=VALUE…] over the rules of the other "
                "options)."
            ),
        ),
    ] = None,
    output: Annotated[
        Optional[str],
        typer.Option(
            "--output",
            "-o",
            help=_(
                "Write the game here (a folder with --games); default "
                "stdout. An existing file, or a folder holding earlier "
                "games, needs --force."
            ),
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help=_("Replace an existing file, or earlier games in the folder.")
        ),
    ] = False,
    games: Annotated[
        int,
        typer.Option("--games", "-g", min=1, max=10_000_000, help=_("How many games to play.")),
    ] = 1,
    stats: Annotated[
        bool, typer.Option("--stats", help=_("Print figures over the games instead of files."))
    ] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=0,
            max=64,
            help=_(
                "Processes for --stats (0: one per core available). The "
                "figures are the same for any number."
            ),
        ),
    ] = 1,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help=_(
                "With --stats: replay every round the fast engine played "
                "through the rules engine too, move by move (slower; a "
                "difference is a bug, exit 1)."
            ),
        ),
    ] = False,
    format_: Annotated[
        TextJson, typer.Option("--format", "-f", help=_("Format of --stats."))
    ] = TextJson.text,
) -> None:
    """The command; its --help is the decorator's help text (marked for translation)."""
    if format_ is TextJson.json and not stats:
        raise typer.BadParameter(
            _("json is the format of --stats figures; a simulated game is a YAML game file"),
            param_hint="'--format'",
        )
    top = set_option(set_)
    arms = _starter_arms(starter_arms, top)
    try:
        rules = Rules(
            top=top,
            deal=deal_,
            starter_arms=arms,
            double_blank=double_blank,
            reserve=reserve,
            draw=draw.value,
            out_on_double=out_on_double,
            target=target,
            rounds=rounds if target is not None else None,
        )
    except RulesError as exc:
        fail(tr(exc), 2)
    name_list = _player_names(names, players, strategy)
    seats = _seats(strategy, len(name_list))
    if rounds is not None and rounds > top + 1 and target is None:
        raise typer.BadParameter(
            _("{set_name} has {value} rounds").format(set_name=rules.set_name, value=top + 1),
            param_hint="'--rounds'",
        )
    variants = _variants(rules, compare or [], stats)
    try:
        for _unused, r in variants or [("", rules)]:
            r.row(len(name_list))
            r.arms_for(len(name_list))
    except RulesError as exc:
        fail_rules(exc)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    if not stats:
        check_output(output, games, force)
        if check:
            raise typer.BadParameter(
                _("checks the rounds of a --stats study"), param_hint="'--check'"
            )
    if jobs == 0:
        jobs = _cores()
    if variants:
        from cf.render.stats import render_comparison

        results = [
            (label, study(name_list, r, seats, seed, rounds, games, jobs, playouts, check))
            for label, r in variants
        ]
        text = render_comparison(results, name_list, seats, format_.value, seed)
        if format_ is TextJson.json:
            write_document(text)
        else:
            typer.echo(text, nl=False)
        return
    run(
        name_list,
        rules,
        seats,
        seed,
        rounds,
        output,
        games,
        stats,
        jobs,
        format_.value,
        force,
        playouts,
        check,
    )


#: What --compare may change, and how its value is read.
_COMPARABLE: dict[str, Callable[[str, int], object]] = {
    "draw": lambda v, top: v.strip().lower(),  # in any case, as --draw and rules.draw
    "out_on_double": lambda v, top: _whole(v),
    "target": lambda v, top: None if v.lower() == "none" else _whole(v, 1),
    "starter_arms": lambda v, top: parse_starter_arms(v),
    "double_blank": lambda v, top: _whole(v),
    "reserve": lambda v, top: _whole(v),
    "deal": lambda v, top: _whole(v, 1),
}


def _whole(text: str, least: int = 0) -> int:
    """``text`` as a whole number (ASCII digits); a number under ``least`` (0 or 1) is
    left to the rules' own check, which says the same bound."""
    word = text.strip()
    if word.isascii() and word.isdigit() and len(word) <= 100:
        return int(word)
    if least:
        raise RulesError(_("'{word}' is not a whole number, at least 1").format(word=clip(word)))
    raise RulesError(_("'{word}' is not a whole number, 0 or more").format(word=clip(word)))


def _variants(base: Rules, texts: list[str], stats: bool) -> list[tuple[str, Rules]]:
    """The house rules of each ``--compare RULES``, over ``base`` (usage errors, exit 2)."""
    if not texts:
        return []
    hint = "'--compare'"
    if not stats:
        raise typer.BadParameter(
            _("compares the figures of --stats: add --stats"), param_hint=hint
        )
    out = []
    for text in texts:
        changes: dict[str, object] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, sep, value = part.partition("=")
            key = key.strip().lower().replace("-", "_")
            if not sep or key not in _COMPARABLE:
                raise typer.BadParameter(
                    _("'{part}' is not OPTION=VALUE with OPTION one of {COMPARABLE}").format(
                        part=clip(part), COMPARABLE=", ".join(_COMPARABLE)
                    ),
                    param_hint=hint,
                )
            try:
                changes[key] = _COMPARABLE[key](value.strip(), base.top)
            except RulesError as exc:
                raise typer.BadParameter(f"{key}: {tr(exc)}", param_hint=hint) from None
        try:
            out.append((text.strip() or "(as given)", dataclasses.replace(base, **changes)))  # type: ignore[arg-type]
        except RulesError as exc:
            raise typer.BadParameter(tr(exc), param_hint=hint) from None
    return out


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _player_names(names: str | None, players: int | None, strategy: str = "") -> list[str]:
    """The seats' names: ``--names``, else the first of NAMES (P1, P2, … past them); as
    many as ``--players``, else as ``--strategy`` names seats (one per seat), else 4."""
    name_list = names_option(names, players)
    if name_list is None:
        per_seat = strategy.count(",") + 1
        count = players or (per_seat if per_seat > 1 else 4)
        name_list = (
            list(NAMES[:count]) if count <= len(NAMES) else [f"P{i}" for i in range(1, count + 1)]
        )
    if len(name_list) < 2:
        raise typer.BadParameter(_("a game needs at least 2 players"), param_hint="'--names'")
    return name_list


def _seats(strategy: str, count: int) -> list[str]:
    """One strategy name per seat from ``--strategy`` (one for all, or one per seat)."""
    from cf.play.simulate import STRATEGIES

    seats = [s.strip().lower() for s in strategy.split(",")]
    if len(seats) == 1:
        seats = seats * count
    unknown = [s for s in seats if s not in STRATEGIES]
    if unknown or len(seats) != count:
        raise typer.BadParameter(
            _("give one strategy for all or one per seat ({count}), from: {STRATEGIES}").format(
                count=count, STRATEGIES=", ".join(STRATEGIES)
            ),
            param_hint="'--strategy'",
        )
    return seats


def _starter_arms(text: str, top: int) -> int | str:
    """``--starter-arms`` checked against the set: 2..top, or 'players'."""
    try:
        arms = parse_starter_arms(text)
    except RulesError:
        raise typer.BadParameter(
            _("a number or 'players'"), param_hint="'--starter-arms'"
        ) from None
    if arms != PLAYERS and not 2 <= arms <= top:  # type: ignore[operator]
        raise typer.BadParameter(
            _("from 2 to {top} in this set, or 'players'").format(top=top),
            param_hint="'--starter-arms'",
        )
    return arms


# --- what the command does once its options are checked ---------------------------------


def command_line(
    names: list[str],
    rules: Rules,
    seats: list[str],
    seed: int,
    rounds: int | None,
    playouts: int | None = None,
) -> str:
    """The ``cf simulate`` call that plays this game again, for the file's header."""
    parts = ["cf simulate", f"--names {shlex.quote(','.join(names))}"]
    if len(set(seats)) == 1:
        parts.append(f"--strategy {seats[0]}")
    else:
        parts.append(f"--strategy {','.join(seats)}")
    parts.append(f"--seed {seed}")
    if rules.top != 9:
        parts.append(f"--set {rules.set_name}")
    if rounds is not None:
        parts.append(f"--rounds {rounds}")
    if playouts is not None and set(seats) & {"pimc", "ismcts"}:
        parts.append(f"--playouts {playouts}")
    if rules.deal is not None:
        parts.append(f"--deal {rules.deal}")
    if rules.starter_arms != 4:
        parts.append(f"--starter-arms {rules.starter_arms}")
    if rules.double_blank != 50:
        parts.append(f"--double-blank {rules.double_blank}")
    if rules.reserve is not None:
        parts.append(f"--reserve {rules.reserve}")
    if rules.draw != "one":
        parts.append(f"--draw {rules.draw}")
    if rules.out_on_double:
        parts.append(f"--out-on-double {rules.out_on_double}")
    if rules.target is not None:
        parts.append(f"--target {rules.target}")
    return " ".join(parts)


def run(
    names: list[str],
    rules: Rules,
    seats: list[str],
    seed: int,
    rounds: int | None,
    output: str | None,
    games: int,
    stats: bool,
    jobs: int,
    fmt: str,
    force: bool = False,
    playouts: int | None = None,
    check: bool = False,
) -> None:
    if stats:
        from cf.render.stats import render_stats

        result = study(names, rules, seats, seed, rounds, games, jobs, playouts, check)
        text = render_stats(result, names, seats, fmt, seed)
        if fmt == "json":
            write_document(text)
        else:
            typer.echo(text, nl=False)
        return
    if games == 1:
        game = simulate_game(names, rules, seats, seed, rounds, playouts)
        _note_cap(game.rules, rules)
        text = game_yaml(game, command_line(names, rules, seats, seed, rounds, playouts))
        write_game(output, text, force)
        if output is not None and output != "-":
            typer.echo(_("wrote {output}").format(output=output), err=True)
        return
    assert output is not None  # check_output saw to it
    try:
        os.makedirs(output, exist_ok=True)
    except OSError as exc:
        fail(
            _("cannot make the folder {output}: {value}").format(
                output=output, value=tr(os_reason(exc))
            ),
            2,
        )
    width = len(str(games))
    paths = [os.path.join(output, f"game-{i + 1:0{width}d}.yaml") for i in range(games)]
    capped = False
    for i, path in enumerate(paths):
        seed_i = game_seed(seed, i)
        game = simulate_game(names, rules, seats, seed_i, rounds, playouts)
        if not capped:  # said once, for the first game it stopped
            capped = _note_cap(game.rules, rules)
        text = game_yaml(game, command_line(names, rules, seats, seed_i, rounds, playouts))
        write_game(path, text, force)
    removed, kept = remove_earlier(output, paths) if force else (0, 0)
    typer.echo(
        _("wrote {games} games: {paths} to {paths2}").format(
            games=games, paths=paths[0], paths2=paths[-1]
        ),
        err=True,
    )
    if removed:
        typer.echo(
            ngettext(
                "removed {n} earlier game of cf simulate from {output}",
                "removed {n} earlier games of cf simulate from {output}",
                removed,
            ).format(n=removed, output=output),
            err=True,
        )
    if kept:  # cf tally DIR/*.yaml would mix them with this study
        typer.echo(
            ngettext(
                "kept {n} game-N.yaml in {output} that is no earlier game of yours from cf "
                "simulate",
                "kept {n} game-N.yaml files in {output} that are no earlier games of yours "
                "from cf simulate",
                kept,
            ).format(n=kept, output=output),
            err=True,
        )


def _note_cap(played: Rules, asked: Rules) -> bool:
    """Say on stderr that a game to a target nobody reached was stopped (its file says
    ``rounds`` for the rounds played, so that it is complete as written); whether it was."""
    if played.rounds == asked.rounds:
        return False
    typer.echo(
        _(
            "nobody reached the target {target} in {rounds} rounds: the game stops there "
            "(written with rules.rounds: {rounds})"
        ).format(target=asked.target, rounds=played.rounds),
        err=True,
    )
    return True


def study(
    names: list[str],
    rules: Rules,
    seats: list[str],
    seed: int,
    rounds: int | None,
    games: int,
    jobs: int,
    playouts: int | None = None,
    check: bool = False,
) -> Stats:
    """Play ``games`` games; ``jobs`` processes give the same figures as one."""
    from cf.play.study import fast_enough

    total = Stats()
    common = (names, rules, seats, seed, rounds, playouts, check)
    # A batch of greedy games on the fast engine takes milliseconds: send more at a time,
    # but enough batches to keep every worker busy to the end.
    chunk = 25
    if fast_enough(seats) and not check:
        chunk = max(25, min(200, games // (4 * jobs)))
    batches = (range(i, min(i + chunk, games)) for i in range(0, games, chunk))
    count = -(-games // chunk)
    show = sys.stderr.isatty()
    if jobs == 1:
        results = (_chunk(common, b) for b in batches)
        _gather(total, _checked(results), count, show)
        return total
    with workers(jobs, _chunk, common) as pool:
        _gather(total, _checked(dispatch(pool, batches, per_worker=2)), count, show)
    return total


def _chunk(common: tuple[Any, ...], batch: range) -> Stats | Error:
    """One batch's figures, or the error it ran into (a failed --check), for the main
    process to report."""
    names, rules, seats, seed, rounds, playouts, check = common
    try:
        return study_chunk(names, rules, seats, seed, batch, rounds, playouts, check)
    except Error as exc:
        return exc


def _checked(results: Iterator[Stats | Error]) -> Iterator[Stats]:
    """The figures, or exit 1 at the first error a batch reports (a failed --check)."""
    for r in results:
        if isinstance(r, Error):
            fail(str(r))
        yield r


def _gather(total: Stats, results, count: int, show: bool) -> None:  # type: ignore[no-untyped-def]
    if not show:
        for r in results:
            total.merge(r)
        return
    # The bar draws itself with a carriage return and the terminal's cursor codes: it goes
    # to the terminal as it is (cf's stderr would show the codes as escapes); its label is
    # cf's own word.
    with typer.progressbar(
        results, length=count, label=_("playing"), file=_process.terminal_stderr()
    ) as bar:
        for r in bar:
            total.merge(r)
