"""Rendering standings: any tabulate format, csv (header row) or json (SPEC §7)."""

from __future__ import annotations

import csv
import io
import json

from cf.record.problems import one_line
from cf.record.standings import GameStandings, Tournament

WINNER = " *"
# Formats read by programs or typeset elsewhere: no winner mark, no footnote line.
UNMARKED = {"tsv", "html", "unsafehtml", "latex", "latex_raw", "latex_booktabs", "latex_longtable"}


def _render(headers: list[str], rows: list[list[object]], fmt: str, note: str) -> str:
    # A name's control characters (ANSI escapes, CR, NUL) never reach a terminal or a
    # spreadsheet raw: the reader refuses them, and any that slip in are shown escaped.
    rows = [[one_line(v) if isinstance(v, str) else v for v in r] for r in rows]
    note = one_line(note)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)
        return out.getvalue()
    from tabulate import tabulate

    # Cells are formatted here, not by tabulate, which turns numbers into floats to align
    # them: totals have no upper bound, and a float would overflow or round them.
    marked = fmt not in UNMARKED
    cells = [
        [
            _cell(v) if i != 1 else f"{v}{WINNER if marked and r[0] == 1 else ''}"
            for i, v in enumerate(r)
        ]
        for r in rows
    ]
    align = ["left" if i == 1 else "right" for i in range(len(headers))]
    table = tabulate(cells, headers, tablefmt=fmt, disable_numparse=True, colalign=align)
    return f"{table}\n{note}\n" if marked else f"{table}\n"


def _cell(value: object) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def render_game(g: GameStandings, fmt: str) -> str:
    """One game's standings: rank, player, R1…Rn, total."""
    if fmt == "json":
        data = {
            "ranked_by": "total",
            "standings": [
                {"rank": r.rank, "player": r.player, "total": r.total, "rounds": list(r.rounds)}
                for r in g.rows
            ],
        }
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    headers = ["rank", "player", *[f"R{i}" for i in range(1, g.rounds_played + 1)], "total"]
    rows: list[list[object]] = [[r.rank, r.player, *r.rounds, r.total] for r in g.rows]
    winners = " and ".join(g.winners)
    note = f"{WINNER.strip()} winner: {winners}"
    if not g.complete:
        note += f" (partial game: {g.rounds_played} of {g.rounds_in_game} rounds)"
    return _render(headers, rows, fmt, note)


def render_tournament(t: Tournament, fmt: str) -> str:
    """A tournament: rank, player, games, rounds, wins, total, average per round."""
    if fmt == "json":
        data = {
            "ranked_by": t.ranked_by,
            "standings": [
                {
                    "rank": r.rank,
                    "player": r.player,
                    "games": r.games,
                    "rounds": r.rounds,
                    "wins": r.wins,
                    "total": r.total,
                    "average": r.average,
                }
                for r in t.rows
            ],
        }
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    headers = ["rank", "player", "games", "rounds", "wins", "total", "average"]
    rows: list[list[object]] = [
        [r.rank, r.player, r.games, r.rounds, r.wins, r.total, _two_places(r.average)]
        for r in t.rows
    ]
    leaders = " and ".join(r.player for r in t.rows if r.rank == 1)
    return _render(headers, rows, fmt, f"{WINNER.strip()} leader by {t.ranked_by}: {leaders}")


def _two_places(value: float | int) -> float | int:
    return round(value, 2) if isinstance(value, float) else value
