"""House rules at the scorekeeper's table (SPEC §2, §8; issue 20, and issue 21 items 1 and
3): ``cf new --draw/--out-on-double/--target``, ``cf add NAME=out-double``, two players
``out`` refused, a game played to a target ends there, and ``cf tally`` knows it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cf.board import Round
from cf.deal import Deal, deal_from
from cf.notation import Action, format_action
from cf.record.check import validate
from cf.record.reader import read_game
from cf.rules import Rules
from cf.tiles import format_hand, hand_points

GAMES = Path(__file__).parent / "games"


def new_game(cli, path: Path, *args: str) -> Path:
    result = cli("new", str(path), "--date", "2026-12-01", "--title", "T", *args)
    assert result.exit_code == 0, result.output
    return path


def add(cli, path: Path, *entries: str):
    return cli("add", str(path), *entries)


def valid(path: Path) -> bool:
    return validate(read_game(path.read_bytes(), str(path))).valid


# --- cf new ----------------------------------------------------------------------------------


@pytest.mark.parametrize("written", ["One-May", "ONE-MAY"])
def test_new_reads_the_draw_rule_in_any_case(cli, tmp_path, written):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben", "--draw", written)
    assert "  draw: one-may\n" in path.read_text(encoding="utf-8")


def test_new_writes_the_house_rules_like_the_others(cli, tmp_path):
    path = tmp_path / "club.yaml"
    result = cli("new", str(path), "--players", "Ana,Ben,Cy", "--set", "6", "--date",
                 "2026-12-01", "--title", "Club", "--draw", "until", "--out-on-double", "50",
                 "--target", "150")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"wrote {path}: Ana, Ben, Cy; double-six, played to 150\nround 1 starts with 6-6\n"
    )
    assert path.read_text() == (
        "title: Club\ndate: 2026-12-01\nset: double-six\nrules:\n  starter_arms: 4\n"
        "  double_blank: 50\n  deal: 7\n  reserve: 1\n  draw: until\n  out_on_double: 50\n"
        "  target: 150\nplayers: [Ana, Ben, Cy]\nrounds: []\n"
    )
    assert valid(path)


def test_new_with_a_target_takes_rounds_beyond_the_set_as_a_maximum(cli, tmp_path):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben", "--set", "6",
                    "--target", "100", "--rounds", "20")  # fmt: skip
    assert "  rounds: 20\n" in path.read_text() and "  target: 100\n" in path.read_text()
    assert cli("new", str(tmp_path / "h.yaml"), "--players", "Ana,Ben", "--set", "6",
               "--rounds", "20").exit_code == 2  # fmt: skip


def test_new_reads_out_on_double_as_every_number_option_does(cli, tmp_path):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben", "--out-on-double", "+5_0")
    assert "  out_on_double: 50\n" in path.read_text()


@pytest.mark.parametrize(
    ("option", "value"),
    [("--draw", "twice"), ("--draw", "one may"), ("--out-on-double", "-5"), ("--target", "0")],
)
def test_new_refuses_a_bad_house_rule_as_a_usage_error(cli, tmp_path, option, value):
    path = tmp_path / "g.yaml"
    result = cli("new", str(path), "--players", "Ana,Ben", option, value)
    assert result.exit_code == 2, result.output
    assert not path.exists()


# --- cf add: out-double and one player out ---------------------------------------------------


def test_out_double_scores_out_on_double(cli, tmp_path):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben,Cy", "--set", "6",
                    "--out-on-double", "50")  # fmt: skip
    result = add(cli, path, "Ana=out-double", "Ben=5-4 4-1", "Cy=12")
    assert result.exit_code == 0, result.output
    assert path.read_text().endswith(
        "  - scores: {Ana: 50, Ben: 14, Cy: 12}  # Ana: out-double; Ben: 5-4 4-1\n"
    )
    assert valid(path)
    undo = cli("undo", str(path))
    assert undo.exit_code == 0, undo.output
    assert 'Ana=out-double Ben="5-4 4-1" Cy=12' in undo.output


def test_out_double_is_an_error_when_the_game_scores_it_0(cli, tmp_path):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben", "--set", "6")
    before = path.read_bytes()
    result = add(cli, path, "Ana=out-double", "Ben=12")
    assert result.exit_code == 1
    assert "out_on_double is 0" in result.stderr and "Ana=out" in result.stderr
    assert path.read_bytes() == before


def test_undo_gives_out_for_an_out_double_note_the_rules_no_longer_score(cli, tmp_path):
    """A round written with out-double, the rule then set to 0 (the note and a score of 0
    stay valid): cf undo prints the cf add that puts it back, which cannot be out-double
    (an error under rule 0) and is out."""
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben", "--set", "6")
    assert add(cli, path, "Ana=out", "Ben=12").exit_code == 0
    path.write_text(path.read_text().replace("# Ana: out\n", "# Ana: out-double\n"))
    assert path.read_text().endswith("  - scores: {Ana: 0, Ben: 12}  # Ana: out-double\n")
    assert valid(path)
    undo = cli("undo", str(path))
    assert undo.exit_code == 0, undo.output
    assert "Ana=out Ben=12" in undo.output
    assert add(cli, path, "Ana=out", "Ben=12").exit_code == 0


@pytest.mark.parametrize(
    "entries",
    [
        ("Ana=out", "Ben=out", "Cy=12"),
        ("Ana=out", "Ben=", "Cy=5-5"),
        ("Ana=", "Ben=out-double", "Cy=12"),
        ("Ana=out", "Ben=out", "Cy=out"),
    ],
)
def test_two_players_out_in_one_round_writes_nothing(cli, tmp_path, entries):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben,Cy", "--set", "6",
                    "--out-on-double", "25")  # fmt: skip
    before = path.read_bytes()
    result = add(cli, path, *entries)
    assert result.exit_code == 1, result.output
    # SPEC §4: hands-mismatch, once for the round, with the second such player (Ben), as
    # cf validate prints it (SPEC §8).
    problems = [line for line in result.stderr.splitlines() if "[hands-mismatch]" in line]
    assert len(problems) == 1, result.stderr
    assert problems[0].startswith(f"{path}:14:")
    assert "only one player can go out in a round" in problems[0] and "Ben" in problems[0]
    assert "Traceback" not in result.output
    assert path.read_bytes() == before


def test_two_zero_scores_are_still_taken(cli, tmp_path):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben,Cy", "--set", "6")
    assert add(cli, path, "Ana=0", "Ben=0", "Cy=12").exit_code == 0


# --- the end of a game --------------------------------------------------------------------


def test_a_target_game_ends_in_the_round_a_total_reaches_it(cli, tmp_path):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Lupe,Ana", "--set", "6",
                    "--target", "150")  # fmt: skip
    first = add(cli, path, "Lupe=100", "Ana=20")
    assert first.exit_code == 0
    assert "round 1 (played to 150), next starts with 5-5" in first.stdout
    last = add(cli, path, "Lupe=50", "Ana=31")
    assert last.exit_code == 0, last.output
    assert "game over: Lupe reached 150 of 150; Ana wins with 51" in last.stdout
    data = json.loads(cli("tally", str(path), "--format", "json").stdout)
    assert (data["complete"], data["winners"]) == (True, ["Ana"]) and "leaders" not in data
    before = path.read_bytes()
    more = add(cli, path, "Lupe=1", "Ana=2")
    assert more.exit_code == 1
    assert more.stderr == (
        "Error: the game is over (Lupe reached 150 of 150; Ana won). "
        "Start the next one with cf new\n"
    )
    assert path.read_bytes() == before


def test_the_game_over_message_is_plain_words(cli, tmp_path):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Lupe,Ana", "--set", "6",
                    "--rounds", "2")  # fmt: skip
    assert add(cli, path, "Lupe=0", "Ana=20").exit_code == 0
    assert add(cli, path, "Lupe=3", "Ana=0").exit_code == 0
    result = add(cli, path, "Lupe=1", "Ana=2")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: the game is over (2 of 2 rounds; Lupe won). Start the next one with cf new\n"
    )
    assert "[round-count]" not in result.stderr and ".yaml:" not in result.stderr


def test_a_problem_in_the_round_being_added_is_printed_as_cf_validate_prints_it(cli, tmp_path):
    """SPEC 8: the file as it would be is validated and any problem printed as cf validate
    prints it (line and column those of the round as it would be written)."""
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben", "--set", "6")
    before = path.read_bytes()
    result = add(cli, path, "Ana=5000", "Ben=0")
    assert result.exit_code == 1
    lines = before.decode().count("\n")
    first, summary, error = result.stderr.splitlines()
    assert first == (
        f"{path}:{lines + 1}:19: round 1: [score-mismatch] Ana scored 5000, more than any "
        "hand can hold: the whole double-six less the starter 6-6 is worth 206"
    )
    assert summary == f"{path}: 1 problem (1 round(s), 0 move(s))"
    assert error == "Error: nothing written: round 1 would have the problems above"
    assert path.read_bytes() == before


def test_a_target_game_is_a_leader_until_the_target_is_reached(cli, tmp_path):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben", "--set", "6",
                    "--target", "100")  # fmt: skip
    for _ in range(8):  # past the 7 doubles of double-six: 6-6 comes round again
        assert add(cli, path, "Ana=5", "Ben=10").exit_code == 0
    assert "  - scores: {Ana: 5, Ben: 10}\n" * 8 in path.read_text()
    result = cli("tally", str(path), "--format", "json")
    data = json.loads(result.stdout)
    assert (data["complete"], data["leaders"]) == (False, ["Ana"])
    assert "8 rounds, played to 100" in result.stderr
    text = cli("tally", str(path)).stdout
    assert "leader: Ana (partial game: 8 rounds, played to 100)" in text


def test_tally_names_the_winner_of_a_target_game_file(cli):
    result = cli("tally", str(GAMES / "valid-target.yaml"), "--format", "json")
    data = json.loads(result.stdout)
    assert (data["complete"], data["winners"]) == (True, ["Ana"])


def test_game_over_as_a_subprocess(tmp_path):
    path = tmp_path / "g.yaml"
    run = [sys.executable, "-m", "cf"]
    subprocess.run([*run, "new", str(path), "--players", "A,B", "--target", "10"], check=True,
                   capture_output=True)  # fmt: skip
    subprocess.run([*run, "add", str(path), "A=12", "B=0"], check=True, capture_output=True)
    done = subprocess.run([*run, "add", str(path), "A=1", "B=0"], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.startswith("Error: the game is over (A reached 12 of 10; B won)")


# --- the replay, the table and the page under several draws --------------------------------------


def test_show_after_several_draws_in_one_turn(cli):
    file = str(GAMES / "valid-draw-until.yaml")
    result = cli("show", file, "--round", "1", "--move", "2", "--format", "json")
    assert result.exit_code == 0, result.output
    facts = json.loads(result.stdout)
    assert sorted(facts["hands"]["Ben"]["known"]) == ["0-0", "1-1", "2-0", "2-1", "3-1"]
    assert facts["yard"] == 28 - 1 - 6 - 3  # the set less the starter and the deal, 3 drawn
    assert (facts["arms"], facts["open_ends"], facts["problem"]) == (2, [2, 5], None)


def test_the_replay_page_shows_several_draws_in_one_turn(cli, tmp_path):
    out = tmp_path / "page.html"
    result = cli("show", str(GAMES / "valid-draw-until.yaml"), "--format", "html", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "draw 1-1, draw 2-0, draw 6-2, 6-2" in out.read_text(encoding="utf-8")


def test_validate_json_reports_draw_limit(cli):
    result = cli("validate", str(GAMES / "draw-limit.yaml"), "--format", "json")
    problem = json.loads(result.stdout)["files"][0]["problems"][0]
    assert result.exit_code == 1
    assert (problem["code"], problem["round"], problem["move"]) == ("draw-limit", 1, 2)


def test_explain_draw_limit(cli):
    result = cli("explain", "draw-limit")
    assert result.exit_code == 0
    assert "draw: until" in result.stdout and "Fix:" in result.stdout


def test_sarif_lists_draw_limit(cli):
    result = cli("validate", str(GAMES / "draw-limit.yaml"), "--format", "sarif")
    rules = json.loads(result.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert "draw-limit" in [r["id"] for r in rules]


# --- properties across the house rules -------------------------------------------------------


def _play_out(
    rng: random.Random, rules: Rules, names: list[str]
) -> tuple[Deal, list[tuple[str, Action]], Round]:
    """A whole legal round under ``rules`` (every draw named), and its log."""
    d = deal_from(rng, rules, names, 1)
    board = Round.dealt(rules, names, d.starter, d.hands)
    yard = list(d.chicken_yard)
    rng.shuffle(yard)
    log = []
    while not board.is_over:
        player = board.next_player or names[0]
        playable = board.legal_plays(player)
        if playable:
            action = Action(play=board.orient(rng.choice(playable)))
        elif board.drawable:
            drawn = [yard.pop()]
            if rules.draw == "until":
                while not board.fits(drawn[-1]) and len(drawn) < board.drawable:
                    drawn.append(yard.pop())
            t = drawn[-1]
            keep = rules.draw == "one-may" and rng.random() < 0.5
            play = board.orient(t) if board.fits(t) and not keep else None
            action = Action(play=play, drew=True, drawn=t, earlier=tuple(drawn[:-1]))
        else:
            action = Action()
        board.apply(player, action)
        log.append((player, action))
    return d, log, board


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from(["one", "one-may", "until"]),
    st.sampled_from([0, 25, 50]),
    st.integers(2, 4),
)
def test_every_legal_round_under_any_house_rule_validates(seed, draw, out_on_double, players):
    rng = random.Random(seed)
    names = ["Ana", "Ben", "Cy", "Dan"][:players]
    rules = Rules(top=6 if players < 4 else 9, draw=draw, out_on_double=out_on_double)
    d, log, board = _play_out(rng, rules, names)
    hands = {p: board.hands[p].known for p in names}
    points = {p: hand_points(hands[p], rules.double_blank) for p in names}
    if board.winner is not None and board.out_on_double:
        points[board.winner] = out_on_double
    text = (
        f"set: {rules.set_name}\n"
        f"rules: {{draw: {draw}, out_on_double: {out_on_double}}}\n"
        f"players: [{', '.join(names)}]\nrounds:\n  - deal:\n"
        + "".join(f"      {p}: {format_hand(d.hands[p]) or '[]'}\n" for p in names)
        + "    moves:\n"
        + "".join(f"      - {p}: {format_action(a)}\n" for p, a in log)
        + "    hands: {"
        + ", ".join(f'{p}: "{format_hand(sorted(hands[p], reverse=True))}"' for p in names)
        + "}\n    scores: {"
        + ", ".join(f"{p}: {points[p]}" for p in names)
        + "}\n"
    )
    report = validate(read_game(text, "g.yaml"))
    assert report.valid, [p.message for p in report.problems] + [text]
    assert report.round_points == [points]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 120),
    st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=16),
)
def test_a_target_game_ends_in_the_round_a_total_reaches_the_target(target, rounds):
    text = (
        f"set: double-six\nrules: {{target: {target}}}\nplayers: [Ana, Ben]\nrounds:\n"
        + "".join(f"  - scores: {{Ana: {a}, Ben: {b}}}\n" for a, b in rounds)
    )
    report = validate(read_game(text, "g.yaml"))
    totals, end = [0, 0], None
    for k, (a, b) in enumerate(rounds, start=1):
        totals = [totals[0] + a, totals[1] + b]
        if max(totals) >= target:
            end = k
            break
    if end is None or end == len(rounds):
        assert report.valid, [p.message for p in report.problems]
    else:
        assert [(p.code, p.round) for p in report.problems] == [("round-count", end + 1)]


def test_a_simulated_game_file_says_its_house_rules():
    from types import SimpleNamespace

    from cf.record.emit import game_yaml

    game = SimpleNamespace(
        rules=Rules(top=6, draw="until", out_on_double=50, target=100),
        players=["Ana", "Ben"],
        rounds=[],
    )
    text = game_yaml(game)
    assert "rules: {starter_arms: 4, double_blank: 50, draw: until, out_on_double: 50, " in text
    assert "target: 100}" in text and "rounds: 0" not in text
    sheets = game_yaml(SimpleNamespace(rules=Rules(top=6), players=["Ana", "Ben"], rounds=[]))
    assert "draw" not in sheets and "out_on_double" not in sheets


def test_a_round_appended_with_round_k_after_the_end_is_refused_too(cli, tmp_path):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben", "--target", "10")
    assert add(cli, path, "Ana=12", "Ben=0").exit_code == 0
    result = cli("add", str(path), "--round", "2", "Ana=1", "Ben=0")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: the game is over (Ana reached 12 of 10; Ben won)")


@pytest.mark.parametrize(
    ("written", "read"), [("One", "one"), ("UNTIL", "until"), (" One-May ", "one-may")]
)
def test_a_draw_rule_is_read_whatever_its_case_as_starter_arms_players(written, read):
    text = (
        f"rules: {{draw: '{written}', starter_arms: Players}}\nplayers: [Ana, Ben]\nrounds: []\n"
    )
    game = read_game(text.encode(), "t.yaml")
    assert (game.rules.draw, game.rules.starter_arms) == (read, "players")
    assert validate(game).valid


def test_a_draw_rule_that_is_none_of_the_three_is_a_rules_problem():
    text = "rules: {draw: twice}\nplayers: [Ana, Ben]\nrounds: []\n"
    problems = validate(read_game(text.encode(), "t.yaml")).problems
    assert [(p.code, str(p.message)) for p in problems] == [
        ("rules", "rules.draw must be one of one, one-may, until, not 'twice'")
    ]


@pytest.mark.parametrize(
    ("bad", "also"),
    [
        ("double_blank: -1", "deal: 999"),
        ("out_on_double: x", "starter_arms: players"),
        ("draw: twice", "reserve: 30"),
        ("target: 0, rounds: 20", "deal: 999"),  # neither plays a part in the deal
    ],
)
def test_a_bad_rule_does_not_hide_the_deal_the_others_make(bad, also):
    """SPEC §6: problems that need no replay are all reported. A bad value of a rule the
    deal does not depend on leaves nothing replayed, but the deal the good ones make is
    still checked."""
    players = "[A, B, C, D, E, F, G]" if "players" in also else "[Ana, Ben]"
    text = f"set: 6\nrules: {{{bad}, {also}}}\nplayers: {players}\nrounds: []\n"
    problems = validate(read_game(text.encode(), "t.yaml")).problems
    assert [p.code for p in problems] == ["rules", "rules"]
    assert problems[0].line == 2 and problems[1].line == 3  # the deal: at the players
    # Each dealt hand's size is checked too (no replay needed).
    dealt = (
        f"set: 6\nrules: {{{bad}}}\nplayers: [A, B, C, D]\nrounds:\n"
        "  - deal: {A: 6-5 6-4, B: 6-3 6-2, C: 6-1 6-0, D: 5-4 5-3}\n"
        "    scores: {A: 1, B: 2, C: 0, D: 0}\n"
    )
    codes = [p.code for p in validate(read_game(dealt.encode(), "t.yaml")).problems]
    assert codes == ["rules"] + ["deal"] * 4
    # A bad value of a rule the deal depends on is said alone, as before.
    alone = text.replace(bad, "double_blank: 25").replace(also, also.split(":")[0] + ": x")
    assert [p.code for p in validate(read_game(alone.encode(), "t.yaml")).problems] == ["rules"]


def test_two_players_out_is_placed_at_the_second_ones_score(cli, tmp_path):
    path = new_game(cli, tmp_path / "g.yaml", "--players", "Ana,Ben,Cy", "--set", "6")
    result = add(cli, path, "Cy=12", "Ben=out", "Ana=out")  # given out of seating order
    assert result.exit_code == 1
    # As it would be written: `  - scores: {Ana: 0, Ben: 0, Cy: 12}  # Ana: out; Ben: out`
    written = "  - scores: {Ana: 0, Ben: 0, Cy: 12}"
    column = written.index("Ben: 0") + len("Ben: ") + 1
    assert f"{path}:14:{column}: round 1: [hands-mismatch]" in result.stderr


def test_an_entry_that_makes_the_file_unreadable_is_its_own_problem_not_a_crash(cli, tmp_path):
    # Names so long that the round's line would pass the reader's 64 KiB a line: the
    # file as it would be cannot be read, which is the problem said (review 23).
    names = ["A" * 25_000, "B" * 25_000, "C" * 25_000]
    path = tmp_path / "g.yaml"
    path.write_text(
        "set: 6\nplayers:\n" + "".join(f"  - {n}\n" for n in names) + "rounds: []\n",
        encoding="utf-8",
    )
    before = path.read_bytes()
    result = add(cli, path, f"{names[0]}=out", f"{names[1]}=3", f"{names[2]}=5")
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output and "[yaml]" in result.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize("replace", [False, True])
def test_two_players_out_in_a_flow_style_file_is_placed_at_the_score(cli, tmp_path, replace):
    path = tmp_path / "g.yaml"
    path.write_text(
        "set: 6\nplayers: [Ana, Ben, Cy]\nrounds: [{scores: {Ana: 1, Ben: 2, Cy: 3}}]\n",
        encoding="utf-8",
    )
    before = path.read_bytes()
    where = ["--round", "1"] if replace else []
    result = add(cli, path, *where, "Ana=out", "Ben=out", "Cy=4")
    assert result.exit_code == 1 and path.read_bytes() == before
    new = "{scores: {Ana: 0, Ben: 0, Cy: 4}}"
    written = "rounds: [" + ("" if replace else "{scores: {Ana: 1, Ben: 2, Cy: 3}}, ") + new
    column = written.index(new) + new.index("Ben: 0") + len("Ben: ") + 1
    number = 1 if replace else 2
    assert f"{path}:3:{column}: round {number}: [hands-mismatch]" in result.stderr
