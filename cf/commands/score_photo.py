"""``cf score --photo``: the points of hands read from photos (SPEC §9).

Imported only when ``--photo`` is given, so that plain ``cf score`` never loads OpenCV.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Optional

import typer

from cf.commands.common import TextJson, echo_json, fail
from cf.tiles import Tile, hand_points

INSTALL_HINT = "cf score --photo needs the photo extra: pip install 'chickenfoot[photo]'"


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
    try:
        from cf.photo import PhotoError, load_image, read_hand
        from cf.photo.annotate import write_annotated
    except ImportError:
        fail(INSTALL_HINT, 2)
    _check_paths(paths)
    if annotate is not None:
        from cf.commands.pictures import refuse_input

        for number in range(1, len(paths) + 1):
            refuse_input(_numbered(annotate, number, len(paths)), paths, "--annotate")
    objects: list[dict[str, Any]] = []
    failed = False
    for number, path in enumerate(paths, start=1):
        try:
            image = load_image(path)
            reading = read_hand(image, top, min_confidence)
            if annotate is not None:
                write_annotated(_numbered(annotate, number, len(paths)), image, reading)
        except PhotoError as exc:
            typer.echo(f"Error: {exc}", err=True)
            failed = True
            continue
        obj = _reading_object(path, reading, double_blank)
        if reading.unreadable:
            failed = True
            _report_unreadable(path, reading)
        objects.append(obj)
        if format_ is TextJson.text and not reading.unreadable:
            prefix = f"{path}: " if len(paths) > 1 else ""
            typer.echo(prefix + _points_line(reading.tiles, obj["points"], double_blank, explain))
    if format_ is TextJson.json and objects:
        echo_json(objects[0] if len(paths) == 1 else objects)
    if failed:
        raise typer.Exit(1)


def _check_paths(paths: list[str]) -> None:
    """Exit 2 unless every path names an existing file (``-``, stdin, is not a photo)."""
    if not paths or paths == ["-"]:
        fail("cf score --photo needs at least one image file", 2)
    for path in paths:
        if os.path.isdir(path):
            fail(f"{path} is a directory, not a photo", 2)
        if not os.path.exists(path):
            fail(f"cannot read {path}: no such file", 2)


def _reading_object(path: str, reading: Any, double_blank: int) -> dict[str, Any]:
    """The JSON object of one photo's reading (SPEC §9): tiles, points, reads, unreadable."""
    tiles = reading.tiles
    obj: dict[str, Any] = {
        "photo": path,
        "tiles": [str(t) for t in tiles],
        "points": hand_points(tiles, double_blank),
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


def _report_unreadable(path: str, reading: Any) -> None:
    """One ``Error:`` line on stderr per tile found but not read with confidence."""
    for bad in reading.unreadable:
        centre = _centre(bad.box)
        maybe = ", ".join(str(t) for t in bad.candidates) or "unknown"
        why = f" ({bad.reason})" if bad.reason else ""
        typer.echo(
            f"Error: {path}: cannot read the tile at x={centre[0]}, y={centre[1]} "
            f"with confidence{why}; it might be: {maybe}",
            err=True,
        )


def _points_line(tiles: Sequence[Tile], points: int, double_blank: int, explain: bool) -> str:
    """The text output for one photo (without its ``PATH: `` prefix), as ``cf score``."""
    if not explain:
        return f"{points}"
    parts = [f"{t} = {t.points(double_blank)}" for t in tiles] or ["no tiles"]
    return f"{points}  ({', '.join(parts)})"


def _box(box: list[tuple[int, int]]) -> list[list[int]]:
    return [[int(x), int(y)] for x, y in box]


def _centre(box: list[tuple[int, int]]) -> tuple[int, int]:
    return (
        round(sum(p[0] for p in box) / len(box)),
        round(sum(p[1] for p in box) / len(box)),
    )


def _numbered(path: str, number: int, count: int) -> str:
    """``OUT.png`` for one photo; ``OUT-1.png``, ``OUT-2.png``, … for several."""
    if count == 1:
        return path
    stem, ext = os.path.splitext(path)
    return f"{stem}-{number}{ext or '.png'}"
