"""CPU time of the whole ``cf score --photo PHOTO`` process on a 12 MP JPEG, and per stage.

    .venv/bin/python bench/photo_speed.py [--runs 7] [--old REV]

Makes 12 MP JPEGs in bench/out/: a synthetic hand (``cf.photo.synth.render_hand``, seed 7,
8 tiles, 4000 x 3000, as bench/photo.py's speed section) and, when ../shared/photos is
there, two real photos upscaled to 12 MP (new01-12.jpg, 5 tiles; src7-06.jpg, 9 tiles).
For each, ``--runs`` fresh processes of ``cf score --photo FILE``:

- whole process: user + sys CPU seconds of the child (``os.wait4``), start-up, imports,
  decoding, reading and the networks (a check of every reading, or a second one) included;
- per stage: the same command in a process that times each stage of the reader (CPU
  seconds, ``resource.getrusage``).

Then one process reading the three photos: CPU per photo when several share the start-up.
Figures are the minimum over the runs (CPU time, not wall time: the machine is shared, and
a busy machine adds to both, so the minimum is the least disturbed). Each tree's bytecode
is compiled by a first run that is not counted, as ``pip install`` compiles an installed
cf's. With ``--old REV``
the same runs alternate with a checkout of REV (``git worktree`` under bench/out/), for
a before/after table. Target (issue 19, item 4): at most 0.5 s CPU per 12 MP photo.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from _worktree import checkout

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
REAL = ROOT.parent / "shared" / "photos"

#: Runs ``cf`` from the tree given first, whatever the virtualenv's editable install says.
LAUNCH = """
import sys
tree = sys.argv.pop(1)
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f)]
sys.path.insert(0, tree)
sys.argv[0] = "cf"
STAGES
from cf._entry import main
main()
"""

#: Wraps the reader's stages with CPU timers (the names of the split reader, and of the one
#: file it was before), then prints them as JSON on stderr when the process ends.
STAGES = """
import atexit, json, resource
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
started = cpu()
times = {"python start-up": started}
import cf.cli, cf.commands.score
times["cf start-up (typer, the score command)"] = cpu() - started
t = cpu()
import cf.photo, cf.photo.annotate, cf.commands.score_photo
times["import cf.photo (numpy, OpenCV)"] = cpu() - t
from cf.photo import combined, reader
def timed(fn, label):
    def run(*a, **k):
        t = cpu()
        try:
            return fn(*a, **k)
        finally:
            times[label] = times.get(label, 0.0) + cpu() - t
    return run
combined.load_reduced = timed(combined.load_reduced, "decode the JPEG (reduced)")
combined.nets.reading = timed(combined.nets.reading, "networks (check or second reading)")
if hasattr(reader, "reduced"):
    # Since the twenty-fifth session the tiles net's view is taken once, outside
    # nets.reading, and the working image scaled once, outside read_hand.
    combined.nets.seen = timed(combined.nets.seen, "networks (check or second reading)")
    reader.reduced = timed(reader.reduced, "read_hand")
STEPS = [
    (("tile_mask", "_tile_mask"), "face mask, lighting"),
    (("regions_and_dividers", "_regions_and_dividers"), "dividers"),
    (("tile_outlines", "_tile_outlines"), "outlines"),
    (("read_candidates", "_read_candidates"), "read each tile (warp, Lab, pips)"),
    (("uncovered", "_uncovered"), "uncovered and missed faces"),
    (("missed_faces", "_missed_faces"), "uncovered and missed faces"),
]
for names, label in STEPS:
    for name in names:
        if hasattr(reader, name):
            setattr(reader, name, timed(getattr(reader, name), label))
reader.read_hand = timed(reader.read_hand, "read_hand")
def report():
    # What read_hand spends outside its steps: scaling the photo to the working size,
    # blurring it, converting it to Lab (and sorting, boxes, the duplicate check).
    steps = sum(times.get(label, 0.0) for _, label in STEPS[:-1])
    times["working image: scale, blur, Lab"] = times.pop("read_hand", 0.0) - steps
    times["total"] = cpu()
    sys.stderr.write("STAGES " + json.dumps(times) + "\\n")
