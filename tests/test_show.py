"""``cf show`` (SPEC §10): the table after any move as text, JSON, SVG and HTML."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cf.record.problems import MAX_PROBLEMS
from cf.record.reader import read_game_file
from cf.record.replay import apply_entry, round_starter, start_round
from cf.render.table import round_steps, table_at, table_facts

ROOT = Path(__file__).parent.parent
FAMILY = "examples/family-night.yaml"
MISTAKE = "examples/mistakes/foot-open.yaml"
SVG = "{http://www.w3.org/2000/svg}"

KEYS = [
    "round", "move", "starter", "arms", "arms_needed", "pending", "toes", "open_ends",
    "hands", "yard", "drawable", "next", "over", "problem",
]  # fmt: skip


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def expected_after(board, rec, moves: int) -> dict:
    """The SPEC §10 object, worked out here from the board itself."""
    entries = rec.moves or []
    over = "out" if board.winner else ("blocked" if board.is_blocked() else None)
    nxt = None if over else (board.next_player or (entries[0].player if entries else None))
    return {
        "round": rec.number,
        "move": moves,
        "starter": str(board.starter),
        "arms": board.arms,
        "arms_needed": board.arms_needed,
        "pending": board.pending,
        "toes": board.toes if board.pending is not None else 0,
        "open_ends": sorted(n for n, c in board.open_ends.items() for _ in range(c)),
        "hands": {
            p: {
                "known": sorted(
                    (str(t) for t in h.known),
                    key=lambda s: tuple(map(int, s.split("-"))),
                    reverse=True,
                ),
                "unseen": h.unseen,
            }
            for p, h in board.hands.items()
        },
        "yard": board.yard,
        "drawable": max(board.yard - board.reserve, 0),
        "next": nxt,
        "over": over,
        "problem": None,
    }


@pytest.mark.parametrize("name", ["family-night.yaml", "two-players.yaml"])
def test_json_matches_the_replay_at_every_move(name):
    game = read_game_file(f"examples/{name}")
    checked = 0
    for rec in game.rounds:
        board = start_round(
            game.rules, game.players, round_starter(game.top, rec.number), rec.deal
        )
        for m in range(len(rec.moves) + 1):
            if m:
                apply_entry(board, rec.moves[m - 1])
            got = table_facts(table_at(game, rec.number, m))
            assert list(got) == KEYS
            assert got == expected_after(board, rec, m), (rec.number, m)
            checked += 1
    assert checked == game.move_count + len(game.rounds)


def test_json_at_every_move_of_the_six_player_example_agrees_with_the_steps():
    # The same facts the HTML page steps through, move by move, for the larger example.
    game = read_game_file("examples/double-twelve-six-players.yaml")
    for rec in game.rounds[::4]:
        _, steps = round_steps(game, rec.number)
        board = start_round(
            game.rules, game.players, round_starter(game.top, rec.number), rec.deal
        )
        for step in steps:
            if step.move:
                apply_entry(board, rec.moves[step.move - 1])
            assert step.facts == expected_after(board, rec, step.move)
        assert steps[-1].facts == table_facts(table_at(game, rec.number))


def show_json(cli, *args):
    result = cli("show", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_types_and_defaults(cli):
    data = show_json(cli, FAMILY)
    assert data["round"] == 10 and data["move"] == 49  # the last round with moves, all of it
    assert data["over"] == "blocked" and data["next"] is None
    for key in ("arms", "toes", "yard", "drawable", "arms_needed", "move", "round"):
        assert type(data[key]) is int, key
    assert all(type(n) is int for n in data["open_ends"])
    assert data["open_ends"] == sorted(data["open_ends"])


def test_move_zero_names_the_first_mover(cli):
    data = show_json(cli, FAMILY, "--round", "2", "--move", "0")
    assert data["move"] == 0 and data["next"] == "Ben"  # round 2's log starts with Ben
    assert data["arms"] == 0 and data["open_ends"] == [] and data["pending"] is None
    assert all(len(h["known"]) == 11 and h["unseen"] == 0 for h in data["hands"].values())


def test_round_3_move_20(cli):
    data = show_json(cli, FAMILY, "-r", "3", "-m", "20")
    assert data["pending"] == 6 and data["toes"] == 1
    assert data["open_ends"] == [1, 2, 3, 3, 4, 4, 4, 7]
    assert data["next"] == "Carla" and data["over"] is None
    assert data["yard"] == 8 and data["drawable"] == 7


def test_the_problem_that_stops_the_replay(cli):
    data = show_json(cli, MISTAKE)
    assert data["move"] == 3
    assert data["problem"] == {
        "code": "foot-open",
        "message": "Ben played 2-0 elsewhere while the chicken foot on 1-1 has 0 of 3 toes: "
        "the next play must hold a 1",
        "line": 16,
        "column": 9,
        "round": 1,
        "move": 4,
        "player": "Ben",
    }
    assert data["next"] == "Ben"


BROKEN_DEAL = """\
set: double-six
rules: {starter_arms: 2, deal: 5}
players: [A, B]
rounds:
  - starter: 5-5
    deal:
      A: 6-5 6-4 1-1 2-1 6-6
      B: 6-5 5-5 3-0 4-2 1-0 2-2
    moves:
      - A: 6-5
