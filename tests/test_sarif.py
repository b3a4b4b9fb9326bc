"""`cf validate --format sarif`: SARIF 2.1.0, checked against the official schema.

tests/data/sarif-schema-2.1.0.json is the OASIS SARIF 2.1.0 schema (errata 01), shipped
here so that the test needs no network.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import jsonschema
import pytest

from cf.record.problems import CODES

ROOT = Path(__file__).parent.parent
GAMES = ROOT / "tests" / "games"
SARIF_SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
VALIDATOR = jsonschema.Draft4Validator(SARIF_SCHEMA)


def sarif(cli, *args: str, input: bytes | None = None) -> tuple[int, dict]:
    result = cli("validate", "--format", "sarif", *args, input=input)
    log = json.loads(result.stdout)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(log)]
    assert errors == [], errors
    return result.exit_code, log


def test_the_schema_is_the_official_one():
    assert (
        SARIF_SCHEMA["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    )
    assert SARIF_SCHEMA["properties"]["version"]["enum"] == ["2.1.0"]
    jsonschema.Draft4Validator.check_schema(SARIF_SCHEMA)


def test_one_rule_per_code_and_one_result_per_problem(cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    bad = [f"tests/games/{name}.yaml" for name in ("turn", "foot-open", "schema-top-key")]
    good = "tests/games/valid-out-on-double.yaml"
    code, log = sarif(cli, *bad, good)
    assert code == 1
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(CODES)
    for rule in rules:
        assert rule["shortDescription"]["text"]
        assert f"cf explain {rule['id']}" in rule["help"]["text"]
        assert "```yaml" in rule["help"]["markdown"]
    assert [a["location"]["uri"] for a in run["artifacts"]] == [*bad, good]
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["turn", "foot-open", "schema"]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
        assert r["level"] == "error"
    turn = results[0]
    (location,) = turn["locations"]
    physical = location["physicalLocation"]
    assert physical["artifactLocation"] == {"uri": bad[0], "index": 0}
    assert physical["region"] == {"startLine": 11, "startColumn": 9}
    assert turn["message"]["text"] == "round 1, move 2: it is Ben's turn, not Ana's"
    assert turn["properties"] == {"round": 1, "move": 2, "player": "Ana"}
    schema = results[2]
    assert schema["locations"][0]["physicalLocation"]["artifactLocation"]["index"] == 2
    assert schema["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    assert "properties" not in schema  # no round, move or player


def test_a_valid_file_has_no_results(cli):
    code, log = sarif(cli, str(GAMES / "valid-no-deal.yaml"))
    assert code == 0
    assert log["runs"][0]["results"] == []


def test_uris_are_uri_references(cli, tmp_path: Path, monkeypatch):
    spaced = tmp_path / "family night #2.yaml"
    shutil.copy(GAMES / "turn.yaml", spaced)
    _, log = sarif(cli, str(spaced))
    assert log["runs"][0]["artifacts"][0]["location"]["uri"] == spaced.as_uri()
    assert "%20" in spaced.as_uri() and "%23" in spaced.as_uri()
    monkeypatch.chdir(tmp_path)
    _, log = sarif(cli, spaced.name)
    assert log["runs"][0]["artifacts"][0]["location"]["uri"] == "family%20night%20%232.yaml"


def test_stdin_and_a_problem_without_a_position(cli):
    code, log = sarif(cli, "-", input=b"")  # an empty file: a problem with no line
    assert code == 1
    (run,) = log["runs"]
    assert run["artifacts"][0]["roles"] == ["analysisTarget", "standardStream"]
    (result,) = run["results"]
    assert result["ruleId"] == "schema"
    physical = result["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"] == {"description": {"text": "standard input"}, "index": 0}
    assert "region" not in physical


@pytest.mark.parametrize("name", ["yaml", "tile-deal", "unfinished-empty-log"])
def test_every_kind_of_file_gives_valid_sarif(cli, name: str):
    code, log = sarif(cli, str(GAMES / f"{name}.yaml"))
    assert code == 1
    assert len(log["runs"][0]["results"]) == 1


def test_a_file_name_that_is_not_utf8(cli, tmp_path: Path, monkeypatch):
    name = os.fsdecode(b"bad\xff game.yaml")  # a lone surrogate stands for the byte
    try:
        (tmp_path / name).write_bytes((GAMES / "turn.yaml").read_bytes())
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system wants UTF-8 names")
    monkeypatch.chdir(tmp_path)
    code, log = sarif(cli, name)
    assert code == 1
    assert log["runs"][0]["artifacts"][0]["location"]["uri"] == "bad%FF%20game.yaml"
