"""A tile cut by the photo's edge (cf/photo/edges.py): tile face against the frame beside
the tiles read is a doubt, never left out; a table of the faces' colour tells nothing."""

from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from cf.photo import combined, edges, reader  # noqa: E402
from cf.photo.scenes import render_family  # noqa: E402
from cf.tiles import Tile  # noqa: E402

#: A block of four touching tiles read exactly; tile CUT_TILE is its leftmost.
SEED, CUT_TILE = 7, 3


def _block():
    photo = render_family(SEED, "block", size=(800, 600), count=4, top=9)
    xs = [float(np.mean(b, axis=0)[0]) for b in photo.boxes]
    assert int(np.argmin(xs)) == CUT_TILE
    return photo


def _cut(photo):
    """The photo cropped at the left so that 0.35 of its leftmost tile's width is left."""
    box = np.asarray(photo.boxes[CUT_TILE])
    left, right = box[:, 0].min(), box[:, 0].max()
    return np.ascontiguousarray(photo.image[:, int(left + 0.65 * (right - left)) :])


def test_a_tile_cut_by_the_photos_edge_beside_the_tiles_read_is_a_doubt():
    """A row running off the frame ends in a piece of a tile too small to outline: left
    out, the total would be short; it is a doubt where it lies."""
    photo = _block()
    whole = combined.read_hand(photo.image, 9)
    assert whole.ok and sorted(whole.tiles) == sorted(photo.tiles)
    reading = combined.read_hand(_cut(photo), 9)
    assert not reading.ok
    rest = [t for i, t in enumerate(photo.tiles) if i != CUT_TILE]
    assert sorted(reading.tiles) == sorted(rest)
    [doubt] = reading.unreadable
    assert (doubt.reason, doubt.candidates) == (edges.CUT, [])
    assert min(x for x, _ in doubt.box) == 0  # against the left edge


def test_the_piece_is_outlined_in_the_photos_pixels_whatever_it_was_decoded_at():
    photo = _block()
    image = _cut(photo)
    reads = combined.read_hand(image, 9).reads
    full = edges.cut_by_edge(image, reader.PhotoReading(list(reads), [], *image.shape[1::-1]))
    half = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    reduced = edges.cut_by_edge(
        half, reader.PhotoReading(list(reads), [], *image.shape[1::-1]), reduction=2
    )
    [a], [b] = full.unreadable, reduced.unreadable
    assert np.abs(np.mean(a.box, axis=0) - np.mean(b.box, axis=0)).max() < 8


def _face_colour(image, reads):
    inside = np.zeros(image.shape[:2], np.uint8)
    for r in reads:
        cv2.fillConvexPoly(inside, np.asarray(r.box, np.int32), 1)
    return inside, np.median(image[inside > 0], axis=0).astype(np.uint8)


def test_a_table_of_the_faces_colour_tells_no_cut_tile():
    """On a table of the tiles' own colour (white tiles on white paper) a piece of tile
    cannot be told from the table: nothing is checked. A table a little darker or lighter
    (a pastel cloth, cream paper: nearer the faces' colour than :data:`edges.TABLE_APART`)
    tells it by its outline and its colour (:func:`edges._cut_on_light_table`), a darker
    one by its colour alone: a doubt either way."""
    photo = _block()
    image = _cut(photo)
    reads = combined.read_hand(image, 9).reads
    reading = reader.PhotoReading(list(reads), [], *image.shape[1::-1])
    _, face = _face_colour(image, reads)
    table = image.mean(axis=2) < 150  # the felt; the tiles and the piece keep their colour
    for shift, refused in ((0, False), (-4, False), (-15, True), (-30, True), (25, True)):
        for seen in (-100, shift):
            lighter = image.copy()
            lighter[table] = np.clip(face.astype(int) + seen, 0, 255).astype(np.uint8)
            checked = edges.cut_by_edge(lighter, reading)
            expected = refused or seen == -100
            assert (checked is reading) != expected and checked.ok != expected


def _outlined(inside, around=None, at=0, table=(205.0, 128.0, 140.0)):
    """A 200 x 300 Lab picture of a table with a tile read (its ``covered`` mask and
    reading) and, ``at`` pixels from the left edge, an outlined 34 x 30 region of colour
    ``inside``, the table around it ``around``."""
    face = np.array([230.0, 128.0, 135.0])
    lab = np.empty((200, 300, 3), np.float32)
    lab[:] = table
    if around is not None:
        lab[50:140, 0:40] = around
    lab[80:110, 40:100] = face
    lab[78:112, at : at + 36] = 90.0, 128.0, 128.0
    lab[80:110, at : at + 34] = inside
    covered = np.zeros((200, 300), np.uint8)
    covered[80:110, 40:100] = 1
    box = [(40, 80), (99, 80), (99, 109), (40, 109)]
    reading = reader.PhotoReading([reader.TileRead(Tile(3, 1), 1.0, box)], [], 300, 200)
    return lab, covered, face, np.array(table), reading


