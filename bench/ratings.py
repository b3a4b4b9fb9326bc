"""Do ratings find the strongest players of a club? Simulated leagues of known strength.

A club of players whose strength is known: computer players of four strengths (random <
greedy < smart < pimc with a few playouts, as bench/strength.py measures them), two of
each. Every night each player comes with probability ``--attend``; those who come sit at
random at tables of 3 to 5 and each table plays one game of double-six (7 rounds, default
rules). After 5, 10 and 20 nights, each ranking of the club is compared with the true
order by Kendall's tau-b (1: the same order, 0: no relation; ties in the true order, two
players per strength, are what tau-b is for):

- rating: OpenSkill Plackett-Luce ordinal (mu - 3 sigma), one update per game, as
  ``cf tally --rank-by rating``; one update per round, as ``--per round`` (and with other
  betas); ranked by mu; the other OpenSkill models;
- average: points per round, lower first (``--rank-by average``);
- wins: games won, more first (``--rank-by wins``).

Figures are the mean tau over ``--leagues`` independent leagues, with a 95% interval
(normal approximation), and, paired league by league, how often each ranking's tau was
above : below the average's and the wins'. ``--seating clustered`` seats players of like
strength together. Then the issue's own question, does the rating predict the next game
better than the running average: each game from night 4 on against the order each
ranking gave its players from the nights before. The simulated leagues are cached in
bench/out/ (the rankings are
cheap, the simulation is not).

    .venv/bin/python bench/ratings.py --seed 2027        # published in bench/README.md
    .venv/bin/python bench/ratings.py --seed 2027 --seating clustered
    .venv/bin/python bench/ratings.py --leagues 4 --nights 5,10
    .venv/bin/python bench/ratings.py --season examples/league   # the docs' example season
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cf.play.simulate import simulate_game
from cf.record.league import LeagueGame, game_of
from cf.record.ratings import MODELS, rate
from cf.rules import Rules
from cf.tiles import Tile, format_hand

Z = 1.96
OUT = Path(__file__).resolve().parent / "out"
#: The club: name -> (strategy, true strength: higher is stronger).
CLUB = {
    "R1": ("random", 0), "R2": ("random", 0),
    "G1": ("greedy", 1), "G2": ("greedy", 1),
    "S1": ("smart", 2), "S2": ("smart", 2),
    "P1": ("pimc", 3), "P2": ("pimc", 3),
}  # fmt: skip


def tables(rng: random.Random, present: list[str]) -> list[list[str]]:
    """``present`` seated at random at tables of 3 to 5 (as even as can be)."""
    rng.shuffle(present)
    n = len(present)
    count = max(1, math.ceil(n / 5))
    while n // count < 3 and count > 1:
        count -= 1
    size, extra = divmod(n, count)
    out, start = [], 0
    for i in range(count):
        k = size + (i < extra)
        out.append(present[start : start + k])
        start += k
    return out


def night(
    rng: random.Random,
    club: dict[str, tuple[str, int]],
    attend: float,
    playouts: int,
    top: int,
    seating: str = "random",
) -> list[tuple[list[str], object]]:
    """One club night: who comes, the tables, and each table's simulated game. Seating
    ``clustered``: players of like strength tend to share a table (sorted by strength plus
    noise, then cut into tables), as friends of a level do in a real club."""
    present = [p for p in club if rng.random() < attend]
    if len(present) < 3:
        present = rng.sample(list(club), 3)
    played = []
    seated = tables(rng, present)
    if seating == "clustered":
        ordered = sorted(present, key=lambda p: club[p][1] + rng.gauss(0, 0.75))
        seated, start = [], 0
        for size in sorted((len(t) for t in tables(rng, present)), reverse=True):
            seated.append(ordered[start : start + size])
            start += size
    for seats in seated:
        strategies = [club[p][0] for p in seats]
        game = simulate_game(seats, Rules(top=top), strategies, rng.random(), playouts=playouts)
        played.append((seats, game))
    return played


def league_games(seats: list[str], game: object, file: str, date: str) -> LeagueGame:
    rounds = game.rounds  # type: ignore[attr-defined]
    return game_of(
        file,
        seats,
        [r.scores for r in rounds],
        date=date,
        out=[r.winner for r in rounds],
        double_blank=[frozenset(p for p in seats if Tile(0, 0) in r.hands[p]) for r in rounds],
    )


# --- rankings and Kendall's tau ----------------------------------------------------------


def tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b of two score lists (higher = better in both)."""
    concordant = discordant = tx = ty = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denom = math.sqrt((concordant + discordant + tx) * (concordant + discordant + ty))
    return (concordant - discordant) / denom if denom else 0.0


