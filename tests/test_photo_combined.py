"""The reader ``cf score --photo`` runs (cf/photo/combined.py, the rules of its merge in
cf/photo/merge.py): the classical pipeline, checked by the networks, which read again
where it refuses; two readers that disagree are a refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from cf.photo import combined, geometry, merge, negative, nets, oneset, reader  # noqa: E402
from cf.photo.scenes import render_family  # noqa: E402
from cf.photo.synth import render_hand  # noqa: E402
from cf.tiles import Tile  # noqa: E402


def test_the_nets_read_again_where_the_classical_reader_refuses(monkeypatch):
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    outline = [(round(x), round(y)) for x, y in photo.boxes[0]]
    refused = reader.PhotoReading(unreadable=[reader.Unreadable(outline, [])])
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: refused)
    assert sorted(combined.read_hand(photo.image, 9).tiles) == sorted(photo.tiles)
    # An outline with no area is a doubt nothing settles.
    point = reader.PhotoReading(unreadable=[reader.Unreadable([(0, 0)] * 4, [])])
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: point)
    assert combined.read_hand(photo.image, 9) is point
    # Without the model files, the classical refusal stands.
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: refused)
    monkeypatch.setattr(nets, "available", lambda: False)
    assert combined.read_hand(photo.image, 9) is refused


def test_two_readers_that_disagree_are_a_refusal(monkeypatch):
    """The classical reader read a tile with confidence where the nets read another: its
    refusal stands. Where the nets read nothing but see tile face, its tile joins theirs;
    where they see no face at all, it is a doubt (the tiles net may be blind to one
    tile): never dropped from a total."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    box = [(round(x), round(y)) for x, y in photo.boxes[0]]
    second = [(round(x), round(y)) for x, y in photo.boxes[1]]
    refused = reader.PhotoReading(
        reads=[reader.TileRead(Tile(7, 0), 0.9, box)],
        unreadable=[reader.Unreadable(second, [])],
    )
    assert Tile(7, 0) not in photo.tiles
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: refused)
    assert combined.read_hand(photo.image, 9) is refused
    width = round(float(np.linalg.norm(photo.boxes[0][1] - photo.boxes[0][0])))
    corner = _box(1, 1, width, 2 * width)
    assert not any(geometry.overlap(corner, b.tolist()) for b in photo.boxes)
    elsewhere = reader.PhotoReading(
        reads=[reader.TileRead(Tile(7, 0), 0.9, corner)],
        unreadable=[reader.Unreadable(second, [])],
    )
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: elsewhere)
    refused = combined.read_hand(photo.image, 9)
    assert not refused.ok
    assert [u.candidates for u in refused.unreadable if u.reason == merge.FACELESS] == [
        [Tile(7, 0)]
    ]
    view = nets.seen(photo.image)
    probs = view.probs.copy()
    inside = np.zeros(probs.shape[1:], np.uint8)
    cv2.fillConvexPoly(inside, np.round(np.array(corner) / view.to_image).astype(np.int32), 1)
    probs[0][inside > 0], probs[1][inside > 0] = 0, 1  # face, as a tile's
    monkeypatch.setattr(nets, "seen", lambda image, smaller=None: nets.Seen(probs, view.to_image))
    assert sorted(combined.read_hand(photo.image, 9).tiles) == sorted([*photo.tiles, Tile(7, 0)])


def test_a_tile_in_shadow_the_classical_reader_refuses_is_read_right_or_refused():
    """Seed 3 of tests/test_photo.py's shadowed tile: the classical pipeline doubts it, the
    networks read the whole hand; never a wrong hand."""
    from test_photo import _shadowed

    from cf.photo.synth import render_hand

    for seed in (0, 3, 7):
        layout = ["scatter", "row", "block"][seed % 3]
        photo = render_hand(seed, size=(1024, 768), difficulty=0, count=5, layout=layout)
        reading = combined.read_hand(_shadowed(photo.image, photo.boxes[0]), photo.top)
        assert not reading.ok or sorted(reading.tiles) == sorted(photo.tiles)
        if seed == 3:
            assert reading.ok


def _box(x: int, y: int, width: int, length: int) -> list[tuple[int, int]]:
    return [(x, y), (x + width, y), (x + width, y + length), (x, y + length)]


def test_a_tile_much_smaller_than_the_others_is_not_counted():
    """A hand is one set: a 'tile' under 0.8 of the others' size both ways (a printed
    picture of a domino beside the hand) is unreadable, never counted."""
    reads = [
        reader.TileRead(Tile(6, 5), 0.9, _box(0, 0, 60, 120)),
        reader.TileRead(Tile(4, 4), 0.9, _box(100, 0, 62, 124)),
        reader.TileRead(Tile(3, 0), 0.9, _box(200, 0, 40, 80)),
    ]
    out = combined.alike_in_size(reader.PhotoReading(reads=reads, width=400, height=200))
    assert out.tiles == (Tile(6, 5), Tile(4, 4)) and not out.ok
    assert out.unreadable[0].candidates == [Tile(3, 0)]
    assert "smaller than the other tiles" in out.unreadable[0].reason
    # A picture three quarters of a tile's size both ways is not counted either.
    reads[2] = reader.TileRead(Tile(3, 0), 0.9, _box(200, 0, 46, 92))
    out = combined.alike_in_size(reader.PhotoReading(reads=reads, width=400, height=200))
    assert out.tiles == (Tile(6, 5), Tile(4, 4)) and not out.ok
    # Far tiles of an angled shot are a little smaller: still read.
    reads[2] = reader.TileRead(Tile(3, 0), 0.9, _box(200, 0, 46, 100))
    kept = reader.PhotoReading(reads=reads, width=400, height=200)
    assert combined.alike_in_size(kept) is kept
    # One tile alone has nothing to be compared with.
    alone = reader.PhotoReading(reads=reads[2:], width=400, height=200)
    assert combined.alike_in_size(alone) is alone


def test_a_printed_domino_beside_a_hand_is_not_counted():
    """Synthetic family 'distractors', seed 900001: the classical reader read a printed
    picture of a domino as a tile; the size check refuses instead of a wrong total."""
    photo = render_family(900_001, "distractors")
    first = reader.read_hand(photo.image, photo.top)
    reading = combined.read_hand(photo.image, photo.top)
    assert first.ok and sorted(first.tiles) != sorted(photo.tiles)
    assert not reading.ok


def _outlined_but_unread(photo, candidates, pips=0):
    """The classical reader's reading of ``photo``: every tile read but the last, which it
    outlined and could not read."""
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    reads = [reader.TileRead(t, 0.9, b) for t, b in zip(photo.tiles[:-1], boxes, strict=False)]
    unread = reader.Unreadable(boxes[-1], candidates, "a tile whose divider was not found", pips)
    return reader.PhotoReading(reads, [unread], photo.image.shape[1], photo.image.shape[0])