def test_table_outlined_against_the_frame_is_no_cut_tile():
    """On a table near the faces' colour, a region that edges enclose against the photo's
    edge beside a tile read is a piece of tile only in the faces' colour: enclosed table (a
    shadow's rim, a crease in the cloth) is the table's colour, as lit around it (light
    falls unevenly: where the table is lit nearly to the faces' colour nothing tells)."""
    face, table = (230.0, 128.0, 135.0), (205.0, 128.0, 140.0)
    lit = (228.0, 128.0, 137.0)  # the table lit brighter by the frame
    for inside, around, doubt in ((face, table, True), (table, table, False), (lit, lit, False)):
        lab, covered, f, t, reading = _outlined(inside, around)
        checked = edges._cut_on_light_table(lab, reading, covered, f, t, 30.0, 1.0)
        assert (not checked.ok) == doubt
        if doubt:
            [u] = checked.unreadable
            assert u.reason == edges.CUT and min(x for x, _ in u.box) == 0


def test_a_light_table_piece_must_be_the_faces_colour_at_the_frame():
    """The outlined region must touch the photo's edge; be of the faces' colour (a glare
    spot, pure white, closed off at the frame is no piece of tile: an independent review's
    glare photos); and be nearer it than the table's median too (a lit patch of table
    beside a shadow is nearer the faces' colour than the shadow around it)."""

    def doubted(*args, **kwargs):
        lab, covered, face, table, reading = _outlined(*args, **kwargs)
        return not edges._cut_on_light_table(lab, reading, covered, face, table, 30.0, 1.0).ok

    face = (230.0, 128.0, 135.0)
    assert doubted(face)
    assert not doubted(face, at=4)  # off the edge: a tile the readers saw whole
    assert not doubted((255.0, 128.0, 128.0))  # glare: lighter than the faces, grey
    lit, shadow = (216.0, 128.0, 133.0), (170.0, 128.0, 133.0)
    assert not doubted(lit, around=shadow, table=(215.0, 128.0, 133.0))


def test_face_colour_over_more_than_a_tile_tells_no_cut_tile():
    """A sheet of paper of the faces' colour against the edge (more than a tile's area)
    could hide anything: nothing is checked."""
    photo = _block()
    image = _cut(photo)
    reads = combined.read_hand(image, 9).reads
    reading = reader.PhotoReading(list(reads), [], *image.shape[1::-1])
    assert not edges.cut_by_edge(image, reading).ok
    _, face = _face_colour(image, reads)
    paper = image.copy()
    paper[:200, -200:] = face
    assert edges.cut_by_edge(paper, reading) is reading


def test_a_refused_reading_or_one_with_no_tile_is_as_it_was():
    photo = _block()
    nothing = reader.PhotoReading([], [], 800, 600)
    assert edges.cut_by_edge(photo.image, nothing) is nothing
    refused = reader.PhotoReading([], [reader.Unreadable([(0, 0), (9, 0), (9, 9)], [])], 800, 600)
    assert edges.cut_by_edge(photo.image, refused) is refused


def _apart(image, reads, gap):
    """The photo with the tiles read moved ``gap`` pixels farther from the piece at the
    photo's edge (table where they were), and the readings moved with them."""
    boxes = [np.asarray(r.box, np.float64) for r in reads]
    tiles = np.zeros(image.shape[:2], np.uint8)
    for box in boxes:
        centre = box.mean(axis=0)
        cv2.fillConvexPoly(tiles, np.round(centre + (box - centre) * 1.15).astype(np.int32), 1)
    table = np.median(image[tiles == 0].reshape(-1, 3), axis=0).astype(np.uint8)
    corner = np.array([0.0, 0.0])  # the piece lies against the top left
    away = np.mean([b.mean(axis=0) for b in boxes], axis=0) - corner
    dx, dy = away / np.linalg.norm(away) * gap
    shift = np.float32([[1, 0, dx], [0, 1, dy]])
    size = image.shape[1::-1]
    moved_tiles = cv2.warpAffine(tiles, shift, size, flags=cv2.INTER_NEAREST)
    moved_image = cv2.warpAffine(image, shift, size)
    out = image.copy()
    out[tiles > 0] = table
    out[moved_tiles > 0] = moved_image[moved_tiles > 0]
    shifted = [
        reader.TileRead(r.tile, r.confidence, [(x + dx, y + dy) for x, y in r.box]) for r in reads
    ]
    return out, reader.PhotoReading(shifted, [], *size)


