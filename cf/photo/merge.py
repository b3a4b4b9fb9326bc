"""Where two readings of one photo make one hand: the rules that settle a doubt.

Step 3 of the reader ``cf score --photo`` runs (:mod:`cf.photo.combined`): the classical
reader's reading (its doubts included) and the nets' reading of the whole photo
(:mod:`cf.photo.nets`) make one hand when they agree (:func:`merged`); a reading the halves
net completed stands when the nets see nothing more (:func:`nothing_more`); where the two
make no one hand, the nets' own reading stands when the classical one contradicts none of
it (:func:`nets_stand`). What settles a doubt of the classical reader's: tiles the nets
read over its outline (:func:`accounted`), tiles run together that the nets read all of
(:func:`run_together`), no tile face by the tiles net where the nets see nothing
(:func:`_not_a_tile`), the pips of a tile outlined too small (:func:`_rest_of`); what no
reading settles (:func:`unsettled`). The numbers the step's checks share (:data:`ONE_TILE`,
:data:`ON_TILES`, :data:`SEES_TILE`, :data:`NO_FACE`) are here too.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cf.photo import missed, nets
from cf.photo.geometry import area as _area
from cf.photo.geometry import covered as _covered
from cf.photo.geometry import inside as _inside
from cf.photo.geometry import overlap as _overlap
from cf.photo.oneset import SMALL, alike_in_size, sides, under_others
from cf.photo.outlines import shared_area
from cf.photo.pips import WORN
from cf.photo.reader import PhotoReading, TileRead, Unreadable
from cf.photo.stats import median

#: Part of the smaller of two outlines, a tile the nets read and one the classical reader
#: read, that they must share to be of one tile (a misread where the tiles differ; either
#: reader may outline only part of a tile); a tile the nets read lies mostly (over half of
#: it) on tiles the classical reader read, or it is one it lacks. Between the two, it is
#: made of parts of tiles read: the halves of two touching tiles either side of the seam
#: between them, which the nets can take for one tile.
ONE_TILE, ON_TILES = 0.7, 0.5


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


def nothing_more(reading: PhotoReading, nets_: PhotoReading) -> bool:
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


#: Part of an outline below which the tiles net sees no tile face in it: an outline the
#: classical reader could not read, with no tile read nor doubt of the nets' over it and
#: less face than this in it, is not a tile (a pattern, a shadow, a glare spot). Set on
#: synthetic photos (seeds apart from the benchmark's): such outlines were never a tile;
#: tiles the nets missed always had a nets' outline over them.
NO_FACE = 0.2


#: Part of a tile's outline the tiles net sees as face when it sees that tile: by its
#: labels about 0.57 (the rim left out: (1 - 2 x 0.16) x (1 - 0.16)), less for a loose
#: outline. Its "no face" counts only on a photo where it read some tiles itself and every
#: tile the classical reader read, or outlined and the nets read, shows at least this much
#: face to it (one such tile at least): a net blind to a photo's tiles sees no face
#: anywhere. :func:`cf.photo.combined._faceless` asks less: this much face over one tile or
#: doubt of the nets' (a speck aside), and its doubts are never settled by "no face".
SEES_TILE = 0.4


def merged(
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
        or accounted(u, extra)
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


def nets_stand(
    first: PhotoReading,
    second: PhotoReading,
    no_face: Callable[[list[tuple[int, int]]], bool],
    run_together: Callable[[Unreadable], bool],
) -> bool:
    """Whether the nets' own reading ``second`` of the whole photo stands where the two
    readings make no one hand (:func:`merged`): it is whole (every tile read with
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


def run_together(
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
    sees no face (:func:`cf.photo.combined._faceless`: the net may be blind to that one
    tile) stay doubts."""
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


def accounted(u: Unreadable, reads: list[TileRead]) -> bool:
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
