"""``cf score --photo``: the points of hands read from photos (SPEC §9).

Imported only when ``--photo`` is given, so that plain ``cf score`` never loads OpenCV.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Optional

import typer

from cf._process import keep_freed_memory
from cf.commands.common import TextJson, check_photo_path, echo_json, fail
from cf.i18n import N_, _, tr
from cf.tiles import Tile, hand_points, set_name

INSTALL_HINT = N_("cf score --photo needs the photo extra: pip install 'chickenfoot[photo]'")


def score_photos(
    paths: list[str],
    top: int,
    double_blank: int,
    explain: bool,
    format_: TextJson,
    annotate: Optional[str],
    min_confidence: float,
) -> None:
    """Read each photo, print its points as ``cf score`` does; exit 1 if any tile (or
    photo) could not be read, 2 without the photo extra or without photos."""
    piped = not paths  # no file reads stdin (SPEC §7), when a photo is piped in
    if piped and not _stdin_piped():
        fail(_("cf score --photo needs at least one image file"), 2)
    paths = paths or ["-"]
    _check_paths(paths)  # a missing photo is said the same, with or without the extra
    keep_freed_memory()
    try:
        from cf.photo import PhotoError, load_image, read_photo
        from cf.photo.annotate import write_annotated
        from cf.photo.limits import read_photo_file
        from cf.photo.reader import shown
    except ImportError:
        fail(_(INSTALL_HINT), 2)
    if piped and _nothing_in(read_photo_file):
        fail(_("cf score --photo needs at least one image file"), 2)
    if annotate is not None:
        import cv2

        from cf.commands.pictures import refuse_input

        for number in range(1, len(paths) + 1):
            written = _numbered(annotate, number, len(paths))
            refuse_input(written, paths, "--annotate")
            if not cv2.haveImageWriter(written):  # no .png/.jpg ending: found before reading
                fail(
                    _(
                        "cannot write {path} (use a .png or .jpg name in a folder that exists)"
                    ).format(path=written),
                    2,
                )
    objects: list[dict[str, Any]] = []
    failed = False
    for number, given in enumerate(paths, start=1):
        path = shown(given)
        try:
            reading = read_photo(given, top, min_confidence)
        except PhotoError as exc:
            typer.echo(_("Error: {exc}").format(exc=tr(exc)), err=True)
            failed = True
            # Still one object per photo given, in order: a list never shifts. Its error
            # in English, as all JSON is (SPEC §14).
            error = str(exc)
            objects.append(
                {"photo": path, "tiles": [], "points": None, "reads": [], "error": error}
            )
            continue
        if annotate is not None:
            try:
                image = load_image(given)  # drawn on at the photo's own size
                write_annotated(_numbered(annotate, number, len(paths)), image, reading)
            except PhotoError as exc:  # the reading stands; the picture is not written
                typer.echo(_("Error: {exc}").format(exc=tr(exc)), err=True)
                failed = True
        obj = _reading_object(path, reading, double_blank)
        if not reading.ok:
            failed = True
            picture = None if annotate is None else _numbered(annotate, number, len(paths))
            _report_refusal(path, reading, top, picture)
        objects.append(obj)
        if format_ is TextJson.text and reading.ok:
            prefix = f"{path}: " if len(paths) > 1 else ""
            typer.echo(prefix + _points_line(reading.tiles, obj["points"], double_blank, explain))
    if format_ is TextJson.json:
        echo_json(objects[0] if len(paths) == 1 else objects)
    if failed:
        raise typer.Exit(1)


def _stdin_piped() -> bool:
    """Whether standard input is open and not a terminal (a photo may be piped in)."""
    import sys

    from cf._process import stdin_closed

    return sys.stdin is not None and not stdin_closed() and not sys.stdin.isatty()


def _nothing_in(read: Any) -> bool:
    """Whether stdin, read as a photo by ``read`` (the bytes are kept for the reading),
    holds nothing at all: no photo piped in, so none given."""
    try:
        return not read("-")
    except (OSError, ValueError):  # too big, unreadable: the reading says so
        return False


def _check_paths(paths: list[str]) -> None:
    """Exit 2 unless every path names an existing file, or is ``-`` (stdin, once)."""
    if paths.count("-") > 1:
        fail(_("- (stdin) holds one photo: give it once"), 2)
    for path in paths:
        check_photo_path(path)


def _reading_object(path: str, reading: Any, double_blank: int) -> dict[str, Any]:
    """The JSON object of one photo's reading (SPEC §9): tiles, points, reads, unreadable.
    A refused photo has no total: ``"points": null`` (never 0 for no domino found, nor the
    points of the tiles read beside one that could not be: a wrong total is worse than
    none)."""
    tiles = reading.tiles
    obj: dict[str, Any] = {
        "photo": path,
        "tiles": [str(t) for t in tiles],
        "points": hand_points(tiles, double_blank) if reading.ok else None,
        "reads": [
            {"tile": str(r.tile), "confidence": r.confidence, "box": _box(r.box)}
            for r in reading.reads
        ],
    }
    if reading.unreadable:
        obj["unreadable"] = [
            {"box": _box(u.box), "candidates": [str(t) for t in u.candidates]}
            for u in reading.unreadable
        ]
    return obj


def _report_refusal(path: str, reading: Any, top: int, picture: Optional[str]) -> None:
    """Why a photo's tiles are not counted, on stderr: no domino found, or one ``Error:``
    line per tile found but not read with confidence (and the set to try when a half
    shows more pips than ``top``), then what to do (``picture``: the annotated picture
    written, if any)."""
    for line in refusal_lines(path, reading, top, _("say so with --set {set}")):
        typer.echo(_("Error: {line}").format(line=line), err=True)
    if not reading.found:
        return
    if picture is None:
        what = _(
            "{path}: no total: type the hand (cf score 6-4 5-1 …), or take the photo again, "
            "closer and in even light (--annotate PICTURE shows the tiles read and not)"
        )
    else:
        what = _(
            "{path}: no total: {picture} shows the tiles read and not; type the hand "
            "(cf score 6-4 5-1 …), or take the photo again, closer and in even light"
        )
    typer.echo(_("Error: {line}").format(line=what.format(path=path, picture=picture)), err=True)


def refusal_lines(path: str, reading: Any, top: int, set_hint: str) -> list[str]:
    """The reasons a reading is refused, one line each (no ``Error:`` prefix); when a half
    shows more pips than the set has, a last line ends with ``set_hint``, its ``{set}``
    the smallest set that holds them (``cf add`` shares this)."""
    if not reading.found:
        return [_("no domino found in {path}").format(path=path)]
    lines = [f"{path}: {tr(bad.describe())}" for bad in reading.unreadable]
    pips = max((bad.pips for bad in reading.unreadable), default=0)
    if pips > top:
        bigger = next((s for s in (6, 9, 12, 15, 18) if s >= pips), pips)
        lines.append(
            _(
                "{path}: a half shows {pips} pips, more than a {set} set has: if the "
                "tiles are from a bigger set, {hint}"
            ).format(
                path=path, pips=pips, set=set_name(top), hint=set_hint.format(set=set_name(bigger))
            )
        )
    return lines


def _points_line(tiles: Sequence[Tile], points: int, double_blank: int, explain: bool) -> str:
    """The text output for one photo (without its ``PATH: `` prefix), as ``cf score``."""
    if not explain:
        return f"{points}"
    parts = [f"{t} = {t.points(double_blank)}" for t in tiles] or [_("no tiles")]
    return f"{points}  ({', '.join(parts)})"


def _box(box: list[tuple[int, int]]) -> list[list[int]]:
    return [[int(x), int(y)] for x, y in box]


def _numbered(path: str, number: int, count: int) -> str:
    """``OUT.png`` for one photo; ``OUT-1.png``, ``OUT-2.png``, … for several."""
    if count == 1:
        return path
    stem, ext = os.path.splitext(path)
    return f"{stem}-{number}{ext or '.png'}"
