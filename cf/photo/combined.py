"""The reader ``cf score --photo`` runs: the classical pipeline, then the networks.

The classical reader (:mod:`cf.photo.reader`) reads first; a tile it read where the tiles
net sees no tile face, on a photo where that net sees tiles, is a doubt that no "no face"
settles (:func:`_faceless`: a stretch of table read as a double blank). Where it reads every tile
with confidence, the two small networks (:mod:`cf.photo.nets`, trained on synthetic photos only)
read the photo too, as a check: a tile they read where it read another, or none, is a
doubt (:func:`_checked`). Where it refuses, or finds no tile at all, the halves net reads
the tiles it outlined but could not read (:func:`_halves_read`), and the two networks read
the whole photo again. A reading the halves net completed stands when the whole-photo
nets see nothing more (:func:`_nothing_more`); otherwise the two readings make one hand
when they agree (:func:`_merged`): the same tile wherever both read one, every tile the
classical reader could not read covered by tiles the nets read (or, on a photo whose
tiles the tiles net sees, an outline it sees no face in: a glare spot, the table),
nothing the nets could not read outside a tile read. Where they make no one hand, the
nets' own reading stands when it is whole and the classical reading contradicts none of
it: the classical reader saw only parts of the nets' tiles (:func:`_nets_stand`). Two
readers that disagree are a refusal: the classical refusal stands. Without the model
files (a source checkout that lacks them) the reader is the classical one. Whichever
reading stands, one hand is one set: a tile read whose face is not the colour of the
others' is a doubt (:func:`alike_in_colour`). A photo of which neither reader reads a tile
is read again in the negative, where light pips on a dark or coloured body are dark pips
on a lighter one (:func:`cf.photo.negative.stands`), then keyed to each colour its tiles'
bodies may have, where a pink, red, blue or green body is a light face
(:func:`cf.photo.keyed.reading`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cf.photo import keyed, missed, nets, reader
from cf.photo.edges import cut_by_edge
from cf.photo.geometry import area as _area
from cf.photo.geometry import covered as _covered
from cf.photo.geometry import inside as _inside
from cf.photo.geometry import overlap as _overlap
from cf.photo.negative import seen_alone, seen_in_negative
from cf.photo.negative import stands as negative_stands
from cf.photo.oneset import (
    SMALL,
    alike_in_colour,
    alike_in_size,
    sides,
    under_others,
)
from cf.photo.outlines import shared_area
from cf.photo.pips import WORN
from cf.photo.reader import (
    DEFAULT_MIN_CONFIDENCE,
    READ_SIZE,
    PhotoReading,
    TileRead,
    Unreadable,
    load_reduced,
)
from cf.photo.stats import median


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
        return view is not None and share(box) >= SEES_TILE

    again = alike_in_size(_halves_read(image, first, top, min_confidence, reduction, sees))
    if again.ok and again.reads and _nothing_more(again, second):
        return again, second

    # The tiles net's "no face" is evidence only where it sees this photo's tiles: it read
    # some, and sees face over every tile the classical reader read or outlined and the
    # nets read (at least one such).
    seen_by_both = [r.box for r in again.reads] + [
        u.box for u in again.unreadable if _accounted(u, second.reads)
    ]
    sees_tiles = (
        bool(second.reads)
        and bool(seen_by_both)
        and all(share(box) >= SEES_TILE for box in seen_by_both)
    )
    # A region of tiles run together is settled only where the tiles net sees the tiles it
    # read (as for "no face" above).
    sees_reads = all(share(r.box) >= SEES_TILE for r in second.reads)

    def run_together(u: Unreadable) -> bool:
        size = (again.width, again.height)
        return view is not None and sees_reads and _run_together(u, second, view, reduction, size)

    def no_face(box: list[tuple[int, int]]) -> bool:
        return sees_tiles and share(box) < NO_FACE

    both = _merged(again, second, no_face, run_together)
    if both is not None and both.ok and both.reads:
        return both, second
    return (second if _nets_stand(again, second, no_face, run_together) else first), second


#: Why a tile read by the classical reader, or a place where it read none, is in doubt: the
#: nets read a tile there (a different one, or one the classical reading lacks).
NETS_READ = "the networks read {tile} here"


#: Part of the smaller of two outlines, a tile the nets read and one the classical reader
#: read, that they must share to be of one tile (a misread where the tiles differ; either
#: reader may outline only part of a tile); a tile the nets read lies mostly (over half of
#: it) on tiles the classical reader read, or it is one it lacks. Between the two, it is
#: made of parts of tiles read: the halves of two touching tiles either side of the seam
#: between them, which the nets can take for one tile.
ONE_TILE, ON_TILES = 0.7, 0.5


def _checked(first: PhotoReading, nets_: PhotoReading) -> PhotoReading:
    """The classical reader's confident reading ``first``, checked against the nets' reading
    of the same photo: a tile the nets read with confidence that is one ``first`` read as
    another (they share :data:`ONE_TILE` of the smaller outline), or that the tiles it
    read, all together, do not cover for the most part (:data:`ON_TILES`), is a doubt: a
    misread half, a tile missed entirely, a wrong total; ``first`` as it is when they
    agree. So is a tile the nets read without confidence (a doubt with candidates: read
    twice, or unsure) mostly off the tiles read: a tile that no reading accounts for.
    Their other doubts do not count here: they see tiles run together, a tile standing on
    edge, a face-down tile or a printed picture where the classical reader, which read the
    hand, rightly sees none."""
    disputed: list[TileRead] = []
    doubts: list[Unreadable] = []
    for read in nets_.reads:
        area = _area(read.box)
        if area < 1:
            continue
        reason = NETS_READ.format(tile=read.tile)
        if _covered(read.box, [r.box for r in first.reads]) < ON_TILES:
            doubts.append(Unreadable(read.box, [read.tile], reason))
        for r in first.reads:
            one = shared_area(read.box, r.box) >= ONE_TILE * min(area, _area(r.box))
            if one and r.tile != read.tile and r not in disputed:
                disputed.append(r)
                doubts.append(Unreadable(r.box, [r.tile, read.tile], reason))
    unread = [u for u in nets_.unreadable if u.candidates and u.reason != SMALL]
    doubts += [u for u in unread if _covered(u.box, [r.box for r in first.reads]) < ON_TILES]
    if not doubts:
        return first
    reads = [r for r in first.reads if r not in disputed]
    return PhotoReading(reads, [*first.unreadable, *doubts], first.width, first.height)


#: A doubt of the nets' at least this many times the median area of the tiles read has
#: room for another tile.
ROOM = 2.0


def _holds_more(box: list[tuple[int, int]], boxes: list[list[tuple[int, int]]]) -> bool:
    """Whether a doubt of the nets' at ``box`` holds face the tiles read at ``boxes`` do
    not account for: it has room for another tile (:data:`ROOM`) and they cover less than
    :data:`ON_TILES` of it (a region of face six tiles long over one tile read). A doubt
    about a tile's size over a tile read is of that tile, however askew."""
    if not boxes or len(box) < 3:
        return False
    tile = float(median([_area(b) for b in boxes]))
    return _area(box) >= ROOM * tile and _covered(box, boxes) < ON_TILES


