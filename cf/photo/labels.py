"""What the networks learn from a synthetic photo of :mod:`cf.photo.scenes`: the tiles
net's class map (:func:`label_map`: tile face inside its rim, divider) and the upright
half-tiles the halves net reads (:func:`half_crops`), each half's number or "not a half".

>>> from cf.photo.scenes import render_family
>>> photo = render_family(3, "colour_body", size=(320, 240))
>>> sorted(set(label_map(photo, 160, 120).ravel().tolist())) in ([0, 1, 2], [0])
True
"""

from __future__ import annotations

import cv2
import numpy as np

from cf.photo import nets
from cf.photo.nets import upright
from cf.photo.synth import SynthPhoto

#: Class numbers of :func:`label_map`.
BACKGROUND, FACE, DIVIDER = 0, 1, 2


def _at(box: np.ndarray, s: float, t: float) -> np.ndarray:
    """The point at ``s`` across and ``t`` along a tile's outline (0..1 each)."""
    c0, c1, c2, c3 = np.asarray(box, np.float64)
    top = c0 + s * (c1 - c0)
    bottom = c3 + s * (c2 - c3)
    return top + t * (bottom - top)


#: The rim of a tile left out of its face class, as a part of the tile's width: touching
#: tiles come apart in the class map.
RIM = nets.RIM


def label_map(photo: SynthPhoto, width: int, height: int) -> np.ndarray:
    """The class map of ``photo`` at ``width`` x ``height``: :data:`FACE` inside each tile's
    rim, :data:`DIVIDER` on its divider, :data:`BACKGROUND` elsewhere (uint8). Tiles are
    drawn in the photo's order, a later one over an earlier one (its rim too): of a tile
    lying partly under others, only the face left to see is face."""
    out = np.zeros((height, width), np.uint8)
    sx = width / photo.image.shape[1]
    sy = height / photo.image.shape[0]
    scale = np.array([sx, sy])
    for box in photo.boxes:
        whole = np.round(np.asarray(box) * scale * 8).astype(np.int32)
        cv2.fillConvexPoly(out, whole, BACKGROUND, cv2.LINE_8, shift=3)
        r_s, r_t = RIM, RIM / 2
        quad = [_at(box, s, t) for s, t in ((r_s, r_t), (1 - r_s, r_t), (1 - r_s, 1 - r_t))]
        quad.append(_at(box, r_s, 1 - r_t))
        pts = np.round(np.array(quad) * scale * 8).astype(np.int32)
        cv2.fillConvexPoly(out, pts, FACE, cv2.LINE_8, shift=3)
        a, b = _at(box, 0.22, 0.5) * scale, _at(box, 0.78, 0.5) * scale
        tile_w = float(np.linalg.norm((box[1] - box[0]) * scale))
        thick = max(1, round(0.07 * tile_w))
        cv2.line(
            out, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), DIVIDER, thick
        )
    return out


def covered(photo: SynthPhoto) -> list[tuple[float, float]]:
    """For each tile of ``photo``, the part of each half (its box's corners 0-1 end first)
    that later tiles, drawn over it, cover: the areas where each later outline meets the
    half, summed (where two later tiles lie over the same part it counts twice) and at
    most 1. Tiles that only touch cover nothing."""
    out = []
    for i, box in enumerate(photo.boxes):
        shares = []
        for t0, t1 in ((0.0, 0.5), (0.5, 1.0)):
            corners = [_at(box, 0, t0), _at(box, 1, t0), _at(box, 1, t1), _at(box, 0, t1)]
            half = np.array(corners, np.float32)
            area = abs(cv2.contourArea(half))
            under = 0.0
            for later in photo.boxes[i + 1 :]:
                met, _ = cv2.intersectConvexConvex(half, np.asarray(later, np.float32))
                under += max(0.0, float(met))
            shares.append(min(1.0, under / area) if area > 0 else 0.0)
        out.append((shares[0], shares[1]))
    return out