atexit.register(report)
"""


def make_photos() -> dict[str, Path]:
    """The 12 MP JPEGs to read, made once in bench/out/."""
    import cv2

    from cf.photo.synth import render_hand

    OUT.mkdir(parents=True, exist_ok=True)
    photos = {}
    path = OUT / "photo-speed-synthetic-12mp.jpg"
    if not path.exists():
        image = render_hand(7, size=(4000, 3000), difficulty=1, count=8).image
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    photos["synthetic, 8 tiles"] = path
    for name, tiles in (("new01-12.jpg", 5), ("src7-06.jpg", 9)):
        if not (REAL / name).exists():
            continue
        path = OUT / f"photo-speed-{Path(name).stem}-12mp.jpg"
        if not path.exists():
            image = cv2.imread(str(REAL / name))
            h, w = image.shape[:2]
            size = (4000, 3000) if w > h else (3000, 4000)
            big = cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)
            cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
        photos[f"{name} upscaled, {tiles} tiles"] = path
    return photos


def run(tree: Path, files: list[Path], stages: bool) -> tuple[float, dict[str, float]]:
    """One ``cf score --photo FILES --set 12`` process from ``tree``: its CPU seconds and,
    with ``stages``, the reader's per-stage seconds."""
    code = LAUNCH.replace("STAGES", STAGES if stages else "")
    cmd = [sys.executable, "-c", code, str(tree), "score", "--photo", *map(str, files)]
    # As an installed cf runs: pip compiles the bytecode at install, so no process
    # compiles cf's modules again (a shell that sets PYTHONDONTWRITEBYTECODE would make
    # every run compile them all: 0.05-0.08 s more).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.Popen(
        [*cmd, "--set", "12"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tree,
        env=env,
    )
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped by wait4
    found = [line for line in err.splitlines() if line.startswith("STAGES ")]
    return usage.ru_utime + usage.ru_stime, json.loads(found[-1][7:]) if found else {}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--old", help="also run this revision, alternating (e.g. 9a99ae4)")
    ap.add_argument("--json", help="also write the figures to this file")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    photos = make_photos()
    trees = {"new": ROOT}
    old = OUT / "photo-speed-old"
    if a.old:
        trees = {"old": checkout(a.old, old), "new": ROOT}
    result: dict[str, dict] = {}
    try:
        for tree in trees.values():  # compiles the bytecode, once, as installing does
            first = list(photos.values())[:1]
            run(tree, first, False)
            run(tree, first, True)
            run(tree, list(photos.values()), False)
        for label, path in [*photos.items(), ("all three in one process", None)]:
            files = list(photos.values()) if path is None else [path]
            whole: dict[str, list[float]] = {t: [] for t in trees}
            stage: dict[str, dict[str, list[float]]] = {t: {} for t in trees}
            for rep in range(a.runs):
                for name in trees if rep % 2 == 0 else reversed(list(trees)):
                    whole[name].append(run(trees[name], files, False)[0])
                    if path is not None:
                        for k, v in run(trees[name], files, True)[1].items():
                            stage[name].setdefault(k, []).append(v)
            per = len(files)
            print(f"\n{label}: CPU s per photo, whole process (min, median of {a.runs})")
            for name in trees:
                lo, mid = min(whole[name]) / per, statistics.median(whole[name]) / per
                print(f"  {name:<4} {lo:.3f}  {mid:.3f}")
            if path is not None:
                keys = list(dict.fromkeys(k for t in trees for k in stage[t]))
                print(f"  {'stage (min CPU s)':<40}" + "".join(f"{t:>8}" for t in trees))
                for k in keys:
                    cells = "".join(
                        f"{min(stage[t][k]):8.3f}" if stage[t].get(k) else f"{'-':>8}"
                        for t in trees
                    )
                    print(f"  {k:<40}{cells}")
            result[label] = {"whole": whole, "stages": stage, "photos": per}
    finally:
        if a.old:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT)
    if a.json:
        Path(a.json).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
