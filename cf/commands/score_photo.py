"""``cf score --photo``: the points of hands read from photos (SPEC §9).

Imported only when ``--photo`` is given, so that plain ``cf score`` never loads OpenCV.
"""

from __future__ import annotations

import os
from typing import Any, Optional

import typer

from cf.commands.common import TextJson, echo_json, fail
from cf.tiles import hand_points

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
    if not paths or paths == ["-"]:
        fail("cf score --photo needs at least one image file", 2)
    for path in paths:
        if os.path.isdir(path):
            fail(f"{path} is a directory, not a photo", 2)
        if not os.path.exists(path):
            fail(f"cannot read {path}: no such file", 2)
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
            failed = True
            obj["unreadable"] = [
                {"box": _box(u.box), "candidates": [str(t) for t in u.candidates]}
                for u in reading.unreadable
            ]
            for bad in reading.unreadable:
                centre = _centre(bad.box)
                maybe = ", ".join(str(t) for t in bad.candidates) or "unknown"
                why = f" ({bad.reason})" if bad.reason else ""
                typer.echo(
                    f"Error: {path}: cannot read the tile at x={centre[0]}, y={centre[1]} "
                    f"with confidence{why}; it might be: {maybe}",
                    err=True,
                )
        objects.append(obj)
        if format_ is TextJson.text and not reading.unreadable:
            prefix = f"{path}: " if len(paths) > 1 else ""
            points = obj["points"]
            if explain:
                parts = [f"{t} = {t.points(double_blank)}" for t in tiles] or ["no tiles"]
                typer.echo(f"{prefix}{points}  ({', '.join(parts)})")
            else:
                typer.echo(f"{prefix}{points}")
    if format_ is TextJson.json and objects:
        echo_json(objects[0] if len(paths) == 1 else objects)
    if failed:
        raise typer.Exit(1)


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
