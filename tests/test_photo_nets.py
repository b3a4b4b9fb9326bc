"""The photo reader's networks (cf/photo/models): they load in OpenCV's own cv2.dnn and give
the outputs the exported model gave, and the game's rules are checked on top of them.

No torch and no network needed: ``checks.npz`` holds fixed inputs and the outputs the
trained model gave at export (``python -m cf.photo.train``)."""

from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from cf.photo import across, nets, reader, specks  # noqa: E402
from cf.photo.scenes import render_family  # noqa: E402
from cf.tiles import Tile  # noqa: E402

CHECKS = nets.MODELS / "checks.npz"


def test_the_models_are_committed_and_small():
    assert nets.available()
    size = sum(p.stat().st_size for p in nets.MODELS.iterdir())
    assert size <= 5 * 2**20


@pytest.mark.parametrize(("name", "key"), [(nets.TILE_NET, "tiles"), (nets.HALF_NET, "halves")])
def test_cv2_dnn_gives_the_exported_models_outputs(name, key):
    checks = np.load(CHECKS)
    cv2.setNumThreads(1)
    net = cv2.dnn.readNetFromONNX(str(nets.MODELS / name))
    net.setInput(checks[f"{key}_input"])
    out = net.forward()
    assert out.shape == checks[f"{key}_output"].shape
    np.testing.assert_allclose(out, checks[f"{key}_output"], atol=1e-4)
    # Probabilities: each pixel's (each crop's) classes sum to one.
    np.testing.assert_allclose(out.sum(axis=1), 1.0, atol=1e-4)


def test_the_tiles_net_runs_at_any_size_and_the_halves_net_at_any_batch():
    tiles = nets.run(nets.TILE_NET, np.zeros((1, 3, 96, 160), np.float32))
    assert tiles.shape == (1, 3, 48, 80)
    halves = nets.run(nets.HALF_NET, np.zeros((5, 3, nets.HALF_SIDE, nets.HALF_SIDE), np.float32))
    assert halves.shape == (5, nets.NOT_A_HALF + 1)


def _probs(**mass: float) -> np.ndarray:
    p = np.full(nets.NOT_A_HALF + 1, 1e-4)
    for key, value in mass.items():
        p[nets.NOT_A_HALF if key == "no" else int(key[1:])] = value
    return p / p.sum()


def test_a_half_reads_its_likeliest_count_within_the_set():
    n, conf, alts, why = nets._half(_probs(n5=0.9, n6=0.1), 0.0, 6)
    assert (n, why) == (5, "") and conf > 0.85 and alts == [6]
    # More pips than the set has: read within the set, in doubt.
    n, conf, _, why = nets._half(_probs(n9=0.6, n6=0.4), 0.0, 6)
    assert n == 6 and conf < 0.5 and "more pips" in why


def test_a_half_with_more_pips_than_the_set_names_the_count_it_shows():
    """The count above the set is kept (``pips``), so that a refusal can name the set to
    try; a half that is no half, or reads within the set, names none."""
    corners = np.zeros((4, 2))
    over = nets._tile(corners, np.stack([_probs(n12=0.9, n6=0.1), _probs(n3=1.0)]), np.zeros(2), 6)
    assert over is not None and over.pips == 12 and "more pips" in over.reason
    within = nets._tile(corners, np.stack([_probs(n5=1.0), _probs(n3=1.0)]), np.zeros(2), 6)
    assert within is not None and within.pips == 0
    assert nets._over(_probs(no=0.9, n12=0.1), 6) == 0
    assert nets._over(_probs(n9=0.6, n6=0.4), 9) == 0


def test_a_half_that_reads_differently_turned_round_is_in_doubt():
    _, conf, _, why = nets._half(_probs(n4=1.0), 0.6, 9)
    assert conf <= 0.5 and "half a turn" in why


def test_not_a_half_is_no_count():
    assert nets._half(_probs(no=0.9, n1=0.1), 0.0, 9)[0] is None


