"""The maps every stage of the photo reader (:mod:`cf.photo.reader`) works on.

Step 2 of the pipeline, and the tools the later steps share:

- :func:`tile_mask`: the tile faces of the working image (:data:`WORK_SIZE` pixels on
  its long side), light, low-chroma regions on LAB lightness above the background *as
  lit where the tile lies* (:func:`_lighting`, a quadratic surface fitted to the
  background), or on a light background whatever the border cannot reach without
  crossing an edge; holes (pips, dividers) filled;
- :func:`ink_map`: how strongly each pixel of a face stands out from it (darker, or of
  another colour): where the dividers (:mod:`cf.photo.dividers`), the pips
  (:mod:`cf.photo.pips`) and the marks of missed tiles (:mod:`cf.photo.missed`) are;
- :func:`sample` and :func:`holes_filled`: bilinear samples of a map, a mask's holes
  filled.
"""

from __future__ import annotations

import cv2
import numpy as np

from cf.photo.stats import median, percentile

#: Long side, in pixels, of the image the reader works on.
WORK_SIZE = 1024


def tile_mask(
    light: np.ndarray, ab: np.ndarray, darker: bool | None = None
) -> tuple[np.ndarray, bool]:
    """Light, low-chroma regions (tile faces) with their holes (pips) filled, as uint8 0/255,
    and whether the background is darker than the tiles (``darker``: taken as given, not
    measured)."""
    chroma = np.hypot(ab[:, :, 0], ab[:, :, 1])
    l8 = np.clip(light, 0, 255).astype(np.uint8)
    rise = light - _lighting(light)
    bg = float(median(border(rise)))
    neutral = rise[chroma < 25]
    face = float(percentile(neutral, 99.5)) if neutral.size else 0.0
    if darker is None:
        darker = face - bg >= 40
    if darker:
        # Tiles lighter than the background (as lit where they lie): halfway between.
        faces = (rise > (face + bg) / 2) & (chroma < 40)
    else:
        # A light background: the tiles are whatever the border cannot reach without
        # crossing an edge (tile outlines and their shadows). Where an outline is too
        # faint, the region leaks; dividers are still found in what is left of it.
        edges = cv2.Canny(l8, 10, 30)
        edges = cv2.dilate(edges, np.ones((3, 3), np.uint8), iterations=3)
        free = (edges == 0).astype(np.uint8)
        n, lab_free = cv2.connectedComponents(free, connectivity=4)
        outside = np.zeros(n, bool)
        edge_labels = np.concatenate([lab_free[0], lab_free[-1], lab_free[:, 0], lab_free[:, -1]])
        outside[edge_labels] = True
        outside[0] = False
        background = outside[lab_free]
        background = (
            cv2.erode(background.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=4) > 0
        )
        faces = (~background) & (chroma < 40)
    mask = faces.astype(np.uint8) * 255
    # Holes (pips, the divider) are filled before any opening: a divider that runs close
    # to the tile's edge must not be opened into a notch.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    # Thin bridges of cloth or shadow between tiles are cut by a small opening.
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8)), darker