"""


@pytest.mark.parametrize("move", [[], ["--move", "1"], ["--move", "0"]])
def test_a_round_validate_does_not_replay_is_not_replayed(cli, tmp_path, move):
    """A round whose deal or starter has a problem is not replayed by cf validate (SPEC 6);
    cf show does not replay it either: the table before the first move, and the round's
    problem as the one that stops the replay (never a table the rules never allowed)."""
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN_DEAL)
    assert "[starter]" in cli("validate", str(path)).output
    data = show_json(cli, str(path), *move)
    assert data["move"] == 0 and data["open_ends"] == [] and data["arms"] == 0
    assert data["problem"]["code"] == "starter" and data["problem"]["move"] is None
    assert data["problem"]["line"] == 5 and data["problem"]["round"] == 1
    text = cli("show", str(path), *move).stdout
    assert "after move 0 of 1" in text
    assert text.endswith("log not replayed: [starter] round 1 starts with 6-6, not 5-5\n")
    svg = cli("show", str(path), "-f", "svg").stdout
    assert "Log not replayed: [starter]" in svg


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # a wrong starter, and no scores: the starter stops the replay, not missing-score
        ("  - starter: 5-5\n    moves: [A: 6-5]\n", "starter"),
        # a bad score on an earlier line than the deal's problem: the deal stops it
        (
            "  - scores: {A: 1, B: 2, C: 3}\n    deal:\n      A: 6-5 6-4 1-1 2-1 6-6\n"
            "      B: 5-5 3-0 4-2 1-0 2-2\n    moves: [A: 6-5]\n",
            "duplicate-tile",
        ),
        # a deal and no moves: the table as dealt is no table either
        ("  - deal: {A: 6-5 6-4 1-1 2-1 6-6, B: 5-5 3-0 4-2 1-0 2-2}\n", "duplicate-tile"),
    ],
)
def test_the_problem_named_is_the_one_that_stops_the_replay(cli, tmp_path, text, code):
    path = tmp_path / "stops.yaml"
    path.write_text("set: double-six\nrules: {starter_arms: 2, deal: 5}\nplayers: [A, B]\n"
                    "rounds:\n" + text)  # fmt: skip
    data = show_json(cli, str(path), "--round", "1")
    assert data["move"] == 0 and data["problem"]["code"] == code


def test_the_problem_that_stops_the_replay_is_kept_past_the_cap(cli, tmp_path):
    """A file with more problems than are kept still names what stops a round's replay."""
    path = tmp_path / "many.yaml"
    path.write_text(
        "set: double-six\nrules: {starter_arms: 2, deal: 5}\nplayers: [A, B]\nrounds:\n"
        f"  - hands: {{A: {' '.join(['9-9'] * (MAX_PROBLEMS + 5))}, B: 1-1}}\n"
        "  - starter: 4-4\n    moves: [A: 5-4]\n"
    )
    data = show_json(cli, str(path))
    assert data["round"] == 2 and data["move"] == 0
    assert data["problem"]["code"] == "starter"


