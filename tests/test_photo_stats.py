"""cf/photo/stats.py gives what ``np.median`` and ``np.percentile`` give, to the bit,
without importing ``numpy.ma`` (0.01-0.03 s of every ``cf score --photo`` process)."""

from __future__ import annotations

import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")

from cf.photo.stats import median, percentile  # noqa: E402

#: The percentiles the reader asks for, and others.
QS = (0, 40, 70, 75, 90, 98, 99, 99.5, 100, 12.5, 33.3, 50, 66.7)


def _same(ours, theirs) -> bool:
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    return (
        ours.dtype == theirs.dtype
        and ours.shape == theirs.shape
        and ours.tobytes() == theirs.tobytes()
    )


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.int32, np.int64])
def test_every_value_is_numpys_to_the_bit(dtype):
    rng = np.random.default_rng(7)
    for size in [1, 2, 3, 4, 5, 7, 10, 99, 100, 101, 640, 2001]:
        for trial in range(4):
            if np.issubdtype(dtype, np.integer):
                values = rng.integers(0, 256, size).astype(dtype)
            elif trial % 2:
                values = (rng.random(size) * 300 - 50).astype(dtype)
            else:  # as Lab values are: whole numbers held as floats
                values = rng.integers(0, 256, size).astype(dtype)
            for q in QS:
                assert _same(percentile(values, q), np.percentile(values, q)), (size, q)
    # Lists, as the reader passes some.
    lengths = [float(v) for v in rng.random(9) * 100]
    assert _same(percentile(lengths, 75), np.percentile(lengths, 75))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_along_the_last_axis_as_numpy(dtype):
    rng = np.random.default_rng(3)
    for rows, cols in [(1, 1), (5, 4), (9, 37), (40, 128)]:
        values = (rng.random((rows, cols)) * 255).astype(dtype)
        for q in (75, 90, 50):
            assert _same(percentile(values, q, axis=1), np.percentile(values, q, axis=1))
            assert _same(percentile(values, q, axis=-1), np.percentile(values, q, axis=-1))
    # A 2-D array with no axis: all its values.
    values = (rng.random((6, 7)) * 255).astype(dtype)
    assert _same(percentile(values, 40), np.percentile(values, 40))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.int64])
def test_every_median_is_numpys_to_the_bit(dtype):
    rng = np.random.default_rng(11)
    for size in [1, 2, 3, 4, 5, 8, 99, 100, 1001]:
        values = (rng.random(size) * 255).astype(dtype)
        assert _same(median(values), np.median(values)), size
        grid = (rng.random((size, 3)) * 255).astype(dtype)  # pixels x channels
        assert _same(median(grid, axis=0), np.median(grid, axis=0))
        assert _same(median(grid, axis=1), np.median(grid, axis=1))
        assert _same(median(grid), np.median(grid))
        image = (rng.random((size, 4, 3)) * 255).astype(dtype)
        assert _same(median(image, axis=(0, 1)), np.median(image, axis=(0, 1)))
    assert _same(median([3.0, 1.0, 2.0, 10.0]), np.median([3.0, 1.0, 2.0, 10.0]))


def test_signed_zeros_infinities_and_numpy_numbers_as_numpy():
    """The last value is taken as numpy takes it (weighted from index -1: a -0.0 stays
    -0.0), and a q given as a numpy number makes the result float64 as numpy's."""
    for values in ([-0.0], [-0.0, 0.0], [0.0, -0.0, -0.0], [np.inf, 1.0], [-np.inf, 2.0]):
        for dtype in (np.float32, np.float64):
            arr = np.array(values, dtype)
            with np.errstate(invalid="ignore"):  # inf - inf, in numpy's and in ours
                for q in (0, 50, 99.5, 100):
                    assert _same(percentile(arr, q), np.percentile(arr, q)), (values, q)
                assert _same(median(arr), np.median(arr)), values
    arr = np.array([1.5, 2.25, 7.0, 3.0], np.float32)
    for q in (np.float64(75), np.float32(75), np.int64(75)):
        assert _same(percentile(arr, q), np.percentile(arr, q)), type(q)


def test_nan_and_bad_calls():
    values = np.array([1.0, np.nan, 3.0], np.float32)
    assert np.isnan(percentile(values, 50))
    rows = np.array([[1.0, 2.0], [np.nan, 1.0]])
    assert _same(percentile(rows, 50, axis=1), np.percentile(rows, 50, axis=1))
    assert np.isnan(median(values))
    assert _same(median(rows, axis=1), np.median(rows, axis=1))
    with pytest.warns(RuntimeWarning):  # as numpy's: the mean of no values
        assert np.isnan(median(np.array([], np.float32)))
    with pytest.raises(IndexError):  # as numpy's
        percentile(np.array([]), 50)
    for q in (-1, 100.5):
        with pytest.raises(ValueError):  # as numpy's
            np.percentile(values, q)
        with pytest.raises(ValueError):
            percentile(values, q)
    grid = np.arange(12.0).reshape(3, 4)
    assert _same(percentile(grid, 75, axis=0), np.percentile(grid, 75, axis=0))


def test_reading_a_photo_does_not_import_numpy_ma():
    """What this saves: no part of the reader asks numpy for its masked arrays (numpy's
    median, percentile and unique do, on their first call)."""
    code = (
        "import sys, cv2\n"
        "from cf.photo import read_photo\n"
        "reading = read_photo('examples/photos/double-twelve-8-8-7-0.jpg', 12)\n"
        "assert reading.ok, reading\n"
        "print('numpy.ma' in sys.modules)\n"
    )
    root = __import__("pathlib").Path(__file__).parent.parent
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