def test_a_tile_read_twice_is_in_doubt():
    corners = np.zeros((4, 2))
    found = [
        nets.Found(corners, Tile(3, 2), 0.9, []),
        nets.Found(corners, Tile(3, 2), 0.95, []),
        nets.Found(corners, Tile(4, 2), 0.9, []),
    ]
    out = nets._once_each(found)
    assert [round(f.confidence, 3) for f in out] == [0.27, 0.285, 0.9]
    # Worded as the classical reader words it, so that it is translated the same way.
    assert out[0].reason == "3-2 read twice (a hand holds each tile once)"
    from cf.photo.reasons import WORDED

    assert any(pattern.fullmatch(out[0].reason) for pattern, _ in WORDED)


def test_the_nets_read_a_synthetic_hand():
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    reading = nets.reading(photo.image, 9, reader.DEFAULT_MIN_CONFIDENCE)
    assert len(reading.reads) + len(reading.unreadable) == len(photo.tiles)
    assert sorted(reading.tiles) == sorted(photo.tiles)


def test_a_tile_read_without_confidence_is_a_doubt_with_its_reading_first(monkeypatch):
    """A tile the nets read, but twice in a hand or unsure, is a doubt whose candidates
    start with what they read (the place where the classical check looks for one)."""
    corners = np.array([[10, 10], [50, 10], [50, 90], [10, 90]], float)
    twice = [
        nets.Found(corners, Tile(3, 2), 0.9, []),
        nets.Found(corners + 100, Tile(3, 2), 0.9, [Tile(3, 3)]),
    ]
    monkeypatch.setattr(nets, "read_tiles", lambda *a: nets._once_each(twice))
    reading = nets.reading(np.zeros((200, 200, 3), np.uint8), 9, 0.6)
    assert not reading.reads
    assert [u.candidates for u in reading.unreadable] == [[Tile(3, 2)], [Tile(3, 2), Tile(3, 3)]]


def test_the_nets_find_nothing_on_a_blank_photo():
    blank = np.full((480, 640, 3), 200, np.uint8)
    reading = nets.reading(blank, 9, reader.DEFAULT_MIN_CONFIDENCE)
    assert not reading.reads and not reading.unreadable


def test_a_face_with_no_divider_is_not_taken_for_a_tile():
    """Every face-up tile has a divider across its middle: a tile-shaped face without one
    (a tile's back, a piece of card, a face painted over) is reported, never read."""
    from test_photo import _blanked

    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    tiles, odd = nets.tile_outlines(photo.image)
    assert len(tiles) == 4 and not odd
    tiles, odd = nets.tile_outlines(_blanked(photo.image, photo.boxes[0]))
    assert len(tiles) == 3
    assert [why for _, why in odd] == [nets.NO_DIVIDER]
    centre = np.mean(photo.boxes[0], axis=0)
    assert np.linalg.norm(np.mean(odd[0][0], axis=0) - centre) < 10


def _undivided(image, box):
    """``image`` with the divider of the tile at ``box`` painted over in its face colour
    (a faint or unpainted divider, or a card with marks like pips): its pips stay."""
    corners = np.asarray(box, float)
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners).astype(np.int32), 1)
    colour = np.median(image[(inside > 0) & (image.mean(axis=2) > 150)], axis=0)
    sides = [float(np.linalg.norm(corners[(i + 1) % 4] - corners[i])) for i in range(4)]
    i = int(np.argmax(sides))
    centre = corners.mean(axis=0)
    ends = [(corners[i] + corners[(i + 1) % 4]) / 2, (corners[(i + 2) % 4] + corners[i - 1]) / 2]
    a, b = (tuple(int(v) for v in np.round(centre + (e - centre) * 0.85)) for e in ends)
    out = image.copy()
    cv2.line(out, a, b, tuple(int(v) for v in colour), max(3, round(sides[i] * 0.08)))
    return out


