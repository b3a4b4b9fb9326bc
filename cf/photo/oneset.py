"""One hand is one set: the checks on a reading that stands (:mod:`cf.photo.combined`).

A hand's tiles are of one set, so they are alike in size (:func:`alike_in_size`) and in
colour (:func:`alike_in_colour`): a tile read that is much smaller than the others, or not
their colour, is a printed picture of a domino, another set's tile or a misread, a doubt
with its tile as the candidate, never counted.
"""

from __future__ import annotations

import numpy as np

from cf.photo import reader
from cf.photo.reader import PhotoReading
from cf.photo.stats import median

#: One hand is one set, so its tiles are alike in size: a tile read whose outline is less
#: than this part of the other tiles' (the median of both its sides) is a printed picture
#: of a domino, a tile of another set or a misread, never counted. Set on synthetic photos
#: (seeds apart from the benchmark's), by the readers' own outlines: of 3,741 tiles read in
#: scenes, 4 were under 0.8 of the others (all 4 under 0.7), and of 72 printed dominoes and
#: face-down tiles read, 57 (46 under 0.7); of 1,582 tiles read in render_hand's angled
#: shots, 3 (2 under 0.7).
SMALLEST = 0.8

#: Doubts no other reader settles: a tile much smaller than its hand's (a printed picture).
SMALL = "much smaller than the other tiles (a printed picture of a domino?)"


def under_others(sizes: list[tuple[float, float]], i: int) -> tuple[bool, bool]:
    """Whether the ``i``-th of outlines' (width, length) ``sizes`` is under
    :data:`SMALLEST` of the others' median width, and of their median length (neither,
    with no others)."""
    others = sizes[:i] + sizes[i + 1 :]
    if not others:
        return False, False
    width = float(median([w for w, _ in others]))
    length = float(median([n for _, n in others]))
    return sizes[i][0] < SMALLEST * width, sizes[i][1] < SMALLEST * length


def sides(box: list[tuple[int, int]]) -> tuple[float, float]:
    """An outline's width and length: the means of its two shorter and two longer sides."""
    pts = np.asarray(box, np.float64)
    lengths = sorted(float(np.linalg.norm(pts[i] - pts[i - 1])) for i in range(len(pts)))
    return (lengths[0] + lengths[1]) / 2, (lengths[-1] + lengths[-2]) / 2


def alike_in_size(reading: PhotoReading) -> PhotoReading:
    """``reading`` with every tile read much smaller than the others of its hand (both its
    width and its length under :data:`SMALLEST` of the others' median) moved to the
    unreadable: a hand holds tiles of one set, a printed picture of a domino is smaller."""
    boxes = [r.box for r in reading.reads] + [u.box for u in reading.unreadable]
    if len(reading.reads) + len(reading.unreadable) < 2:
        return reading
    sizes = [sides(b) for b in boxes]
    return reading.doubting(
        [all(under_others(sizes, i)) for i in range(len(reading.reads))], SMALL
    )


#: Why a tile read is in doubt: its face is not the colour of the others' (one hand is one
#: set).
COLOUR = "not the colour of the other tiles (a printed picture, or another set's tile?)"

#: One hand is one set, so its tiles are alike in colour too: a tile read whose face's
#: saturation (the median over it of (max - min) / max of a pixel's B, G, R: 0 for white,
#: grey and black, about 0.3 for cream, 0.4 for pink, 0.7 to 0.8 for red, blue and green
#: sets) is this far from the median of the others' is a printed picture or another set's
#: tile, a doubt: white paper in a strongly coloured set's row, such a tile among white
#: ones. Saturation is what a shadow or a dimmer light leaves as it is (it scales a pixel's
#: channels alike); a warm lamp over part of a hand can make white as saturated as 0.5,
#: hence the bound. An independent review's shadows and warm-and-cool light over part of a
#: hand refused right readings when lightness and the Lab a-b plane were compared (with
#: bounds of 120 and 30) and, with this measure, under a bound of 0.3. Pink or cream sets,
#: and a white tile among black ones, are not told so.
SATURATION_APART = 0.5