def rim_map(photo: SynthPhoto, width: int, height: int) -> np.ndarray:
    """1 where a tile lies but :func:`label_map` says background (its rim, where touching
    tiles come apart), 0 elsewhere (uint8, ``width`` x ``height``): the tiles net's
    training weighs these pixels more."""
    inside = np.zeros((height, width), np.uint8)
    scale = np.array([width / photo.image.shape[1], height / photo.image.shape[0]])
    for box in photo.boxes:
        pts = np.round(np.asarray(box) * scale * 8).astype(np.int32)
        cv2.fillConvexPoly(inside, pts, 1, cv2.LINE_8, shift=3)
    return inside & (label_map(photo, width, height) == BACKGROUND)


#: Part of a half under another tile up to which it is read as its number (an edge
#: under another), and above which it is "not a half" (its pips cannot all be seen: the
#: trap sets' truth rule counts a pip field covered by more than 15% as unreadable);
#: between the two the half is left out of training.
EDGE_UNDER, HALF_UNDER = 0.02, 0.15


def half_crops(
    rng: np.random.Generator, photo: SynthPhoto, side: int, jitter: float = 0.06
) -> list[tuple[np.ndarray, int]]:
    """Upright half-tiles of ``photo``, ``side`` x ``side`` BGR, each with its number; the
    outline jittered by up to ``jitter`` tile widths, as a detector would find it. Also
    "not a half" crops (label -1): a box between two halves, off the tile, a face-down
    tile, a printed domino, a half under another tile (:func:`covered`; one with only an
    edge under another is left out)."""
    out: list[tuple[np.ndarray, int]] = []
    hidden = covered(photo)
    for box, halves, under in zip(photo.boxes, photo.halves, hidden, strict=True):
        tile_w = float(np.linalg.norm(box[1] - box[0]))
        noisy = np.asarray(box, np.float64) + rng.uniform(-jitter, jitter, (4, 2)) * tile_w
        # An outline found tight on the face inside the tile's edges (a reader that
        # outlines the face inside its bevel), or a little loose; a little off in one
        # direction more than the other.
        centre = noisy.mean(axis=0)
        across = (box[1] - box[0]) / max(tile_w, 1e-6)
        stretch = rng.uniform(0.72, 1.1) * np.eye(2) + rng.uniform(-0.08, 0.08) * np.outer(
            across, across
        )
        noisy = centre + (noisy - centre) @ stretch.T
        tile = upright(photo.image, noisy, side)
        first, second = tile[:side], tile[side:]
        # A half partly under another tile is no half to read (its pips cannot all be
        # seen); one with only an edge under another is left out (either may be right).
        labels = [n if share <= EDGE_UNDER else -1 for n, share in zip(halves, under, strict=True)]
        kept = [share <= EDGE_UNDER or share > HALF_UNDER for share in under]
        if rng.random() < 0.5:
            pair = [(first, labels[0]), (cv2.rotate(second, cv2.ROTATE_180), labels[1])]
        else:
            pair = [(cv2.rotate(first, cv2.ROTATE_180), labels[0]), (second, labels[1])]
        out += [crop for crop, keep in zip(pair, kept, strict=True) if keep]
        if rng.random() < 0.35:
            # Centred on the divider, or a half turned a quarter: neither is a half.
            mid = upright(photo.image, _shifted(noisy, 0.25), side)[:side]
            out.append((mid, -1))
    for box in photo.distractors:
        if rng.random() < 0.5:
            out.append((upright(photo.image, box, side)[:side], -1))
    h, w = photo.image.shape[:2]
    for _ in range(1 if photo.boxes else 2):
        if photo.boxes:
            size = float(np.linalg.norm(photo.boxes[0][1] - photo.boxes[0][0]))
        else:
            size = min(h, w) / 8
        x = rng.uniform(0, max(1.0, w - size))
        y = rng.uniform(0, max(1.0, h - size))
        square = np.array([[x, y], [x + size, y], [x + size, y + 2 * size], [x, y + 2 * size]])
        out.append((upright(photo.image, square, side)[:side], -1))
    return out


def _shifted(box: np.ndarray, t: float) -> np.ndarray:
    """``box`` moved ``t`` of its length along the tile."""
    along = (box[3] - box[0]) * t
    return box + along