def test_a_tile_shape_with_pips_but_no_divider_stays_a_doubt():
    """Pips alone do not make a tile: a card or a decorated back can carry marks like
    them. A tile's shape with no divider seen is a doubt (never read, never left out),
    however clearly its halves would read."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    image = _undivided(photo.image, photo.boxes[0])
    reading = nets.reading(image, 9, reader.DEFAULT_MIN_CONFIDENCE)
    assert sorted(reading.tiles) == sorted(photo.tiles[1:])
    [doubt] = reading.unreadable
    assert doubt.reason == nets.NO_DIVIDER
    assert np.linalg.norm(np.mean(doubt.box, axis=0) - np.mean(photo.boxes[0], axis=0)) < 10
    # The halves net would read it: what keeps it a doubt is the missing divider.
    corners = nets.short_side_first(np.asarray(doubt.box, float))
    assert corners is not None
    assert nets.read_outlined(reader.to_bgr8(image), corners, 9).tile == photo.tiles[0]


def _missed_divider(monkeypatch, photo, faint, others=()):
    """The tiles net as if it had seen tile ``faint`` of ``photo`` but not its divider, and
    the tiles ``others`` as they are."""
    outline = nets.short_side_first(np.asarray(photo.boxes[faint], float))
    seen = [nets.short_side_first(np.asarray(photo.boxes[i], float)) for i in others]
    monkeypatch.setattr(nets, "tile_outlines", lambda *a: (seen, [(outline, nets.NO_DIVIDER)]))


def test_a_tile_whose_divider_the_net_missed_is_read_when_one_is_measured(monkeypatch):
    """The tiles net misses faint dividers (coloured bodies, small tiles): a tile's shape
    it saw no divider in is read when it stands apart, a divider is measured across its
    middle and its halves show pips."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    assert all(across.divided(photo.image, np.asarray(b, float)) for b in photo.boxes)
    _missed_divider(monkeypatch, photo, 0)
    reading = nets.reading(photo.image, 9, reader.DEFAULT_MIN_CONFIDENCE)
    assert list(reading.tiles) == [photo.tiles[0]] and not reading.unreadable


def test_a_tile_read_where_only_the_measure_saw_a_divider_needs_more_confidence(monkeypatch):
    """A back with a groove or a printed picture can pass the measure: the halves net must
    be surer of such a tile than of others."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    _missed_divider(monkeypatch, photo, 0)
    sure = nets.reading(photo.image, 9, reader.DEFAULT_MIN_CONFIDENCE)
    [read] = sure.reads
    assert read.confidence >= nets.FAINT_CONFIDENCE
    monkeypatch.setattr(nets, "FAINT_CONFIDENCE", read.confidence + 0.01)
    unsure = nets.reading(photo.image, 9, reader.DEFAULT_MIN_CONFIDENCE)
    assert not unsure.reads and [u.reason for u in unsure.unreadable] == [nets.NO_DIVIDER]


def test_a_tile_shape_with_no_divider_measured_stays_a_doubt(monkeypatch):
    """Pips alone do not make a tile: with the divider painted over (a card with marks
    like pips), no divider is measured and the region stays a doubt."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    image = _undivided(photo.image, photo.boxes[0])
    assert not across.divided(image, np.asarray(photo.boxes[0], float))
    _missed_divider(monkeypatch, photo, 0)
    reading = nets.reading(image, 9, reader.DEFAULT_MIN_CONFIDENCE)
    assert not reading.reads and [u.reason for u in reading.unreadable] == [nets.NO_DIVIDER]


@pytest.mark.parametrize("pips", [7, 8, 9, 12])
def test_pips_next_to_the_divider_are_not_taken_for_one(pips):
    """The row of a 7, 8 or 9 (and of a 10-12) nearest the divider lies close to the
    tile's middle: with the divider painted in the face's colour, no divider is measured;
    with it, one is."""
    from cf.photo import synth
    from cf.photo.scenes import _style

    for seed in range(6):
        rng = np.random.default_rng([pips, seed])
        style = _style(rng, "ivory", 12)
        style["spinner"] = False
        measured = []
        for bar in (style["bar"], tuple(float(v) for v in style["ivory"])):
            img = synth._background(rng, 480, 360, "felt")
            sprite, alpha = synth._tile_sprite(
                rng, (pips, pips), 40.0, "black", dict(style, bar=bar)
            )
            centre = np.array([240.0, 180.0])
            box = synth._composite(img, sprite, alpha, centre, float(30 * seed), 40.0, rng, 1)
            img = cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), 0.6)
            measured.append(across.divided(img, np.asarray(box, float)))
        assert measured == [True, False]


