"""``cf score --photo`` (SPEC §9) on synthetic photos made on the fly, and on the real
photos in ../shared/photos when that folder is there."""

from __future__ import annotations

import builtins
import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from cf.photo import DEFAULT_MIN_CONFIDENCE, PhotoError, load_image, read_hand  # noqa: E402
from cf.photo.reader import read_hand as classical_read_hand  # noqa: E402
from cf.photo.synth import render_hand  # noqa: E402
from cf.tiles import Tile, hand_points  # noqa: E402

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
REAL = ROOT.parent / "shared" / "photos"

#: A clean synthetic hand the reader must get right: 11-6 and 5-1, double-twelve.
EASY = {"seed": 3, "size": (1024, 768), "difficulty": 0}


@pytest.fixture(scope="module")
def easy(tmp_path_factory):
    photo = render_hand(**EASY)
    path = tmp_path_factory.mktemp("photos") / "easy.png"
    cv2.imwrite(str(path), photo.image)
    return photo, path


def test_reads_a_clean_synthetic_hand(easy):
    photo, _ = easy
    reading = read_hand(photo.image, photo.top)
    assert reading.ok
    assert sorted(reading.tiles) == sorted(photo.tiles)
    assert all(0 <= r.confidence <= 1 for r in reading.reads)


def test_never_a_wrong_total_and_mostly_read_on_synthetic_hands():
    """Refusing is allowed; counting a wrong hand is not. And the reader must not get by
    on refusing: most of these hands (1-12 tiles, all three difficulty levels) are read."""
    right = 0
    for seed in range(6):
        photo = render_hand(seed, size=(640, 480), difficulty=seed % 3)
        reading = read_hand(photo.image, photo.top)
        if reading.ok:
            assert sorted(reading.tiles) == sorted(photo.tiles), seed
            right += 1
    assert right >= 4


@pytest.mark.parametrize(("seed", "layout"), [(2, "block"), (4, "row")])
def test_reads_touching_black_pip_double_six_tiles(seed, layout):
    """Ivory tiles with black pips, touching in a block or a row: split at their dividers."""
    photo = render_hand(
        seed, size=(640, 480), top=6, pip_style="black", layout=layout, count=6, difficulty=1
    )
    reading = read_hand(photo.image, 6)
    assert reading.ok, [u.reason for u in reading.unreadable]
    assert sorted(reading.tiles) == sorted(photo.tiles)


def test_cli_text_explain_and_json_keys(cli, easy):
    photo, path = easy
    truth = hand_points(photo.tiles)
    result = cli("score", "--photo", str(path), "--set", "12")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == str(truth)
    result = cli("score", "--photo", str(path), "--set", "12", "--explain")
    assert "11-6 = 17" in result.stdout
    result = cli("score", "--photo", str(path), "--set", "12", "--format", "json")
    data = json.loads(result.stdout)
    assert set(data) == {"photo", "tiles", "points", "reads"}
    assert data["photo"] == str(path) and data["points"] == truth
    for read in data["reads"]:
        assert set(read) == {"tile", "confidence", "box"}
        assert Tile.parse(read["tile"]) in photo.tiles
        assert len(read["box"]) == 4 and all(len(p) == 2 for p in read["box"])


def test_several_photos_give_a_list(cli, easy):
    _, path = easy
    result = cli("score", "--photo", str(path), str(path), "--set", "12", "-f", "json")
    data = json.loads(result.stdout)
    assert isinstance(data, list) and len(data) == 2


