"""Generate a league's archive of complete game files with ``cf simulate``, fixed seed.

    .venv/bin/python bench/gen_archive.py            # -> bench/out/archive/game-NNN.yaml

Each file is what ``cf simulate`` writes (the same library calls, in one process so that the
archive is written in seconds); its header comment is the ``cf simulate`` command line that
writes it again byte for byte, and ``--check N`` runs that command as a subprocess for the
first N files and compares. Games alternate 5 and 6 players drawn from a league of 12, all
seats greedy or a mix of greedy and random, double-nine, default rules. The defaults give
150 games and more than 60,000 moves; the totals are printed and checked.
"""

from __future__ import annotations

import argparse
import random
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cf.commands.simulate import command_line  # noqa: E402
from cf.play.simulate import simulate_game  # noqa: E402
from cf.record.emit import game_yaml  # noqa: E402
from cf.rules import Rules  # noqa: E402

OUT = ROOT / "bench" / "out" / "archive"
LEAGUE = ["Ana", "Ben", "Carla", "Dan", "Eva", "Fede", "Gala", "Hugo", "Inés", "Juan", "Kira"]
LEAGUE.append("Luis")
MIN_GAMES = 100
MIN_MOVES = 60_000


def plan(games: int, seed: int) -> list[tuple[list[str], list[str], int]]:
    """(names, strategies, game seed) of every game: a pure function of ``seed``."""
    rng = random.Random(seed)
    out = []
    for i in range(games):
        count = 5 if i % 2 == 0 else 6
        names = rng.sample(LEAGUE, count)
        if i % 3 == 2:
            seats = [rng.choice(["greedy", "random"]) for _ in names]
        else:
            seats = ["greedy"] * count
        out.append((names, seats, seed * 1000 + i))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--check",
        type=int,
        default=3,
        metavar="N",
        help="re-run `cf simulate` as a subprocess for the first N games and compare",
    )
    args = parser.parse_args()

    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    rules = Rules(top=9)
    width = len(str(args.games))
    total_moves = total_rounds = total_bytes = 0
    written: list[tuple[Path, str]] = []
    for i, (names, seats, game_seed) in enumerate(plan(args.games, args.seed), start=1):
        game = simulate_game(names, rules, seats, game_seed)
        command = command_line(names, rules, seats, game_seed, None)
        text = game_yaml(game, command)
        path = args.out / f"game-{i:0{width}d}.yaml"
        path.write_text(text, encoding="utf-8")
        written.append((path, command))
        total_rounds += len(game.rounds)
        total_moves += sum(len(r.moves) for r in game.rounds)
        total_bytes += len(text.encode())

    for path, command in written[: args.check]:
        argv = shlex.split(command)
        argv[0] = str(Path(sys.executable).with_name("cf"))
        again = subprocess.run(argv, capture_output=True, check=True).stdout
        if again != path.read_bytes():
            print(f"MISMATCH: {command} does not write {path} again", file=sys.stderr)
            return 1

    print(
        f"{args.games} games, {total_rounds} rounds, {total_moves} moves, "
        f"{total_bytes / 2**20:.1f} MiB in {_shown(args.out)}"
    )
    if args.check:
        print(f"the first {min(args.check, args.games)} file(s) re-made by `cf simulate`: same")
    if args.games >= MIN_GAMES and total_moves < MIN_MOVES:
        print(f"fewer than {MIN_MOVES} moves: raise --games", file=sys.stderr)
        return 1
    return 0


def _shown(path: Path) -> Path:
    try:
        return path.resolve().relative_to(ROOT)
    except ValueError:  # --out outside the repository
        return path


if __name__ == "__main__":
    sys.exit(main())