def _nothing_more(reading: PhotoReading, nets_: PhotoReading) -> bool:
    """Whether the nets' reading of the whole photo sees nothing ``reading`` lacks: each
    tile the nets read or could not read lies on a tile read, and is the same tile. A
    doubt of theirs is of a tile read when the centre of either lies in the other
    (:func:`_overlap`) and it holds no more (:func:`_holds_more`: a region of face six
    tiles long over one tile read is face no tile read accounts for). One that shares no
    centre with a tile read counts even when it lies for the most part on tiles read (a
    speck of face over the seam between two): two independent reviews found such a doubt
    all that stopped a misread both nets agreed on (a worn 9 read as an 8) or a printed
    domino both readers read. A speck of face apart from every tile
    (:data:`cf.photo.specks.SPECK`: a glint, a crumb) does not count: here both readers
    read every tile, and the same ones."""
    for read in nets_.reads:
        same = [r for r in reading.reads if _overlap(r.box, read.box)]
        if not same or any(r.tile != read.tile for r in same):
            return False
    boxes = [r.box for r in reading.reads]
    return all(
        u.reason == nets.SPECK_SEEN
        or (any(_overlap(box, u.box) for box in boxes) and not _holds_more(u.box, boxes))
        for u in nets_.unreadable
    )


#: Why a tile the classical reader read is in doubt: the tiles net sees no tile face in
#: its outline (under :data:`NO_FACE` of it), where it sees tile face elsewhere.
FACELESS = "no tile face there (a stretch of table taken for a tile?)"