def test_several_photos_keep_one_object_each_in_order(cli, easy, tmp_path):
    """A file that is not an image keeps its place in the list (points null, the error
    said), so each object still lines up with the photo given; exit 1."""
    _, path = easy
    bad = tmp_path / "notes.jpg"
    bad.write_bytes(b"not an image at all")
    result = cli("score", "--photo", str(bad), str(path), "--set", "12", "-f", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [d["photo"] for d in data] == [str(bad), str(path)]
    assert data[0]["points"] is None and data[0]["tiles"] == [] and data[0]["reads"] == []
    assert "not an image" in data[0]["error"] and "not an image" in result.stderr
    assert data[1]["points"] == 23 and "error" not in data[1]
    alone = cli("score", "--photo", str(bad), "-f", "json")
    assert alone.exit_code == 1 and json.loads(alone.stdout)["points"] is None
    # JSON is the same in every language (SPEC §14); stderr is the reader's.
    spanish = cli("--lang", "es", "score", "--photo", str(bad), "-f", "json")
    assert json.loads(spanish.stdout)["error"] == json.loads(alone.stdout)["error"]
    assert "no es una imagen" in spanish.stderr


def test_write_annotated_says_why_it_could_not_write(tmp_path, monkeypatch, easy):
    """A name or folder that is no picture's says so; a good one the system refused (a
    full disk) is output that cannot be written (SPEC §7)."""
    from cf.photo.annotate import write_annotated

    photo, _ = easy
    reading = read_hand(photo.image, 12)
    with pytest.raises(PhotoError, match=r"use a \.png or \.jpg name"):
        write_annotated(str(tmp_path / "no" / "x.png"), photo.image, reading)
    monkeypatch.setattr(cv2, "imwrite", lambda *a, **k: False)
    with pytest.raises(PhotoError, match=r"^cannot write output: .*x\.png \(a full disk"):
        write_annotated(str(tmp_path / "x.png"), photo.image, reading)


def test_a_picture_that_cannot_be_written_leaves_the_reading_as_it_is(cli, easy, monkeypatch):
    """--annotate's picture failing to be written is said (exit 1), but the photo's
    reading is not replaced by that error."""
    import cf.photo.annotate
    from cf.i18n import Message

    def refuse(path, image, reading):
        raise PhotoError(Message("cannot write {path}", path=path))

    monkeypatch.setattr(cf.photo.annotate, "write_annotated", refuse)
    _, path = easy
    result = cli("score", "--photo", str(path), "--set", "12", "--annotate", "x.png", "-f", "json")
    assert result.exit_code == 1 and "Error: cannot write x.png" in result.stderr
    data = json.loads(result.stdout)
    assert data["points"] == 23 and "error" not in data and len(data["reads"]) == 2


def test_set_bounds_the_pips(cli, easy):
    """11-6 cannot be in double-nine: refused, never counted."""
    _, path = easy
    result = cli("score", "--photo", str(path), "--set", "9", "-f", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["unreadable"] and set(data["unreadable"][0]) == {"box", "candidates"}


def test_unreadable_tile_exits_1_with_unreadable(cli, easy, monkeypatch):
    import cf.photo
    from cf.photo import PhotoReading, TileRead, Unreadable

    _, path = easy
    box = [[10, 10], [60, 10], [60, 110], [10, 110]]
    doubtful = PhotoReading(
        reads=[TileRead(Tile(11, 6), 0.97, box)],
        unreadable=[Unreadable(box=box, candidates=[Tile(5, 1), Tile(5, 2)])],
    )
    monkeypatch.setattr(cf.photo, "read_photo", lambda *a, **k: doubtful)
    result = cli("score", "--photo", str(path), "--set", "12", "-f", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [r["tile"] for r in data["reads"]] == ["11-6"]  # what was read is still listed
    assert data["tiles"] == ["11-6"] and data["points"] is None  # but no total
    assert data["unreadable"] == [{"box": box, "candidates": ["5-1", "5-2"]}]
    assert "cannot read the tile" in result.stderr
    text = cli("score", "--photo", str(path), "--set", "12")
    assert text.exit_code == 1 and text.stdout == ""  # no total printed with confidence


def test_annotate_writes_a_png(cli, easy, tmp_path):
    _, path = easy
    out = tmp_path / "checked.png"
    result = cli("score", "--photo", str(path), "--set", "12", "--annotate", str(out))
    assert result.exit_code == 0
    image = cv2.imread(str(out))
    assert image is not None and image.shape[:2] == (768, 1024)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "3 of 4 tiles read, 1 unreadable"),
        ("es", "3 de 4 fichas leidas, 1 ilegible"),
        ("gl", "3 de 4 fichas lidas, 1 ilexible"),
    ],
)
def test_the_annotated_caption_speaks_the_tables_language(lang, expected):
    """SPEC §14: pictures too. The Hershey font draws ASCII only, so accents are dropped
    (never drawn as ``?``)."""
    from cf.i18n import speaking
    from cf.photo.annotate import caption

    with speaking(lang):
        assert caption(3, 1) == expected
        assert caption(1, 0).startswith("1 ") and "?" not in caption(1, 0)


def test_the_annotated_picture_changes_with_the_language(cli, easy, tmp_path):
    _, path = easy
    pictures = {}
    for lang in ("en", "gl"):
        out = tmp_path / f"{lang}.png"
        result = cli(
            "--lang", lang, "score", "--photo", str(path), "--set", "12", "--annotate", str(out)
        )
        assert result.exit_code == 0
        pictures[lang] = cv2.imread(str(out))
    assert pictures["en"].shape == pictures["gl"].shape
    assert not np.array_equal(pictures["en"], pictures["gl"])


