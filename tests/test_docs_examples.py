"""Every ``$ …`` example in the README and docs/ prints what the page says.

Each page is one session, run in a fresh folder that holds a copy of ``examples/``:
its commands run in page order, so a file that one example writes is there for the next
(nothing is left in the repository). A YAML block preceded by ``<!-- file: NAME -->`` is
written to NAME in that folder when the page reaches it. A bare ``cf …`` call runs
in-process (fast); anything else (pipes, redirections, ``sed``, ``printf``) runs in bash
with the project's ``cf`` first on PATH, stdout and stderr together as a terminal shows
them. Only a block preceded by ``<!-- output varies -->`` has its output not compared
(its commands still run and must not fail with a traceback); the page says why.
"""

from __future__ import annotations

import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cf.cli import app

ROOT = Path(__file__).parent.parent
PAGES = [
    ROOT / "README.md",
    *sorted(ROOT.glob("README.*.md")),
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "docs").glob("*/*.md")),
]


def language(page: Path) -> str:
    """The language a page's outputs are in: README.es.md and docs/es/ are Spanish."""
    for lang in ("es", "gl"):
        if page.name == f"README.{lang}.md" or page.parent.name == lang:
            return lang
    return "en"


VARIES = "<!-- output varies -->"
FILE_MARK = re.compile(r"<!-- file: (\S+) -->")


@dataclass
class Step:
    kind: str  # "file" or "command"
    text: str  # the file name, or the command
    body: str  # the file's text, or the expected output
    check: bool = True
    lines: tuple[int, int] = (0, 0)  # where the expected output stands in the page


def steps(page: Path) -> list[Step]:
    lines = page.read_text(encoding="utf-8").splitlines()
    out: list[Step] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            language = line[3:].strip()
            end = lines.index("```", i + 1)
            block = lines[i + 1 : end]
            before = lines[i - 1].strip() if i else ""
            mark = FILE_MARK.fullmatch(before)
            if language == "yaml" and mark:
                out.append(Step("file", mark.group(1), "\n".join(block) + "\n"))
            elif language == "console":
                out += _commands(block, check=before != VARIES, offset=i + 1)
            i = end
        i += 1
    return out


def _commands(block: list[str], *, check: bool, offset: int) -> list[Step]:
    found = []
    i = 0
    while i < len(block):
        if not block[i].startswith("$ "):
            i += 1
            continue
        command = block[i][2:]
        if command.split()[:1] in (["pip"], ["pipx"], ["apt-get"], ["sudo"]):
            raise AssertionError(f"an install command in a console block: {command}")
        j = i + 1
        while j < len(block) and not block[j].startswith("$ "):
            j += 1
        body = "\n".join(block[i + 1 : j])
        found.append(Step("command", command, body, check, (offset + i + 1, offset + j)))
        i = j
    return found


def is_simple(command: str) -> bool:
    """A bare ``cf`` call (maybe after ``VAR=value``): no pipe, redirection or list."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    tokens = list(lexer)
    words = [t for t in tokens if not re.fullmatch(r"[A-Z_]+=.*", t)]
    operators = [t for t in tokens if t and set(t) <= set("|&;<>()")]
    return words[:1] == ["cf"] and not operators and "$" not in command and "`" not in command


def run_simple(command: str) -> str:
    tokens = shlex.split(command)
    env = {}
    while re.fullmatch(r"[A-Z_]+=.*", tokens[0]):
        key, _, value = tokens.pop(0).partition("=")
        env[key] = value
    args = []
    for token in tokens[1:]:
        args += sorted(glob.glob(token)) if "*" in token else [token]
    return CliRunner().invoke(app, args, env=env).output


def run_shell(command: str) -> str:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    for var in ("CF_SET", "CF_DOUBLE_BLANK"):
        env.pop(var, None)
    r = subprocess.run(
        ["bash", "-c", command], capture_output=False, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, env=env, timeout=120,
    )  # fmt: skip
    return r.stdout


def normal(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip("\n").splitlines()]


def test_pages_have_examples():
    total = sum(1 for page in PAGES for s in steps(page) if s.kind == "command")
    assert total >= 60


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples_print_what_the_page_says(page, tmp_path, monkeypatch):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CF_LANG", language(page))
    for var in ("CF_SET", "CF_DOUBLE_BLANK"):
        monkeypatch.delenv(var, raising=False)
    failures = []
    outputs: list[tuple[Step, str]] = []
    for step in steps(page):
        if step.kind == "file":
            Path(step.text).write_text(step.body, encoding="utf-8")
            continue
        got = run_simple(step.text) if is_simple(step.text) else run_shell(step.text)
        assert "Traceback" not in got, f"$ {step.text}\n{got}"
        if step.check:
            outputs.append((step, got))
        if step.check and normal(got) != normal(step.body):
            failures.append(f"$ {step.text}\n--- {page.name}\n{step.body}\n--- cf printed\n{got}")
    if failures and os.environ.get("CF_DOCS_UPDATE"):
        _update(page, outputs)
        pytest.skip(f"{page.name}: outputs rewritten (CF_DOCS_UPDATE)")
    assert not failures, "\n\n".join(failures)
    leftovers = [p.name for p in ROOT.iterdir() if p.name in ("game.yaml", "league")]
    assert not leftovers


def _update(page: Path, outputs: list[tuple[Step, str]]) -> None:
    """Write what cf printed into the page, in place of what it said (a maintainer's tool:
    ``CF_DOCS_UPDATE=1 pytest tests/test_docs_examples.py``, then read the diff)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    for step, got in sorted(outputs, key=lambda o: o[0].lines, reverse=True):
        start, end = step.lines
        lines[start:end] = normal(got) if got.strip() else []
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")
