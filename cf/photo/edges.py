"""A tile cut by the photo's edge: the last check on a reading that stands
(:mod:`cf.photo.combined`).

A row of tiles running off the frame ends in a piece of a tile: too little of it for
either reader to outline, so it is left out and the total is short. Where the table is
not near the tiles' colour, tile face that no tile read covers, lying against the photo's
edge beside a tile read, is that piece: a doubt, never left out. Where it is near it (a
pastel cloth, cream paper), the piece is a region that no edge crosses, against the
photo's edge beside a tile read, nearer the faces' colour than the table's, there and as
a whole (:func:`_cut_on_light_table`); on a table of the faces' own colour nothing tells
it.
"""

from __future__ import annotations

import numpy as np

from cf.photo import reader
from cf.photo.oneset import sides
from cf.photo.reader import PhotoReading, Unreadable
from cf.photo.stats import median, percentile

#: Why such a place is in doubt.
CUT = "tile face at the photo's edge beside the tiles read: a tile cut by the frame?"

#: The photo is looked at scaled down to a long side of at most this, by a whole number
#: (bilinear, then a 3 x 3 mean: a tenth of the cost of averaging every pixel, and as
#: good for telling face colour from table).
SIZE = 400
#: Face colour: within this much of the tiles' face in Lab lightness (or a face in shade:
#: darker, nearer the faces' lightness than the table's), and in the a-b plane.
LIGHTNESS, CHROMA = 20.0, 10.0
#: The tiles read, grown this many times about their centres, are covered.
GROWN = 1.1
#: Strips narrower than this part of a tile's width are opened away (a tile's side, seen
#: in a slanted photo or beside the outline at the photo's edge; a shadow's rim).
STRIP = 0.2
#: A piece of face this part of a tile's area or more (a tile is twice as long as wide),
#: and no more than one tile: more is the table itself, of the face's colour (then nothing
#: tells a cut tile, and nothing is checked).
LEAST, MOST = 0.08, 1.0
#: ... within this part of a tile's width of a tile read (the tiles of a hand laid out lie
#: a tile's width apart or nearer; a tile cut by the frame may lie askew to the others).
NEAR = 1.0
#: A table (the median colour outside the tiles read) less than this far from the faces'
#: colour (Lab distance, 8-bit) is too near it to tell a piece of tile from: uneven light
#: and vignetting move a table's colour by tens of levels across a photo.
TABLE_APART = 60.0


