"""Names and numbers are taken as written (docs/file-format.md): names YAML 1.1 reads as
booleans, numbers or null; accents, emoji and right-to-left names; ``033`` is 33; huge
integers are added up exactly or refused cleanly.
"""

from __future__ import annotations

import json

import pytest
import yaml
from hardening_helpers import (
    assert_clean_failure,
    assert_one_line_each,
    cf,
    check,
    messages,
    small_game,
)

# --- 7. names and numbers --------------------------------------------------------------------

YAML11_NAMES = [
    "No", "no", "NO", "n", "N", "Yes", "y", "on", "On", "off", "OFF", "true", "False",
    "1", "0", "033", "0x1F", "0o17", "0b101", "1_000", "+1", "-1", "1.5", "1e3", ".inf",
    "-.Inf", ".NaN", "2026-11-28", "12:30", "190:20:30", "null", "Null", "NULL", "~",
]  # fmt: skip


@pytest.mark.parametrize("name", YAML11_NAMES)
def test_names_yaml_11_would_convert_are_taken_as_written(cli, tmp_path, name):
    path = tmp_path / "g.yaml"
    path.write_text(
        f"players:\n  - {name}\n  - Ben\nrounds:\n  - scores:\n      {name}: 3\n      Ben: 0\n"
        f"  - hands:\n      {name}: ''\n      Ben: 9-7\n"
    )
    report = check(path.read_bytes())
    assert report.valid, messages(report)
    assert report.players == [name, "Ben"]
    assert report.round_points == [{name: 3, "Ben": 0}, {name: 0, "Ben": 16}]
    result = cli("tally", str(path), "-f", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["standings"]
    assert [(r["player"], r["total"]) for r in rows] == [(name, 3), ("Ben", 16)]


UNICODE_NAMES = ["José", "Zoë", "Ñandú", "😀🐔", "שלום", "سارة", "\u200fדוד", "李雷", "Ана"]


def _unquoted_game(names: list[str], rounds: int = 2) -> str:
    text = small_game(names, rounds)
    for n in names:
        text = text.replace(json.dumps(n, ensure_ascii=False), n)
    return text


def test_special_and_unicode_names_through_a_whole_game(cli, tmp_path):
    """Deal, moves, hands and scores keyed by names written plain, as a person would."""
    names = ["No", "on", "1", "José", "😀🐔", "שלום"]
    text = _unquoted_game(names)
    assert '"No"' not in text and "- 1: " in text
    path = tmp_path / "names.yaml"
    path.write_text(text, encoding="utf-8")
    report = check(text.encode())
    assert report.valid, messages(report)
    assert report.players == names
    result = cli("validate", str(path))
    assert result.exit_code == 0, result.output
    result = cli("tally", str(path), "-f", "json")
    assert result.exit_code == 0, result.output
    assert sorted(r["player"] for r in json.loads(result.stdout)["standings"]) == sorted(names)
    result = cli("tally", str(path))
    assert result.exit_code == 0, result.output
    for n in names:
        assert n in result.stdout


@pytest.mark.parametrize("name", UNICODE_NAMES)
def test_unicode_names_in_validate_and_tally(cli, tmp_path, name):
    path = tmp_path / "u.yaml"
    path.write_text(
        f"players: [{name}, Ben]\nrounds:\n  - hands: {{{name}: 9-8, Ben: 0-0}}\n"
        f"  - scores: {{{name}: 0, Ben: 7, Eve: 1}}\n",
        encoding="utf-8",
    )
    result = cli("validate", str(path), "-f", "json")
    assert result.exit_code == 1
    problem = json.loads(result.stdout)["files"][0]["problems"][0]
    assert problem["code"] == "player"
    path.write_text(path.read_text().replace(", Eve: 1", ""), encoding="utf-8")
    for fmt in ("simple", "csv", "github", "json"):
        result = cli("tally", str(path), "-f", fmt)
        assert result.exit_code == 0, result.output
        assert name in result.stdout


def test_names_in_two_files_match_as_written(cli, tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("players: [No, José]\nrounds: [{scores: {No: 1, José: 2}}]\n")
    b.write_text('players: ["No", "José"]\nrounds: [{scores: {"No": 10, "José": 20}}]\n')
    result = cli("tally", str(a), str(b), "-f", "json")
    assert result.exit_code == 0, result.output
    rows = {r["player"]: r for r in json.loads(result.stdout)["standings"]}
    assert rows["No"]["total"] == 11 and rows["José"]["total"] == 22
    assert rows["No"]["games"] == 2


@pytest.mark.parametrize("long", ["x" * 1025, "José" + " José" * 299])
def test_a_name_too_long_for_a_plain_yaml_key_is_written_after_a_question_mark(
    cli, tmp_path, long
):
    """YAML reads a key without ``?`` only up to 1,024 characters: cf writes longer names,
    as keys, after one (docs/file-format.md), so every file it writes reads back."""
    game = tmp_path / "g.yaml"
    assert cli("new", str(game), "--players", f"{long},Bo", "--set", "6").exit_code == 0
    result = cli("add", str(game), f"{long}=3", "Bo=out")
    assert result.exit_code == 0, result.output
    assert cli("add", str(game), f"{long}=5", "Bo=2").exit_code == 0
    report = check(game.read_bytes())
    assert report.valid, messages(report)
    assert report.round_points == [{long: 3, "Bo": 0}, {long: 5, "Bo": 2}]
    assert cli("undo", str(game)).exit_code == 0
    assert check(game.read_bytes()).round_points == [{long: 3, "Bo": 0}]
    played = tmp_path / "s.yaml"
    names = ["--names", f"{long},Bo", "--set", "6", "--seed", "1"]
    assert cli("simulate", *names, "--rounds", "1", "-o", str(played)).exit_code == 0
    report = check(played.read_bytes())
    assert report.valid, messages(report)
    assert report.players == [long, "Bo"]
    dealt = cli("deal", "2", "--shuffle", *names)
    assert dealt.exit_code == 0, dealt.output
    assert set(yaml.safe_load(dealt.stdout)["deal"]) == {long, "Bo"}


@pytest.mark.parametrize("written", ["033", "'033'", '"033"', "0033", "!!str 033", "!!int 033"])
def test_score_033_is_33(cli, tmp_path, written):
    path = tmp_path / "s.yaml"
    path.write_text(f"players: [Ana, Ben]\nrounds: [{{scores: {{Ana: {written}, Ben: 0}}}}]\n")
    report = check(path.read_bytes())
    assert report.valid, messages(report)
    assert report.round_points == [{"Ana": 33, "Ben": 0}]
    result = cli("tally", str(path), "-f", "json")
    assert json.loads(result.stdout)["standings"][1]["total"] == 33


@pytest.mark.parametrize(
    "written", ["0x1F", "0o17", "1_000", "3.0", "-1", "+3", "1e3", ".inf", "٣", "３", "3 4", "''"]
)
def test_scores_that_are_not_decimal_are_schema_problems(written):
    report = check(f"players: [Ana, Ben]\nrounds: [{{scores: {{Ana: {written}, Ben: 0}}}}]\n")
    assert [p.code for p in report.problems] == ["schema"], messages(report)
    assert report.problems[0].player is None or report.problems[0].player == "Ana"
    assert_one_line_each(report)


def test_huge_scores_add_up_exactly(cli, tmp_path):
    big = 10**60 + 7
    path = tmp_path / "big.yaml"
    # A score above what the whole set is worth is a score-mismatch (SPEC §5): a double
    # blank worth 10**61 makes such scores possible.
    path.write_text(f"rules: {{double_blank: {10**61}}}\n"
                    f"players: [Ana, Ben]\nrounds: [{{scores: {{Ana: {big}, Ben: 0}}}}, "
                    f"{{scores: {{Ana: {big}, Ben: 1}}}}]\n")  # fmt: skip
    result = cli("tally", str(path), "-f", "json")
    assert result.exit_code == 0, result.output
    rows = {r["player"]: r for r in json.loads(result.stdout)["standings"]}
    assert rows["Ana"]["total"] == 2 * big
    result = cli("tally", str(path))
    assert str(2 * big) in result.stdout


@pytest.mark.parametrize("digits", [400, 1000])
@pytest.mark.parametrize("fmt", ["simple", "json", "csv", "grid"])
def test_huge_scores_in_a_tournament(tmp_path, digits, fmt):
    """Several files: totals and averages of scores far beyond a float. Exact totals, and
    an average that is right or a clean problem; never an internal error.
    (`cf tally a.yaml b.yaml` with a 309-digit score: OverflowError in the average.)"""
    big = int("9" * digits)
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(f"players: [Ana, Ben]\nrounds: [{{scores: {{Ana: {big}, Ben: 0}}}}]\n")
    b.write_text("players: [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 0}}]\n")
    proc = cf("tally", str(a), str(b), "-f", fmt)
    assert_clean_failure(proc, codes=(0, 1))
    if proc.returncode == 0:
        assert str(big + 1) in proc.stdout.decode()


@pytest.mark.parametrize("digits", [1001, 4301, 60_000])  # 64 KiB is the longest line
def test_scores_with_too_many_digits_are_a_clean_problem(digits):
    report = check(f"players: [Ana, Ben]\nrounds: [{{scores: {{Ana: {'9' * digits}, Ben: 0}}}}]\n")
    assert [p.code for p in report.problems] == ["schema"], messages(report)[:300]
    assert len(report.problems[0].message) < 200
    assert_one_line_each(report)


@pytest.mark.parametrize(
    "rules",
    ["{double_blank: " + "9" * 5000 + "}", "{deal: " + "9" * 400 + "}",
     "{reserve: 0" + "0" * 999 + "}", "{starter_arms: " + "9" * 2000 + "}"],
)  # fmt: skip
def test_huge_rule_values_are_clean(rules):
    report = check(
        f"rules: {rules}\nplayers: [Ana, Ben]\nrounds: [{{hands: {{Ana: 0-0, Ben: 9-8}}}}]\n"
    )
    assert_one_line_each(report)
    if not report.valid:
        assert {p.code for p in report.problems} <= {"rules", "schema"}, messages(report)[:500]


@pytest.mark.parametrize(
    "args",
    [
        ["score", "--double-blank", "9" * 400, "0-0"],
        ["score", "--double-blank", "9" * 5000, "0-0"],
        ["score", "9" * 5000 + "-1"],
        ["deal", "9" * 400],
        ["deal", "--deal", "9" * 400, "4"],
        ["deal", "--shuffle", "--seed", "9" * 5000, "4"],
        ["simulate", "--rounds", "9" * 400],
        ["simulate", "--deal", "9" * 400, "-p", "2"],
        ["simulate", "-p", "2", "--games", "2", "--stats", "--jobs", "9" * 400],
    ],
    ids=lambda a: " ".join(x if len(x) < 12 else "<huge>" for x in a),
)
def test_huge_numbers_on_the_command_line(args):
    assert_clean_failure(cf(*args), codes=(0, 1, 2))


@pytest.mark.parametrize("players", ["10000000", "9" * 400])
def test_huge_player_count_is_refused_at_once(players):
    """`cf simulate --players N` with N far beyond any table: refused before anything is
    built for N players (today a list of N names is made first: 10**7 takes about a second
    and 800 MB, 10**400 never ends). 1 GiB of address space is plenty for a refusal."""
    assert_clean_failure(cf("simulate", "--players", players, limit_memory=2**30), codes=(1, 2))
