"""The reader ``cf score --photo`` runs: the classical pipeline, then the networks.

The classical reader (:mod:`cf.photo.reader`) reads first; a tile it read where the tiles
net sees no tile face, on a photo where that net sees tiles, is a doubt that no "no face"
settles (:func:`_faceless`: a stretch of table read as a double blank). Where it reads
every tile with confidence, the two small networks (:mod:`cf.photo.nets`, trained on
synthetic photos only) read the photo too, as a check: a tile they read where it read
another, or none, is a doubt (:func:`_checked`). Where it refuses, or finds no tile at all,
the halves net reads the tiles it outlined but could not read (:func:`_halves_read`), and
the two networks read the whole photo again. A reading the halves net completed stands when
the whole-photo nets see nothing more (:func:`cf.photo.merge.nothing_more`); otherwise the
two readings make one hand when they agree (:func:`cf.photo.merge.merged`): the same tile
wherever both read one, every tile the classical reader could not read covered by tiles the
nets read (or, on a photo whose tiles the tiles net sees, an outline it sees no face in: a
glare spot, the table), nothing the nets could not read outside a tile read. Where they
make no one hand, the nets' own reading stands when it is whole and the classical reading
contradicts none of it: the classical reader saw only parts of the nets' tiles
(:func:`cf.photo.merge.nets_stand`). Two readers that disagree are a refusal: the classical
refusal stands. Without the model files (a source checkout that lacks them) the reader is
the classical one. Whichever reading stands, one hand is one set: a tile read whose face is
not the colour of the others' is a doubt (:func:`alike_in_colour`). A photo of which
neither reader reads a tile is read again in the negative, where light pips on a dark or
coloured body are dark pips on a lighter one (:func:`cf.photo.negative.stands`), then keyed
to each colour its tiles' bodies may have, where a pink, red, blue or green body is a light
face (:func:`cf.photo.keyed.reading`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cf.photo import keyed, merge, missed, nets, reader
from cf.photo.edges import cut_by_edge
from cf.photo.geometry import area as _area
from cf.photo.geometry import covered as _covered
from cf.photo.negative import seen_alone, seen_in_negative
from cf.photo.negative import stands as negative_stands
from cf.photo.oneset import SMALL, alike_in_colour, alike_in_size
from cf.photo.outlines import shared_area
from cf.photo.reader import (
    DEFAULT_MIN_CONFIDENCE,
    READ_SIZE,
    PhotoReading,
    TileRead,
    Unreadable,
    load_reduced,
)


def read_hand(
    image: np.ndarray,
    top: int = 9,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    *,
    reduction: int = 1,
) -> PhotoReading:
    """Read every face-up tile of one hand in a BGR (or grey) image (see
    :func:`cf.photo.reader.read_hand`; the networks check its reading, and read the photo
    again where it refuses). Where neither reads a tile, the photo's negative is read
    (:func:`cf.photo.negative.stands`), then the photo keyed to each colour its tiles'
    bodies may have (:func:`cf.photo.keyed.reading`); where none of those stands, the
    refusal names the tiles the nets (nothing found), or the negative and the keyed
    readings (something found) read with confidence."""
    photo = reader.to_bgr8(np.asarray(image))
    reading, seen = _one_set_seen(photo, top, min_confidence, reduction)
    if reading.reads or any(u.candidates for u in reading.unreadable) or not nets.available():
        return reading
    negative = _one_set(255 - photo, top, min_confidence, reduction, colours=photo)
    if negative_stands(negative, reading, photo, reduction):
        return negative
    coloured, tried = keyed.reading(
        photo,
        reading,
        seen,
        negative,
        lambda view: _one_set(view, top, min_confidence, reduction, colours=photo),
        reduction,
    )
    if coloured is not None:
        return coloured
    if not reading.found:
        return seen_alone(seen, reading)
    refusal = seen_in_negative(negative, reading, photo, reduction)
    return keyed.seen_keyed(tried, refusal, photo, reduction)


def _one_set(
    photo: np.ndarray,
    top: int,
    min_confidence: float,
    reduction: int,
    colours: np.ndarray | None = None,
) -> PhotoReading:
    """The reading of a BGR photo, its tiles all of one set (colour, and none cut by the
    frame). ``colours``: the image whose colours the tiles are compared in, when not the
    photo read (the photo itself, when its negative is read)."""
    return _one_set_seen(photo, top, min_confidence, reduction, colours)[0]


def _one_set_seen(
    photo: np.ndarray,
    top: int,
    min_confidence: float,
    reduction: int,
    colours: np.ndarray | None = None,
) -> tuple[PhotoReading, PhotoReading]:
    """:func:`_one_set`'s reading, and the nets' own reading of the whole photo (empty
    without the nets)."""
    reading, seen = _read(photo, top, min_confidence, reduction)
    reading = alike_in_colour(photo if colours is None else colours, reading, reduction)
    return cut_by_edge(photo, reading, reduction), seen


def _read(
    image: np.ndarray, top: int, min_confidence: float, reduction: int
) -> tuple[PhotoReading, PhotoReading]:
    """The reading of a photo (:func:`_one_set`), before its tiles' colours are compared,
    and the nets' own reading of the whole photo (empty without the nets)."""
    photo = reader.to_bgr8(np.asarray(image))
    # One reduced copy of a big photo, to scale the reader's and the nets' copies from.
    smaller = reader.reduced(photo) if min(photo.shape[:2]) >= 16 else None
    first = alike_in_size(
        reader.read_hand(photo, top, min_confidence, reduction=reduction, smaller=smaller)
    )
    if not nets.available():
        return first, PhotoReading([], [], first.width, first.height)
    view = nets.seen(photo, smaller) if min(photo.shape[:2]) >= 16 else None
    second = alike_in_size(nets.reading(photo, top, min_confidence, reduction, view))

    def share(box: list[tuple[int, int]]) -> float:
        return 1.0 if view is None else nets.face_share(view, np.asarray(box) / reduction)

    first = _faceless(first, share, second)
    if first.ok and first.reads:
        return _checked(first, second), second

    def sees(box: list[tuple[int, int]]) -> bool:
        return view is not None and share(box) >= merge.SEES_TILE

    again = alike_in_size(_halves_read(image, first, top, min_confidence, reduction, sees))
    if again.ok and again.reads and merge.nothing_more(again, second):
        return again, second

    # The tiles net's "no face" is evidence only where it sees this photo's tiles: it read
    # some, and sees face over every tile the classical reader read or outlined and the
    # nets read (at least one such).
    seen_by_both = [r.box for r in again.reads] + [
        u.box for u in again.unreadable if merge.accounted(u, second.reads)
    ]
    sees_tiles = (
        bool(second.reads)
        and bool(seen_by_both)
        and all(share(box) >= merge.SEES_TILE for box in seen_by_both)
    )
    # A region of tiles run together is settled only where the tiles net sees the tiles it
    # read (as for "no face" above).
    sees_reads = all(share(r.box) >= merge.SEES_TILE for r in second.reads)

    def run_together(u: Unreadable) -> bool:
        size = (again.width, again.height)
        return (
            view is not None
            and sees_reads
            and merge.run_together(u, second, view, reduction, size)
        )

    def no_face(box: list[tuple[int, int]]) -> bool:
        return sees_tiles and share(box) < merge.NO_FACE

    both = merge.merged(again, second, no_face, run_together)
    if both is not None and both.ok and both.reads:
        return both, second
    return (second if merge.nets_stand(again, second, no_face, run_together) else first), second