def test_the_halves_net_reads_a_tile_the_classical_reader_outlined(monkeypatch):
    """The classical reader found a tile but not its pips: the halves net reads that outline
    (and the whole-photo nets see nothing more)."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: _outlined_but_unread(photo, []))
    reading = combined.read_hand(photo.image, 9)
    assert reading.ok and sorted(reading.tiles) == sorted(photo.tiles)
    assert reading.reads[-1].box == [(round(x), round(y)) for x, y in photo.boxes[-1]]
    # The classical reader's guesses for it do not bind the net where the tiles net sees a
    # tile there (the classical reader could not count its pips)...
    last = photo.tiles[-1]
    other = Tile(9, 9) if last != Tile(9, 9) else Tile(8, 8)
    guess = _outlined_but_unread(photo, [other])
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: guess)
    monkeypatch.setattr(nets, "reading", lambda *a, **k: reader.PhotoReading())
    guessed = combined._halves_read(photo.image, guess, 9, 0.6, 1, lambda box: True)
    assert guessed.reads[-1].tile == last and not guessed.unreadable
    assert sorted(combined.read_hand(photo.image, 9).tiles) == sorted(photo.tiles)
    # ... and bind it where the tiles net sees none (then nothing else has seen the tile).
    assert combined._halves_read(photo.image, guess, 9, 0.6, 1).unreadable == guess.unreadable
    table = np.zeros((3, 48, 64))
    table[0] = 1.0  # all background: the tiles net sees no tile anywhere
    real_seen = nets.seen
    monkeypatch.setattr(nets, "seen", lambda *a, **k: nets.Seen(table, np.array([10.0, 10.0])))
    assert not combined.read_hand(photo.image, 9).ok
    monkeypatch.setattr(nets, "seen", real_seen)
    # A tile the whole-photo nets read there with confidence must be the same tile.
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    misread = reader.PhotoReading([reader.TileRead(other, 0.99, boxes[-1])], [], 640, 480)
    monkeypatch.setattr(nets, "reading", lambda *a, **k: misread)
    assert not combined.read_hand(photo.image, 9).ok
    # Nor does it read a tile the hand already holds (a worn half read as a tile read).
    first = _outlined_but_unread(photo, [])
    twice = reader.PhotoReading(
        [reader.TileRead(last, 0.9, first.reads[0].box), *first.reads[1:]], first.unreadable
    )
    again = combined._halves_read(photo.image, twice, 9, 0.6, 1)
    assert again.unreadable == first.unreadable
    assert len(combined._halves_read(photo.image, first, 9, 0.6, 1).reads) == len(photo.tiles)
    # A half with more pips than the set has stays the classical refusal (it suggests --set).
    over = _outlined_but_unread(photo, [], pips=13)
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: over)
    assert not combined.read_hand(photo.image, 9).ok
    # Nor do the whole-photo nets settle it, though they read that tile.
    monkeypatch.undo()
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: over)
    assert nets.reading(photo.image, 9, 0.6).ok
    assert combined.read_hand(photo.image, 9) is over


def test_an_outline_that_is_not_a_tile_shape_is_not_read():
    assert nets.short_side_first(np.array(_box(0, 0, 50, 50), float)) is None
    assert nets.short_side_first(np.array(_box(0, 0, 50, 100), float)) is not None
    assert nets.short_side_first(np.array(_box(0, 0, 50, 150), float)) is None
    turned = nets.short_side_first(np.array([(0, 0), (100, 0), (100, 50), (0, 50)], float))
    assert turned is not None and np.linalg.norm(turned[1] - turned[0]) == 50


def test_a_tile_the_classical_reader_outlined_and_the_nets_missed_is_a_refusal(monkeypatch):
    """The nets read a whole hand, but the classical reader outlined a tile where the nets
    read none: the hand may hold one more tile, so the refusal stands. Where the tiles net
    sees no face at all in that outline (bare table), it is no tile, if the net shows it
    sees this photo's tiles: face over a tile both readers found."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    junk = reader.Unreadable(_box(2, 2, 30, 60), [])
    found = reader.PhotoReading(unreadable=[junk])
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: found)
    assert all(not geometry.inside(np.mean(b, axis=0), _box(2, 2, 30, 60)) for b in photo.boxes)
    assert nets.face_share(nets.seen(photo.image), np.array(_box(2, 2, 30, 60))) < 0.05
    # No tile both readers found: nothing shows the net sees this photo's tiles.
    assert combined.read_hand(photo.image, 9) is found
    outlined = [tuple(map(round, p)) for p in photo.boxes[1]]
    both = reader.PhotoReading(unreadable=[reader.Unreadable(outlined, []), junk])
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: both)
    monkeypatch.setattr(combined, "_halves_read", lambda image, first, *a: first)
    assert sorted(combined.read_hand(photo.image, 9).tiles) == sorted(photo.tiles)
    monkeypatch.setattr(nets, "face_share", lambda view, box: merge.NO_FACE)
    assert combined.read_hand(photo.image, 9) is both
    # The net sees the tiles but read none itself: no evidence either.
    monkeypatch.undo()
    three = [
        reader.TileRead(t, 0.9, [tuple(map(round, p)) for p in b])
        for t, b in zip(photo.tiles[:3], photo.boxes, strict=False)
    ]
    first = reader.PhotoReading(three, [junk], 640, 480)
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: first)
    monkeypatch.setattr(combined, "_halves_read", lambda image, first, *a: first)
    monkeypatch.setattr(nets, "reading", lambda *a, **k: reader.PhotoReading())
    assert combined.read_hand(photo.image, 9) is first
    # Outlined where the nets read a tile: accounted for, the nets' reading stands.
    monkeypatch.undo()
    inner = [tuple(map(round, p)) for p in photo.boxes[0]]
    found = reader.PhotoReading(unreadable=[reader.Unreadable(inner, [])])
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: found)
    monkeypatch.setattr(combined, "_halves_read", lambda image, first, *a: first)
    assert sorted(combined.read_hand(photo.image, 9).tiles) == sorted(photo.tiles)


def test_what_the_nets_could_not_read_must_lie_in_a_tile_read(monkeypatch):
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    refused = reader.PhotoReading(unreadable=[reader.Unreadable(boxes[1], [])])
    nets_read = reader.PhotoReading(
        reads=[
            reader.TileRead(t, 0.9, b) for t, b in zip(photo.tiles[1:], boxes[1:], strict=True)
        ],
        unreadable=[reader.Unreadable(boxes[0], [])],
    )
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: refused)
    monkeypatch.setattr(nets, "reading", lambda *a, **k: nets_read)
    assert combined.read_hand(photo.image, 9) is refused
    # The classical reader read that tile: the nets' doubt lies in it, the hand is whole.
    first = reader.PhotoReading(
        reads=[reader.TileRead(photo.tiles[0], 0.9, boxes[0])],
        unreadable=[reader.Unreadable(boxes[1], [])],
    )
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: first)
    assert sorted(combined.read_hand(photo.image, 9).tiles) == sorted(photo.tiles)


@pytest.mark.parametrize("case", ["printed picture", "pips"])
def test_a_doubt_the_nets_do_not_settle_stays_a_refusal(monkeypatch, case):
    """The nets read every tile of the photo, but the classical reader's doubt is one a
    nets read cannot settle: a tile much smaller than the others (a printed picture); a
    half that showed more pips than the set has. (An outline far bigger than the tiles
    read over it: test_tiles_run_together_outlined_as_one_are_the_tiles_the_nets_read.)"""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    last = photo.tiles[-1]
    reads = [reader.TileRead(t, 0.9, b) for t, b in zip(photo.tiles[:-1], boxes, strict=False)]
    doubt = {
        "printed picture": reader.Unreadable(boxes[-1], [last], combined.SMALL),
        "pips": reader.Unreadable(boxes[-1], [], "13 pips, more than the set has", 13),
    }[case]
    first = reader.PhotoReading(reads, [doubt], 640, 480)
    assert sorted(nets.reading(photo.image, 9, 0.6).tiles) == sorted(photo.tiles)
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: first)
    assert combined.read_hand(photo.image, 9) is first


def test_an_outline_the_nets_see_no_face_in_is_no_tile_unless_they_found_something_there(
    monkeypatch,
):
    """A glare spot or a pattern the classical reader outlined but could not read: where the
    tiles net sees no face in it and found nothing over it, the nets' reading of the hand
    stands. A doubt of the nets' over it, a half with more pips than the set has or a tile
    much smaller than the others is never settled so."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    junk = reader.Unreadable(_box(2, 2, 30, 60), [], "a tile whose divider was not found")
    nets_read = reader.PhotoReading(
        reads=[reader.TileRead(t, 0.9, b) for t, b in zip(photo.tiles, boxes, strict=True)]
    )
    no_face = lambda box: True  # noqa: E731
    assert merge.merged(reader.PhotoReading(unreadable=[junk]), nets_read, no_face)
    assert merge.merged(reader.PhotoReading(unreadable=[junk]), nets_read) is None
    marks = reader.Unreadable(junk.box, [], combined.missed.UNCOVERED)
    assert merge.merged(reader.PhotoReading(unreadable=[marks]), nets_read, no_face)
    # Over a tile the nets read, an outline too big for it to fill stays a doubt.
    centre = np.mean(photo.boxes[0], axis=0)
    big = reader.Unreadable(_box(*(round(v) - 150 for v in centre), 300, 300), [])
    assert geometry.overlap(big.box, boxes[0])
    assert merge.merged(reader.PhotoReading(unreadable=[big]), nets_read, no_face) is None
    for other in (
        reader.Unreadable(junk.box, [], "13 pips, more than the set has", 13),
        reader.Unreadable(junk.box, [Tile(1, 1)], combined.SMALL),
        reader.Unreadable(junk.box, [Tile(0, 0)], combined.missed.ONE_MORE),
        reader.Unreadable([(5, 5)] * 4, []),
    ):
        first = reader.PhotoReading(unreadable=[other])
        assert merge.merged(first, nets_read, no_face) is None


@pytest.mark.parametrize("reduction", [1, 2])
def test_a_tile_the_nets_see_but_did_not_read_stays_a_refusal(monkeypatch, reduction):
    """The classical reader read three tiles and outlined the fourth; the nets read the
    three only. The tiles net sees face in the fourth's outline (the photo decoded at half
    its size too: outlines in full-size pixels), so it is a doubt, never left out."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    image = photo.image if reduction == 1 else cv2.resize(photo.image, (320, 240))
    share = nets.face_share(nets.seen(image), np.array(boxes[3]) / reduction)
    assert share > merge.NO_FACE
    three = [reader.TileRead(t, 0.9, b) for t, b in zip(photo.tiles[:3], boxes, strict=False)]
    # The outline as the classical reader drew it, and a loose one (a quarter bigger).
    centre = np.mean(photo.boxes[3], axis=0)
    loose = [(round(x), round(y)) for x, y in centre + (photo.boxes[3] - centre) * 1.25]
    for outline in (boxes[3], loose):
        first = reader.PhotoReading(three, [reader.Unreadable(outline, [])], 640, 480)
        monkeypatch.setattr(reader, "read_hand", lambda *a, first=first, **k: first)
        monkeypatch.setattr(combined, "_halves_read", lambda image, first, *a: first)
        monkeypatch.setattr(nets, "reading", lambda *a, **k: reader.PhotoReading(three))
        assert combined.read_hand(image, 9, reduction=reduction) is first
    # An outline on bare table, bottom right, is no tile: found there in the photo
    # decoded at half its size too.
    bare = _box(560, 400, 30, 60)
    first = reader.PhotoReading(three, [reader.Unreadable(bare, [])], 640, 480)
    assert all(not geometry.inside(np.mean(b, axis=0), bare) for b in photo.boxes)
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: first)
    reading = combined.read_hand(image, 9, reduction=reduction)
    assert reading.ok and sorted(reading.tiles) == sorted(photo.tiles[:3])