def test_a_card_with_a_dot_near_each_end_has_no_divider():
    """A light card with a dot near each end (a 1-1 with no divider) is no tile."""
    from test_photo import _blanked

    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    box = np.asarray(photo.boxes[0], float)
    card = _blanked(photo.image, photo.boxes[0])
    ends = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    for t in (0.2, 0.8):
        centre = tuple(int(v) for v in np.round(ends[0] + (ends[1] - ends[0]) * t))
        cv2.circle(card, centre, 4, (30, 30, 30), -1, cv2.LINE_AA)
    assert not across.divided(card, box)


def test_a_tile_shape_among_others_or_blank_stays_a_doubt(monkeypatch):
    """Among touching tiles a tile's shape can be the halves of two, the seam between them
    across its middle: a region with no divider seen is read only standing apart. A double
    blank with no divider seen looks like the back of a tile: a doubt."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    box = np.asarray(photo.boxes[0], float)
    near = box + (box[1] - box[0]) * 1.1  # a tile beside it, a tenth of its width apart
    photo.boxes.append(near)
    _missed_divider(monkeypatch, photo, 0, [len(photo.boxes) - 1])
    reading = nets.reading(photo.image, 9, reader.DEFAULT_MIN_CONFIDENCE)
    assert photo.tiles[0] not in reading.tiles
    assert [u.reason for u in reading.unreadable] == [nets.NO_DIVIDER]
    blank = render_family(7, "ivory", size=(640, 480), count=4, top=9)
    assert blank.tiles[0] == Tile(0, 0)
    _missed_divider(monkeypatch, blank, 0)
    reading = nets.reading(blank.image, 9, reader.DEFAULT_MIN_CONFIDENCE)
    assert not reading.reads
    [doubt] = reading.unreadable
    assert (doubt.reason, doubt.candidates) == (nets.BLANK_OR_BACK, [Tile(0, 0)])


def _faint_divider(image, box, delta):
    """``image`` with the divider of the tile at ``box`` painted over in its face colour
    and drawn again across its middle ``delta`` grey levels darker than the face."""
    corners = np.asarray(box, float)
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners).astype(np.int32), 1)
    colour = np.median(image[(inside > 0) & (image.mean(axis=2) > 150)], axis=0)
    out = _undivided(image, box)
    sides = [float(np.linalg.norm(corners[(i + 1) % 4] - corners[i])) for i in range(4)]
    i = int(np.argmin(sides))
    centre = corners.mean(axis=0)
    half = (corners[(i + 1) % 4] - corners[i]) / 2 * 0.85
    a, b = (tuple(int(v) for v in np.round(centre + s * half)) for s in (-1, 1))
    bar = tuple(int(v) - delta for v in colour)
    cv2.line(out, a, b, bar, max(2, round(sides[i] * 0.04)))
    return out


#: A hand of four read exactly, its double blank the fourth tile.
FAINT_SEED, FAINT_TILE = 44, 3


def test_a_line_across_a_blank_middle_is_measured_where_a_divider_is_not():
    """A divider 8 grey levels darker than the face is too faint for :func:`divided`
    (which reads pips only past a clear bar) but is a line across the middle; a blank
    face, or a line near one end, is none."""
    photo = render_family(FAINT_SEED, "ivory", size=(640, 480), count=4, top=9)
    assert photo.tiles[FAINT_TILE] == Tile(0, 0)
    box = np.asarray(photo.boxes[FAINT_TILE], float)
    faint = _faint_divider(photo.image, box, 8)
    assert across.line_across(faint, box) and not across.divided(faint, box)
    assert not across.line_across(_faint_divider(photo.image, box, 0), box)
    sides = box[1] - box[0], box[2] - box[1]
    along = max(sides, key=lambda side: float(np.linalg.norm(side)))
    assert not across.line_across(faint, box + 0.3 * along)  # the line at 0.2 of its length


def test_a_double_blank_with_a_faint_divider_is_a_doubt_never_left_out():
    """A blank tile with a line across its middle is a double blank with a faint divider,
    or the back of a tile with a groove: the two are not told apart, so the photo is
    refused with 0-0 in mind (left out, the hand would be 50 points short)."""
    from cf.photo import combined

    photo = render_family(FAINT_SEED, "ivory", size=(640, 480), count=4, top=9)
    reading = combined.read_hand(photo.image, 9)
    assert reading.ok and sorted(reading.tiles) == sorted(photo.tiles)
    faint = _faint_divider(photo.image, photo.boxes[FAINT_TILE], 8)
    reading = combined.read_hand(faint, 9)
    assert not reading.ok
    assert sorted(reading.tiles) == sorted(t for t in photo.tiles if t != Tile(0, 0))
    [doubt] = reading.unreadable
    assert (doubt.reason, doubt.candidates) == (nets.BLANK_OR_BACK, [Tile(0, 0)])
    centre = np.mean(photo.boxes[FAINT_TILE], axis=0)
    assert np.linalg.norm(np.mean(doubt.box, axis=0) - centre) < 10


def test_a_tile_seen_shortened_is_still_a_tile():
    """A slanted view or a photo squeezed to a square (datasets resize so) shortens a tile
    to under twice its width: the nets take it as one tile, as the classical reader does."""
    photo = render_family(3, "single", size=(640, 480))
    box = np.asarray(photo.boxes[0], np.float64)
    along = box[3] - box[0]
    v = along / np.linalg.norm(along)
    squeeze = np.eye(2) - (1 - 0.72) * np.outer(v, v)  # 0.72 of its length: about 1.44 : 1
    centre = box.mean(axis=0)
    matrix = np.hstack([squeeze, (centre - squeeze @ centre)[:, None]])
    image = cv2.warpAffine(photo.image, matrix, (640, 480), borderMode=cv2.BORDER_REPLICATE)
    tiles, odd = nets.tile_outlines(image)
    assert len(tiles) == 1 and not odd
    short = nets.short_side_first(tiles[0])
    assert short is not None
    ratio = np.linalg.norm(short[2] - short[1]) / np.linalg.norm(short[1] - short[0])
    assert 1.3 <= ratio < 1.6


def test_an_outline_far_from_a_tiles_shape_is_not_read_as_one():
    slanted = np.array([[0, 0], [40, 0], [40, 58], [0, 58]], float)  # 1.45 : 1
    assert nets.short_side_first(slanted) is not None
    square = np.array([[0, 0], [40, 0], [40, 40], [0, 40]], float)
    assert nets.short_side_first(square) is None
    long_ = np.array([[0, 0], [40, 0], [40, 120], [0, 120]], float)
    assert nets.short_side_first(long_) is None
    tile = np.array([[0, 0], [0, 80], [40, 80], [40, 0]], float)
    first = nets.short_side_first(tile)
    assert first is not None and np.linalg.norm(first[1] - first[0]) == 40


@pytest.mark.parametrize("seed", [17, 25, 38])
def test_tiles_run_together_side_by_side_are_reported_never_left_out(seed):
    """Three tiles touching along their long sides can look like one short tile whose
    halves are no halves: that region is reported unreadable, never dropped (left out,
    the other tiles of the photo would make a confident wrong total)."""
    photo = render_family(seed, "block", size=(640, 480), count=3)
    reading = nets.reading(photo.image, photo.top, reader.DEFAULT_MIN_CONFIDENCE)
    assert reading.unreadable or sorted(reading.tiles) == sorted(photo.tiles)


def _view(background: np.ndarray, divider: np.ndarray) -> nets.Seen:
    """A tiles net's view made by hand: background and divider probabilities (h x w), the
    face the rest; one output pixel is one image pixel."""
    probs = np.stack([background, 1 - background - divider, divider]).astype(np.float32)
    return nets.Seen(probs, np.array([1.0, 1.0]))


def _touching_pair(bridge: float) -> nets.Seen:
    """Two tiles 12 x 24 lying side by side; the rim between them, 2 pixels, is background
    with probability ``bridge``; a divider across each tile's middle."""
    background = np.ones((40, 50))
    divider = np.zeros((40, 50))
    for x in (10, 24):
        background[8:32, x : x + 12] = 0.0
        divider[19:21, x + 1 : x + 11] = 0.9
    background[8:32, 22:24] = bridge
    background[divider > 0] = 0.05
    return _view(background, divider)


