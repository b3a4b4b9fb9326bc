"""The game-file reader (cf/record/reader.py): messages a user can act on, and costs
bounded by what the file is (issue 10 items 4, 10–13; issue 11 items 9–11, 14, 16, 17)."""

from __future__ import annotations

import json
import time
import unicodedata
from pathlib import Path

import pytest
import yaml
from conftest import check, codes

from cf.record import reader
from cf.record.check import validate
from cf.record.problems import MAX_PROBLEMS
from cf.record.reader import read_game
from cf.render.problems import render_validation

ROOT = Path(__file__).parent.parent


def found(text: str) -> list[tuple[str, int | None, str]]:
    """(code, line, message) of every problem, in report order."""
    return [(p.code, p.line, p.message) for p in check(text).problems]


# --- issue 10 #4: an unknown set ------------------------------------------------------------


def test_unknown_set_gives_only_the_rules_problem():
    text = """\
        set: doble-nueve
        players: [Ana, Ben]
        rounds:
          - {scores: {Ana: 1, Ben: 0}}
          - {scores: {Ana: 1, Ben: 0}}
          - {scores: {Ana: 1, Ben: 0}}
          - starter: 6-6
            hands: {Ana: 19-3, Ben: ""}
        """
    # Before: a false `[starter] round 4 starts with 15-15, not 6-6` (the reader fell back
    # to double-eighteen) and '19-3 is not in double-eighteen'.
    assert [p[0] for p in found(text)] == ["rules"]


def test_unknown_set_with_more_rounds_than_any_set_has():
    rounds = "\n".join("  - {scores: {Ana: 1, Ben: 0}}" for _ in range(25))
    assert [p[0] for p in found(f"set: d7\nplayers: [Ana, Ben]\nrounds:\n{rounds}\n")] == ["rules"]


# --- issue 10 #10: names ----------------------------------------------------------------------


def test_misspelled_player_gets_did_you_mean_and_comes_first():
    text = """\
        players: [Ana, Mamá]
        rounds:
          - scores:
              Ana: 3
              Mama: 5
        """
    problems = check(text).problems
    assert [p.code for p in problems] == ["player", "missing-score"]
    assert problems[0].message == "Mama in scores is not a player (did you mean 'Mamá'?)"
    # The missing player is reported where the misspelling stands, right after it.
    assert (problems[1].line, problems[1].column) == (problems[0].line, problems[0].column)


def test_misspelled_mover_gets_did_you_mean():
    text = """\
        players: [Ana, Mamá]
        rounds:
          - scores: {Ana: 0, Mamá: 0}
            moves:
              - Mama: pass
        """
    messages = [p[2] for p in found(text)]
    assert "Mama is not a player in this game (did you mean 'Mamá'?)" in messages


def test_names_compare_in_nfc():
    nfd = unicodedata.normalize("NFD", "José")
    assert nfd != "José"
    text = f"players: [Ana, José]\nrounds:\n  - scores: {{Ana: 3, {nfd}: 5}}\n"
    report = check(text)
    assert report.valid, report.problems
    assert report.round_points == [{"Ana": 3, "José": 5}]


def test_nfd_name_in_players_matches_nfc_in_rounds():
    nfd = unicodedata.normalize("NFD", "José")
    text = f"players: [Ana, {nfd}]\nrounds:\n  - scores: {{Ana: 3, José: 5}}\n"
    assert check(text).valid


def test_typo_in_players_is_reported_once_at_players():
    text = """\
        players: [Ana, Bem, Carla]
        rounds:
          - scores: {Ana: 3, Ben: 5, Carla: 1}
          - hands: {Ana: 1-1, Ben: 5-5, Carla: ""}
          - scores: {Ana: 3, Ben: 5, Carla: 1}
        """
    problems = check(text).problems
    assert [(p.code, p.line) for p in problems] == [("player", 1)]
    assert "did you mean 'Ben'?" in problems[0].message
    assert "3 times" in problems[0].message


