"""Training the photo reader's networks (cf/photo/train.py): the labels it learns from, the
augmentation of half crops, and fine-tuning from the committed ONNX files (``--init``).

The torch parts skip without the ``train`` extra; nothing here trains for long."""

from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from cf.photo import nets, train  # noqa: E402
from cf.photo.labels import BACKGROUND, FACE, label_map, rim_map  # noqa: E402
from cf.photo.scenes import render_family  # noqa: E402


def test_the_rim_map_marks_where_a_tile_lies_but_its_face_class_does_not():
    photo = render_family(2, "block", size=(320, 240), count=6, top=9)
    labels, rim = label_map(photo, 320, 240), rim_map(photo, 320, 240)
    assert rim.dtype == np.uint8 and set(np.unique(rim).tolist()) == {0, 1}
    # Never on a face or a divider; only inside some tile's outline.
    assert not (rim & (labels != BACKGROUND)).any()
    inside = np.zeros_like(rim)
    for box in photo.boxes:
        cv2.fillConvexPoly(inside, np.round(box).astype(np.int32), 1)
    assert (rim <= cv2.dilate(inside, np.ones((3, 3), np.uint8))).all()
    assert (labels == FACE).sum() > rim.sum() > 0


def test_a_half_crop_is_augmented_in_place_and_reproducibly():
    crop = np.full((nets.HALF_SIDE, nets.HALF_SIDE, 3), 220, np.uint8)
    cv2.circle(crop, (16, 16), 4, (20, 20, 20), -1)
    a = train._augment_half(np.random.default_rng(5), crop)
    b = train._augment_half(np.random.default_rng(5), crop)
    assert a.shape == crop.shape and a.dtype == np.uint8 and (a == b).all()
    # The pip stays where it was: darkest at the centre.
    grey = a.astype(float).mean(axis=2)
    assert grey[14:19, 14:19].mean() < grey[:6, :6].mean()


def test_a_half_crop_shows_other_sets_layouts_of_its_pips():
    """A 2 on one diagonal trains the net on the other diagonal too, a 6 in columns on a 6
    in rows (sets differ): the crop mirrored or its sides swapped, the same count."""
    two = np.full((nets.HALF_SIDE, nets.HALF_SIDE, 3), 220, np.uint8)
    for centre in ((8, 8), (24, 24)):
        cv2.circle(two, centre, 4, (20, 20, 20), -1)
    six = np.full((nets.HALF_SIDE, nets.HALF_SIDE, 3), 220, np.uint8)
    for x in (9, 23):
        for y in (6, 16, 26):
            cv2.circle(six, (x, y), 3, (20, 20, 20), -1)
    diagonals, sixes = set(), set()
    for seed in range(30):
        grey = train._augment_half(np.random.default_rng(seed), two).astype(float).mean(axis=2)
        main = grey[6:11, 6:11].mean() + grey[22:27, 22:27].mean()
        other = grey[6:11, 22:27].mean() + grey[22:27, 6:11].mean()
        diagonals.add("main" if main < other else "other")
        grey = train._augment_half(np.random.default_rng(seed), six).astype(float).mean(axis=2)
        # Dark down the middle column: the sides swapped (rows of three across).
        sixes.add("rows" if grey[:, 14:19].mean() < grey[14:19, :].mean() else "columns")
    assert diagonals == {"main", "other"}
    assert sixes == {"rows", "columns"}


@pytest.mark.parametrize(("name", "key"), [(nets.TILE_NET, "tiles"), (nets.HALF_NET, "halves")])
def test_fine_tuning_starts_from_the_committed_nets(name, key):
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    checks = np.load(nets.MODELS / "checks.npz")
    make = train._seg_model if key == "tiles" else train._half_model
    model = train._load_onnx(make(), nets.MODELS / name)
    x = torch.from_numpy(checks[f"{key}_input"])
    y = torch.zeros(len(x), dtype=torch.long)

    def loss(p, _):
        return p.sum() * 0

    # A training step with no learning leaves the folded batch norms as they were.
    train._fit(model, lambda _step: (x, y), 1, 0.0, loss, "test")
    with torch.no_grad():
        out = model(x).numpy()
    np.testing.assert_allclose(out, checks[f"{key}_output"], atol=1e-4)


def _pip_centres(face: np.ndarray) -> list[tuple[float, float]]:
    dark = (face.mean(axis=2) < 100).astype(np.uint8)
    count, _, _, centres = cv2.connectedComponentsWithStats(dark)
    return sorted((round(float(x)), round(float(y))) for x, y in centres[1:count])