def test_a_round_past_the_games_end_is_not_replayed(cli, tmp_path):
    path = tmp_path / "short.yaml"
    path.write_text(
        "set: double-six\nrules: {rounds: 1}\nplayers: [A, B]\nrounds:\n"
        "  - scores: {A: 1, B: 2}\n  - moves: [A: 5-5]\n    scores: {A: 1, B: 2}\n"
    )
    data = show_json(cli, str(path))
    assert data["round"] == 2 and data["move"] == 0
    assert data["problem"]["code"] == "round-count"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--move", "50"], "round 10 has moves 0 to 49, not 50"),
        (["--round", "11"], "there is no round 11 (the game has 10)"),
        (["--round", "2", "--move", "45"], "round 2 has moves 0 to 44, not 45"),
        (["--round", "0"], "--round"),
        (["--move", "-1"], "--move"),
        (["--format", "png"], "--format"),
    ],
)
def test_usage_errors_exit_2(cli, args, message):
    result = cli("show", FAMILY, *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_game_without_moves_or_rules_is_exit_1(cli, tmp_path):
    result = cli("show", "examples/scorekeeper.yaml")
    assert result.exit_code == 1
    assert result.output == "Error: examples/scorekeeper.yaml: no round of the game has moves\n"
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [Ana\n")
    result = cli("show", str(bad))
    assert result.exit_code == 1 and result.output.startswith("Error: ")
    assert cli("show", "no-such.yaml").exit_code == 2


@pytest.mark.parametrize("text", ["", "players: [Ana\n", "players: [Ana]\nrounds: []\n"])
@pytest.mark.parametrize("where", [["--round", "1"], ["--round", "3", "--move", "2"]])
def test_a_broken_file_says_its_own_problem_whatever_round_is_asked(cli, tmp_path, text, where):
    """--round past a file's rounds is a usage error only where the file could be replayed:
    a file that cannot (not YAML, one player) says why, exit 1, as without --round."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    plain = cli("show", str(bad))
    asked = cli("show", str(bad), *where)
    assert plain.exit_code == asked.exit_code == 1
    assert asked.output == plain.output and "there is no round" not in asked.output


def test_stdin(cli):
    source = Path(MISTAKE).read_text()
    result = cli("show", "-", "-f", "json", input=source)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["problem"]["code"] == "foot-open"


# --- text --------------------------------------------------------------------------------


def test_text_shows_the_table(cli):
    result = cli("show", FAMILY, "-r", "3", "-m", "20")
    assert result.exit_code == 0
    out = result.stdout
    assert "round 3, after move 20 of 46" in out
    assert "4 of 4 arms" in out
    assert "foot on 6-6, open: 1 of 3 toes" in out
    assert "open ends: 1 2 3 3 4 4 4 7" in out
    assert "chicken yard: 8 tile(s), 7 can be drawn" in out
    assert "next: Carla" in out
    assert re.search(r"\*Carla +6: ", out)
    assert "[6|2]" in out and "🁝" not in out  # double-nine: lines of play in brackets
    # Hands as tiles are written everywhere (SPEC §1), to copy into cf score or cf hint.
    assert re.search(r"\*Carla +6: 9-1 9-0 7-0 6-0 5-1 4-3\n", out)
    assert "  Dan     8: 7-6 7-3 6-1 5-2 4-4 3-3 3-2 0-0\n" in out


def test_text_writes_hands_as_tiles_in_every_set(cli):
    # double-six, whose lines of play are domino characters: the hands are 5-0, 4-4 2-0.
    out = cli("show", MISTAKE).stdout
    hands = out.split("hands:")[1]
    assert "Ana   1: 5-0\n" in hands and "*Ben   2: 4-4 2-0\n" in hands
    assert not any(0x1F030 <= ord(c) <= 0x1F09F for c in hands)


def test_text_draws_double_six_tiles_as_domino_characters(cli):
    out = cli("show", MISTAKE).stdout
    assert chr(0x1F031 + 6 * 7 + 1) in out  # 6-1 placed on the starter, near half 6
    assert "[" not in out.split("hands:")[0]


def test_text_falls_back_to_ascii():
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    run = subprocess.run(
        [sys.executable, "-m", "cf", "show", MISTAKE],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        encoding="ascii",
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.isascii()
    assert "|- arm 1: [6|1][1|1] foot on 1-1, open: 0 of 3 toes" in run.stdout
    assert "stopped at move 4: [foot-open]" in run.stdout


# --- svg ---------------------------------------------------------------------------------


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text.encode())
    assert root.tag == f"{SVG}svg"
    return root


def test_svg_draws_every_tile_once_inside_its_viewbox(cli):
    result = cli("show", FAMILY, "-r", "3", "-m", "20", "-f", "svg")
    assert result.exit_code == 0
    root = parse_svg(result.stdout)
    table = table_at(read_game_file(FAMILY), 3, 20)
    drawn = [g.get("data-tile") for g in root.iter(f"{SVG}g") if g.get("class") == "tile"]
    assert sorted(drawn) == sorted(str(t) for t in table.board.on_table)
    x, y, w, h = map(float, root.get("viewBox").split())
    assert float(root.get("width")) == w and float(root.get("height")) == h
    from cf.render.svg import UNIT

    for t in table.layout.tiles:
        for cx, cy in t.corners():
            assert x <= cx * UNIT <= x + w and y <= cy * UNIT <= y + h
    # The hands beside the board: every known tile of every hand.
    in_hands = [g.get("data-tile") for g in root.iter(f"{SVG}g") if g.get("class") == "hand-tile"]
    assert sorted(in_hands) == sorted(str(t) for h in table.board.hands.values() for t in h.known)


def test_svg_marks_where_the_next_tiles_go(cli):
    root = parse_svg(cli("show", FAMILY, "-r", "3", "-m", "20", "-f", "svg").stdout)
    marks = [c.get("class") for c in root.iter(f"{SVG}circle") if c.get("class")]
    assert marks.count("open-end") == 8  # open ends 1 2 3 3 4 4 4 7
    assert marks.count("free-place") == 2  # the 6-6 foot has 1 of 3 toes
    root = parse_svg(cli("show", FAMILY, "-r", "3", "-m", "1", "-f", "svg").stdout)
    marks = [c.get("class") for c in root.iter(f"{SVG}circle") if c.get("class")]
    assert marks.count("free-place") == 3 and marks.count("open-end") == 1  # arms to come


def test_svg_pips_and_colours(cli):
    plain = cli("show", FAMILY, "-r", "1", "-m", "4", "-f", "svg").stdout
    colour = cli("show", FAMILY, "-r", "1", "-m", "4", "-f", "svg", "--colour").stdout

    def fills(text):  # of the pips (the markers of open ends have a class)
        return {c.get("fill") for c in parse_svg(text).iter(f"{SVG}circle") if not c.get("class")}

    assert fills(plain) == {"#111111"}
    assert len(fills(colour)) > 5


def test_pip_layouts():
    from cf.render.svg import pip_positions

    for n in range(19):
        spots = pip_positions(n)
        assert len(spots) == n == len(set(spots))
        assert all(-0.5 < x < 0.5 and -0.5 < y < 0.5 for x, y in spots)


def test_output_file(cli, tmp_path):
    out = tmp_path / "board.svg"
    result = cli("show", FAMILY, "-f", "svg", "-o", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    parse_svg(out.read_text())
    assert cli("show", FAMILY, "-f", "svg", "-o", str(out)).exit_code == 0  # replaced
    result = cli("show", FAMILY, "-o", str(tmp_path / "no" / "such" / "x.txt"))
    assert result.exit_code == 2 and "Error: cannot write" in result.output


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_an_output_file_that_cannot_be_written_is_output_that_cannot_be_written(cli):
    """SPEC §7: output that cannot be written (a full disk) is ``Error: cannot write
    output: …``, exit 1, for ``-o FILE`` as for stdout; the file is named."""
    result = cli("show", FAMILY, "-f", "svg", "-o", "/dev/full")
    assert result.exit_code == 1
    assert result.stderr == "Error: cannot write output: /dev/full: No space left on device\n"


def test_simulate_says_a_game_it_cannot_write_is_output_not_written(cli, tmp_path, monkeypatch):
    import cf.commands.simulate_files
    from cf.files import WriteFailed

    def full(path, text, overwrite=False):
        raise WriteFailed(path, "No space left on device")

    monkeypatch.setattr(cf.commands.simulate_files, "atomic_write", full)
    out = tmp_path / "g.yaml"
    result = cli("simulate", "--players", "2", "--set", "6", "--seed", "1", "-o", str(out))
    assert result.exit_code == 1
    assert result.stderr == f"Error: cannot write output: {out}: No space left on device\n"


# --- html --------------------------------------------------------------------------------


def page(cli, path=FAMILY) -> str:
    result = cli("show", path, "-f", "html")
    assert result.exit_code == 0, result.output
    return result.stdout


def test_html_loads_nothing_from_the_network(cli):
    html = page(cli)
    assert html.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html
    for value in re.findall(r"""\b(?:src|href)\s*=\s*["']([^"']*)""", html, re.I):
        assert value.startswith("#"), value  # nothing but links within the page
    assert "@import" not in html and "url(" not in html
    assert not re.search(r"<(link|iframe|img|object|embed)\b", html, re.I)


def test_html_holds_every_move_and_marks_problems(cli):
    html = page(cli)
    data = json.loads(
        re.search(
            r'<script type="application/json" id="cf-data">(.*?)</script>', html, re.S
        ).group(1)
    )
    game = read_game_file(FAMILY)
    assert len(data["steps"]) == game.move_count + len(game.rounds)
    assert data["rounds"][0]["points"] == {
        "Ana": 12,
        "Ben": 19,
        "Carla": 0,
        "Dan": 55,
    }
    html = page(cli, MISTAKE)
    data = json.loads(re.search(r'id="cf-data">(.*?)</script>', html, re.S).group(1))
    assert [(p["code"], p["step"]) for p in data["problems"]] == [("foot-open", 4)]
    assert data["steps"][4]["f"]["problem"]["code"] == "foot-open"


def test_html_marks_an_end_of_round_problem_at_the_last_move(cli, tmp_path):
    game = tmp_path / "short.yaml"
    game.write_text(
        "set: double-six\nrules: {starter_arms: 2, deal: 3}\nplayers: [Ana, Ben]\nrounds:\n"
        "  - deal: {Ana: 6-1 1-1 5-0, Ben: 6-2 2-0 4-4}\n"
        "    moves: [{Ana: 6-1}, {Ben: 6-2}]\n"
        "  - scores: {Ana: 1, Ben: 2}\n"
    )
    data = json.loads(
        re.search(r'id="cf-data">(.*?)</script>', page(cli, str(game)), re.S).group(1)
    )
    assert [(p["code"], p["step"]) for p in data["problems"]] == [("unfinished", 2)]
    assert [s["log"] for s in data["steps"]] == [True, True, True, False]


def test_html_does_not_replay_a_round_validate_does_not(cli, tmp_path):
    game = tmp_path / "broken.yaml"
    game.write_text(BROKEN_DEAL)
    data = json.loads(
        re.search(r'id="cf-data">(.*?)</script>', page(cli, str(game)), re.S).group(1)
    )
    assert [s["log"] for s in data["steps"]] == [False]
    assert data["steps"][0]["stopped"] is True  # "its log is not replayed", not "no log"
    assert {p["code"] for p in data["problems"]} == {"starter", "duplicate-tile", "deal"}
    assert {p["step"] for p in data["problems"]} == {0}


def test_the_drawn_tiles_do_not_overlap(cli):
    """Read back from the SVG itself: each tile's frame (translate, rotate) gives its four
    corners; no two drawn tiles overlap, for every round of the example at its end and at
    round 3, move 20."""
    import math

    from test_layout import overlap

    from cf.render.svg import UNIT

    frame = re.compile(r"translate\(([-\d.]+) ([-\d.]+)\) rotate\(([-\d.]+)\)")
    runs = [["-r", "3", "-m", "20"]] + [["-r", str(k)] for k in range(1, 11)]
    for args in runs:
        root = parse_svg(cli("show", FAMILY, *args, "-f", "svg").stdout)
        polys = []
        for g in root.iter(f"{SVG}g"):
            if g.get("class") != "tile":
                continue
            x, y, a = map(float, frame.fullmatch(g.get("transform")).groups())
            ux, uy = math.cos(math.radians(a)), math.sin(math.radians(a))
            polys.append(
                [
                    (
                        x + sx * UNIT * ux - sy * UNIT / 2 * uy,
                        y + sx * UNIT * uy + sy * UNIT / 2 * ux,
                    )
                    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
                ]
            )
        assert len(polys) > 10
        bad = [
            (i, j)
            for i in range(len(polys))
            for j in range(i + 1, len(polys))
            if overlap(polys[i], polys[j], tol=0.05)
        ]
        assert bad == [], args


@pytest.mark.parametrize(
    "name, start",
    [("t.svg", "<?xml"), ("t.html", "<!DOCTYPE html>"), ("t.json", "{"), ("t.txt", "")],
)
def test_the_output_file_ending_picks_the_format(cli, tmp_path, name, start):
    out = tmp_path / name
    result = cli("show", FAMILY, "-r", "3", "-m", "20", "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    if start:
        assert text.lstrip().startswith(start)
    else:
        assert "round 3, after move 20 of 46" in text
    explicit = cli("show", FAMILY, "-r", "3", "-m", "20", "-f", "text", "-o", str(out))
    assert explicit.exit_code == 0 and "after move 20" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", ["text", "json", "svg", "html"])
def test_a_deal_the_set_cannot_make_is_not_replayed(cli, tmp_path, fmt):
    """A deal of 100,000,000 tiles (cf validate's rules problem) would put that many unseen
    tiles in each hand: the svg drew one each (minutes, gigabytes). No round is replayed;
    the page keeps the rounds' scores (no board), as for any round it cannot replay."""
    path = tmp_path / "g.yaml"
    path.write_text(
        "players: [Ana, Ben, Carla]\nrules: {deal: 100000000}\nrounds:\n"
        "  - starter: 9-9\n    moves:\n      - Ana: 9-7\n      - Ben: draw, pass\n"
    )
    out = tmp_path / f"out.{fmt}"
    result = cli("show", str(path), "-f", fmt, "-o", str(out))
    if fmt == "html":
        assert result.exit_code == 0 and "<svg" not in out.read_text()
        return
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {path}: dealing 100000000 tiles to 3 players needs 300000000 tiles: "
        "double-nine has only 54 besides the starting double: no round can be replayed "
        "(run cf validate)\n"
    )
    hint = cli("hint", str(path))
    assert hint.exit_code == 1 and "no round can be replayed" in hint.stderr


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (["show", FAMILY, "-o", ""], 2, "Error: --output: give a file name"),
        (["show", FAMILY, "-o", "{tmp}"], 2, "Error: {tmp} is a folder"),
        (
            ["show", FAMILY, "-o", "{tmp}/no/x.svg"],
            2,
            "Error: cannot write {tmp}/no/x.svg: no such folder",
        ),
        (
            ["tally", FAMILY, "--chart", "{tmp}/no/c.svg"],
            2,
            "Error: cannot write {tmp}/no/c.svg: no such folder",
        ),
        (["tally", FAMILY, "--chart", ""], 2, "give a file name"),
    ],
)
def test_an_output_that_cannot_be_is_refused_before_anything_is_printed(
    cli, tmp_path, args, code, said
):
    """No name, a folder, a file in a folder that is not there: bad option values (exit 2,
    as cf simulate -o says them), said before a table is printed, in cf's words."""
    result = cli(*[a.format(tmp=tmp_path) for a in args])
    assert result.exit_code == code and result.stdout == ""
    assert said.format(tmp=tmp_path) in result.stderr