#: Why a tile read by the classical reader, or a place where it read none, is in doubt: the
#: nets read a tile there (a different one, or one the classical reading lacks).
NETS_READ = "the networks read {tile} here"


def _checked(first: PhotoReading, nets_: PhotoReading) -> PhotoReading:
    """The classical reader's confident reading ``first``, checked against the nets'
    reading of the same photo: a tile the nets read with confidence that is one ``first``
    read as another (they share :data:`cf.photo.merge.ONE_TILE` of the smaller outline), or
    that the tiles it read, all together, do not cover for the most part
    (:data:`cf.photo.merge.ON_TILES`), is a doubt: a misread half, a tile missed entirely,
    a wrong total; ``first`` as it is when they agree. So is a tile the nets read without
    confidence (a doubt with candidates: read twice, or unsure) mostly off the tiles read:
    a tile that no reading accounts for. Their other doubts do not count here: they see
    tiles run together, a tile standing on edge, a face-down tile or a printed picture
    where the classical reader, which read the hand, rightly sees none."""
    disputed: list[TileRead] = []
    doubts: list[Unreadable] = []
    for read in nets_.reads:
        area = _area(read.box)
        if area < 1:
            continue
        reason = NETS_READ.format(tile=read.tile)
        if _covered(read.box, [r.box for r in first.reads]) < merge.ON_TILES:
            doubts.append(Unreadable(read.box, [read.tile], reason))
        for r in first.reads:
            one = shared_area(read.box, r.box) >= merge.ONE_TILE * min(area, _area(r.box))
            if one and r.tile != read.tile and r not in disputed:
                disputed.append(r)
                doubts.append(Unreadable(r.box, [r.tile, read.tile], reason))
    unread = [u for u in nets_.unreadable if u.candidates and u.reason != SMALL]
    doubts += [u for u in unread if _covered(u.box, [r.box for r in first.reads]) < merge.ON_TILES]
    if not doubts:
        return first
    reads = [r for r in first.reads if r not in disputed]
    return PhotoReading(reads, [*first.unreadable, *doubts], first.width, first.height)


