"""A tile cut by the photo's edge (cf/photo/edges.py): tile face against the frame beside
the tiles read is a doubt, never left out; a table of the faces' colour tells nothing."""

from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from cf.photo import combined, edges, reader  # noqa: E402
from cf.photo.scenes import render_family  # noqa: E402

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


def test_a_table_near_the_faces_colour_tells_no_cut_tile():
    """On a table near the tiles' own colour (uneven light and vignetting can bring some of
    it to the faces' colour) a piece of tile cannot be told from the table: nothing is
    checked. The same piece on a darker table is a doubt."""
    photo = _block()
    image = _cut(photo)
    reads = combined.read_hand(image, 9).reads
    reading = reader.PhotoReading(list(reads), [], *image.shape[1::-1])
    _, face = _face_colour(image, reads)
    table = image.mean(axis=2) < 150  # the felt; the tiles and the piece keep their colour
    for drop, refused in ((30, False), (100, True)):
        lighter = image.copy()
        lighter[table] = np.clip(face.astype(int) - drop, 0, 255).astype(np.uint8)
        checked = edges.cut_by_edge(lighter, reading)
        assert (checked is reading) != refused and checked.ok != refused


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
