#!/usr/bin/env python
"""Trap photo set 2: 950 photos of touching rows/blocks/chains that hold a trap. Deterministic.

    nice -n 10 .venv/bin/python bench/traps/set2.py [--out DIR] [--only FAMILY ...] [--n N]

Writes DIR/img/<family>_<nnn>.png and DIR/meta.json (as set1.py; --only or --n write
meta_partial.json); DIR defaults to bench/out/traps/set2 (git-ignored). Drawing code:
set1.py next to this file (imported as r16; its Scene, printed_sprite, draw_facedown,
fam_worn machinery) and cf.photo.synth/scenes from GEN_TREE (default: the repository this
file lives in). Written as review17/make.py in the eleventh session; only the paths
changed here.

Truth rules as set1: truth = every face-up hand tile at least partly in the frame;
printed pictures, face-down tiles, cards never in it. should_refuse = a truth tile has a pip
field >15 % out of frame / covered (then any confident reading whose points differ from the
full truth's is wrong).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))
# set1 first: it puts GEN_TREE at the head of sys.path, so cf comes from there
import set1 as r16  # isort: skip

import cv2
import numpy as np

cv2.setNumThreads(1)

from cf.photo.scenes import render_family  # noqa: E402
from cf.photo.synth import render_hand  # noqa: E402
from cf.tiles import Tile  # noqa: E402

Retry, Scene = r16.Retry, r16.Scene
DEFAULT_OUT = r16.REPO / "bench" / "out" / "traps" / "set2"

COUNTS = {
    "printed_in_row": 90,
    "worn_in_row": 90,
    "cut_in_row": 110,
    "hidden_in_row": 120,
    "facedown_in_row": 70,
    "faint00_in_block": 70,
    "card_in_row": 60,
    "mixed_traps": 100,
    "plain_touching": 80,
    "printed_copy_in_row": 80,
    "worn_to_dup": 80,
}
GAP = (0.0, 0.012)


def group(sc, n, kind=None):
    """Slots (centre, angle) of a touching row/block/chain of n cells."""
    kind = kind or str(sc.rng.choice(["row", "row", "block", "chain"]))
    offs, ang = sc.grid_offsets(n, kind, GAP)
    pts = sc.place_group(offs, 1.13 * sc.tile_w)
    return [(p, ang) for p in pts], kind


def draw_printed(sc, c, a, width_f=(0.95, 1.05), copy=False):
    rng = sc.rng
    width = sc.tile_w * rng.uniform(*width_f)
    halves = (int(rng.integers(0, sc.top + 1)), int(rng.integers(0, sc.top + 1)))
    if copy:
        t = sc.tiles[int(rng.integers(len(sc.tiles)))]
        halves = (t.low, t.high) if rng.random() < 0.5 else (t.high, t.low)
        if rng.random() < 0.3:
            k = int(rng.integers(2))
            h = list(halves)
            h[k] = int(np.clip(h[k] + rng.choice([-1, 1]), 0, sc.top))
            halves = tuple(h)
    sprite, alpha = r16.printed_sprite(rng, halves, width, 1.0, sc.top)
    sc.draw_sprite("printed", sprite, alpha, c, a, sprite.shape[1], shadow=rng.uniform(0.0, 0.15))
    return f"{halves[0]}-{halves[1]}"


def draw_card(sc, c, a):
    rng = sc.rng
    w = sc.tile_w
    cw = round(w * rng.uniform(0.9, 1.2))
    ch = round(cw * rng.uniform(1.6, 2.1))
    fill = (
        np.array([rng.uniform(225, 250)] * 3)
        if rng.random() < 0.6
        else np.array([rng.uniform(200, 225), rng.uniform(228, 245), rng.uniform(238, 250)])
    )
    sprite = np.empty((ch, cw, 3), np.float32)
    sprite[:] = fill
    alpha = r16.rounded_alpha(cw, ch, round(cw * rng.choice([0.0, 0.03, 0.06])))
    if rng.random() < 0.7:
        r = max(2, cw * rng.uniform(0.06, 0.12))
        f = rng.uniform(0.12, 0.3)
        col = (rng.uniform(15, 60),) * 3
        for y in (ch * f, ch * (1 - f)):
            cv2.circle(
                sprite,
                (round(cw / 2 * 4), round(y * 4)),
                round(r * 4),
                col,
                cv2.FILLED,
                cv2.LINE_AA,
                shift=2,
            )
    sc.draw_sprite("card", sprite, alpha, c, a, cw, shadow=rng.uniform(0.05, 0.3))


def draw_down(sc, c, a):
    rng = sc.rng
    g = [None, "across", "along"][int(rng.integers(3))]
    logo = (
        (str(rng.choice(["gold", "ink", "ring", "emboss"])), "centre")
        if rng.random() < 0.5
        else None
    )
    r16.draw_facedown(sc, c, a, r16.facedown_hook(rng, g, logo))


def worn_hook(sc, notes, tile, force=None):
    rng = sc.rng

    def hook(sprite, alpha, halves, style):
        w = alpha.shape[1]
        parts = [p for p in (0, 1) if halves[p] > 0]
        odd = [p for p in parts if halves[p] % 2 == 1 and halves[p] < 13]
        part = int(rng.choice(odd)) if odd and rng.random() < 0.7 else int(rng.choice(parts))
        if force is not None:
            part = halves.index(force)
        number = halves[part]
        lay = r16.LAYOUTS[number]
        if force is not None or (number % 2 == 1 and (0.5, 0.5) in lay and rng.random() < 0.75):
            x, y = 0.5, 0.5
        else:
            x, y = lay[int(rng.integers(len(lay)))]
        r = style["pip"] * w * (0.68 if number > 9 else 1.0) * (0.85 if number > 12 else 1.0)
        px = 0.1 * w + x * 0.8 * w
        py = part * w + 0.1 * w + y * 0.8 * w
        body = np.asarray(style["ivory"], float)
        pip = np.asarray(style["pips"][number], float)
        k = rng.uniform(0.03, 0.2)
        col = body + k * (pip - body)
        cv2.circle(
            sprite,
            (round(px * 4), round(py * 4)),
            round((r * 1.15 + 1.2) * 4),
            col.tolist(),
            cv2.FILLED,
            cv2.LINE_AA,
            shift=2,
        )
        notes.append({"tile": str(tile), "half": number, "left": round(k, 3)})

    return hook


def victim_under(sc, slots, victim, frac=(0.06, 0.5)):
    """Draw ``victim`` (a hand tile) partly under the group at ``slots`` (drawn after)."""
    rng = sc.rng
    w = sc.tile_w
    shape = sc.img.shape[:2]
    boxes = [r16.tile_box(c, a, w) for c, a in slots]
    under = np.zeros(shape, np.uint8)
    for b in boxes:
        under |= r16.poly_mask(shape, b)
    for _ in range(400):
        k = int(rng.integers(len(slots)))
        c0, a0 = slots[k]
        a_v = a0 + float(rng.choice([0.0, 90.0, 90.0, rng.uniform(0, 360)]))
        cv = c0 + rng.uniform(-1.6, 1.6, 2) * w
        vbox = r16.tile_box(cv, a_v, w)
        if not r16.inside(vbox - sc.pad, sc.W, sc.H, 2.0):
            continue
        vm = r16.poly_mask(shape, vbox)
        n = int(vm.sum())
        vis = 1 - float((vm & under).sum()) / max(1, n)
        if not frac[0] <= vis <= frac[1]:
            continue
        fcov = max(
            float((r16.poly_mask(shape, f) & under).sum())
            / max(1, int(r16.poly_mask(shape, f).sum()))
            for f in r16.pip_fields(vbox)
        )
        if fcov <= 0.15:
            continue
        # the visible part away from other things
        if any(np.linalg.norm(cv - q) < r + 1.2 * w for q, r in sc.occupied[: -len(slots)] or []):
            continue
        sc.draw_tile(victim, cv, a_v)
        return {"victim": str(victim), "visible": round(vis, 3)}
    raise Retry("no victim spot")


def fam_trap_row(sc, traps, hidden=False, worn=0, frac=(0.06, 0.5), copy=False, dup=False):
    """The hand in one touching group with trap objects in some of its cells."""
    rng = sc.rng
    hand = list(sc.tiles)
    victim = hand.pop() if hidden else None
    n = len(hand) + len(traps)
    slots, kind = group(sc, n)
    order = list(range(n))
    rng.shuffle(order)
    trap_slots = [slots[i] for i in order[: len(traps)]]
    hand_slots = [slots[i] for i in order[len(traps) :]]
    notes = {"layout": kind, "traps": list(traps)}
    if victim is not None:
        notes.update(victim_under(sc, hand_slots + trap_slots, victim, frac))
    printed = []
    # cards lie under the tiles; the rest after
    for t, (c, a) in zip(traps, trap_slots, strict=False):
        if t == "card":
            draw_card(sc, c, a)
    wnotes = []
    worn_idx = (
        set(rng.choice(len(hand), size=min(worn, len(hand)), replace=False).tolist())
        if worn
        else set()
    )
    if dup:
        worn_idx = {0}  # the tile made to duplicate another when its pip is worn
    for i, (t, (c, a)) in enumerate(zip(hand, hand_slots, strict=False)):
        if i in worn_idx and t.high == 0:
            continue
        force = t.high if dup and i == 0 else None
        sc.draw_tile(t, c, a, hook=worn_hook(sc, wnotes, t, force) if i in worn_idx else None)
    for i, t in enumerate(hand):  # a 0-0 chosen to wear: drawn plain
        if i in worn_idx and t.high == 0:
            sc.draw_tile(t, *hand_slots[i])
    for t, (c, a) in zip(traps, trap_slots, strict=False):
        if t == "printed":
            printed.append(draw_printed(sc, c, a, copy=copy))
        elif t == "down":
            draw_down(sc, c, a)
    if printed:
        notes["printed"] = printed
    if wnotes:
        notes["worn"] = wnotes
    sc.camera()
    sc.check_all_inside()
    return {"should_refuse": bool(hidden), "notes": notes}


def fam_faint00(sc):
    rng = sc.rng
    slots, kind = group(sc, len(sc.tiles), str(rng.choice(["row", "block", "block", "chain"])))
    delta = rng.uniform(3, 12)
    st = dict(sc.style, spinner=False)
    st["bar"] = tuple(np.clip(np.asarray(sc.style["ivory"], float) - delta, 0, 255).tolist())
    order = list(range(len(slots)))
    rng.shuffle(order)
    for t, i in zip(sc.tiles, order, strict=False):
        c, a = slots[i]
        sc.draw_tile(t, c, a, style=st if t == Tile.of(0, 0) else None)
    extra = []
    if rng.random() < 0.3:
        # one face-down tile in the frame too (touching the block's end)
        c, a = slots[order[-1]]
        extra.append("down-free")
        draw_down(sc, sc.place_free(1.15 * sc.tile_w), rng.uniform(0, 360))
    sc.camera(glare=0)
    sc.check_all_inside()
    return {
        "should_refuse": False,
        "notes": {"layout": kind, "delta": round(delta, 1), "extra": extra},
    }


def fam_cut_row(sc, vis_max=0.85):
    """A touching row/chain/block running off the frame: one or two end tiles cut."""
    rng = sc.rng
    W, H, p = sc.W, sc.H, sc.pad
    w = sc.tile_w
    n = len(sc.tiles)
    kind = str(rng.choice(["row", "row", "chain", "block"]))
    offs, ang = sc.grid_offsets(n, kind, GAP)
    offs = np.asarray(offs)
    for _ in range(800):
        c = np.array(
            [rng.uniform(p - 0.3 * W, p + 1.3 * W), rng.uniform(p - 0.3 * H, p + 1.3 * H)]
        )
        boxes = [r16.tile_box(c + o, ang, w) - p for o in offs]
        vis = [r16.visible_fraction(b, W, H) for b in boxes]
        inn = [r16.inside(b, W, H, 2.0) for b in boxes]
        cut = [i for i in range(n) if not inn[i]]
        if not 1 <= len(cut) <= 2 or n - len(cut) < 1:
            continue
        if any(vis[i] < 0.05 or vis[i] > vis_max for i in cut):
            continue
        break
    else:
        raise Retry("no cut placement")
    order = list(range(n))
    for t, i in zip(sc.tiles, order, strict=False):
        sc.draw_tile(t, c + offs[i], ang)
    sc.camera(tilt=rng.uniform(0, 0.02))
    refuse = False
    notes = []
    keep = []
    for it in sc.hand_tiles():
        v = r16.visible_fraction(it["box"], W, H)
        if v <= 0.0:
            it["kind"] = "gone"
            continue
        fields_in = all(r16.inside(f, W, H, 1.0) for f in r16.pip_fields(it["box"]))
        fields_far = all(r16.inside(f, W, H, -3.0) for f in r16.pip_fields(it["box"]))
        if fields_far and not fields_in:
            raise Retry("borderline")
        if not r16.inside(it["box"], W, H, 0.5):
            notes.append({"tile": str(it["tile"]), "visible": round(v, 3), "fields_in": fields_in})
        refuse |= not fields_in
        keep.append(it)
    if not notes:
        raise Retry("nothing cut")
    return {"should_refuse": bool(refuse), "notes": {"cut": notes, "layout": kind}}


def make_one(family, i, img):
    fid = list(COUNTS).index(family)
    for attempt in range(60):
        rng = np.random.default_rng([17, fid, i, attempt])
        size = (640, 480) if rng.random() < 0.55 else (1600, 1200)
        top = int(rng.choice([6, 9, 12]))
        shrink = 0.93**attempt
        n = int(rng.integers(2, 11))
        try:
            if family == "plain_touching":
                seed = 170000 + i * 7 + attempt
                if i % 2 == 0:
                    ph = render_family(seed, "block", size=size, top=top, count=n)
                else:
                    ph = render_hand(
                        seed,
                        size=size,
                        top=top,
                        count=n,
                        difficulty=2,
                        layout=str(rng.choice(["row", "block"])),
                    )
                name = f"{family}_{i:03d}.png"
                cv2.imwrite(str(img / name), ph.image)
                return {
                    "file": name,
                    "family": family,
                    "truth": [str(t) for t in ph.tiles],
                    "top": ph.top,
                    "should_refuse": False,
                    "size": list(size),
                    "notes": {
                        "gen": "render_family block" if i % 2 == 0 else "render_hand d2",
                        "seed": seed,
                    },
                }
            if family == "printed_in_row":
                sc = Scene(rng, size, top, n, shrink=shrink)
                info = fam_trap_row(sc, ["printed"] * (1 + int(rng.random() < 0.2)))
            elif family == "worn_in_row":
                sc = Scene(rng, size, top, n, shrink=shrink)
                info = fam_trap_row(sc, [], worn=1 + int(rng.random() < 0.2))
            elif family == "cut_in_row":
                sc = Scene(rng, size, top, max(2, n), shrink=shrink, pad=round(min(size) / 2))
                info = fam_cut_row(sc, 0.3 if i % 2 else 0.85)
            elif family == "hidden_in_row":
                sc = Scene(rng, size, top, max(3, n), shrink=shrink)
                info = fam_trap_row(
                    sc, [], hidden=True, frac=(0.06, 0.25) if i % 2 else (0.06, 0.5)
                )
            elif family == "facedown_in_row":
                sc = Scene(rng, size, top, n, shrink=shrink)
                info = fam_trap_row(sc, ["down"] * int(rng.integers(1, 3)))
            elif family == "faint00_in_block":
                sc = Scene(
                    rng,
                    size,
                    top,
                    max(3, n),
                    shrink=shrink,
                    must=(Tile.of(0, 0),),
                    bodies=["ivory"] * 3 + ["white", "cream", "cream"],
                )
                info = fam_faint00(sc)
            elif family == "card_in_row":
                sc = Scene(rng, size, top, n, shrink=shrink)
                info = fam_trap_row(sc, ["card"] * int(rng.integers(1, 3)))
            elif family == "mixed_traps":
                sc = Scene(rng, size, top, max(3, n), shrink=shrink)
                pool = ["printed", "down", "card"]
                traps = [str(rng.choice(pool)) for _ in range(int(rng.integers(1, 3)))]
                info = fam_trap_row(
                    sc, traps, hidden=rng.random() < 0.35, worn=int(rng.random() < 0.5)
                )
            elif family == "printed_copy_in_row":
                sc = Scene(rng, size, top, n, shrink=shrink)
                info = fam_trap_row(sc, ["printed"] * (1 + int(rng.random() < 0.2)), copy=True)
            elif family == "worn_to_dup":
                # tiles[0] = (a, b) with a odd and a-1 >= b; tiles[1] = (a-1, b): wearing a's
                # centre pip makes tiles[0] look like tiles[1]
                odd = [x for x in range(1, top + 1, 2)]
                a = int(rng.choice(odd))
                b = int(rng.integers(0, a))
                must = (Tile.of(a, b), Tile.of(a - 1, b))
                sc = Scene(rng, size, top, max(3, n), shrink=shrink, must=must)
                sc.tiles = list(must) + [t for t in sc.tiles if t not in must]
                info = fam_trap_row(sc, [], worn=1, dup=True)
            else:
                raise ValueError(family)
        except Retry:
            continue
        return r16.save(family, i, img, sc, info, attempt, top)
    raise RuntimeError(f"{family} {i}: no photo after 60 attempts")


def main():
    r16.cli(COUNTS, make_one, DEFAULT_OUT)


if __name__ == "__main__":
    main()