def test_a_tiles_net_blind_to_the_photo_settles_nothing(monkeypatch):
    """Where the tiles net sees no face over the tiles the classical reader read, its "no
    face" anywhere else is no evidence: the outline it did not see stays a doubt."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    three = [reader.TileRead(t, 0.9, b) for t, b in zip(photo.tiles[:3], boxes, strict=False)]
    first = reader.PhotoReading(three, [reader.Unreadable(boxes[3], [])], 640, 480)
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: first)
    monkeypatch.setattr(combined, "_halves_read", lambda image, first, *a: first)
    monkeypatch.setattr(nets, "reading", lambda *a, **k: reader.PhotoReading(three))
    real_seen = nets.seen
    blind = lambda image, smaller=None: nets.Seen(  # noqa: E731
        np.stack([np.ones((240, 320)), np.zeros((240, 320)), np.zeros((240, 320))]),
        real_seen(image).to_image,
    )
    monkeypatch.setattr(nets, "seen", blind)
    assert combined.read_hand(photo.image, 9) is first
    # Seeing the three, and no face where the fourth was outlined, it is no tile.
    view = real_seen(photo.image)
    probs = view.probs.copy()
    inside = np.zeros(probs.shape[1:], np.uint8)
    cv2.fillConvexPoly(inside, np.round(np.array(boxes[3]) / view.to_image).astype(np.int32), 1)
    probs[0][inside > 0], probs[1][inside > 0], probs[2][inside > 0] = 1, 0, 0
    monkeypatch.setattr(nets, "seen", lambda image, smaller=None: nets.Seen(probs, view.to_image))
    assert sorted(combined.read_hand(photo.image, 9).tiles) == sorted(photo.tiles[:3])


def test_a_confident_classical_reading_the_nets_contradict_is_a_refusal(monkeypatch):
    """The classical reader read the hand with confidence, but one tile wrong, or one tile
    left out entirely: the nets, which read the same photo, read another tile there, or a
    tile where it read none. Either is a doubt (with both readings as candidates), never
    a wrong total; the other tiles stay read."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    assert sorted(nets.reading(photo.image, 9, 0.6).tiles) == sorted(photo.tiles)
    wrong = next(t for t in (Tile(7, 0), Tile(8, 1)) if t not in photo.tiles)
    misread = [reader.TileRead(wrong, 0.9, boxes[0])] + [
        reader.TileRead(t, 0.9, b) for t, b in zip(photo.tiles[1:], boxes[1:], strict=True)
    ]
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: reader.PhotoReading(misread))
    reading = combined.read_hand(photo.image, 9)
    assert not reading.ok
    assert sorted(reading.tiles) == sorted(photo.tiles[1:])
    [doubt] = reading.unreadable
    assert doubt.box == boxes[0]
    assert doubt.candidates == [wrong, photo.tiles[0]]
    assert doubt.reason == f"the networks read {photo.tiles[0]} here"
    # One tile left out: a doubt where the nets read it.
    three = misread[1:]
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: reader.PhotoReading(three))
    reading = combined.read_hand(photo.image, 9)
    assert not reading.ok and sorted(reading.tiles) == sorted(photo.tiles[1:])
    [doubt] = reading.unreadable
    assert doubt.candidates == [photo.tiles[0]]
    assert geometry.overlap(doubt.box, boxes[0])
    # All four read: the classical reading stands as it is; also for the photo decoded at
    # half its size (outlines in the photo's own pixels, the nets' too).
    right = reader.PhotoReading(
        [reader.TileRead(t, 0.9, b) for t, b in zip(photo.tiles, boxes, strict=True)]
    )
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: right)
    assert combined.read_hand(photo.image, 9) is right
    half = cv2.resize(photo.image, (320, 240), interpolation=cv2.INTER_AREA)
    assert combined.read_hand(half, 9, reduction=2) is right


def test_the_nets_doubts_do_not_unsettle_a_confident_reading():
    """The nets' doubts with no tile in mind (tiles run together, a tile on edge, a
    face-down tile) are no evidence against the classical reading; a tile they found but
    could not read with confidence, off the tiles read, is a tile no reading accounts
    for; over a tile read, it is no evidence either."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    first = reader.PhotoReading(
        [reader.TileRead(t, 0.9, b) for t, b in zip(photo.tiles, boxes, strict=True)]
    )
    elsewhere = _box(560, 400, 30, 60)
    doubt = reader.Unreadable(elsewhere, [], nets.NOT_ONE_TILE)
    same = reader.PhotoReading(first.reads[:2], [doubt])
    assert combined._checked(first, same) is first
    other = reader.PhotoReading([reader.TileRead(Tile(9, 9), 0.9, elsewhere)])
    assert not combined._checked(first, other).ok
    unsure = reader.Unreadable(elsewhere, [Tile(9, 9), Tile(9, 8)], "reads differently")
    checked = combined._checked(first, reader.PhotoReading(first.reads, [unsure]))
    assert not checked.ok and checked.unreadable == [unsure]
    over = reader.Unreadable(boxes[0], [Tile(9, 9)], "9-9 read twice")
    assert combined._checked(first, reader.PhotoReading([], [over])) is first
    printed = reader.Unreadable(elsewhere, [Tile(9, 9)], combined.SMALL)
    assert combined._checked(first, reader.PhotoReading([], [printed])) is first


def test_a_tile_the_nets_made_of_two_tiles_halves_does_not_unsettle_a_reading():
    """Two tiles end to end, read by the classical reader. A nets 'tile' across the seam
    (half of each: the nets took the seam for a divider) is made of tiles read, and is
    no evidence; a nets read lying on one of them as another tile, or off both, is."""
    a, b = _box(0, 0, 40, 80), _box(0, 80, 40, 80)
    first = reader.PhotoReading(
        [reader.TileRead(Tile(6, 2), 0.9, a), reader.TileRead(Tile(5, 0), 0.9, b)]
    )

    def nets_read(tile, box):
        return reader.PhotoReading([reader.TileRead(tile, 0.95, box)])

    assert combined._checked(first, nets_read(Tile(2, 0), _box(0, 40, 40, 80))) is first
    assert combined._checked(first, nets_read(Tile(6, 2), _box(0, 2, 40, 80))) is first
    misread = combined._checked(first, nets_read(Tile(6, 3), _box(0, 2, 40, 80)))
    assert misread.tiles == (Tile(5, 0),)
    assert [u.candidates for u in misread.unreadable] == [[Tile(6, 2), Tile(6, 3)]]
    # The classical reader outlined half a tile and read it as another: still one tile.
    half = reader.PhotoReading([reader.TileRead(Tile(4, 0), 0.9, _box(0, 0, 40, 40))])
    assert not combined._checked(half, nets_read(Tile(6, 4), _box(0, 0, 40, 80))).ok
    # Shifted by 0.4 of a tile, the same tile: neither one tile nor mostly off the reading.
    assert combined._checked(first, nets_read(Tile(6, 2), _box(0, 32, 40, 80))) is first
    # Classical outlines lying over each other count once: this read is mostly off them.
    twice = reader.PhotoReading([first.reads[0], reader.TileRead(Tile(1, 1), 0.9, a)])
    assert not combined._checked(twice, nets_read(Tile(3, 3), _box(0, 50, 40, 80))).ok
    missed = combined._checked(first, nets_read(Tile(4, 4), _box(30, 100, 40, 80)))
    assert missed.tiles == first.tiles and [u.candidates for u in missed.unreadable] == [
        [Tile(4, 4)]
    ]


def test_a_printed_domino_the_nets_read_beside_a_confident_reading_is_no_doubt(monkeypatch):
    """The nets' reading is held to one set as the classical reader's is: a 'tile' much
    smaller than the others (a printed picture), read only by the nets off the hand, is
    their doubt, and their doubts do not unsettle a confident reading."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    right = reader.PhotoReading(
        [reader.TileRead(t, 0.9, b) for t, b in zip(photo.tiles, boxes, strict=True)]
    )
    printed = reader.TileRead(Tile(9, 9), 0.95, _box(600, 440, 10, 20))
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: right)
    monkeypatch.setattr(
        nets, "reading", lambda *a, **k: reader.PhotoReading([*right.reads, printed])
    )
    assert combined.read_hand(photo.image, 9) is right


def test_a_tile_read_across_the_seam_of_two_the_nets_read_is_a_refusal():
    """The classical reader can outline the halves of two touching tiles, the seam taken
    for a divider, and the halves net read it: where the nets read the two tiles on either
    side, the outlines' centres miss each other, but the nets' tiles cover it. The merge
    does not add them to it (a tile counted three times): a refusal."""
    # Two tiles side by side along their length, a small gap between; the "tile" read
    # spans the far half of one and the near half of the other.
    left, right = _box(0, 0, 40, 80), _box(0, 84, 40, 80)
    seam = _box(0, 42, 40, 80)
    assert not any(geometry.overlap(seam, b) for b in (left, right))
    first = reader.PhotoReading(
        [reader.TileRead(Tile(6, 2), 0.9, seam)], [reader.Unreadable(_box(200, 0, 40, 80), [])]
    )
    both = reader.PhotoReading(
        [reader.TileRead(Tile(2, 2), 0.95, left), reader.TileRead(Tile(6, 4), 0.95, right)]
    )
    assert merge.merged(first, both, lambda box: True) is None
    # Nets tiles elsewhere, or over less than half of it, leave it be.
    apart = reader.PhotoReading([reader.TileRead(Tile(2, 2), 0.95, _box(100, 0, 40, 80))])
    merged = merge.merged(first, apart, lambda box: True)
    assert merged is not None and Tile(6, 2) in merged.tiles


