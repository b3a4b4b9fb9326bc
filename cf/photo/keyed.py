"""A photo keyed to its tiles' body colour: coloured tiles as light, grey faces.

The classical reader's tile face is light and nearly grey, and the photo's negative makes
one of a black body only: a pink, red, blue or green body stays a saturated colour either
way, and such tiles are found in neither (the issue's "pink tiles with yellow pips: no tile
found at all"). Where neither reads a tile, :func:`cf.photo.combined.read_hand` reads the
photo keyed to each colour its tiles' bodies may have (:func:`body_colours`, the most
frequent first): each pixel as light as it is near that colour (:func:`keyed`), so that
the body is a white face and its pips, divider and the table are dark. Such a reading
stands only as :func:`stands` allows, and where the photo keyed to its other colours reads
no tile off it (:func:`alone`): :func:`reading`. Where none stands, a refusal names the
coloured tiles the keyed readings read (:func:`seen_keyed`).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from cf.photo.faces import border
from cf.photo.geometry import overlap
from cf.photo.lab import bgr_to_lab
from cf.photo.missed import UNCOVERED
from cf.photo.negative import dark_with_light_marks
from cf.photo.negative import stands as negative_stands
from cf.photo.oneset import light_bar
from cf.photo.reader import PhotoReading, TileRead, Unreadable
from cf.photo.stats import median

#: A body colour: chroma (8-bit a*, b* about 128) at least this. Below it the body is white,
#: cream, grey or black, which the photo or its negative shows as a light, grey face.
SATURATED = 25.0

#: How far (8-bit Lab, lightness counted at half) a pixel must be from the median colour
#: along the photo's edge to be a body colour rather than the table's: more than this.
APART = 30.0

#: Part of the photo the body colour must cover: less is a mark or a pattern, no tile.
LEAST = 0.01

#: How fast the keyed view darkens away from the body colour: per unit of distance (8-bit
#: Lab, lightness at half), so that a pip or divider of another colour (distance 50 and
#: more) is black and the body's own shading (under 10) stays light.
STEEP = 5.0

#: Sides of the (L*, a*, b*) bins in which a body colour is the most frequent (8-bit):
#: a tile's colour, and a table's stripes of the same hue but darker, fall apart.
LIGHT_BIN, BIN = 24, 8

#: Long side of the copy the body colour is measured on.
SIZE = 256


def _distance(lab: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Distance of each Lab pixel from ``colour``, lightness counted at half (the light
    falls unevenly on a body of one colour)."""
    d = lab.astype(np.float32) - colour.astype(np.float32)
    return np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def _border(lab: np.ndarray) -> np.ndarray:
    """The median Lab colour of the ring along the photo's edge (:func:`cf.photo.faces.border`)."""
    return np.array([median(border(lab[..., i])) for i in range(3)], np.float32)


def body_colours(photo: np.ndarray, most: int = 3) -> list[np.ndarray]:
    """The 8-bit Lab colours coloured tile bodies in a BGR photo may have, most frequent
    first (at most ``most``): saturated colours (:data:`SATURATED`) apart from the edge's
    (:data:`APART`), each covering :data:`LEAST` of the photo, each apart from those
    before it (a table's stripes of a colour beside the tiles' own)."""
    h, w = photo.shape[:2]
    scale = min(1.0, SIZE / max(h, w))
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    lab = bgr_to_lab(cv2.resize(photo, size, interpolation=cv2.INTER_AREA)).astype(np.float32)
    a, b = lab[..., 1] - 128.0, lab[..., 2] - 128.0
    left = (np.hypot(a, b) >= SATURATED) & (_distance(lab, _border(lab)) > APART)
    light = lab[..., 0]
    edges = [np.arange(0, 257, LIGHT_BIN), np.arange(-128, 129, BIN), np.arange(-128, 129, BIN)]
    colours: list[np.ndarray] = []
    while len(colours) < most and left.mean() >= LEAST:
        hist, _ = np.histogramdd(np.stack([light[left], a[left], b[left]], axis=1), bins=edges)
        peak = np.unravel_index(int(np.argmax(hist)), hist.shape)
        cl, ca, cb = (float(e[i]) + (e[1] - e[0]) / 2 for e, i in zip(edges, peak, strict=True))
        near = (
            left
            & (np.abs(light - cl) <= LIGHT_BIN)
            & (np.abs(a - ca) <= BIN)
            & (np.abs(b - cb) <= BIN)
        )
        if near.mean() < LEAST:
            break
        colours.append(np.array([median(lab[..., i][near]) for i in range(3)], np.float32))
        left &= ~near
    return colours


