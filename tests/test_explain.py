"""`cf explain`: each code's rule, failing example and fix — one source for the CLI, the
docs and SARIF, and every example real."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from cf.record.check import validate
from cf.record.explain import EXPLANATIONS, UnknownCodeError, explanation
from cf.record.problems import CODES
from cf.record.reader import read_game
from cf.render.explain import change_lines, explain_markdown, explain_text

ROOT = Path(__file__).parent.parent
FORMAT_MD = ROOT / "docs" / "file-format.md"


def problems(text: str):
    return validate(read_game(text.encode(), "example.yaml")).problems


def test_one_explanation_per_code():
    assert list(EXPLANATIONS) == list(CODES)


@pytest.mark.parametrize("code", CODES)
def test_the_example_has_that_problem_and_no_other(code: str):
    found = problems(EXPLANATIONS[code].example)
    assert [p.code for p in found] == [code], [(p.code, p.message) for p in found]


@pytest.mark.parametrize("code", CODES)
def test_the_fix_is_valid_and_small(code: str):
    e = EXPLANATIONS[code]
    assert problems(e.fixed) == []
    changes = e.changes()
    assert len(changes) == 1  # one place to change ...
    assert sum(len(a) + len(b) for _, a, b in changes) <= 3  # ... of a few lines
    assert e.summary and "\n" not in e.summary and e.rule and e.fix


def test_changes_are_line_numbered():
    assert change_lines(EXPLANATIONS["turn"]) == ["after line 7:", "+      - Ben: 6-4"]
    assert change_lines(EXPLANATIONS["tile"]) == [
        "line 7:",
        "-      - Ana: 7-5",
        "+      - Ana: 6-5",
    ]


def test_codes_are_found_as_validate_prints_them():
    assert explanation("[Foot-Open]").code == "foot-open"
    with pytest.raises(UnknownCodeError) as info:
        explanation("foot-opn")
    assert info.value.suggestion == "foot-open"
    assert "did you mean 'foot-open'?" in str(info.value)
    with pytest.raises(UnknownCodeError) as info:
        explanation("qqqq")
    assert info.value.suggestion is None


def test_docs_show_the_same_text():
    spec = importlib.util.spec_from_file_location("generate", ROOT / "docs" / "generate.py")
    generate = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(generate)  # type: ignore[union-attr]
    text = FORMAT_MD.read_text(encoding="utf-8")
    assert generate.with_codes(text) == text, "docs are stale: run `python docs/generate.py`"
    generated = text.split(generate.BEGIN + "\n")[1].split(generate.END)[0]
    assert generated == explain_markdown()
    for code, e in EXPLANATIONS.items():
        assert f"#### `{code}`" in generated
        assert e.example in generated.replace("```yaml\n", "")
        assert e.fix in " ".join(generated.split())


# --- through the command line ---------------------------------------------------------


def test_cli_explains_a_code(cli):
    result = cli("explain", "foot-open")
    assert result.exit_code == 0, result.output
    assert result.stdout == explain_text(EXPLANATIONS["foot-open"])
    lines = result.stdout.splitlines()
    assert lines[0] == "[foot-open] a play elsewhere before a chicken foot has its three toes"
    assert "    $ cf validate example.yaml" in lines
    assert any(
        line.startswith("    example.yaml:10:9: round 1, move 4: [foot-open]") for line in lines
    )
    assert lines[-4:] == [
        "    line 10:",
        "    -      - Ben: 4-2",
        "    +      - Ben: 5-3",
        "    +      - Ana: 5-1",
    ]


def test_cli_lists_every_code(cli):
    result = cli("explain")
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.splitlines()[: len(CODES)]]
    assert listed == list(CODES)
    assert "cf explain CODE" in result.stdout


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("foot-opn", "Error: no problem code 'foot-opn' (did you mean 'foot-open'?)"),
        ("score-mismatched", "(did you mean 'score-mismatch'?)"),
        ("zzz", "Error: no problem code 'zzz'; `cf explain` lists them all"),
    ],
)
def test_cli_unknown_code_is_a_usage_error(cli, code: str, message: str):
    result = cli("explain", code)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_validate_help_points_at_explain(cli):
    result = cli("validate", "--help")
    assert "cf explain CODE" in " ".join(result.stdout.split())
