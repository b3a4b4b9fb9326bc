"""``cf hint`` (SPEC §11): advice from what the player could know, and only that."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cf.board import Round
from cf.notation import parse_action
from cf.play.simulate import simulate_game
from cf.record.emit import game_yaml
from cf.rules import Rules

ROOT = Path(__file__).parent.parent
HALF = ROOT / "examples" / "in-progress" / "half-played.yaml"
FAST = ["--playouts", "20"]


@pytest.fixture
def run(cli):
    def invoke(*args: str):
        return cli("hint", *args)

    return invoke


def test_advice_lists_every_legal_action_best_first(run):
    result = run(str(HALF), "-f", "json", *FAST)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == ["round", "move", "player", "hand", "actions"]
    assert (data["round"], data["move"], data["player"]) == (1, 20, "Ana")
    assert data["hand"] == ["9-5", "9-0", "8-4", "8-1", "5-3", "5-1", "4-1", "3-3"]
    points = [a["expected_points"] for a in data["actions"]]
    assert points == sorted(points)
    for a in data["actions"]:
        assert set(a) == {"action", "tile", "record", "expected_points", "p_out"}
        assert a["action"] == "play" and 0 <= a["p_out"] <= 1
    # every playable tile, on every end it can go on (ends 1 3 3 3 4 5 6 7)
    records = sorted(a["record"] for a in data["actions"])
    assert records == sorted(
        ["3-3", "3-5", "1-8", "1-5", "5-1", "5-3", "5-9", "4-8", "4-1", "1-4"]
    )
    board = replayed(HALF)
    for a in data["actions"]:  # each record is a legal move in the log
        trial = replayed(HALF)
        trial.apply("Ana", parse_action(a["record"]))
    assert board.next_player == "Ana"


def replayed(path: Path) -> Round:
    from cf.record.reader import read_game_file
    from cf.record.replay import replay

    return replay(read_game_file(str(path)), 1, seen_by="Ana").board


def test_same_seed_same_advice_and_the_seed_matters(run):
    one = run(str(HALF), *FAST, "--seed", "3").output
    assert run(str(HALF), *FAST, "--seed", "3").output == one
    assert "seed 3" in one
    assert run(str(HALF), *FAST, "--seed", "4").output != one


def simulated_file(tmp_path: Path, moves: int, **kwargs) -> tuple[str, object]:
    game = simulate_game(["Ana", "Ben", "Carla"], Rules(top=9), ["greedy"] * 3, seed=4, rounds=1)
    text = game_yaml(game)
    lines = text.splitlines()
    start = lines.index("    moves:")
    cut = lines[: start + 1 + moves]
    return "\n".join(cut) + "\n", game


def test_hidden_tiles_do_not_change_the_advice(run, tmp_path):
    """The same round recorded with everyone's deal, with Ana's deal only, and with the
    other hands' unplayed tiles dealt differently: byte-identical advice."""
    text, game = simulated_file(tmp_path, 18)
    rnd = game.rounds[0]  # type: ignore[attr-defined]
    lines = text.splitlines()
    full = tmp_path / "full.yaml"
    full.write_text(text)
    only = tmp_path / "only-ana.yaml"
    only.write_text(
        "\n".join(ln for ln in lines if not ln.startswith(("      Ben:", "      Carla:"))) + "\n"
    )
    # swap unplayed tiles between Ben's and Carla's recorded deals
    played = {m.action.played_tile for m in rnd.moves[:18]}
    ben = [t for t in rnd.deal["Ben"] if t not in played]
    carla = [t for t in rnd.deal["Carla"] if t not in played]
    other = []
    for line in lines:
        if line.startswith("      Ben:"):
            tiles = line.split(":", 1)[1].split()
            tiles = [str(carla[0]) if t == str(ben[0]) else t for t in tiles]
            line = "      Ben: " + " ".join(tiles)
        elif line.startswith("      Carla:"):
            tiles = line.split(":", 1)[1].split()
            tiles = [str(ben[0]) if t == str(carla[0]) else t for t in tiles]
            line = "      Carla: " + " ".join(tiles)
        other.append(line)
    changed = tmp_path / "changed.yaml"
    changed.write_text("\n".join(other) + "\n")
    assert changed.read_text() != full.read_text()
    outputs = {run(str(p), *FAST).output for p in (full, only, changed)}
    assert len(outputs) == 1, outputs
    assert "Ana to play" in outputs.pop()
    assert run(str(full), *FAST).exit_code == 0
    jsons = {run(str(p), *FAST, "-f", "json").output for p in (full, only, changed)}
    assert len(jsons) == 1


