"""Rendering a player's record (``cf player``): text for people, JSON for programs."""

from __future__ import annotations

from cf.record.player import PlayerRecord, RoundRef
from cf.render.jsontext import dumps
from cf.text import visible as one_line


def _round_json(r: RoundRef | None) -> dict[str, object] | None:
    return None if r is None else {"points": r.points, "file": r.file, "round": r.round}


def record_json(r: PlayerRecord) -> dict[str, object]:
    """The record as JSON data (docs/leagues.md, "JSON")."""
    return {
        "player": r.player,
        "games": r.games,
        "rounds": r.rounds,
        "wins": r.wins,
        "rounds_won": r.rounds_won,
        "out_first": r.out_first,
        "total": r.total,
        "average": r.average,
        "best_round": _round_json(r.best),
        "worst_round": _round_json(r.worst),
        "double_blank_held": r.double_blank_held,
        "double_blank_known_rounds": r.double_blank_known,
        "streaks": {
            "games_won": r.streaks.games_won,
            "rounds_won": r.streaks.rounds_won,
            "out_first": r.streaks.out_first,
        },
        "first_date": r.first_date,
        "last_date": r.last_date,
        "head_to_head": [
            {
                "opponent": h.opponent,
                "games": h.games,
                "ahead": h.ahead,
                "behind": h.behind,
                "level": h.level,
                "rounds": h.rounds,
                "margin_per_round": h.margin_per_round,
            }
            for h in r.head_to_head
        ],
        "rival": r.rival,
        "nemesis": r.nemesis,
    }


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _where(r: RoundRef) -> str:
    return f"{r.points} ({r.file.rsplit('/', 1)[-1]}, round {r.round})"


def _points(value: float | int) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def render_record(r: PlayerRecord, fmt: str = "text") -> str:
    """The record as ``text`` or ``json``."""
    if fmt == "json":
        return dumps(record_json(r))
    from tabulate import tabulate

    name = one_line(r.player)
    span = ""
    if r.first_date:
        span = f", {r.first_date}" + (f" to {r.last_date}" if r.last_date != r.first_date else "")
    lines = [
        f"{name}: {_n(r.games, 'game')}, {_n(r.rounds, 'round')}{one_line(span)}",
        f"games won: {r.wins}; rounds won: {r.rounds_won}; out first: {r.out_first} "
        f"of {r.rounds} rounds",
        f"points per round: {_points(r.average)}"
        + (f"; best round {one_line(_where(r.best))}" if r.best else "")
        + (f"; worst round {one_line(_where(r.worst))}" if r.worst else ""),
        f"0-0 held: {r.double_blank_held} of {_n(r.double_blank_known, 'round')} "
        "whose hands are known",
        f"longest streaks: {_n(r.streaks.games_won, 'game')} won, "
        f"{_n(r.streaks.rounds_won, 'round')} won, {r.streaks.out_first} out first in a row",
        f"rival: {one_line(r.rival) if r.rival else '-'}; "
        f"nemesis: {one_line(r.nemesis) if r.nemesis else '-'}",
    ]
    if r.head_to_head:
        rows = [
            [
                one_line(h.opponent),
                str(h.games),
                str(h.ahead),
                str(h.behind),
                str(h.level),
                str(h.rounds),
                f"{h.margin_per_round:+.2f}",
            ]
            for h in r.head_to_head
        ]
        table = tabulate(
            rows,
            ["opponent", "games", "ahead", "behind", "level", "rounds", "margin/round"],
            disable_numparse=True,
            colalign=["left", *["right"] * 6],
        )
        lines += ["", table, "(ahead/behind: finished ahead of or behind them; margin: "
                  "their points less yours per round, + is better)"]  # fmt: skip
    return "\n".join(lines) + "\n"
