#!/usr/bin/env python
"""Trap photo set 3: 320 photos of dark-bodied tiles with light pips. Deterministic.

    nice -n 10 .venv/bin/python bench/traps/set3.py [--out DIR] [--only FAMILY ...] [--n N]

Writes DIR/img/<family>_<nnn>.png and DIR/meta.json (as set1.py; --only or --n write
meta_partial.json); DIR defaults to bench/out/traps/set3 (git-ignored). Drawing code:
set1.py next to this file (imported as r16: its Scene, camera, printed_sprite, paper_sheet,
facedown_hook, draw_facedown, save and cli) and cf.photo.synth/scenes from GEN_TREE
(default: the repository this file lives in), plus sprites of our own (dice, a phone,
printed dark dominoes, card backs, light grooves on dark backs).

Made for the reader's negative reading (cf/photo/combined.py, ``read_hand``, and
cf/photo/negative.py, ``stands``: a photo in which no tile is read is read again as
255 - photo), which reads dark tiles (black, dark green, dark red, navy, maroon, dark pink,
and the ``colour_body`` bodies of cf.photo.scenes) with white or yellow pips. Every hand is of such
tiles: the style is cf.photo.scenes._style's (size of pips, corners, divider, spinner),
its body and pip colours replaced (:func:`dark_style`). Photos have no glare spots (a glare
spot on a dark face is a light pip): the traps are the families' own.

Truth rules as set1: truth = every face-up hand tile in the frame (all hand tiles lie
wholly in it here), a worn pip counted as the pip it was; printed pictures, face-down
tiles, cards, dice and phones are never in it. should_refuse = no tile of the hand is in
the photo (dice only, phone only): then any confident reading is wrong. Nothing is cut or
hidden in this set, so every other photo is read exactly or refused to be right.
"""

from __future__ import annotations

import math
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

Retry, Scene = r16.Retry, r16.Scene
LAYOUTS, rounded_alpha = r16.LAYOUTS, r16.rounded_alpha
DEFAULT_OUT = r16.REPO / "bench" / "out" / "traps" / "set3"
SEED = 3  # the set's part of every seed (set1 uses 16, set2 17)

#: family -> how many photos. Index in this dict is part of every seed.
COUNTS = {
    "dark_clean": 40,
    "dark_worn": 40,
    "dark_dice": 40,
    "dark_phone": 40,
    "dark_printed": 40,
    "dark_facedown": 40,
    "dark_cards": 40,
    "dark_touching": 40,
}

#: Dark and coloured bodies (BGR): cf.photo.scenes._BODIES' black, green, red, blue and
#: pink, and darker ones. Black weighs three.
DARK = {
    "black": (35, 35, 35),
    "dark_green": (45, 85, 25),
    "dark_red": (35, 30, 130),
    "navy": (95, 40, 15),
    "maroon": (60, 30, 110),
    "dark_pink": (120, 70, 175),
    "green": (70, 140, 40),
    "red": (50, 40, 190),
    "blue": (160, 90, 30),
    "pink": (170, 140, 235),
}
DARK_NAMES = ["black", "black", *DARK]
WHITE, YELLOW = (245, 245, 245), (40, 215, 235)
#: Tables: wood, cloth, paper, dark leather, a light table (white), felt, grey card.
GROUNDS = ["wood", "cloth", "paper", "leather", "white", "felt", "card", "wood", "white"]
LIGHT_GROUNDS = ["white", "paper", "white", "card"]


def dark_style(sc, name=None):
    """Make ``sc``'s set dark with light pips: the body one of :data:`DARK` (jittered as
    cf.photo.scenes._style jitters), the pips and divider white or yellow."""
    rng = sc.rng
    name = name or str(rng.choice(DARK_NAMES))
    pip = YELLOW if rng.random() < 0.3 else WHITE
    sc.style["ivory"] = np.clip(np.array(DARK[name], float) * rng.uniform(0.9, 1.06, 3), 0, 255)
    sc.style["pips"] = {n: pip for n in range(16)}
    sc.style["bar"] = pip
    sc.body = f"{name}/{'yellow' if pip == YELLOW else 'white'}"
    return name


def dark_colour(rng):
    return np.clip(
        np.array(DARK[str(rng.choice(DARK_NAMES))], float) * rng.uniform(0.9, 1.06, 3), 0, 255
    )


