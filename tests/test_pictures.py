"""docs/pictures.md: every image it shows exists, and each SVG is what its command makes
today (so the pictures in the docs never fall behind the code)."""

from __future__ import annotations

import glob
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cf.cli import app

ROOT = Path(__file__).parent.parent
PICTURES = ROOT / "docs" / "pictures.md"
MADE_BY = re.compile(r"<!-- image: (cf .*?) -->")


def image_commands() -> list[str]:
    return MADE_BY.findall(PICTURES.read_text(encoding="utf-8"))


def test_every_image_shown_exists():
    text = PICTURES.read_text(encoding="utf-8")
    shown = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(shown) >= 5
    for name in shown:
        path = PICTURES.parent / name
        assert path.is_file(), name
        head = path.read_bytes()[:64]
        assert head.startswith(b"\x89PNG") or b"<svg" in head or head.startswith(b"<?xml"), name


def test_every_svg_shown_has_its_command():
    made = {shlex.split(c)[-1] for c in image_commands()}
    text = PICTURES.read_text(encoding="utf-8")
    svgs = {f"docs/{n}" for n in re.findall(r"!\[[^\]]*\]\(([^)]+\.svg)\)", text)}
    assert svgs == made


@pytest.mark.parametrize("command", image_commands())
def test_image_is_up_to_date(command, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = []
    for token in shlex.split(command)[1:]:
        args += sorted(glob.glob(token)) if "*" in token else [token]
    target = args[-1]
    fresh = tmp_path / Path(target).name
    args[-1] = str(fresh)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert fresh.read_bytes() == (ROOT / target).read_bytes(), (
        f"{target} is out of date: run `{command}`"
    )
