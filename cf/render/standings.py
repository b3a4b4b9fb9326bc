"""Rendering standings: any tabulate format, csv (header row) or json.

The players ranked first are marked ``*`` in the table formats people read (tabulate's
text formats, markdown, html, latex), and a last line names them: the *winner(s)* of a
complete game, the *leader(s)* of one still being played. csv, tsv and json are data:
no mark, no note line (json says it in ``"leaders"`` / ``"winners"``).
"""

from __future__ import annotations

import csv
import html
import io

from cf.i18n import N_, _, decimal, ngettext
from cf.record.standings import GameStandings, PlayerStats, Tournament
from cf.render.jsontext import dumps
from cf.text import csv_cell, visible

WINNER = " *"
#: Formats read by programs: no winner mark, no note line.
DATA_FORMATS = {"csv", "tsv", "json"}
HTML_FORMATS = {"html", "unsafehtml"}
#: Movement since the previous round, and what is printed where ▲/▼/– cannot be encoded.
ARROWS = ("▲", "▼", "–")
ASCII_ARROWS = ("+", "-", "=")


def _render(headers: list[str], rows: list[list[object]], fmt: str, note: str | None) -> str:
    """``rows`` as ``fmt``; column 1 is the player, marked where column 0 (rank) is 1 and
    ``note`` is given (there is somebody to mark)."""
    # A name's control and bidi characters (ANSI escapes, CR, NUL, U+202E) never reach a
    # terminal or a spreadsheet raw: the reader refuses controls, and the rest are shown
    # escaped (so that columns line up too).
    rows = [[visible(v) if isinstance(v, str) else v for v in r] for r in rows]
    note = visible(note) if note is not None else None
    plain = _PLAIN.get(fmt)
    if plain is not None:
        return plain(headers, rows)
    return _tabulated(headers, rows, fmt, note)