#: A face's colour, measured two ways that fail apart: the median of the middle of its
#: outline (this part of it about its centre; big pips can fill most of it) and of the band
#: between these two parts of it (clear of pips, but on the table when the outline is
#: loose). A tile is of another colour only by both.
FACE_MIDDLE, FACE_BAND = (0.0, 0.6), (0.75, 0.92)


def alike_in_colour(image: np.ndarray, reading: PhotoReading, reduction: int = 1) -> PhotoReading:
    """``reading`` with every tile read whose face is not the colour of the others' (see
    :data:`SATURATION_APART`, :data:`FACE_MIDDLE`) moved to the unreadable with its tile as
    the candidate: a red set's hand beside a white printed picture of a domino. A reading
    of one tile is as it is."""
    if len(reading.reads) < 2:
        return reading
    image = reader.to_bgr8(np.asarray(image))
    odd = np.ones(len(reading.reads), bool)
    both = [_face_saturations(image, r.box, reduction) for r in reading.reads]
    for way in (0, 1):
        values = [c[way] for c in both]
        odd &= [_apart(values, i) for i in range(len(values))]
    return reading.doubting([bool(o) for o in odd], COLOUR)


def _apart(values: list[float | None], i: int) -> bool:
    """Whether the ``i``-th of tiles' face saturations is :data:`SATURATION_APART` or more
    from the median of the others'; never for one not measured or with no other measured."""
    others = [v for j, v in enumerate(values) if j != i and v is not None]
    value = values[i]
    if value is None or not others:
        return False
    return abs(value - float(median(others))) >= SATURATION_APART


def _face_saturations(
    image: np.ndarray, box: list[tuple[int, int]], reduction: int
) -> tuple[float | None, float | None]:
    """A tile's face saturation measured both ways (:data:`FACE_MIDDLE`, :data:`FACE_BAND`):
    the median over each part of its outline of a pixel's (max - min) / max of B, G, R
    (see :func:`_face_medians`); None for a part with no pixel in the image."""
    middle, band = _face_medians(image, box, reduction)
    return (middle[0] if middle else None), (band[0] if band else None)


