"""Coloured tile bodies (cf/photo/keyed.py): where neither the photo nor its negative reads
a tile, the photo keyed to its tiles' body colour is read, and stands as a negative does."""

from __future__ import annotations

from dataclasses import replace

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from cf.photo import combined, keyed, oneset  # noqa: E402
from cf.photo.scenes import render_family  # noqa: E402

#: Eleven pink tiles with white pips on a striped blue cloth (640 x 480), refused by the
#: photo's own reading and its negative's.
SEED = 3


def _photo():
    return render_family(SEED, "colour_body", size=(640, 480))


def test_the_body_colour_keys_tiles_light_and_the_table_dark():
    photo = _photo()
    colours = keyed.body_colours(photo.image)
    assert colours
    grey = keyed.keyed(photo.image, colours[0])[:, :, 0]
    for box in photo.boxes:
        mask = np.zeros(grey.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.asarray(box, np.int32), 1)
        assert np.median(grey[mask > 0]) > 200  # the body, less its pips
    ring = np.concatenate([grey[:4].ravel(), grey[-4:].ravel()])
    assert np.median(ring) < 60


def test_coloured_tiles_are_read_keyed_to_their_colour(monkeypatch):
    photo = _photo()
    reading = combined.read_hand(photo.image, photo.top)
    assert reading.ok
    assert sorted(reading.tiles) == sorted(photo.tiles)
    # Neither the photo nor its negative reads them: the keyed reading does.
    monkeypatch.setattr(keyed, "body_colours", lambda image, most=3: [])
    assert not combined.read_hand(photo.image, photo.top).ok


@pytest.mark.parametrize("value", [0, 128, 255])
def test_a_grey_photo_has_no_body_colour(value):
    image = np.full((240, 320, 3), value, np.uint8)
    noisy = np.clip(image + np.random.default_rng(1).normal(0, 20, image.shape), 0, 255)
    assert keyed.body_colours(noisy.astype(np.uint8)) == []


def test_a_coloured_sheet_with_dots_is_no_domino():
    # Pink paper with yellow dots in no tile's layout, on a grey table: keyed, light
    # pink with dark marks, but no tile's shape and no divider.
    image = np.full((480, 640, 3), 90, np.uint8)
    cv2.rectangle(image, (80, 60), (560, 420), (180, 105, 240), -1)
    rng = np.random.default_rng(7)
    for _ in range(40):
        x, y = int(rng.integers(100, 540)), int(rng.integers(80, 400))
        cv2.circle(image, (x, y), 6, (40, 220, 240), -1)
    assert keyed.body_colours(image)
    reading = combined.read_hand(image, 12)
    assert not reading.ok
    assert not reading.reads


def _with_more(monkeypatch, which: str, box) -> None:
    """The nets' reading of the photo itself (``which`` "seen") or the negative's reading
    (``which`` "negative") gains a 6-6 read at ``box``, off the pink tiles; or the
    negative's reading a light, tile-sized region with marks there (``which``
    "uncovered")."""
    from cf.photo.missed import UNCOVERED
    from cf.photo.reader import TileRead, Unreadable
    from cf.tiles import Tile

    extra = TileRead(Tile.of(6, 6), 0.99, box)
    original = combined._one_set_seen
    calls = []

    def patched(photo, top, min_confidence, reduction, colours=None):
        reading, seen = original(photo, top, min_confidence, reduction, colours)
        calls.append(photo)
        if which == "seen" and len(calls) == 1:
            seen = replace(seen, reads=[*seen.reads, extra])
        if which == "negative" and len(calls) == 2:
            reading = replace(reading, reads=[*reading.reads, extra])
        if which == "uncovered" and len(calls) == 2:
            region = Unreadable(box, [], UNCOVERED)
            reading = replace(reading, unreadable=[*reading.unreadable, region])
        return reading, seen

    monkeypatch.setattr(combined, "_one_set_seen", patched)


