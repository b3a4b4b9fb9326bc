"""The game files in tests/games/: one per problem code (and cause), plus valid games.

Each file's first line says what the validator must find:

- ``# expect: valid`` — no problem at all;
- ``# expect: CODE round=R move=M line=L`` — exactly one problem, with that code and
  that round, move and line (``null`` for "none").

Each fault file holds exactly one fault, so one problem is all it may report.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cf.record.check import validate
from cf.record.problems import CODES
from cf.record.reader import read_game

GAMES = Path(__file__).parent / "games"
FILES = sorted(GAMES.glob("*.yaml"))
FAULT_FILES = [f for f in FILES if not f.name.startswith("valid")]
VALID_FILES = [f for f in FILES if f.name.startswith("valid")]

_EXPECT = re.compile(
    r"# expect: (?P<code>[a-z-]+) round=(?P<round>\d+|null) move=(?P<move>\d+|null)"
    r" line=(?P<line>\d+|null)\s*$"
)


def _number(text: str) -> int | None:
    return None if text == "null" else int(text)


def expectation(path: Path) -> tuple[str, int | None, int | None, int | None]:
    """(code, round, move, line) from a fault file's first line."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = _EXPECT.fullmatch(first)
    assert m, f"{path.name}: bad expect line {first!r}"
    return (
        m["code"],
        _number(m["round"]),
        _number(m["move"]),
        _number(m["line"]),
    )


def run(path: Path):
    return validate(read_game(path.read_bytes(), path.name))


def read(path: Path):
    return read_game(path.read_bytes(), path.name)


def _describe(problems) -> str:
    return "\n".join(
        f"  [{p.code}] round={p.round} move={p.move} line={p.line}: {p.message}" for p in problems
    )


# --- the collection itself ------------------------------------------------------------


def test_every_code_has_a_game_file():
    covered = {expectation(f)[0] for f in FAULT_FILES}
    assert set(CODES) - covered == set()
    assert len(CODES) == 27


def test_fault_files_are_named_after_their_code():
    for path in FAULT_FILES:
        code = expectation(path)[0]
        assert code in CODES, path.name
        assert path.stem == code or path.stem.startswith(code + "-"), path.name


def test_valid_files_say_so():
    assert len(VALID_FILES) >= 12
    for path in VALID_FILES:
        assert path.read_text(encoding="utf-8").splitlines()[0] == "# expect: valid"


# --- each file ------------------------------------------------------------------------


@pytest.mark.parametrize("path", FAULT_FILES, ids=lambda p: p.stem)
def test_fault_file(path: Path):
    code, round_, move, line = expectation(path)
    report = run(path)
    found = report.problems
    assert found, f"{path.name}: no problem found, expected [{code}]"
    first = found[0]
    assert (first.code, first.round, first.move, first.line) == (code, round_, move, line), (
        f"{path.name}: expected [{code}] round={round_} move={move} line={line}, got\n"
        + _describe(found)
    )
    assert first.message
    assert len(found) == 1, f"{path.name}: one fault, several problems:\n" + _describe(found)
    assert not report.valid


@pytest.mark.parametrize("path", VALID_FILES, ids=lambda p: p.stem)
def test_valid_file(path: Path):
    game = read(path)
    report = validate(game)
    assert report.problems == [], f"{path.name}:\n" + _describe(report.problems)
    assert report.valid
    # every round of a valid game is scored
    assert len(game.rounds) >= 1
    assert len(report.round_points) == len(game.rounds)
    assert all(points is not None for points in report.round_points)


# --- what the valid games score -------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "points"),
    [
        # Everybody scores a blocked round.
        ("valid-blocked-round", [{"Ana": 6, "Ben": 4, "Cy": 15}]),
        ("valid-foot-blocks", [{"Ana": 2, "Ben": 9}]),
        ("valid-two-players-reserve", [{"Ana": 71, "Ben": 84}]),
        # Scalars as written: 033 is 33, and the names stay text.
        ("valid-yaml-names", [{"No": 0, "on": 5, "1": 50}, {"No": 0, "on": 33, "1": 12}]),
        ("valid-no-deal", [{"Ana": 0, "Ben": 50}, {"Ana": 7, "Ben": 0}]),
    ],
)
def test_valid_game_points(name: str, points):
    assert run(GAMES / f"{name}.yaml").round_points == points


def test_yaml_names_are_text():
    game = read(GAMES / "valid-yaml-names.yaml")
    assert game.players == ["No", "on", "1"]


# --- through the command line ---------------------------------------------------------

CLI_FAULTS = ["turn", "foot-open", "must-draw", "score-mismatch", "player", "yaml"]


@pytest.mark.parametrize("name", CLI_FAULTS)
def test_cli_reports_the_code(cli, name: str):
    path = GAMES / f"{name}.yaml"
    code, round_, move, line = expectation(path)
    result = cli("validate", str(path))
    assert result.exit_code == 1, result.output
    out = result.stdout
    assert f"[{code}]" in out
    # FILE:LINE:COL: round R, move M: [code] message
    problem = next(row for row in out.splitlines() if f"[{code}]" in row)
    assert problem.startswith(f"{path}:{line}:")
    context = ", ".join(
        part
        for part in (
            f"round {round_}" if round_ is not None else "",
            f"move {move}" if move is not None else "",
        )
        if part
    )
    if context:
        assert f": {context}: [{code}]" in problem
    else:
        assert "round " not in problem.split(f"[{code}]")[0]


def test_cli_valid_file_exits_0(cli):
    path = GAMES / "valid-foot-three-players.yaml"
    result = cli("validate", str(path))
    assert result.exit_code == 0, result.output
    assert "[" not in result.stdout


def test_cli_json(cli):
    bad = GAMES / "foot-open.yaml"
    good = GAMES / "valid-out-on-double.yaml"
    result = cli("validate", "--format", "json", str(bad), str(good))
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"valid", "files"}
    assert data["valid"] is False
    assert [f["file"] for f in data["files"]] == [str(bad), str(good)]
    for entry in data["files"]:
        assert set(entry) == {"file", "valid", "rounds", "moves", "problems"}
    first, second = data["files"]
    assert first["valid"] is False
    assert (first["rounds"], first["moves"]) == (1, 5)
    assert len(first["problems"]) == 1
    (problem,) = first["problems"]
    assert set(problem) == {"code", "message", "line", "column", "round", "move", "player"}
    assert problem["code"] == "foot-open"
    assert (problem["line"], problem["round"], problem["move"]) == (13, 1, 4)
    assert problem["player"] == "Ben"
    assert isinstance(problem["column"], int)
    assert "5" in problem["message"]
    assert second == {
        "file": str(good),
        "valid": True,
        "rounds": 1,
        "moves": 5,
        "problems": [],
    }


def test_cli_json_unknown_fields_are_null(cli):
    path = GAMES / "schema-top-key.yaml"
    result = cli("validate", "--format", "json", str(path))
    assert result.exit_code == 1
    (problem,) = json.loads(result.stdout)["files"][0]["problems"]
    assert problem["code"] == "schema"
    assert problem["round"] is None
    assert problem["move"] is None
    assert problem["player"] is None
    assert problem["line"] == 3
    assert "title" in problem["message"]  # says which known key is closest


def test_cli_json_all_valid(cli):
    paths = [str(p) for p in VALID_FILES]
    result = cli("validate", "--format", "json", *paths)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["valid"] is True
    assert len(data["files"]) == len(VALID_FILES)
    assert all(f["valid"] and f["problems"] == [] for f in data["files"])