def test_ascii_letters_keeps_the_letter_under_an_accent():
    from cf.photo.annotate import ascii_letters

    assert ascii_letters("Ñandú leídas, ilexíbeis… →") == "Nandu leidas, ilexibeis... ?"


@pytest.mark.parametrize("name", ["checked", "checked.txt"])
def test_an_annotate_name_that_is_no_picture_is_refused_before_reading(
    cli, easy, tmp_path, monkeypatch, name
):
    """An --annotate name OpenCV writes no picture under (no .png or .jpg ending) is a
    bad option value, exit 2 before the photo is read: it was read, its total lost, and
    exit 1 when the picture could not be written."""
    import cf.photo

    _, path = easy
    monkeypatch.setattr(cf.photo, "read_photo", lambda *a: pytest.fail("read"))
    result = cli("score", "--photo", str(path), "--set", "12", "--annotate", str(tmp_path / name))
    assert result.exit_code == 2 and result.stdout == ""
    assert "use a .png or .jpg name" in result.stderr
    assert not (tmp_path / name).exists()


@pytest.mark.parametrize("content", [b"", b"not an image at all", b"\x89PNG\r\n\x1a\n\0\0"])
def test_not_an_image_is_a_clear_error(cli, tmp_path, content):
    path = tmp_path / "hand.jpg"
    path.write_bytes(content)
    result = cli("score", "--photo", str(path))
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and "Traceback" not in result.stderr
    with pytest.raises(PhotoError):
        load_image(str(path))


def test_missing_file_is_a_usage_error(cli, tmp_path):
    result = cli("score", "--photo", str(tmp_path / "none.jpg"))
    assert result.exit_code == 2


@pytest.mark.parametrize("kind", ["grey", "rgba", "tiny", "blank"])
def test_odd_images_never_crash(cli, tmp_path, kind):
    image = {
        "grey": np.full((300, 400), 90, np.uint8),
        "rgba": np.zeros((200, 300, 4), np.uint8),
        "tiny": np.zeros((3, 2, 3), np.uint8),
        "blank": np.full((480, 640, 3), 255, np.uint8),
    }[kind]
    path = tmp_path / f"{kind}.png"
    cv2.imwrite(str(path), image)
    result = cli("score", "--photo", str(path), "-f", "json")
    assert result.exit_code in (0, 1)
    assert "Traceback" not in result.stderr
    assert json.loads(result.stdout)["tiles"] == []


# --- never confidently wrong ---------------------------------------------------------------

BLANKS = {
    "white": lambda: np.full((480, 640, 3), 255, np.uint8),
    "black": lambda: np.zeros((480, 640, 3), np.uint8),
    "noise": lambda: np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8),
}


@pytest.mark.parametrize("kind", sorted(BLANKS))
def test_no_domino_found_is_a_refusal_never_a_zero(cli, tmp_path, kind):
    image = BLANKS[kind]()
    reading = read_hand(image, 9)
    assert not reading.found and not reading.ok
    path = tmp_path / f"{kind}.png"
    cv2.imwrite(str(path), image)
    result = cli("score", "--photo", str(path))
    assert result.exit_code == 1
    assert result.stdout == ""  # no total, not even 0
    assert f"Error: no domino found in {path}" in result.stderr
    game = _new_game(cli, tmp_path)
    before = game.read_bytes()
    result = cli("add", str(game), f"Ana=@{path}", "Ben=5")
    assert result.exit_code == 1
    assert f"no domino found in {path}" in result.stderr
    assert game.read_bytes() == before  # never recorded as Ana going out


def test_no_domino_found_has_no_total_in_json_either(cli, tmp_path):
    """JSON lists what was read, and "points" is null, never 0."""
    path = tmp_path / "white.png"
    cv2.imwrite(str(path), BLANKS["white"]())
    result = cli("score", "--photo", str(path), "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "photo": str(path),
        "tiles": [],
        "points": None,
        "reads": [],
    }


def test_a_photo_piped_in_is_read_from_stdin(cli, tmp_path):
    """`-` reads the photo from stdin (SPEC §7), named <stdin> in messages and JSON; a
    second read of it for --annotate gets the same bytes; it is given once."""
    photo = (EXAMPLES / "photos" / "double-twelve-8-8-7-0.jpg").read_bytes()
    out = tmp_path / "checked.png"
    args = ("score", "--photo", "-", "--set", "double-twelve", "--format", "json")
    result = cli(*args, "--annotate", str(out), input=photo)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["photo"], data["points"]) == ("<stdin>", 23)
    assert sorted(data["tiles"]) == ["7-0", "8-8"]
    assert cv2.imread(str(out)) is not None
    blank = cv2.imencode(".png", BLANKS["white"]())[1].tobytes()
    result = cli("score", "--photo", "-", input=blank)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "Error: no domino found in <stdin>\n"
    result = cli("score", "--photo", "-", "-", input=photo)
    assert result.exit_code == 2 and "give it once" in result.stderr
    game = _new_game(cli, tmp_path)
    result = cli("add", str(game), "Ana=@-", "Ben=5", input=blank)
    assert result.exit_code == 1 and "no domino found in <stdin>" in result.stderr


