"""`cf schema`: the JSON Schema of the game file, as an editor (a YAML 1.2 reader) sees it.

The schema must accept every file that has no `schema` problem and reject every file that
has one (SPEC §12), duplicate keys aside. Files are loaded here as YAML 1.2 would load
them (core schema: ``033`` is 33, ``No`` is a string), then checked with ``jsonschema``.
"""

# ruff: noqa: E501  (one game file per line reads best here)

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cf.record.check import validate
from cf.record.reader import ROUND_KEYS, TOP_KEYS, read_game
from cf.record.schema import game_schema, schema_json
from cf.rules import RULE_KEYS

ROOT = Path(__file__).parent.parent
GAMES = ROOT / "tests" / "games"
EXAMPLES = sorted((ROOT / "examples").rglob("*.yaml"))
SCHEMA_FILE = ROOT / "docs" / "game.schema.json"


# --- YAML 1.2 (core schema), as an editor's language server reads a file --------------


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML's safe loader with the YAML 1.2 core schema's implicit types instead of 1.1's.

    Duplicate keys are recorded (no JSON Schema can see them: the test sets them aside).
    """

    duplicates: list[str]

    def construct_mapping(self, node, deep=False):  # type: ignore[no-untyped-def]
        keys = [self.construct_object(k, deep=True) for k, _ in node.value]
        seen: set[object] = set()
        for key in keys:
            if key in seen:
                self.duplicates.append(str(key))
            seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node):  # type: ignore[no-untyped-def]
        text = self.construct_scalar(node)
        if text.startswith("0o"):
            return int(text[2:], 8)
        if text.startswith("0x"):
            return int(text[2:], 16)
        return int(text, 10)


Yaml12Loader.yaml_implicit_resolvers = {}
for _tag, _pattern, _first in (
    ("null", r"~|null|Null|NULL|", ["~", "n", "N", ""]),
    ("bool", r"true|True|TRUE|false|False|FALSE", list("tTfF")),
    ("int", r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+", list("-+0123456789")),
    (
        "float",
        r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)",
        list("-+.0123456789"),
    ),
):
    Yaml12Loader.add_implicit_resolver(
        f"tag:yaml.org,2002:{_tag}", re.compile(f"^(?:{_pattern})$"), _first
    )
Yaml12Loader.add_constructor("tag:yaml.org,2002:int", Yaml12Loader.construct_yaml_int)


def _json_key(key: object) -> str:
    return key if isinstance(key, str) else json.dumps(key)


def _as_json(value: object) -> object:
    """A loaded YAML value in the JSON data model (what a schema validator sees)."""
    if isinstance(value, dict):
        return {_json_key(k): _as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_json(v) for v in value]
    return value


def load12(text: str) -> tuple[object, list[str]]:
    loader = Yaml12Loader(text)
    loader.duplicates = []
    try:
        return _as_json(loader.get_single_data()), loader.duplicates
    finally:
        loader.dispose()


VALIDATOR = jsonschema.Draft202012Validator(game_schema())


def schema_errors(text: str) -> list[str]:
    data, _ = load12(text)
    return [e.message for e in VALIDATOR.iter_errors(data)]


def cf_codes(text: str) -> set[str]:
    return {p.code for p in validate(read_game(text.encode(), "t.yaml")).problems}


# --- the schema itself ---------------------------------------------------------------


def test_the_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(game_schema())
    assert game_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_schema_knows_the_keys_the_reader_knows():
    schema = game_schema()
    assert list(schema["properties"]) == list(TOP_KEYS)
    assert list(schema["$defs"]["round"]["properties"]) == list(ROUND_KEYS)
    assert list(schema["properties"]["rules"]["properties"]) == list(RULE_KEYS)


def test_docs_copy_is_what_cf_schema_prints(cli):
    result = cli("schema")
    assert result.exit_code == 0, result.output
    assert result.stdout == schema_json()
    assert SCHEMA_FILE.read_text(encoding="utf-8") == result.stdout, (
        "docs/game.schema.json is stale: run `python docs/generate.py`"
    )


def test_the_loader_reads_yaml_1_2():
    data, _ = load12("a: [033, No, on, yes, 2026-11-28, 0x1F, 0o17, 1_000, true, ~, 1.5]\n")
    assert data == {"a": [33, "No", "on", "yes", "2026-11-28", 31, 15, "1_000", True, None, 1.5]}
    assert load12("1: x\nNo: y\n")[0] == {"1": "x", "No": "y"}


# --- the files of the project ----------------------------------------------------------


def _expected_code(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    return first.removeprefix("# expect: ").split()[0]


GAME_FILES = sorted(GAMES.glob("*.yaml"))
ACCEPTED = EXAMPLES + [p for p in GAME_FILES if _expected_code(p) not in ("schema", "yaml")]
REJECTED = [p for p in GAME_FILES if _expected_code(p) == "schema"]


@pytest.mark.parametrize("path", ACCEPTED, ids=lambda p: p.stem)
def test_files_without_a_schema_problem_are_accepted(path: Path):
    text = path.read_text(encoding="utf-8")
    assert "schema" not in cf_codes(text)
    assert schema_errors(text) == []


@pytest.mark.parametrize("path", REJECTED, ids=lambda p: p.stem)
def test_files_with_a_schema_problem_are_rejected(path: Path):
    text = path.read_text(encoding="utf-8")
    _, duplicates = load12(text)
    if duplicates:
        assert "duplicate" in path.stem  # the only kind of schema problem set aside
        pytest.skip("a duplicate key: no JSON Schema sees it")
    assert schema_errors(text) != []


def test_the_project_has_files_of_both_kinds():
    assert len(ACCEPTED) >= 60
    assert len(REJECTED) >= 4


# --- shape by shape: the schema draws the line where cf's `schema` problem does ---------

_ROUND = "{scores: {A: 1, B: 2}}"
CASES = [
    # accepted: no schema problem (maybe other problems)
    "players: [A, B]\nrounds: []\n",
    "players: [A, B]\nrounds:\n",
    "title: 2026\ndate: 2026-11-28\nnotes: yes\nplayers: [A, B]\nrounds: []\n",
    "players: [1, No, true, 1.5]\nrounds: [{scores: {1: 033, No: '7', true: 0, 1.5: 2}}]\n",
    "players: [A, A]\nrounds: []\n",  # player
    "set: 6\nplayers: [A, B]\nrounds: [{starter: [6|6], scores: {A: 1, B: 2}}]\n",
    "players: [A]\nrounds: []\n",  # player
    "players:\nrounds: []\n",  # player
    "set: double-seven\nplayers: [A, B]\nrounds: []\n",  # rules
    "set: [9]\nplayers: [A, B]\nrounds: []\n",  # rules
    "rules: 5\nplayers: [A, B]\nrounds: []\n",  # rules
    "rules: {deal: x, reserve: -1, double_blank: [1], starter_arms: PLAYERS}\nplayers: [A, B]\nrounds: []\n",
    "rules:\nplayers: [A, B]\nrounds: []\n",
    "players: [A, B]\nrounds: [{hands: {A: 9-7 6-6, B: [5-5, '4|1'], C: ''}}]\n",  # player
    "players: [A, B]\nrounds: [{hands: {A: , B: []}}]\n",
    "players: [A, B]\nrounds: [{hands: {A: 5, B: true}}]\n",  # tile
    "players: [A, B]\nrounds: [{starter: 12, scores: {A: 1, B: 2}}]\n",  # tile
    "players: [A, B]\nrounds: [{starter:, scores: {A: 1, B: 2}}]\n",  # tile
    "players: [A, B]\nrounds: [{scores: {A: 1}}]\n",  # missing-score
    "players: [A, B]\nrounds: [{scores:}]\n",  # missing-score
    "players: [A, B]\nrounds: [{notes: x}]\n",  # missing-score
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves:}]\n",  # unfinished
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: [{A: 9-8}, {B: [9-7]}, {C: pass}, {A: 5}, {B: }]}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, deal:}]\n",  # deal
    # rejected: a schema problem
    "",
    "- players\n",
    "players: [A, B]\n",
    "rounds: []\n",
    "titel: x\nplayers: [A, B]\nrounds: []\n",
    "title: [a, b]\nplayers: [A, B]\nrounds: []\n",
    "notes: {a: 1}\nplayers: [A, B]\nrounds: []\n",
    "rules: {starterarms: 2}\nplayers: [A, B]\nrounds: []\n",
    "players: A\nrounds: []\n",
    "players: [A, '']\nrounds: []\n",
    "players: [A, '  ']\nrounds: []\n",
    "players: [A, [B]]\nrounds: []\n",
    "players: [A, B]\nrounds: 5\n",
    "players: [A, B]\nrounds: [5]\n",
    "players: [A, B]\nrounds: [~]\n",
    f"players: [A, B]\nrounds: [{_ROUND}, {{score: {{A: 1, B: 2}}}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, note: x}]\n",
    "players: [A, B]\nrounds: [{scores: {A: -1, B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: x, B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1.5, B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1_000, B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: true, B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: , B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: [1], B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: [1, 2]}]\n",
    "players: [A, B]\nrounds: [{hands: 5}]\n",
    "players: [A, B]\nrounds: [{hands: {A: {x: 1}, B: ''}}]\n",
    "players: [A, B]\nrounds: [{hands: {A: [[9-9]], B: ''}}]\n",
    "players: [A, B]\nrounds: [{deal: [9-8], scores: {A: 1, B: 2}}]\n",
    "players: [A, B]\nrounds: [{starter: [9, 9], scores: {A: 1, B: 2}}]\n",
    "players: [A, B]\nrounds: [{notes: [x], scores: {A: 1, B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: 9-8}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: [5]}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: [{}]}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: [{A: 9-8, B: 9-7}]}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: [{A: {tile: 9-8}}]}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: [{A: [9-8, 9-7]}]}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: [{A: []}]}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: [{A: [[9-8]]}]}]\n",
]  # fmt: skip


@pytest.mark.parametrize("source", CASES, ids=lambda s: s.replace("\n", " | ")[:70])
def test_schema_agrees_with_cf(source: str):
    has_schema_problem = "schema" in cf_codes(source)
    errors = schema_errors(source)
    assert bool(errors) == has_schema_problem, (
        f"cf: {sorted(cf_codes(source))}; schema: {errors or 'accepted'}"
    )


def test_cases_cover_both_verdicts():
    verdicts = ["schema" in cf_codes(s) for s in CASES]
    assert verdicts.count(True) >= 30
    assert verdicts.count(False) >= 20


# What YAML 1.2 turns into a whole number, or cannot tell from an empty value, while cf
# reads the text as written: the limits docs/file-format.md names.
LIMITS = [
    "players: [A, B]\nrounds: [{scores: {A: +5, B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 0x1F, B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 0o17, B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 3.0, B: 2}}]\n",
    "players: [A, B]\nrounds: [{scores: {A: 1e3, B: 2}}]\n",
]


@pytest.mark.parametrize("source", LIMITS, ids=lambda s: s.split("{A: ")[1].split(",")[0])
def test_limits_numbers_yaml_1_2_reads_differently(source: str):
    assert "schema" in cf_codes(source)
    assert schema_errors(source) == []  # documented: cf validate catches these


def test_limits_a_player_called_null_needs_quotes():
    # YAML 1.2 reads `null` as nothing, and an empty name is a schema problem for cf
    assert cf_codes("players: [A, null]\nrounds: []\n") == set()
    assert schema_errors("players: [A, null]\nrounds: []\n") != []
    assert schema_errors("players: [A, 'null']\nrounds: []\n") == []
    assert "schema" in cf_codes("players: [A, '']\nrounds: []\n")


# --- any shape: the verdicts agree on generated files ----------------------------------

_scalars = st.one_of(
    st.sampled_from(["Ana", "Ben", "9-8", "8-8", "pass", "draw, pass", "", " ", "No", "x"]),
    st.integers(-2, 40),
    st.booleans(),
    st.none(),
    st.just(1.5),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["Ana", "Ben", "Cy", "deal", "x"]), inner, max_size=3),
    ),
    max_leaves=6,
)
_round_keys = ["starter", "deal", "moves", "hands", "scores", "notes", "score"]
_rounds = st.dictionaries(st.sampled_from(_round_keys), _values, max_size=3)
_top = st.fixed_dictionaries(
    {"players": st.one_of(st.just(["Ana", "Ben"]), _values)},
    optional={
        "rounds": st.one_of(st.lists(st.one_of(_rounds, _scalars), max_size=3), _values),
        "title": _values,
        "set": _values,
        "rules": st.one_of(
            st.dictionaries(st.sampled_from(["deal", "reserve", "starterarms"]), _values),
            _values,
        ),
        "titel": _scalars,
    },
)


@settings(max_examples=150, deadline=None)
@given(_top)
def test_generated_files_get_the_same_verdict(data):
    players = data["players"]
    # the one known limit in reach: a name written null (see test_limits_...)
    assume(not (isinstance(players, list) and None in players))
    source = yaml.safe_dump(data, sort_keys=False)
    has_schema_problem = "schema" in cf_codes(source)
    errors = schema_errors(source)
    assert bool(errors) == has_schema_problem, (source, sorted(cf_codes(source)), errors)