# --- issue 10 #11: YAML errors in plain words --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("players: [Ana, Ben]\nrounds:\n\t- scores: {Ana: 1, Ben: 2}\n", 3, "tabs cannot indent"),
        ("players: [Ana, Ben]\nrounds\n  - scores: {Ana: 1, Ben: 2}\n", 2, "without its ':'"),
        (
            "players: [Ana, Ben]\nrounds:\n  - hands:\n      Ana 9-7\n      Ben: 1-1\n",
            4,
            "without its ':'",
        ),
        (
            "players: [Ana, Ben]\nrounds:\n  - hands:\n      Ana: [5|4] [3|1]\n      Ben: 1-1\n",
            4,
            "quote a hand written with brackets",
        ),
        (
            "players: [Ana, Ben]\nrounds:\n  - hands: {Ana: [5|4] [3|1], Ben: 1-1}\n",
            3,
            "quote a hand written with brackets",
        ),
    ],
    ids=["tab", "colon-top", "colon-hand", "brackets-block", "brackets-flow"],
)
def test_yaml_errors_in_plain_words_at_the_right_line(text, line, words):
    (problem,) = check(text).problems
    assert problem.code == "yaml"
    assert words in problem.message, problem.message
    assert problem.line == line


def test_not_utf8_says_save_as_utf8_with_its_line():
    data = "players: [Ana, Ben]\nrounds: []\ntitle: café\n".encode("latin-1")
    (problem,) = validate(read_game(data)).problems
    assert problem.code == "yaml"
    assert "save the file as UTF-8" in problem.message
    assert (problem.line, problem.column) == (3, 11)


# --- issue 10 #12 and #13: scores --------------------------------------------------------------


def test_score_mismatch_on_double_blank_says_how_to_set_it():
    text = """\
        players: [Ana, Ben]
        rounds:
          - hands: {Ana: 0-0 1-1, Ben: ""}
            scores: {Ana: 27, Ben: 0}
        """
    (problem,) = check(text).problems
    assert problem.code == "score-mismatch"
    assert "0-0 counts 50 in this file" in problem.message
    assert "rules: {double_blank: 25}" in problem.message


def test_score_mismatch_without_double_blank_has_no_note():
    text = """\
        players: [Ana, Ben]
        rounds:
          - hands: {Ana: 1-1, Ben: ""}
            scores: {Ana: 3, Ben: 0}
        """
    (problem,) = check(text).problems
    assert "double_blank" not in problem.message


@pytest.mark.parametrize(("score", "bad"), [(527, False), (528, True), (10**30, True)])
def test_score_above_the_whole_set_is_score_mismatch(score, bad):
    # double-nine: 495 pips + 50 for 0-0 = 545; less the starter 9-9 (18) = 527.
    text = f"players: [Ana, Ben]\nrounds:\n  - scores: {{Ana: {score}, Ben: 0}}\n"
    codes = [p[0] for p in found(text)]
    assert codes == (["score-mismatch"] if bad else [])


def test_impossible_score_follows_double_blank():
    text = (
        "rules: {double_blank: 1000}\nplayers: [Ana, Ben]\n"
        "rounds:\n  - scores: {Ana: 900, Ben: 0}\n"
    )
    assert check(text).valid


# --- issue 11 #9: linear in players ------------------------------------------------------------


def test_many_players_read_in_linear_time():
    """Four times the players cost about four times as long (a quadratic reader: 16);
    a ratio, not a time limit, so a loaded machine does not fail it."""
    each = ",\n"  # a name or score a line: a line over 64 KiB is refused unread

    def text(n: int) -> str:
        names = [f"P{i}" for i in range(n)]
        return (
            f"rules: {{deal: 1}}\nplayers: [\n{each.join(names)}]\nrounds:\n"
            f"  - scores: {{\n{each.join(f'{x}: 1' for x in names)}}}\n"
        )

    def cost(n: int) -> float:
        source = text(n)
        start = time.process_time()
        game = read_game(source)
        spent = time.process_time() - start
        assert len(game.players) == n and len(game.rounds[0].scores or {}) == n
        return spent

    small, large = min(cost(15_000) for _ in range(2)), cost(60_000)
    assert large < 9 * small  # quadratic took ~15 s for 60k, 16 times the 15k case


# --- issue 11 #10: problems per file are capped -----------------------------------------------