def test_no_photo_named_reads_one_piped_in(cli):
    """`cf score --photo` with no file reads stdin (SPEC §7: no file reads stdin), as `-`
    does; with nothing piped in there is no photo at all: a usage error, as on a terminal."""
    photo = (EXAMPLES / "photos" / "double-twelve-8-8-7-0.jpg").read_bytes()
    result = cli("score", "--photo", "--set", "double-twelve", "--format", "json", input=photo)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["photo"], data["points"]) == ("<stdin>", 23)
    result = cli("score", "--photo", input=b"")
    assert result.exit_code == 2
    assert result.stderr == "Error: cf score --photo needs at least one image file\n"


def test_no_photo_named_on_a_terminal_or_a_closed_stdin_is_a_usage_error():
    """A real process: stdin a terminal would wait for a photo nobody pipes in; closed, it
    holds none. Both are exit 2 with the same words, and nothing waits."""
    pty = pytest.importorskip("pty")
    import os

    primary, secondary = pty.openpty()
    try:
        out = subprocess.run(
            [sys.executable, "-m", "cf", "score", "--photo"],
            stdin=secondary,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    finally:
        os.close(primary)
        os.close(secondary)
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == "Error: cf score --photo needs at least one image file\n"
    closed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sys, runpy; os.close(0); sys.argv = ['cf', 'score', "
            "'--photo']; runpy.run_module('cf', run_name='__main__')",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert (closed.returncode, closed.stdout) == (2, "")
    assert "needs at least one image file" in closed.stderr


def test_a_photo_piped_in_is_named_stdin_in_the_reader_s_messages(cli):
    result = cli("score", "--photo", "-", input=b"not an image at all")
    assert result.exit_code == 1
    assert result.stderr == "Error: <stdin> is not an image (JPEG or PNG) that can be read\n"
    result = cli("score", "--photo", "-", input=b"")
    assert result.stderr == "Error: <stdin> is empty, not an image\n"


def test_a_heic_photo_says_to_save_it_as_jpeg(cli, tmp_path):
    """An iPhone's own photos are HEIC, which OpenCV does not decode: the message says so
    and what to do, rather than "not an image"."""
    path = tmp_path / "IMG_0001.HEIC"
    path.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(200))
    result = cli("score", "--photo", str(path))
    assert result.exit_code == 1 and result.stdout == ""
    assert "IMG_0001.HEIC is a HEIC (or AVIF) photo" in result.stderr
    assert "save it as JPEG" in result.stderr


def test_a_terminal_or_a_closed_stdin_is_no_photo(monkeypatch):
    """`-` on a terminal would wait for a photo nobody pipes in; a closed stdin holds none:
    both are usage errors (exit 2), as for any command reading stdin."""
    import io

    import typer

    from cf import _process
    from cf.commands.common import check_photo_path

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal())
    with pytest.raises(typer.Exit) as raised:
        check_photo_path("-")
    assert raised.value.exit_code == 2
    closed = io.TextIOWrapper(io.BufferedReader(_process._ClosedInput()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", closed)
    with pytest.raises(typer.Exit) as raised:
        check_photo_path("-")
    assert raised.value.exit_code == 2


def test_cf_add_takes_one_photo_from_stdin(cli, tmp_path):
    photo = (EXAMPLES / "photos" / "double-twelve-8-8-7-0.jpg").read_bytes()
    game = _new_game(cli, tmp_path)
    before = game.read_bytes()
    result = cli("add", str(game), "Ana=@-", "Ben=@-", input=photo)
    assert result.exit_code == 2 and "give it once" in result.stderr
    assert game.read_bytes() == before
    result = cli("add", str(game), "Ana=@-", "Ben=5", input=photo)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Ana: <stdin> reads 8-8 7-0\n")
    # With a JSON scoreboard on stdout, the echo goes to stderr.
    again = cli("add", str(game), "Ana=@-", "Ben=5", "-r", "1", "-f", "json", input=photo)
    assert again.exit_code == 0, again.output
    assert "Ana: <stdin> reads 8-8 7-0" in again.stderr
    assert json.loads(again.stdout)["standings"]


def test_a_photo_piped_in_a_real_process():
    photo = EXAMPLES / "photos" / "double-twelve-8-8-7-0.jpg"
    out = subprocess.run(
        [sys.executable, "-m", "cf", "score", "--photo", "-", "--set", "double-twelve"],
        input=photo.read_bytes(),
        capture_output=True,
        cwd=ROOT,
    )
    assert (out.returncode, out.stdout, out.stderr) == (0, b"23\n", b"")


def test_no_domino_found_in_a_real_process(tmp_path):
    path = tmp_path / "white.png"
    cv2.imwrite(str(path), BLANKS["white"]())
    out = subprocess.run(
        [sys.executable, "-m", "cf", "score", "--photo", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert (out.returncode, out.stdout) == (1, "")
    assert out.stderr == f"Error: no domino found in {path}\n"


def _shadowed(image, box, factor=0.6):
    """``image`` with a soft round shadow over the tile at ``box`` and the table around it."""
    corners = np.asarray(box, float)
    centre = corners.mean(axis=0)
    side = np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[1])
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.circle(mask, tuple(int(v) for v in np.round(centre)), int(0.6 * side), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.1 * side)
    return (image * (1 - (1 - factor) * mask[..., None])).astype(np.uint8)


def _blanked(image, box):
    """``image`` with the face of the tile at ``box`` painted over (no pips, no divider)."""
    corners = np.asarray(box, float)
    centre = corners.mean(axis=0)
    inside = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners).astype(np.int32), 1)
    colour = np.median(image[(inside > 0) & (image.mean(axis=2) > 150)], axis=0)
    out = image.copy()
    face = np.round(centre + (corners - centre) * 0.85).astype(np.int32)
    cv2.fillConvexPoly(out, face, tuple(int(v) for v in colour))
    return out


@pytest.mark.parametrize("seed", [0, 3, 7])
def test_a_tile_in_shadow_is_a_doubt_not_left_out(seed):
    """A tile in a shadow, dimmer than the others, that the face mask leaves out: a light,
    tile-sized region with pip-like marks that no reading accounts for."""
    layout = ["scatter", "row", "block"][seed % 3]
    photo = render_hand(seed, size=(1024, 768), difficulty=0, count=5, layout=layout)
    clean = read_hand(photo.image, photo.top)
    assert clean.ok and sorted(clean.tiles) == sorted(photo.tiles)
    # The classical pipeline's doubt (where it refuses, the networks may read the tile:
    # tests/test_photo_combined.py).
    reading = classical_read_hand(_shadowed(photo.image, photo.boxes[0]), photo.top)
    assert not reading.ok
    assert any("no tile read accounts for" in u.reason for u in reading.unreadable)


@pytest.mark.parametrize("seed", [4, 5])
def test_more_face_than_tiles_read_is_a_doubt(seed):
    """Tiles touching in a row or block, one of them blank with its divider unseen: the
    face holds one more tile than were read, so the hand is refused."""
    layout = ["scatter", "row", "block"][seed % 3]
    photo = render_hand(seed, size=(1024, 768), difficulty=0, count=5, layout=layout)
    assert read_hand(photo.image, photo.top).ok
    reading = read_hand(_blanked(photo.image, photo.boxes[0]), photo.top)
    assert not reading.ok
    assert any("one more tile" in u.reason for u in reading.unreadable)


def test_the_table_the_face_mask_ran_into_is_not_one_more_tile():
    """On a light table whose noise the edges cannot enclose, the face mask runs into the
    table, and the classical reader sees face enough for one more tile over all of it;
    where the nets read the tiles and see no other face there, the hand is read (see
    tests/test_photo_combined.py for a double blank in a corner, which stays a doubt)."""
    photo = render_hand(5017, size=(640, 480), count=3, difficulty=2, layout="block")
    doubts = classical_read_hand(photo.image, photo.top).unreadable
    assert [u.reason for u in doubts] == ["face enough for one more tile than were read"]
    reading = read_hand(photo.image, photo.top)
    assert reading.ok and sorted(reading.tiles) == sorted(photo.tiles)


def test_a_glare_spot_brighter_than_the_tiles_does_not_hide_them(monkeypatch):
    """White tiles on a light grey table with a glare spot brighter than they are: taken
    for tiles on a dark table, only the spot would be face. When that finds no divider on
    a light, neutral table, the tiles are what the border cannot reach."""
    from cf.photo import reader

    photo = render_hand(2274, size=(1600, 1200), count=9, difficulty=2)
    reading = classical_read_hand(photo.image, photo.top)
    assert len(reading.reads) >= 7 and set(reading.tiles) <= set(photo.tiles)
    monkeypatch.setattr(reader, "light_table", lambda light, ab: False)
    assert not classical_read_hand(photo.image, photo.top).reads


def test_a_refusal_ends_with_what_to_do(cli, easy, tmp_path):
    """A refused photo of tiles ends with what to do: type the hand or photograph it
    again, and which picture shows the tiles read and not; "no domino found" is all a
    photo of no tile gets."""
    _, path = easy  # double-twelve tiles: refused as double-nine
    result = cli("score", "--photo", str(path), "--set", "9")
    assert result.exit_code == 1 and result.stdout == ""
    last = result.stderr.splitlines()[-1]
    assert last.startswith(f"Error: {path}: no total: type the hand (cf score")
    assert "--annotate PICTURE shows the tiles read and not" in last
    picture = tmp_path / "checked.png"
    result = cli("score", "--photo", str(path), "--set", "9", "--annotate", str(picture))
    assert f"no total: {picture} shows the tiles read and not" in result.stderr
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), np.full((300, 400, 3), 90, np.uint8))
    result = cli("score", "--photo", str(empty))
    assert result.stderr == f"Error: no domino found in {empty}\n"