def draw_hand(sc, layout="scatter", gap_frac=(0.0, 0.04), hooks=None):
    """The hand: laid apart (scattered), or in a touching ``layout`` (row, block, chain)."""
    place, layout = sc.place_hand(sc.tiles, layout, gap_frac)
    hooks = hooks or {}
    for i, (t, (c, a)) in enumerate(zip(sc.tiles, place, strict=False)):
        sc.draw_tile(t, c, a, hook=hooks.get(i))
    return place, layout


# --- sprites of our own ---------------------------------------------------------------------


def bevelled(colour, alpha):
    """A flat face of ``colour`` shaded at its rim as cf.photo.synth._tile_sprite's."""
    h, w = alpha.shape
    dist = cv2.distanceTransform((alpha > 127).astype(np.uint8), cv2.DIST_L2, 3)
    bevel = np.clip(dist / (0.08 * min(w, h)), 0, 1) ** 0.5
    face = np.empty((h, w, 3), np.float32)
    face[:] = colour
    face *= (0.75 + 0.25 * bevel)[:, :, None]
    return face


def disc(img, x, y, r, colour):
    cv2.circle(
        img,
        (round(x * 4), round(y * 4)),
        max(2, round(r * 4)),
        np.asarray(colour, float).tolist(),
        cv2.FILLED,
        cv2.LINE_AA,
        shift=2,
    )


def die_sprite(rng, side, body, pip, value):
    """One die seen from above: a rounded square of ``body`` with ``value`` (1-6) pips."""
    s = max(12, round(side))
    alpha = rounded_alpha(s, s, max(2, round(rng.uniform(0.1, 0.22) * s)))
    face = bevelled(body, alpha)
    r = rng.uniform(0.08, 0.12) * s
    for x, y in LAYOUTS[value]:
        disc(
            face,
            0.17 * s + x * 0.66 * s,
            0.17 * s + y * 0.66 * s,
            r,
            np.asarray(pip) * rng.uniform(0.9, 1.03),
        )
    return face, alpha


def phone_sprite(rng, w, h):
    """A dark phone face down or with its screen off: a rounded near-black rectangle, a
    light bar across its middle and a few light dots (a camera, icons, reflections), laid
    out like a domino's pips or at random."""
    w, h = max(16, round(w)), max(32, round(h))
    alpha = rounded_alpha(w, h, max(2, round(rng.uniform(0.08, 0.18) * w)))
    g = rng.uniform(8, 32)
    face = bevelled(np.array([g, g, g]) * rng.uniform(0.85, 1.25, 3), alpha)
    notes = {}
    if rng.random() < 0.6:  # a metal frame: a lighter rim
        t = max(2, round(rng.uniform(0.025, 0.05) * w))
        rim = (alpha > 127).astype(np.uint8)
        inner = cv2.erode(rim, np.ones((2 * t + 1, 2 * t + 1), np.uint8))
        face[(rim > 0) & (inner == 0)] = rng.uniform(55, 120)
        notes["rim"] = t
    light = np.array([rng.uniform(175, 250)] * 3) * rng.uniform(0.92, 1.0, 3)
    bl = rng.uniform(0.5, 0.95) * w
    th = max(1, round(rng.uniform(0.02, 0.06) * w))
    yb = round(h * rng.uniform(0.47, 0.53))
    cv2.rectangle(
        face,
        (round((w - bl) / 2), yb - th),
        (round((w + bl) / 2), yb + th),
        light.tolist(),
        cv2.FILLED,
        cv2.LINE_AA,
    )
    r = rng.uniform(0.04, 0.09) * w
    if rng.random() < 0.5:
        # as a domino's pips: a number 0-6 in each half
        a, b = int(rng.integers(0, 7)), int(rng.integers(1, 7))
        hh = h / 2
        for part, number in enumerate((a, b)):
            for x, y in LAYOUTS[number]:
                disc(face, 0.1 * w + x * 0.8 * w, part * hh + 0.1 * hh + y * 0.8 * hh, r, light)
        notes["dots"] = f"{a}-{b} as pips"
    else:
        k = int(rng.integers(1, 7))
        for _ in range(k):
            disc(face, rng.uniform(0.15, 0.85) * w, rng.uniform(0.08, 0.92) * h, r, light)
        notes["dots"] = k
    return face, alpha, notes