def test_sets_lay_out_their_pips_either_way():
    """A training photo's set may put a 2 on the other diagonal (mirrored) or a 6 in rows
    (sides swapped): the count is the same, the look is another set's."""
    from cf.photo.synth import _tile_sprite

    style = {
        "ivory": np.array([230.0, 240, 245]),
        "radius": 0.1,
        "pip": 0.1,
        "spinner": False,
        "divider": 0.7,
        "bar": (25, 25, 25),
        "thick": 0.03,
        "pips": {n: (25, 25, 25) for n in range(16)},
    }

    def half(number: int, **flips: bool) -> np.ndarray:
        face, _ = _tile_sprite(np.random.default_rng(0), (number, 0), 100, "black", style | flips)
        return face[:90]  # the first half, the divider left out

    plain, mirrored = _pip_centres(half(2)), _pip_centres(half(2, mirror=True))
    assert len(plain) == len(mirrored) == 2
    assert plain != mirrored
    flipped = np.array(sorted((100 - x, y) for x, y in plain))
    assert np.abs(flipped - np.array(mirrored)).max() <= 2
    columns, rows = _pip_centres(half(6)), _pip_centres(half(6, swap=True))
    assert len({round(x / 10) for x, _ in columns}) == 2  # two columns of three
    assert len({round(y / 10) for _, y in rows}) == 2  # two rows of three


def test_a_squeezed_photo_and_a_palm_under_the_tiles_leave_the_labels_right():
    from cf.photo.scenes import _palm, _squeeze

    photo = render_family(4, "ivory", size=(320, 240), count=3, top=9)
    image, boxes, _ = _squeeze(np.random.default_rng(1), photo.image, photo.boxes, [])
    assert image.shape == photo.image.shape
    inside = np.zeros((240, 320), np.uint8)
    for box in boxes:  # the tiles' outlines moved with them: light faces inside
        cv2.fillConvexPoly(inside, np.round(box).astype(np.int32), 1)
    grey = image.mean(axis=2)
    assert grey[inside == 1].mean() > grey[inside == 0].mean() + 30
    ground = np.full((240, 320, 3), 40, np.float32)
    _palm(np.random.default_rng(2), ground, [np.array([160.0, 120.0])], 30.0)
    skin = ground.mean(axis=2) > 100
    ys, xs = np.nonzero(skin)
    assert skin.sum() > 2000  # a palm and fingers, around the tiles
    assert np.hypot(xs.mean() - 160, ys.mean() - 120) < 3 * 30
    assert ground[~skin].mean() < 60


def _one_on_another() -> object:
    """A tile (3-5, upright) with another (1-2, across) lying on its 5 half."""
    from cf.photo.synth import SynthPhoto
    from cf.tiles import Tile

    lower = np.array([[100, 100], [140, 100], [140, 180], [100, 180]], np.float64)
    upper = np.array([[80, 145], [80, 185], [160, 185], [160, 145]], np.float64)
    image = np.full((240, 320, 3), 200, np.uint8)
    return SynthPhoto(image, [Tile.of(3, 5), Tile.of(1, 2)], [lower, upper], 9, [(3, 5), (1, 2)])


def test_tiles_are_labelled_in_the_order_drawn_a_later_one_over_an_earlier():
    """Of a tile under another, the part covered is the upper tile's (its rim background,
    its face face), never the lower's; the rest of the lower tile's face is still face."""
    from cf.photo.labels import covered

    photo = _one_on_another()
    labels = label_map(photo, 320, 240)
    alone = label_map(type(photo)(photo.image, [], photo.boxes[1:], 9), 320, 240)
    upper = np.zeros((240, 320), np.uint8)
    cv2.fillConvexPoly(upper, np.round(photo.boxes[1]).astype(np.int32), 1)
    under = upper.astype(bool)
    assert (labels[under] == alone[under]).all() and (labels[under] == BACKGROUND).any()
    assert (labels[110:135, 108:132] == FACE).all()  # the 3 half, uncovered
    first, second = covered(photo)
    assert first[0] == 0.0 and 0.8 < first[1] < 0.95 and second == (0.0, 0.0)


def test_a_half_under_another_tile_is_no_half_to_read():
    from cf.photo.labels import half_crops

    for seed in range(5):
        labels = [n for _, n in half_crops(np.random.default_rng(seed), _one_on_another(), 32)]
        assert 5 not in labels and {3, 1, 2, -1} <= set(labels)


def test_a_pile_lays_tiles_partly_on_others():
    from cf.photo.labels import covered

    shares = [max(s) for seed in range(10) for s in covered(render_family(seed, "pile"))]
    assert any(s > 0.5 for s in shares) and any(0 < s < 0.3 for s in shares)


