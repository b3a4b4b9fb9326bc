"""``cf deal``: the deal tables and real shuffled deals (SPEC §3, §7)."""

from __future__ import annotations

import json
import re

import pytest
import yaml

# SPEC §3, typed from the SPEC: set -> {players: tiles each}; pool = set size - 1.
SPEC_TABLES = {
    "double-six": {2: 7, 3: 7, 4: 5, 5: 4},
    "double-nine": {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5},
    "double-twelve": {
        **{2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 11},
        **{8: 10, 9: 9, 10: 8, 11: 7, 12: 7},
    },
    "double-fifteen": {
        **{2: 18, 3: 18, 4: 18, 5: 15, 6: 15, 7: 13},
        **{8: 13, 9: 11, 10: 11, 11: 10, 12: 10, 13: 9},
    },
}
TOP = {"double-six": 6, "double-nine": 9, "double-twelve": 12, "double-fifteen": 15}
POOL = {"double-six": 27, "double-nine": 54, "double-twelve": 90, "double-fifteen": 135}


def spec_row(set_name: str, players: int, each: int | None = None) -> dict:
    each = SPEC_TABLES[set_name][players] if each is None else each
    return {
        "set": set_name,
        "players": players,
        "tiles_each": each,
        "yard": POOL[set_name] - players * each,
        "reserve": 2 if players == 2 else 1,
    }


ROWS = [(name, players) for name, table in SPEC_TABLES.items() for players in table]


@pytest.fixture(autouse=True)
def _no_cf_environment(monkeypatch):
    monkeypatch.delenv("CF_SET", raising=False)
    monkeypatch.delenv("CF_DOUBLE_BLANK", raising=False)


def numeric_rows(text: str) -> list[list[int]]:
    """The lines of a text table made only of numbers (players, each, yard, reserve)."""
    return [
        [int(n) for n in line.split()]
        for line in text.splitlines()
        if re.fullmatch(r"\s*\d+(\s+\d+)+\s*", line)
    ]


def all_tiles(top: int) -> set[str]:
    return {f"{a}-{b}" for a in range(top + 1) for b in range(a + 1)}


# --- tables -------------------------------------------------------------------------------


