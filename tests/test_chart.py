"""``cf tally --chart`` (SPEC §10): running totals round by round, one line per player."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cf.record.standings import game_standings
from cf.render.chart import chart_svg, running_totals

ROOT = Path(__file__).parent.parent
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def series_of(svg: str) -> dict[str, list[list[tuple[float, float]]]]:
    root = ET.fromstring(svg.encode())
    out = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "series":
            out[g.get("data-player")] = [
                [tuple(map(float, p.split(","))) for p in line.get("points").split()]
                for line in g.iter(f"{SVG}polyline")
            ]
    return out


def test_running_totals_follow_the_rounds():
    g = game_standings("g.yaml", ["Ana", "Ben"], [{"Ana": 5, "Ben": 0}, {"Ana": 1, "Ben": 9}])
    series, files, rounds = running_totals([g])
    assert [(s.player, s.totals) for s in series] == [("Ana", (5, 6)), ("Ben", (0, 9))]
    assert files == ["g.yaml"] and rounds == [2]


def test_a_player_who_sits_out_a_game_has_a_gap():
    g1 = game_standings("a.yaml", ["Ana", "Ben"], [{"Ana": 5, "Ben": 0}])
    g2 = game_standings("b.yaml", ["Cy", "Ben"], [{"Cy": 2, "Ben": 3}, {"Cy": 0, "Ben": 1}])
    g3 = game_standings("c.yaml", ["Ana", "Cy"], [{"Ana": 1, "Cy": 1}])
    series, _, rounds = running_totals([g1, g2, g3])
    totals = {s.player: s.totals for s in series}
    assert totals == {
        "Ana": (5, None, None, 6),
        "Ben": (0, 3, 4, None),
        "Cy": (None, 2, 2, 3),
    }
    lines = series_of(chart_svg(series, ["a.yaml", "b.yaml", "c.yaml"], rounds))
    assert [len(run) for run in lines["Ana"]] == [1, 1]
    assert [len(run) for run in lines["Cy"]] == [3]


def test_cli_chart_of_one_game_matches_its_standings(cli, tmp_path):
    out = tmp_path / "chart.svg"
    result = cli("tally", "examples/family-night.yaml", "--chart", str(out))
    assert result.exit_code == 0
    assert "Carla *" in result.stdout  # the table is still printed
    data = json.loads(cli("tally", "examples/family-night.yaml", "-f", "json").stdout)
    lines = series_of(out.read_text())
    assert set(lines) == {"Ana", "Ben", "Carla", "Dan"}
    # Lower on the page is a lower total: the order of the last points is the ranking.
    last_y = {p: runs[-1][-1][1] for p, runs in lines.items()}
    ranked = [row["player"] for row in data["standings"]]
    assert sorted(last_y, key=lambda p: -last_y[p]) == ranked
    for runs in lines.values():
        (points,) = runs
        assert len(points) == 10
        ys = [y for _, y in points]
        assert ys == sorted(ys, reverse=True)  # running totals never go down


def test_cli_chart_of_the_league(cli, tmp_path):
    out = tmp_path / "league.svg"
    files = sorted(str(p) for p in Path("examples").glob("*.yaml"))
    result = cli("tally", *files, "--rank-by", "average", "--chart", str(out))
    assert result.exit_code == 0
    svg = out.read_text()
    assert set(series_of(svg)) == {"Ana", "Ben", "Carla", "Dan", "Eva", "Fede"}
    assert "Running totals of 4 games" in svg


def test_chart_file_type_is_a_usage_error(cli, tmp_path):
    result = cli("tally", "examples/family-night.yaml", "--chart", str(tmp_path / "c.jpg"))
    assert result.exit_code == 2
    assert "a chart is written as .svg or .png" in result.output
    assert "rank" not in result.output  # nothing tallied before the usage error


def test_png_chart(cli, tmp_path):
    pytest.importorskip("cairosvg", reason="the charts extra (cairosvg) is not installed")
    out = tmp_path / "chart.png"
    result = cli("tally", "examples/family-night.yaml", "--chart", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_without_the_extra_says_how_to_install_it(cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import fails as if not installed
    out = tmp_path / "chart.png"
    result = cli("tally", "examples/family-night.yaml", "--chart", str(out))
    assert result.exit_code == 2
    assert "pip install 'chickenfoot[charts]'" in result.output
    assert not out.exists()
    # Refused before anything is printed: no standings table above the error.
    assert result.stdout == "" and "rank" not in result.output