def _csv_text(headers: list[str], rows: list[list[object]]) -> str:
    """``rows`` as csv under a header row; no cell a spreadsheet would run as a formula
    (:func:`cf.text.csv_cell`: ``=…`` is written ``'=…``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([csv_cell(h) for h in headers])
    writer.writerows([csv_cell(v) for v in r] for r in rows)
    return out.getvalue()


def _tsv_text(headers: list[str], rows: list[list[object]]) -> str:
    """``rows`` as bare tab-separated cells under a header row (tabulate pads tsv columns;
    programs want them bare), text cells guarded against formulas as in csv."""
    lines = [headers, *[[_cell(csv_cell(v)) for v in r] for r in rows]]
    return "".join("\t".join(_tsv(c) for c in line) + "\n" for line in lines)


#: Tabulate's formats that write cells as markup, and the kin that escapes them.
_ESCAPED = {"unsafehtml": "html", "latex_raw": "latex"}

#: Formats written here rather than by tabulate.
_PLAIN = {"csv": _csv_text, "tsv": _tsv_text}


def _tabulated(headers: list[str], rows: list[list[object]], fmt: str, note: str | None) -> str:
    """``rows`` as tabulate's ``fmt``, the rank-1 players marked and ``note`` under the
    table when it is given (as a paragraph in html)."""
    from tabulate import tabulate

    # Cells are formatted here, not by tabulate, which turns numbers into floats to align
    # them: totals have no upper bound, and a float would overflow or round them.
    marked = note is not None
    headers = [_(h) for h in headers]  # a person reads these; csv and json keep English
    cells = [
        [
            _cell(v, people=True) if i != 1 else f"{v}{WINNER if marked and r[0] == 1 else ''}"
            for i, v in enumerate(r)
        ]
        for r in rows
    ]
    align = ["left" if i == 1 else "right" for i in range(len(headers))]
    # Names are text, never markup: the "raw" formats would pass a name's <script> into a
    # page, or its \input{…} into LaTeX; they are written as their escaping kin.
    tablefmt = _ESCAPED.get(fmt, fmt)
    table = tabulate(cells, headers, tablefmt=tablefmt, disable_numparse=True, colalign=align)
    if note is None:
        return f"{table}\n"
    if fmt in HTML_FORMATS:
        note = f"<p>{html.escape(note)}</p>"
    elif fmt.startswith("latex"):  # the note is text under the table, as its cells are
        from tabulate import LATEX_ESCAPE_RULES

        note = "".join(LATEX_ESCAPE_RULES.get(c, c) for c in note)
    return f"{table}\n{note}\n"


def _cell(value: object, people: bool = False) -> str:
    """A cell's text: a decimal with two places (as the reader's language writes it, for
    ``people``; programs always get ``15.61``)."""
    if isinstance(value, float):
        return decimal(value, 2) if people else f"{value:.2f}"
    return str(value)


def _tsv(text: str) -> str:
    return text.replace("\t", " ").replace("\n", " ")


def _names(names: list[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def game_note(g: GameStandings) -> str | None:
    """The line under one game's table: its winner(s), or its leader(s) and how far it is;
    ``None`` before any round (nobody to mark)."""
    if not g.rounds_played:
        return None
    mark = WINNER.strip()
    if g.complete:
        n = len(g.winners)
        said = ngettext("winner: {names}", "winners: {names}", n)
        return f"{mark} " + said.format(names=_names(g.winners))
    said = ngettext(
        "leader: {names} (partial game: {how_far})",
        "leaders: {names} (partial game: {how_far})",
        len(g.leaders),
    )
    return f"{mark} " + said.format(names=_names(g.leaders), how_far=how_far(g))


def how_far(g: GameStandings) -> str:
    """``3 of 10 rounds``, or in a game played to a target ``3 rounds, played to 150``."""
    played = g.rounds_played
    if g.target is None:
        return _("{played} of {rounds} rounds").format(played=played, rounds=g.rounds_in_game)
    if g.rounds_in_game is None:
        said = ngettext(
            "{played} round, played to {target}", "{played} rounds, played to {target}", played
        )
        return said.format(played=played, target=g.target)
    said = ngettext(
        "{played} round of at most {rounds}, played to {target}",
        "{played} rounds of at most {rounds}, played to {target}",
        played,
    )
    return said.format(played=played, rounds=g.rounds_in_game, target=g.target)


STAT_HEADERS = [N_("won"), N_("last"), N_("high"), N_("low"), N_("avg"), N_("streak")]


def _stat_cells(s: PlayerStats) -> list[object]:
    return [
        s.rounds_won,
        s.times_last,
        "" if s.highest is None else s.highest,
        "" if s.lowest is None else s.lowest,
        _two_places(s.average),
        s.longest_streak,
    ]


def _stat_json(s: PlayerStats) -> dict[str, object]:
    return {
        "rounds_won": s.rounds_won,
        "times_last": s.times_last,
        "highest": s.highest,
        "lowest": s.lowest,
        "average": s.average,
        "longest_streak": s.longest_streak,
    }


def game_json(g: GameStandings, stats: list[PlayerStats] | None = None) -> dict[str, object]:
    """One game as JSON data (docs/cli.md, "cf tally"): rank, player, total, rounds, plus
    ``complete``, ``leaders`` (while not complete) or ``winners`` (once complete), and per
    standing ``movement``."""
    by_player = {s.player: s for s in stats or ()}
    data: dict[str, object] = {"ranked_by": "total", "complete": g.complete}
    data["winners" if g.complete else "leaders"] = g.winners if g.complete else g.leaders
    data["standings"] = [
        {
            "rank": r.rank,
            "player": r.player,
            "total": r.total,
            "rounds": list(r.rounds),
            "movement": r.movement,
            **(_stat_json(by_player[r.player]) if stats else {}),
        }
        for r in g.rows
    ]
    return data


def render_game(g: GameStandings, fmt: str, stats: list[PlayerStats] | None = None) -> str:
    """One game's standings: rank, player, R1…Rn, total (and the ``stats`` columns)."""
    if fmt == "json":
        return dumps(game_json(g, stats))
    by_player = {s.player: s for s in stats or ()}
    rounds = [f"R{i}" for i in range(1, g.rounds_played + 1)]
    headers = [N_("rank"), N_("player"), *rounds, N_("total")]
    rows: list[list[object]] = [[r.rank, r.player, *r.rounds, r.total] for r in g.rows]
    if stats:
        headers += STAT_HEADERS
        for row, r in zip(rows, g.rows, strict=True):
            row += _stat_cells(by_player[r.player])
    return _render(headers, rows, fmt, None if fmt in DATA_FORMATS else game_note(g))


def movement(places: int, arrows: tuple[str, str, str] = ARROWS) -> str:
    """``▲2`` (up two places), ``▼1`` (down one) or ``–`` (no change).

    >>> movement(2), movement(-1), movement(0), movement(-3, ASCII_ARROWS)
    ('▲2', '▼1', '–', '-3')
    """
    up, down, same = arrows
    if places > 0:
        return f"{up}{places}"
    if places < 0:
        return f"{down}{-places}"
    return same


def scoreboard_footer(g: GameStandings, next_starter: str | None) -> str:
    """``round K of N, next starts with D-D``, or the winner(s) after the last round."""
    if g.complete and g.rounds_played:
        total = g.rows[0].total
        hit = g.reached
        why = (
            ""
            if hit is None
            else _("{player} reached {total} of {target}; ").format(
                player=hit.player, total=hit.total, target=g.target
            )
        )
        if len(g.winners) > 1:
            return _("game over: {why}{names} win, tied on {total}").format(
                why=why, names=_names(g.winners), total=total
            )
        return _("game over: {why}{name} wins with {total}").format(
            why=why, name=g.winners[0], total=total
        )
    if g.target is not None:
        to = played_to(g.target, g.rounds_in_game)
        if not g.rounds_played:
            return _("no rounds yet ({to}); round 1 starts with {starter}").format(
                to=to, starter=next_starter
            )
        return _("round {round} ({to}), next starts with {starter}").format(
            round=g.rounds_played, to=to, starter=next_starter
        )
    if not g.rounds_played:
        return _("no rounds yet; round 1 of {rounds} starts with {starter}").format(
            rounds=g.rounds_in_game, starter=next_starter
        )
    return _("round {round} of {rounds}, next starts with {starter}").format(
        round=g.rounds_played, rounds=g.rounds_in_game, starter=next_starter
    )