def keyed(photo: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """The BGR ``photo`` as a grey BGR image, each pixel as light as it is near the Lab
    ``colour`` (:data:`STEEP`): the body white, its pips, divider and the table dark."""
    d = _distance(bgr_to_lab(photo), colour)
    grey = np.clip(255.0 - STEEP * d, 0, 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def stands(
    coloured: PhotoReading,
    first: PhotoReading,
    seen: PhotoReading,
    negative: PhotoReading,
    photo: np.ndarray,
    view: np.ndarray,
    reduction: int = 1,
) -> bool:
    """Whether the reading ``coloured`` of the keyed ``view`` of a photo stands, where the
    photo's own reading ``first`` read no tile, the nets' reading of the photo is ``seen``
    and its negative's reading ``negative``. As a negative's reading would
    (:func:`cf.photo.negative.stands`: every tile found read with confidence, tiles apart,
    each tile ``first`` found lying on one read, each a face not light and grey in the
    ``photo`` with a divider lighter than its body); and each tile the nets read in the
    photo, and each the negative read, named or found unaccounted for (a light,
    tile-sized region with marks, :data:`cf.photo.missed.UNCOVERED`), lies on a tile read
    (black tiles beside a pink one: keyed to pink, the black ones are table; a pink tile
    mostly under a finger: a sliver of pink); and each tile read has a dark bar
    across its middle in the ``view`` (its divider, of another colour than its body: a
    toy brick keyed to its colour is a light block with dark studs, and no bar)."""
    others = [r.box for r in [*seen.reads, *negative.reads]] + [
        u.box for u in negative.unreadable if u.candidates or UNCOVERED in u.reason
    ]
    return (
        negative_stands(coloured, first, photo, reduction)
        and all(any(overlap(box, r.box) for r in coloured.reads) for box in others)
        and all(light_bar(255 - view, r.box, reduction) for r in coloured.reads)
    )


def alone(coloured: PhotoReading, others: list[PhotoReading]) -> bool:
    """Whether the reading ``coloured`` of the photo keyed to one colour is the whole hand,
    ``others`` being its readings keyed to the other colours tried: every tile those read
    or named lies on a tile ``coloured`` read. Keyed to the pink of three tiles, a green
    fourth is table; keyed to green, it is read."""
    boxes = [r.box for o in others for r in o.reads] + [
        u.box for o in others for u in o.unreadable if u.candidates
    ]
    return all(any(overlap(box, r.box) for r in coloured.reads) for box in boxes)


def reading(
    photo: np.ndarray,
    first: PhotoReading,
    seen: PhotoReading,
    negative: PhotoReading,
    read: Callable[[np.ndarray], PhotoReading],
    reduction: int = 1,
) -> tuple[PhotoReading | None, list[tuple[np.ndarray, PhotoReading]]]:
    """The reading of the BGR ``photo`` keyed to the first of its body colours
    (:func:`body_colours`) whose reading stands (:func:`stands`) and is the whole hand
    (:func:`alone`), ``read`` reading a keyed view, or None where none does; and every
    keyed view read, with its reading. ``first``, ``seen`` and ``negative``: the photo's
    own reading, the nets' and the negative's."""
    bodies = body_colours(photo)
    views: dict[int, tuple[np.ndarray, PhotoReading]] = {}

    def keyed_to(i: int) -> tuple[np.ndarray, PhotoReading]:
        if i not in views:
            view = keyed(photo, bodies[i])
            views[i] = view, read(view)
        return views[i]

    for i in range(len(bodies)):
        view, coloured = keyed_to(i)
        if stands(coloured, first, seen, negative, photo, view, reduction) and alone(
            coloured, [keyed_to(j)[1] for j in range(len(bodies)) if j != i]
        ):
            return coloured, list(views.values())
    return None, list(views.values())


#: Why a tile read with confidence in the photo keyed to its colour is refused where no
#: keyed reading stood.
KEYED_UNSURE = (
    "read by the tiles' colour (light pips on a coloured tile), but not the whole photo: "
    "lay such tiles apart on a plain surface of another colour"
)


def seen_keyed(
    tried: list[tuple[np.ndarray, PhotoReading]],
    refusal: PhotoReading,
    photo: np.ndarray,
    reduction: int = 1,
) -> PhotoReading:
    """The refusal of a photo whose keyed readings (``tried``: each keyed view and its
    reading) did not stand, ``refusal`` being what it is refused with otherwise (the
    photo's own doubts, or the tiles its negative read): each tile a keyed reading read
    with confidence that is a coloured tile (a face not light and grey with a divider
    lighter than its body in the photo, a dark bar across it in the keyed view), and that
    no doubt of ``refusal`` already names, is a doubt (:data:`KEYED_UNSURE`, the tile its
    candidate), before ``refusal``'s doubts but those lying on it: the refusal shows the
    coloured tiles seen and says how to photograph them, rather than only "a tile whose
    divider was not found" of a patterned table. ``refusal`` as it is where no such tile
    was read."""
    named = [u.box for u in refusal.unreadable if u.candidates]
    found: list[TileRead] = []
    for view, coloured in tried:
        for r in coloured.reads:
            if any(overlap(r.box, box) for box in [*named, *(f.box for f in found)]):
                continue
            if dark_with_light_marks(photo, r.box, reduction) and light_bar(
                255 - view, r.box, reduction
            ):
                found.append(r)
    if not found:
        return refusal
    doubts = [Unreadable(r.box, [r.tile], KEYED_UNSURE) for r in found]
    rest = [u for u in refusal.unreadable if not any(overlap(u.box, r.box) for r in found)]
    return PhotoReading([], [*doubts, *rest], refusal.width, refusal.height)
