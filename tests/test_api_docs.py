"""docs/api.md is a doctest: every example on it runs, from the project folder."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

ROOT = Path(__file__).parent.parent


def test_api_page_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(
        str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 20
    assert result.failed == 0


def test_help_of_cf_shows_the_api():
    import cf

    assert os.path.basename(cf.__file__) == "__init__.py"
    for name in ("Tile", "Round", "validate", "read_game", "Error", "simulate_game"):
        assert name in cf.__all__
        assert getattr(cf, name) is not None