def test_mixed_photos_show_printed_pictures_as_big_as_a_tile_where_a_tile_would_lie(
    monkeypatch,
):
    """Game boards and boxes print dominoes the size of a tile, in rows: the training set
    has them in the place of one of the hand's tiles (drawn first, so tiles lie over them),
    and labels them as no tile (background)."""
    from cf.photo import scenes

    drawn: list[np.ndarray] = []
    real = scenes._printed

    def spy(rng, image, centre, size, style, angle=None):  # type: ignore[no-untyped-def]
        box = real(rng, image, centre, size, style, angle)
        if angle is not None:  # in the hand's place (the others are turned at random)
            drawn.append(box)
        return box

    monkeypatch.setattr(scenes, "_printed", spy)
    found = 0
    for seed in range(80):
        drawn.clear()
        photo = render_family(seed, "mixed", size=(320, 240))
        if not drawn or not photo.boxes:
            continue
        width = float(np.median([np.linalg.norm(b[1] - b[0]) for b in photo.boxes]))
        labels = label_map(photo, 320, 240)
        for box in drawn:
            assert np.linalg.norm(box[1] - box[0]) >= 0.8 * width
            x, y = np.round(np.asarray(box).mean(axis=0)).astype(int)
            inside = [
                b
                for b in photo.boxes
                if cv2.pointPolygonTest(b.astype(np.float32), (float(x), float(y)), False) >= 0
            ]
            if 0 <= x < 320 and 0 <= y < 240 and not inside:
                assert labels[y, x] == BACKGROUND
                found += 1
    assert found >= 3


def test_tiles_that_only_touch_cover_nothing():
    from cf.photo.labels import covered
    from cf.photo.synth import SynthPhoto
    from cf.tiles import Tile

    left = np.array([[100, 100], [140, 100], [140, 180], [100, 180]], np.float64)
    right = left + np.array([40.0, 0.0])
    photo = SynthPhoto(
        np.zeros((240, 320, 3), np.uint8),
        [Tile.of(1, 2), Tile.of(3, 4)],
        [left, right],
        9,
        [(1, 2), (3, 4)],
    )
    assert covered(photo) == [(0.0, 0.0), (0.0, 0.0)]


def test_a_pile_keeps_its_tiles_in_the_frame():
    for seed in range(12):
        photo = render_family(seed, "pile", size=(640, 480))
        slack = 0.05 * 480 + 2  # the family's camera tilts the photo a little
        for box in photo.boxes:
            assert (box >= -slack).all() and (box[:, 0] <= 640 + slack).all()
            assert (box[:, 1] <= 480 + slack).all()


def test_over_exposure_whitens_the_face_but_never_a_halfs_pips():
    from cf.photo import scenes

    white, grey, black = (235.0, 235.0, 235.0), (130.0, 130.0, 130.0), (25.0, 25.0, 25.0)
    # A grey 12 on a white face at a gain of 2.4 clips to the face's white: lowered until
    # it stands SEEN apart again, however the colour cast tints it.
    for cast in (None, np.array([1.12, 1.1, 0.9], np.float32)):
        gain = scenes._readable_gain(2.4, (white, [grey]), cast)
        assert 1.0 <= gain < 2.4
        tint = np.ones(3) if cast is None else cast.astype(np.float64)
        for lit in (1.0, 1.1, 1.2, scenes.LIT):  # the light falls on pip and face alike
            face = np.minimum(255, np.array(white) * tint * gain * lit)
            pip = np.minimum(255, np.array(grey) * tint * gain * lit)
            assert np.linalg.norm(face - pip) >= scenes.SEEN
    # Black pips stay black however bright the face: the photo is as over-exposed as drawn.
    assert scenes._readable_gain(2.4, (white, [black]), None) == 2.4
    assert scenes._readable_gain(0.45, (white, [grey]), None) == 0.45


@pytest.mark.parametrize("seed", [910005, 910099])
def test_an_over_exposed_photo_shows_the_pips_its_labels_count(seed):
    # Each seed drew a gain of 2.4 over grey 12s that became the face's white (910099's
    # under the brightest light): the label said 12 where the photo showed a blank half.
    photo = render_family(seed, "exposure")
    twelves = [k for k, h in enumerate(photo.halves) if 12 in h]
    assert twelves, "the seed no longer draws a 12"
    for k in twelves:
        box = photo.boxes[k]
        first = photo.halves[k][0] == 12  # corners 0-1 are at the first half's end
        end = box[:2].mean(axis=0) if first else box[2:].mean(axis=0)
        centre = (box.mean(axis=0) + end) / 2  # the 12 half's middle
        x, y = np.round(centre).astype(int)
        r = max(3, int(0.25 * np.linalg.norm(box[1] - box[0])))
        patch = photo.image[y - r : y + r, x - r : x + r].reshape(-1, 3).astype(np.float64)
        face = np.percentile(patch, 95, axis=0)
        assert np.linalg.norm(face - patch, axis=1).max() >= 60  # some pip shows
