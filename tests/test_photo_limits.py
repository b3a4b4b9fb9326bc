"""Photos built to exhaust memory or time (issue 22 item 8): refused before decoding,
in bounded time and memory (real processes under an address-space limit)."""

from __future__ import annotations

import os
import struct
import zlib

import pytest
from hardening_helpers import assert_clean_failure, cf

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from cf.photo.limits import (  # noqa: E402
    MAX_PHOTO_BYTES,
    MAX_PIXELS,
    PhotoLimitError,
    check_pixels,
    image_size,
    read_photo_file,
)

#: Room for Python, OpenCV and numpy, far from the gigabytes a bomb would decode to.
MEMORY = 1_000_000_000


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png_bomb(w: int = 30000, h: int = 30000, rows: int = 64) -> bytes:
    """A grey 1-bit PNG that says it is ``w`` × ``h`` pixels, with its first rows of data:
    OpenCV allocates the whole picture (900 MB here) before it finds the data short."""
    row = b"\x00" * (1 + (w + 7) // 8)
    data = zlib.compress(row * rows, 9)
    head = _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0))
    return b"\x89PNG\r\n\x1a\n" + head + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def jpeg_bomb(w: int = 30000, h: int = 30000) -> bytes:
    """A small real JPEG whose frame header is changed to say ``w`` × ``h``."""
    ok, encoded = cv2.imencode(".jpg", np.zeros((16, 16, 3), np.uint8))
    assert ok
    data = bytearray(encoded.tobytes())
    at = data.index(b"\xff\xc0")
    data[at + 5 : at + 9] = struct.pack(">HH", h, w)
    return bytes(data)


def test_header_sizes():
    assert image_size(png_bomb(123, 45)) == (123, 45)
    assert image_size(jpeg_bomb(640, 480)) == (640, 480)
    _, bmp = cv2.imencode(".bmp", np.zeros((7, 9, 3), np.uint8))
    assert image_size(bmp.tobytes()) == (9, 7)
    assert image_size(b"not an image") is None
    assert image_size(b"\xff\xd8\xff") is None  # truncated: left to the decoder


@pytest.mark.parametrize("make", [png_bomb, jpeg_bomb], ids=["png", "jpeg"])
def test_too_many_pixels_are_refused_before_decoding(make):
    with pytest.raises(PhotoLimitError, match="megapixels"):
        check_pixels(make(), "bomb")
    check_pixels(make(4000, 3000), "phone photo")  # 12 MP: fine
    assert 7000 * 7000 <= MAX_PIXELS < 8000 * 8000


@pytest.mark.parametrize("make", [png_bomb, jpeg_bomb], ids=["png", "jpeg"])
def test_an_image_bomb_is_refused_in_bounded_memory(tmp_path, make):
    path = tmp_path / "bomb.img"
    path.write_bytes(make())
    proc = cf("score", "--photo", str(path), limit_memory=MEMORY)
    err = assert_clean_failure(proc, codes=(1,))
    assert "30000 × 30000 pixels" in err and "50 megapixels" in err


def test_an_endless_device_is_refused():
    proc = cf("score", "--photo", "/dev/zero", limit_memory=MEMORY)
    err = assert_clean_failure(proc, codes=(1,))
    assert "/dev/zero is not a regular file" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_does_not_block(tmp_path):
    fifo = tmp_path / "photo.jpg"
    os.mkfifo(fifo)
    proc = cf("score", "--photo", str(fifo))  # no writer: opening it must not wait
    err = assert_clean_failure(proc, codes=(1,))
    assert "is not a regular file" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_cf_add_photo_from_a_fifo_does_not_block(tmp_path):
    game = tmp_path / "g.yaml"
    game.write_text("players: [Ana, Ben]\nrounds: []\n")
    fifo = tmp_path / "hand.jpg"
    os.mkfifo(fifo)
    proc = cf("add", str(game), f"Ana=@{fifo}", "Ben=0")
    err = assert_clean_failure(proc, codes=(1,))
    assert "is not a regular file" in err
    assert game.read_text() == "players: [Ana, Ben]\nrounds: []\n"


def test_a_file_over_the_size_limit_is_read_no_further(tmp_path):
    path = tmp_path / "huge.jpg"
    with open(path, "wb") as fh:
        fh.truncate(MAX_PHOTO_BYTES + 10)  # sparse: costs no disk
    with pytest.raises(PhotoLimitError, match="MiB is too big"):
        read_photo_file(str(path))


def test_a_regular_photo_still_reads(tmp_path):
    path = tmp_path / "small.png"
    _, data = cv2.imencode(".png", np.zeros((10, 10, 3), np.uint8))
    path.write_bytes(data.tobytes())
    assert read_photo_file(str(path)) == data.tobytes()


def test_a_junk_image_gets_cfs_words_and_not_opencvs_log_lines(tmp_path):
    """OpenCV logs its decoder errors on stderr itself; cf silences them and says its own."""
    import subprocess
    import sys

    junk = tmp_path / "junk.gif"
    junk.write_bytes(b"GIF89a\x00\x00" + b"junk" * 8)
    run = subprocess.run(
        [sys.executable, "-m", "cf", "score", "--photo", str(junk)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    assert "not an image" in run.stderr and "[ERROR" not in run.stderr, run.stderr