def test_tiles_run_together_outlined_as_one_are_the_tiles_the_nets_read(monkeypatch):
    """The classical reader outlined three tiles run together as one region it could not
    read; the nets read the hand. The region is accounted for when the nets read two tiles
    or more in it and all the face the tiles net sees in it is theirs: a tile in it they
    did not read is a refusal, as is a region of one tile's size."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    points = np.concatenate(photo.boxes[:3]).astype(np.float32)
    region = [
        (round(float(x)), round(float(y))) for x, y in cv2.boxPoints(cv2.minAreaRect(points))
    ]
    assert not geometry.inside(np.mean(photo.boxes[3], axis=0), region)
    reads = [reader.TileRead(t, 0.9, b) for t, b in zip(photo.tiles, boxes, strict=True)]
    first = reader.PhotoReading([], [reader.Unreadable(region, [])], 640, 480)
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: first)
    monkeypatch.setattr(combined, "_halves_read", lambda image, first, *a: first)
    for nets_read, right in (
        (reads, True),
        ([reads[0], reads[1], reads[3]], False),  # the third tile in it, unread
    ):
        monkeypatch.setattr(nets, "reading", lambda *a, r=nets_read, **k: reader.PhotoReading(r))
        reading = combined.read_hand(photo.image, 9)
        assert (reading.ok and sorted(reading.tiles) == sorted(photo.tiles)) is right
        assert right or reading is first
    view = nets.seen(photo.image)
    second = reader.PhotoReading(reads)
    assert merge.run_together(reader.Unreadable(region, []), second, view, 1)
    # An outline of the whole frame (the face mask ran into the table) likewise: read when
    # all the face in it is the nets' tiles, a refusal when one of them is missing.
    frame = reader.Unreadable(_box(0, 0, 639, 479), [], "not a tile face")
    assert merge.run_together(frame, second, view, 1)
    assert not merge.run_together(frame, reader.PhotoReading(reads[1:]), view, 1)
    # "Face enough for one more tile" over the table (the light table's face mask ran into
    # it) likewise; over a tile's area in a corner it is a double blank missed, a doubt.
    more = combined.missed.ONE_MORE
    table = reader.Unreadable(frame.box, [], more)
    assert merge.run_together(table, second, view, 1, (640, 480))
    assert not merge.run_together(table, second, view, 1)  # the photo's size unknown
    width = round(float(np.linalg.norm(photo.boxes[0][1] - photo.boxes[0][0])))
    corner = reader.Unreadable(_box(639 - width, 479 - 2 * width, width, 2 * width), [], more)
    assert merge._edges_met(corner.box, (640, 480)) == 2
    assert not merge.run_together(corner, second, view, 1, (640, 480))
    assert merge._edges_met(_box(100, 100, 50, 50), (640, 480)) == 0
    # Nor is it settled over the three tiles' region, which meets no edge of the photo.
    assert merge._edges_met(region, (640, 480)) < 2
    assert not merge.run_together(reader.Unreadable(region, [], more), second, view, 1, (640, 480))
    # A region of one tile's size is a tile, read or not.
    centre = np.mean(photo.boxes[0], axis=0)
    loose = [(round(x), round(y)) for x, y in centre + (photo.boxes[0] - centre) * 1.3]
    assert not merge.run_together(reader.Unreadable(loose, []), second, view, 1)
    # Nor is a strip from one tile's centre to the next's, far less than two tiles.
    ends = np.array([np.mean(photo.boxes[i], axis=0) for i in (0, 1)], np.float32)
    (cx, cy), (w, h), angle = cv2.minAreaRect(ends)
    strip = cv2.boxPoints(((cx, cy), (w + 8, 8) if w >= h else (8, h + 8), angle))
    strip_box = [(round(float(x)), round(float(y))) for x, y in strip]
    assert all(geometry.inside(end, strip_box) for end in ends)
    assert not merge.run_together(reader.Unreadable(strip_box, []), second, view, 1)
    # A tile of the nets' with a half that is no half, lying in the region, is a piece of
    # two tiles; any other doubt of theirs there is not.
    piece = reader.Unreadable(_box(round(centre[0]) - 20, round(centre[1]) - 30, 40, 60), [])
    for reason, right in (
        (nets.NOT_A_HALF_TILE, True),
        ("a tile whose divider was not found", False),
    ):
        doubt = reader.Unreadable(piece.box, [], reason)
        monkeypatch.setattr(
            nets, "reading", lambda *a, d=doubt, **k: reader.PhotoReading(reads, [d])
        )
        assert combined.read_hand(photo.image, 9).ok is right
    # A tiles net blind to the photo's tiles settles no region.
    monkeypatch.setattr(nets, "reading", lambda *a, **k: reader.PhotoReading(reads))
    blind = nets.Seen(
        np.stack([np.ones((240, 320)), np.zeros((240, 320)), np.zeros((240, 320))]), view.to_image
    )
    monkeypatch.setattr(nets, "seen", lambda image, smaller=None: blind)
    assert combined.read_hand(photo.image, 9) is first


def _never(box: list[tuple[int, int]]) -> bool:
    return False


def test_the_nets_whole_reading_stands_where_the_classical_reader_saw_only_parts():
    """Where the two readings make no one hand, the nets' own reading stands when it is
    whole (every tile read, no doubt of theirs) and the classical reading contradicts none
    of it: the tiles it read are the nets' tiles, or parts of them (a half outlined on its
    own and read as a tile, a piece across the seam of two), and what it could not read
    lies on the nets' tiles. A tile it read as another over a whole tile, or outside the
    nets' tiles, is a refusal."""
    left, right = _box(0, 0, 40, 80), _box(0, 84, 40, 80)
    nets_read = reader.PhotoReading(
        [reader.TileRead(Tile(2, 2), 0.95, left), reader.TileRead(Tile(6, 4), 0.95, right)]
    )
    half = _box(0, 0, 40, 38)  # the top half of the left tile, read as a tile
    seam = _box(0, 42, 40, 80)  # the halves of both either side of the seam
    divider = reader.Unreadable(right, [], "a tile whose divider was not found")
    first = reader.PhotoReading(
        [reader.TileRead(Tile(1, 1), 0.9, half), reader.TileRead(Tile(6, 2), 0.9, seam)],
        [divider],
    )
    assert merge.merged(first, nets_read) is None
    assert merge.nets_stand(first, nets_read, _never, lambda u: False)
    # A whole tile read as another: the readers disagree.
    whole = reader.PhotoReading([reader.TileRead(Tile(1, 1), 0.9, left)], [divider])
    assert not merge.nets_stand(whole, nets_read, _never, lambda u: False)
    # A tile read where the nets read none: one more tile than theirs.
    apart = reader.PhotoReading([reader.TileRead(Tile(1, 0), 0.9, _box(200, 0, 40, 80))])
    assert not merge.nets_stand(apart, nets_read, _never, lambda u: False)
    # A tile of the nets' shorter than the others (a printed picture as wide as a tile).
    short = reader.PhotoReading(
        [*nets_read.reads, reader.TileRead(Tile(6, 1), 0.95, _box(200, 0, 40, 60))]
    )
    assert not merge.nets_stand(first, short, _never, lambda u: False)
    narrow = reader.PhotoReading(
        [*nets_read.reads, reader.TileRead(Tile(6, 1), 0.95, _box(200, 0, 28, 80))]
    )
    assert not merge.nets_stand(first, narrow, _never, lambda u: False)
    # A doubt of the nets' own: their reading is not whole.
    doubtful = reader.PhotoReading(nets_read.reads, [reader.Unreadable(_box(200, 0, 40, 80), [])])
    assert not merge.nets_stand(first, doubtful, _never, lambda u: False)
    # What it could not read lies on the nets' tiles, or is no tile by them; not elsewhere.
    off = reader.PhotoReading([], [reader.Unreadable(_box(200, 0, 40, 80), [])])
    assert not merge.nets_stand(off, nets_read, _never, lambda u: False)
    assert merge.nets_stand(off, nets_read, lambda box: True, lambda u: False)


@pytest.mark.parametrize(
    ("reason", "pips", "box", "stands"),
    [
        (combined.SMALL, 0, _box(0, 0, 20, 30), True),  # a part of the nets' tile
        (combined.SMALL, 0, _box(0, 0, 40, 80), False),  # a whole tile, small in the hand
        ("13 pips, more than the set has", 13, _box(0, 0, 40, 80), False),
        (combined.missed.ONE_MORE, 0, _box(0, 0, 40, 164), False),  # a double blank too?
    ],
)
def test_doubts_the_nets_whole_reading_settles_only_as_parts_of_its_tiles(
    reason, pips, box, stands
):
    """A tile much smaller than the others is settled by the nets' whole reading only as a
    part of one of their tiles; a half with more pips than the set has never is; face
    enough for one more tile only where it is tiles run together."""
    nets_read = reader.PhotoReading(
        [
            reader.TileRead(Tile(2, 2), 0.95, _box(0, 0, 40, 80)),
            reader.TileRead(Tile(6, 4), 0.95, _box(0, 84, 40, 80)),
        ]
    )
    first = reader.PhotoReading([], [reader.Unreadable(box, [], reason, pips)])
    assert merge.nets_stand(first, nets_read, _never, lambda u: False) is stands
    if reason == combined.missed.ONE_MORE:
        assert merge.nets_stand(first, nets_read, _never, lambda u: True)


