"""The reference documents agree with the code: docs/cli.md and docs/file-format.md.

- every command has a ``## cf NAME`` section in cli.md, a help text, and every one of its
  options and arguments named in that section;
- every problem code is in file-format.md's table (its examples are cf explain's, checked
  by tests/test_explain.py);
- the YAML blocks marked ``# complete example`` are valid games;
- (the ``$ cf …`` examples of every page are checked by test_docs_examples.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer.main

from cf.cli import app
from cf.record.check import validate
from cf.record.problems import CODES
from cf.record.reader import read_game

ROOT = Path(__file__).parent.parent
CLI_MD = ROOT / "docs" / "cli.md"
FORMAT_MD = ROOT / "docs" / "file-format.md"

_GROUP = typer.main.get_command(app)
with typer.Context(_GROUP) as _ctx:  # the group loads each command when asked for it
    COMMANDS = {name: _GROUP.get_command(_ctx, name) for name in _GROUP.list_commands(_ctx)}  # type: ignore[attr-defined]
assert {
    "score",
    "deal",
    "validate",
    "tally",
    "simulate",
    "help",
    "new",
    "add",
    "undo",
    "show",
    "hint",
    "schema",
    "explain",
} <= set(COMMANDS)
COMPLETE_MARKER = "# complete example"


def cli_text() -> str:
    return CLI_MD.read_text(encoding="utf-8")


def format_text() -> str:
    return FORMAT_MD.read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The text under ``heading`` (a ``## `` line) up to the next ``## `` heading."""
    lines = text.splitlines()
    start = lines.index(heading)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[start:end])


def fenced_blocks(text: str, language: str) -> list[tuple[str, list[str]]]:
    """(line before the opening fence, lines inside) of every ```language block."""
    lines = text.splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i] == f"```{language}":
            end = lines.index("```", i + 1)
            blocks.append((lines[i - 1] if i else "", lines[i + 1 : end]))
            i = end
        i += 1
    return blocks


def check_yaml(text: str):
    return validate(read_game(text.encode(), "doc.yaml"))


# --- commands and options ----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_a_section_and_help(name):
    assert f"## cf {name}" in cli_text().splitlines()
    assert (COMMANDS[name].help or "").strip()


def test_global_options_are_documented():
    text = section(cli_text(), "## cf --version and cf --help")
    assert "cf --version" in text
    assert "cf --help" in text


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_and_argument_is_in_its_section(name):
    text = section(cli_text(), f"## cf {name}")
    missing = []
    for param in COMMANDS[name].params:
        if param.param_type_name == "option":
            names = [*param.opts, *param.secondary_opts]
            missing += [n for n in names if f"`{n}" not in text]
        elif param.name.upper() not in text:
            missing.append(param.name.upper())
    assert not missing, f"cf {name}: not in docs/cli.md: {missing}"


# --- problem codes -----------------------------------------------------------------------


def problem_table() -> list[str]:
    """The code of each row of file-format.md's problem code table."""
    rows = []
    generated = format_text().split("<!-- BEGIN generated from cf/record/explain.py")[1]
    for line in generated.split("<!-- END generated -->")[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and re.fullmatch(r"`[a-z-]+`", cells[0]):
            rows.append(cells[0].strip("`"))
    return rows


def test_every_code_is_in_the_problem_table():
    assert problem_table() == list(CODES), "the table must list each code once, in order"
    for code in CODES:
        assert f"#### `{code}`" in format_text().splitlines()


# --- complete examples -------------------------------------------------------------------


def complete_examples() -> list[str]:
    blocks = []
    for path in (FORMAT_MD, CLI_MD):
        for _, block in fenced_blocks(path.read_text(encoding="utf-8"), "yaml"):
            if block and block[0].startswith(COMPLETE_MARKER):
                blocks.append("\n".join(block) + "\n")
    return blocks


def test_there_are_complete_examples():
    assert len(complete_examples()) >= 2


@pytest.mark.parametrize("source", complete_examples(), ids=lambda s: s.splitlines()[0])
def test_complete_examples_are_valid(source):
    report = check_yaml(source)
    assert report.problems == []
