"""A worn pip (cf/photo/pips.py ``WORN``, cf/photo/merge.py ``unsettled``): a half whose
count leaves its layout's centre empty, with a faint mark there, may be the next odd number
with its centre pip worn away. The classical reader doubts it, and no reading settles the
doubt."""

from __future__ import annotations

import math

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from cf.photo import combined, merge, pips, reader  # noqa: E402
from cf.photo.scenes import render_family  # noqa: E402
from cf.tiles import Tile  # noqa: E402

#: A hand of four read exactly, its third tile 4-2 (both halves' centres empty; 5-2 and
#: 4-3 are not in the hand).
SEED, WORN_TILE = 50, 2


def _photo():
    photo = render_family(SEED, "ivory", size=(640, 480), count=4, top=9)
    assert photo.tiles[WORN_TILE] == Tile(4, 2)
    return photo


def _worn(image, box, left):
    """``image`` with a pip's trace at the centre of the first half (by the outline's
    corners) of the tile at ``box``: ``left`` of a black pip's contrast against the face."""
    corners = np.asarray(box, float)
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners).astype(np.int32), 1)
    face = np.median(image[(inside > 0) & (image.mean(axis=2) > 150)], axis=0)
    sides = [corners[(i + 1) % 4] - corners[i] for i in range(4)]
    along = max(sides, key=lambda side: float(np.linalg.norm(side)))
    width = min(float(np.linalg.norm(side)) for side in sides)
    colour = tuple(float(c) for c in face + left * (np.full(3, 20.0) - face))
    x, y = corners.mean(axis=0) - 0.25 * along
    out = image.copy()
    cv2.circle(out, (round(x), round(y)), max(2, round(0.08 * width)), colour, -1, cv2.LINE_AA)
    return out


def test_a_faint_mark_at_an_empty_centre_is_measured():
    """A 2's centre (the two pips on a diagonal) holds the ink of a faint disc there, and
    none where the face is clean; a layout with a pip near its centre is not looked at."""
    sub = np.zeros((100, 100), np.float32)
    med = math.pi * 8.0**2
    two = np.array([[25.0, 25.0], [75.0, 75.0]])
    for x, y in two:
        cv2.circle(sub, (int(x), int(y)), 8, 4.0, -1)
    assert pips._centre_mark(sub, two, med) == pytest.approx(0.0)
    worn = sub.copy()
    cv2.circle(worn, (50, 50), 8, 0.3, -1)
    assert pips._centre_mark(worn, two, med) == pytest.approx(0.3, abs=0.02)
    close = np.array([[40.0, 40.0], [60.0, 60.0]])  # within 2.2 radii of the centre
    assert pips._centre_mark(worn, close, med) == 0.0


@pytest.mark.parametrize("left", [0.05, 0.065, 0.08])
def test_a_worn_centre_pip_is_a_doubt_not_one_short(left):
    """A 4-2 with a trace of a pip (5-8% of its ink) at the centre of its 4 is a 5-2
    worn as much as a 4-2: the photo is refused with both in mind, never read a pip short
    (before, it was read as 4-2). From about 10% to 20% it is refused too, where the
    halves net had counted the trace (read as 5-2 before): no reading settles the doubt."""
    photo = _photo()
    reading = combined.read_hand(_worn(photo.image, photo.boxes[WORN_TILE], left), 9)
    assert not reading.ok
    assert sorted(reading.tiles) == sorted(t for i, t in enumerate(photo.tiles) if i != WORN_TILE)
    [doubt] = [u for u in reading.unreadable if u.candidates]
    assert pips.WORN in doubt.reason.split("; ")
    assert doubt.candidates == [Tile(4, 2), Tile(5, 2)]


def test_a_clean_centre_or_a_whole_pip_reads():
    """No trace (2% is the face's own noise): the hand is read. A pip as dark as the others
    (from 60% of their contrast) is counted; one at 30-40% is a faint blob whose ink
    reaches the detection threshold, no trace: a pip the count left out, which the nets
    read. Read with it, both."""
    photo = _photo()
    assert sorted(combined.read_hand(photo.image, 9).tiles) == sorted(photo.tiles)
    faint = combined.read_hand(_worn(photo.image, photo.boxes[WORN_TILE], 0.02), 9)
    assert faint.ok and sorted(faint.tiles) == sorted(photo.tiles)
    expected = [Tile(5, 2) if i == WORN_TILE else t for i, t in enumerate(photo.tiles)]
    for left in (0.3, 0.4, 0.6, 1.0):
        seen = combined.read_hand(_worn(photo.image, photo.boxes[WORN_TILE], left), 9)
        assert seen.ok and sorted(seen.tiles) == sorted(expected)


def test_no_reading_settles_a_worn_pip():
    """A net that reads the even count saw no pip, which is no evidence that none was; one
    that reads the odd count may be counting the speck of dirt that raised the doubt (an
    independent review's 2-1 with a speck by the 2's centre, read as 3-1). Other doubts are
    settled by the nets' reading over them."""
    box = [(0, 0), (10, 0), (10, 20), (0, 20)]
    worn = reader.Unreadable(box, [Tile(4, 2), Tile(5, 2)], f"a faint blob; {pips.WORN}")
    assert merge.unsettled(worn)
    for tile in (Tile(4, 2), Tile(5, 2)):
        assert not merge.accounted(worn, [reader.TileRead(tile, 1.0, box)])
    other = reader.Unreadable(box, [Tile(4, 2), Tile(5, 2)], "a faint blob")
    assert not merge.unsettled(other)
    assert merge.accounted(other, [reader.TileRead(Tile(5, 2), 1.0, box)])
    over = reader.Unreadable(box, [], "10 pips, more than the set has", pips=10)
    assert merge.unsettled(over)