def test_a_cut_tile_apart_from_the_tiles_read_is_a_doubt_within_a_tiles_width():
    """Tiles of a hand lie a tile's width apart or nearer: a piece half a tile's width from
    the others is still a doubt; one three tiles' widths away is left alone (paper, a
    phone)."""
    photo = _block()
    image = _cut(photo)
    reads = combined.read_hand(image, 9).reads
    width = float(np.median([min(edges.sides(r.box)) for r in reads]))
    near, reading = _apart(image, reads, round(0.5 * width))
    assert not edges.cut_by_edge(near, reading).ok
    far, reading = _apart(image, reads, round(3 * width))
    assert edges.cut_by_edge(far, reading).ok


def test_a_cut_tile_in_shade_is_a_doubt():
    """Light falls unevenly: a tile farther from the lamp is darker than those read (here
    by 45 levels), still far lighter than the table."""
    photo = _block()
    image = _cut(photo)
    reads = combined.read_hand(image, 9).reads
    reading = reader.PhotoReading(list(reads), [], *image.shape[1::-1])
    left = int(min(min(x for x, _ in r.box) for r in reads)) - 2
    shaded = image.copy()
    piece = shaded[:, :left].astype(int)
    light = piece.mean(axis=2) > 150  # the piece's face, not the felt
    piece[light] -= 45
    shaded[:, :left] = np.clip(piece, 0, 255).astype(np.uint8)
    assert not edges.cut_by_edge(shaded, reading).ok


@pytest.mark.parametrize(("seed", "size"), [(2024, (1600, 1200)), (2039, (640, 480))])
def test_a_tiles_own_side_at_the_edge_is_no_cut_tile(seed, size):
    """A tile read at the photo's edge shows its side (a strip under a fifth of a tile's
    width, in shade): that strip is no piece of another tile."""
    from cf.photo.synth import render_hand

    photo = render_hand(seed, size=size, count=10, difficulty=2)
    reading = combined.read_hand(photo.image, photo.top)
    assert reading.ok and sorted(reading.tiles) == sorted(photo.tiles)


@pytest.mark.parametrize("bottom", [350, 400, 450])
def test_the_example_photo_cut_through_a_tile_is_refused(bottom):
    """An audit's case: the shipped photo cropped through its 7-0 (lit less than the 8-8,
    and askew to it) printed 16 with confidence; the piece is a doubt."""
    from pathlib import Path

    path = Path(__file__).parent.parent / "examples/photos/double-twelve-8-8-7-0.jpg"
    image = cv2.imread(str(path))
    reading = combined.read_hand(np.ascontiguousarray(image[:bottom]), 12)
    assert not reading.ok
    assert [str(t) for t in reading.tiles] == ["8-8"]
    assert edges.CUT in [u.reason for u in reading.unreadable]
    assert combined.read_hand(image, 12).ok  # the whole photo still reads


@pytest.mark.parametrize(
    ("colour", "refused"),
    [
        ((245, 245, 245), True),  # white paper: the faces' colour, a tile's blank half or not
        ((175, 195, 230), True),  # a pale fingertip (BGR), 8.5 from this ivory in a-b: a limit
        ((130, 130, 130), False),  # mid grey: nearer the table's lightness than the faces'
        ((60, 60, 200), False),  # a red sleeve: another hue
        ((255, 200, 120), False),  # a phone's bluish screen
    ],
)
def test_a_patch_at_the_frame_near_the_tiles(colour, refused):
    """A 0.6-tile patch against the frame, half a tile's width from the tiles read: only
    what is of the faces' colour (or a face in shade) is taken for a cut tile; a pale
    fingertip near the faces' hue is refused too (refused, never read short)."""
    photo = render_family(SEED, "block", size=(800, 600), count=4, top=9)
    boxes = [np.asarray(b) for b in photo.boxes]
    left = min(b[:, 0].min() for b in boxes)
    width = float(np.median([min(edges.sides(b.tolist())) for b in boxes]))
    every = np.vstack(boxes)
    middle = int(every[np.argmin(every[:, 0]), 1])
    side = int(0.6 * width)
    x0 = int(left - 0.06 * width - 0.5 * width - side)
    image = np.ascontiguousarray(photo.image[:, x0:])
    reads = combined.read_hand(image, 9).reads
    reading = reader.PhotoReading(list(reads), [], *image.shape[1::-1])
    assert edges.cut_by_edge(image, reading).ok
    image[middle - side // 2 : middle - side // 2 + side, :side] = colour
    assert edges.cut_by_edge(image, reading).ok != refused