def cut_by_edge(image: np.ndarray, reading: PhotoReading, reduction: int = 1) -> PhotoReading:
    """``reading`` with a doubt (:data:`CUT`) for each piece of tile face no tile read
    covers that lies against the photo's edge, beside a tile read; as it is when it is
    already refused or reads no tile. ``image``: the photo at 1/``reduction`` of its
    size."""
    import cv2

    from cf.photo.lab import bgr_to_lab

    if not reading.ok or not reading.reads:
        return reading
    image = reader.to_bgr8(np.asarray(image))
    height, width = image.shape[:2]
    step = max(1, -(-max(height, width) // SIZE))
    if min(height, width) < step:
        return reading
    small = cv2.resize(image, (width // step, height // step), interpolation=cv2.INTER_LINEAR)
    small = cv2.blur(small, (3, 3))
    scale = 1 / step
    lab = bgr_to_lab(small).astype(np.float32)
    h, w = small.shape[:2]
    to_small = scale / reduction
    boxes = [np.asarray(r.box, np.float64) * to_small for r in reading.reads]
    inside = np.zeros((h, w), np.uint8)
    covered = np.zeros((h, w), np.uint8)
    for box in boxes:
        centre = box.mean(axis=0)
        cv2.fillConvexPoly(inside, np.round(centre + (box - centre) * 0.8).astype(np.int32), 1)
        cv2.fillConvexPoly(covered, np.round(centre + (box - centre) * GROWN).astype(np.int32), 1)
    pixels = lab[inside > 0]
    if not len(pixels):
        return reading
    # The face, not its pips: the lighter part of what the tiles' middles hold.
    face = median(pixels[pixels[:, 0] >= percentile(pixels[:, 0], 40)], axis=0)
    tile_w = float(median([sides(b.tolist())[0] for b in boxes]))
    outside = lab[::2, ::2][covered[::2, ::2] == 0]  # a median needs no more
    table = median(outside, axis=0) if len(outside) else face
    if float(np.linalg.norm(table - face)) < TABLE_APART:
        return _cut_on_light_table(lab, reading, covered, face, table, tile_w, to_small)
    a, b = lab[:, :, 1] - face[1], lab[:, :, 2] - face[2]
    lightness = lab[:, :, 0]
    # Light falls unevenly: a tile farther from the lamp is darker than those read (never
    # lighter), still nearer the faces' lightness than the table's. (Shade may tint it a
    # little, so the hue is held to the faces' as closely as elsewhere, no closer: a pale
    # fingertip or light grey of that hue at the frame is refused as a cut tile too.)
    darker = face[0] - lightness
    near = (np.abs(darker) < LIGHTNESS) | ((darker > 0) & (darker < np.abs(lightness - table[0])))
    like = near & (a * a + b * b < CHROMA * CHROMA)
    mask = (like & (covered == 0)).astype(np.uint8)
    k = max(1, round(STRIP * tile_w))
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area = 2 * tile_w * tile_w
    if n < 2 or stats[1:, cv2.CC_STAT_AREA].max() > MOST * area:
        return reading
    away = cv2.distanceTransform((covered == 0).astype(np.uint8), cv2.DIST_L2, 3)
    doubts = []
    for i in range(1, n):
        x, y, bw, bh, pixels_in = (int(v) for v in stats[i])
        edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
        if pixels_in < LEAST * area or not edge:
            continue
        piece = labels == i
        if float(away[piece].min()) > NEAR * tile_w:
            continue
        doubts.append(_doubt(piece, to_small, reading))
    return _doubting(reading, doubts)


#: On a table near the faces' colour, a piece of tile is told by its outline: a region no
#: edge crosses (Canny on Lab lightness, these thresholds) ...
EDGE_LOW, EDGE_HIGH = 10, 30
#: ... whose median colour is nearer the faces' than the table's, both its median and the
#: table around the region (within this part of a tile's width: light falls unevenly), by
#: this part of the distance between the two; a table this near the faces' colour or
#: nearer (Lab, 8-bit) tells nothing (white tiles on white paper).
RING, NEARER, TABLE_MIN = 0.3, 0.5, 10.0
#: ... where that table, off the edges and the tiles read, is at least this part of the
#: piece's area (a piece against the frame has table on its other sides only).
RING_LEAST = 0.25


def _cut_on_light_table(
    lab: np.ndarray,
    reading: PhotoReading,
    covered: np.ndarray,
    face: np.ndarray,
    table: np.ndarray,
    tile_w: float,
    to_small: float,
) -> PhotoReading:
    """:func:`cut_by_edge` where the table is near the faces' colour (:data:`TABLE_APART`):
    each region that no edge crosses, off the tiles read, against the photo's edge beside a
    tile read, of a piece of tile's area (:data:`LEAST` to :data:`MOST` of a tile), of
    the faces' colour (no lighter by :data:`LIGHTNESS`, within :data:`CHROMA` of their
    hue) and nearer it than the table's median and than the table around it
    (:data:`NEARER`, :data:`RING`), is a doubt (:data:`CUT`)."""
    import cv2

    if float(np.linalg.norm(table - face)) < TABLE_MIN:
        return reading
    h, w = covered.shape
    l8 = np.clip(lab[:, :, 0], 0, 255).astype(np.uint8)
    edges = cv2.dilate(cv2.Canny(l8, EDGE_LOW, EDGE_HIGH), np.ones((3, 3), np.uint8))
    free = ((edges == 0) & (covered == 0)).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(free, connectivity=4)
    area = 2 * tile_w * tile_w
    away = cv2.distanceTransform((covered == 0).astype(np.uint8), cv2.DIST_L2, 3)
    reach = 2 * max(2, round(RING * tile_w)) + 1  # across: the ring's width each side
    around = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
    doubts = []
    for i in range(1, n):
        x, y, bw, bh, pixels_in = (int(v) for v in stats[i])
        edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
        if not edge or not LEAST * area <= pixels_in <= MOST * area:
            continue
        piece = labels == i
        if float(away[piece].min()) > NEAR * tile_w:
            continue
        # Nearer the faces' colour than the table's, and than the table's as lit around
        # it: light falls unevenly, and a pocket of table where it is lit brighter is
        # nearer the faces' colour than the table elsewhere.
        ring = cv2.dilate(piece.astype(np.uint8), around) > 0
        ring &= (labels != i) & (covered == 0) & (edges == 0)
        if ring.sum() < RING_LEAST * pixels_in:  # too little table around it to tell
            continue
        colour = median(lab[piece], axis=0)
        # Of the faces' colour as the colour check above takes it (not lighter by
        # LIGHTNESS, within CHROMA in the a-b plane): a glare spot or a lit patch of a
        # tinted table, closed off at the frame, is no piece of tile.
        off = colour - face
        if off[0] >= LIGHTNESS or float(np.hypot(off[1], off[2])) >= CHROMA:
            continue
        if not all(
            _nearer_face(colour, face, other) for other in (table, median(lab[ring], axis=0))
        ):
            continue
        doubts.append(_doubt(piece, to_small, reading))
    return _doubting(reading, doubts)


def _nearer_face(colour: np.ndarray, face: np.ndarray, table: np.ndarray) -> bool:
    """Whether ``colour`` is nearer ``face`` than ``table`` by :data:`NEARER` of the
    distance between the two, themselves at least :data:`TABLE_MIN` apart (Lab)."""
    apart = float(np.linalg.norm(table - face))
    to_face = float(np.linalg.norm(colour - face))
    return apart >= TABLE_MIN and to_face <= float(np.linalg.norm(colour - table)) - NEARER * apart


def _doubt(piece: np.ndarray, to_small: float, reading: PhotoReading) -> Unreadable:
    """The doubt (:data:`CUT`) over a piece of tile, outlined in the photo's pixels."""
    import cv2

    points = np.argwhere(piece)[:, ::-1].astype(np.float32)
    corners = cv2.boxPoints(cv2.minAreaRect(points)) / to_small
    corners[:, 0] = np.clip(corners[:, 0], 0, reading.width - 1)
    corners[:, 1] = np.clip(corners[:, 1], 0, reading.height - 1)
    return Unreadable([(round(float(px)), round(float(py))) for px, py in corners], [], CUT)


def _doubting(reading: PhotoReading, doubts: list[Unreadable]) -> PhotoReading:
    """``reading`` with ``doubts`` added (itself when there are none)."""
    if not doubts:
        return reading
    unreadable = [*reading.unreadable, *doubts]
    return PhotoReading(reading.reads, unreadable, reading.width, reading.height)