def test_tiles_run_together_are_split_where_a_stricter_bound_parts_them():
    """At 0.5 the two touching tiles are one square face region (no tile's shape); the rim
    between them, less sure background than the table but more than a face, parts them
    into two tiles."""
    image = np.zeros((40, 50, 3), np.uint8)
    tiles, odd = nets.tile_outlines(image, _touching_pair(bridge=0.4))
    assert len(tiles) == 2 and not odd
    centres = sorted(float(np.mean(t[:, 0])) for t in tiles)
    assert centres[0] == pytest.approx(16, abs=1.5) and centres[1] == pytest.approx(30, abs=1.5)
    for t in tiles:
        assert 1.6 <= nets._aspect(t) <= 2.4
    # Nothing between them that a stricter bound sees as background: one region, a doubt.
    tiles, odd = nets.tile_outlines(image, _touching_pair(bridge=0.0))
    assert not tiles and [why for _, why in odd] == [nets.NOT_ONE_TILE]


def test_the_face_share_of_an_outline_that_covers_nothing_is_all_face():
    """Never "no face" by default: an outline outside the photo or with no area."""
    photo = render_family(1, "ivory", size=(640, 480), count=4, top=9)
    view = nets.seen(photo.image)
    assert nets.face_share(view, np.array([(900, 900), (950, 900), (950, 1000), (900, 1000)])) == 1
    assert nets.face_share(view, np.array([(5, 5), (6, 6)])) == 1
    assert nets.face_share(view, np.array(photo.boxes[0])) > 0.4


