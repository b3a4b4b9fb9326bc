"""Rendering the figures of a simulation study (``cf simulate --stats``)."""

from __future__ import annotations

from cf.i18n import _, decimal, ngettext
from cf.play.simulate import Stats
from cf.render.jsontext import dumps


def _points(value: float | int) -> str:
    return decimal(value, 2) if isinstance(value, float) else str(value)


def _share(value: object) -> str:
    return decimal(100 * value, 1) + "%"  # type: ignore[operator]


def _games(games: int, rounds: int, seed: int) -> str:
    return _(
        "{games}, {rounds} (seeds {first} to {last}: cf simulate --seed S plays one again)"
    ).format(
        games=ngettext("{n} game", "{n} games", games).format(n=games),
        rounds=ngettext("{n} round", "{n} rounds", rounds).format(n=rounds),
        first=seed,
        last=seed + games - 1,
    )


def render_stats(stats: Stats, names: list[str], seats: list[str], fmt: str, seed: int) -> str:
    """A study's figures: by seat and by strategy, as tables (any tabulate format) or JSON."""
    data = {"seed": seed, **stats.as_dict()}
    if fmt == "json":
        return dumps(data)
    from tabulate import tabulate

    lines = [
        _games(stats.games, stats.rounds, seed),
        _("moves per round: {value}").format(value=decimal(data["moves_per_round"], 1)),  # type: ignore[arg-type]
        _("rounds ending blocked: {value}").format(value=_share(data["blocked_share"])),
        _("rounds won by the player who moved first: {value}").format(
            value=_share(data["first_player_wins_share"])
        ),
        _("points per player and round: {value} (spread {spread})").format(
            value=_points(data["points_per_player_round"]),  # type: ignore[arg-type]
            spread=_points(stats.spread),
        ),
        "",
    ]
    by_seat = data["points_per_round_by_seat"]
    seat_rows = [
        [s, names[int(s) - 1], seats[int(s) - 1], _points(v)]
        for s, v in by_seat.items()  # type: ignore[attr-defined]
    ]
    # Cells formatted here (tabulate would turn a whole number beyond a float into one).
    lines.append(
        tabulate(
            seat_rows,
            [_("seat"), _("player"), _("strategy"), _("points/round")],
            disable_numparse=True,
            colalign=["right", "left", "left", "right"],
        )
    )
    lines.append("")
    strat_rows = [
        [s, _points(v["points_per_round"]), _share(v["win_rate"])]
        for s, v in data["by_strategy"].items()  # type: ignore[attr-defined]
    ]
    lines.append(
        tabulate(
            strat_rows,
            [_("strategy"), _("points/round"), _("win rate")],
            disable_numparse=True,
            colalign=["left", "right", "left"],
        )
    )
    return "\n".join(lines) + "\n"


def render_comparison(
    results: list[tuple[str, Stats]], names: list[str], seats: list[str], fmt: str, seed: int
) -> str:
    """A study under several house rules (``cf simulate --stats --compare``): one column
    per rule set, the same games (seeds) in each."""
    games = results[0][1].games
    if fmt == "json":
        return dumps(
            {
                "seed": seed,
                "games": games,
                "compare": [{"rules": label, **stats.as_dict()} for label, stats in results],
            }
        )
    from tabulate import tabulate

    kinds = ", ".join(dict.fromkeys(seats))
    rows: list[list[str]] = [
        [_("points per player and round")],
        [_("spread of those points (sd)")],
        [_("moves per round")],
        [_("rounds ending blocked")],
        [_("rounds won by the first player")],
        [_("rounds per game")],
    ]
    for _label, stats in results:
        d = stats.as_dict()
        rows[0].append(_points(d["points_per_player_round"]))  # type: ignore[arg-type]
        rows[1].append(_points(stats.spread))
        rows[2].append(decimal(d["moves_per_round"], 1))  # type: ignore[arg-type]
        rows[3].append(_share(d["blocked_share"]))
        rows[4].append(_share(d["first_player_wins_share"]))
        rows[5].append(decimal(stats.rounds / stats.games, 1) if stats.games else "0")
    head = [
        ngettext(
            "{n} game under each house rule, {players} players ({kinds}), seeds {first} to {last}",
            "{n} games under each house rule, {players} players ({kinds}), "
            "seeds {first} to {last}",
            games,
        ).format(n=games, players=len(names), kinds=kinds, first=seed, last=seed + games - 1),
        "",
        tabulate(
            rows,
            ["", *(label for label, _stats in results)],
            disable_numparse=True,
            colalign=["left", *("right" for _stats in results)],
        ),
    ]
    return "\n".join(head) + "\n"