def test_a_doubt_of_the_nets_on_tiles_read_but_in_none_still_counts():
    """A doubt of the nets' whose centre lies in no tile read is something more, even a
    speck lying almost wholly on tiles read (over the seam between two): in an independent
    review's photos such a doubt was all that stopped a worn 9 both nets read as an 8,
    and a printed domino both readers read. Reading past it was measured and taken out."""
    a, b = _box(0, 0, 50, 100), _box(51, 0, 49, 100)
    first = reader.PhotoReading(
        [reader.TileRead(Tile(3, 1), 0.9, a), reader.TileRead(Tile(5, 2), 0.9, b)]
    )
    for doubt in (_box(30, 2, 41, 40), _box(40, 40, 21, 21), _box(47, 47, 7, 7)):
        centre = np.mean(doubt, axis=0)
        assert not any(geometry.inside(centre, t) for t in (a, b))
        assert geometry.covered(doubt, [a, b]) > 0.9
        nets_read = reader.PhotoReading(
            [reader.TileRead(Tile(3, 1), 0.95, a)], [reader.Unreadable(doubt, [])]
        )
        assert not merge.nothing_more(first, nets_read)
        assert merge.merged(first, nets_read) is None
    # One over a tile read (its centre in it) is of that tile.
    inside = reader.PhotoReading(
        [reader.TileRead(Tile(3, 1), 0.95, a)], [reader.Unreadable(_box(10, 40, 20, 20), [])]
    )
    assert merge.nothing_more(first, inside)
    assert merge.merged(first, inside) is not None


def test_a_doubt_of_the_nets_much_bigger_than_the_tile_read_it_lies_on_still_counts():
    """A doubt of the nets' whose centre lies in a tile read but which that tile covers
    for less than half is face no tile read accounts for: in a blurred row of six
    touching tiles the classical reader outlined the halves of two (a 9-7 and a 7-3,
    either side of their seam) as one tile, the halves net read it as 7-7, and the tiles
    net saw the whole row as one region of face: 14 points printed for 52."""
    a = _box(100, 0, 100, 50)  # the two halves, read as one tile
    first = reader.PhotoReading([reader.TileRead(Tile(7, 7), 0.9, a)])
    row = _box(0, 0, 600, 100)  # six tiles run together, its centre in a
    assert geometry.inside(np.mean(row, axis=0), a) or geometry.inside(np.mean(a, axis=0), row)
    assert geometry.covered(row, [a]) < 0.5
    nets_row = reader.PhotoReading([], [reader.Unreadable(row, [], nets.NOT_ONE_TILE)])
    assert not merge.nothing_more(first, nets_row)
    assert merge.merged(first, nets_row) is None
    # A doubt of about a tile's size over it, however askew (an independent review's
    # case: 1.2 times the tile each way, turned 60 degrees about its centre, covered
    # 0.48), is of that tile; so is one twice its size that the tile covers for half.
    turn = np.radians(60)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    corners = np.array([(-60, -30), (60, -30), (60, 30), (-60, 30)]) @ rotation.T + (150, 25)
    askew = [(round(x), round(y)) for x, y in corners]
    assert 1.3 < geometry.area(askew) / geometry.area(a) < 2
    assert geometry.covered(askew, [a]) < 0.5
    for doubt in (askew, _box(100, 0, 100, 100)):
        nets_doubt = reader.PhotoReading([], [reader.Unreadable(doubt, [], nets.NO_DIVIDER)])
        assert merge.nothing_more(first, nets_doubt)
        assert merge.merged(first, nets_doubt) is not None
    # The photo itself (a synthetic hand, its tiles 100 pixels wide, blurred by a Gaussian
    # of sigma 8): refused, not read as 7-7.
    photo = render_hand(139, difficulty=0)
    blurred = cv2.GaussianBlur(photo.image, (0, 0), 8.0)
    reading = combined.read_hand(blurred, 9)
    assert not reading.ok and Tile(7, 7) not in reading.tiles


def test_a_hand_the_nets_read_whole_is_read_past_a_half_the_classical_reader_misread(
    monkeypatch,
):
    """The classical reader outlined part of a tile on its own and read it as another tile,
    and could not read a second tile; the nets read the whole hand: their reading stands."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    boxes = [[(round(x), round(y)) for x, y in b] for b in photo.boxes]
    c = nets.short_side_first(np.asarray(photo.boxes[0], np.float64))
    assert c is not None
    # Short of the divider: the nets' outline leaves the rim out, so a half outlined to the
    # divider is 0.6 of theirs.
    end = [c[1] + 0.4 * (c[2] - c[1]), c[0] + 0.4 * (c[3] - c[0])]
    half = [tuple(map(round, p)) for p in (c[0], c[1], *end)]
    other = next(
        Tile(a, b) for a in range(10) for b in range(a + 1) if Tile(a, b) not in photo.tiles
    )
    first = reader.PhotoReading(
        [reader.TileRead(other, 0.9, half)], [reader.Unreadable(boxes[1], [])], 640, 480
    )
    monkeypatch.setattr(reader, "read_hand", lambda *a, **k: first)
    reading = combined.read_hand(photo.image, 9)
    assert reading.ok and sorted(reading.tiles) == sorted(photo.tiles)
    # Read over the whole tile, the other tile is a disagreement: a refusal.
    first = reader.PhotoReading(
        [reader.TileRead(other, 0.9, boxes[0])], [reader.Unreadable(boxes[1], [])], 640, 480
    )
    assert combined.read_hand(photo.image, 9) is first


def _face(image, box, body, pips, pip_radius):
    """Paint a tile face ``body`` (BGR) on ``image`` in the axis-aligned ``box``, with four
    pips of ``pip_radius`` in each half."""
    (x0, y0), (x1, y1) = box[0], box[2]
    image[y0:y1, x0:x1] = body
    width, length = x1 - x0, y1 - y0
    for half in (0, 1):
        for fx, fy in ((0.3, 0.25), (0.7, 0.25), (0.3, 0.75), (0.7, 0.75)):
            centre = (x0 + round(fx * width), y0 + round((half + fy) * length / 2))
            cv2.circle(image, centre, pip_radius, pips, cv2.FILLED)


def test_a_tile_not_the_colour_of_the_others_is_not_counted():
    """A hand is one set: a white 'tile' among red ones (a printed picture of a domino as
    big as a tile) is a doubt, never counted; big dark pips filling a face's middle, or a
    loose outline over the table, are no other colour (the face is measured two ways)."""
    image = np.full((200, 500, 3), (60, 110, 60), np.uint8)  # a green cloth
    boxes = [_box(20 + 100 * i, 20, 60, 120) for i in range(4)]
    tiles = [Tile(4, 4), Tile(6, 1), Tile(5, 0), Tile(3, 2)]
    for box in boxes[:3]:
        _face(image, box, (40, 40, 200), (250, 250, 250), 6)  # red, white pips
    _face(image, boxes[3], (240, 240, 240), (20, 20, 20), 6)  # white paper, black pips
    reads = [reader.TileRead(t, 0.9, b) for t, b in zip(tiles, boxes, strict=True)]
    out = combined.alike_in_colour(image, reader.PhotoReading(reads, [], 500, 200))
    assert out.tiles == tuple(tiles[:3]) and not out.ok
    assert out.unreadable[0].candidates == [Tile(3, 2)]
    assert "not the colour of the other tiles" in out.unreadable[0].reason
    # The same at half the size read (the boxes are in the photo's pixels).
    small = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    halved = combined.alike_in_colour(small, reader.PhotoReading(reads, [], 500, 200), 2)
    assert halved.tiles == tuple(tiles[:3])
    # A red tile with big white pips over most of its middle is still red.
    _face(image, boxes[3], (40, 40, 200), (250, 250, 250), 13)
    same = reader.PhotoReading(reads, [], 500, 200)
    assert combined.alike_in_colour(image, same) is same
    # An outline loose over the table: its band is cloth, its middle red.
    loose = [
        *reads[:3],
        reader.TileRead(Tile(3, 2), 0.9, [(310, 5), (390, 5), (390, 155), (310, 155)]),
    ]
    _face(image, boxes[3], (40, 40, 200), (250, 250, 250), 6)
    assert combined.alike_in_colour(image, reader.PhotoReading(loose, [], 500, 200)).ok
    # One tile alone has nothing to be compared with.
    alone = reader.PhotoReading(reads[3:], [], 500, 200)
    assert combined.alike_in_colour(image, alone) is alone


def test_shadow_and_a_lamp_over_part_of_a_hand_are_no_other_colour():
    """An independent review's false doubts: white tiles, half the hand in a deep shadow
    (a third of the light) or under a warm lamp (blue at half, as a daylight white balance
    shows a tungsten lamp), are still one set's tiles."""
    image = np.full((200, 500, 3), (60, 110, 60), np.uint8)
    boxes = [_box(20 + 100 * i, 20, 60, 120) for i in range(4)]
    tiles = [Tile(4, 4), Tile(6, 1), Tile(5, 0), Tile(3, 2)]
    for box in boxes:
        _face(image, box, (235, 238, 240), (20, 20, 20), 6)
    reads = [reader.TileRead(t, 0.9, b) for t, b in zip(tiles, boxes, strict=True)]
    for light in ((0.35, 0.35, 0.35), (0.5, 0.8, 1.0)):
        lit = image.astype(np.float32)
        lit[:, 250:] *= light
        photo = lit.astype(np.uint8)
        same = reader.PhotoReading(reads, [], 500, 200)
        assert combined.alike_in_colour(photo, same) is same


