"""Every reading of the photo reader as JSON, to prove that a change to it changed no reading.

    .venv/bin/python bench/photo_readings.py bench/out/readings-before.json   # before
    .venv/bin/python bench/photo_readings.py bench/out/readings-after.json    # after
    cmp bench/out/readings-before.json bench/out/readings-after.json

For each labelled real photo of ../shared/photos (``read_photo`` with the set its labels
need), each of ``--hands`` synthetic hands per family of bench/photo.py (``read_hand``) and
two 12 MP JPEGs (``read_photo``): the classical reader's reading and the combined one (the
networks' check of it, or their reading where it refuses), with every tile, confidence, outline,
candidate and reason. A speed-up or a refactor must leave the file byte for byte the same.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

import cv2

cv2.setNumThreads(1)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from photo import FAMILIES, SETS  # noqa: E402

from cf.photo import combined, reader  # noqa: E402
from cf.photo.synth import render_hand  # noqa: E402
from cf.tiles import Tile  # noqa: E402


def as_json(reading: Any) -> dict[str, Any]:
    return {
        "size": [reading.width, reading.height],
        "reads": [[str(r.tile), r.confidence, r.box] for r in reading.reads],
        "unreadable": [
            [u.box, [str(t) for t in u.candidates], u.reason, u.pips] for u in reading.unreadable
        ],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="the JSON file to write")
    ap.add_argument("--hands", type=int, default=5, help="synthetic hands per family")
    ap.add_argument("--real", default=str(ROOT.parent / "shared" / "photos"))
    a = ap.parse_args()
    out: dict[str, Any] = {}
    folder = Path(a.real)
    if (folder / "labels.tsv").is_file():
        with open(folder / "labels.tsv", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                tiles = [Tile.parse(t) for t in row["tiles"].split()]
                top = next(s for s in SETS if max((t.high for t in tiles), default=0) <= s)
                path = str(folder / row["file"])
                out[f"real/{row['file']}/classical"] = as_json(reader.read_photo(path, top))
                out[f"real/{row['file']}/combined"] = as_json(combined.read_photo(path, top))
    for number, (name, kwargs) in enumerate(FAMILIES.items()):
        for seed in range(a.hands):
            size = (640, 480) if seed % 2 else (1600, 1200)
            args = {"difficulty": seed % 3, **kwargs}
            photo = render_hand(1000 * number + seed, size=size, count=1 + seed % 15, **args)
            key = f"synthetic/{name}/{seed}"
            out[f"{key}/classical"] = as_json(reader.read_hand(photo.image, photo.top))
            out[f"{key}/combined"] = as_json(combined.read_hand(photo.image, photo.top))
    big = ROOT / "bench" / "out"
    big.mkdir(parents=True, exist_ok=True)
    for seed in (7, 8):
        photo = render_hand(seed, size=(4000, 3000), difficulty=1, count=8)
        path = big / f"photo-readings-12mp-{seed}.jpg"
        cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        out[f"12 MP/{seed}/classical"] = as_json(reader.read_photo(str(path), photo.top))
        out[f"12 MP/{seed}/combined"] = as_json(combined.read_photo(str(path), photo.top))
    Path(a.out).write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{len(out)} readings written to {a.out}")


if __name__ == "__main__":
    main()