def border(values: np.ndarray) -> np.ndarray:
    """The values of a map on the ring along the photo's edge (1/40 of its short side)."""
    h, w = values.shape[:2]
    ring = max(2, min(h, w) // 40)
    return np.concatenate(
        [
            values[:ring].ravel(),
            values[-ring:].ravel(),
            values[:, :ring].ravel(),
            values[:, -ring:].ravel(),
        ]
    )


#: A light, neutral table: its edge's median lightness above mid-grey (L* 50) and its
#: chroma below that of a tile face (:func:`tile_mask` takes faces as chroma under 25 when
#: it measures their level).
LIGHT_TABLE, NEUTRAL = 128.0, 25.0


def light_table(light: np.ndarray, ab: np.ndarray) -> bool:
    """Whether the photo's edge is a light, neutral table (white, grey or cream)."""
    chroma = np.hypot(ab[:, :, 0], ab[:, :, 1])
    return float(median(border(light))) > LIGHT_TABLE and float(median(border(chroma))) < NEUTRAL


def _lighting(light: np.ndarray) -> np.ndarray:
    """The background's lightness as lit, everywhere: a quadratic surface fitted to the
    pixels that are not tile face (starting from the photo's border), so that uneven light
    does not hide a tile in a dim corner."""
    h, w = light.shape
    f = 96 / max(h, w)
    small = cv2.resize(
        light, (max(2, round(w * f)), max(2, round(h * f))), interpolation=cv2.INTER_AREA
    )
    sh, sw = small.shape
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xs, ys = xx / sw - 0.5, yy / sh - 0.5
    basis = np.stack([np.ones_like(xs), xs, ys, xs * xs, xs * ys, ys * ys], axis=-1)
    ring = max(1, min(sh, sw) // 10)
    use = np.zeros((sh, sw), bool)
    use[:ring], use[-ring:], use[:, :ring], use[:, -ring:] = True, True, True, True
    coef = np.zeros(6, np.float32)
    for _ in range(3):
        a, b = basis[use], small[use]
        if b.size < 12:
            break
        coef = np.linalg.lstsq(a, b, rcond=None)[0].astype(np.float32)
        resid = small - basis @ coef
        spread = float(percentile(resid, 99))
        use = resid < max(12.0, 0.4 * spread)
        use = cv2.erode(use.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    # A row of x and a column of y, broadcast: the same sums, pixel by pixel, as on whole
    # grids, at a fraction of the cost.
    xs = np.arange(w, dtype=np.float32)[None, :] / w - 0.5
    ys = np.arange(h, dtype=np.float32)[:, None] / h - 0.5
    c = coef
    return c[0] + c[1] * xs + c[2] * ys + c[3] * xs * xs + c[4] * xs * ys + c[5] * ys * ys


def ink_map(light: np.ndarray, ab: np.ndarray, region: np.ndarray, scale: float) -> np.ndarray:
    """How strongly each pixel of ``region`` stands out from the face: darker than the face
    around it, or of another colour. Returns a float map, 1.0 at the detection threshold."""
    inside = region.astype(bool)
    if not inside.any():
        return np.zeros(light.shape, np.float32)
    face_l = float(percentile(light[inside], 70))
    face_ab = median_ab(ab, inside)
    filled = light.copy()
    filled[~inside] = face_l
    k = int(max(5, min(201, scale))) | 1
    local = cv2.morphologyEx(filled, cv2.MORPH_CLOSE, cv2.getStructuringElement(0, (k, k)))
    dark = (local - light) / max(28.0, 0.2 * face_l)
    colour = np.hypot(ab[:, :, 0] - face_ab[0], ab[:, :, 1] - face_ab[1]) / 24.0
    ink = np.maximum(dark, colour).astype(np.float32)
    ink[~inside] = 0
    return ink


def median_ab(ab: np.ndarray, where: np.ndarray) -> np.ndarray:
    """The median a and b of the pixels of ``ab`` (h x w x 2) where ``where`` is set: the
    values of ``np.median(ab[where], axis=0)``, a channel at a time (over twice as fast)."""
    return np.array([median(ab[:, :, 0][where]), median(ab[:, :, 1][where])])


def sample(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of a float image at (x, y) points."""
    h, w = image.shape[:2]
    xs, ys = pts[:, 0], pts[:, 1]
    outside = (xs < 0) | (ys < 0) | (xs > w - 1) | (ys > h - 1)
    xs, ys = np.clip(xs, 0, w - 1.001), np.clip(ys, 0, h - 1.001)
    x0, y0 = xs.astype(np.intp), ys.astype(np.intp)
    fx, fy = xs - x0, ys - y0
    top = image[y0, x0] * (1 - fx) + image[y0, x0 + 1] * fx
    bottom = image[y0 + 1, x0] * (1 - fx) + image[y0 + 1, x0 + 1] * fx
    values = top * (1 - fy) + bottom * fy
    values[outside] = 0
    return values


def holes_filled(binary: np.ndarray) -> np.ndarray:
    """``binary`` as uint8 0/1 with its holes filled (glare on a pip, a ring-shaped pip)."""
    out = binary.astype(np.uint8)
    contours, _ = cv2.findContours(out, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(out, contours, -1, 1, thickness=cv2.FILLED)
    return out
