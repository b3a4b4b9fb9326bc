"""Hostile text in names, titles and file names (issue 22 items 4-7, 14): every writer of
SVG, HTML, CSV and terminal text gets the name matrix of ``fuzz_families.HOSTILE_NAMES``
and must write it as text: well-formed XML, a page whose data cannot change how it
parses, no formula a spreadsheet runs, no escape code or bidi control on a terminal.
(tests/test_browser.py opens the same outputs in headless Chromium.)
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from fuzz_families import HOSTILE_NAMES, hostile_name_game

from cf.record.check import validate
from cf.record.reader import read_game
from cf.record.standings import standings_of
from cf.render.chart import chart_svg, running_totals
from cf.render.html import game_page, script_json
from cf.render.svg import table_svg
from cf.render.table import table_at
from cf.text import TERMINAL_HIDDEN, csv_cell, has_hidden, visible, xml_attr, xml_text

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def pty_cf():
    """Run ``python -m cf ARGS`` with stdout and stderr on a pseudo-terminal (so that
    nothing is stripped for not being a terminal); everything it printed, as text."""
    import os
    import pty
    import subprocess
    import sys

    def run(*args: str) -> str:
        main, child = pty.openpty()
        env = {k: v for k, v in os.environ.items() if not k.startswith("CF_")}
        env["PYTHONIOENCODING"] = "utf-8"
        proc = subprocess.Popen(
            [sys.executable, "-m", "cf", *args], stdout=child, stderr=child, env=env
        )
        os.close(child)
        chunks = []
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        proc.wait(60)
        os.close(main)
        return b"".join(chunks).decode("utf-8", "replace")

    return run


def _game(name: str, title: str = "Hostile"):
    game = read_game(hostile_name_game(name, title), "g.yaml")
    return game, validate(game)


def _json_of(page: str) -> object:
    match = re.search(r'<script type="application/json" id="cf-data">(.*?)</script>', page, re.S)
    assert match, page[:300]
    return json.loads(match.group(1))


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=range(len(HOSTILE_NAMES)))
def test_the_chart_svg_is_well_formed_and_keeps_the_name_as_text(name):
    game, report = _game(name)
    if not report.valid:  # control characters: refused on input, so never drawn
        assert has_hidden(name), report.problems
        return
    svg = chart_svg(*running_totals([standings_of(game, report.round_points)]))
    root = ET.fromstring(svg)
    series = root.findall(f".//{SVG}g[@class='series']")
    shown = visible(game.players[0])
    assert [g.get("data-player") for g in series] == [shown, "Ben"]
    assert series[0].find(f"{SVG}title").text == shown
    assert not [e for e in root.iter() if e.tag in (f"{SVG}script", f"{SVG}img", "script")]
    assert not [a for e in root.iter() for a in e.attrib if a.lower().startswith("on")]


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=range(len(HOSTILE_NAMES)))
def test_the_table_svg_is_well_formed(name):
    game, report = _game(name, title=name)
    if not report.valid:
        return
    root = ET.fromstring(table_svg(table_at(game, 1, 3)))
    assert not [a for e in root.iter() for a in e.attrib if a.lower().startswith("on")]
    assert not [e for e in root.iter() if e.tag.endswith("script")]


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=range(len(HOSTILE_NAMES)))
def test_the_replay_page_embeds_its_data_so_nothing_changes_the_parse(name):
    game, report = _game(name, title=name)
    if game.rules is None or len(game.players) < 2:
        return
    page = game_page(game, report)
    data = _json_of(page)
    assert data["players"] == game.players  # read back exactly as it was
    start = page.index('id="cf-data">') + len('id="cf-data">')
    payload = page[start : page.index("</script>", start)]
    assert not set(payload) & set("<>&\u2028\u2029")
    assert page.count("<script") == 2 and page.count("</script>") == 2
    head = page[: page.index("<main>")]
    assert "<script" not in head and "onload" not in head.replace("onload=", "")


def test_script_json_escapes_what_could_change_a_page():
    text = script_json({"a": "<!--<script></script>&\u2028\u2029"})
    assert not set(text) & set("<>&\u2028\u2029")
    assert json.loads(text) == {"a": "<!--<script></script>&\u2028\u2029"}


@pytest.mark.parametrize(
    ("text", "attr"),
    [
        ('"', '"&quot;"'),
        ("'", '"\'"'),
        ("<&>", '"&lt;&amp;&gt;"'),
        ("a\x00b", '"a\\x00b"'),
        ("\ud800", '"\\ud800"'),
        ("\u202e", '"\\u202e"'),
    ],
)
def test_xml_attr(text, attr):
    assert xml_attr(text) == attr
    ET.fromstring(f"<a b={xml_attr(text)}>{xml_text(text)}</a>")


def test_xml_text_escapes_cdata_end_and_markup():
    assert xml_text("]]><script>") == "]]&gt;&lt;script&gt;"


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Ana", "Ana"),
        ("", ""),
        (-3, -3),
        (12, 12),
    ],
)
def test_csv_cell_is_the_owasp_rule(value, cell):
    assert csv_cell(value) == cell


def test_visible_escapes_controls_and_bidi_and_keeps_letters():
    assert visible("\x1b]0;PWNED\x07\x1b[2J") == "\\x1b]0;PWNED\\x07\\x1b[2J"
    assert visible("\u202eAna\u2066") == "\\u202eAna\\u2066"
    assert visible("Mamá 🐔 مرحبا") == "Mamá 🐔 مرحبا"


def test_csv_rows_read_back_as_text():
    rows = list(csv.reader(io.StringIO("'=1+1,2\n")))
    assert rows == [["'=1+1", "2"]]


# --- 6. escape codes and bidi controls never reach the terminal ---------------------------


def _hostile_files(tmp_path):
    game = tmp_path / "\x1b]0;PWNED\x07\x1b[2J.yaml"
    game.write_text(
        'title: "\\e]0;PWNED\\a\\e[2J"\n'
        'players: ["\\u202eAna", "B\\u2066en"]\n'
        'rounds:\n  - scores: {"\\u202eAna": 1, "B\\u2066en": 0}\n',
        encoding="utf-8",
    )
    return game


@pytest.mark.parametrize(
    "args",
    [
        ["tally", "{game}"],
        ["tally", "{game}", "--stats", "-f", "github"],
        ["validate", "{game}"],
        ["validate", "{game}", "{missing}"],
        ["show", "{game}"],
        ["hint", "{game}"],
        ["add", "{game}", "\u202eAna=1", "B\u2066en=0"],
        ["undo", "{game}"],
        ["score", "{missing}"],
    ],
    ids=lambda a: "-".join(a[:3]),
)
def test_no_control_or_bidi_character_reaches_the_terminal(tmp_path, args, pty_cf):
    game = _hostile_files(tmp_path)
    missing = tmp_path / "nope\x1b[31m\u202e.yaml"
    out = pty_cf(*[a.format(game=game, missing=missing) for a in args])
    assert not TERMINAL_HIDDEN.search(out.replace("\r\n", "\n")), repr(out[-400:])
    assert "Traceback" not in out and "internal error" not in out


def test_the_escapes_are_shown_instead(tmp_path, pty_cf):
    game = _hostile_files(tmp_path)
    out = pty_cf("tally", str(game))
    assert "\\u202eAna" in out
    # One game's table says "partial game" itself; a tournament notes each partial game's
    # file on stderr, where the file name is shown escaped.
    other = tmp_path / "other.yaml"
    other.write_bytes(game.read_bytes())
    out = pty_cf("tally", str(game), str(other))
    assert "\\u202eAna" in out and "\\x1b]0;PWNED\\x07" in out  # the file name, in the note


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["score", "9-\x1b[1m7"], "'9-\\x1b[1m7' is not a tile"),
        (["score", "1-1", "--set", "\x1b[2J"], "\\x1b[2J"),
    ],
)
def test_a_pipe_gets_the_same_escapes_as_a_terminal(args, said):
    """Click strips ANSI codes from what it echoes to a pipe, before cf's streams escape
    them: a message then named text nobody typed ('9-7' is not a tile)."""
    from hardening_helpers import cf

    proc = cf(*args)
    assert proc.returncode in (1, 2) and said in proc.stderr.decode(), proc.stderr
    piped = cf("score", stdin=b"\x1b[2J: 3-3\n")
    assert piped.stdout == b"\\x1b[2J: 6\n"


def test_documents_keep_their_text_exactly(tmp_path):
    from hardening_helpers import cf

    game = _hostile_files(tmp_path)
    proc = cf("tally", str(game), "-f", "json")
    data = json.loads(proc.stdout)
    assert [s["player"] for s in data["standings"]] == ["B\u2066en", "\u202eAna"]


# --- 7. CSV formula injection ---------------------------------------------------------------


FORMULAS = ['=HYPERLINK("http://evil/","x")', "+1", "-1+1", "@SUM(1)"]


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_tally_csv_writes_no_formula(cli, tmp_path, fmt):
    from cf.record.emit import yaml_key

    names = [*FORMULAS, "Ben"]
    scores = ", ".join(f"{yaml_key(n)}: {i}" for i, n in enumerate(names))
    game = tmp_path / "g.yaml"
    game.write_text(
        f"players: [{', '.join(yaml_key(n) for n in names)}]\nrounds:\n  - scores: {{{scores}}}\n"
    )
    result = cli("tally", str(game), "-f", fmt)
    assert result.exit_code == 0, result.output
    delimiter = "," if fmt == "csv" else "\t"
    rows = list(csv.reader(io.StringIO(result.stdout), delimiter=delimiter))
    players = [r[1] for r in rows[1:]]
    assert sorted(players) == sorted(["'" + n for n in FORMULAS] + ["Ben"])
    for row in rows:
        assert not any(cell.startswith(("=", "+", "-", "@")) for cell in row), row
    data = json.loads(cli("tally", str(game), "-f", "json").stdout)
    assert sorted(s["player"] for s in data["standings"]) == sorted(names)  # JSON unchanged


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_a_line_feed_in_a_file_name_keeps_one_line_per_problem(cli, tmp_path, fmt):
    """SPEC 7: one line per problem. A file name's line feed or tab is shown as its escape
    (a GitHub annotation escapes it its own way, %0A)."""
    bad = tmp_path / "p\nq\t.yaml"
    bad.write_bytes(Path("examples/mistakes/foot-open.yaml").read_bytes())
    result = cli("validate", str(bad), "-f", fmt)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2, lines
    if fmt == "text":
        assert lines[0].startswith(f"{tmp_path}/p\\nq\\t.yaml:16:9: ")
    else:
        assert "file=" in lines[0] and "p%0Aq" in lines[0]
    assert lines[1] == f"{tmp_path}/p\\nq\\t.yaml: 1 problem (1 round(s), 5 move(s))"


def test_the_progress_bar_draws_on_a_terminal_not_as_escapes(pty_cf):
    """cf's own bar reaches the terminal as the codes that draw it (a carriage return, the
    cursor hidden), never as their escapes ('\\r\\x1b[?25l' written out as text)."""
    out = pty_cf(
        "simulate", "--set", "6", "--players", "2", "--rounds", "1", "--games", "60",
        "--stats", "--seed", "1", "-j", "1",
    )  # fmt: skip
    assert "playing" in out
    assert "\\x1b[?25l" not in out and "\\r" not in out, repr(out[:300])