def _face_medians(
    image: np.ndarray, box: list[tuple[int, int]], reduction: int, darker: bool = False
) -> tuple[tuple[float, float] | None, tuple[float, float] | None]:
    """A tile's face colour measured both ways (:data:`FACE_MIDDLE`, :data:`FACE_BAND`):
    over each part of its outline, the median of a pixel's saturation ((max - min) / max
    of B, G, R) and of its value (max of B, G, R), in an image read at 1/``reduction`` of
    the photo's size (BGR, 8-bit); None for a part with no pixel in the image. With
    ``darker``, over the darker half of each part's pixels only (ranked by value). The
    crop is sampled at about :data:`SAMPLES` pixels across the tile (a median needs no
    more, and a big tile's every pixel cost 0.1 s a photo)."""
    import cv2

    pts = np.asarray(box, np.float64) / reduction
    if len(pts) < 3:
        return None, None
    step = max(1, int(sides(box)[0] / reduction / SAMPLES))
    centre = pts.mean(axis=0)
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(pts.max(axis=0)).astype(int) + 1, [w, h])
    if x1 <= x0 or y1 <= y0:
        return None, None
    crop = image[y0:y1:step, x0:x1:step].astype(np.float32)
    high = crop.max(axis=2)
    saturation = (high - crop.min(axis=2)) / np.maximum(high, 1.0)
    out: list[tuple[float, float] | None] = []
    for inner, outer in (FACE_MIDDLE, FACE_BAND):
        mask = np.zeros(saturation.shape, np.uint8)
        for f, value in ((outer, 1), (inner, 0)):
            if f > 0:
                corners = (centre + (pts - centre) * f - [x0, y0]) / step
                cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), value)
        if mask.any():
            sat, value = saturation[mask > 0], high[mask > 0]
            if darker:
                keep = np.argsort(value, kind="stable")[: max(1, len(value) // 2)]
                sat, value = sat[keep], value[keep]
            out.append((float(median(sat)), float(median(value))))
        else:
            out.append(None)
    return out[0], out[1]


#: A face is light and grey, one the reader sees in the photo itself (white, ivory, a
#: white card or printed page), when its saturation is under the first and its value (max
#: of B, G, R) over the second, either way (:data:`FACE_MIDDLE`, :data:`FACE_BAND`: a
#: white card outlined loosely has its band on the table), both measured over the darker
#: half of the part's pixels: a dark tile's body, not the white pips and divider that can
#: fill most of its middle (measured over all of them, 5 dark hands of trap set 3 and of
#: 40 `colour_body` scenes whose negative read them exactly were refused so). What that
#: gives up: a light face heavily printed or half in shadow is light and grey by all its
#: pixels but not by its darker half (an independent review: 29 of 87 printed pictures
#: and marked cards, 64 of 104 grey ones half in shadow, 56 of 114 white tiles with many
#: pips or in shadow); the light bar (:func:`light_bar`) and the negative's own checks
#: kept every one of them from a wrong total in its 860 photos. Cream tiles (0.3) and
#: every coloured set are not grey; black ones (value 30 to 50) are not light.
GREY, LIGHT = 0.25, 128.0


def light_and_grey(image: np.ndarray, box: list[tuple[int, int]], reduction: int = 1) -> bool:
    """Whether the face in the outline ``box`` of a BGR ``image`` (at 1/``reduction`` of
    the photo's size) is light and grey either way (:data:`GREY`, :data:`LIGHT`)."""
    image = reader.to_bgr8(np.asarray(image))
    both = _face_medians(image, box, reduction, darker=True)
    return any(m is not None and m[0] < GREY and m[1] > LIGHT for m in both)


#: How many pixels across a tile its face colour is sampled at.
SAMPLES = 24


#: A tile read in a photo's negative has its divider painted lighter than its body (as its
#: pips are): in the photo, the lightest row across its middle (0.4 to 0.6 of its length,
#: the middle 0.6 of its width) is at least this much lighter (8-bit Lab lightness) than
#: the tile's median. The back of a dark tile, its groove a shadow and its logo a dark dot,
#: reads as a blank tile in the negative; it has no light bar.
LIGHT_BAR = 40.0

#: The shapes of outline :func:`light_bar` measures (long side over short): a tile's
#: (:data:`cf.photo.outlines.TILE_ASPECT`) and a narrower one, the outline the negative
#: reads of a dark tile on a dark table, its face found without the rim of its long sides
#: (up to 3:1 in `colour_body` scenes whose negative read every tile right).
BAR_ASPECT = (1.3, 3.4)


def light_bar(image: np.ndarray, box: list[tuple[int, int]], reduction: int = 1) -> bool:
    """Whether the tile in the outline ``box`` of a BGR ``image`` (at 1/``reduction`` of
    the photo's size) has a bar across its middle lighter than its body
    (:data:`LIGHT_BAR`); False for an outline not of a tile's shape."""
    from cf.photo import nets
    from cf.photo.lab import bgr_to_lab

    corners = nets.short_side_first(np.asarray(box, np.float64) / reduction, BAR_ASPECT)
    if corners is None:
        return False
    image = reader.to_bgr8(np.asarray(image))
    light = bgr_to_lab(nets.upright(image, corners, 24))[:, :, 0].astype(np.float32)
    length, width = light.shape
    rows = light[
        round(0.4 * length) : round(0.6 * length), round(0.2 * width) : round(0.8 * width)
    ]
    bar = float(np.median(rows, axis=1).max())
    return bar - float(median(light.ravel())) >= LIGHT_BAR