def test_a_split_region_is_all_in_its_parts_and_a_small_seed_is_flooded():
    """Every pixel of a split region is in exactly one part (none lost to the watershed's
    lines or frame), and a seed under 6 pixels is no part of its own."""
    view = _touching_pair(bridge=0.4)
    mask = (view.probs[0] < 0.5).astype(np.uint8)
    parts = nets._split(mask, view.probs[0])
    assert len(parts) == 2
    assert (sum(parts) == mask).all()
    assert sorted(int(p.sum()) for p in parts) == [24 * 13, 24 * 13]
    # Two tiles 16 apart: a rim 4 wide, with a sure spot of 5 pixels in it.
    background = np.ones((40, 50))
    for x in (10, 26):
        background[8:32, x : x + 12] = 0.0
    background[8:32, 22:26] = 0.4
    background[18:23, 23] = 0.0
    mask = (background < 0.5).astype(np.uint8)
    parts = nets._split(mask, background)
    assert len(parts) == 2 and (sum(parts) == mask).all()


def test_a_split_part_too_small_to_tell_stays_a_doubt():
    """Split off beside a tile, a sliver of face (a 7 x 2 stub: no tile's shape, under the
    20 pixels a doubt otherwise needs) is reported, never left out."""
    background = np.ones((40, 50))
    divider = np.zeros((40, 50))
    background[8:32, 10:22] = 0.0
    divider[19:21, 11:21] = 0.9
    background[divider > 0] = 0.05
    background[8:32, 22:23] = 0.4  # the rim
    background[14:16, 23:30] = 0.0  # the sliver
    image = np.zeros((40, 50, 3), np.uint8)
    tiles, odd = nets.tile_outlines(image, _view(background, divider))
    assert len(tiles) == 1 and [why for _, why in odd] == [nets.NOT_ONE_TILE]