def test_pips_beyond_the_set_suggest_set(cli, easy, tmp_path):
    _, path = easy  # double-twelve tiles, 11-6 among them
    result = cli("score", "--photo", str(path), "--set", "9")
    assert result.exit_code == 1
    assert "more than a double-nine set has" in result.stderr
    assert "--set double-twelve" in result.stderr
    game = tmp_path / "nine.yaml"
    assert cli("new", str(game), "--players", "Ana,Ben", "--set", "9").exit_code == 0
    result = cli("add", str(game), f"Ana=@{path}", "Ben=out")
    assert result.exit_code == 1
    assert "cf new FILE --set double-twelve" in result.stderr


# --- a big JPEG is decoded at a fraction of its size -----------------------------------------


@pytest.mark.parametrize("size", [(600, 800), (2400, 3200)])
def test_a_photo_stored_on_its_side_is_read_as_it_is_shown(cli, tmp_path, size):
    """A phone's portrait photo is stored landscape with an EXIF orientation: read, drawn
    on and outlined as viewers and browsers show it, whether decoded whole or reduced
    (before, a small one was read on its side and a big one upright, so that a big one's
    outlines were drawn on its side)."""
    from photo_helpers import stored_on_its_side

    from cf.photo import read_photo

    photo = render_hand(5, size=size, difficulty=0, count=4)
    path = tmp_path / "portrait.jpg"
    path.write_bytes(stored_on_its_side(photo.image))
    assert load_image(str(path)).shape[:2] == (size[1], size[0])
    reading = read_photo(str(path), photo.top)
    assert (reading.width, reading.height) == size
    assert reading.ok and sorted(reading.tiles) == sorted(photo.tiles)
    upright = tmp_path / "upright.jpg"
    cv2.imwrite(str(upright), photo.image)
    centres = {r.tile: np.mean(r.box, axis=0) for r in read_photo(str(upright), photo.top).reads}
    for r in reading.reads:
        assert np.abs(np.mean(r.box, axis=0) - centres[r.tile]).max() < 0.02 * max(size)
    shown = tmp_path / "shown.png"
    result = cli("score", "--photo", str(path), "--set", str(photo.top), "--annotate", str(shown))
    assert result.exit_code == 0
    assert cv2.imread(str(shown)).shape[:2] == (size[1], size[0])