#: Doubts whose box is not a tile's outline (a region around marks, a stretch of face) or
#: that the halves net must not settle: the halves net does not read them.
NOT_OUTLINES = (missed.UNCOVERED, missed.ONE_MORE, SMALL, FACELESS)


#: Part of an outline below which the tiles net sees no tile face in it: an outline the
#: classical reader could not read, with no tile read nor doubt of the nets' over it and
#: less face than this in it, is not a tile (a pattern, a shadow, a glare spot). Set on
#: synthetic photos (seeds apart from the benchmark's): such outlines were never a tile;
#: tiles the nets missed always had a nets' outline over them.
NO_FACE = 0.2


def _faceless(
    reading: PhotoReading,
    share: Callable[[list[tuple[int, int]]], float],
    nets_: PhotoReading,
) -> PhotoReading:
    """``reading`` with every tile read in whose outline the tiles net sees tile face in
    under :data:`NO_FACE` of it moved to the doubts (:data:`FACELESS`), on a photo where
    the tiles net sees tile face (at least :data:`SEES_TILE` of a tile the nets read, or of
    a doubt of theirs other than a speck): a stretch of plain table
    the classical reader outlined as one tile, which reads as a double blank, with the
    hand's tiles, dark or small, inside it or beside it (a 0-0 printed for nine tiles).
    Where the tiles net sees a tile it sees face over 0.37 of its outline or more (the
    least of 1,650 tiles read in exactly read synthetic photos); on a photo where it sees
    nothing it may be blind to the set, and its "no face" is no evidence. No "no face"
    settles such a doubt (:func:`_not_a_tile`): a net blind to one tile of a hand must not
    drop it from a total. Tiles the nets read over it account for it, as for any outline
    the classical reader could not read (:func:`_merged`, :func:`_nets_stand`).
    ``share``: the part of an outline the tiles net sees as face (1 without its view,
    where nothing is doubted so)."""
    theirs = [r.box for r in nets_.reads]
    theirs += [u.box for u in nets_.unreadable if u.reason != nets.SPECK_SEEN]
    if not any(share(box) >= SEES_TILE for box in theirs):
        return reading
    return reading.doubting([share(r.box) < NO_FACE for r in reading.reads], FACELESS)


#: Part of a tile's outline the tiles net sees as face when it sees that tile: by its
#: labels about 0.57 (the rim left out: (1 - 2 x 0.16) x (1 - 0.16)), less for a loose
#: outline. Its "no face" counts only on a photo where it read some tiles itself and every
#: tile the classical reader read, or outlined and the nets read, shows at least this much
#: face to it (one such tile at least): a net blind to a photo's tiles sees no face
#: anywhere. :func:`_faceless` asks less: this much face over one tile or doubt of the
#: nets' (a speck aside), and its doubts are never settled by "no face".
SEES_TILE = 0.4