def test_a_plain_face_down_tile_beside_a_hand_read_is_left_out():
    """A blank tile with no line across its middle is a tile's back (most sets have plain
    backs of their faces' colour): the tiles net sees a tile's shape with no divider, and
    it is left out, the hand read as it is."""
    from cf.photo import combined, synth
    from cf.photo.oneset import sides
    from cf.photo.scenes import _style

    photo = render_family(FAINT_SEED, "ivory", size=(800, 600), count=3, top=9)
    rng = np.random.default_rng(FAINT_SEED)
    width = float(np.median([sides(b)[0] for b in photo.boxes]))
    centres = [np.mean(b, axis=0) for b in photo.boxes]
    for _ in range(200):
        centre = np.array([rng.uniform(2, 798 / width - 2), rng.uniform(2, 598 / width - 2)])
        centre *= width
        if all(np.linalg.norm(centre - c) > 2.5 * width for c in centres):
            break
    back = dict(_style(rng, "ivory", 9), face_down=True)
    sprite, alpha = synth._tile_sprite(rng, (0, 0), width, "black", back)
    image = photo.image.astype(np.float32)
    synth._composite(image, sprite, alpha, centre, 30.0, width, rng, 1)
    image = np.clip(image, 0, 255).astype(np.uint8)
    [(outline, why)] = nets.tile_outlines(image)[1]
    assert why == nets.NO_DIVIDER and np.linalg.norm(outline.mean(axis=0) - centre) < 10
    assert not across.line_across(image, outline)
    reading = combined.read_hand(image, 9)
    assert reading.ok and sorted(reading.tiles) == sorted(photo.tiles)


def _two_tiles_and(
    *specks: tuple[int, int, int], image: np.ndarray | None = None
) -> tuple[list, list]:
    """The tiles net's outlines for a view of two 20 x 40 tiles (face areas 800) far apart
    on a 160 x 120 photo (black unless ``image``), with square bits of face (x, y, side)
    added."""
    background = np.ones((120, 160))
    divider = np.zeros((120, 160))
    for x in (10, 130):
        background[10:50, x : x + 20] = 0.0
        divider[29:31, x + 1 : x + 19] = 0.9
    background[divider > 0] = 0.05
    for x, y, side in specks:
        background[y : y + side, x : x + side] = 0.0
    photo = np.zeros((120, 160, 3), np.uint8) if image is None else image
    return nets.tile_outlines(photo, _view(background, divider))


def test_a_speck_of_face_apart_from_the_tiles_is_told_as_one():
    """A glare spot or a crumb the tiles net sees as face, far under a tile's face
    (specks.SPECK of the tiles') and apart from every other face, is a speck: still a doubt,
    with its own reason (combined.py lets it stop no reading both readers agree on)."""

    def kinds(odd: list) -> list[str]:
        return [why for _, why in odd]

    tiles, odd = _two_tiles_and((70, 80, 6))  # 36 pixels, under 0.1 x 800
    assert len(tiles) == 2 and kinds(odd) == [nets.SPECK_SEEN]
    tiles, odd = _two_tiles_and((70, 80, 6), (78, 80, 6))  # two, 72 together
    assert len(tiles) == 2 and kinds(odd) == [nets.SPECK_SEEN] * 2
    # Bigger, or bits that together are not a speck: doubts as before.
    assert nets.SPECK_SEEN not in kinds(_two_tiles_and((70, 80, 10))[1])  # 100 pixels
    three = kinds(_two_tiles_and((70, 80, 6), (78, 80, 6), (70, 88, 6))[1])  # 108
    assert len(three) == 3 and nets.SPECK_SEEN not in three


def test_a_speck_beside_a_tile_or_at_the_photos_edge_is_no_speck():
    """A tile shows that little face when the rest of it is under another tile (its face
    beside that tile's) or out of the frame: such a bit is a doubt as any other."""
    for speck in ((33, 20, 6), (0, 80, 6), (154, 80, 6), (70, 114, 6)):
        tiles, odd = _two_tiles_and(speck)
        assert len(tiles) == 2 and len(odd) == 1 and odd[0][1] != nets.SPECK_SEEN, speck
    tiles, odd = _two_tiles_and()
    assert len(tiles) == 2 and odd == []


