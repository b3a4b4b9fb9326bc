"""Accuracy and speed of ``cf score --photo``'s reader (docs/photo.md quotes the figures).

    python bench/photo.py [--hands N] [--real ../shared/photos]

For N synthetic hands per difficulty level (0 clean, 1 normal, 2 hard; at most 15 tiles),
N black-pip double-six hands (levels mixed) and the labelled real photos when the folder
is there: images exactly right, total
right, wrong (read without refusal, total wrong: the one outcome that must not happen),
refused; tile recall and precision; then seconds per image at 12 MP and at 640 px, on one
core.
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

from cf.photo import load_image, read_hand  # noqa: E402
from cf.photo.synth import render_hand  # noqa: E402
from cf.tiles import Tile, hand_points  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def score(cases) -> dict[str, float]:
    """``cases``: (truth tiles, reading) pairs → the figures."""
    n = exact = total_right = wrong = refused = 0
    true_tiles = read_tiles = correct = 0
    for truth, reading in cases:
        n += 1
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
    }


def show(name: str, figures: dict[str, float]) -> None:
    print(
        f"{name:<22} {figures['images']:>4.0f} images  exact {figures['exact']:6.1%}  "
        f"total right {figures['total_right']:6.1%}  wrong {figures['wrong']:5.1%}  "
        f"refused {figures['refused']:6.1%}  tile recall {figures['recall']:6.1%}  "
        f"precision {figures['precision']:6.1%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=60, help="synthetic hands per level")
    parser.add_argument("--real", default=str(ROOT.parent / "shared" / "photos"))
    args = parser.parse_args()

    for level in (0, 1, 2):
        cases = []
        for seed in range(args.hands):
            size = (640, 480) if seed % 2 else (1600, 1200)
            photo = render_hand(
                1000 * level + seed, size=size, difficulty=level, count=1 + seed % 15
            )
            cases.append((photo.tiles, read_hand(photo.image, photo.top)))
        show(f"synthetic level {level}", score(cases))
    # What the release is judged on most: black pips on ivory double-six tiles.
    cases = []
    for seed in range(args.hands):
        size = (640, 480) if seed % 2 else (1600, 1200)
        photo = render_hand(
            5000 + seed,
            size=size,
            difficulty=seed % 3,
            count=1 + seed % 15,
            top=6,
            pip_style="black",
        )
        cases.append((photo.tiles, read_hand(photo.image, photo.top)))
    show("synthetic black d-6", score(cases))

    real = Path(args.real)
    if (real / "labels.tsv").is_file():
        cases = []
        with open(real / "labels.tsv", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                top = 6 if row["file"].startswith("src3") else 12
                truth = [Tile.parse(t) for t in row["tiles"].split()]
                cases.append((truth, read_hand(load_image(str(real / row["file"])), top)))
        show("real photos", score(cases))
    else:
        print(f"real photos: {real} is not here, skipped")

    for name, size in (("12 MP", (4000, 3000)), ("640 px", (640, 480))):
        photo = render_hand(7, size=size, difficulty=1, count=8)
        _ok, data = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        path = Path("/tmp") / f"cf-bench-{size[0]}.jpg"
        path.write_bytes(data.tobytes())
        runs = 3
        start = time.perf_counter()
        for _ in range(runs):
            read_hand(load_image(str(path)), photo.top)
        print(
            f"{name:<7} {(time.perf_counter() - start) / runs:.2f} s per image "
            "(decode + read, one core)"
        )


if __name__ == "__main__":
    main()