def test_hand_option_stands_for_a_deal_not_recorded(run, tmp_path):
    text = HALF.read_text()
    no_deal = tmp_path / "no-deal.yaml"
    no_deal.write_text(
        text.replace("    deal:\n      Ana: 9-8 9-7 9-5 9-4 9-0 8-4 8-1 6-6 5-3 4-1 3-3\n", "")
    )
    assert "deal:" not in no_deal.read_text()
    with_deal = run(str(HALF), *FAST).output
    hand = "9-5 9-0 8-4 8-1 5-3 5-1 4-1 3-3"
    assert run(str(no_deal), *FAST, "--hand", hand).output == with_deal
    missing = run(str(no_deal), *FAST)
    assert missing.exit_code == 2 and "--hand" in missing.output
    wrong = run(str(no_deal), *FAST, "--hand", "9-5 9-0")
    assert wrong.exit_code == 2 and "8 tile(s)" in wrong.output
    on_table = run(str(no_deal), *FAST, "--hand", "9-8 9-0 8-4 8-1 5-3 5-1 4-1 3-3")
    assert on_table.exit_code == 2 and "9-8" in on_table.output
    bad = run(str(no_deal), *FAST, "--hand", "9-x")
    assert bad.exit_code == 2


def test_another_players_turn_is_a_usage_error(run):
    result = run(str(HALF), "--player", "Ben", *FAST)
    assert result.exit_code == 2
    assert "it is Ana's turn, not Ben's" in result.output
    assert run(str(HALF), "--player", "Ana", *FAST).exit_code == 0
    assert run(str(HALF), "--player", "Zoe", *FAST).exit_code == 2


def test_a_round_that_is_over_is_exit_1(run):
    result = run(str(ROOT / "examples" / "family-night.yaml"), "--round", "1", *FAST)
    assert result.exit_code == 1
    assert "is over" in result.output
    assert run(str(HALF), "--round", "2", *FAST).exit_code == 2
    scored = run(str(ROOT / "examples" / "scorekeeper.yaml"), *FAST)
    assert scored.exit_code == 1 and "are recorded" in scored.output


def test_a_round_its_deal_shows_blocked_is_over(cli, run, tmp_path):
    # A simulated round that ended in a block, its hands and scores taken off: nobody has
    # passed yet, but the deal shows nobody can play and nothing can be drawn.
    sim = tmp_path / "sim.yaml"
    assert (
        cli("simulate", "--players", "3", "--seed", "4", "--rounds", "1", "-o", str(sim)).exit_code
        == 0
    )
    text = sim.read_text()
    blocked = tmp_path / "blocked.yaml"
    blocked.write_text(text[: text.index("    hands:")])
    shown = json.loads(cli("show", str(blocked), "-f", "json").output)
    assert shown["over"] == "blocked"
    result = run(str(blocked), *FAST)
    assert result.exit_code == 1
    assert "round 1 is over: it is blocked" in result.output
    # Carla can tell: the others passed, she holds nothing that fits, the yard is empty.
    # One move back the round is not over: advice as usual.
    lines = blocked.read_text().splitlines(keepends=True)
    back = tmp_path / "back.yaml"
    back.write_text("".join(lines[:-1]))
    assert run(str(back), *FAST).exit_code == 0


def test_a_block_only_the_hidden_hands_show_is_no_answer_of_hints(run, tmp_path):
    """Two files that differ only in a tile Carla cannot see (Ben's 3-2 or 1-0): with 3-2
    nobody can play, with 1-0 Ben could. Carla, to move, holds nothing that fits, nothing
    can be drawn and Ben has not passed since the board changed: she cannot tell, so
    both get the same advice (SPEC 11), not an exit 1 for one of them."""
    a = ROOT / "tests" / "data" / "hint-blocked-hidden.yaml"
    b = tmp_path / "b.yaml"
    text = a.read_text(encoding="utf-8")
    b.write_text(text.replace("6-1 5-3 3-2", "6-1 5-3 1-0", 1), encoding="utf-8")
    first, second = run(str(a), *FAST), run(str(b), *FAST)
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout
    assert "pass" in first.stdout


