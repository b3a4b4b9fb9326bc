"""``cf hint``'s text: the position in one line, then the actions, best first."""

from __future__ import annotations

from cf.i18n import _, decimal, ngettext, tr
from cf.play.hint import Advice
from cf.tiles import format_hand


def render_advice(advice: Advice) -> str:
    """The advice as ``cf hint`` prints it."""
    from tabulate import tabulate

    a = advice
    held = format_hand(a.hand) or _("nothing")
    lines = [
        ngettext(
            "Round {round}, after {moves} move: {player} to play",
            "Round {round}, after {moves} moves: {player} to play",
            a.moves,
        ).format(round=a.round_number, moves=a.moves, player=a.player),
        _("hand: {hand} ({points} points)").format(hand=held, points=a.points),
        _("board: {board}").format(board=tr(a.board)),
        "",
        _(
            "best first: lower expected points ({player}'s hand when the round ends) are better"
        ).format(player=a.player),
        "",
    ]
    rows = [
        [
            i,
            act.record,
            tr(act.where),
            decimal(act.expected_points, 2),
            decimal(100 * act.p_out, 1) + "%",
        ]
        for i, act in enumerate(a.actions, 1)
    ]
    lines.append(
        tabulate(
            rows,
            ["#", _("play"), _("what it does"), _("expected points"), _("out first")],
            disable_numparse=True,
            colalign=("right", "left", "left", "right", "right"),
        )
    )
    lines.append("")
    lines.append(
        ngettext(
            "({n} random deal of the unseen tiles per action, seed {seed})",
            "({n} random deals of the unseen tiles per action, seed {seed})",
            a.playouts,
        ).format(n=a.playouts, seed=a.seed)
    )
    return "\n".join(lines) + "\n"
