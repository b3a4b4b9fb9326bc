"""A photo read in its negative: light pips on a dark or coloured body.

Where neither the classical pipeline nor the networks read a tile of a photo, or doubt one
by name, :func:`cf.photo.combined.read_hand` reads the photo's negative, where light pips
on a dark or coloured body are dark pips on a lighter one; that reading stands only as
:func:`stands` allows. Where nothing stands and the classical pipeline found nothing at
all in the photo, the refusal names the tiles the networks read (:func:`seen_alone`), not
"no domino found"; where it found some but read none, the refusal names the tiles the
negative read (:func:`seen_in_negative`).
"""

from __future__ import annotations

import numpy as np

from cf.photo.geometry import apart, overlap
from cf.photo.oneset import light_and_grey, light_bar
from cf.photo.reader import PhotoReading, Unreadable


def stands(
    negative: PhotoReading,
    first: PhotoReading,
    photo: np.ndarray | None = None,
    reduction: int = 1,
) -> bool:
    """Whether the reading of a photo's negative stands where the photo's own reading
    ``first`` read no tile: tiles whose pips are lighter than their body (white or yellow
    pips on pink, green, red, blue or black tiles), which both readers were made to see
    the other way round (the classical reader's face is light and nearly grey, the tiles
    net saw mostly light faces), are dark pips on a lighter body in the negative. It
    stands when it read every tile it found with confidence, its tiles lie apart
    (:func:`cf.photo.geometry.apart`), and each tile ``first`` found but could not read
    lies on a tile it read (:func:`cf.photo.geometry.overlap`): a reading that ignores
    what the photo itself showed is no reading of it. A photo that read some tile, with
    confidence or in doubt (a doubt naming tiles: a misread, a tile not of the others'
    colour or size), is never read so: a hand of light tiles beside a coloured one would
    lose the light ones in the negative, and a doubted printed picture beside a dark tile
    would be read as a tile of the hand. Nor does a tile whose face is light and grey in
    the ``photo`` (at 1/``reduction`` of its size; :func:`cf.photo.oneset.light_and_grey`)
    stand read in the negative: that is a face the photo's own reading sees, and beside
    dark tiles a white card or a printed picture of a domino (the tiles' colours are
    compared in the photo, where black and white are both unsaturated); nor one whose
    divider is not lighter than its body (:func:`cf.photo.oneset.light_bar`: the back of a
    dark tile, read as a blank tile in the negative). Both: :func:`dark_with_light_marks`."""
    return (
        not first.reads
        and not any(u.candidates for u in first.unreadable)
        and negative.ok
        and apart([r.box for r in negative.reads])
        and all(any(overlap(u.box, r.box) for r in negative.reads) for u in first.unreadable)
        and (
            photo is None
            or all(dark_with_light_marks(photo, r.box, reduction) for r in negative.reads)
        )
    )


def dark_with_light_marks(photo: np.ndarray, box: list[tuple[int, int]], reduction: int) -> bool:
    """Whether a tile read in a photo's negative is, in the photo, what the negative is
    read for: a face not light and grey (:func:`cf.photo.oneset.light_and_grey`), with a
    divider lighter than its body (:func:`cf.photo.oneset.light_bar`)."""
    return not light_and_grey(photo, box, reduction) and light_bar(photo, box, reduction)


#: Why a tile read with confidence in a photo's negative is refused where that reading did
#: not stand.
DARK_UNSURE = (
    "read in the photo's negative (light pips on a dark or coloured tile), but not the "
    "whole photo: lay such tiles apart on a plain, light surface"
)


def seen_in_negative(
    negative: PhotoReading, refusal: PhotoReading, photo: np.ndarray, reduction: int = 1
) -> PhotoReading:
    """The refusal of a photo whose negative's reading did not stand (:func:`stands`),
    ``refusal`` being the photo's own (it found tiles but read none and named none): each
    tile the negative read with confidence that is, in the ``photo``, what the negative is
    read for (:func:`dark_with_light_marks`) is a doubt (:data:`DARK_UNSURE`, the tile its
    candidate), followed by the photo's own doubts but those lying on such a tile
    (:func:`cf.photo.geometry.overlap`), so that the refusal shows the dark tiles seen,
    and says how to photograph them, rather than only the marks of a patterned table. A
    refusal either way, of the same photos; ``refusal`` as it is where the negative read
    no such tile. Not for a photo in which nothing was found: "no domino found" stays so
    (SPEC 9), since some pictures of no domino read a tile in the negative (a chip on a
    circuit board, a 0-0 with a light bar). The negative's own doubts are left out: they
    are of its own outlines, often where the photo's doubts are, and some say "no tile
    face there" of a dark tile the tiles net did not see as face."""
    seen = [r for r in negative.reads if dark_with_light_marks(photo, r.box, reduction)]
    if not seen:
        return refusal
    doubts = [Unreadable(r.box, [r.tile], DARK_UNSURE) for r in seen]
    rest = [u for u in refusal.unreadable if not any(overlap(u.box, r.box) for r in seen)]
    return PhotoReading([], [*doubts, *rest], refusal.width, refusal.height)


#: Why a tile the networks read is refused where the classical pipeline found no tile in
#: the photo, its negative's reading did not stand, and the networks' reading does not
#: stand on its own.
NETS_ALONE = "only the networks read a tile here: the classical pipeline found none in the photo"


def seen_alone(seen: PhotoReading, reading: PhotoReading) -> PhotoReading:
    """The refusal of a photo in which the classical pipeline found no tile (``reading``,
    nothing found; the reading of its negative, whatever it found, did not stand) but the
    nets read one or more with confidence (``seen``, their reading, which did not stand):
    each tile they read a doubt (:data:`NETS_ALONE`, the tile its candidate), with their
    own doubts, so that the refusal shows what they saw (a coloured tile, a divider they
    missed) rather than "no domino found". ``reading`` as it is where they read no tile:
    a blank or noisy image, or a plain table, is still "no domino found" (their doubts
    alone, even naming a tile, are no sign of one: on a checkerboard they name 0-0 read
    many times, on a printed sheet "more pips than the set has"). Some textures of light
    blocks with dark marks (bricks, mosaics, toy bricks) they read as a tile: refused so
    too, where the classical pipeline found nothing."""
    if not seen.reads:
        return reading
    doubts = [Unreadable(r.box, [r.tile], NETS_ALONE) for r in seen.reads]
    return PhotoReading([], [*doubts, *seen.unreadable], seen.width, seen.height)
