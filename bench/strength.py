"""How strong are cf's players? Duplicate games against greedy, with 95% intervals.

For each table size (2, 4 and 6 players, double-nine, default rules) and each game, every
round's deal is made once from the seed. All-greedy play of those deals is the baseline.
Then each strategy takes each seat in turn (greedy in the other seats) and plays the same
deals again: so each strategy meets exactly the luck greedy met, seat for seat, and the
difference in points is the strategy's doing.

Figures per strategy and table size:
- points/round: the strategy's mean points per round, and greedy's in the same seats and
  deals; "change" is their paired difference in percent (negative: fewer points), with a
  95% interval (normal approximation over the games x seats units);
- win rate: the share of games the strategy won outright (a tie for lowest total counts a
  half), with a 95% Wilson interval; greedy's share at an all-greedy table is 1/players;
- s/move: the strategy's mean time per decision (only moves with a choice call it).

    .venv/bin/python bench/strength.py                      # the published table
    .venv/bin/python bench/strength.py --games 2 --players 4 --strategies smart
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cf.deal import deal_from
from cf.play.simulate import STRATEGIES, play_round, strategy_for
from cf.rules import Rules

Z = 1.96


def deals(rules: Rules, names: list[str], seed: str) -> list:  # type: ignore[type-arg]
    rng = random.Random(seed)
    return [deal_from(rng, rules, names, k) for k in range(1, rules.top + 2)]


def play_game(rules, names, strategies, game_deals, seed):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    rounds = []
    for k, dealt in enumerate(game_deals, 1):
        first = names[(k - 1) % len(names)]
        rounds.append(play_round(rules, names, strategies, dealt, first, rng, k))
    return rounds


class Timed:
    """A strategy that counts its calls and the time they take."""

    def __init__(self, strategy):  # type: ignore[no-untyped-def]
        self.strategy = strategy
        self.calls = 0
        self.seconds = 0.0

    def __call__(self, view, rng):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        choice = self.strategy(view, rng)
        self.seconds += time.perf_counter() - t0
        self.calls += 1
        return choice


def wilson(wins: float, n: int) -> tuple[float, float]:
    if not n:
        return (0.0, 0.0)
    p = wins / n
    denom = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / denom
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def measure(
    players: int, strategy: str, games: int, seed: int, playouts: int | None
) -> dict[str, float]:
    rules = Rules(top=9)
    names = [f"P{i + 1}" for i in range(players)]
    greedy = STRATEGIES["greedy"]
    timed = Timed(strategy_for(strategy, playouts))
    diffs = []  # per (game, seat): mean points per round, strategy minus greedy
    mine_points = base_points = 0
    rounds = 0
    wins = 0.0
    units = 0
    for g in range(games):
        game_deals = deals(rules, names, f"{seed}-{players}-{g}")
        baseline = play_game(rules, names, [greedy] * players, game_deals, 0)
        for seat in range(players):
            seats = [greedy] * players
            seats[seat] = timed  # type: ignore[call-overload]
            played = play_game(
                rules, names, seats, game_deals, f"{seed}-{players}-{g}-{seat}-{strategy}"
            )
            me = names[seat]
            mine = [r.scores[me] for r in played]
            base = [r.scores[me] for r in baseline]
            diffs.append((sum(mine) - sum(base)) / len(mine))
            mine_points += sum(mine)
            base_points += sum(base)
            rounds += len(mine)
            totals = {p: sum(r.scores[p] for r in played) for p in names}
            best_other = min(v for p, v in totals.items() if p != me)
            wins += 1.0 if totals[me] < best_other else 0.5 if totals[me] == best_other else 0.0
            units += 1
    mean_diff = statistics.fmean(diffs)
    half = Z * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    base_mean = base_points / rounds
    low, high = wilson(wins, units)
    return {
        "players": players,
        "games": units,
        "rounds": rounds,
        "points": mine_points / rounds,
        "greedy_points": base_mean,
        "change": 100 * mean_diff / base_mean,
        "change_low": 100 * (mean_diff - half) / base_mean,
        "change_high": 100 * (mean_diff + half) / base_mean,
        "win_rate": 100 * wins / units,
        "win_low": 100 * low,
        "win_high": 100 * high,
        "s_per_move": timed.seconds / max(timed.calls, 1),
        "moves": timed.calls,
    }


def table(rows: Sequence[tuple[str, dict[str, float]]]) -> str:
    out = [
        "| players | strategy | games | points/round (greedy) | change vs greedy, 95% CI "
        "| win rate, 95% CI (greedy: 1/players) | s/move |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, r in rows:
        out.append(
            f"| {r['players']} | {name} | {r['games']} | {r['points']:.2f} "
            f"({r['greedy_points']:.2f}) | {r['change']:+.1f}% "
            f"[{r['change_low']:+.1f}, {r['change_high']:+.1f}] | {r['win_rate']:.1f}% "
            f"[{r['win_low']:.1f}, {r['win_high']:.1f}] | {r['s_per_move']:.3f} |"
        )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,4,6", help="table sizes (default 2,4,6)")
    parser.add_argument("--strategies", default="smart,pimc,ismcts")
    parser.add_argument(
        "--games",
        default="smart=2:100,4:50,6:25;pimc=2:14,4:12,6:6;ismcts=2:3,4:3,6:1",
        help="duplicate games per table size (each is played once per seat): 'N', "
        "'players:N,...', or 'strategy=players:N,...;...'",
    )
    parser.add_argument("--playouts", type=int, default=None, help="searchers' effort")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    sizes = [int(p) for p in args.players.split(",")]
    strategies = args.strategies.split(",")
    per: dict[str, dict[int, int]] = {}
    for part in args.games.split(";"):
        name, _, spec = part.rpartition("=")
        if ":" in spec:
            counts = {int(k): int(v) for k, v in (x.split(":") for x in spec.split(","))}
        else:
            counts = {n: int(spec) for n in sizes}
        for s in [name] if name else strategies:
            per[s] = counts
    rows = []
    start = time.perf_counter()
    cpu = time.process_time()
    for n in sizes:
        for s in strategies:
            if not per.get(s, {}).get(n):
                continue
            t0 = time.perf_counter()
            r = measure(n, s, per[s][n], args.seed, args.playouts)
            rows.append((s, r))
            print(
                f"{n} players, {s}: {r['change']:+.1f}% points, {r['win_rate']:.1f}% wins, "
                f"{r['s_per_move']:.3f} s/move ({time.perf_counter() - t0:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    print(table(rows))
    print(
        f"\nwall time {time.perf_counter() - start:.0f} s, CPU time "
        f"{time.process_time() - cpu:.0f} s, seed {args.seed}, games {args.games}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
