"""Accuracy and speed of ``cf score --photo``'s reader (docs/photo.md quotes the figures).

    python bench/photo.py [--hands N] [--real ../shared/photos] [--only real|synthetic]

Per synthetic family (N hands each, at most 15 tiles) and per source of the labelled real
photos (the file name's prefix; rows marked ``uncertain`` are left out): images exactly
right, total right, wrong (read without refusal, total wrong: the one outcome that must
not happen), refused; tile recall and precision; seconds per image (load + read, one
core). Then seconds per image at 12 MP and at 640 px.

Real photos are for evaluation only: never pick a threshold by looking at one of them.
The sources in :data:`HELD_OUT` are kept out of sight until the end of a change (so that
the figure on them tells whether the reader generalises): they are read and printed only
with ``--final``.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2

cv2.setNumThreads(1)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cf.photo import load_image, read_hand  # noqa: E402
from cf.photo.synth import render_hand  # noqa: E402
from cf.tiles import Tile, hand_points  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

#: Real-photo sources not looked at until the end of a change (``--final``).
HELD_OUT = ("new07", "new09")

#: Synthetic families: name -> render_hand keyword arguments (seed and size vary per hand).
FAMILIES: dict[str, dict[str, Any]] = {
    "level 0 (clean)": {"difficulty": 0},
    "level 1 (normal)": {"difficulty": 1},
    "level 2 (hard)": {"difficulty": 2},
    "black d-6": {"top": 6, "pip_style": "black"},
    "colour d-12": {"top": 12, "pip_style": "colour"},
    "touching block": {"layout": "block"},
    "row": {"layout": "row"},
}

#: The sets a photo's tiles can come from, smallest first: the set is what a player gives
#: with --set, so it follows from the labels' largest half.
SETS = (6, 9, 12, 15, 18)


def score(cases: list[tuple[list[Tile], Any, float]]) -> dict[str, float]:
    """``cases``: (truth tiles, reading, seconds) triples -> the figures."""
    n = exact = total_right = wrong = refused = 0
    true_tiles = read_tiles = correct = 0
    seconds = 0.0
    for truth, reading, spent in cases:
        n += 1
        seconds += spent
        truth_c, read_c = Counter(truth), Counter(reading.tiles)
        true_tiles += len(truth)
        read_tiles += len(reading.tiles)
        correct += sum((truth_c & read_c).values())
        if not reading.ok:
            refused += 1
        elif sorted(reading.tiles) == sorted(truth):
            exact += 1
            total_right += 1
        elif hand_points(reading.tiles) == hand_points(truth):
            total_right += 1
        else:
            wrong += 1
    return {
        "images": n,
        "exact": exact / n if n else 0,
        "total_right": total_right / n if n else 0,
        "wrong": wrong / n if n else 0,
        "refused": refused / n if n else 0,
        "recall": correct / true_tiles if true_tiles else 0,
        "precision": correct / read_tiles if read_tiles else 1,
        "seconds": seconds / n if n else 0,
    }


def show(name: str, figures: dict[str, float]) -> None:
    print(
        f"{name:<20} {figures['images']:>4.0f}  exact {figures['exact']:6.1%}  "
        f"total right {figures['total_right']:6.1%}  wrong {figures['wrong']:5.1%}  "
        f"refused {figures['refused']:6.1%}  recall {figures['recall']:6.1%}  "
        f"precision {figures['precision']:6.1%}  {figures['seconds']:.2f} s/image",
        flush=True,
    )


def synthetic(hands: int) -> None:
    """Each family: ``hands`` hands of 1..15 tiles, alternating 640 px and 1600 px."""
    for number, (name, kwargs) in enumerate(FAMILIES.items()):
        cases = []
        for seed in range(hands):
            size = (640, 480) if seed % 2 else (1600, 1200)
            args = {"difficulty": seed % 3, **kwargs}
            photo = render_hand(1000 * number + seed, size=size, count=1 + seed % 15, **args)
            start = time.process_time()
            reading = read_hand(photo.image, photo.top)
            cases.append((photo.tiles, reading, time.process_time() - start))
        show(name, score(cases))


def real_rows(folder: Path, final: bool) -> list[dict[str, str]]:
    """The ``sure`` rows of ``labels.tsv``, held-out sources only with ``final``."""
    with open(folder / "labels.tsv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [
        r
        for r in rows
        if r["certainty"] == "sure" and (final or not r["file"].startswith(HELD_OUT))
    ]


def set_of(tiles: list[Tile]) -> int:
    """The smallest standard set that holds ``tiles``."""
    largest = max((t.high for t in tiles), default=0)
    return next(s for s in SETS if largest <= s)


def real(folder: Path, final: bool) -> None:
    by_source: dict[str, list[tuple[list[Tile], Any, float]]] = defaultdict(list)
    for row in real_rows(folder, final):
        truth = [Tile.parse(t) for t in row["tiles"].split()]
        start = time.process_time()
        reading = read_hand(load_image(str(folder / row["file"])), set_of(truth))
        by_source[row["file"].split("-")[0]].append((truth, reading, time.process_time() - start))
    everything = []
    for source in sorted(by_source):
        show(f"real {source}", score(by_source[source]))
        everything.extend(by_source[source])
    seen = [c for s, cases in by_source.items() if s not in HELD_OUT for c in cases]
    show("real (not held out)", score(seen))
    if final:
        held = [c for s, cases in by_source.items() if s in HELD_OUT for c in cases]
        show("real (held out)", score(held))
        show("real (all sure)", score(everything))
    else:
        print(f"held-out sources {', '.join(HELD_OUT)}: not read (--final reads them)")


def speed() -> None:
    for name, size in (("12 MP", (4000, 3000)), ("640 px", (640, 480))):
        photo = render_hand(7, size=size, difficulty=1, count=8)
        _ok, data = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        path = Path("/tmp") / f"cf-bench-{size[0]}.jpg"
        path.write_bytes(data.tobytes())
        runs = 3
        start = time.process_time()
        for _ in range(runs):
            read_hand(load_image(str(path)), photo.top)
        print(
            f"{name:<7} {(time.process_time() - start) / runs:.2f} s CPU per image "
            "(decode + read, one core)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40, help="synthetic hands per family")
    parser.add_argument("--real", default=str(ROOT.parent / "shared" / "photos"))
    parser.add_argument("--only", choices=("real", "synthetic", "speed"))
    parser.add_argument(
        "--final",
        action="store_true",
        help=f"also read the held-out sources ({', '.join(HELD_OUT)}): at the end only",
    )
    args = parser.parse_args()
    if args.only in (None, "synthetic"):
        synthetic(args.hands)
    if args.only in (None, "real"):
        folder = Path(args.real)
        if (folder / "labels.tsv").is_file():
            real(folder, args.final)
        else:
            print(f"real photos: {folder} is not here, skipped")
    if args.only in (None, "speed"):
        speed()


if __name__ == "__main__":
    main()
