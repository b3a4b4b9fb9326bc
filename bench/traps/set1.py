#!/usr/bin/env python
"""Trap photo set 1: 1,100 adversarial photos for cf.photo.read_hand (14 families). Deterministic.

    nice -n 10 .venv/bin/python bench/traps/set1.py [--out DIR] [--only FAMILY ...] [--n N]

Writes DIR/img/<family>_<nnn>.png and DIR/meta.json ({file, family, truth, top,
should_refuse, size, notes}); DIR defaults to bench/out/traps/set1 (git-ignored). With
--only or --n it writes meta_partial.json instead (--only without --n re-makes whole
families in place in an existing meta.json). Built on the project's own generators
(cf.photo.synth: _tile_sprite, _composite; cf.photo.scenes: _ground, _style, _chain),
imported from the checkout GEN_TREE (default: the repository this file lives in), plus
image manipulations of our own. The photos depend on that cf's drawing code: the set
measured in bench/traps/README.md was drawn with the cf of commit 12849da.

Written as review16/make.py in the eleventh session; only the paths changed here (seeds,
families and counts are those the figures of bench/traps/README.md were measured on).

Truth rules
-----------
* truth = every face-up tile of the hand that lies (at least partly) in the frame, at its
  real value (a worn pip counts as the pip it was). Printed pictures, face-down tiles and
  cards are never in the truth. hand_points counts 0-0 as 50 (cf's default).
* should_refuse = True when some tile of the truth has part of a "pip field" (the square
  0.06..0.94 across x 0.03..0.47 / 0.53..0.97 along the tile, i.e. where its pips may lie)
  outside the frame or covered by another tile / a finger by more than 15 % (a tile cut
  or mostly hidden: its value cannot be seen). Photos where a pip field is covered between
  2 % and 15 % are not generated (re-drawn), so the rule has no borderline cases; a cut
  tile with less than 12 % of its area in the frame is not generated either.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
REPO = Path(__file__).resolve().parents[2]
GEN = str(Path(os.environ.get("GEN_TREE", REPO)).resolve())
sys.path.insert(0, GEN)

import cv2  # noqa: E402
import numpy as np  # noqa: E402

cv2.setNumThreads(1)

import cf  # noqa: E402
from cf.photo.scenes import _ground, _style  # noqa: E402
from cf.photo.synth import (  # noqa: E402
    LAYOUTS,
    PIP_COLOURS,
    _composite,
    _tile_sprite,
    rounded_alpha,
)
from cf.tiles import Tile  # noqa: E402

DEFAULT_OUT = REPO / "bench" / "out" / "traps" / "set1"

#: family -> how many photos. Index in this dict is part of every seed.
COUNTS = {
    "printed_same": 80,
    "printed_short": 80,
    "worn_pip": 100,
    "cut_major": 80,
    "cut_minor": 60,
    "faint00_corner": 80,
    "double_blank_facedown": 70,
    "facedown_groove": 80,
    "light_cards": 70,
    "touching_specks": 100,
    "overexposed": 80,
    "perspective": 80,
    "hidden_under_tile": 70,
    "hidden_finger": 70,
}


class Retry(Exception):
    pass


# --- geometry ------------------------------------------------------------------------------


def at(box, s, t):
    c0, c1, c2, c3 = np.asarray(box, np.float64)
    top = c0 + s * (c1 - c0)
    bottom = c3 + s * (c2 - c3)
    return top + t * (bottom - top)


def pip_fields(box):
    out = []
    for t0, t1 in ((0.03, 0.47), (0.53, 0.97)):
        out.append(
            np.array([at(box, s, t) for s, t in ((0.06, t0), (0.94, t0), (0.94, t1), (0.06, t1))])
        )
    return out


def tile_box(centre, angle, tile_w, hfac=2.0):
    """The box _composite gives a sprite of width round(tile_w), height hfac*w."""
    w = max(16, round(tile_w))
    h = round(hfac * w) if hfac != 2.0 else 2 * w
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += np.asarray(centre) - np.array([w / 2, h / 2])
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    return corners @ m[:, :2].T + m[:, 2]


def poly_mask(shape, poly):
    m = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(m, np.round(np.asarray(poly) * 8).astype(np.int32), 1, cv2.LINE_8, shift=3)
    return m


def visible_fraction(box, W, H):
    box = np.asarray(box, np.float32)
    frame = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
    area, _ = cv2.intersectConvexConvex(box, frame)
    return float(area) / max(1e-6, abs(cv2.contourArea(box)))


def inside(pts, W, H, margin=1.0):
    pts = np.asarray(pts)
    return bool(
        np.all(pts[:, 0] >= margin)
        and np.all(pts[:, 0] <= W - 1 - margin)
        and np.all(pts[:, 1] >= margin)
        and np.all(pts[:, 1] <= H - 1 - margin)
    )


# --- a scene -------------------------------------------------------------------------------

BODIES = (
    ["ivory"] * 5
    + ["white"] * 3
    + ["cream"] * 3
    + ["marble", "pink", "blue", "green", "red", "black"]
)
GROUNDS = ["cloth", "felt", "wood", "card", "paper", "white", "leather", "rug", "slate"]


def pick_tiles(rng, top, n, must=()):
    all_tiles = [Tile.of(a, b) for a in range(top + 1) for b in range(a + 1)]
    rest = [t for t in all_tiles if t not in must]
    picks = rng.choice(len(rest), size=n - len(must), replace=False)
    return list(must) + [rest[i] for i in picks]


class Scene:
    def __init__(
        self,
        rng,
        size,
        top,
        n,
        *,
        body=None,
        ground=None,
        scale=None,
        pad=None,
        shrink=1.0,
        must=(),
        grounds=GROUNDS,
        bodies=BODIES,
    ):
        self.rng = rng
        self.W, self.H = size
        # The scene is drawn on a canvas ``pad`` wider on each side than the frame; the
        # camera maps the frame's part of it (warped) to the photo, so a tilted or cut
        # photo shows more table, not a smear.
        pad = round(0.08 * max(size)) if pad is None else pad
        self.pad = pad
        self.top = top
        self.tiles = pick_tiles(rng, top, n, must)
        self.body = body or str(rng.choice(bodies))
        self.ground = ground or str(rng.choice(grounds))
        self.style = _style(rng, self.body, top)
        self.style["spinner"] = bool(rng.random() < 0.2)
        self.img = _ground(rng, self.ground, self.W + 2 * pad, self.H + 2 * pad)
        short = min(self.W, self.H)
        self.tile_w = (
            short / (scale or rng.uniform(5.5, 8.5)) / max(1.0, math.sqrt(n / 6)) * shrink
        )
        self.occupied = []  # (centre, radius)
        self.items = []  # dicts: kind, box, tile?, extra
        self.side = None
        if rng.random() < 0.4:
            th = rng.uniform(0, 2 * math.pi)
            self.side = (
                np.array([math.cos(th), math.sin(th)]) * self.tile_w * rng.uniform(0.05, 0.16)
            )

    # placement: everything fully inside the (unpadded) frame
    def place_free(self, radius, tries=300, edge=None):
        edge = radius if edge is None else edge
        p0 = self.pad
        if 2 * edge > min(self.W, self.H):
            # too big for this frame (a phone beside a hand in a small photo): the next
            # attempt draws a smaller scene, as for a group (numpy refuses high < low)
            raise Retry("too big for the frame")
        for _ in range(tries):
            p = np.array(
                [
                    self.rng.uniform(p0 + edge, p0 + self.W - edge),
                    self.rng.uniform(p0 + edge, p0 + self.H - edge),
                ]
            )
            if all(np.linalg.norm(p - q) > r + radius for q, r in self.occupied):
                self.occupied.append((p, radius))
                return p
        raise Retry("no room")

    def place_group(self, offsets, each, tries=300):
        offsets = np.asarray(offsets, np.float64)
        p0 = self.pad
        lo = offsets.min(axis=0) - each
        hi = offsets.max(axis=0) + each
        for _ in range(tries):
            xs = (p0 - lo[0], p0 + self.W - hi[0])
            ys = (p0 - lo[1], p0 + self.H - hi[1])
            if xs[0] > xs[1] or ys[0] > ys[1]:
                raise Retry("group too big")
            c = np.array([self.rng.uniform(*xs), self.rng.uniform(*ys)])
            pts = c + offsets
            if all(np.linalg.norm(pt - q) > r + each for pt in pts for q, r in self.occupied):
                for pt in pts:
                    self.occupied.append((pt, each))
                return list(pts)
        raise Retry("no room for group")

    def grid_offsets(self, n, kind, gap_frac=(0.0, 0.04)):
        w = self.tile_w
        gap = w * self.rng.uniform(*gap_frac)
        base = self.rng.uniform(0, 360)
        if kind == "chain":
            theta = math.radians(base)
            along = np.array([math.sin(theta), math.cos(theta)])
            step = 2 * w + gap
            return [along * (i - (n - 1) / 2) * step for i in range(n)], base
        cols = (
            min(n, int(self.rng.integers(3, 7))) if kind == "row" else math.ceil(math.sqrt(n * 2))
        )
        rows = math.ceil(n / cols)
        cell = np.array([w + gap, 2 * w + gap])
        grid = [np.array([c, r]) for r in range(rows) for c in range(cols)][:n]
        off = (np.array([cols, rows]) - 1) / 2
        theta = math.radians(base)
        rot = np.array([[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]])
        return [rot @ ((g - off) * cell) for g in grid], base

    def place_hand(self, tiles, layout=None, gap_frac=(0.0, 0.04)):
        """Centres and angles for ``tiles``: scattered, or a touching row/block/chain."""
        layout = layout or str(self.rng.choice(["scatter"] * 3 + ["row", "block", "chain"]))
        if len(tiles) < 2:
            layout = "scatter"
        if layout == "scatter":
            return [
                (
                    self.place_free(1.15 * self.tile_w, edge=1.15 * self.tile_w),
                    self.rng.uniform(0, 360),
                )
                for _ in tiles
            ], layout
        offs, angle = self.grid_offsets(len(tiles), layout, gap_frac)
        pts = self.place_group(offs, 1.13 * self.tile_w)
        return [(p, angle) for p in pts], layout

    def draw_tile(self, tile, centre, angle, style=None, hook=None, tile_w=None, count=True):
        w = tile_w or self.tile_w
        halves = (tile.low, tile.high) if self.rng.random() < 0.5 else (tile.high, tile.low)
        st = style or self.style
        sprite, alpha = _tile_sprite(self.rng, halves, w, "colour", st)
        if hook is not None:
            hook(sprite, alpha, halves, st)
        box = _composite(
            self.img,
            sprite,
            alpha,
            np.asarray(centre, np.float64),
            angle,
            w,
            self.rng,
            1,
            self.side,
        )
        item = {"kind": "tile" if count else "other", "tile": tile, "box": box, "halves": halves}
        self.items.append(item)
        return item

    def draw_sprite(self, kind, sprite, alpha, centre, angle, size_w, shadow=None, side=None):
        box = _composite(
            self.img,
            sprite.astype(np.float32),
            alpha,
            np.asarray(centre, np.float64),
            angle,
            size_w,
            self.rng,
            0,
            side,
            shadow,
        )
        item = {"kind": kind, "box": box}
        self.items.append(item)
        return item

    def hand_tiles(self):
        return [it for it in self.items if it["kind"] == "tile"]

    def truth(self):
        return [str(it["tile"]) for it in self.hand_tiles()]

    # the camera: light, glare, exposure, perspective, blur, noise, JPEG
    def camera(
        self,
        *,
        gain=1.0,
        glare=None,
        cast=False,
        tilt=None,
        persp=0.0,
        blur=None,
        noise=None,
        jpeg=None,
        vignette=0.0,
        light=0.25,
    ):
        rng = self.rng
        img = self.img
        h, w = img.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy = rng.uniform(-light, light, 2)
        img *= (1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5))[:, :, None]
        if vignette:
            r2 = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) / 0.5
            img *= (1 - vignette * r2)[:, :, None]
        # glare after the exposure: a pip under a glare spot stays darker than the face
        img = img * gain
        n_glare = int(rng.integers(0, 2)) if glare is None else glare
        for _ in range(n_glare):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            sigma = rng.uniform(0.01, 0.05) * min(w, h)
            g = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2))
            img += (g * rng.uniform(30, 80))[:, :, None]
        if cast:
            img *= rng.uniform(0.85, 1.15, 3).astype(np.float32)
        img = np.clip(img, 0, 255).astype(np.uint8)
        tilt = rng.uniform(0, 0.04) if tilt is None else tilt
        W, H, p = self.W, self.H, self.pad
        src = np.array([[p, p], [p + W, p], [p + W, p + H], [p, p + H]], np.float32)
        dst = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
        if tilt > 0:
            d = tilt * min(W, H)
            dst = dst + rng.uniform(-d, d, (4, 2)).astype(np.float32)
        if persp > 0:
            # A camera tilted away from one side: that side shrinks towards its middle,
            # the opposite one widens a little.
            side = int(rng.integers(4))
            far = [(0, 1), (1, 2), (2, 3), (3, 0)][side]
            near = [(3, 2), (0, 3), (1, 0), (2, 1)][side]
            for (a, b), k in ((far, 1 - persp), (near, 1 + rng.uniform(0.0, 0.12))):
                mid = (dst[a] + dst[b]) / 2
                dst[a] = mid + (dst[a] - mid) * k
                dst[b] = mid + (dst[b] - mid) * k
        m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        if p or tilt > 0 or persp > 0:
            img = cv2.warpPerspective(
                img, m, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
            for it in self.items:
                it["box"] = cv2.perspectiveTransform(
                    np.asarray(it["box"], np.float64).reshape(-1, 1, 2), m
                ).reshape(-1, 2)
        w, h = W, H
        blur = rng.uniform(0.3, 1.0) if blur is None else blur
        img = cv2.GaussianBlur(img, (0, 0), max(0.3, blur * max(w, h) / 1000))
        noise = rng.uniform(1, 3) if noise is None else noise
        img = np.clip(img + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)
        q = int(rng.integers(70, 96)) if jpeg is None else jpeg
        _ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        self.photo = cv2.imdecode(data, cv2.IMREAD_COLOR)

    def check_all_inside(self):
        """Every hand tile fully in the frame (after the camera)."""
        for it in self.hand_tiles():
            if not inside(it["box"], self.W, self.H, 0.5):
                raise Retry("tile left the frame")


# --- sprites of our own ---------------------------------------------------------------------


def printed_sprite(rng, halves, width, hfac, top):
    """A flat drawing of a domino: ink outline, bar and pips on paper; no bevel, no shadow.
    ``hfac`` is the length of each half over the width (1: a real tile's shape)."""
    w = max(16, round(width))
    hh = max(8, round(w * hfac))
    h = 2 * hh
    fill = (
        np.array([rng.uniform(228, 250)] * 3)
        if rng.random() < 0.6
        else np.array([rng.uniform(200, 225), rng.uniform(225, 240), rng.uniform(235, 248)])
    )
    ink = np.array([rng.uniform(10, 60)] * 3)
    radius = round(rng.choice([0.0, 0.04, 0.1]) * w)
    sprite = np.empty((h, w, 3), np.float32)
    sprite[:] = fill
    alpha = rounded_alpha(w, h, radius)
    thick = max(1, round(w * rng.uniform(0.015, 0.05)))
    outline = (alpha > 127).astype(np.uint8)
    inner = cv2.erode(outline, np.ones((2 * thick + 1, 2 * thick + 1), np.uint8))
    sprite[(outline > 0) & (inner == 0)] = ink
    dl = rng.uniform(0.55, 1.0) * w
    th = max(1, round(rng.uniform(0.02, 0.045) * w))
    cv2.rectangle(
        sprite,
        (round((w - dl) / 2), hh - th),
        (round((w + dl) / 2), hh + th),
        ink.tolist(),
        cv2.FILLED,
        cv2.LINE_AA,
    )
    colour_pips = rng.random() < 0.2
    pr = rng.uniform(0.07, 0.1) * min(w, hh)
    for part, number in enumerate(halves):
        r = pr * (0.68 if number > 9 else 1.0)
        c = np.array(PIP_COLOURS.get(number, (0, 0, 0)), float) if colour_pips else ink
        for x, y in LAYOUTS[number]:
            px = 0.1 * w + x * 0.8 * w
            py = part * hh + 0.1 * hh + y * 0.8 * hh
            cv2.circle(
                sprite,
                (round(px * 4), round(py * 4)),
                max(2, round(r * 4)),
                c.tolist(),
                cv2.FILLED,
                cv2.LINE_AA,
                shift=2,
            )
    return sprite, alpha


def paper_sheet(rng, w, h):
    fill = np.array([rng.uniform(230, 250)] * 3) * rng.uniform(0.97, 1.0, 3)
    sprite = np.empty((h, w, 3), np.float32)
    sprite[:] = fill
    return sprite, rounded_alpha(w, h, 0)


def facedown_hook(rng, groove, logo):
    """Paint a groove and a logo dot on a face-down sprite."""

    def hook(sprite, alpha, halves, style):
        h, w = alpha.shape
        body = np.asarray(style["ivory"], float)
        if groove:
            d = rng.uniform(18, 40)
            t = max(1, round(w * rng.uniform(0.012, 0.025)))
            if groove == "across":
                y = h // 2
                x0, x1 = round(0.06 * w), round(0.94 * w)
                cv2.line(
                    sprite, (x0, y), (x1, y), np.clip(body - d, 0, 255).tolist(), t, cv2.LINE_AA
                )
                cv2.line(
                    sprite,
                    (x0, y + t),
                    (x1, y + t),
                    np.clip(body + 12, 0, 255).tolist(),
                    t,
                    cv2.LINE_AA,
                )
            else:
                x = w // 2
                y0, y1 = round(0.05 * h), round(0.95 * h)
                cv2.line(
                    sprite, (x, y0), (x, y1), np.clip(body - d, 0, 255).tolist(), t, cv2.LINE_AA
                )
                cv2.line(
                    sprite,
                    (x + t, y0),
                    (x + t, y1),
                    np.clip(body + 12, 0, 255).tolist(),
                    t,
                    cv2.LINE_AA,
                )
        if logo:
            kind, where = logo
            r = max(2, round(w * rng.uniform(0.05, 0.12)))
            cx = w // 2
            cy = h // 2 if where == "centre" else (w // 2 if rng.random() < 0.5 else h - w // 2)
            if kind == "gold":
                cv2.circle(sprite, (cx, cy), r, (60, 150, 190), cv2.FILLED, cv2.LINE_AA)
            elif kind == "ink":
                cv2.circle(
                    sprite, (cx, cy), r, (40, 40, rng.uniform(60, 160)), cv2.FILLED, cv2.LINE_AA
                )
            elif kind == "ring":
                cv2.circle(
                    sprite,
                    (cx, cy),
                    r,
                    np.clip(body - 60, 0, 255).tolist(),
                    max(1, r // 4),
                    cv2.LINE_AA,
                )
            else:  # embossed: a darker disc with a light rim below
                cv2.circle(
                    sprite,
                    (cx, cy + max(1, r // 5)),
                    r,
                    np.clip(body + 12, 0, 255).tolist(),
                    cv2.FILLED,
                    cv2.LINE_AA,
                )
                cv2.circle(
                    sprite,
                    (cx, cy),
                    r,
                    np.clip(body - rng.uniform(25, 50), 0, 255).tolist(),
                    cv2.FILLED,
                    cv2.LINE_AA,
                )

    return hook


def draw_facedown(sc, centre, angle, hook=None):
    st = dict(sc.style, face_down=True)
    sprite, alpha = _tile_sprite(sc.rng, (0, 0), sc.tile_w, "black", st)
    if hook is not None:
        hook(sprite, alpha, (0, 0), st)
    return sc.draw_sprite("facedown", sprite, alpha, centre, angle, sc.tile_w, side=sc.side)


def dark_pips_only(sc):
    """Exposure families keep the pips dark enough to stay visible."""
    sc.style["pips"] = {n: (25, 25, 25) for n in range(16)}


# --- the families --------------------------------------------------------------------------


def fam_printed(sc, short):
    rng = sc.rng
    place, layout = sc.place_hand(sc.tiles)
    for t, (c, a) in zip(sc.tiles, place, strict=False):
        sc.draw_tile(t, c, a)
    k = int(rng.integers(1, 4))
    for _ in range(k):
        width = sc.tile_w * rng.uniform(0.9, 1.08)
        hfac = rng.uniform(0.6, 0.9) if short else 1.0
        halves = (int(rng.integers(0, sc.top + 1)), int(rng.integers(0, sc.top + 1)))
        sprite, alpha = printed_sprite(rng, halves, width, hfac, sc.top)
        angle = (
            place[0][1] + rng.choice([0, 90, 0])
            if layout != "scatter" and rng.random() < 0.5
            else rng.uniform(0, 360)
        )
        if rng.random() < 0.5:
            # on a sheet of paper
            m = rng.uniform(0.25, 0.9) * width
            sw, shh = round(sprite.shape[1] + 2 * m), round(sprite.shape[0] + 2 * m)
            rad = 0.5 * math.hypot(sw, shh) * 1.03
            c = sc.place_free(rad, edge=rad)
            sheet, salpha = paper_sheet(rng, sw, shh)
            sc.draw_sprite("paper", sheet, salpha, c, angle, sw, shadow=rng.uniform(0.05, 0.25))
            sc.draw_sprite("printed", sprite, alpha, c, angle, sprite.shape[1], shadow=0.0)
        else:
            rad = 0.5 * math.hypot(*sprite.shape[:2]) * 1.08
            c = sc.place_free(rad, edge=rad)
            sc.draw_sprite(
                "printed", sprite, alpha, c, angle, sprite.shape[1], shadow=rng.uniform(0.0, 0.15)
            )
    sc.camera()
    sc.check_all_inside()
    return {"should_refuse": False, "notes": {"printed": k, "layout": layout}}


def fam_worn(sc):
    rng = sc.rng
    place, layout = sc.place_hand(sc.tiles)
    # one tile (sometimes two) with a worn pip
    candidates = [i for i, t in enumerate(sc.tiles) if t.high > 0]
    if not candidates:
        raise Retry("no pips")
    worn = set(
        rng.choice(
            candidates, size=min(len(candidates), 1 + int(rng.random() < 0.2)), replace=False
        ).tolist()
    )
    notes = []

    def make_hook(i):
        def hook(sprite, alpha, halves, style):
            _h, w = alpha.shape
            parts = [p for p in (0, 1) if halves[p] > 0]
            # prefer an odd number's centre pip: removing it leaves the even layout
            odd = [p for p in parts if halves[p] % 2 == 1 and halves[p] < 13]
            part = int(rng.choice(odd)) if odd and rng.random() < 0.65 else int(rng.choice(parts))
            number = halves[part]
            layout_ = LAYOUTS[number]
            if number % 2 == 1 and (0.5, 0.5) in layout_ and rng.random() < 0.7:
                x, y = 0.5, 0.5
            else:
                x, y = layout_[int(rng.integers(len(layout_)))]
            r = style["pip"] * w * (0.68 if number > 9 else 1.0) * (0.85 if number > 12 else 1.0)
            px = 0.1 * w + x * 0.8 * w
            py = part * w + 0.1 * w + y * 0.8 * w
            body = np.asarray(style["ivory"], float)
            pip = np.asarray(style["pips"][number], float)
            a = rng.uniform(0.04, 0.25)
            col = body + a * (pip - body)
            cv2.circle(
                sprite,
                (round(px * 4), round(py * 4)),
                round((r * 1.15 + 1.2) * 4),
                col.tolist(),
                cv2.FILLED,
                cv2.LINE_AA,
                shift=2,
            )
            notes.append(
                {"tile": str(sc.tiles[i]), "half": number, "left": round(a, 3), "pip": [x, y]}
            )

        return hook

    for i, (t, (c, a)) in enumerate(zip(sc.tiles, place, strict=False)):
        sc.draw_tile(t, c, a, hook=make_hook(i) if i in worn else None)
    sc.camera()
    sc.check_all_inside()
    return {"should_refuse": False, "notes": {"worn": notes, "layout": layout}}


def fam_cut(sc, major):
    rng = sc.rng
    W, H, p = sc.W, sc.H, sc.pad
    w = sc.tile_w
    n_victims = 1 + int(rng.random() < 0.2 and len(sc.tiles) >= 3)
    victims = []
    for _v in range(n_victims):
        for _ in range(400):
            edge = int(rng.integers(4))
            angle = rng.choice([0.0, 90.0, rng.uniform(0, 360)])
            along = rng.uniform(1.3 * w, (W if edge in (0, 2) else H) - 1.3 * w)
            d = rng.uniform(-1.0, 1.1) * w if major else rng.uniform(0.5, 1.15) * w
            # edge 0 top, 1 right, 2 bottom, 3 left; d: centre's distance inside the frame
            cx, cy = {0: (along, d), 1: (W - d, along), 2: (along, H - d), 3: (d, along)}[edge]
            centre = np.array([cx + p, cy + p])
            box = tile_box(centre, angle, w) - p
            vis = visible_fraction(box, W, H)
            fields_in = all(inside(f, W, H, 1.5) for f in pip_fields(box))
            fields_far = all(inside(f, W, H, -3.0) for f in pip_fields(box))  # borderline guard
            ok = 0.12 <= vis <= 0.8 and not fields_far if major else vis < 0.995 and fields_in
            if ok and all(np.linalg.norm(centre - q) > r + 1.15 * w for q, r in sc.occupied):
                sc.occupied.append((centre, 1.15 * w))
                victims.append((centre, angle))
                break
        else:
            raise Retry("no victim place")
    rest = sc.tiles[n_victims:]
    place, layout = sc.place_hand(rest) if rest else ([], "none")
    for t, (c, a) in zip(sc.tiles, victims + place, strict=False):
        sc.draw_tile(t, c, a)
    sc.camera(tilt=rng.uniform(0, 0.02))
    refuse = False
    notes = []
    for i, it in enumerate(sc.hand_tiles()):
        vis = visible_fraction(it["box"], W, H)
        fields_in = all(inside(f, W, H, 1.0) for f in pip_fields(it["box"]))
        if i < n_victims:
            if major and (fields_in or vis < 0.1):
                raise Retry("victim drifted")
            if not major and not fields_in:
                raise Retry("victim drifted")
            notes.append({"tile": str(it["tile"]), "visible": round(vis, 3)})
        elif not inside(it["box"], W, H, 0.5):
            raise Retry("hand tile cut")
        refuse |= not fields_in
    return {"should_refuse": bool(refuse), "notes": {"cut": notes, "layout": layout}}


def fam_faint_corner(sc):
    rng = sc.rng
    w = sc.tile_w
    W, H = sc.W, sc.H
    zero = Tile.of(0, 0)
    angle = float(rng.choice([0.0, 90.0, rng.uniform(0, 360)]))
    box0 = tile_box((0, 0), angle, w)
    lo, hi = box0.min(axis=0), box0.max(axis=0)
    corner = int(rng.integers(4))
    m = rng.uniform(0.1, 0.6, 2) * w
    cx = m[0] - lo[0] if corner in (0, 3) else W - m[0] - hi[0]
    cy = m[1] - lo[1] if corner in (0, 1) else H - m[1] - hi[1]
    centre = np.array([cx, cy]) + sc.pad
    sc.occupied.append((centre, 1.15 * w))
    delta = rng.uniform(6, 10)
    st = dict(sc.style, spinner=False)
    st["bar"] = tuple(np.clip(np.asarray(sc.style["ivory"], float) - delta, 0, 255).tolist())
    sc.draw_tile(zero, centre, angle, style=st)
    rest = sc.tiles[1:]
    place, layout = sc.place_hand(rest) if rest else ([], "none")
    for t, (c, a) in zip(rest, place, strict=False):
        sc.draw_tile(t, c, a)
    sc.camera(vignette=rng.choice([0.0, 0.0, rng.uniform(0.1, 0.3)]), glare=0)
    sc.check_all_inside()
    return {
        "should_refuse": False,
        "notes": {"divider_delta": round(delta, 1), "corner": corner, "layout": layout},
    }


def fam_00_facedown(sc):
    rng = sc.rng
    w = sc.tile_w
    k = int(rng.integers(2, 6))
    group = k + 1
    kind = str(rng.choice(["row", "chain", "scatter"]))
    faint = rng.random() < 0.5
    delta = rng.uniform(6, 15) if faint else None
    st = dict(sc.style, spinner=False)
    if faint:
        st["bar"] = tuple(np.clip(np.asarray(sc.style["ivory"], float) - delta, 0, 255).tolist())
    groove = rng.random() < 0.3
    spots = []
    if kind == "scatter":
        spots = [(sc.place_free(1.15 * w), rng.uniform(0, 360)) for _ in range(group)]
    else:
        offs, ang = sc.grid_offsets(group, "row" if kind == "row" else "chain", (0.0, 0.06))
        spots = [(c, ang) for c in sc.place_group(offs, 1.13 * w)]
    where = int(rng.integers(group))
    for j, (c, a) in enumerate(spots):
        if j == where:
            sc.draw_tile(Tile.of(0, 0), c, a, style=st)
        else:
            draw_facedown(sc, c, a, facedown_hook(rng, "along" if groove else None, None))
    rest = sc.tiles[1:]
    place, _layout = sc.place_hand(rest) if rest else ([], "none")
    for t, (c, a) in zip(rest, place, strict=False):
        sc.draw_tile(t, c, a)
    sc.camera(glare=0)
    sc.check_all_inside()
    return {
        "should_refuse": False,
        "notes": {
            "facedown": k,
            "arrangement": kind,
            "divider_delta": None if delta is None else round(delta, 1),
        },
    }


def fam_facedown_groove(sc):
    rng = sc.rng
    w = sc.tile_w
    k = int(rng.integers(1, 5))
    touching = rng.random() < 0.4 and len(sc.tiles) >= 2
    kinds = [
        (
            str(rng.choice(["across", "across", "along"])),
            (
                str(rng.choice(["gold", "ink", "ring", "emboss"])),
                "centre" if rng.random() < 0.7 else "half",
            ),
        )
        for _ in range(k)
    ]
    hooks = [facedown_hook(rng, g, lg) for g, lg in kinds]
    if touching:
        # face-down tiles at the end of the hand's own row
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
                draw_facedown(sc, pts[slot], ang, hooks.pop())
        layout = "row+facedown"
    else:
        place, layout = sc.place_hand(sc.tiles)
        for t, (c, a) in zip(sc.tiles, place, strict=False):
            sc.draw_tile(t, c, a)
        for hk in hooks:
            draw_facedown(sc, sc.place_free(1.15 * w), rng.uniform(0, 360), hk)
    sc.camera()
    sc.check_all_inside()
    return {
        "should_refuse": False,
        "notes": {"facedown": k, "layout": layout, "kinds": [[g, *lg] for g, lg in kinds]},
    }


def fam_cards(sc):
    rng = sc.rng
    w = sc.tile_w
    place, layout = sc.place_hand(sc.tiles)
    for t, (c, a) in zip(sc.tiles, place, strict=False):
        sc.draw_tile(t, c, a)
    k = int(rng.integers(1, 4))
    for _ in range(k):
        cw = round(w * rng.uniform(0.8, 1.4))
        ch = round(cw * rng.uniform(1.4, 2.2))
        fill = (
            np.array([rng.uniform(225, 250)] * 3)
            if rng.random() < 0.6
            else np.array([rng.uniform(200, 225), rng.uniform(228, 245), rng.uniform(238, 250)])
        )
        sprite = np.empty((ch, cw, 3), np.float32)
        sprite[:] = fill
        alpha = rounded_alpha(cw, ch, round(cw * rng.choice([0.0, 0.03, 0.06])))
        r = max(2, cw * rng.uniform(0.06, 0.12))
        f = rng.uniform(0.12, 0.3)
        col = (
            (rng.uniform(15, 60),) * 3
            if rng.random() < 0.6
            else (rng.uniform(20, 80), rng.uniform(20, 80), rng.uniform(120, 200))
        )
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
        rad = 0.5 * math.hypot(cw, ch) * 1.08
        c = sc.place_free(rad, edge=rad)
        sc.draw_sprite(
            "card", sprite, alpha, c, rng.uniform(0, 360), cw, shadow=rng.uniform(0.05, 0.3)
        )
    sc.camera()
    sc.check_all_inside()
    return {"should_refuse": False, "notes": {"cards": k, "layout": layout}}


def fam_specks(sc):
    rng = sc.rng
    w = sc.tile_w
    layout = str(rng.choice(["row", "block", "block", "chain"]))
    place, layout = sc.place_hand(sc.tiles, layout, gap_frac=(0.0, 0.012))
    for t, (c, a) in zip(sc.tiles, place, strict=False):
        sc.draw_tile(t, c, a)
    boxes = [it["box"] for it in sc.hand_tiles()]
    seams = []
    for i, bi in enumerate(boxes):
        for j, bj in enumerate(boxes):
            if i == j:
                continue
            cj = bj.astype(np.float32).reshape(-1, 1, 2)
            for e in range(4):
                a, b = bi[e], bi[(e + 1) % 4]
                for s in np.linspace(0.08, 0.92, 15):
                    pt = a + s * (b - a)
                    if (
                        abs(cv2.pointPolygonTest(cj, (float(pt[0]), float(pt[1])), True))
                        < 0.05 * w
                    ):
                        seams.append(pt)
    if not seams:
        raise Retry("no seams")
    n = int(rng.integers(3, 16))
    dark = bright = 0
    for _ in range(n):
        pt = seams[int(rng.integers(len(seams)))] + rng.normal(0, 0.012 * w, 2)
        r = max(1.0, w * rng.uniform(0.02, 0.06))
        if rng.random() < 0.5:
            c = rng.uniform(15, 70)
            cv2.circle(
                sc.img,
                (round(pt[0] * 4), round(pt[1] * 4)),
                round(r * 4),
                (c, c, c),
                cv2.FILLED,
                cv2.LINE_AA,
                shift=2,
            )
            dark += 1
        else:
            s = max(1.0, r)
            x0, y0 = int(pt[0] - 4 * s), int(pt[1] - 4 * s)
            x1, y1 = int(pt[0] + 4 * s) + 1, int(pt[1] + 4 * s) + 1
            x0, y0 = max(0, x0), max(0, y0)
            yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
            g = np.exp(-((xx - pt[0]) ** 2 + (yy - pt[1]) ** 2) / (2 * s**2)) * rng.uniform(
                80, 220
            )
            sc.img[y0:y1, x0:x1] += g[: sc.img.shape[0] - y0, : sc.img.shape[1] - x0, None]
            bright += 1
    sc.camera()
    sc.check_all_inside()
    return {"should_refuse": False, "notes": {"layout": layout, "dark": dark, "bright": bright}}


def fam_overexposed(sc):
    rng = sc.rng
    dark_pips_only(sc)
    if rng.random() < 0.75:
        g = rng.uniform(105, 160)
        sc.style["bar"] = (g, g, g)
    place, layout = sc.place_hand(sc.tiles)
    for t, (c, a) in zip(sc.tiles, place, strict=False):
        sc.draw_tile(t, c, a)
    gain = rng.uniform(1.7, 2.6)
    sc.camera(
        gain=gain,
        glare=int(rng.integers(0, 3)),
        cast=rng.random() < 0.3,
        tilt=rng.uniform(0, 0.08),
        light=0.15,
    )
    sc.check_all_inside()
    return {
        "should_refuse": False,
        "notes": {"gain": round(gain, 2), "bar": sc.style["bar"][0], "layout": layout},
    }


def fam_perspective(sc):
    rng = sc.rng
    th = rng.uniform(0, 2 * math.pi)
    sc.side = np.array([math.cos(th), math.sin(th)]) * sc.tile_w * rng.uniform(0.12, 0.3)
    gain = rng.choice([1.0, 1.0, rng.uniform(1.4, 2.0)])
    light = sc.body in ("ivory", "white", "cream", "marble")
    if light and (rng.random() < 0.3 or (gain > 1 and sc.body in ("white", "marble"))):
        # black pips; and no light colour pips (a grey 12) washed out by the exposure
        dark_pips_only(sc)
    place, layout = sc.place_hand(sc.tiles)
    for t, (c, a) in zip(sc.tiles, place, strict=False):
        sc.draw_tile(t, c, a)
    persp = rng.uniform(0.25, 0.55)
    sc.camera(persp=persp, tilt=rng.uniform(0.02, 0.08), gain=gain)
    sc.check_all_inside()
    small = min(np.linalg.norm(it["box"][1] - it["box"][0]) for it in sc.hand_tiles())
    if small < 16:
        raise Retry("too small")
    return {
        "should_refuse": False,
        "notes": {"persp": round(persp, 2), "gain": round(float(gain), 2), "layout": layout},
    }


def _local_masks(shape, poly_list):
    """Masks of polygons cut to the bounding box of the first one (cached per tile)."""
    pts = np.asarray(poly_list[0])
    x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 2
    x1, y1 = min(x1, shape[1]), min(y1, shape[0])
    sub = (y1 - y0, x1 - x0)
    return (y0, y1, x0, x1), [poly_mask(sub, np.asarray(p) - (x0, y0)) for p in poly_list]


def covered(sc, mask, items):
    """Per hand tile: (share of its area, largest share of a pip field) under ``mask``."""
    out = []
    for it in items:
        if "masks" not in it:
            it["masks"] = _local_masks(mask.shape, [it["box"], *pip_fields(it["box"])])
        (y0, y1, x0, x1), ms = it["masks"]
        m = mask[y0:y1, x0:x1]
        covs = [float((mm & m).sum()) / max(1, int(mm.sum())) for mm in ms]
        out.append((covs[0], max(covs[1:])))
    return out


def fam_hidden_tile(sc):
    rng = sc.rng
    w = sc.tile_w
    victim, cover = sc.tiles[0], sc.tiles[1]
    c = sc.place_free(2.4 * w, edge=2.4 * w)
    a_v = rng.uniform(0, 360)
    vbox = tile_box(c, a_v, w)
    shape = sc.img.shape[:2]
    vmask = poly_mask(shape, vbox)
    for _ in range(300):
        a_c = a_v + rng.choice([0.0, 90.0, rng.uniform(0, 360)])
        off = rng.uniform(-0.9, 0.9, 2) * w
        cbox = tile_box(c + off, a_c, w)
        cm = poly_mask(shape, cbox)
        cov = float((vmask & cm).sum()) / max(1, int(vmask.sum()))
        if 0.45 <= cov <= 0.92:
            fcov = max(
                float((poly_mask(shape, f) & cm).sum()) / max(1, int(poly_mask(shape, f).sum()))
                for f in pip_fields(vbox)
            )
            if fcov > 0.15:
                break
    else:
        raise Retry("no cover")
    sc.draw_tile(victim, c, a_v)
    sc.draw_tile(cover, c + off, a_c)
    rest = sc.tiles[2:]
    place, layout = sc.place_hand(rest) if rest else ([], "none")
    for t, (cc, a) in zip(rest, place, strict=False):
        sc.draw_tile(t, cc, a)
    sc.camera()
    for it in sc.hand_tiles():
        if not inside(it["box"], sc.W, sc.H, 0.5):
            raise Retry("left frame")
    return {
        "should_refuse": True,
        "notes": {
            "hidden": str(victim),
            "under": str(cover),
            "covered": round(cov, 3),
            "field_covered": round(fcov, 3),
            "layout": layout,
        },
    }


def finger_layer(rng, shape, tip, direction, width, blob):
    layer = np.zeros(shape, np.float32)
    if blob:
        ang = math.degrees(math.atan2(direction[1], direction[0]))
        axes = (round(width * rng.uniform(1.3, 2.2)), round(width * rng.uniform(0.8, 1.2)))
        cv2.ellipse(layer, (round(tip[0]), round(tip[1])), axes, ang, 0, 360, 1.0, cv2.FILLED)
    else:
        base = tip + direction * width * 8
        cv2.line(
            layer,
            (round(tip[0]), round(tip[1])),
            (round(base[0]), round(base[1])),
            1.0,
            max(2, round(width)),
            cv2.LINE_AA,
        )
    return layer


def fam_hidden_finger(sc):
    rng = sc.rng
    w = sc.tile_w
    light_touch = rng.random() < 0.15
    place, layout = sc.place_hand(sc.tiles)
    for t, (c, a) in zip(sc.tiles, place, strict=False):
        sc.draw_tile(t, c, a)
    shape = sc.img.shape[:2]
    vi = int(rng.integers(len(sc.tiles)))
    victim = sc.hand_tiles()[vi]
    vc = np.mean(victim["box"], axis=0)
    blob = rng.random() < 0.35
    for _ in range(200):
        th = rng.uniform(0, 2 * math.pi)
        direction = np.array([math.cos(th), math.sin(th)])
        fw = w * rng.uniform(0.55, 0.95)
        tip = vc + rng.uniform(-1.0, 1.0, 2) * w * (1.6 if light_touch else 1.0)
        layer = finger_layer(rng, shape, tip, direction, fw, blob)
        mask = (layer > 0.5).astype(np.uint8)
        covs = covered(sc, mask, sc.hand_tiles())
        fmax = max(f for _, f in covs)
        if light_touch:
            if covs[vi][0] > 0.03 and fmax < 0.02:
                break
        elif (
            0.45 <= covs[vi][0] <= 0.95
            and covs[vi][1] > 0.15
            and all(f < 0.02 or f > 0.15 for _, f in covs)
        ):
            break
    else:
        raise Retry("no finger")
    # shadow, then the skin with rounded shading and a nail
    soft = cv2.GaussianBlur(layer, (0, 0), max(1.0, 0.06 * w))
    sh = cv2.warpAffine(
        soft, np.float32([[1, 0, 0.1 * w], [0, 1, 0.12 * w]]), (shape[1], shape[0])
    )
    sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, 0.15 * w)) * rng.uniform(0.3, 0.55)
    sc.img *= (1 - sh)[:, :, None]
    skin = np.array(
        [rng.uniform(110, 190), rng.uniform(140, 200), rng.uniform(180, 240)], np.float32
    )
    dist = cv2.distanceTransform((layer > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 0.72 + 0.28 * np.clip(dist / max(1.0, 0.35 * fw), 0, 1) ** 0.6
    colour = shade[:, :, None] * skin[None, None, :]
    if not blob and rng.random() < 0.6:
        nail = np.zeros(shape, np.float32)
        nc = tip + direction * fw * 0.45
        cv2.ellipse(
            nail,
            (round(nc[0]), round(nc[1])),
            (round(fw * 0.45), round(fw * 0.32)),
            math.degrees(th),
            0,
            360,
            1.0,
            cv2.FILLED,
            cv2.LINE_AA,
        )
        nail = cv2.GaussianBlur(nail, (0, 0), max(1.0, 0.05 * w)) * (layer > 0.5)
        colour = (
            colour * (1 - 0.5 * nail[:, :, None])
            + (skin * 1.15 + 20)[None, None, :] * 0.5 * nail[:, :, None]
        )
    sc.img[:] = sc.img * (1 - soft[:, :, None]) + colour * soft[:, :, None]
    sc.camera()
    for it in sc.hand_tiles():
        if not inside(it["box"], sc.W, sc.H, 0.5):
            raise Retry("left frame")
    refuse = not light_touch
    return {
        "should_refuse": refuse,
        "notes": {
            "hidden": str(victim["tile"]),
            "blob": blob,
            "covered": round(covs[vi][0], 3),
            "field_covered": round(covs[vi][1], 3),
            "light_touch": light_touch,
            "layout": layout,
        },
    }


# --- driver --------------------------------------------------------------------------------


def make_one(family, i, img):
    fid = list(COUNTS).index(family)
    for attempt in range(60):
        rng = np.random.default_rng([16, fid, i, attempt])
        size = (640, 480) if rng.random() < 0.55 else (1600, 1200)
        top = int(rng.choice([6, 9, 12]))
        shrink = 0.93**attempt
        try:
            if family in ("printed_same", "printed_short"):
                sc = Scene(rng, size, top, int(rng.integers(1, 13)), shrink=shrink)
                info = fam_printed(sc, family == "printed_short")
            elif family == "worn_pip":
                sc = Scene(rng, size, top, int(rng.integers(1, 13)), shrink=shrink)
                info = fam_worn(sc)
            elif family in ("cut_major", "cut_minor"):
                n = int(rng.integers(1, 13))
                sc = Scene(rng, size, top, n, shrink=shrink, pad=round(min(size) / 3))
                info = fam_cut(sc, family == "cut_major")
            elif family == "faint00_corner":
                sc = Scene(
                    rng,
                    size,
                    top,
                    int(rng.integers(1, 13)),
                    shrink=shrink,
                    must=(Tile.of(0, 0),),
                    bodies=["ivory"] * 3 + ["white", "cream", "cream"],
                )
                info = fam_faint_corner(sc)
            elif family == "double_blank_facedown":
                sc = Scene(
                    rng,
                    size,
                    top,
                    int(rng.integers(1, 11)),
                    shrink=shrink,
                    must=(Tile.of(0, 0),),
                    bodies=["ivory"] * 3 + ["white", "cream", "cream"],
                )
                info = fam_00_facedown(sc)
            elif family == "facedown_groove":
                sc = Scene(rng, size, top, int(rng.integers(1, 13)), shrink=shrink)
                info = fam_facedown_groove(sc)
            elif family == "light_cards":
                sc = Scene(rng, size, top, int(rng.integers(1, 13)), shrink=shrink)
                info = fam_cards(sc)
            elif family == "touching_specks":
                sc = Scene(rng, size, top, int(rng.integers(2, 13)), shrink=shrink)
                info = fam_specks(sc)
            elif family == "overexposed":
                sc = Scene(
                    rng,
                    size,
                    top,
                    int(rng.integers(1, 13)),
                    shrink=shrink,
                    bodies=["ivory", "ivory", "white", "cream", "marble"],
                    grounds=["cloth", "felt", "wood", "leather", "slate", "rug"],
                )
                info = fam_overexposed(sc)
            elif family == "perspective":
                sc = Scene(
                    rng,
                    size,
                    top,
                    int(rng.integers(1, 13)),
                    shrink=shrink,
                    scale=rng.uniform(4.5, 7.0),
                    pad=round(0.55 * max(size)),
                )
                info = fam_perspective(sc)
            elif family == "hidden_under_tile":
                sc = Scene(rng, size, top, int(rng.integers(2, 13)), shrink=shrink)
                info = fam_hidden_tile(sc)
            elif family == "hidden_finger":
                sc = Scene(rng, size, top, int(rng.integers(1, 13)), shrink=shrink)
                info = fam_hidden_finger(sc)
            else:
                raise ValueError(family)
        except Retry:
            continue
        return save(family, i, img, sc, info, attempt, top)
    raise RuntimeError(f"{family} {i}: no photo after 60 attempts")


def save(family, i, img, sc, info, attempt, top):
    """Write one photo to ``img`` and return its meta.json entry."""
    name = f"{family}_{i:03d}.png"
    cv2.imwrite(str(img / name), sc.photo)
    notes = dict(info["notes"], attempt=attempt, ground=sc.ground, body=sc.body)
    return {
        "file": name,
        "family": family,
        "truth": sc.truth(),
        "top": top,
        "should_refuse": bool(info["should_refuse"]),
        "size": [sc.W, sc.H],
        "notes": notes,
    }


def cli(counts, make_one, default_out):
    """The command line of a set: ``counts`` (family -> photos), ``make_one(family, i,
    img)`` drawing one photo, ``default_out`` the set's directory."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--n", type=int, help="at most N photos per family (a trial)")
    ap.add_argument(
        "--out", type=Path, default=default_out, help="set directory (img/, meta.json)"
    )
    args = ap.parse_args()
    out = args.out
    img = out / "img"
    img.mkdir(parents=True, exist_ok=True)
    print("drawing with cf from", cf.__file__, flush=True)
    meta = []
    t0 = time.time()
    for family, count in counts.items():
        if args.only and family not in args.only:
            continue
        t1 = time.time()
        for i in range(count if args.n is None else min(count, args.n)):
            meta.append(make_one(family, i, img))
        print(
            f"{family:24s} {sum(m['family'] == family for m in meta):4d} photos "
            f"{time.time() - t1:6.1f}s",
            flush=True,
        )
    if args.n is None and args.only and (out / "meta.json").exists():
        # whole families re-made: their entries in meta.json are replaced in place
        old = json.loads((out / "meta.json").read_text())
        new = {m["file"]: m for m in meta}
        kept = [
            new.pop(m["file"], m) for m in old if m["family"] not in args.only or m["file"] in new
        ]
        meta = kept + list(new.values())
        name = "meta.json"
    else:
        name = "meta.json" if not args.only and args.n is None else "meta_partial.json"
    (out / name).write_text(json.dumps(meta, indent=1))
    print(f"{len(meta)} photos, {time.time() - t0:.0f}s -> {out / name}")


def main():
    cli(COUNTS, make_one, DEFAULT_OUT)


if __name__ == "__main__":
    main()
