"""The photo reader's own BGR to L*a*b* conversion (cf/photo/lab.py) is OpenCV's, to the bit:
it is there only to spare the 0.15 s OpenCV spends building its Lab tables on first use."""

from __future__ import annotations

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from cf.photo.lab import bgr_to_lab  # noqa: E402


def test_every_colour_converts_as_opencv_converts_it():
    """All 2^24 colours, in 16 slices of 1024 x 1024: not one channel of one differs."""
    code = np.arange(1 << 24, dtype=np.uint32).reshape(4096, 4096)
    for rows in range(0, 4096, 1024):
        part = code[rows : rows + 1024]
        bgr = np.stack([(part >> 16) & 255, (part >> 8) & 255, part & 255], axis=-1)
        bgr = bgr.astype(np.uint8)
        mine = bgr_to_lab(bgr)
        assert mine.dtype == np.uint8 and mine.shape == bgr.shape
        differ = np.any(mine != cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB), axis=-1)
        assert not differ.any(), f"{int(differ.sum())} colours differ, e.g. {bgr[differ][:3]}"


@pytest.mark.parametrize("shape", [(1, 1), (1, 7), (5, 1), (179, 307)])
def test_any_image_shape_and_a_view(shape):
    """Odd shapes, and a strided view of a bigger image, as the reader passes them."""
    rng = np.random.default_rng(len(shape) + shape[0])
    image = rng.integers(0, 256, (*shape, 3), dtype=np.uint8)
    assert np.array_equal(bgr_to_lab(image), cv2.cvtColor(image, cv2.COLOR_BGR2LAB))
    big = rng.integers(0, 256, (2 * shape[0] + 1, 3 * shape[1] + 2, 3), dtype=np.uint8)
    view = big[1::2, 2::3]
    expected = cv2.cvtColor(np.ascontiguousarray(view), cv2.COLOR_BGR2LAB)
    assert np.array_equal(bgr_to_lab(view), expected)


def test_the_reader_never_asks_opencv_for_lab(monkeypatch):
    """OpenCV's first Lab conversion builds tables for about 0.13 s of a process's CPU: the
    whole reader, networks and checks included, converts with cf.photo.lab instead."""
    from cf.photo import combined
    from cf.photo.scenes import render_family

    lab_codes = {cv2.COLOR_BGR2Lab, cv2.COLOR_RGB2Lab, cv2.COLOR_BGR2Luv, cv2.COLOR_RGB2Luv}
    convert = cv2.cvtColor

    def guarded(image, code, *args, **kwargs):
        assert code not in lab_codes, "cv2.cvtColor to Lab: use cf.photo.lab.bgr_to_lab"
        return convert(image, code, *args, **kwargs)

    monkeypatch.setattr(cv2, "cvtColor", guarded)
    photo = render_family(3, "colour_body", size=(640, 480), count=4)
    assert combined.read_hand(photo.image, photo.top).reads