def test_a_speck_stops_no_reading_both_readers_agree_on_but_any_other_merge():
    """A speck of face apart from the tiles (nets.SPECK_SEEN: a glint, a crumb) does not
    stop a reading the halves net completed and the whole-photo nets read the same; it
    still stops the two readings' merge and the nets' reading standing alone (where the
    classical reader read less, the speck may be all the nets saw of a tile)."""
    a, b = _box(0, 0, 50, 100), _box(51, 0, 49, 100)
    first = reader.PhotoReading(
        [reader.TileRead(Tile(3, 1), 0.9, a), reader.TileRead(Tile(5, 2), 0.9, b)]
    )
    far = _box(300, 300, 6, 6)
    for reason, counts in ((nets.SPECK_SEEN, False), (nets.NOT_ONE_TILE, True)):
        nets_read = reader.PhotoReading(
            [reader.TileRead(Tile(3, 1), 0.95, a)], [reader.Unreadable(far, [], reason)]
        )
        assert merge.nothing_more(first, nets_read) is not counts
        assert merge.merged(first, nets_read) is None
        assert not merge.nets_stand(first, nets_read, _never, lambda u: False)


def test_a_big_photos_smaller_copies_are_scaled_from_one_reduced_copy(monkeypatch):
    """The reader's working image (1,024 pixels) of a big photo is made once; the nets'
    512-pixel view, and the reader's copy for reading big tiles, are scaled from it, not
    from the photo, and see the same (a 12 MP photo is decoded at 2,000 pixels: each scaling of
    that costs 0.015-0.02 s)."""
    photo = render_family(4, "ivory", size=(2400, 1800), count=9, top=9)
    smaller = reader.reduced(photo.image)
    assert smaller is not None and smaller.shape[:2] == (768, 1024)
    assert reader.reduced(smaller) is None  # already the working size: nothing to reduce
    direct, shared = nets.seen(photo.image), nets.seen(photo.image, smaller)
    assert np.array_equal(direct.to_image, shared.to_image)
    agree = (direct.probs.argmax(axis=0) == shared.probs.argmax(axis=0)).mean()
    assert agree > 0.995
    # Where the tiles are big, the reader reads them from a copy scaled from it too.
    example = Path(__file__).parent.parent / "examples" / "photos" / "double-twelve-8-8-7-0.jpg"
    big = cv2.resize(cv2.imread(str(example)), None, fx=3.5, fy=3.5, interpolation=cv2.INTER_CUBIC)
    smaller = reader.reduced(big)
    sources: list[tuple[int, ...]] = []
    resize = cv2.resize

    def spy(src, *args, **kwargs):
        sources.append(src.shape)
        return resize(src, *args, **kwargs)

    alone = reader.read_hand(big, 12)
    monkeypatch.setattr(cv2, "resize", spy)
    with_copy = reader.read_hand(big, 12, smaller=smaller)
    monkeypatch.setattr(cv2, "resize", resize)
    assert smaller is not None and smaller.shape in sources and big.shape not in sources
    assert with_copy == alone and sorted(alone.tiles) == [Tile(7, 0), Tile(8, 8)]
    assert sorted(combined.read_hand(big, 12).tiles) == [Tile(7, 0), Tile(8, 8)]


@pytest.mark.parametrize("seed", [930076, 930105])
def test_a_stretch_of_table_read_as_a_blank_tile_is_a_refusal(seed):
    """Small or coloured tiles on a plain table: the classical reader outlined the table
    around them as one tile and read it 0-0 with confidence (nine tiles printed as 0, or
    as 50). The tiles net sees the hand's tiles, and no face in that outline: a doubt."""
    photo = render_family(seed, "mixed")
    assert photo.tiles and Tile(0, 0) not in photo.tiles
    classical = reader.read_hand(photo.image, photo.top)
    assert classical.ok and classical.tiles == (Tile(0, 0),)
    reading = combined.read_hand(photo.image, photo.top)
    assert not reading.ok
    assert [u.reason for u in reading.unreadable if Tile(0, 0) in u.candidates] == [merge.FACELESS]