#: The rankings compared: name -> (model, per, beta, rank by mu instead of the ordinal).
#: beta None is cf's choice: openskill's default per game, ROUND_BETA (4 x) per round.
VARIANTS = {
    "rating (cf: per game)": ("plackett-luce", "game", None, False),
    "rating per round (cf: --per round)": ("plackett-luce", "round", None, False),
    "rating per round, openskill's beta": ("plackett-luce", "round", 25 / 6, False),
    "rating per round, beta x8": ("plackett-luce", "round", 25 / 6 * 8, False),
    "rating per game, ranked by mu": ("plackett-luce", "game", None, True),
    **{f"rating per game, {m}": (m, "game", None, False) for m in MODELS if m != "plackett-luce"},
}  # fmt: skip


def scores(games: list[LeagueGame], club: dict[str, tuple[str, int]]) -> dict[str, list[float]]:
    """Each ranking's score per club player (higher = ranked higher); a player who has not
    played yet scores lowest (unrated, no average, no wins)."""
    names = list(club)
    out: dict[str, list[float]] = {}
    for label, (model, per, beta, by_mu) in VARIANTS.items():
        r = rate(games, model, per=per, beta=beta)
        value = {p.player: p.mu if by_mu else p.ordinal for p in r.players}
        out[label] = [value.get(p, -1e9) for p in names]
    points = dict.fromkeys(names, 0)
    rounds = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    for g in games:
        for p, t in g.totals.items():
            points[p] += t
            rounds[p] += len(g.rounds)
        for p in g.winners:
            wins[p] += 1
    out["average"] = [-points[p] / rounds[p] if rounds[p] else -1e9 for p in names]
    out["wins"] = [float(wins[p]) for p in names]
    return out


def simulate_leagues(  # type: ignore[no-untyped-def]
    leagues: int, nights: int, attend: float, playouts: int, top: int, seed: int, seating: str
):
    """Every league's games, night by night (cached in bench/out: the simulation is the
    slow part, and the rankings are compared on the same games)."""
    cache = OUT / f"leagues-{leagues}-{nights}-{attend}-{playouts}-{top}-{seed}-{seating}.pickle"
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    out = []
    for league in range(leagues):
        rng = random.Random(f"{seed}:{league}")
        by_night = []
        for k in range(1, nights + 1):
            by_night.append(
                [
                    league_games(seats, game, f"n{k}t{t}", f"2026-01-{k:02d}")
                    for t, (seats, game) in enumerate(
                        night(rng, CLUB, attend, playouts, top, seating)
                    )
                ]
            )
        out.append(by_night)
        print(f"league {league + 1}/{leagues} simulated", file=sys.stderr)
    OUT.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(pickle.dumps(out))
    return out


def run(  # type: ignore[no-untyped-def]
    leagues: int, nights: list[int], attend: float, playouts: int, top: int, seed: int,
    seating: str,
):  # fmt: skip
    truth = [float(s) for _, s in CLUB.values()]
    taus: dict[tuple[int, str], list[float]] = {}
    for by_night in simulate_leagues(leagues, max(nights), attend, playouts, top, seed, seating):
        for k in nights:
            games = [g for night_games in by_night[:k] for g in night_games]
            for name, s in scores(games, CLUB).items():
                taus.setdefault((k, name), []).append(tau_b(s, truth))
    return taus


#: The rankings that predict the next night's games.
PREDICTORS = {
    "rating (cf: per game)": ("plackett-luce", "game"),
    "rating per round (cf: --per round)": ("plackett-luce", "round"),
}


def predictions(  # type: ignore[no-untyped-def]
    leagues: int, nights: int, attend: float, playouts: int, top: int, seed: int, seating: str,
    first: int = 3,
):  # fmt: skip
    """Does each ranking predict the next game? From night ``first`` + 1 on, each game's
    finishing order (by total) against the order each ranking gave its players from the
    nights before (a player not yet seen: the middle, mu 25 or the league's average);
    Kendall's tau-b per game, averaged over all games of all leagues."""
    out: dict[str, list[float]] = {}
    for by_night in simulate_leagues(leagues, nights, attend, playouts, top, seed, seating):
        for k in range(first, nights):
            before = [g for night_games in by_night[:k] for g in night_games]
            ranked: dict[str, dict[str, float]] = {}
            for name, (model, per) in PREDICTORS.items():
                ranked[name] = {p.player: p.mu for p in rate(before, model, per=per).players}
            points: dict[str, int] = {}
            rounds: dict[str, int] = {}
            wins: dict[str, int] = {}
            for g in before:
                for p, t in g.totals.items():
                    points[p] = points.get(p, 0) + t
                    rounds[p] = rounds.get(p, 0) + len(g.rounds)
                for p in g.winners:
                    wins[p] = wins.get(p, 0) + 1
            mean = -sum(points.values()) / max(sum(rounds.values()), 1)
            for g in by_night[k]:
                actual = [-float(t) for t in g.totals.values()]
                guesses = {
                    **{n: [r.get(p, 25.0) for p in g.seating] for n, r in ranked.items()},
                    "average": [
                        -points[p] / rounds[p] if p in rounds else mean for p in g.seating
                    ],
                    "wins": [float(wins.get(p, 0)) for p in g.seating],
                }
                for name, guess in guesses.items():
                    out.setdefault(name, []).append(tau_b(guess, actual))
    return out


