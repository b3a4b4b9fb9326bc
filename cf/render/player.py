"""Rendering a player's record (``cf player``): text for people, JSON for programs."""

from __future__ import annotations

from cf.i18n import N_, _, decimal, ngettext
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


def _where(r: RoundRef) -> str:
    return _("{points} ({file}, round {round})").format(
        points=r.points, file=r.file.rsplit("/", 1)[-1], round=r.round
    )


def _points(value: float | int) -> str:
    return decimal(value, 2) if isinstance(value, float) else str(value)


#: Head-to-head column headers (translated in text; JSON keys stay English).
HEAD_TO_HEAD = (
    N_("opponent"),
    N_("games"),
    N_("ahead"),
    N_("behind"),
    N_("level"),
    N_("rounds"),
    N_("margin/round"),
)


def render_record(r: PlayerRecord, fmt: str = "text") -> str:
    """The record as ``text`` or ``json``."""
    if fmt == "json":
        return dumps(record_json(r))
    from tabulate import tabulate

    name = one_line(r.player)
    span = ""
    if r.first_date:
        span = (
            _(", {first} to {last}").format(first=r.first_date, last=r.last_date)
            if r.last_date != r.first_date
            else f", {r.first_date}"
        )
    games = ngettext("{n} game", "{n} games", r.games).format(n=r.games)
    rounds = ngettext("{n} round", "{n} rounds", r.rounds).format(n=r.rounds)
    best = _("; best round {where}").format(where=one_line(_where(r.best))) if r.best else ""
    worst = _("; worst round {where}").format(where=one_line(_where(r.worst))) if r.worst else ""
    lines = [
        f"{name}: {games}, {rounds}{one_line(span)}",
        _(
            "games won: {wins}; rounds won: {rounds_won}; "
            "out first: {out_first} of {rounds} rounds"
        ).format(wins=r.wins, rounds_won=r.rounds_won, out_first=r.out_first, rounds=r.rounds),
        _("points per round: {average}").format(average=_points(r.average)) + best + worst,
        ngettext(
            "0-0 held: {held} of {n} round whose hands are known",
            "0-0 held: {held} of {n} rounds whose hands are known",
            r.double_blank_known,
        ).format(held=r.double_blank_held, n=r.double_blank_known),
        _("longest streaks: {games}, {rounds}, {out_first}").format(
            games=ngettext("{n} game won", "{n} games won", r.streaks.games_won).format(
                n=r.streaks.games_won
            ),
            rounds=ngettext("{n} round won", "{n} rounds won", r.streaks.rounds_won).format(
                n=r.streaks.rounds_won
            ),
            out_first=_("{n} out first in a row").format(n=r.streaks.out_first),
        ),
        _("rival: {rival}; nemesis: {nemesis}").format(
            rival=one_line(r.rival) if r.rival else "-",
            nemesis=one_line(r.nemesis) if r.nemesis else "-",
        ),
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
                signed(h.margin_per_round),
            ]
            for h in r.head_to_head
        ]
        table = tabulate(
            rows,
            [_(header) for header in HEAD_TO_HEAD],
            disable_numparse=True,
            colalign=["left", *["right"] * 6],
        )
        lines += [
            "",
            table,
            _(
                "(ahead/behind: finished ahead of or behind them; margin: "
                "their points less yours per round, + is better)"
            ),
        ]
    return "\n".join(lines) + "\n"


def signed(value: float) -> str:
    """``+6.00`` / ``-1.10`` in the reader's decimals."""
    return ("+" if value >= 0 else "-") + decimal(abs(value), 2)