def _merged(
    first: PhotoReading,
    second: PhotoReading,
    no_face: Callable[[list[tuple[int, int]]], bool] = lambda box: False,
    run_together: Callable[[Unreadable], bool] = lambda u: False,
) -> PhotoReading | None:
    """One hand from the classical reading ``first`` and the nets' ``second``, or None when
    they disagree: where both read a tile it must be the same tile; a tile only the nets
    read is added; every tile the classical reader could not read must be one the nets
    read (filling its outline; never a half with more pips than the set has, nor a tile
    much smaller than the others) or, with no read or doubt of the nets' over it, an
    outline in which the tiles net sees no face (``no_face``); a region of marks no outline
    covered may hold the pips of a tile both read, outlined too small (:func:`_rest_of`);
    a tile read that the nets read no tile on must not lie for :data:`ON_TILES` of it or
    more on tiles they read (the halves of two touching tiles, the seam taken for a
    divider); everything the nets could not read must lie in a tile the classical reader
    read; no tile twice. An outline the classical reader could not read that holds
    several tiles the nets read, all the face in it theirs (``run_together``: tiles run
    together, outlined as one), is accounted for by them; a tile of the nets' with a half
    that is no half lying in it is a piece of two of them."""
    extra = []
    for read in second.reads:
        same = [r for r in first.reads if _overlap(r.box, read.box)]
        if any(r.tile != read.tile for r in same):
            return None
        if not same:
            extra.append(read)
    # A tile read that the nets read no tile on, but whose outline tiles they read cover
    # for the most part, is made of their parts: the halves of two touching tiles either
    # side of the seam, taken for one tile.
    for r in first.reads:
        if not any(_overlap(r.box, n.box) for n in second.reads) and (
            _covered(r.box, [n.box for n in second.reads]) >= ON_TILES
        ):
            return None
    regions = [u for u in first.unreadable if run_together(u)]
    boxes = [r.box for r in first.reads]
    for u in second.unreadable:
        centre = np.asarray(u.box, np.float64).mean(axis=0)
        in_read = any(_inside(centre, box) for box in boxes) and not _holds_more(u.box, boxes)
        if not in_read and not (
            u.reason == nets.NOT_A_HALF_TILE and any(_inside(centre, g.box) for g in regions)
        ):
            return None
    if not all(
        u in regions
        or _accounted(u, extra)
        or _rest_of(u, first.reads, second.reads)
        or _not_a_tile(u, second, no_face)
        for u in first.unreadable
    ):
        return None
    reads = [*first.reads, *extra]
    if len(set(r.tile for r in reads)) < len(reads):
        return None
    return alike_in_size(PhotoReading(reads, [], first.width, first.height))


#: Part of a region of marks no outline covered (:data:`cf.photo.missed.UNCOVERED`) that
#: a tile the nets read must cover, and part of the classical reader's outline of that same
#: tile, for the marks to be that tile's (:func:`_rest_of`).
REST = 0.9

#: Part of the classical reader's outline that must lie in such a region: the region is
#: drawn around pips its outline, too small, left out, so it holds the outline.
IN_REGION = 0.5

#: A tile the nets read at most this many times the median area of the other tiles they
#: read is one tile's size, not two run together.
ONE_SIZE = 1.4


def _rest_of(u: Unreadable, reads: list[TileRead], nets_reads: list[TileRead]) -> bool:
    """Whether a region of pip-like marks outside every outline the classical reader found
    (:data:`cf.photo.missed.UNCOVERED`) holds the pips of a tile it outlined too small: its
    outline, read, lies in the region for :data:`IN_REGION` of it, and a tile the nets
    read, the same tile, of one tile's size beside the others they read
    (:data:`ONE_SIZE`; none without others), covers both the region and that outline for
    :data:`REST` of each. Two readers then read the one tile, and the marks are its own.
    A region beyond a whole outline (a neighbour's marks) holds none of it."""
    if u.reason != missed.UNCOVERED or len(u.box) < 3:
        return False
    for n in nets_reads:
        others = [_area(o.box) for o in nets_reads if o is not n]
        if not others or _area(n.box) > ONE_SIZE * float(median(others)):
            continue
        if _covered(u.box, [n.box]) < REST:
            continue
        if any(
            r.tile == n.tile
            and _covered(r.box, [n.box]) >= REST
            and _covered(r.box, [u.box]) >= IN_REGION
            for r in reads
        ):
            return True
    return False


#: A tile the classical reader read (or could not read) whose outline is less than this
#: part of a tile the nets read over it is a part of that tile: a half, or less, outlined
#: on its own (and read by the halves net as a whole tile), no evidence against the nets'.
PART = 0.5


