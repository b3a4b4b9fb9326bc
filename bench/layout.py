"""Board layout at scale: no two tiles overlap in many simulated rounds, and how fast.

    .venv/bin/python bench/layout.py                 # --rounds 6000 --seed 0 --json FILE

Plays rounds with random and greedy players for every set (double-six to double-eighteen,
the last with an explicit deal) and a spread of player counts and starter arms, lays out
every move with cf.render.layout.Layout, checks every pair of tiles with the overlap test
of tests/test_layout.py (written apart from the layout's own), checks the layout's open
ends against the board's after every move, and reports: rounds, tiles, overlaps (must be
0), detached tiles (set down away from their place for want of room) and the layout's
time per tile, simulation excluded. The unit test does the same for about 550 rounds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_layout import overlapping_pairs  # noqa: E402

from cf.board import Round  # noqa: E402
from cf.play.simulate import simulate_game  # noqa: E402
from cf.render.layout import Before, Layout  # noqa: E402
from cf.rules import Rules  # noqa: E402

#: (top, players, deal or None): every set, small to large tables.
TABLES = [
    (6, 2, None), (6, 4, None), (9, 2, None), (9, 4, None), (9, 6, None), (9, 8, None),
    (12, 4, None), (12, 8, None), (12, 12, None), (15, 3, None), (15, 9, None),
    (15, 13, None), (18, 3, 30), (18, 8, 18), (18, 14, 10),
]  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    per_case = math.ceil(args.rounds / (len(TABLES) * 3))
    totals = {"rounds": 0, "tiles": 0, "overlaps": 0, "detached": 0, "layout_s": 0.0}
    by_set: dict[int, list[int]] = {}
    started = time.perf_counter()
    for (top, players, deal), arms in itertools.product(TABLES, ("small", "four", "players")):
        names = [f"P{i}" for i in range(players)]
        starter_arms = {"small": 2, "four": min(4, top), "players": "players"}[arms]
        if starter_arms == "players" and players > top:
            starter_arms = top
        rules = Rules(top=top, deal=deal, starter_arms=starter_arms)
        done, seed = 0, args.seed
        while done < per_case:
            game = simulate_game(names, rules, ["random", "greedy"] * players, seed=seed)
            seed += 1
            for sim in game.rounds[: per_case - done]:
                board = Round.dealt(rules, names, sim.starter, sim.deal)
                t0 = time.perf_counter()
                layout = Layout(board.starter, board.arms_needed)
                for move in sim.moves:
                    before = Before.of(board)
                    board.apply(move.player, move.action)
                    layout.play(before, move.action, 0, move.player)
                totals["layout_s"] += time.perf_counter() - t0
                if layout.open_numbers() != board.ends():
                    raise SystemExit(
                        f"open ends differ: set {top}, {players} players, seed {seed}"
                    )
                bad = overlapping_pairs(layout.tiles)
                detached = sum(t.detached for t in layout.tiles)
                totals["rounds"] += 1
                totals["tiles"] += len(layout.tiles)
                totals["overlaps"] += len(bad)
                totals["detached"] += detached
                stats = by_set.setdefault(top, [0, 0, 0])
                stats[0] += 1
                stats[1] += len(layout.tiles)
                stats[2] += detached
                done += 1
    figures = {
        **totals,
        "layout_us_per_tile": round(1e6 * totals["layout_s"] / max(totals["tiles"], 1), 1),
        "detached_share": round(totals["detached"] / max(totals["tiles"], 1), 4),
        "by_set": {
            str(top): {"rounds": r, "tiles": t, "detached": d} for top, (r, t, d) in by_set.items()
        },
        "wall_s": round(time.perf_counter() - started, 1),
    }
    figures["layout_s"] = round(totals["layout_s"], 2)
    print(json.dumps(figures, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    if totals["overlaps"]:
        raise SystemExit(f"{totals['overlaps']} overlapping pair(s)")


if __name__ == "__main__":
    main()
