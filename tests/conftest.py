"""Shared helpers: run the CLI in-process, and validate a game written inline."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cf.cli import app
from cf.record.check import Report, validate
from cf.record.problems import Problem
from cf.record.reader import read_game

GAMES = Path(__file__).parent / "games"


def _load_commands_in_english() -> None:
    """A command's --help is made when its module is first imported, in the language of
    that moment (one process, one language, as cf runs). A test that ran a command in
    Spanish first would leave its help Spanish for every later in-process test: load them
    all in English once, whatever order the tests run in."""
    import importlib

    from cf import i18n
    from cf.cli import COMMANDS

    i18n.set_language("en")
    try:
        for name in COMMANDS:
            importlib.import_module(f"cf.commands.{name}")
    finally:
        i18n.set_language(None)


_load_commands_in_english()
EXAMPLES = Path(__file__).parent.parent / "examples"


def check(source: str) -> Report:
    """Validate a game file given as (dedented) YAML text."""
    return validate(read_game(textwrap.dedent(source).encode(), "game.yaml"))


def problems(source: str) -> list[Problem]:
    return check(source).problems


def codes(source: str) -> list[tuple[str, int | None, int | None]]:
    """(code, round, move) of every problem, in report order."""
    return [(p.code, p.round, p.move) for p in problems(source)]


@pytest.fixture(autouse=True)
def _no_cf_environment(monkeypatch):
    """A CF_SET, CF_DOUBLE_BLANK or LANG in the shell running the tests changes no test."""
    monkeypatch.delenv("CF_SET", raising=False)
    monkeypatch.delenv("CF_DOUBLE_BLANK", raising=False)
    # English, whatever language the machine running the tests speaks (tests of other
    # languages set their own); a --lang given in-process is forgotten after each test.
    monkeypatch.setenv("CF_LANG", "en")
    from cf import i18n

    i18n.set_language(None)


@pytest.fixture
def cli():
    """Invoke ``cf`` in-process: ``cli("score", "9-7")`` returns the click Result."""
    runner = CliRunner()

    def invoke(*args: str, input: str | bytes | None = None, env: dict | None = None):
        return runner.invoke(app, list(args), input=input, env=env)

    return invoke


@pytest.fixture
def mallopt_calls(monkeypatch) -> list[tuple[int, int]]:
    """The ``mallopt`` calls made from here on, as (parameter, value), to a fake glibc on a
    Linux that ``ctypes.CDLL`` returns (cf._process.keep_freed_memory): nothing is set."""
    import ctypes
    import sys

    calls: list[tuple[int, int]] = []

    class Libc:
        def mallopt(self, param: int, value: int) -> int:
            calls.append((param, value))
            return 1

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(ctypes, "CDLL", lambda name: Libc())
    return calls