def render_scoreboard(
    g: GameStandings,
    next_starter: str | None,
    fmt: str = "text",
    *,
    ascii_only: bool = False,
    replaced: int | None = None,
) -> str:
    """What ``cf add`` prints after a write: rank, player, this round (round ``replaced``
    when one was replaced), total, movement; then who the ``*`` marks and where the game
    stands (as JSON: :func:`game_json` plus ``next_starter``, and ``replaced``)."""
    if fmt == "json":
        data = game_json(g)
        data["rounds_in_game"] = g.rounds_in_game
        if g.target is not None:
            data["target"] = g.target
        data["next_starter"] = None if g.complete else next_starter
        if replaced is not None:
            data["replaced"] = replaced
        return dumps(data)
    from tabulate import tabulate

    arrows = ASCII_ARROWS if ascii_only else ARROWS
    marked = bool(g.rounds_played)
    shown = replaced or g.rounds_played
    cells = [
        [
            str(r.rank),
            f"{r.player}{WINNER if marked and r.rank == 1 else ''}",
            "" if not r.rounds else str(r.rounds[shown - 1]),
            str(r.total),
            movement(r.movement, arrows),
        ]
        for r in g.rows
    ]
    headers = [
        _("rank"),
        _("player"),
        _("round {round}").format(round=shown),
        _("total"),
        _("movement"),
    ]
    table = tabulate(
        cells,
        headers,
        tablefmt="simple",
        disable_numparse=True,
        colalign=["right", "left", "right", "right", "left"],
    )
    lines = [table]
    if marked:  # what the * means, as under cf tally's table
        if g.complete:
            said = ngettext("winner: {names}", "winners: {names}", len(g.winners))
            lines.append(f"{WINNER.strip()} " + said.format(names=_names(g.winners)))
        else:
            said = ngettext("leader: {names}", "leaders: {names}", len(g.leaders))
            lines.append(f"{WINNER.strip()} " + said.format(names=_names(g.leaders)))
    footer = scoreboard_footer(g, next_starter)
    if replaced:
        footer = _("round {round} replaced; {footer}").format(round=replaced, footer=footer)
    lines.append(footer)
    return "\n".join(lines) + "\n"


def render_tournament(t: Tournament, fmt: str, stats: list[PlayerStats] | None = None) -> str:
    """A tournament: rank, player, games, rounds, wins, total, average per round (and the
    ``stats`` columns)."""
    if fmt == "json":
        return dumps(_tournament_json(t, stats))
    headers, rows = _tournament_cells(t, stats)
    leaders = _names([r.player for r in t.rows if r.rank == 1])
    by = _(RANKED_BY.get(t.ranked_by, t.ranked_by))
    note = f"{WINNER.strip()} " + _("leader by {by}: {names}").format(by=by, names=leaders)
    return _render(headers, rows, fmt, None if fmt in DATA_FORMATS else note)


#: What a tournament is ranked by, as the note under its table says it.
RANKED_BY = {"total": N_("total"), "average": N_("average"), "wins": N_("wins")}


def _tournament_cells(
    t: Tournament, stats: list[PlayerStats] | None
) -> tuple[list[str], list[list[object]]]:
    """The tournament table's headers and rows (the ``stats`` columns but ``avg``, which
    the table already has)."""
    by_player = {s.player: s for s in stats or ()}
    headers = [N_("rank"), N_("player"), N_("games"), N_("rounds")]
    headers += [N_("wins"), N_("total"), N_("average")]
    rows: list[list[object]] = [
        [r.rank, r.player, r.games, r.rounds, r.wins, r.total, _two_places(r.average)]
        for r in t.rows
    ]
    if stats:
        headers += [h for h in STAT_HEADERS if h != "avg"]
        for row, r in zip(rows, t.rows, strict=True):
            row += [c for i, c in enumerate(_stat_cells(by_player[r.player])) if i != 4]
    return headers, rows


def _tournament_json(t: Tournament, stats: list[PlayerStats] | None = None) -> dict[str, object]:
    """A tournament as JSON data (docs/cli.md, "cf tally"): ``ranked_by`` and per player
    rank, player, games, rounds, wins, total, average (and the ``stats`` keys)."""
    by_player = {s.player: s for s in stats or ()}
    return {
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
                **(_stat_json(by_player[r.player]) if stats else {}),
            }
            for r in t.rows
        ],
    }


def _two_places(value: float | int) -> float | int:
    return round(value, 2) if isinstance(value, float) else value


def played_to(target: int, rounds: int | None) -> str:
    """``played to 100``, or ``played to 100, 12 rounds at most`` (``cf new`` says it too)."""
    if rounds is None:
        return _("played to {target}").format(target=target)
    return ngettext(
        "played to {target}, {rounds} round at most",
        "played to {target}, {rounds} rounds at most",
        rounds,
    ).format(target=target, rounds=rounds)
