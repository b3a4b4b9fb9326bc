"""Rendering the figures of a simulation study (``cf simulate --stats``)."""

from __future__ import annotations

from cf.play.simulate import Stats
from cf.render.jsontext import dumps


def _points(value: float | int) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _share(value: object) -> str:
    return f"{100 * value:.1f}%"  # type: ignore[operator]


def render_stats(stats: Stats, names: list[str], seats: list[str], fmt: str, seed: int) -> str:
    """A study's figures: by seat and by strategy, as tables (any tabulate format) or JSON."""
    data = {"seed": seed, **stats.as_dict()}
    if fmt == "json":
        return dumps(data)
    from tabulate import tabulate

    lines = [
        f"{stats.games} games, {stats.rounds} rounds (seeds {seed} to {seed + stats.games - 1}: "
        f"cf simulate --seed S plays one again)",
        f"moves per round: {data['moves_per_round']:.1f}",
        f"rounds ending blocked: {100 * data['blocked_share']:.1f}%",  # type: ignore[operator]
        f"rounds won by the player who moved first: {_share(data['first_player_wins_share'])}",
        f"points per player and round: {_points(data['points_per_player_round'])} "  # type: ignore[arg-type]
        f"(spread {_points(stats.spread)})",
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
            ["seat", "player", "strategy", "points/round"],
            disable_numparse=True,
            colalign=["right", "left", "left", "right"],
        )
    )
    lines.append("")
    strat_rows = [
        [s, _points(v["points_per_round"]), f"{100 * v['win_rate']:.1f}%"]
        for s, v in data["by_strategy"].items()  # type: ignore[attr-defined]
    ]
    lines.append(
        tabulate(
            strat_rows,
            ["strategy", "points/round", "win rate"],
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
        ["points per player and round"],
        ["spread of those points (sd)"],
        ["moves per round"],
        ["rounds ending blocked"],
        ["rounds won by the first player"],
        ["rounds per game"],
    ]
    for _, stats in results:
        d = stats.as_dict()
        rows[0].append(_points(d["points_per_player_round"]))  # type: ignore[arg-type]
        rows[1].append(_points(stats.spread))
        rows[2].append(f"{d['moves_per_round']:.1f}")
        rows[3].append(_share(d["blocked_share"]))
        rows[4].append(_share(d["first_player_wins_share"]))
        rows[5].append(f"{stats.rounds / stats.games:.1f}" if stats.games else "0")
    head = [
        f"{games} games under each house rule, {len(names)} players ({kinds}), "
        f"seeds {seed} to {seed + games - 1}",
        "",
        tabulate(
            rows,
            ["", *(label for label, _ in results)],
            disable_numparse=True,
            colalign=["left", *("right" for _ in results)],
        ),
    ]
    return "\n".join(head) + "\n"