#: Doubts whose box is not a tile's outline (a region around marks, a stretch of face) or
#: that the halves net must not settle: the halves net does not read them.
NOT_OUTLINES = (missed.UNCOVERED, missed.ONE_MORE, SMALL, merge.FACELESS)


def _faceless(
    reading: PhotoReading,
    share: Callable[[list[tuple[int, int]]], float],
    nets_: PhotoReading,
) -> PhotoReading:
    """``reading`` with every tile read in whose outline the tiles net sees tile face in
    under :data:`cf.photo.merge.NO_FACE` of it moved to the doubts
    (:data:`cf.photo.merge.FACELESS`), on a photo where the tiles net sees tile face (at
    least :data:`cf.photo.merge.SEES_TILE` of a tile the nets read, or of a doubt of theirs
    other than a speck): a stretch of plain table the classical reader outlined as one
    tile, which reads as a double blank, with the hand's tiles, dark or small, inside it or
    beside it (a 0-0 printed for nine tiles). Where the tiles net sees a tile it sees face
    over 0.37 of its outline or more (the least of 1,650 tiles read in exactly read
    synthetic photos); on a photo where it sees nothing it may be blind to the set, and its
    "no face" is no evidence. No "no face" settles such a doubt
    (:func:`cf.photo.merge._not_a_tile`): a net blind to one tile of a hand must not drop
    it from a total. Tiles the nets read over it account for it, as for any outline the
    classical reader could not read (:func:`cf.photo.merge.merged`,
    :func:`cf.photo.merge.nets_stand`). ``share``: the part of an outline the tiles net
    sees as face (1 without its view, where nothing is doubted so)."""
    theirs = [r.box for r in nets_.reads]
    theirs += [u.box for u in nets_.unreadable if u.reason != nets.SPECK_SEEN]
    if not any(share(box) >= merge.SEES_TILE for box in theirs):
        return reading
    return reading.doubting([share(r.box) < merge.NO_FACE for r in reading.reads], merge.FACELESS)


def _halves_read(
    image: np.ndarray,
    first: PhotoReading,
    top: int,
    min_confidence: float,
    reduction: int,
    sees: Callable[[list[tuple[int, int]]], bool] = lambda box: False,
) -> PhotoReading:
    """``first`` with each tile it outlined but could not read given to the halves net: a
    tile the net reads with confidence is read; the others stay unreadable (a doubt no
    reading settles, :func:`cf.photo.merge.unsettled`, stays the classical refusal), as
    does one the net reads as a tile already read: a hand holds each tile once (an
    independent review's printed dominoes and worn pips, read so, were wrong totals). The
    classical reader's own guesses for such a tile bind the net only where the tiles net
    sees no tile there (``sees``: its face over the outline,
    :data:`cf.photo.merge.SEES_TILE`; no view, a photo the nets do not see): it could not
    count the pips there, and its guesses were mostly a pip or more short (a blob it could
    not tell from a pip, a pip lost in glare). The pips of such a tile are then the halves
    net's alone; the whole-photo nets' reading still checks the tile where they read one
    over it (:func:`cf.photo.merge.nothing_more`, :func:`cf.photo.merge.merged`)."""
    if not first.unreadable:
        return first
    image = reader.to_bgr8(np.asarray(image))
    reads = list(first.reads)
    unreadable: list[Unreadable] = []
    for u in first.unreadable:
        tile = None
        if not merge.unsettled(u) and len(u.box) == 4 and u.reason not in NOT_OUTLINES:
            corners = nets.short_side_first(np.asarray(u.box, np.float64) / reduction)
            if corners is not None:
                found = nets.read_outlined(image, corners, top)
                if (
                    found.tile is not None
                    and found.confidence >= min_confidence
                    and found.tile not in [r.tile for r in reads]  # a hand holds each once
                    and (not u.candidates or found.tile in u.candidates or sees(u.box))
                ):
                    tile = TileRead(found.tile, round(found.confidence, 3), u.box)
        if tile is None:
            unreadable.append(u)
        else:
            reads.append(tile)
    return PhotoReading(reads, unreadable, first.width, first.height)


def read_photo(
    path: str, top: int = 9, min_confidence: float = DEFAULT_MIN_CONFIDENCE
) -> PhotoReading:
    """Load ``path`` and read its hand (see :func:`read_hand`), a big JPEG decoded at a
    fraction of its size as :func:`cf.photo.reader.read_photo` does."""
    image, reduction = load_reduced(path, READ_SIZE)
    return read_hand(image, top, min_confidence, reduction=reduction)
