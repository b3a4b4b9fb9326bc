"""The photo reader's networks against the classical pipeline, per synthetic family and
per real-photo source (docs/photo.md's model card quotes the figures).

    python bench/photo_nets.py [--hands N] [--real ../shared/photos] [--only real|synthetic]
                               [--models DIR]

For each synthetic family of :mod:`cf.photo.scenes` (N photos each, seeds unseen in
training, at most 15 tiles) and each real-photo source: images exactly right, wrong
(read without refusal, total wrong), refused, and tiles read right, for three readers —
``classical`` (:mod:`cf.photo.reader`), ``nets`` (:mod:`cf.photo.nets` alone) and
``combined`` (what ``cf score --photo`` runs: :mod:`cf.photo.combined`). Real photos are
for evaluation only; the held-out sources of bench/photo.py are skipped.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2

cv2.setNumThreads(1)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cf.photo import combined, load_image, nets, reader  # noqa: E402
from cf.photo.scenes import FAMILIES, render_family  # noqa: E402
from cf.tiles import Tile, hand_points  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HELD_OUT = ("new07", "new09")
SETS = (6, 9, 12, 15)

READERS = {
    "classical": reader.read_hand,
    "nets": lambda image, top: nets.reading(image, top, reader.DEFAULT_MIN_CONFIDENCE),
    "combined": combined.read_hand,
}


class Tally:
    def __init__(self) -> None:
        self.n = self.exact = self.wrong = self.refused = self.tiles = self.right = 0
        self.seconds = 0.0

    def add(self, truth: list[Tile], reading, seconds: float) -> None:
        self.n += 1
        self.seconds += seconds
        self.tiles += len(truth)
        self.right += sum((Counter(truth) & Counter(reading.tiles)).values())
        if not reading.ok or not reading.reads:
            self.refused += 1
        elif sorted(reading.tiles) == sorted(truth):
            self.exact += 1
        elif hand_points(reading.tiles) != hand_points(truth):
            self.wrong += 1

    def line(self) -> str:
        n = max(self.n, 1)
        return (
            f"exact {self.exact / n:6.1%}  wrong {self.wrong / n:5.1%}  "
            f"refused {self.refused / n:6.1%}  tiles {self.right / max(self.tiles, 1):6.1%}  "
            f"{self.seconds / n:.2f} s"
        )


def run(name: str, cases, which: list[str]) -> dict[str, Tally]:
    tallies = {r: Tally() for r in which}
    for truth, image, top in cases:
        for r in which:
            start = time.process_time()
            reading = READERS[r](image, top)
            tallies[r].add(truth, reading, time.process_time() - start)
    for r in which:
        print(f"{name:<16} {tallies[r].n:>3}  {r:<9} {tallies[r].line()}", flush=True)
    return tallies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20, help="synthetic photos per family")
    parser.add_argument("--real", default=str(ROOT.parent / "shared" / "photos"))
    parser.add_argument("--only", choices=("real", "synthetic"))
    parser.add_argument("--readers", default="classical,nets,combined")
    parser.add_argument(
        "--models", type=Path, help="read with the nets in DIR (a training run's --out)"
    )
    args = parser.parse_args()
    if args.models:
        nets.MODELS = args.models
    which = args.readers.split(",")
    totals = {r: Tally() for r in which}

    def fold(part: dict[str, Tally]) -> None:
        for r, t in part.items():
            for key in ("n", "exact", "wrong", "refused", "tiles", "right", "seconds"):
                setattr(totals[r], key, getattr(totals[r], key) + getattr(t, key))

    if args.only != "real":
        for family in FAMILIES:
            cases = []
            for seed in range(args.hands):
                photo = render_family(900_000 + seed, family)
                cases.append((photo.tiles, photo.image, photo.top))
            fold(run(family, cases, which))
        for r in which:
            print(f"{'synthetic, all':<16} {totals[r].n:>3}  {r:<9} {totals[r].line()}")
    real = Path(args.real)
    if args.only != "synthetic" and (real / "labels.tsv").is_file():
        by_source: dict[str, list] = {}
        with open(real / "labels.tsv", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                source = row["file"].split("-")[0]
                if row.get("certainty") != "sure" or source in HELD_OUT:
                    continue
                truth = [Tile.parse(t) for t in row["tiles"].split()]
                high = max(max(t.high, t.low) for t in truth)
                top = next(s for s in SETS if s >= high)
                image = load_image(str(real / row["file"]))
                by_source.setdefault(source, []).append((truth, image, top))
        totals = {r: Tally() for r in which}
        for source, cases in sorted(by_source.items()):
            fold(run(source, cases, which))
        for r in which:
            print(f"{'real, all':<16} {totals[r].n:>3}  {r:<9} {totals[r].line()}")


if __name__ == "__main__":
    main()