def test_under_one_may_a_pass_after_a_draw_does_not_block(run):
    """Ben drew the last drawable tile and passed (draw: one-may: he may keep a tile that
    fits); Ana holds nothing that fits. Ben's pass does not show him stuck: the round is
    not over for Ana, who is advised to pass."""
    result = run(str(ROOT / "tests" / "data" / "hint-one-may-kept.yaml"), *FAST, "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["player"] == "Ana" and [a["action"] for a in data["actions"]] == ["pass"]


def test_one_may_kept_tile_of_the_player_to_move_is_no_block(run, tmp_path):
    """Ana passes too: two passes in a row with nothing to draw, which SPEC 4 counts as a
    block for a log whose hands are unknown; but Ben, to move, kept the 6-5 he drew, and
    it fits. Hint answers from what Ben knows: play it."""
    path = tmp_path / "kept.yaml"
    text = (ROOT / "tests" / "data" / "hint-one-may-kept.yaml").read_text(encoding="utf-8")
    path.write_text(text + "      - Ana: pass\n", encoding="utf-8")
    result = run(str(path), *FAST, "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["player"] == "Ben" and data["actions"][0]["tile"] == "6-5"


def test_a_hand_given_that_can_play_is_no_block(run, tmp_path):
    """No deal recorded, the hand given with --hand: Ben passed with nothing to draw, and
    Ana's own 6-4 fits the starter's arm."""
    path = tmp_path / "h.yaml"
    path.write_text(
        "set: double-six\nrules: {starter_arms: 2, reserve: 13, rounds: 1}\n"
        "players: [Ana, Ben]\nrounds:\n  - starter: 6-6\n    moves:\n"
        "      - Ana: 6-5\n      - Ben: pass\n",
        encoding="utf-8",
    )
    result = run(str(path), *FAST, "--hand", "6-4 3-2 2-1 1-0 0-0 4-4", "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["actions"][0]["tile"] == "6-4"
    stuck = run(str(path), *FAST, "--hand", "3-2 2-1 1-0 0-0 4-4 4-3")
    assert stuck.exit_code == 1 and "it is blocked" in stuck.output


def test_an_open_foot_takes_only_its_toes(run, tmp_path):
    extra = ["Ana: 3-3", "Ben: 3-2", "Carla: 3-0", "Dan: draw, pass"]
    text = HALF.read_text() + "".join(f"      - {m}\n" for m in extra)
    path = tmp_path / "foot.yaml"
    path.write_text(text)
    result = run(str(path), *FAST, "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["move"] == 24
    assert [a["record"] for a in data["actions"]] == ["3-5"]  # the third toe: only 5-3


def test_must_draw_gives_one_action(run, tmp_path):
    text = (
        "set: double-six\nplayers: [Ana, Ben]\nrounds:\n  - deal:\n"
        "      Ana: 6-5 5-5 5-4 4-4 4-3 3-3 1-0\n    moves:\n      - Ben: 6-2\n"
    )
    path = tmp_path / "draw.yaml"
    path.write_text(text)
    data = json.loads(run(str(path), *FAST, "-f", "json").output)
    assert [a["action"] for a in data["actions"]] == ["play"]  # 6-5 fits the starter
    text = text.replace("Ana: 6-5 5-5", "Ana: 2-1 5-5")
    path.write_text(text)
    result = run(str(path), *FAST, "-f", "json")
    data = json.loads(result.output)
    assert data["actions"][0]["action"] == "draw" and len(data["actions"]) == 1
    assert data["actions"][0]["tile"] is None and data["actions"][0]["record"] == "draw"


def test_hint_answers_in_under_a_second_as_a_real_process():
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "cf", "hint", str(HALF)], capture_output=True, text=True
    )
    elapsed = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Round 1, after 20 moves: Ana to play\n")
    assert elapsed < 3  # about 0.4 s alone on the machine; the CPU here is shared


def test_before_the_first_move_the_player_says_who_starts(run, tmp_path):
    text = (
        "set: double-six\nplayers: [Ana, Ben]\nrounds:\n  - deal:\n"
        "      Ana: 6-5 5-5 5-4 4-4 4-3 3-3 1-0\n    moves: []\n"
    )
    path = tmp_path / "start.yaml"
    path.write_text(text)
    result = run(str(path), *FAST)
    assert result.exit_code == 2 and "--player" in result.output
    data = json.loads(run(str(path), *FAST, "--player", "Ana", "-f", "json").output)
    assert (data["move"], data["player"]) == (0, "Ana")
    assert [a["record"] for a in data["actions"]] == ["6-5"]


def test_the_file_can_come_from_stdin(cli):
    text = HALF.read_text()
    from_stdin = cli("hint", *FAST, input=text)
    assert from_stdin.exit_code == 0
    assert from_stdin.output == cli("hint", str(HALF), *FAST).output
    assert cli("hint", "-", *FAST, input=text).output == from_stdin.output
    missing = cli("hint", "no-such-file.yaml")
    assert missing.exit_code == 2


def test_the_text_says_lower_is_better_names_the_play_and_ends_with_the_sampling(run):
    """Issue 21, item 13: a family reads the table without a manual."""
    result = run(str(HALF), "--playouts", "5")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "best first: lower expected points (Ana's hand when the round ends) are better" in lines
    header = next(line for line in lines if line.lstrip().startswith("#"))
    assert header.split()[:2] == ["#", "play"] and "record" not in header
    assert lines[-1] == "(5 random deals of the unseen tiles per action, seed 0)"
    assert sum("deal" in line for line in lines) == 1  # the sampling said once, at the end
    one = run(str(HALF), "--playouts", "1", "--seed", "4").stdout.splitlines()[-1]
    assert one == "(1 random deal of the unseen tiles per action, seed 4)"


@pytest.mark.parametrize(
    ("near", "tile", "said"),
    [
        (8, "8-3", "on an 8 end, leaves 3 open"),
        (11, "11-11", "on an 11 end: opens a chicken foot"),
        (3, "3-5", "on a 3 end, leaves 5 open"),
    ],
)
def test_where_a_play_goes_says_a_or_an_as_english_does(near, tile, said):
    from types import SimpleNamespace

    from cf.play.hint import _where_played
    from cf.tiles import parse_hand

    board = SimpleNamespace(in_starter_phase=False, pending=None)
    (played,) = parse_hand(tile, 18)
    far = played.high + played.low - near
    assert str(_where_played(board, played, near, far)) == said  # type: ignore[arg-type]


def test_player_is_matched_as_cf_add_matches_names(cli):
    """--player ana is Ana (case and accents aside, as cf add reads names); a name that is
    none is a usage error that says who plays, with the closest."""
    half = "examples/in-progress/half-played.yaml"
    exact = cli("hint", half, "--player", "Ana", "-n", "5")
    folded = cli("hint", half, "--player", "ana", "-n", "5")
    assert folded.exit_code == 0 and folded.stdout == exact.stdout
    wrong = cli("hint", half, "--player", "Anna", "-n", "5")
    assert wrong.exit_code == 2
    assert wrong.stderr == "Error: 'Anna' is not a player (did you mean 'Ana'?)\n"


def test_an_unnamed_own_draw_is_what_is_said_missing_not_the_deal(cli, tmp_path):
    """The deal is recorded: what keeps the hand unknown is a draw of the player's own
    that the log does not name, and the message says so."""
    text = (ROOT / "examples" / "in-progress" / "half-played.yaml").read_text(encoding="utf-8")
    assert "Ana: draw 5-1, pass" in text
    path = tmp_path / "g.yaml"
    path.write_text(text.replace("Ana: draw 5-1, pass", "Ana: draw, pass"), encoding="utf-8")
    result = cli("hint", str(path))
    assert result.exit_code == 2
    assert "a tile Ana drew is not named in the log; give the hand with --hand" in result.stderr
    assert "no deal is recorded" not in result.stderr