def prediction_report(found: dict[str, list[float]]) -> str:
    lines = [
        "| predictor | games | mean tau with the game's order | 95% CI |",
        "|---|---|---|---|",
    ]
    for name, v in found.items():
        mean = statistics.fmean(v)
        half = Z * statistics.stdev(v) / math.sqrt(len(v))
        lines.append(
            f"| {name} | {len(v)} | {mean:.3f} | [{mean - half:.3f}, {mean + half:.3f}] |"
        )
    return "\n".join(lines)


def report(taus: dict[tuple[int, str], list[float]], nights: list[int]) -> str:
    """The table: mean tau with its 95% interval, and in how many leagues each ranking's
    tau beat the average's and the wins' in the same league (paired)."""
    names = list(dict.fromkeys(n for _, n in taus))
    lines = [
        "| nights | ranking | mean tau | 95% CI | beats average | beats wins |",
        "|---|---|---|---|---|---|",
    ]
    for k in nights:
        for n in names:
            v = taus[(k, n)]
            mean = statistics.fmean(v)
            half = Z * statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else float("nan")
            paired = []
            for other in ("average", "wins"):
                if n == other:
                    paired.append("—")
                    continue
                base = taus[(k, other)]
                won = sum(a > b for a, b in zip(v, base, strict=True))
                lost = sum(a < b for a, b in zip(v, base, strict=True))
                paired.append(f"{won}:{lost}")
            lines.append(
                f"| {k} | {n} | {mean:.3f} | [{mean - half:.3f}, {mean + half:.3f}] | "
                f"{paired[0]} | {paired[1]} |"
            )
    return "\n".join(lines)


# --- the docs' example season ----------------------------------------------------------

SEASON = {
    "Ana": "pimc", "Ben": "greedy", "Carla": "smart", "Dan": "random",
    "Eva": "smart", "Félix": "greedy", "Gus": "random",
}  # fmt: skip


def write_season(folder: Path, nights: int = 8, seed: int = 2026) -> None:
    """A club's season as a scorekeeper writes it with ``cf new`` and ``cf add`` (each
    round's hands), one game file a night, 4 or 5 of the 7 members at the table."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(1, nights + 1):
        present = rng.sample(list(SEASON), rng.choice((4, 5)))
        game = simulate_game(
            present, Rules(top=6), [SEASON[p] for p in present], rng.random(), playouts=10
        )
        date = f"2026-{9 + (k - 1) // 4:02d}-{1 + 7 * ((k - 1) % 4):02d}"
        lines = [
            f"# bench/ratings.py --season: night {k} of the example club season",
            f"title: Club night {k}",
            f"date: {date}",
            "set: double-six",
            f"rules: {{starter_arms: {game.rules.starter_arms}, "
            f"double_blank: {game.rules.double_blank}}}",
            "players: [" + ", ".join(present) + "]",
            "rounds:",
        ]
        for r in game.rounds:
            hands = ", ".join(f'{p}: "{format_hand(r.hands[p])}"' for p in present)
            lines.append(f"  - hands: {{{hands}}}")
        (folder / f"night-{k:02d}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{nights} games written to {folder}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--leagues", type=int, default=30)
    ap.add_argument("--nights", default="5,10,20")
    ap.add_argument("--attend", type=float, default=0.75)
    ap.add_argument("--playouts", type=int, default=8, help="pimc's playouts per action")
    ap.add_argument("--top", type=int, default=6, help="the set: 6 for double-six")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--seating", choices=("random", "clustered"), default="random")
    ap.add_argument("--season", type=Path, help="write the example season to this folder")
    args = ap.parse_args()
    if args.season:
        write_season(args.season)
        return
    nights = sorted(int(n) for n in args.nights.split(","))
    start, cpu = time.perf_counter(), time.process_time()
    taus = run(args.leagues, nights, args.attend, args.playouts, args.top, args.seed, args.seating)
    print(report(taus, nights))
    print("\nThe next game, predicted from the nights before (from night 4 on):\n")
    found = predictions(
        args.leagues, max(nights), args.attend, args.playouts, args.top, args.seed, args.seating
    )
    print(prediction_report(found))
    print(
        f"\n{args.leagues} leagues, {len(CLUB)} players, attendance {args.attend}, "
        f"pimc {args.playouts} playouts, double-{args.top}, seed {args.seed}, "
        f"{args.seating} seating: "
        f"{time.perf_counter() - start:.0f} s wall, {time.process_time() - cpu:.0f} s CPU"
    )


if __name__ == "__main__":
    main()
