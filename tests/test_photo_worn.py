"""A worn pip (cf/photo/pips.py ``WORN``, cf/photo/combined.py ``_settles``): a half whose
count leaves its layout's centre empty, with a faint mark there, may be the next odd number
with its centre pip worn away. The classical reader doubts it, and no reading settles the
doubt but one that counts the pip."""

from __future__ import annotations

import math

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from cf.photo import combined, pips, reader  # noqa: E402
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


@pytest.mark.parametrize("left", [0.04, 0.06, 0.075])
def test_a_worn_centre_pip_is_a_doubt_not_one_short(left):
    """A 4-2 with a trace of a pip (4-7.5% of its ink) at the centre of its 4 is a 5-2
    worn as much as a 4-2: the photo is refused with both in mind, never read a pip short
    (before, it was read as 4-2: the readers counted such a pip from about 12%)."""
    photo = _photo()
    reading = combined.read_hand(_worn(photo.image, photo.boxes[WORN_TILE], left), 9)
    assert not reading.ok
    assert sorted(reading.tiles) == sorted(t for i, t in enumerate(photo.tiles) if i != WORN_TILE)
    [doubt] = [u for u in reading.unreadable if u.candidates]
    assert pips.WORN in doubt.reason.split("; ")
    assert doubt.candidates == [Tile(4, 2), Tile(5, 2)]


def test_a_clean_centre_or_a_pip_seen_reads():
    """No trace (2% is the face's own noise): the hand is read; a pip plain enough for
    the readers to count (40%): read with it."""
    photo = _photo()
    assert sorted(combined.read_hand(photo.image, 9).tiles) == sorted(photo.tiles)
    faint = combined.read_hand(_worn(photo.image, photo.boxes[WORN_TILE], 0.02), 9)
    assert faint.ok and sorted(faint.tiles) == sorted(photo.tiles)
    seen = combined.read_hand(_worn(photo.image, photo.boxes[WORN_TILE], 0.4), 9)
    expected = [Tile(5, 2) if i == WORN_TILE else t for i, t in enumerate(photo.tiles)]
    assert seen.ok and sorted(seen.tiles) == sorted(expected)


def test_a_reading_of_the_same_count_does_not_settle_a_worn_pip():
    """The classical reader's own count is its first guess: a net that reads that count
    saw no pip there, which is no evidence that none was; one that reads another tile saw
    more (the pip, or pips the classical reader lost). Other doubts are settled by any
    reading, a half with more pips than the set has by none."""
    box = [(0, 0), (10, 0), (10, 20), (0, 20)]
    worn = reader.Unreadable(box, [Tile(4, 2), Tile(5, 2)], f"a faint blob; {pips.WORN}")
    assert not combined._settles(worn, Tile(4, 2))
    assert combined._settles(worn, Tile(5, 2))
    assert combined._settles(worn, Tile(6, 2))
    other = reader.Unreadable(box, [Tile(4, 2), Tile(5, 2)], "a faint blob")
    assert combined._settles(other, Tile(4, 2))
    over = reader.Unreadable(box, [], "10 pips, more than the set has", pips=10)
    assert not combined._settles(over, Tile(9, 2))
    # The nets' whole-photo reading over it accounts for it only by a settling tile.
    assert not combined._accounted(worn, [reader.TileRead(Tile(4, 2), 1.0, box)])
    assert combined._accounted(worn, [reader.TileRead(Tile(5, 2), 1.0, box)])
