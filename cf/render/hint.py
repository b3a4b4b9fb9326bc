"""``cf hint``'s text: the position in one line, then the actions, best first."""

from __future__ import annotations

from cf.play.hint import Advice
from cf.tiles import format_hand


def render_advice(advice: Advice) -> str:
    """The advice as ``cf hint`` prints it."""
    from tabulate import tabulate

    a = advice
    held = format_hand(a.hand) or "nothing"
    lines = [
        f"Round {a.round_number}, after {a.moves} move(s): {a.player} to play",
        f"hand: {held} ({a.points} points)",
        f"board: {a.board}",
        "",
        f"best first: lower expected points ({a.player}'s hand when the round ends) are better",
        "",
    ]
    rows = [
        [
            i,
            act.record,
            act.where,
            f"{act.expected_points:.2f}",
            f"{100 * act.p_out:.1f}%",
        ]
        for i, act in enumerate(a.actions, 1)
    ]
    lines.append(
        tabulate(
            rows,
            ["#", "play", "what it does", "expected points", "out first"],
            disable_numparse=True,
            colalign=("right", "left", "left", "right", "right"),
        )
    )
    lines.append("")
    deals = "deal" if a.playouts == 1 else "deals"
    lines.append(f"({a.playouts} random {deals} of the unseen tiles per action, seed {a.seed})")
    return "\n".join(lines) + "\n"
