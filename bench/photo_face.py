"""How much of a tile the tiles net's face region spans, to set ``cf.photo.nets.FACE_ACROSS``
and ``FACE_ALONG`` after the tiles net is retrained (docs/photo.md, model card).

    python bench/photo_face.py [--models DIR] [--hands N]

On N synthetic scene photos of six families (seeds 960000+, never trained on), each face
region the net takes for one tile is matched to the true tile under its centre; the
medians of its short and long sides over the true tile's width and length are printed.
Their ratio to another net's medians is the factor by which the constants change: the
outline a region is grown to must stay the tile's, whatever the net's habit at the rim.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np

cv2.setNumThreads(1)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cf.photo import nets  # noqa: E402
from cf.photo.scenes import render_family  # noqa: E402

FAMILIES = ("ivory", "colour_pips", "block", "paper", "close", "glare")


def sides(box: np.ndarray) -> tuple[float, float]:
    """A four-cornered outline's width and length: the means of its opposite sides."""
    a = (np.linalg.norm(box[0] - box[1]) + np.linalg.norm(box[2] - box[3])) / 2
    b = (np.linalg.norm(box[1] - box[2]) + np.linalg.norm(box[3] - box[0])) / 2
    return float(min(a, b)), float(max(a, b))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default=str(nets.MODELS), help="folder of tiles.onnx")
    parser.add_argument("--hands", type=int, default=8, help="photos per family")
    args = parser.parse_args()
    nets.MODELS = Path(args.models)
    nets.FACE_ACROSS, nets.FACE_ALONG = 1.0, 1.0  # the region itself, not grown
    across, along = [], []
    for family in FAMILIES:
        for seed in range(960_000, 960_000 + args.hands):
            photo = render_family(seed, family)
            found, _odd = nets.tile_outlines(photo.image)
            for corners in found:
                for box in photo.boxes:
                    box = np.asarray(box, np.float64)
                    width, length = sides(box)
                    if np.linalg.norm(box.mean(0) - corners.mean(0)) < 0.2 * width:
                        w, l_ = sides(corners)
                        across.append(w / width)
                        along.append(l_ / length)
    print(
        f"{args.models}: {len(across)} tiles, face region / tile: "
        f"across {np.median(across):.3f}, along {np.median(along):.3f}"
    )


if __name__ == "__main__":
    main()