def test_problems_are_capped_and_counted():
    text = "players: [Ana, Ben]\nrounds:\n  - hands: {Ana: " + "x " * 5000 + ", Ben: ''}\n"
    report = check(text)
    assert len(report.problems) == MAX_PROBLEMS
    assert report.problems.omitted == {"tile": 5000 - MAX_PROBLEMS}
    out = render_validation([report]).splitlines()
    assert out[-2] == f"game.yaml: … and {5000 - MAX_PROBLEMS} more [tile] problems"
    assert out[-1] == "game.yaml: 5000 problems (1 round(s), 0 move(s))"
    data = json.loads(render_validation([report], "json"))
    assert len(data["files"][0]["problems"]) == MAX_PROBLEMS
    assert data["files"][0]["omitted"] == {"tile": 5000 - MAX_PROBLEMS}


def test_a_file_of_bad_tokens_costs_what_reading_it_costs():
    import tracemalloc

    # 30,000 tokens on a line of 60 kB (a line over 64 KiB is refused unread)
    text = "players: [Ana, Ben]\nrounds:\n  - hands: {Ana: " + "x " * 30_000 + ", Ben: ''}\n"
    tracemalloc.start()
    try:
        report = check(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.problems.total == 30_000
    assert peak < 10 * 2**20, peak  # uncapped, 60k Problems took ~45 MB


# --- issue 11 #11: scalar aliases ---------------------------------------------------------------


def test_scalar_alias_expansion_is_bounded():
    hand = "x " * 5_000
    refs = ", ".join(f"P{i}: *h" for i in range(200))
    text = (
        f"players: [Ana, {', '.join(f'P{i}' for i in range(200))}]\n"
        f"rounds:\n  - hands: {{Ana: &h '{hand}', {refs}}}\n"
    )
    start = time.perf_counter()
    report = check(text)
    assert time.perf_counter() - start < 3
    assert any("aliases" in p.message for p in report.problems)
    assert len(report.problems) <= MAX_PROBLEMS + 1  # the cap, and the alias problem


def test_one_anchored_move_text_with_many_aliases_is_bounded():
    move = "draw " * 3_000
    moves = "\n".join("      - Ana: *m" for _ in range(4_000))
    text = f"players: [Ana, Ben]\nrounds:\n  - moves:\n      - Ben: &m '{move}'\n{moves}\n"
    start = time.perf_counter()
    report = check(text)
    assert time.perf_counter() - start < 3
    assert report.problems


def test_a_few_scalar_aliases_still_read():
    text = "players: [&a Ana, Ben]\nrounds:\n  - scores: {*a : 3, Ben: 0}\n"
    assert check(text).valid


# --- issue 11 #13, #14, #16, #17: names and tags -----------------------------------------------


@pytest.mark.parametrize("name", ["A\\x07", "\\x1b[2J", "A\\rB", "A\\x00"])
def test_control_characters_in_names_are_refused(name):
    text = f'players: ["{name}", Ben, Carla]\nrounds: []\n'
    (problem,) = check(text).problems
    assert problem.code == "schema"
    assert "control characters" in problem.message
    assert "\x1b" not in problem.message and "\x07" not in problem.message


def test_a_tag_on_a_moves_key_is_refused():
    text = """\
        players: [Ana, Ben]
        rounds:
          - scores: {Ana: 0, Ben: 0}
            moves:
              - {!!python/str Ana: pass}
        """
    problems = check(text).problems
    assert [p.code for p in problems] == ["schema"]
    assert "tag" in problems[0].message


def test_a_long_name_is_clipped_in_messages():
    name = "N" * 30_000
    text = f"players:\n  - Ana\n  - Ben\n  - {name}\n  - {name}\nrounds: []\n"
    (problem,) = check(text).problems
    assert problem.code == "player"
    assert len(problem.message) < 200


class _PureLoader(yaml.SafeLoader):
    resolve = reader.Loader.resolve
    descend_resolver = reader.Loader.descend_resolver
    ascend_resolver = reader.Loader.ascend_resolver


def test_lone_surrogates_are_refused_with_pure_python_yaml(monkeypatch):
    monkeypatch.setattr(reader, "Loader", _PureLoader)
    report = check('players: ["\\ud800", Ben, Carla]\nrounds: []\n')
    (problem,) = report.problems
    assert problem.code == "schema"
    assert "surrogate" in problem.message
    render_validation([report]).encode("utf-8")  # no lone surrogate reaches the output


# --- issue 11 #12: memory per move --------------------------------------------------------------

FILES = sorted([*(ROOT / "examples").glob("*.yaml"), *(ROOT / "tests" / "games").glob("*.yaml")])


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_compact_composer_reads_every_file_as_libyaml_does(path, monkeypatch):
    """Large files go through cf.record.compose: the same problems, positions and points."""
    data = path.read_bytes()
    plain = validate(read_game(data, path.name))
    monkeypatch.setattr(reader, "COMPACT_FROM", 0)
    compact = validate(read_game(data, path.name))
    assert compact.problems == plain.problems
    assert compact.round_points == plain.round_points
    assert (compact.rounds, compact.moves) == (plain.rounds, plain.moves)


def test_a_long_log_stays_under_40_mb_per_100k_moves():
    import tracemalloc

    n = 20_000
    moves = ["Ana: 9-8", "Ben: draw 2-1, pass", "Carla: draw, 7-5", "Dan: pass"]
    text = (
        "players: [Ana, Ben, Carla, Dan]\nrounds:\n  - moves:\n"
        + "".join(f"      - {moves[i % 4]}\n" for i in range(n))
        + "    scores: {Ana: 1, Ben: 2, Carla: 3, Dan: 4}\n"
    )
    assert len(text) > reader.COMPACT_FROM / 4
    tracemalloc.start()
    try:
        padding = (b"#" * 1023 + b"\n") * (reader.COMPACT_FROM // 1024)  # short lines
        game = reader.read_game(text.encode() + padding)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(game.rounds[0].moves or ()) == n
    text_cost = 2 * (len(text) + reader.COMPACT_FROM)  # the bytes and the decoded text
    assert peak - text_cost < 40 * 2**20 * n / 100_000, peak  # libyaml's tree: ~120 MB


def test_a_value_for_a_name_that_is_not_a_player_still_has_its_shape_checked():
    """A score of 1.5 is a schema problem whoever it is written for (found by the
    schema-agreement property test: the JSON Schema rejects it, so must cf)."""
    found = codes("players: [Ana, Ben]\nrounds:\n  - scores: {Cy: 1.5, Ana: 1, Ben: 2}\n")
    assert ("schema", 1, None) in found and ("player", 1, None) in found
    found = codes("players: [Ana, Ben]\nrounds:\n  - hands: {Cy: {a: 1}, Ana: '', Ben: 1-0}\n")
    assert ("schema", 1, None) in found


def test_a_long_log_of_bad_moves_stays_bounded():
    """Issue 22 item 12: a move text that fails once is not parsed again, and raising the
    cached failure again kept every earlier traceback (the frames of every bad move before
    it: 2.6 kB a move, 1 GB for 400,000 ``{Ana: draw}`` spread over lines in flow style);
    and each repeat had its own copy of the message (350 bytes)."""
    import tracemalloc

    n = 20_000
    items = ["{Ana: draw}", "{Ben: draw}"] * (n // 2)
    text = (
        "players: [Ana, Ben]\nrounds:\n  - moves: [\n      "
        + ",\n      ".join(", ".join(items[i : i + 8]) for i in range(0, n, 8))
        + "]\n"
    )
    tracemalloc.start()
    try:
        padding = (b"#" * 1023 + b"\n") * (reader.COMPACT_FROM // 1024)  # short lines
        game = reader.read_game(text.encode() + padding)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    moves = game.rounds[0].moves or ()
    assert len(moves) == n and all(m.action is None and m.problem for m in moves)
    text_cost = 2 * (len(text) + reader.COMPACT_FROM)  # the bytes and the decoded text
    assert peak - text_cost < 50 * 2**20 * n / 100_000, peak  # 42 MB; was 260 MB


@pytest.mark.parametrize(
    ("hand", "at"),
    [
        ("1-1 2-2 3-3 4-4 5-5\n        x", (5, 12)),  # folded over two lines: its start
        ("1-1 x", (5, 16)),  # on one line: the token itself
    ],
)
def test_a_bad_tile_in_a_plain_hand_is_placed_where_docs_say(hand, at):
    """docs/file-format.md, Positions: a bad tile in a one-line unquoted hand at that tile,
    in a multi-line text at the start of the text (never past the end of a line)."""
    head = "set: double-six\nplayers: [Ana, Ben]\nrounds:\n  - hands:\n"
    text = f"{head}      Ana: {hand}\n      Ben: ''\n"
    game = read_game(text, "g.yaml")
    (problem,) = game.problems
    assert problem.code == "tile" and (problem.line, problem.column) == at


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("rules: {arms: 3}\n", "unknown rule 'arms' (did you mean 'starter_arms'?)"),
        ("rules: {ood: 50}\n", "unknown rule 'ood' (did you mean 'out_on_double'?)"),
        ("rules: {blank: 25}\n", "unknown rule 'blank' (did you mean 'double_blank'?)"),
        ("date_played: x\n", "unknown key 'date_played' (did you mean 'date'?)"),
        ("titel: x\n", "unknown key 'titel' (did you mean 'title'?)"),
        ("foo: 1\n", "unknown key 'foo' (known keys: title, date, notes, set, rules, players"),
    ],
)
def test_an_unknown_key_names_the_closest_known_key(text, said):
    """SPEC 5: unknown keys are usually typos: say which known key is closest (a word of
    it, it with more words, its initials, not only a near spelling)."""
    game = read_game(text + "players: [Ana, Ben]\nrounds: []\n", "g.yaml")
    (problem,) = game.problems
    assert problem.code == "schema" and said in problem.message


@pytest.mark.parametrize(
    "part",
    [
        "scores: {Ana: 1, 'Ana ': 2, Ben: 0}",
        "hands: {Ana: 1-1, ' Ana': '', Ben: 2-2}",
        "scores: {Jos\u00e9: 1, Jose\u0301: 2, Ben: 0}",  # NFC, then NFD
    ],
)
def test_a_player_listed_twice_under_two_spellings_is_schema(part):
    """SPEC 5: hands, scores and deal list every player exactly once; names compare
    trimmed and in NFC, so 'Ana ' is Ana again (the last one silently won)."""
    players = "[José, Ben]" if "Jos" in part else "[Ana, Ben]"
    game = read_game(f"set: d6\nplayers: {players}\nrounds:\n  - {part}\n", "g.yaml")
    found = [(p.code, p.round) for p in validate(game).problems]
    assert found == [("schema", 1)]
    assert "is listed twice in" in game.problems[0].message


@pytest.mark.parametrize("second", ["Ana", "' Ana'"])
def test_a_deal_that_names_a_player_twice_is_not_replayed(second):
    """Which of the two hands was dealt? The round is not replayed (one fault, one
    problem), as for any deal with a problem."""
    text = (
        "set: d6\nrules: {deal: 1}\nplayers: [Ana, Ben]\nrounds:\n"
        f"  - deal: {{Ana: 1-1, {second}: 2-2, Ben: 3-3}}\n    moves: [Ana: 6-1]\n"
    )
    game = read_game(text, "g.yaml")
    assert [p.code for p in validate(game).problems] == ["schema"]


def test_a_starter_in_square_brackets_is_read_as_that_tile():
    # SPEC §1: a tile may be written inside square brackets; unquoted in YAML that is a
    # one-item list, read as the tile as a move's is. Two items are no tile.
    text = """\
        set: d6
        players: [Ana, Ben]
        rounds:
          - {starter: [6-6], scores: {Ana: 1, Ben: 2}}
          - {starter: [5|5], scores: {Ana: 1, Ben: 2}}
          - {starter: [3-3], scores: {Ana: 1, Ben: 2}}
          - {starter: [3-3, 2-2], scores: {Ana: 1, Ben: 2}}
        """
    assert found(text) == [
        ("starter", 6, "round 3 starts with 4-4, not 3-3"),
        ("schema", 7, "starter must be a single value, not a list"),
    ]


@pytest.mark.parametrize(
    "round_text",
    ["*first", "!!omap [{scores: 1}]", "!custom {scores: {Ana: 1, Ben: 2}}", "[a]", "", "5"],
)
def test_a_round_that_cannot_be_read_is_one_schema_problem(round_text):
    """One fault, one problem (docs/file-format.md): a round that is not a mapping, or
    one a YAML alias repeats or a tag makes unreadable, is a `schema` problem, and
    nobody in it is also reported "missing"."""
    text = (
        "set: double-six\nplayers: [Ana, Ben]\nrounds:\n"
        f"  - &first {{scores: {{Ana: 12, Ben: 0}}}}\n  - {round_text}\n"
    )
    game = read_game(text, "g.yaml")
    assert [(p.code, p.round) for p in validate(game).problems] == [("schema", 2)]