def printed_dark_sprite(rng, halves, width, hfac=1.0):
    """A flat printed picture of a dark domino: dark ink fill, light bar and pips, no bevel
    (the box of a dark set, a poster)."""
    w = max(16, round(width))
    hh = max(8, round(w * hfac))
    h = 2 * hh
    fill = dark_colour(rng)
    light = np.array(WHITE if rng.random() < 0.7 else YELLOW, float) * rng.uniform(0.9, 1.0)
    alpha = rounded_alpha(w, h, round(rng.choice([0.0, 0.05, 0.12]) * w))
    sprite = np.empty((h, w, 3), np.float32)
    sprite[:] = fill
    if rng.random() < 0.5:  # a thin light outline
        t = max(1, round(w * rng.uniform(0.015, 0.04)))
        m = (alpha > 127).astype(np.uint8)
        inner = cv2.erode(m, np.ones((2 * t + 1, 2 * t + 1), np.uint8))
        sprite[(m > 0) & (inner == 0)] = light
    dl = rng.uniform(0.55, 0.9) * w
    th = max(1, round(rng.uniform(0.02, 0.045) * w))
    cv2.rectangle(
        sprite,
        (round((w - dl) / 2), hh - th),
        (round((w + dl) / 2), hh + th),
        light.tolist(),
        cv2.FILLED,
        cv2.LINE_AA,
    )
    pr = rng.uniform(0.07, 0.11) * min(w, hh)
    for part, number in enumerate(halves):
        for x, y in LAYOUTS[number]:
            disc(
                sprite,
                0.1 * w + x * 0.8 * w,
                part * hh + 0.1 * hh + y * 0.8 * hh,
                pr * (0.68 if number > 9 else 1.0),
                light,
            )
    return sprite, alpha


def card_sprite(rng, cw, ch):
    """A playing card: a light face with a few suit marks and corner indices, or a back of
    dark red or blue with a white border and a lighter lattice."""
    cw, ch = round(cw), round(ch)
    alpha = rounded_alpha(cw, ch, round(cw * rng.uniform(0.03, 0.08)))
    sprite = np.empty((ch, cw, 3), np.float32)
    if rng.random() < 0.5:
        sprite[:] = np.array([rng.uniform(228, 250)] * 3) * rng.uniform(0.97, 1.0, 3)
        ink = (30, 30, 30) if rng.random() < 0.5 else (40, 40, rng.uniform(150, 210))
        r = max(1.5, cw * rng.uniform(0.05, 0.09))
        k = int(rng.integers(1, 11))
        cols = [0.5] if k < 4 else [0.3, 0.7]
        per = math.ceil(k / len(cols))
        j = 0
        for x in cols:
            for y in np.linspace(0.2, 0.8, per) if per > 1 else [0.5]:
                if j < k:
                    disc(sprite, x * cw, y * ch, r, ink)
                    j += 1
        for x, y in ((0.1, 0.08), (0.9, 0.92)):  # corner indices
            disc(sprite, x * cw, y * ch, r * 0.6, ink)
        return sprite, alpha, {"card": "face", "marks": k}
    back = np.array((130, 50, 25) if rng.random() < 0.5 else (40, 35, 160)) * rng.uniform(0.6, 1.1)
    sprite[:] = np.array([rng.uniform(225, 248)] * 3)
    b = max(2, round(cw * rng.uniform(0.05, 0.1)))
    sprite[b : ch - b, b : cw - b] = back
    if rng.random() < 0.6:
        step = max(4, round(cw * rng.uniform(0.08, 0.16)))
        lat = np.clip(back + rng.uniform(30, 90), 0, 255).tolist()
        sub = sprite[b : ch - b, b : cw - b]
        for d in range(-ch, cw + ch, step):
            cv2.line(sub, (d, 0), (d + ch, ch), lat, 1, cv2.LINE_AA)
            cv2.line(sub, (d, 0), (d - ch, ch), lat, 1, cv2.LINE_AA)
    return sprite, alpha, {"card": "back", "border": b}


