#!/usr/bin/env python
"""Trap photo set 4: sets 1-3's traps with small tiles, in a big frame. Deterministic.

    nice -n 10 .venv/bin/python bench/traps/set4.py [--out DIR] [--per-family N]

Small tiles in a big frame (a robot camera's view, a hand photographed from across the
table) are where the reader works with the fewest pixels a pip. This set takes
``--per-family`` photos (default 20) of every family of trap sets 1, 2 and 3 (which must
be drawn first, in bench/out/traps/set1..3: see README.md) and shrinks each onto a
1600 x 1200 or 2000 x 1500 canvas of its own table's colour, so that its tiles come out
20 to 35 pixels wide in the reader's 1,024-pixel working image (a pip 3 to 6 pixels
across). Truth and ``should_refuse`` are the source photo's. Writes DIR/img/<set>_<file>
and DIR/meta.json (family ``<set>_<family>``; notes: the source, the scale, the tile width
aimed at); DIR defaults to bench/out/traps/set4. Read it with read.py as any set.

Built in the thirty-second session from the independent review of the closer look at
small tiles (docs/photo-history.md), whose 660 such photos printed 43 wrong totals with
the reader as it was.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
TRAPS = ROOT / "bench" / "out" / "traps"

#: The median width of the tiles the reader outlines in sets 1-3, in pixels of its 1,024-px
#: working image, by set and by the source photo's long side (measured on the sets'
#: readings by the review that drew the first such photos).
TILE_WIDTH = {
    ("set1", 640): 59,
    ("set1", 1600): 128,
    ("set2", 640): 47,
    ("set2", 1600): 144,
    ("set3", 640): 46,
    ("set3", 1600): 157,
}

#: The tile widths aimed at in the working image, and the canvases.
AIM = (20.0, 35.0)
CANVASES = ((1600, 1200), (2000, 1500))


def shrunk(photo: np.ndarray, size: tuple[int, int], factor: float, rng) -> np.ndarray:
    """``photo`` scaled by ``factor`` and pasted at a random place on a canvas of ``size``
    filled with its border's median colour, a gentle gradient and grain, its edges
    feathered into it (no seam for the reader to take for a tile's edge)."""
    height, width = photo.shape[:2]
    small = cv2.resize(
        photo,
        (max(1, round(width * factor)), max(1, round(height * factor))),
        interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC,
    )
    sh, sw = small.shape[:2]
    cw, ch = size
    b = max(3, min(sh, sw) // 30)
    strips = (small[:b], small[-b:], small[:, :b], small[:, -b:])
    border = np.concatenate([s.reshape(-1, 3) for s in strips]).astype(np.float32)
    colour = np.median(border, axis=0)
    grain = max(2.0, min(float(border.std(axis=0).mean()), 10.0))
    yy, xx = np.mgrid[0:ch, 0:cw].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    gradient = ((xx / cw - 0.5) * np.cos(angle) + (yy / ch - 0.5) * np.sin(angle)) * rng.uniform(
        10, 30
    )
    noise = cv2.GaussianBlur(rng.normal(0, grain, (ch, cw)).astype(np.float32), (3, 3), 0)
    canvas = colour + (gradient + noise)[..., None] + rng.normal(0, 2, (ch, cw, 3))
    x0 = int(rng.integers(0, cw - sw + 1))
    y0 = int(rng.integers(0, ch - sh + 1))
    feather = max(4, min(sh, sw) // 12)
    across = np.minimum(np.arange(sw), np.arange(sw)[::-1])[None, :]
    down = np.minimum(np.arange(sh), np.arange(sh)[::-1])[:, None]
    alpha = np.clip(np.minimum(across, down).astype(np.float32) / feather, 0, 1)[..., None]
    region = canvas[y0 : y0 + sh, x0 : x0 + sw]
    canvas[y0 : y0 + sh, x0 : x0 + sw] = alpha * small + (1 - alpha) * region
    return np.clip(canvas, 0, 255).astype(np.uint8)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=TRAPS / "set4", help="set directory")
    ap.add_argument("--per-family", type=int, default=20, help="photos per source family")
    args = ap.parse_args()
    img = args.out / "img"
    img.mkdir(parents=True, exist_ok=True)
    meta = []
    for set_index, name in enumerate(("set1", "set2", "set3")):
        source = TRAPS / name / "meta.json"
        if not source.exists():
            raise SystemExit(f"{source} is missing: draw trap set {name} first (README.md)")
        entries = json.loads(source.read_text())
        families = list(dict.fromkeys(e["family"] for e in entries))
        for family_index, family in enumerate(families):
            rng = np.random.default_rng([4, set_index, family_index])
            of_family = [e for e in entries if e["family"] == family]
            picked = rng.choice(len(of_family), min(args.per_family, len(of_family)), False)
            for i in sorted(int(k) for k in picked):
                entry = of_family[i]
                photo = cv2.imread(str(TRAPS / name / "img" / entry["file"]))
                size = CANVASES[int(rng.integers(len(CANVASES)))]
                aim = float(rng.uniform(*AIM))
                width = TILE_WIDTH[(name, max(entry["size"]))]
                factor = float(np.clip(aim * size[0] / (1024 * width), 0.25, 1.0))
                out = f"{name}_{entry['file']}"
                cv2.imwrite(str(img / out), shrunk(photo, size, factor, rng))
                meta.append(
                    {
                        "file": out,
                        "family": f"{name}_{family}",
                        "truth": entry["truth"],
                        "top": entry["top"],
                        "should_refuse": entry["should_refuse"],
                        "size": list(size),
                        "notes": {
                            "source": f"{name}/{entry['file']}",
                            "factor": round(factor, 3),
                            "tile_px": round(aim, 1),
                        },
                    }
                )
            print(f"{name}_{family:24s} {len(picked):3d} photos", flush=True)
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1))
    print(f"{len(meta)} photos -> {args.out / 'meta.json'}")


if __name__ == "__main__":
    main()