def _nets_stand(
    first: PhotoReading,
    second: PhotoReading,
    no_face: Callable[[list[tuple[int, int]]], bool],
    run_together: Callable[[Unreadable], bool],
) -> bool:
    """Whether the nets' own reading ``second`` of the whole photo stands where the two
    readings make no one hand (:func:`_merged`): it is whole (every tile read with
    confidence, no doubt of theirs) and the classical reading ``first`` contradicts none of
    it. Each tile ``first`` read that shares one outline with a tile the nets read
    (:data:`ONE_TILE`) is that tile, or a part of it (:data:`PART`); one that shares none
    lies for the most part (:data:`ON_TILES`) on tiles the nets read (a piece of two
    touching tiles). Each tile ``first`` could not read lies for the most part on tiles
    the nets read, or is no tile by them (:func:`_not_a_tile`); never a half with more
    pips than the set has; a tile much smaller than the others only as a part of a tile
    the nets read; face enough for one more tile only where it is tiles run together
    (``run_together``)."""
    if not second.reads or second.unreadable or not _alike_both_ways(second.reads):
        return False
    boxes = [n.box for n in second.reads]

    def part_of(box: list[tuple[int, int]]) -> list[TileRead]:
        area = _area(box)
        return [
            n
            for n in second.reads
            if shared_area(box, n.box) >= ONE_TILE * min(area, _area(n.box))
        ]

    for r in first.reads:
        one = part_of(r.box)
        if any(n.tile != r.tile and _area(r.box) >= PART * _area(n.box) for n in one):
            return False
        if not one and _covered(r.box, boxes) < ON_TILES:
            return False
    for u in first.unreadable:
        if unsettled(u) or len(u.box) < 3:
            return False
        if u.reason == missed.ONE_MORE:
            settled = run_together(u)
        elif u.reason == SMALL:
            settled = any(_area(u.box) < PART * _area(n.box) for n in part_of(u.box))
        else:
            settled = _covered(u.box, boxes) >= ON_TILES or _not_a_tile(u, second, no_face)
        if not settled:
            return False
    return True


def _alike_both_ways(reads: list[TileRead]) -> bool:
    """Whether every tile read is at least :data:`cf.photo.oneset.SMALLEST` of the others'
    median width and of their median length: stricter than
    :func:`cf.photo.oneset.alike_in_size` (under it both ways), for a reading that stands
    on the nets alone. A printed picture of a domino can be as wide
    as a tile but shorter; the tiles net can take one for a tile."""
    sizes = [sides(r.box) for r in reads]
    return not any(any(under_others(sizes, i)) for i in range(len(sizes)))


#: An outline the classical reader could not read is of tiles run together when it is at
#: least this many times the median area of the tiles the nets read (and at least two of
#: them have their centres in it).
RUN_TOGETHER = 2.0

#: Face the tiles net sees in such an outline outside the tiles the nets read, as a part of
#: a tile's area, below which their reads account for all of it: a tile they missed shows
#: about 0.57 of its area as face (slivers of rim between the reads show far less).
FACE_LEFT = 0.15

#: "Face enough for one more tile" is settled so only over a stretch of this many tiles'
#: area or more that runs to two edges of the photo or more: the table, which the face
#: mask of a light table can run into (dozens of tiles' area). A double blank missed in a
#: photo's corner meets two edges too, but is one tile's area: an independent review's 19
#: such photos, dividers faint, were totals 50 points short under a bound on edges alone.
TABLE_TILES = 4.0


def _run_together(
    u: Unreadable,
    nets_: PhotoReading,
    view: nets.Seen,
    reduction: int,
    size: tuple[int, int] = (0, 0),
) -> bool:
    """Whether an outline the classical reader could not read holds tiles run together that
    the nets read, all of them: :data:`RUN_TOGETHER` tiles' area or more, two tiles read in
    it or more, and the face the tiles net sees in it outside their reads under
    :data:`FACE_LEFT` of a tile. "Face enough for one more tile" only when it is the table
    (:data:`TABLE_TILES`; ``size``: the photo's width and height)."""
    if unsettled(u) or u.reason == SMALL or len(u.box) < 3:
        return False
    if len(nets_.reads) < 2:
        return False
    tile = float(median([_area(r.box) for r in nets_.reads]))
    if u.reason == missed.ONE_MORE and (
        _area(u.box) < TABLE_TILES * tile or _edges_met(u.box, size) < 2
    ):
        return False
    inner = [r for r in nets_.reads if _inside(np.asarray(r.box, np.float64).mean(axis=0), u.box)]
    if _area(u.box) < RUN_TOGETHER * tile or len(inner) < 2:
        return False
    scale = 1.0 / reduction
    left = nets.face_left(
        view, np.asarray(u.box) * scale, [np.asarray(r.box) * scale for r in nets_.reads]
    )
    return left < FACE_LEFT * tile * scale * scale


