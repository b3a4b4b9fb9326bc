"""The playout core: its speed against Round, its agreement with Round, pimc's decision time.

1. agreement: thousands of random rounds (random plays, varied house rules) played on
   cf.play.fast and cf.board.Round side by side, compared after every move
   (tests/test_fast.py's check, on more rounds);
2. speed: full greedy rounds of 4-player double-nine, from the same deals, through Round
   (cf simulate's loop) and through the fast engine, alternating in blocks;
3. pimc: time to decide with 200 playouts per legal action in 4-player double-nine rounds,
   at every move of the searcher's seat that has a choice.

    .venv/bin/python bench/playouts.py [--rounds 3000] [--speed 2000] [--decisions 60]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_fast import VARIANTS, agree_on_a_round  # noqa: E402

from cf.deal import deal_from  # noqa: E402
from cf.play import search  # noqa: E402
from cf.play.fast import State, Tables, playout  # noqa: E402
from cf.play.simulate import STRATEGIES, play_round  # noqa: E402
from cf.rules import Rules  # noqa: E402


def agreement(rounds: int) -> None:
    t0 = time.perf_counter()
    moves = 0
    for i in range(rounds):
        rules, players = VARIANTS[i % len(VARIANTS)]
        moves += agree_on_a_round(rules, players, 10_000 + i)
    print(
        f"agreement: {rounds} random rounds, {moves} moves, every move agrees "
        f"({time.perf_counter() - t0:.1f} s)"
    )


def speed(rounds: int) -> None:
    rules = Rules(top=9)
    names = ["A", "B", "C", "D"]
    rng = random.Random(7)
    deals = [deal_from(rng, rules, names, 1 + i % 10) for i in range(rounds)]
    tables = Tables.get(9, 50)
    greedy = [STRATEGIES["greedy"]] * 4
    slow_t = fast_t = 0.0
    block = 100
    for start in range(0, rounds, block):
        chunk = deals[start : start + block]
        t0 = time.perf_counter()
        for k, d in enumerate(chunk):
            play_round(rules, names, greedy, d, names[k % 4], rng)
        slow_t += time.perf_counter() - t0
        t0 = time.perf_counter()
        for k, d in enumerate(chunk):
            st = State.start(
                tables,
                rules,
                d.starter,
                [d.hands[p] for p in names],
                list(reversed(d.chicken_yard)),
                k % 4,
            )
            playout(st)
        fast_t += time.perf_counter() - t0
    print(
        f"greedy rounds, 4-player double-nine: Round {rounds / slow_t:,.0f}/s "
        f"({1000 * slow_t / rounds:.3f} ms each), fast engine {rounds / fast_t:,.0f}/s "
        f"({1e6 * fast_t / rounds:.1f} us each, start-up included): "
        f"{slow_t / fast_t:.1f}x"
    )


def pimc_decisions(count: int) -> None:
    rules = Rules(top=9)
    names = ["A", "B", "C", "D"]
    times: list[float] = []
    actions: list[int] = []

    def timed(view, rng):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        choice = search.pimc_strategy(view, rng, playouts=200)
        if len(view.playable) > 1 or search._two_ends(view, view.playable[0]):
            times.append(time.perf_counter() - t0)
            actions.append(len(view.playable))
        return choice

    rng = random.Random(3)
    greedy = STRATEGIES["greedy"]
    k = 0
    while len(times) < count:
        d = deal_from(rng, rules, names, 1 + k % 10)
        play_round(rules, names, [timed, greedy, greedy, greedy], d, names[k % 4], rng)
        k += 1
    times.sort()
    print(
        f"pimc, 200 playouts per action, 4-player double-nine: {len(times)} decisions "
        f"({statistics.fmean(actions):.1f} playable tiles on average): median "
        f"{statistics.median(times):.3f} s, 90th percentile {times[int(0.9 * len(times))]:.3f} s, "
        f"max {times[-1]:.3f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3000, help="rounds compared move by move")
    parser.add_argument("--speed", type=int, default=2000, help="greedy rounds timed")
    parser.add_argument("--decisions", type=int, default=60, help="pimc decisions timed")
    args = parser.parse_args()
    agreement(args.rounds)
    speed(args.speed)
    pimc_decisions(args.decisions)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