def test_a_tiles_net_blind_to_one_tile_of_a_hand_drops_none(monkeypatch):
    """The classical reader read every tile; the tiles net sees no face on one of them
    (blind to it) and reads the others: a doubt, never a total one tile short."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    assert sorted(combined.read_hand(photo.image, 9).tiles) == sorted(photo.tiles)
    real_seen = nets.seen

    def blind(image, smaller=None):
        view = real_seen(image, smaller)
        probs = view.probs.copy()
        inside = np.zeros(probs.shape[1:], np.uint8)
        box = photo.boxes[0]
        grown = box.mean(axis=0) + (box - box.mean(axis=0)) * 1.15
        cv2.fillConvexPoly(inside, np.round(grown / view.to_image).astype(np.int32), 1)
        probs[0][inside > 0], probs[1][inside > 0], probs[2][inside > 0] = 1, 0, 0
        return nets.Seen(probs, view.to_image)

    monkeypatch.setattr(nets, "seen", blind)
    reading = combined.read_hand(photo.image, 9)
    assert not reading.ok
    assert [u.candidates for u in reading.unreadable if u.reason == merge.FACELESS] == [
        [photo.tiles[0]]
    ]


def test_a_reading_doubting_its_flagged_tiles_keeps_the_rest_in_order():
    a, b, c = (reader.TileRead(Tile(k, 0), 0.9, _box(100 * k, 0, 50, 100)) for k in (1, 2, 3))
    old = reader.Unreadable(_box(0, 200, 50, 100), [], "before")
    reading = reader.PhotoReading([a, b, c], [old], 400, 300)
    assert reading.doubting([False, False, False], "why") is reading
    out = reading.doubting([True, False, True], "why")
    assert out.reads == [b] and (out.width, out.height) == (400, 300)
    assert out.unreadable == [
        old,
        reader.Unreadable(a.box, [a.tile], "why"),
        reader.Unreadable(c.box, [c.tile], "why"),
    ]
    with pytest.raises(ValueError):
        reading.doubting([True], "why")  # one flag a tile read


def test_tiles_with_light_pips_on_a_dark_body_are_read_in_the_negative():
    """Black tiles with white pips on a dark cloth: neither reader reads a tile of the
    photo itself (the classical face is light and nearly grey); its negative, dark pips
    on light tiles, is read, both readers checking each other as for any photo."""
    photo = render_family(940_008, "colour_body")
    image = reader.to_bgr8(photo.image)
    assert not combined._one_set(image, photo.top, reader.DEFAULT_MIN_CONFIDENCE, 1).reads
    reading = combined.read_hand(photo.image, photo.top)
    assert reading.ok
    assert sorted(reading.tiles) == sorted(photo.tiles)
    # Boxes are in the photo's pixels: each tile read lies on its tile.
    for read in reading.reads:
        assert any(geometry.overlap(read.box, b.tolist()) for b in photo.boxes)


def test_the_negative_is_not_read_where_the_photo_read_a_tile():
    """Twelve green tiles read, and a white tile of another set in doubt: the negative
    would read the white tile as one of the hand (dark there, like the others), a wrong
    total; a photo that read some tile is never read in the negative, so it is refused."""
    photo = render_family(940_010, "mixed")
    image = reader.to_bgr8(photo.image)
    negative = combined._one_set(255 - image, photo.top, reader.DEFAULT_MIN_CONFIDENCE, 1)
    assert negative.ok and sorted(negative.tiles) != sorted(photo.tiles)
    reading = combined.read_hand(photo.image, photo.top)
    assert not reading.ok and len(reading.reads) == len(photo.tiles)


def test_a_negative_reading_stands_only_over_all_the_photo_showed():
    tile = reader.TileRead(Tile(5, 3), 0.9, _box(100, 100, 50, 100))
    whole = reader.PhotoReading([tile], [], 400, 300)
    nothing = reader.PhotoReading([], [], 400, 300)
    assert negative.stands(whole, nothing)  # the photo showed no tile at all
    around = reader.Unreadable(_box(80, 80, 120, 160), [], "a tile whose divider was not found")
    assert negative.stands(whole, reader.PhotoReading([], [around], 400, 300))
    # A tile found elsewhere that the negative did not read: the negative missed it.
    apart = reader.Unreadable(_box(300, 10, 50, 100), [], "a tile whose divider was not found")
    assert not negative.stands(whole, reader.PhotoReading([], [apart], 400, 300))
    # A negative with a doubt of its own, or none read, is no reading.
    doubt = reader.Unreadable(_box(300, 10, 50, 100), [Tile(2, 1)], "unsure")
    assert not negative.stands(reader.PhotoReading([tile], [doubt]), nothing)
    assert not negative.stands(nothing, nothing)
    # A photo that read a tile is never read in the negative.
    other = reader.TileRead(Tile(6, 6), 0.9, _box(300, 10, 50, 100))
    assert not negative.stands(whole, reader.PhotoReading([other], [], 400, 300))
    # Tiles touching, or 4 px apart (under a tenth of a tile's width side by side): a row
    # or a block runs together in the negative; 10 px apart they stand apart.
    for gap, stands in ((0, False), (4, False), (10, True)):
        beside = reader.TileRead(Tile(6, 6), 0.9, _box(150 + gap, 100, 50, 100))
        two = reader.PhotoReading([tile, beside], [], 400, 300)
        assert negative.stands(two, nothing) is stands


def test_a_light_grey_face_read_in_the_negative_does_not_stand():
    """Beside dark tiles, a white card or a printed picture of a domino is read as a tile
    in the negative (dark with light marks there), and black and white are both
    unsaturated, so the colour check does not tell them apart: a tile whose face is light
    and grey in the photo is one the photo's own reading sees, never the negative's."""
    photo = np.full((300, 400, 3), 30, np.uint8)
    photo[:, 200:] = 150  # light grey card on the right, a white bar across it
    photo[148:152, 280:320] = 250
    photo[148:152, 55:95] = 250  # the dark tile's divider, painted white
    dark = reader.TileRead(Tile(5, 3), 0.9, _box(50, 100, 50, 100))
    white = reader.TileRead(Tile(1, 1), 0.9, _box(275, 100, 50, 100))
    nothing = reader.PhotoReading([], [], 400, 300)
    assert negative.stands(reader.PhotoReading([dark], [], 400, 300), nothing, photo)
    both = reader.PhotoReading([dark, white], [], 400, 300)
    assert negative.stands(both, nothing)  # without the photo, nothing to tell
    assert oneset.light_bar(photo, white.box)  # only its light grey face tells it
    assert not negative.stands(both, nothing, photo)
    # Outlines are in the photo's pixels, the image at 1/reduction of them.
    half = cv2.resize(photo, (200, 150), interpolation=cv2.INTER_AREA)
    assert not negative.stands(both, nothing, half, 2)


def test_light_and_grey_is_white_or_ivory_both_ways():
    def face(body, pips=None):
        image = np.full((200, 200, 3), (40, 90, 40), np.uint8)  # green cloth
        image[50:150, 75:125] = body
        if pips is not None:
            for y in (65, 80, 95, 105, 120, 135):
                for x in (85, 100, 115):
                    cv2.circle(image, (x, y), 5, pips, -1)
        return image

    box = _box(75, 50, 50, 100)
    assert oneset.light_and_grey(face((235, 240, 245)), box)  # ivory
    assert oneset.light_and_grey(face((235, 240, 245), (20, 20, 20)), box)  # with pips
    assert not oneset.light_and_grey(face((30, 30, 30)), box)  # black
    assert not oneset.light_and_grey(face((30, 30, 30), (250, 250, 250)), box)  # its pips
    assert not oneset.light_and_grey(face((70, 140, 40)), box)  # green
    assert not oneset.light_and_grey(face((170, 140, 235)), box)  # pink
    assert not oneset.light_and_grey(face((160, 210, 235)), box)  # cream (0.32)
    # A white card outlined loosely, its band on the cloth: light and grey in its middle.
    assert oneset.light_and_grey(face((235, 240, 245)), _box(65, 35, 70, 130))
    # A black 6-6 whose white divider and pips fill most of its middle: its body is black.
    crowded = face((30, 30, 30))
    crowded[95:105, 75:125] = 250
    for y in (76, 88, 112, 124):
        for x in (90, 110):
            cv2.circle(crowded, (x, y), 6, (250, 250, 250), -1)
    middle = oneset._face_medians(crowded, box, 1)[0]
    assert middle is not None and middle[1] > oneset.LIGHT  # white over half of it
    assert not oneset.light_and_grey(crowded, box)


def test_a_tile_read_in_the_negative_has_a_light_divider_in_the_photo():
    """The back of a dark tile (its groove a shadow, its logo a dark dot) reads as a blank
    tile in the negative; a face of a dark set has its divider painted light, as its
    pips are."""
    photo = np.full((300, 400, 3), (40, 90, 40), np.uint8)  # green cloth
    photo[100:200, 50:100] = (70, 140, 40)  # a green tile, face up: a white bar
    photo[148:152, 55:95] = (245, 245, 245)
    photo[100:200, 250:300] = (70, 140, 40)  # a green tile face down: a groove, a dot
    photo[149:151, 252:298] = (40, 80, 25)
    cv2.circle(photo, (275, 125), 5, (20, 20, 20), -1)
    face, back = _box(50, 100, 50, 100), _box(250, 100, 50, 100)
    assert oneset.light_bar(photo, face)
    assert not oneset.light_bar(photo, back)
    assert not oneset.light_bar(photo, _box(50, 100, 100, 100))  # not a tile's shape
    # The negative outlines a black tile on a dark table by its face, without the rim of
    # its long sides: 3 times as long as wide, it is still measured; 4 times is no tile.
    assert oneset.light_bar(photo, _box(58, 100, 34, 100))
    assert not oneset.light_bar(photo, _box(258, 100, 34, 100))
    assert not oneset.light_bar(photo, _box(62, 100, 25, 100))
    half = cv2.resize(photo, (200, 150), interpolation=cv2.INTER_AREA)
    assert oneset.light_bar(half, face, 2) and not oneset.light_bar(half, back, 2)
    nothing = reader.PhotoReading([], [], 400, 300)
    up = reader.TileRead(Tile(5, 3), 0.9, face)
    down = reader.TileRead(Tile(1, 0), 0.9, back)
    assert negative.stands(reader.PhotoReading([up], [], 400, 300), nothing, photo)
    both = reader.PhotoReading([up, down], [], 400, 300)
    assert not negative.stands(both, nothing, photo)


def test_where_only_the_networks_see_tiles_the_refusal_names_them(monkeypatch):
    """The classical pipeline found nothing in the photo nor in its negative, and the
    nets' reading did not stand: a refusal, but of the tiles the nets read (each a doubt,
    its tile the candidate, with the nets' own doubts), never "no domino found". Where the
    nets read no tile with confidence, nothing was found."""
    photo = np.full((300, 400, 3), 200, np.uint8)
    nothing = reader.PhotoReading([], [], 400, 300)
    seen_tile = reader.TileRead(Tile(10, 2), 1.0, _box(50, 100, 50, 100))
    their_doubt = reader.Unreadable(
        _box(250, 100, 50, 100), [], "a tile whose divider was not found"
    )
    seen = reader.PhotoReading([seen_tile], [their_doubt], 400, 300)
    monkeypatch.setattr(combined, "_read", lambda *a: (nothing, seen))
    reading = combined.read_hand(photo, 12)
    assert reading.found and not reading.ok and not reading.reads
    first, second = reading.unreadable
    assert (first.box, first.candidates, first.reason) == (
        seen_tile.box,
        [Tile(10, 2)],
        negative.NETS_ALONE,
    )
    assert second == their_doubt
    # Their doubts alone, even naming a tile, are no sign of one (on a checkerboard they
    # name 0-0 read many times; on a printed sheet, more pips than the set has): nothing
    # found.
    read_twice = "0-0 read twice (a hand holds each tile once)"
    twice = reader.Unreadable(seen_tile.box, [Tile(0, 0)], read_twice)
    more = reader.Unreadable(seen_tile.box, [Tile(6, 2)], "more pips than a double-6 set has?")
    only_doubts = reader.PhotoReading([], [their_doubt, twice, more], 400, 300)
    monkeypatch.setattr(combined, "_read", lambda *a: (nothing, only_doubts))
    assert not combined.read_hand(photo, 6).found


def test_a_coloured_tile_only_the_networks_read_is_a_refusal_that_names_it(
    cli, tmp_path, monkeypatch
):
    """A pink double-twelve tile on a table with a glare spot (a scene the classical
    pipeline finds no tile in, in the photo or its negative; the nets read 10-2 but see a
    tile without a divider in the glare), where the photo keyed to its colour does not
    read it either (here: no colour tried; keyed, it is read, tests/test_photo_keyed.py):
    `cf score --photo` refuses with what the nets read, not with "no domino found"."""
    from cf.photo import keyed

    photo = render_family(940_005, "colour_body")
    assert [str(t) for t in photo.tiles] == ["10-2"]
    path = tmp_path / "pink.png"
    cv2.imwrite(str(path), photo.image)
    result = cli("score", "--photo", str(path), "--set", "double-twelve")
    assert result.exit_code == 0 and result.stdout.strip() == "12"
    monkeypatch.setattr(keyed, "body_colours", lambda image, most=3: [])
    result = cli("score", "--photo", str(path), "--set", "double-twelve")
    assert result.exit_code == 1 and result.stdout == ""
    assert "no domino found" not in result.stderr
    assert "only the networks read a tile here" in result.stderr
    assert "it might be: 10-2" in result.stderr


def test_a_refusal_the_networks_read_names_the_bigger_set(cli, tmp_path):
    """Coloured double-twelve tiles read as double-six: the classical pipeline finds no
    tile, the nets read some and doubt others for "more pips than a double-6 set has?".
    The count they saw is kept, so the refusal says which set to try, as the classical
    pipeline's own "more pips" doubt does."""
    photo = render_family(504, "colour_body", top=12)
    assert max(max(t) for t in photo.tiles) == 12
    path = tmp_path / "twelve.png"
    cv2.imwrite(str(path), photo.image)
    result = cli("score", "--photo", str(path), "--set", "double-six")
    assert result.exit_code == 1 and result.stdout == ""
    assert "only the networks read a tile here" in result.stderr
    assert "more than a double-six set has" in result.stderr
    assert "say so with --set double-twelve" in result.stderr


def test_the_negative_is_not_read_over_a_doubt_naming_tiles():
    """A tile read and then doubted (not the colour of the others: a printed picture
    beside a dark tile) is a tile the photo's own reading read: never read again in the
    negative, where the picture would be read as one of the hand."""
    tile = reader.TileRead(Tile(5, 3), 0.9, _box(100, 100, 50, 100))
    whole = reader.PhotoReading([tile], [], 400, 300)
    doubted = reader.Unreadable(_box(100, 100, 50, 100), [Tile(5, 3)], oneset.COLOUR)
    assert not negative.stands(whole, reader.PhotoReading([], [doubted], 400, 300))
    unsure = reader.Unreadable(_box(100, 100, 50, 100), [], "a tile whose divider was not found")
    assert negative.stands(whole, reader.PhotoReading([], [unsure], 400, 300))