@pytest.mark.parametrize("which", ["seen", "negative", "uncovered"])
def test_a_tile_read_off_the_coloured_ones_stops_the_keyed_reading(monkeypatch, which):
    # Black tiles beside a pink one: keyed to pink, the black ones are table; a pink tile
    # mostly under a finger is a sliver of pink. A tile the nets read in the photo, or the
    # negative read or found unaccounted for, where no keyed tile lies: refused.
    photo = _photo()
    corner = [(4, 4), (40, 4), (40, 76), (4, 76)]
    _with_more(monkeypatch, which, corner)
    reading = combined.read_hand(photo.image, photo.top)
    assert not reading.ok


def test_a_keyed_block_with_no_bar_across_is_no_tile():
    # A toy brick of the tiles' colour: a light block with dark studs, no divider.
    photo = _photo()
    body = keyed.body_colours(photo.image)[0]
    brick = np.full((120, 240, 3), 40, np.uint8)
    colour = cv2.cvtColor(np.uint8([[body]]), cv2.COLOR_LAB2BGR)[0, 0]
    cv2.rectangle(brick, (20, 20), (220, 100), tuple(int(c) for c in colour), -1)
    view = keyed.keyed(brick, body)
    box = [(20, 20), (220, 20), (220, 100), (20, 100)]
    assert not oneset.light_bar(255 - view, box)
    cv2.line(brick, (120, 28), (120, 92), (255, 255, 255), 6)  # a painted divider
    assert oneset.light_bar(255 - keyed.keyed(brick, body), box)


def test_a_tile_of_another_colour_stops_the_keyed_reading():
    # Keyed to the pink of three tiles, a green fourth is table; keyed to green, it is read.
    from cf.photo.reader import PhotoReading, TileRead, Unreadable
    from cf.tiles import Tile

    def box(x):
        return [(x, 10), (x + 30, 10), (x + 30, 70), (x, 70)]

    pink = PhotoReading([TileRead(Tile.of(3, 0), 0.99, box(0))], [], 400, 300)
    same = PhotoReading([TileRead(Tile.of(3, 0), 0.95, box(2))], [], 400, 300)
    green = PhotoReading([TileRead(Tile.of(2, 1), 0.99, box(200))], [], 400, 300)
    named = PhotoReading([], [Unreadable(box(200), [Tile.of(2, 1)], "unsure")], 400, 300)
    marks = PhotoReading([], [Unreadable(box(200), [], "a blob that is not a pip")], 400, 300)
    assert keyed.alone(pink, [same, marks])
    assert not keyed.alone(pink, [same, green])
    assert not keyed.alone(pink, [named])


def test_a_refusal_names_the_coloured_tiles_read_keyed():
    # Six pink tiles, each read right keyed to pink, but the reading does not stand (the
    # patterned table's marks): the refusal names them and says how to photograph them,
    # rather than only "a tile whose divider was not found".
    photo = render_family(29, "colour_body", size=(640, 480))
    reading = combined.read_hand(photo.image, photo.top)
    assert not reading.ok
    named = [u for u in reading.unreadable if u.reason == keyed.KEYED_UNSURE]
    assert sorted(str(u.candidates[0]) for u in named) == sorted(map(str, photo.tiles))
    assert reading.unreadable[: len(named)] == named  # first, before the other doubts


def test_a_keyed_tile_a_refusal_already_names_is_not_named_twice():
    from cf.photo.reader import PhotoReading, TileRead, Unreadable
    from cf.tiles import Tile

    photo = _photo()
    view = keyed.keyed(photo.image, keyed.body_colours(photo.image)[0])
    box = [tuple(map(int, p)) for p in photo.boxes[0]]
    coloured = PhotoReading([TileRead(photo.tiles[0], 0.99, box)], [], 640, 480)
    refusal = PhotoReading([], [Unreadable(box, [Tile.of(1, 0)], "unsure")], 640, 480)
    assert keyed.seen_keyed([(view, coloured)], refusal, photo.image) == refusal
    bare = PhotoReading([], [Unreadable(box, [], "a tile whose divider was not found")], 640, 480)
    out = keyed.seen_keyed([(view, coloured)], bare, photo.image)
    assert [(u.candidates, u.reason) for u in out.unreadable] == [
        ([photo.tiles[0]], keyed.KEYED_UNSURE)
    ]
