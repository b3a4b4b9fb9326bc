#!/usr/bin/env python
"""Compare two read.py result files of one trap set: per-family outcomes, changed photos.

    .venv/bin/python bench/traps/compare.py OLD.jsonl NEW.jsonl [--set SETDIR]

--set: the set directory, for the family order of its meta.json (default: the order the
families first appear in OLD.jsonl). Only photos in both files are compared one by one.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

ORDER = ["exact", "total", "wrong", "refused", "lucky", "error"]


def load(path):
    rows = {}
    for line in Path(path).read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            rows[row["file"]] = row
    return rows


def table(name, rows, fams):
    by = defaultdict(Counter)
    for r in rows.values():
        by[r["family"]][r["outcome"]] += 1
    print(f"\n{name}\n{'family':22s} {'n':>4s} " + " ".join(f"{k:>7s}" for k in ORDER))
    tot = Counter()
    for f in fams:
        c = by[f]
        tot.update(c)
        print(f"{f:22s} {sum(c.values()):4d} " + " ".join(f"{c[k]:7d}" for k in ORDER))
    print(f"{'ALL':22s} {sum(tot.values()):4d} " + " ".join(f"{tot[k]:7d}" for k in ORDER))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--set", type=Path, help="set directory: family order from its meta.json")
    args = ap.parse_args()
    a, b = load(args.old), load(args.new)
    if args.set is not None:
        meta = json.loads((args.set / "meta.json").read_text())
        files = [m["file"] for m in meta]
        fams = list(dict.fromkeys(m["family"] for m in meta))
    else:
        files = list(dict.fromkeys([*a, *b]))
        fams = list(dict.fromkeys(r["family"] for r in [*a.values(), *b.values()]))
    table("OLD " + args.old, a, fams)
    table("NEW " + args.new, b, fams)
    print("\nchanged outcomes (old -> new):")
    trans = Counter()
    for f in files:
        if f in a and f in b and a[f]["outcome"] != b[f]["outcome"]:
            trans[(a[f]["outcome"], b[f]["outcome"])] += 1
            print(
                f"  {f:28s} {a[f]['outcome']:>7s} -> {b[f]['outcome']:7s} new read "
                f"{' '.join(b[f]['read'])} ({b[f]['points_read']}) truth "
                f"{' '.join(b[f]['truth'])} ({b[f]['points_truth']}) "
                f"old read {' '.join(a[f]['read'])}"
            )
    print({f"{o} -> {n}": k for (o, n), k in trans.items()})
    both_wrong = [
        f
        for f in files
        if f in a
        and f in b
        and a[f]["outcome"] == b[f]["outcome"] == "wrong"
        and sorted(a[f]["read"]) != sorted(b[f]["read"])
    ]
    print("both wrong but different readings:", both_wrong)


if __name__ == "__main__":
    main()