def test_image_size_from_the_header(tmp_path):
    from cf.photo.limits import image_size

    image = np.zeros((30, 50, 3), np.uint8)
    for ext in (".jpg", ".png"):
        _, data = cv2.imencode(ext, image)
        assert image_size(data.tobytes()) == (50, 30)
    assert image_size(b"not an image") is None
    assert image_size(b"\xff\xd8\xff") is None  # a JPEG cut short


def test_a_big_jpeg_is_read_reduced_with_boxes_in_its_own_pixels(tmp_path):
    from cf.photo.reader import READ_SIZE, load_reduced, read_photo

    photo = render_hand(3, size=(3200, 2400), difficulty=0, count=4)
    path = tmp_path / "big.jpg"
    cv2.imwrite(str(path), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    image, reduction = load_reduced(str(path), READ_SIZE)
    assert reduction == 2 and image.shape[:2] == (1200, 1600)
    reading = read_photo(str(path), photo.top)
    assert (reading.width, reading.height) == (3200, 2400)
    assert reading.ok and sorted(reading.tiles) == sorted(photo.tiles)
    for read in reading.reads:
        truth = photo.boxes[photo.tiles.index(read.tile)]
        centre = np.asarray(read.box, float).mean(axis=0)
        assert np.linalg.norm(centre - np.asarray(truth).mean(axis=0)) < 20
    # Whole, as load_image decodes it, the reading is the same.
    whole = read_hand(load_image(str(path)), photo.top)
    assert whole.tiles == reading.tiles


@pytest.mark.parametrize("value", ["nan", "NaN", "1.5", "-0.1", "inf"])
def test_min_confidence_outside_0_to_1_is_a_usage_error(cli, easy, value):
    """SPEC §7: a bad option value is exit 2. ``nan`` passed the range check (every
    comparison with it is false) and refused every tile."""
    _, path = easy
    result = cli("score", "--photo", str(path), "--min-confidence", value)
    assert result.exit_code == 2 and result.stdout == ""
    assert "--min-confidence" in result.stderr


def test_missing_extra_says_how_to_install(cli, easy, monkeypatch):
    _, path = easy
    real_import = builtins.__import__

    def no_cv2(name, *args, **kwargs):
        if name == "cf.photo" or name.startswith(("cv2", "cf.photo.")):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_cv2)
    result = cli("score", "--photo", str(path))
    assert result.exit_code == 2
    assert "pip install 'chickenfoot[photo]'" in result.stderr
    # In the table's language too (SPEC §14), as cf serve's own hint is.
    result = cli("--lang", "es", "score", "--photo", str(path))
    assert result.exit_code == 2 and result.stderr.startswith("Error: cf score --photo necesita")
    assert "pip install 'chickenfoot[photo]'" in result.stderr


