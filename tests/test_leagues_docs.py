"""docs/leagues.md: its chart is what its command makes today (as tests/test_pictures.py
checks docs/pictures.md), and its JSON tables name every key the outputs have."""

from __future__ import annotations

import glob
import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cf.cli import app

ROOT = Path(__file__).parent.parent
PAGE = ROOT / "docs" / "leagues.md"
MADE_BY = re.compile(r"<!-- image: (cf .*?) -->")


def image_commands() -> list[str]:
    return MADE_BY.findall(PAGE.read_text(encoding="utf-8"))


def expand(command: str) -> list[str]:
    args = []
    for token in shlex.split(command)[1:]:
        args += sorted(glob.glob(token)) if "*" in token else [token]
    return args


def test_the_page_shows_its_chart():
    text = PAGE.read_text(encoding="utf-8")
    shown = {f"docs/{n}" for n in re.findall(r"!\[[^\]]*\]\(([^)]+\.svg)\)", text)}
    assert shown == {shlex.split(c)[-1] for c in image_commands()}
    assert shown


@pytest.mark.parametrize("command", image_commands())
def test_chart_is_up_to_date(command, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = expand(command)
    target = args[-1]
    args[-1] = str(tmp_path / Path(target).name)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert Path(args[-1]).read_bytes() == (ROOT / target).read_bytes(), (
        f"{target} is out of date: run `{command}`"
    )


def keys(data: object, prefix: str = "") -> set[str]:
    """Every key path of ``data``: ``standings[].rank``, …"""
    out: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            out.add(prefix + k)
            out |= keys(v, prefix + k + ".")
    elif isinstance(data, list) and data:
        out |= keys(data[0], prefix.rstrip(".") + "[].")
    return out


@pytest.mark.parametrize(
    "args",
    [
        ["tally", "examples/league/*.yaml", "--rank-by", "rating", "-f", "json"],
        ["player", "Ana", "examples/league/*.yaml", "-f", "json"],
    ],
)
def test_every_json_key_is_documented(args, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(app, expand(" ".join(["cf", *args])))
    text = PAGE.read_text(encoding="utf-8")
    for path in keys(json.loads(result.stdout)):
        leaf = path.rsplit(".", 1)[-1].removesuffix("[]")
        assert f"`{leaf}`" in text or f".{leaf}`" in text, path


def test_every_history_key_is_documented(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "h.json"
    args = expand(f"cf tally examples/league/*.yaml --rank-by rating --history {out}")
    assert CliRunner().invoke(app, args).exit_code == 0
    text = PAGE.read_text(encoding="utf-8")
    for path in keys(json.loads(out.read_text(encoding="utf-8"))):
        leaf = path.rsplit(".", 1)[-1].removesuffix("[]")
        assert f"`{leaf}`" in text or f".{leaf}`" in text, path