def light_groove_hook(rng, body):
    """A face-down dark tile whose groove across catches the light: a light line where a
    face's divider would be."""

    def hook(sprite, alpha, halves, style):
        h, w = alpha.shape
        t = max(1, round(w * rng.uniform(0.015, 0.035)))
        col = np.clip(np.asarray(body, float) + rng.uniform(50, 140), 0, 255)
        x0, x1 = round(rng.uniform(0.05, 0.2) * w), round(rng.uniform(0.8, 0.95) * w)
        cv2.line(sprite, (x0, h // 2), (x1, h // 2), col.tolist(), t, cv2.LINE_AA)

    return hook


def centre_dot_hook(rng):
    """A face-down tile with a dot in its centre: brass, silver or white."""

    def hook(sprite, alpha, halves, style):
        h, w = alpha.shape
        col = [(60, 150, 190), (185, 185, 190), (235, 235, 235)][int(rng.integers(3))]
        disc(sprite, w / 2, h / 2, max(1.5, w * rng.uniform(0.05, 0.11)), col)

    return hook


# --- the families --------------------------------------------------------------------------


def fam_clean(sc):
    _place, layout = draw_hand(sc)
    sc.camera(glare=0)
    sc.check_all_inside()
    return {"should_refuse": False, "notes": {"layout": layout}}


def worn_hook(sc, notes, tile):
    """set1's worn pip, on a dark tile: the pip painted over in its colour blended 60-90 %
    toward the body's (a light pip almost the colour of the dark body)."""
    rng = sc.rng

    def hook(sprite, alpha, halves, style):
        w = alpha.shape[1]
        parts = [p for p in (0, 1) if halves[p] > 0]
        odd = [p for p in parts if halves[p] % 2 == 1 and halves[p] < 13]
        part = int(rng.choice(odd)) if odd and rng.random() < 0.65 else int(rng.choice(parts))
        number = halves[part]
        lay = LAYOUTS[number]
        if number % 2 == 1 and (0.5, 0.5) in lay and rng.random() < 0.7:
            x, y = 0.5, 0.5
        else:
            x, y = lay[int(rng.integers(len(lay)))]
        r = style["pip"] * w * (0.68 if number > 9 else 1.0) * (0.85 if number > 12 else 1.0)
        body = np.asarray(style["ivory"], float)
        pip = np.asarray(style["pips"][number], float)
        a = rng.uniform(0.1, 0.4)  # what is left of the pip's contrast
        disc(
            sprite,
            0.1 * w + x * 0.8 * w,
            part * w + 0.1 * w + y * 0.8 * w,
            r * 1.15 + 1.2,
            body + a * (pip - body),
        )
        notes.append({"tile": str(tile), "half": number, "left": round(a, 3), "pip": [x, y]})

    return hook


def fam_worn(sc):
    rng = sc.rng
    cands = [i for i, t in enumerate(sc.tiles) if t.high > 0]
    if not cands:
        raise Retry("no pips")
    k = min(len(cands), 1 + int(rng.random() < 0.25))
    worn = rng.choice(cands, size=k, replace=False).tolist()
    notes = []
    hooks = {i: worn_hook(sc, notes, sc.tiles[i]) for i in worn}
    _place, layout = draw_hand(sc, hooks=hooks)
    sc.camera(glare=0)
    sc.check_all_inside()
    return {"should_refuse": False, "notes": {"worn": notes, "layout": layout}}


def fam_dice(sc, dice_only, pair_gap):
    rng = sc.rng
    w = sc.tile_w
    layout = "none"
    if not dice_only:
        _place, layout = draw_hand(sc)
    body = np.asarray(sc.style["ivory"], float) if rng.random() < 0.5 else dark_colour(rng)
    pip = np.array(WHITE if rng.random() < 0.7 else YELLOW, float)
    s = w * rng.uniform(0.6, 1.0)
    dice = []
    side = None if sc.side is None else sc.side * 1.6
    if pair_gap:
        # two dice side by side, a strip of the light table between them: a dark domino
        g = rng.uniform(0.03, 0.15)
        c = sc.place_free(1.25 * s * (1 + g / 2), edge=1.3 * s)
        ang = rng.uniform(0, 360)
        th = math.radians(ang)
        along = np.array([math.sin(th), math.cos(th)])
        for sign in (-1, 1):
            v = int(rng.integers(1, 7))
            sp, al = die_sprite(rng, s, body, pip, v)
            sc.draw_sprite(
                "die", sp, al, c + sign * along * s * (1 + g) / 2, ang, sp.shape[1], side=side
            )
            dice.append(v)
        extra = int(rng.integers(0, 2))
    else:
        extra = int(rng.integers(1, 4 if dice_only else 3))
    for _ in range(extra):
        v = int(rng.integers(1, 7))
        sp, al = die_sprite(rng, s, body, pip, v)
        c = sc.place_free(0.8 * s, edge=0.8 * s)
        sc.draw_sprite("die", sp, al, c, rng.uniform(0, 360), sp.shape[1], side=side)
        dice.append(v)
    sc.camera(glare=0)
    sc.check_all_inside()
    return {
        "should_refuse": dice_only,
        "notes": {
            "dice": dice,
            "pair_gap": bool(pair_gap),
            "die_side": round(s / w, 2),
            "layout": layout,
        },
    }


def fam_phone(sc, phone_only):
    rng = sc.rng
    w = sc.tile_w
    layout = "none"
    if not phone_only:
        _place, layout = draw_hand(sc)
    k = rng.uniform(1.0, 2.5)
    pw = w * k
    ph = pw * rng.uniform(1.9, 2.2)
    sprite, alpha, notes = phone_sprite(rng, pw, ph)
    lay(sc, "phone", sprite, alpha, 0.5 * math.hypot(pw, ph) * 1.05, (0.2, 0.5), sc.side)
    sc.camera(glare=0)
    sc.check_all_inside()
    return {
        "should_refuse": phone_only,
        "notes": dict(notes, phone_scale=round(k, 2), layout=layout),
    }


def fam_printed(sc):
    rng = sc.rng
    _place, layout = draw_hand(sc)
    kinds = []
    for _ in range(int(rng.integers(1, 4))):
        width = sc.tile_w * rng.uniform(0.6, 1.1)
        halves = (int(rng.integers(0, sc.top + 1)), int(rng.integers(0, sc.top + 1)))
        dark = rng.random() < 0.5
        if dark:
            sprite, alpha = printed_dark_sprite(rng, halves, width)
        else:
            sprite, alpha = r16.printed_sprite(rng, halves, width, 1.0, sc.top)
        angle = rng.uniform(0, 360)
        sheet = rng.random() < 0.5
        if sheet:
            m = rng.uniform(0.25, 0.9) * width
            sw, shh = round(sprite.shape[1] + 2 * m), round(sprite.shape[0] + 2 * m)
            rad = 0.5 * math.hypot(sw, shh) * 1.03
            c = sc.place_free(rad, edge=rad)
            paper, palpha = r16.paper_sheet(rng, sw, shh)
            sc.draw_sprite("paper", paper, palpha, c, angle, sw, shadow=rng.uniform(0.05, 0.25))
            sc.draw_sprite("printed", sprite, alpha, c, angle, sprite.shape[1], shadow=0.0)
        else:
            rad = 0.5 * math.hypot(*sprite.shape[:2]) * 1.08
            c = sc.place_free(rad, edge=rad)
            sc.draw_sprite(
                "printed", sprite, alpha, c, angle, sprite.shape[1], shadow=rng.uniform(0.0, 0.15)
            )
        kinds.append(
            f"{'dark' if dark else 'light'}{'/sheet' if sheet else ''} {halves[0]}-{halves[1]}"
        )
    sc.camera(glare=0)
    sc.check_all_inside()
    return {"should_refuse": False, "notes": {"printed": kinds, "layout": layout}}


def fam_facedown(sc):
    rng = sc.rng
    w = sc.tile_w
    body = np.asarray(sc.style["ivory"], float)
    k = int(rng.integers(1, 5))
    kinds = [
        str(rng.choice(["plain", "plain", "dot", "light_groove", "groove", "logo"]))
        for _ in range(k)
    ]
    hooks = []
    for kind in kinds:
        if kind == "plain":
            hooks.append(None)
        elif kind == "dot":
            hooks.append(centre_dot_hook(rng))
        elif kind == "light_groove":
            hooks.append(light_groove_hook(rng, body))
        elif kind == "groove":
            hooks.append(r16.facedown_hook(rng, str(rng.choice(["across", "along"])), None))
        else:
            hooks.append(
                r16.facedown_hook(
                    rng, None, (str(rng.choice(["gold", "ring", "emboss"])), "centre")
                )
            )
    touching = rng.random() < 0.25
    if touching:
        # face-down tiles in the hand's own row or chain
        n = len(sc.tiles) + k
        offs, ang = sc.grid_offsets(n, str(rng.choice(["row", "chain"])), (0.0, 0.03))
        pts = sc.place_group(offs, 1.13 * w)
        order = list(range(n))
        rng.shuffle(order)
        ti = 0
        for slot in order:
            if ti < len(sc.tiles):
                sc.draw_tile(sc.tiles[ti], pts[slot], ang)
                ti += 1
            else:
                r16.draw_facedown(sc, pts[slot], ang, hooks.pop())
        layout = "row+facedown"
    else:
        _place, layout = draw_hand(sc)
        for hk in hooks:
            r16.draw_facedown(sc, sc.place_free(1.15 * w), rng.uniform(0, 360), hk)
    sc.camera(glare=0)
    sc.check_all_inside()
    return {"should_refuse": False, "notes": {"facedown": kinds, "layout": layout}}


def fam_cards(sc):
    rng = sc.rng
    w = sc.tile_w
    _place, layout = draw_hand(sc)
    kinds = []
    for _ in range(int(rng.integers(1, 4))):
        cw = w * rng.uniform(0.9, 2.2)
        ch = cw * (rng.uniform(1.38, 1.45) if rng.random() < 0.7 else rng.uniform(1.5, 2.1))
        sprite, alpha, notes = card_sprite(rng, cw, ch)
        lay(sc, "card", sprite, alpha, 0.5 * math.hypot(cw, ch) * 1.06, (0.05, 0.3))
        kinds.append(notes)
    sc.camera(glare=0)
    sc.check_all_inside()
    return {"should_refuse": False, "notes": {"cards": kinds, "layout": layout}}


def fam_touching(sc):
    rng = sc.rng
    layout = str(rng.choice(["row", "row", "block", "chain"]))
    _place, layout = draw_hand(sc, layout, gap_frac=(0.0, 0.012))
    sc.camera(glare=0)
    sc.check_all_inside()
    return {"should_refuse": False, "notes": {"layout": layout}}


# --- driver --------------------------------------------------------------------------------


def make_one(family, i, img):
    fid = list(COUNTS).index(family)
    for attempt in range(60):
        rng = np.random.default_rng([SEED, fid, i, attempt])
        size = (640, 480) if rng.random() < 0.55 else (1600, 1200)
        top = int(rng.choice([6, 9, 12]))
        n = int(rng.integers(2, 9))
        shrink = 0.93**attempt
        # a quarter of the dice / phone photos hold no tile (i = 3, 7, 11, ...); in half
        # the dice photos (even i, and i = 7, 15, ...: half of those with no tile) two
        # dice lie side by side on a light table, a strip of it between them
        alone = i % 4 == 3
        pair_gap = family == "dark_dice" and (i % 2 == 0 or i % 8 == 7)
        ground = str(rng.choice(LIGHT_GROUNDS if pair_gap else GROUNDS))
        try:
            sc = Scene(rng, size, top, n, body="black", ground=ground, shrink=shrink)
            dark_style(sc)
            if family == "dark_clean":
                info = fam_clean(sc)
            elif family == "dark_worn":
                info = fam_worn(sc)
            elif family == "dark_dice":
                info = fam_dice(sc, alone, pair_gap)
            elif family == "dark_phone":
                info = fam_phone(sc, alone)
            elif family == "dark_printed":
                info = fam_printed(sc)
            elif family == "dark_facedown":
                info = fam_facedown(sc)
            elif family == "dark_cards":
                info = fam_cards(sc)
            elif family == "dark_touching":
                info = fam_touching(sc)
            else:
                raise ValueError(family)
        except Retry:
            continue
        return r16.save(family, i, img, sc, info, attempt, top)
    raise RuntimeError(f"{family} {i}: no photo after 60 attempts")


def lay(sc, kind, sprite, alpha, rad, shadow, side=None):
    """Draw ``sprite`` (a phone, a card) at a free place of ``sc`` clear by ``rad`` of what
    is there, turned at random, its shadow's strength drawn from the range ``shadow``."""
    rng = sc.rng
    c = sc.place_free(rad, edge=rad)
    angle = rng.uniform(0, 360)
    sc.draw_sprite(kind, sprite, alpha, c, angle, sprite.shape[1], rng.uniform(*shadow), side)


def main():
    r16.cli(COUNTS, make_one, DEFAULT_OUT)


if __name__ == "__main__":
    main()