@pytest.mark.parametrize(("set_name", "players"), ROWS)
def test_one_row_as_json(cli, set_name, players):
    result = cli("deal", str(players), "--set", set_name, "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == spec_row(set_name, players)


@pytest.mark.parametrize(("set_name", "players"), ROWS)
def test_one_row_as_text(cli, set_name, players):
    result = cli("deal", str(players), "--set", set_name)
    assert result.exit_code == 0, result.stderr
    row = spec_row(set_name, players)
    assert numeric_rows(result.stdout) == [
        [players, row["tiles_each"], row["yard"], row["reserve"]]
    ]


@pytest.mark.parametrize("set_name", sorted(SPEC_TABLES))
def test_whole_table_as_json(cli, set_name):
    result = cli("deal", "--set", set_name, "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == [spec_row(set_name, n) for n in SPEC_TABLES[set_name]]


@pytest.mark.parametrize("set_name", sorted(SPEC_TABLES))
def test_whole_table_as_text(cli, set_name):
    result = cli("deal", "--set", set_name)
    assert result.exit_code == 0, result.stderr
    expected = [
        [n, r["tiles_each"], r["yard"], r["reserve"]]
        for n in SPEC_TABLES[set_name]
        for r in [spec_row(set_name, n)]
    ]
    assert numeric_rows(result.stdout) == expected
    assert set_name in result.stdout


def test_default_set_is_double_nine(cli):
    result = cli("deal", "4", "-f", "json")
    assert json.loads(result.stdout) == {
        "set": "double-nine",
        "players": 4,
        "tiles_each": 11,
        "yard": 10,
        "reserve": 1,
    }


@pytest.mark.parametrize("name", ["double-twelve", "double-12", "d12", "12"])
def test_json_uses_the_canonical_set_name(cli, name):
    result = cli("deal", "6", "--set", name, "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["set"] == "double-twelve"
    assert set(json.loads(result.stdout)) == {"set", "players", "tiles_each", "yard", "reserve"}


def test_deal_override_for_one_row(cli):
    result = cli("deal", "4", "--deal", "5", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == spec_row("double-nine", 4, each=5)


def test_deal_override_for_the_whole_table(cli):
    result = cli("deal", "--deal", "7", "-f", "json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert rows  # the override applies to the table's player counts that can take it
    assert all(r["tiles_each"] == 7 for r in rows)
    assert all(r == spec_row("double-nine", r["players"], each=7) for r in rows)
    assert [r["players"] for r in rows] == [2, 3, 4, 5, 6, 7]  # 8 x 7 = 56 > 54


def test_deal_override_reaches_a_player_count_outside_the_table(cli):
    result = cli("deal", "9", "--deal", "5", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {
        "set": "double-nine",
        "players": 9,
        "tiles_each": 5,
        "yard": 9,
        "reserve": 1,
    }


@pytest.mark.parametrize(
    ("set_name", "players"),
    [("double-nine", 9), ("double-nine", 1), ("double-six", 6), ("double-fifteen", 14)],
)
def test_player_count_without_a_row_is_exit_1(cli, set_name, players):
    result = cli("deal", str(players), "--set", set_name)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.strip() != ""
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("2", "--deal", "27"),  # 54 - 54 = 0, reserve 2
        ("4", "--deal", "14"),  # 54 - 56 < 0
        ("3", "--deal", "9", "--set", "6"),  # 27 - 27 = 0, reserve 1
    ],
)
def test_deal_leaving_fewer_than_reserve_is_exit_1(cli, args):
    result = cli("deal", *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.strip() != ""


def test_deal_leaving_exactly_the_reserve_is_fine(cli):
    result = cli("deal", "2", "--deal", "26", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == spec_row("double-nine", 2, each=26)


def test_double_eighteen_needs_a_deal(cli):
    result = cli("deal", "4", "--set", "double-eighteen")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.strip() != ""
    given = cli("deal", "4", "--set", "18", "--deal", "10", "-f", "json")
    assert given.exit_code == 0, given.stderr
    assert json.loads(given.stdout) == {
        "set": "double-eighteen",
        "players": 4,
        "tiles_each": 10,
        "yard": 189 - 40,
        "reserve": 1,
    }


@pytest.mark.parametrize(
    "args",
    [
        ("--set", "bogus"),
        ("--set", "double-seven"),
        ("4", "--deal", "0"),
        ("4", "--deal", "x"),
        ("four",),
        ("4", "--format", "xml"),
    ],
)
def test_usage_errors_are_exit_2(cli, args):
    result = cli("deal", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


def test_cf_set_environment_variable(cli):
    result = cli("deal", "6", "-f", "json", env={"CF_SET": "d12"})
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == spec_row("double-twelve", 6)


def test_set_option_wins_over_cf_set(cli):
    result = cli("deal", "4", "--set", "6", "-f", "json", env={"CF_SET": "d12"})
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == spec_row("double-six", 4)


def test_bad_cf_set_is_a_usage_error(cli):
    result = cli("deal", "4", env={"CF_SET": "double-ten"})
    assert result.exit_code == 2
    assert result.stdout == ""


# --- --shuffle ----------------------------------------------------------------------------


def shuffle_json(cli, *args: str) -> dict:
    result = cli("deal", "--shuffle", "--format", "json", *args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def check_valid_deal(data: dict, top: int, names: list[str], each: int, starter: str) -> None:
    assert set(data) == {"starter", "deal", "chicken_yard"}
    assert data["starter"] == starter
    assert list(data["deal"]) == names
    hands = list(data["deal"].values())
    assert all(len(hand) == each for hand in hands)
    dealt = [t for hand in hands for t in hand]
    yard = data["chicken_yard"]
    everything = dealt + yard
    assert len(everything) == len(set(everything)), "a tile is dealt twice"
    assert starter not in everything, "the starter is set aside"
    # every tile is canonical and the yard is the rest of the set
    assert set(everything) | {starter} == all_tiles(top)
    assert len(yard) == (top + 1) * (top + 2) // 2 - 1 - len(names) * each


@pytest.mark.parametrize(
    ("set_name", "players"),
    [
        ("double-nine", 4),
        ("double-nine", 2),
        ("double-six", 3),
        ("double-twelve", 8),
        ("double-fifteen", 13),
    ],
)
def test_shuffle_deals_a_valid_round(cli, set_name, players):
    data = shuffle_json(cli, str(players), "--set", set_name, "--seed", "11")
    top = TOP[set_name]
    names = list(data["deal"])
    assert len(names) == players
    check_valid_deal(data, top, names, SPEC_TABLES[set_name][players], f"{top}-{top}")


def test_shuffle_with_seed_is_repeatable(cli):
    args = ("deal", "--shuffle", "4", "--seed", "42")
    first, second = cli(*args), cli(*args)
    assert first.exit_code == 0
    assert first.stdout == second.stdout
    json_args = ("deal", "--shuffle", "4", "--seed", "42", "-f", "json")
    assert cli(*json_args).stdout == cli(*json_args).stdout


def test_different_seeds_give_different_deals(cli):
    deals = {cli("deal", "--shuffle", "4", "--seed", str(s)).stdout for s in range(5)}
    assert len(deals) > 1


def test_shuffle_with_names(cli):
    names = ["Ana", "Ben", "Carla", "Dan"]
    data = shuffle_json(cli, "--names", ",".join(names), "--seed", "3")
    check_valid_deal(data, 9, names, 11, "9-9")


def test_shuffle_names_and_matching_count(cli):
    data = shuffle_json(cli, "3", "--names", "Ana,Ben,Carla", "--seed", "3")
    check_valid_deal(data, 9, ["Ana", "Ben", "Carla"], 14, "9-9")


@pytest.mark.parametrize(
    ("set_name", "round_number", "starter"),
    [
        ("double-nine", "1", "9-9"),
        ("double-nine", "2", "8-8"),
        ("double-nine", "7", "3-3"),
        ("double-nine", "10", "0-0"),
        ("double-six", "3", "4-4"),
        ("double-twelve", "13", "0-0"),
    ],
)
def test_shuffle_round_sets_aside_that_double(cli, set_name, round_number, starter):
    data = shuffle_json(cli, "4", "--set", set_name, "--round", round_number, "--seed", "5")
    top = TOP[set_name]
    check_valid_deal(data, top, list(data["deal"]), SPEC_TABLES[set_name][4], starter)


@pytest.mark.parametrize("shuffle", [["--shuffle"], []], ids=["shuffle", "table row"])
@pytest.mark.parametrize("round_number", ["0", "11", "x"])
def test_shuffle_round_outside_the_game_is_a_usage_error(cli, round_number, shuffle):
    result = cli("deal", *shuffle, "4", "--round", round_number)
    assert result.exit_code == 2
    assert result.stdout == ""


def test_shuffle_with_deal_override(cli):
    data = shuffle_json(cli, "--names", "A,B,C,D,E,F,G,H,I", "--deal", "5", "--seed", "1")
    check_valid_deal(data, 9, list("ABCDEFGHI"), 5, "9-9")


def test_shuffle_without_a_row_is_exit_1(cli):
    result = cli("deal", "--shuffle", "9", "--seed", "1")
    assert result.exit_code == 1
    assert result.stdout == ""


def test_shuffle_leaving_fewer_than_reserve_is_exit_1(cli):
    result = cli("deal", "--shuffle", "2", "--deal", "27", "--seed", "1")
    assert result.exit_code == 1
    assert result.stdout == ""


def test_shuffle_text_is_yaml_with_a_yard_comment(cli):
    names = ["Ana", "Ben", "Carla", "Dan"]
    result = cli("deal", "--shuffle", "--names", ",".join(names), "--seed", "7")
    assert result.exit_code == 0, result.stderr
    data = yaml.safe_load(result.stdout)
    assert set(data) == {"starter", "deal"}
    assert data["starter"] == "9-9"
    assert list(data["deal"]) == names
    lines = result.stdout.rstrip("\n").splitlines()
    last = lines[-1]
    assert last.startswith("# chicken yard:")
    yard = last[len("# chicken yard:") :].replace(",", " ").split()
    hands = {name: str(hand).replace(",", " ").split() for name, hand in data["deal"].items()}
    check_valid_deal(
        {"starter": data["starter"], "deal": hands, "chicken_yard": yard}, 9, names, 11, "9-9"
    )


def test_shuffle_text_and_json_agree_for_the_same_seed(cli):
    text = cli("deal", "--shuffle", "5", "--seed", "99")
    as_json = shuffle_json(cli, "5", "--seed", "99")
    data = yaml.safe_load(text.stdout)
    assert data["starter"] == as_json["starter"]
    assert {n: str(h).split() for n, h in data["deal"].items()} == as_json["deal"]
    yard_line = text.stdout.rstrip("\n").splitlines()[-1]
    assert sorted(yard_line.split(":", 1)[1].replace(",", " ").split()) == sorted(
        as_json["chicken_yard"]
    )


def test_shuffle_text_pastes_into_a_round_that_validates(cli):
    names = ["Ana", "Ben", "Carla"]
    dealt = cli("deal", "--shuffle", "--names", ",".join(names), "--seed", "2")
    assert dealt.exit_code == 0, dealt.stderr
    body = "\n".join("    " + line for line in dealt.stdout.splitlines())
    game = (
        "players: [Ana, Ben, Carla]\n"
        "rounds:\n"
        "  - scores: {Ana: 0, Ben: 10, Carla: 20}\n" + body + "\n"
    )
    result = cli("validate", "-", input=game)
    assert result.exit_code == 0, result.stdout + result.stderr