def test_plain_score_does_not_import_opencv():
    code = (
        "import sys; from cf.cli import app; import cf.commands.score; print('cv2' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_real_subprocess(easy):
    photo, path = easy
    out = subprocess.run(
        [sys.executable, "-m", "cf", "score", "--photo", str(path), "--set", "double-twelve"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(hand_points(photo.tiles))


def _real_rows() -> list[dict[str, str]]:
    if not (REAL / "labels.tsv").is_file():
        return []
    with open(REAL / "labels.tsv", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/photos is not here (a fresh clone)")
@pytest.mark.parametrize("row", _real_rows(), ids=lambda row: row["file"])
def test_what_holds_on_every_real_photo(row):
    """What the reader guarantees on any photo, however well it reads it (how many it
    reads right is a figure of bench/photo.py, not a test): it does not crash; what it
    reads with confidence is in the set, inside the image, each tile once; a reading
    without refusal has at least one tile (no domino found is a refusal, never a 0)."""
    image = load_image(str(REAL / row["file"]))
    top = max(int(half) for tile in row["tiles"].split() for half in tile.split("-"))
    top = next(s for s in (6, 9, 12, 15, 18) if top <= s)
    reading = read_hand(image, top)
    height, width = image.shape[:2]
    assert (reading.width, reading.height) == (width, height)
    for read in reading.reads:
        assert read.tile.high <= top
        assert DEFAULT_MIN_CONFIDENCE <= read.confidence <= 1
    for box in [r.box for r in reading.reads] + [u.box for u in reading.unreadable]:
        assert len(box) == 4
        assert all(0 <= x < width and 0 <= y < height for x, y in box)
    if reading.ok:
        assert reading.tiles
        assert len(set(reading.tiles)) == len(reading.tiles)


# --- cf add FILE NAME=@IMAGE: a round scored from a photo ----------------------------------


def _new_game(cli, tmp_path) -> Path:
    game = tmp_path / "night.yaml"
    assert cli("new", str(game), "--players", "Ana,Ben", "--set", "12").exit_code == 0
    return game


def test_add_scores_a_round_from_a_photo(cli, easy, tmp_path):
    photo, path = easy
    game = _new_game(cli, tmp_path)
    result = cli("add", str(game), f"Ana=@{path}", "Ben=out")
    assert result.exit_code == 0, result.output
    tiles = " ".join(str(t) for t in sorted(photo.tiles, reverse=True))
    assert f'hands: {{Ana: {tiles}, Ben: ""}}' in game.read_text()
    assert f"{hand_points(photo.tiles)}" in result.stdout
    # What the photo read is shown, so that the table can check it.
    read = " ".join(str(t) for t in read_hand(photo.image, 12).tiles)
    assert f"Ana: {path} reads {read}" in result.stdout


def test_add_writes_nothing_for_a_photo_it_cannot_read(cli, easy, tmp_path, monkeypatch):
    import cf.photo
    from cf.photo import PhotoReading, Unreadable

    _, path = easy
    game = _new_game(cli, tmp_path)
    before = game.read_bytes()
    box = [(40, 10), (60, 10), (60, 50), (40, 50)]
    why = "a faint blob"
    doubtful = PhotoReading(unreadable=[Unreadable(box, [Tile(5, 1), Tile(6, 1)], why)])
    monkeypatch.setattr(cf.photo, "read_photo", lambda *a, **k: doubtful)
    result = cli("add", str(game), f"Ana=@{path}", "Ben=out")
    assert result.exit_code == 1
    # The reader's own reason is passed on, with where the tile is and what it might be.
    assert "cannot read the tile at x=50, y=30 with confidence (a faint blob)" in result.stderr
    assert "it might be: 5-1, 6-1" in result.stderr
    assert "nothing written" in result.stderr
    assert game.read_bytes() == before


def test_add_with_a_file_that_is_not_an_image(cli, tmp_path):
    game = _new_game(cli, tmp_path)
    before = game.read_bytes()
    junk = tmp_path / "hand.jpg"
    junk.write_text("not a photo")
    result = cli("add", str(game), f"Ana=@{junk}", "Ben=out")
    assert result.exit_code == 1
    assert "not an image" in result.stderr
    assert f"{junk}: nothing written (enter Ana's hand as tiles or a score)" in result.stderr
    assert game.read_bytes() == before


def test_add_reads_every_photo_before_it_refuses(cli, easy, tmp_path):
    """Two hands photographed, the first refused: the second is still read and echoed and
    every refusal is said at once (the table takes both photos again in one go), and
    nothing is written."""
    _, path = easy
    game = tmp_path / "four.yaml"
    assert cli("new", str(game), "--players", "Ana,Ben,Cy,Di", "--set", "12").exit_code == 0
    before = game.read_bytes()
    junk = tmp_path / "ben.jpg"
    junk.write_text("not a photo")
    blank = tmp_path / "cy.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 255, np.uint8))
    result = cli("add", str(game), f"Ana=@{path}", f"Ben=@{junk}", f"Cy=@{blank}", "Di=out")
    assert result.exit_code == 1
    assert f"Ana: {path} reads" in result.stdout
    assert f"{junk} is not an image" in result.stderr
    assert f"no domino found in {blank}" in result.stderr
    assert f"{blank}: nothing written (enter Cy's hand" in result.stderr
    assert game.read_bytes() == before
    # A typed value that is none is said too, before any photo is read.
    result = cli("add", str(game), "di=abc", f"Ana=@{path}", f"Ben=@{junk}", "Cy=3")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith("Error: Di: 'abc' is not a tile")
    assert f"{junk} is not an image" in result.stderr
    assert f"Ana: {path} reads" in result.stdout
    assert game.read_bytes() == before


def test_cf_serve_draws_the_caption_in_the_pages_language(easy):
    """The picture cf serve sends back is captioned in the page's language (SPEC §14)."""
    from cf.serve.photos import read_upload

    _, path = easy
    data = path.read_bytes()
    english, galician = read_upload(data, 12, 50), read_upload(data, 12, 50, lang="gl")
    assert english["image"].startswith("data:image/jpeg;base64,")
    assert galician["image"] != english["image"]
    assert read_upload(data, 12, 50, lang="en")["image"] == english["image"]


def test_a_png_cut_short_is_said_in_cf_s_words_only(tmp_path):
    """libpng prints "libpng error: PNG input buffer is incomplete" on the process's own
    stderr (not Python's) when it decodes a PNG cut short: cf says it, once, in its words."""
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    image = np.random.default_rng(1).integers(0, 255, (200, 200, 3), dtype=np.uint8)
    data = cv2.imencode(".png", image)[1].tobytes()
    path = tmp_path / "cut.png"
    path.write_bytes(data[: len(data) // 2])
    out = subprocess.run(
        [sys.executable, "-m", "cf", "score", "--photo", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert (out.returncode, out.stdout) == (1, "")
    assert out.stderr == f"Error: {path} is not an image (JPEG or PNG) that can be read\n"


@pytest.mark.parametrize("suffix", [".bmp", ".webp", ".tiff"])
def test_other_formats_opencv_decodes_are_read_too(cli, easy, tmp_path, suffix):
    """SPEC 9 asks for JPEG and PNG; a photo saved as BMP, WebP or TIFF is read as well
    (docs/cli.md), where cf serve takes JPEG and PNG only."""
    photo, _ = easy
    path = tmp_path / f"easy{suffix}"
    assert cv2.imwrite(str(path), photo.image)
    result = cli("score", "--photo", str(path), "--set", "12")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == str(hand_points(photo.tiles))
