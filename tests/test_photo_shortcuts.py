"""Shortcuts the photo reader takes for speed give exactly what the plain computation gives
(bench/README.md has what each saves): the lighting surface on a row and a column, the face
measured along many lines at once, an opening computed only around what is set, the median
colour a channel at a time, the face beside a divider looked for at nine points at once,
pieces of a bar joined after a test of every pair at once."""

from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cf.photo import dividers  # noqa: E402
from cf.photo.dividers import Divider, _face_both_sides  # noqa: E402
from cf.photo.faces import _lighting, median_ab  # noqa: E402
from cf.photo.missed import _opened  # noqa: E402
from cf.photo.outlines import _edges  # noqa: E402


def _grid_surface(c: np.ndarray, h: int, w: int) -> np.ndarray:
    """The quadratic surface on two whole grids, as the reader first computed it."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xs, ys = xx / w - 0.5, yy / h - 0.5
    return c[0] + c[1] * xs + c[2] * ys + c[3] * xs * xs + c[4] * xs * ys + c[5] * ys * ys


@pytest.mark.parametrize("shape", [(768, 1024), (1024, 683), (17, 16)])
def test_the_lighting_surface_is_the_one_on_whole_grids(shape, monkeypatch):
    rng = np.random.default_rng(shape[0])
    light = (rng.random(shape) * 60 + np.linspace(80, 160, shape[1])[None, :]).astype(np.float32)
    fitted = []
    real_lstsq = np.linalg.lstsq

    def spy(a, b, rcond=None):
        out = real_lstsq(a, b, rcond=rcond)
        fitted.append(out[0].astype(np.float32))
        return out

    monkeypatch.setattr(np.linalg, "lstsq", spy)
    surface = _lighting(light)
    assert surface.dtype == np.float32 and surface.shape == shape
    assert np.array_equal(surface, _grid_surface(fitted[-1], *shape))


def test_lines_measured_together_end_where_each_alone_ends():
    rng = np.random.default_rng(3)
    light = np.full((200, 300), 200, np.float32)
    light[:, 180:] = 120  # the face ends at x = 180 on every line
    light += rng.normal(0, 4, light.shape).astype(np.float32)
    mask = np.full(light.shape, 255, np.float32)
    mask[150:] = 0  # ... or where the region ends
    starts = np.array([[20.0 + 3 * i, 30.0 + 14 * i] for i in range(9)])
    for d in (np.array([1.0, 0.0]), np.array([0.6, 0.8]), np.array([0.0, -1.0])):
        together = _edges(light, mask, starts, d, 2.5, 250.0)
        alone = [float(_edges(light, mask, s[None], d, 2.5, 250.0)[0]) for s in starts]
        assert together.tolist() == alone
    assert _edges(light, mask, starts, d, 5.0, 5.0).tolist() == [5.0] * 9


def test_the_opening_around_what_is_set_is_the_whole_opening():
    rng = np.random.default_rng(7)
    for _ in range(60):
        h, w = (int(v) for v in rng.integers(20, 260, 2))
        image = np.zeros((h, w), np.uint8)
        for _ in range(int(rng.integers(0, 5))):
            centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            axes = (int(rng.integers(1, 50)), int(rng.integers(1, 50)))
            cv2.ellipse(image, centre, axes, float(rng.integers(0, 180)), 0, 360, 1, -1)
        image[rng.random((h, w)) < 0.02] = 1
        k = 2 * int(rng.integers(1, 25)) + 1
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        assert np.array_equal(_opened(image, kernel), cv2.morphologyEx(image, 2, kernel))


def test_the_median_colour_a_channel_at_a_time_is_the_column_median():
    rng = np.random.default_rng(11)
    for trial in range(300):
        h, w = (int(v) for v in rng.integers(1, 40, 2))
        ab = rng.normal(0, 20, (h, w, 2)).astype(np.float32)
        if trial % 2:
            ab = np.round(ab)  # ties, as Lab's integer values make them
        where = rng.random((h, w)) < rng.random()
        if where.any():
            expected = np.median(ab[where], axis=0)
            got = median_ab(ab, where)
            assert got.dtype == expected.dtype and np.array_equal(got, expected)


def _face_both_sides_point_by_point(c, u, length, reg):
    """The check as first written, one point at a time."""
    hgt, wid = reg.shape[:2]
    v = np.array([-u[1], u[0]])
    for sign in (-1, 1):
        hits = total = 0
        for t in (0.3, 0.5, 0.7):
            for along in (-0.3, 0.0, 0.3):
                px, py = c + sign * v * t * length + u * along * length
                ix, iy = round(float(px)), round(float(py))
                total += 1
                if 0 <= iy < hgt and 0 <= ix < wid and reg[iy, ix]:
                    hits += 1
        if hits < 0.8 * total:
            return False
    return True


def test_the_face_beside_a_divider_is_found_as_point_by_point():
    rng = np.random.default_rng(13)
    reg = np.zeros((120, 160), np.uint8)
    cv2.ellipse(reg, (80, 60), (70, 45), 20.0, 0, 360, 1, -1)
    seen = set()
    for _ in range(2000):
        c = rng.uniform(-10, 170, 2)
        theta = rng.uniform(0, np.pi)
        u = np.array([np.cos(theta), np.sin(theta)])
        length = float(rng.choice([rng.uniform(5, 90), 20.0]))
        expected = _face_both_sides_point_by_point(c, u, length, reg)
        assert _face_both_sides(c, u, length, reg) is expected
        seen.add(expected)
    assert seen == {True, False}


def _bar(x: float, y: float, angle: float, length: float, thick: float) -> Divider:
    u = np.array([np.cos(angle), np.sin(angle)])
    return Divider(np.array([x, y]), u, length, thick, 1, 1.0)


_bars = st.lists(
    st.builds(
        _bar,
        st.floats(0, 60),
        st.floats(0, 60),
        # Mostly one direction (pieces of one bar), a few others.
        st.one_of(st.just(0.0), st.floats(-0.3, 0.3), st.floats(0, 3.2)),
        st.floats(2, 30),
        st.floats(1, 5),
    ),
    min_size=0,
    max_size=9,
)


@settings(max_examples=300, deadline=None)
@given(_bars)
def test_the_pairs_tested_at_once_hold_every_pair_that_can_join(bars):
    ink = np.ones((80, 80), np.float32)  # ink everywhere: the geometry decides
    ok = dividers._may_join(bars)
    for i, a in enumerate(bars):
        for j in range(len(bars)):
            if j > i and dividers._can_join(a, bars[j], ink):
                assert ok[i, j]
            if j <= i:
                assert not ok[i, j]


def _join_every_pair(found: list[Divider], ink: np.ndarray) -> list[Divider]:
    """Pieces joined as the reader first did: every pair tried, in order, after each join."""
    joined = True
    while joined:
        joined = False
        for i, a in enumerate(found):
            for j in range(i + 1, len(found)):
                if dividers._can_join(a, found[j], ink):
                    merged = dividers._merged(a, found[j])
                    found = [f for k, f in enumerate(found) if k not in (i, j)] + [merged]
                    joined = True
                    break
            if joined:
                break
    return found


@settings(max_examples=200, deadline=None)
@given(_bars, st.integers(0, 2**32 - 1))
def test_pieces_join_as_when_every_pair_was_tried(bars, seed):
    ink = np.random.default_rng(seed).random((80, 80)).astype(np.float32)
    got = dividers._join_pieces(list(bars), ink)
    want = _join_every_pair(list(bars), ink)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g.center, w.center)
        assert (g.length, g.thickness) == (w.length, w.thickness)