def _half(count_layout, centre_ink):
    """An upright half's ink map (128 x 128, 1.0 at the detection threshold): black pips
    (4.0) at ``count_layout``'s places, ``centre_ink`` over a pip's disc at the centre."""
    from cf.photo.synth import LAYOUTS

    ink = np.zeros((128, 128), np.float32)
    for x, y in LAYOUTS[count_layout]:
        cv2.circle(ink, (round(14 + 100 * x), round(14 + 100 * y)), 10, 4.0, -1)
    if centre_ink:
        cv2.circle(ink, (64, 64), 10, centre_ink, -1)
    return ink, np.zeros((128, 128, 2), np.float32)


def test_a_six_with_a_mark_is_in_doubt_only_where_the_set_has_a_seven():
    """A 6 with a trace at its centre may be a worn 7 in a double-nine set; in a double-six
    set there is no 7, and the 6 is read."""
    ink, ab = _half(6, 0.5)
    rect = (0, 0, 128, 128)
    assert pips.WORN in pips._read_half(ink, ab, rect, 9).reason
    six = pips._read_half(ink, ab, rect, 6)
    assert six.count == 6 and pips.WORN not in six.reason
    clean, ab = _half(6, 0.0)
    assert pips.WORN not in pips._read_half(clean, ab, rect, 9).reason


def test_a_half_in_doubt_for_another_reason_is_not_looked_at_for_a_worn_pip():
    """Beside pips of different sizes, or a blob that is no pip, the count is no even layout
    to look into (a 12 read as 6, its pips run together): the mark at the centre raises no
    worn-pip doubt; a faint blob beside the pips (a pip worn less leaves one) does not stop
    it."""
    rect = (0, 0, 128, 128)
    ink, ab = _half(4, 0.5)
    cv2.circle(ink, (36, 36), 16, 4.0, -1)  # one pip much bigger than the others
    half = pips._read_half(ink, ab, rect, 9)
    assert half.reason == "pips of different sizes"
    ink, ab = _half(4, 0.5)
    cv2.circle(ink, (64, 14), 8, 0.7, -1)  # a faint blob between two pips
    half = pips._read_half(ink, ab, rect, 9)
    assert "a faint blob" in half.reason and pips.WORN in half.reason


def test_a_scratch_or_a_speck_smaller_than_a_pip_is_no_mark():
    """The centre is measured in the ink opened as pips are found: a thin scratch across it
    or a speck under the smallest pip's size is wiped out."""
    ink, _ab = _half(4, 0.0)
    cents = np.array(
        [
            [14 + 100 * x, 14 + 100 * y]
            for x, y in ((0.22, 0.22), (0.22, 0.78), (0.78, 0.22), (0.78, 0.78))
        ]
    )
    med = math.pi * 10.0**2
    scratch = ink.copy()
    cv2.line(scratch, (40, 40), (88, 88), 1.0, 2)
    assert pips._centre_mark(scratch, cents, med) < 0.05
    speck = ink.copy()
    cv2.circle(speck, (64, 64), 2, 1.0, -1)
    assert pips._centre_mark(speck, cents, med) < 0.05
    worn = ink.copy()
    cv2.circle(worn, (64, 64), 10, 0.3, -1)
    assert pips._centre_mark(worn, cents, med) > 0.2


def test_pips_run_together_are_measured_for_the_halves_to_compare():
    """A six whose columns of three pips blur into two bars has no clean pip to measure:
    its pips' size is the one its bars were split by, so beside a one of the same pips the
    tile is read, not doubted for "pips of different sizes on the two halves" (a half
    with no pip measured compared as size 0)."""
    rect = (0, 0, 128, 128)
    six = np.zeros((128, 128), np.float32)
    for x in (40, 88):
        for y in (40, 64, 88):  # touching: each column one blob
            cv2.circle(six, (x, y), 12, 4.0, -1)
    one = np.zeros((128, 128), np.float32)
    cv2.circle(one, (64, 64), 12, 4.0, -1)
    ab = np.zeros((128, 128, 2), np.float32)
    half = pips._read_half(six, ab, rect, 9)
    assert half.count == 6 and half.pip_area == pytest.approx(math.pi * 12**2, rel=0.3)
    tile, _, _, reason = pips._combine([half, pips._read_half(one, ab, rect, 9)], 9)
    assert tile == Tile(6, 1) and "two halves" not in reason
    # Pips split by a size the other half's are not (a 6 counted 4, its bars split in
    # two by their width): in doubt, where two measured halves would not be.
    smaller = np.zeros((128, 128), np.float32)
    cv2.circle(smaller, (64, 64), 9, 4.0, -1)
    _, _, _, reason = pips._combine([half, pips._read_half(smaller, ab, rect, 9)], 9)
    assert reason == "pips of different sizes on the two halves"
    four = np.zeros((128, 128), np.float32)
    for x in (40, 88):
        for y in (40, 88):
            cv2.circle(four, (x, y), 12, 4.0, -1)
    measured = pips._read_half(four, ab, rect, 9)
    assert not measured.run_together
    _, _, _, reason = pips._combine([measured, pips._read_half(smaller, ab, rect, 9)], 9)
    assert "two halves" not in reason
    # Two columns of two run together are no 4 (a 4's pips are at the corners): a 6 split
    # wrong, in doubt as before.
    wrong = np.zeros((128, 128), np.float32)
    for x in (40, 88):
        for y in (52, 76):
            cv2.circle(wrong, (x, y), 12, 4.0, -1)
    four_split = pips._read_half(wrong, ab, rect, 9)
    assert four_split.count == 4 and not four_split.run_together
    _, _, _, reason = pips._combine([four_split, pips._read_half(one, ab, rect, 9)], 9)
    assert "two halves" in reason
