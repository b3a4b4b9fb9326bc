#!/usr/bin/env python
"""Read every photo of a trap set (set1.py or set2.py) with one checkout's reader.

    [TREE=/path/to/checkout] nice -n 10 .venv/bin/python bench/traps/read.py SETDIR OUT.jsonl
        [--meta FILE] [--family F ...] [--limit N] [--summary-only]

SETDIR holds img/ and meta.json (--meta: another file, e.g. SETDIR/meta_partial.json after
a trial with --n; by default meta.json, else meta_partial.json). TREE: the checkout whose
cf reads (default: the repository this file lives in); the script prints where cf was
imported from and stops if it is not TREE.

Resumable: photos already in OUT.jsonl are skipped (delete the file to start over). One
JSON line per photo: {file, family, outcome, strict, read, truth, should_refuse, ok,
points_read, points_truth, seconds}. outcome: "refused" (not r.ok), "exact" (sorted tiles =
truth and not should_refuse), "wrong" (r.ok and (should_refuse or hand points differ)),
"total" (points right, tiles differ), "lucky" (should_refuse, yet read with confidence and
its points equal the full truth's, the cut or hidden tile included: not a wrong total,
though the photo gave no sure way to it; strict counts it as wrong), "error" (the reader
raised). Points: cf.tiles.hand_points (0-0 counts 50).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

TREE = str(Path(os.environ.get("TREE") or Path(__file__).resolve().parents[2]).resolve())
sys.path.insert(0, TREE)

import cv2  # noqa: E402

cv2.setNumThreads(1)

import cf  # noqa: E402
from cf.photo import read_hand  # noqa: E402
from cf.tiles import Tile, hand_points  # noqa: E402

print("cf from", cf.__file__, flush=True)
if not str(Path(cf.__file__).resolve()).startswith(TREE + os.sep):
    sys.exit(f"cf was imported from {cf.__file__}, not from TREE={TREE}")

ORDER = ["exact", "total", "wrong", "refused", "lucky", "error"]


def outcome(reading, truth, should_refuse):
    if not reading.ok:
        return "refused"
    if should_refuse:
        return "lucky" if hand_points(reading.tiles) == hand_points(truth) else "wrong"
    if sorted(reading.tiles) == sorted(truth):
        return "exact"
    if hand_points(reading.tiles) != hand_points(truth):
        return "wrong"
    return "total"


def summary(rows, families):
    by = defaultdict(Counter)
    for r in rows:
        by[r["family"]][r["outcome"]] += 1
    print(f"\n{'family':24s} {'n':>4s} " + " ".join(f"{k:>7s}" for k in ORDER))
    total = Counter()
    for fam in families:
        if fam not in by:
            continue
        c = by[fam]
        total.update(c)
        print(f"{fam:24s} {sum(c.values()):4d} " + " ".join(f"{c[k]:7d}" for k in ORDER))
    print(f"{'ALL':24s} {sum(total.values()):4d} " + " ".join(f"{total[k]:7d}" for k in ORDER))
    lucky = [r["file"] for r in rows if r["outcome"] == "lucky"]
    if lucky:
        print(f"\nlucky ({len(lucky)}): {' '.join(lucky)}")
    wrong = [r for r in rows if r["outcome"] == "wrong"]
    print(f"\nwrong ({len(wrong)}):")
    for r in wrong:
        print(
            f"  {r['file']}  read {' '.join(r['read'])} ({r['points_read']})  truth "
            f"{' '.join(r['truth'])} ({r['points_truth']})"
            + ("  should_refuse" if r["should_refuse"] else "")
        )
    errors = [r["file"] for r in rows if r["outcome"] == "error"]
    if errors:
        print(f"errors ({len(errors)}): {' '.join(errors)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("setdir", type=Path, help="a set directory (img/, meta.json)")
    ap.add_argument("out", type=Path, help="results, one JSON line per photo (resumable)")
    ap.add_argument("--meta", type=Path, help="default SETDIR/meta.json, else meta_partial.json")
    ap.add_argument("--family", nargs="*")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--summary-only", action="store_true")
    args = ap.parse_args()
    meta_file = args.meta
    if meta_file is None:
        meta_file = args.setdir / "meta.json"
        if not meta_file.exists() and (args.setdir / "meta_partial.json").exists():
            meta_file = args.setdir / "meta_partial.json"
    print("photos of", meta_file, flush=True)
    meta = json.loads(meta_file.read_text())
    families = list(dict.fromkeys(m["family"] for m in meta))
    out = args.out
    done = {}
    if out.exists():
        for line in out.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[row["file"]] = row
    todo = [
        m
        for m in meta
        if m["file"] not in done and (not args.family or m["family"] in args.family)
    ]
    if args.limit is not None:
        todo = todo[: args.limit]
    if args.summary_only:
        todo = []
    print(f"{len(done)} done, {len(todo)} to read", flush=True)
    errors = 0
    t0 = time.time()
    with out.open("a") as fh:
        for k, m in enumerate(todo):
            truth = [Tile.parse(t) for t in m["truth"]]
            image = cv2.imread(str(args.setdir / "img" / m["file"]))
            if image is None:
                sys.exit(f"cannot read {m['file']}")
            t1 = time.time()
            try:
                r = read_hand(image, m["top"])
                res = outcome(r, truth, m["should_refuse"])
                read = [str(t) for t in r.tiles]
                ok = bool(r.ok)
                pts = hand_points(r.tiles)
            except Exception as exc:
                errors += 1
                print(f"ERROR {m['file']}: {exc!r}", flush=True)
                res, read, ok, pts = "error", [], False, None
                if errors >= 10 and errors > (k + 1) // 2:
                    sys.exit("too many errors: stopping")
            row = {
                "file": m["file"],
                "family": m["family"],
                "outcome": res,
                "read": read,
                "strict": "wrong" if res == "lucky" else res,
                "truth": m["truth"],
                "should_refuse": m["should_refuse"],
                "ok": ok,
                "points_read": pts,
                "points_truth": hand_points(truth),
                "seconds": round(time.time() - t1, 3),
            }
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            done[m["file"]] = row
            if res == "wrong":
                print(
                    f"wrong: {m['file']} read {' '.join(read)} truth {' '.join(m['truth'])}",
                    flush=True,
                )
            if (k + 1) % 100 == 0:
                print(f"{k + 1}/{len(todo)} {time.time() - t0:.0f}s", flush=True)
    rows = [done[m["file"]] for m in meta if m["file"] in done]
    summary(rows, families)
    print(f"\n{len(todo)} read in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
