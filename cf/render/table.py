"""The table after any move of a recorded round: its facts, and ``cf show``'s text and JSON.

:func:`table_at` replays the round (:func:`cf.record.replay.replay`) and lays its tiles out
(:class:`~cf.render.layout.Layout`); :func:`table_facts` gives the SPEC §10 JSON object,
:func:`render_text` the terminal picture.

>>> from cf.record.reader import read_game_file
>>> t = table_at(read_game_file("examples/family-night.yaml"), round_number=1, move=12)
>>> f = table_facts(t)
>>> f["open_ends"], f["next"], f["arms"], f["yard"]
([3, 5, 7, 8], 'Ana', 4, 10)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cf.board import TOES, Round, RuleViolation
from cf.i18n import _, tr
from cf.record.problems import Problem
from cf.record.reader import Game
from cf.record.replay import Replay, apply_entry, replay, round_starter, start_round
from cf.render.layout import Before, Layout, PlacedTile


@dataclass(frozen=True)
class Table:
    """The table after ``moves`` moves of round ``round_number`` (fewer than asked when
    ``problem`` stopped the replay), with every tile laid out."""

    game: Game
    round_number: int
    moves: int
    log_length: int
    board: Round
    layout: Layout
    problem: Problem | None

    @property
    def over(self) -> str | None:
        """``"out"`` (someone went out), ``"blocked"``, or ``None`` while play goes on."""
        return _over(self.board)

    @property
    def next_player(self) -> str | None:
        """Whose turn it is (``None`` once the round is over): before the first move, the
        first mover the log names."""
        return table_facts(self)["next"]


def table_at(game: Game, round_number: int | None = None, move: int | None = None) -> Table:
    """The table after ``move`` moves (default: the whole log) of round ``round_number``
    (default: the last round that has moves). Raises
    :class:`~cf.record.replay.ReplayError` for a round or move that does not exist.

    A round whose log ``cf validate`` does not replay (a problem in its deal or its
    starter, a round past the game's end: :attr:`cf.record.check.Report.not_replayed`) is
    not replayed here either: its table is the one before the first move, and the problem
    that stops the replay is that round's."""
    from dataclasses import replace

    from cf.record.check import validate

    rep = replay(game, round_number, move)
    stopped = validate(game).not_replayed
    if rep.round_number in stopped:
        before = replay(game, rep.round_number, 0)
        rep = replace(before, problem=stopped[rep.round_number])
    return Table(
        game,
        rep.round_number,
        rep.moves,
        len(rep.record.moves or []),
        rep.board,
        _layout(game, rep),
        rep.problem,
    )


def _layout(game: Game, rep: Replay) -> Layout:
    assert game.rules is not None  # replay() has checked
    board = start_round(
        game.rules, game.players, round_starter(game.top, rep.round_number), rep.record.deal
    )
    layout = Layout(board.starter, board.arms_needed)
    for entry in (rep.record.moves or [])[: rep.moves]:
        assert entry.action is not None  # the replay applied it
        layout.play(board, entry.action, entry.number, entry.player)
        apply_entry(board, entry)
    return layout


@dataclass(frozen=True, slots=True)
class Step:
    """One move of a round, for a page that steps through the game: the tile it placed
    (if any), the facts after it, and the problem that stopped the replay there."""

    move: int
    player: str | None
    text: str
    placed: PlacedTile | None
    facts: dict[str, Any]
    marks: tuple[tuple[float, float, int, bool], ...] = ()  # Layout.free_places() after it


def round_steps(game: Game, round_number: int) -> tuple[Layout, list[Step]]:
    """Every move of a round's log, one :class:`Step` each, from move 0 (before the first)
    to the end of the log or the move whose problem stops the replay (that step has the
    problem and places nothing), and the round's finished layout."""
    from cf.notation import format_action

    rec = game.rounds[round_number - 1]
    assert game.rules is not None
    board = start_round(game.rules, game.players, round_starter(game.top, round_number), rec.deal)
    layout = Layout(board.starter, board.arms_needed)
    entries = rec.moves or []
    first = entries[0].player if entries else None
    steps = [
        Step(0, None, "", None, _facts(round_number, 0, board, None, first),
             tuple(layout.free_places()))
    ]  # fmt: skip
    for entry in entries:
        text = format_action(entry.action) if entry.action is not None else ""
        before = Before.of(board)
        try:
            apply_entry(board, entry)
        except RuleViolation as exc:
            pos = entry.pos
            problem = Problem(
                exc.code, exc.message, pos.line, pos.column, round_number, entry.number,
                entry.player,
            )  # fmt: skip
            facts = _facts(round_number, entry.number - 1, board, problem, first)
            steps.append(
                Step(entry.number, entry.player, text, None, facts, tuple(layout.free_places()))
            )
            break
        assert entry.action is not None  # the board took it
        placed = layout.play(before, entry.action, entry.number, entry.player)
        facts = _facts(round_number, entry.number, board, None, first)
        steps.append(
            Step(entry.number, entry.player, text, placed, facts, tuple(layout.free_places()))
        )
    return layout, steps


def _over(board: Round) -> str | None:
    if board.winner is not None:
        return "out"
    return "blocked" if board.is_blocked() else None


def _facts(
    round_number: int, moves: int, board: Round, problem: Problem | None, first: str | None
) -> dict[str, Any]:
    over = _over(board)
    if over is not None:
        nxt = None
    else:
        nxt = board.next_player if board.next_player is not None else first
    return {
        "round": round_number,
        "move": moves,
        "starter": str(board.starter),
        "arms": board.arms,
        "arms_needed": board.arms_needed,
        "pending": board.pending,
        "toes": board.toes if board.pending is not None else 0,
        "open_ends": board.ends(),
        "hands": {
            p: {"known": [str(t) for t in sorted(h.known, reverse=True)], "unseen": h.unseen}
            for p, h in board.hands.items()
        },
        "yard": board.yard,
        "drawable": board.drawable,
        "next": nxt,
        "over": over,
        "problem": problem.as_dict() if problem is not None else None,
    }


def table_facts(table: Table) -> dict[str, Any]:
    """The SPEC §10 JSON object of ``cf show --format json``."""
    entries = table.game.rounds[table.round_number - 1].moves or []
    first = entries[0].player if entries else None
    return _facts(table.round_number, table.moves, table.board, table.problem, first)


# --- text ---------------------------------------------------------------------------------


def tile_glyph(near: int, far: int, *, unicode: bool, upright: bool = False) -> str:
    """A tile as text, ``near`` half first: a domino character of Unicode's block (0 to 6)
    where allowed, else ``[near|far]``.

    >>> tile_glyph(3, 5, unicode=True), tile_glyph(9, 7, unicode=True)
    ('🁋', '[9|7]')
    """
    if unicode and near <= 6 and far <= 6:
        base = 0x1F063 if upright else 0x1F031
        return chr(base + near * 7 + far)
    return f"[{near}|{far}]"


def _must_hold(n: int) -> str:
    """``the next play must hold a 7`` (``an 8``: the article as the number is said)."""
    if n in (8, 11, 18):
        return _("the next play must hold an {number}").format(number=n)
    return _("the next play must hold a {number}").format(number=n)


def can_encode(encoding: str | None) -> bool:
    """Whether text in ``encoding`` can hold the domino characters and box lines."""
    try:
        "🀱├─└│".encode(encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


@dataclass(frozen=True, slots=True)
class _Lines:
    """The tree's branch marks: a branch, the last branch, a continuing bar, an arrow."""

    tee: str
    last: str
    bar: str
    dash: str


_LINES = {
    True: _Lines("├─ ", "└─ ", "│  ", "→"),
    False: _Lines("|- ", "`- ", "|  ", "->"),
}


def render_text(table: Table, *, unicode: bool = True) -> str:
    """``cf show``'s terminal picture of the table, newline-terminated."""
    board, layout = table.board, table.layout
    # Unicode has domino characters up to 6-6 only: in a bigger set, glyphs for some tiles
    # and brackets for others would be hard to read, so every tile is [a|b] there.
    glyphs = unicode and board.rules.top <= 6
    marks = _LINES[bool(unicode)]
    lines = _heading(table, glyphs)
    arms = layout.children(0)
    for i, arm in enumerate(arms):
        label = _("arm {number}").format(number=i + 1)
        _chain(lines, layout, marks, glyphs, arm, "  ", label, i == len(arms) - 1)
    lines += _open_ends(board)
    lines.append(_("hands:"))
    width = max(len(p) for p in board.players)
    nxt = table.next_player
    for p in board.players:
        mark = "*" if p == nxt else " "
        lines.append(f" {mark}{p.ljust(width)}  {board.hands[p].size:>2}: {_hand(board, p)}")
    lines.append(
        _("chicken yard: {yard} tile(s), {drawable} can be drawn ({reserve} never drawn)").format(
            yard=board.yard, drawable=board.drawable, reserve=board.reserve
        )
    )
    lines += _ending(table, nxt)
    return "\n".join(lines) + "\n"


def _heading(table: Table, glyphs: bool) -> list[str]:
    """The title line (the game's title or file, the round and move) and the starter's."""
    board = table.board
    title = table.game.title if getattr(table.game, "title", None) else table.game.file
    s = board.starter
    glyph = tile_glyph(s.high, s.low, unicode=glyphs)
    shown = f"{s} {glyph}" if not glyph.startswith("[") else str(s)
    return [
        _("{title}: round {round}, after move {move} of {moves}").format(
            title=title, round=table.round_number, move=table.moves, moves=table.log_length
        ),
        _("starter {starter}: {arms} of {needed} arms").format(
            starter=shown, arms=board.arms, needed=board.arms_needed
        ),
    ]


def _chain(
    lines: list[str],
    layout: Layout,
    marks: _Lines,
    glyphs: bool,
    start: PlacedTile,
    prefix: str,
    label: str,
    closing: bool,
) -> None:
    """Append the line of the arm or toe that starts with ``start``: its tiles up to an
    open end or a double, and under a double its toes, indented, one line each."""
    tiles = [start]
    while not tiles[-1].tile.is_double:
        kids = layout.children(tiles[-1].index)
        if not kids:
            break
        tiles.append(kids[0])
    end = tiles[-1]
    words = "".join(
        tile_glyph(t.near, t.far, unicode=glyphs, upright=t.tile.is_double) for t in tiles
    )
    branch = marks.last if closing else marks.tee
    if not end.tile.is_double:
        lines.append(f"{prefix}{branch}{label}: {words} {marks.dash} {end.far}")
        return
    toes = layout.children(end.index)
    if len(toes) == TOES:
        foot = _("foot on {double}").format(double=end.tile)
    else:
        foot = _("foot on {double}, open: {toes} of {all} toes").format(
            double=end.tile, toes=len(toes), all=TOES
        )
    lines.append(f"{prefix}{branch}{label}: {words} {foot}")
    inner = prefix + ("   " if closing else marks.bar)
    for i, toe in enumerate(toes):
        label = _("toe {number}").format(number=i + 1)
        _chain(lines, layout, marks, glyphs, toe, inner, label, i == len(toes) - 1)


def _open_ends(board: Round) -> list[str]:
    """The open ends, and what the next play must hold in a foot or the starter phase."""
    ends = " ".join(str(n) for n in board.ends()) or _("none")
    lines = [_("open ends: {ends}").format(ends=ends)]
    if board.pending is not None:
        d = board.pending
        lines.append(
            _("chicken foot: open on {double}, {toes} of {all} toes ({must})").format(
                double=f"{d}-{d}", toes=board.toes, all=TOES, must=_must_hold(d)
            )
        )
    elif board.arms < board.arms_needed:
        lines.append(_("starter phase: {must}").format(must=_must_hold(board.starter.high)))
    return lines


def _hand(board: Round, player: str) -> str:
    """``player``'s known tiles, highest first, and how many are unseen (or ``(empty)``).
    Written as tiles are everywhere (``9-2 7-2``, SPEC §1's canonical form), so that a hand
    can be copied into ``cf score``, ``cf hint --hand`` or a game file; the lines of play
    keep their pictures, which show which half touches which."""
    h = board.hands[player]
    tiles = " ".join(str(t) for t in sorted(h.known, reverse=True))
    parts = [tiles] if tiles else []
    if h.unseen:
        parts.append(_("+ {n} unseen").format(n=h.unseen))
    return " ".join(parts) or _("(empty)")


def _ending(table: Table, nxt: str | None) -> list[str]:
    """How the round stands: over (out or blocked) or whose turn it is; and the problem
    that stopped the replay, if one did."""
    lines = []
    over = table.over
    if over == "out":
        lines.append(_("round over: {player} went out").format(player=table.board.winner))
    elif over == "blocked":
        lines.append(_("round over: blocked (nothing to draw and nobody can play)"))
    elif nxt is not None:
        lines.append(_("next: {player}").format(player=nxt))
    if table.problem is not None:
        stop = table.problem
        said = (
            _("log not replayed: [{code}] {message}")
            if stop.move is None
            else _("stopped at move {move}: [{code}] {message}")
        )
        lines.append(said.format(move=stop.move, code=stop.code, message=tr(stop.message)))
    return lines


__all__ = [
    "Step",
    "Table",
    "can_encode",
    "render_text",
    "round_steps",
    "table_at",
    "table_facts",
    "tile_glyph",
]