def test_a_big_photo_read_in_the_negative_keeps_its_own_pixels(tmp_path):
    """A 12 MP JPEG is decoded at a fraction of its size; read in the negative, its tiles'
    outlines are still in the photo's own pixels, and the colour and bar checks measure
    the decoded image at that fraction."""
    photo = render_family(940_008, "colour_body")
    big = cv2.resize(photo.image, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "dark.jpg"
    cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    reading = combined.read_photo(str(path), photo.top)
    assert reading.ok and sorted(reading.tiles) == sorted(photo.tiles)
    assert (reading.width, reading.height) == (4000, 3000)
    scale = 4000 / photo.image.shape[1]
    for read in reading.reads:
        assert any(geometry.overlap(read.box, (b * scale).tolist()) for b in photo.boxes)


def test_the_negative_reading_compares_the_tiles_colours_in_the_photo(monkeypatch):
    """A green tile and a black one are of two sets (saturation 0.71 against 0 in the
    photo, over the 0.5 bound); in the negative they measure 0.47 against 0 and would pass
    as one set. Read in the negative, they are compared in the photo: a doubt."""
    photo = np.full((300, 400, 3), (120, 120, 120), np.uint8)  # a grey table
    photo[100:200, 50:100] = (70, 140, 40)  # green, a white bar
    photo[148:152, 55:95] = 245
    photo[100:200, 250:300] = (30, 30, 30)  # black, a white bar
    photo[148:152, 255:295] = 245
    green = reader.TileRead(Tile(5, 3), 0.9, _box(50, 100, 50, 100))
    black = reader.TileRead(Tile(6, 1), 0.9, _box(250, 100, 50, 100))

    def read(image, top, min_confidence, reduction):
        nothing = reader.PhotoReading([], [], 400, 300)  # the nets' reading: none
        if image[120, 60, 1] == 140:  # the photo itself: nothing read
            return nothing, nothing
        return reader.PhotoReading([green, black], [], 400, 300), nothing

    monkeypatch.setattr(combined, "_read", read)
    negative = combined._one_set(255 - photo, 6, 0.6, 1)
    assert negative.ok  # compared in the negative, one set
    in_photo = combined._one_set(255 - photo, 6, 0.6, 1, colours=photo)
    assert {u.reason for u in in_photo.unreadable} == {oneset.COLOUR}
    reading = combined.read_hand(photo, 6)
    assert not reading.ok and not reading.reads  # the photo's own refusal stands


def test_where_the_negative_read_dark_tiles_that_did_not_stand_the_refusal_names_them():
    """Each tile the negative read with confidence that is, in the photo, a dark face with
    a light bar is a doubt naming it, before the photo's own doubts but those on such a
    tile (the marks of a patterned table): the refusal shows the dark tiles seen and how
    to photograph them. A tile read in the negative with no light bar (a tile's back) is
    not named; a negative that read no such tile changes nothing."""
    photo = np.full((300, 400, 3), (40, 90, 40), np.uint8)  # green cloth
    photo[100:200, 50:100] = (70, 140, 40)  # a green tile, face up: a white bar
    photo[148:152, 55:95] = (245, 245, 245)
    photo[100:200, 250:300] = (70, 140, 40)  # a green tile face down: a groove
    photo[149:151, 252:298] = (40, 80, 25)
    table_mark = reader.Unreadable(_box(150, 20, 30, 60), [], "a tile whose divider was not found")
    on_tile = reader.Unreadable(_box(55, 110, 40, 80), [], "a tile whose divider was not found")
    refusal = reader.PhotoReading([], [table_mark, on_tile], 400, 300)
    face = reader.TileRead(Tile(6, 3), 0.9, _box(50, 100, 50, 100))
    back = reader.TileRead(Tile(0, 0), 0.9, _box(250, 100, 50, 100))
    its_doubt = reader.Unreadable(_box(150, 200, 50, 100), [Tile(5, 1)], "a faint blob")
    negative_reading = reader.PhotoReading([face, back], [its_doubt], 400, 300)
    shown = negative.seen_in_negative(negative_reading, refusal, photo)
    assert not shown.reads and not shown.ok and shown.found
    assert shown.unreadable == [
        reader.Unreadable(face.box, [Tile(6, 3)], negative.DARK_UNSURE),
        table_mark,
    ]
    backs = reader.PhotoReading([back], [its_doubt], 400, 300)
    assert negative.seen_in_negative(backs, refusal, photo) is refusal


def test_a_photo_in_which_nothing_was_found_says_so_whatever_its_negative_read(monkeypatch):
    """SPEC 9: "no domino found" for a photo in which none was found, though its negative
    read a tile (a chip on a circuit board, dark with a light line, reads as 0-0)."""
    photo = np.full((300, 400, 3), (40, 90, 40), np.uint8)
    photo[100:200, 50:100] = (70, 140, 40)
    photo[148:152, 55:95] = (245, 245, 245)
    nothing = reader.PhotoReading([], [], 400, 300)
    chip = reader.TileRead(Tile(0, 0), 0.9, _box(50, 100, 50, 100))
    its_negative = reader.PhotoReading(
        [chip], [reader.Unreadable(_box(200, 100, 50, 100), [], "x")]
    )
    monkeypatch.setattr(combined, "_read", lambda *a: (nothing, nothing))
    monkeypatch.setattr(combined, "_one_set", lambda *a, **k: its_negative)
    assert not combined.read_hand(photo, 6).found


def test_black_tiles_on_a_patterned_rug_are_refused_naming_them(cli, tmp_path):
    """Four black tiles on a striped rug (a `colour_body` scene): the photo's own reading
    outlines stretches of the rug, so the negative's reading, right, does not stand.
    The refusal names the four tiles and says to lay dark tiles on a plain, light surface,
    not only the rug's marks; in the table's language too."""
    photo = render_family(990_106, "colour_body")
    assert sorted(str(t) for t in photo.tiles) == ["3-0", "4-4", "5-4", "6-3"]
    path = tmp_path / "rug.png"
    cv2.imwrite(str(path), photo.image)
    result = cli("score", "--photo", str(path), "--set", "6", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["points"] is None
    named = [u["candidates"] for u in data["unreadable"]]
    assert sorted(c[0] for c in named if c) == ["3-0", "4-4", "5-4", "6-3"]
    assert negative.DARK_UNSURE in result.stderr
    result = cli("score", "--photo", str(path), "--set", "6", "--lang", "es")
    assert "sobre una superficie lisa y clara" in result.stderr


def test_marks_around_a_tile_outlined_too_small_are_its_pips_where_both_readers_read_it(
    monkeypatch,
):
    """Small tiles: the classical reader outlined a tile too small, and its pips left
    outside the outline were "a light, tile-sized region with pip-like marks that no tile
    read accounts for", a region drawn around them that holds the outline. Where the nets
    read that same tile over both, the marks are its own; where they read another tile
    there, or none, or one of two tiles' size (two run together, a tile beside the one
    read), it stays a doubt; so does a region beyond a whole outline (a neighbour's
    marks), however the nets' tile covers it."""
    small = _box(10, 10, 30, 80)  # the classical reader's outline of a 50 x 100 tile
    marks = reader.Unreadable(_box(2, 2, 46, 96), [], combined.missed.UNCOVERED)
    first = reader.PhotoReading([reader.TileRead(Tile(5, 1), 0.9, small)], [marks])
    others = [reader.TileRead(Tile(3, 2), 0.9, _box(200, 0, 50, 100))]

    def nets_read(tile: Tile, box: list[tuple[int, int]]) -> reader.PhotoReading:
        return reader.PhotoReading([reader.TileRead(tile, 0.9, box), *others])

    whole = nets_read(Tile(5, 1), _box(0, 0, 50, 100))
    assert merge._rest_of(marks, first.reads, whole.reads)
    assert sorted(merge.merged(first, whole).tiles) == [Tile(3, 2), Tile(5, 1)]
    # Without the rule the region stays a doubt: nothing else in the merge settles it.
    with monkeypatch.context() as patched:
        patched.setattr(merge, "_rest_of", lambda *args: False)
        assert merge.merged(first, whole) is None
    for nets_ in (
        nets_read(Tile(5, 2), _box(0, 0, 50, 100)),  # another tile: the readers disagree
        nets_read(Tile(5, 1), _box(0, 0, 50, 60)),  # the nets' tile does not cover it
        nets_read(Tile(5, 1), _box(0, 0, 50, 200)),  # two tiles' size
        reader.PhotoReading(others),  # the nets read nothing there
    ):
        assert not merge._rest_of(marks, first.reads, nets_.reads)
        assert merge.merged(first, nets_) is None
    # A region beyond a whole outline holds none of it: a neighbour's marks, not its pips.
    outline = _box(0, 0, 50, 100)
    beyond = reader.Unreadable(_box(2, 102, 46, 30), [], combined.missed.UNCOVERED)
    first = reader.PhotoReading([reader.TileRead(Tile(5, 1), 0.9, outline)], [beyond])
    longer = nets_read(Tile(5, 1), _box(0, 0, 50, 138))
    assert geometry.covered(beyond.box, [longer.reads[0].box]) >= merge.REST
    assert not merge._rest_of(beyond, first.reads, longer.reads)
    assert merge.merged(first, longer) is None
    # Only a region of marks no outline covered is so settled, not an outline's doubt.
    other = reader.Unreadable(marks.box, [], "a tile whose divider was not found")
    assert not merge._rest_of(other, [reader.TileRead(Tile(5, 1), 0.9, small)], whole.reads)