def _edges_met(box: list[tuple[int, int]], size: tuple[int, int]) -> int:
    """How many edges of a photo of ``size`` (width, height) the outline ``box`` reaches
    (within 1% of its short side); 0 for a photo of no size."""
    width, height = size
    if width < 1 or height < 1:
        return 0
    pts = np.asarray(box, np.float64)
    near = 0.01 * min(width, height)
    return (
        int(pts[:, 0].min() <= near)
        + int(pts[:, 1].min() <= near)
        + int(pts[:, 0].max() >= width - 1 - near)
        + int(pts[:, 1].max() >= height - 1 - near)
    )


def _not_a_tile(
    u: Unreadable, nets_: PhotoReading, no_face: Callable[[list[tuple[int, int]]], bool]
) -> bool:
    """Whether an outline the classical reader could not read is no tile by the nets: no
    read or doubt of theirs over it, and no tile face in it (marks no outline covers, in
    a region the net sees no face in, are a glare spot's or the table's). A half with
    more pips than the set has, a tile much smaller than the others, face enough for one
    more tile (a double blank?) and a tile the classical reader read where the tiles net
    sees no face (:func:`_faceless`: the net may be blind to that one tile) stay doubts."""
    if unsettled(u) or u.reason in (missed.ONE_MORE, SMALL, FACELESS):
        return False
    if len(u.box) < 3 or _area(u.box) < 1:
        return False
    near = [*(r.box for r in nets_.reads), *(v.box for v in nets_.unreadable)]
    return not any(_overlap(u.box, box) for box in near) and no_face(u.box)


def _worn(u: Unreadable) -> bool:
    """Whether the classical reader doubts a half of this tile for a faint mark at its
    centre (:data:`cf.photo.pips.WORN`): the next odd number with its centre pip worn."""
    return WORN in u.reason.split("; ")


def unsettled(u: Unreadable) -> bool:
    """Whether a doubt of the classical reader's is one no other reading settles: a half
    with more pips than the set has, or a worn centre pip (:func:`_worn`). A net that reads
    the even count there saw no pip, which is no evidence that none was (trap set 1's worn
    pips, read a pip short by both readers, were wrong totals); one that reads the odd
    count may be counting the mark that raised the doubt, a speck of dirt (an independent
    review's photos: a 2-1 with a speck by the 2's centre read as 3-1)."""
    return u.pips > 0 or _worn(u)


def _accounted(u: Unreadable, reads: list[TileRead]) -> bool:
    """Whether a tile the classical reader could not read is one the nets read: their
    reads over its outline fill at least half of it (its guesses, being unsure, do not
    bind the nets' confident reading: glare misleads the classical reader's pip count). A
    doubt no read settles (:func:`unsettled`, a tile much smaller than the others, an
    outline with no area) is never accounted for: a tile outlined by one reader and
    missed by the other is a refusal, never left out."""
    area = _area(u.box) if len(u.box) >= 3 else 0.0
    if area < 1 or unsettled(u) or u.reason == SMALL:
        return False
    over = [r for r in reads if _overlap(u.box, r.box)]
    if not over:
        return False
    return sum(min(_area(r.box), area) for r in over) >= 0.5 * area


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
    reading settles, :func:`unsettled`, stays the classical refusal), as does one the net
    reads as a tile already read: a hand holds each tile once (an independent review's printed
    dominoes and worn pips, read so, were wrong totals). The classical reader's own
    guesses for such a tile bind the net only where the tiles net sees no tile there
    (``sees``: its face over the outline, :data:`SEES_TILE`; no view, a photo the nets do
    not see): it could not count the pips there, and its guesses were mostly a pip or more
    short (a blob it could not tell from a pip, a pip lost in glare). The pips of such a
    tile are then the halves net's alone; the whole-photo nets' reading still checks the
    tile where they read one over it (:func:`_nothing_more`, :func:`_merged`)."""
    if not first.unreadable:
        return first
    image = reader.to_bgr8(np.asarray(image))
    reads = list(first.reads)
    unreadable: list[Unreadable] = []
    for u in first.unreadable:
        tile = None
        if not unsettled(u) and len(u.box) == 4 and u.reason not in NOT_OUTLINES:
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