def test_a_speck_on_something_that_is_not_the_table_is_no_speck():
    """A bright bit on a face-down tile (or a card, a printed picture) is no glint on the
    table: the ring around it is not the table's colour (specks.SPECK_ON), so it stays a
    doubt as any other (in a trap photo such a doubt was all that refused a printed
    domino both readers read in a row)."""
    grey = np.zeros((120, 160, 3), np.uint8)
    grey[70:100, 60:90] = 128  # a face-down tile's back under the speck
    tiles, odd = _two_tiles_and((70, 80, 6), image=grey)
    assert len(tiles) == 2 and [why for _, why in odd] == [nets.NOT_ONE_TILE]
    dim = np.zeros((120, 160, 3), np.uint8)
    dim[70:100, 60:90] = 12  # the table a little lighter there: still the table
    tiles, odd = _two_tiles_and((70, 80, 6), image=dim)
    assert [why for _, why in odd] == [nets.SPECK_SEEN]


def test_a_region_split_into_tiles_leaves_the_specks_bookkeeping_right():
    """A small region of two tile-shaped bits joined by a weak bridge is split into two
    tiles; a big face region of no tile's shape after it stays a plain doubt, never taken
    for a speck by the split region's place (an independent review's case: the index was
    taken before the split, and with nothing after it the reader raised)."""
    background = np.ones((300, 300))
    divider = np.zeros((300, 300))
    for x in (10, 250):  # two tiles 40 x 80
        background[10:90, x : x + 40] = 0.0
        divider[49:51, x + 1 : x + 39] = 0.9
    for x in (120, 128):  # two bits 6 x 12, a bridge between them
        background[130:142, x : x + 6] = 0.0
        divider[135:137, x + 1 : x + 5] = 0.9
    background[130:142, 126:128] = 0.3
    background[divider > 0] = 0.05
    image = np.zeros((300, 300, 3), np.uint8)
    tiles, odd = nets.tile_outlines(image, _view(background, divider))
    assert len(tiles) == 4 and odd == []
    background[200:280, 100:140] = 0.0  # an L of face, no tile's shape
    background[240:280, 140:220] = 0.0
    tiles, odd = nets.tile_outlines(image, _view(background, divider))
    assert len(tiles) == 4 and [why for _, why in odd] == [nets.NOT_ONE_TILE]


def test_a_speck_at_the_top_edge_is_no_speck():
    tiles, odd = _two_tiles_and((70, 0, 6))
    assert len(tiles) == 2
    assert len(odd) == 1 and odd[0][1] != nets.SPECK_SEEN


def test_the_table_colour_needs_no_opencv_lab_tables(monkeypatch):
    """The speck's ring is measured with cf.photo.lab (OpenCV's own BGR to Lab builds its
    tables, 0.15 s of CPU, the first time a process asks); a grey photo is measured too,
    and a view with no table in it puts nothing on the table."""
    import cv2

    real = cv2.cvtColor

    def no_lab(image, code, *args):
        assert code != cv2.COLOR_BGR2LAB, "OpenCV's Lab tables built"
        return real(image, code, *args)

    monkeypatch.setattr(cv2, "cvtColor", no_lab)
    _tiles, odd = _two_tiles_and((70, 80, 6))
    assert [why for _, why in odd] == [nets.SPECK_SEEN]
    table = np.ones((3, 10, 10), np.float32) * np.array([1, 0, 0])[:, None, None]
    grey = specks.table_distance(np.zeros((10, 10), np.uint8), nets.Seen(table, np.ones(2)))
    assert grey(np.array([[1, 1], [2, 2]])) == 0
    no_table = nets.Seen(table[[1, 0, 2]], np.ones(2))
    assert specks.table_distance(np.zeros((10, 10, 3), np.uint8), no_table)(np.ones((2, 2))) == (
        float("inf")
    )
