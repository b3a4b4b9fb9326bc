"""``cf tally --tie-break``: players tied on the ranking put in order, the default unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cf.record.league import game_of
from cf.record.standings import competition_rank
from cf.record.tiebreak import rank

# Ana and Ben tie on 9, Cy has 17. Ana went out in round 1 (won it), Cy in round 2; Ben
# won no round. Ana beat Ben in round 1, Ben beat Ana in round 2.
ONE_GAME = """\
set: double-six
rules: {rounds: 2, double_blank: 0}
players: [Ana, Ben, Cy]
rounds:
  - hands: {Ana: "", Ben: 5-0, Cy: 5-5 4-3}
  - hands: {Ana: 6-3, Ben: 2-2, Cy: ""}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return str(tmp_path / name)


def order(cli, *args: str) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    result = cli("tally", *args, "-f", "json")
    assert result.exit_code == 0, result.output
    return [(s["rank"], s["player"]) for s in json.loads(result.stdout)["standings"]]


def test_default_is_unchanged_ties_share_the_rank(cli, tmp_path):
    g = write(tmp_path, "g.yaml", ONE_GAME)
    assert order(cli, g) == [(1, "Ana"), (1, "Ben"), (3, "Cy")]


@pytest.mark.parametrize(
    ("how", "expected"),
    [
        ("wins", [(1, "Ana"), (2, "Ben"), (3, "Cy")]),  # Ana won round 1, Ben none
        ("out-first", [(1, "Ana"), (2, "Ben"), (3, "Cy")]),  # Ana went out once
        ("head-to-head", [(1, "Ana"), (1, "Ben"), (3, "Cy")]),  # 1 round each
    ],
)
def test_one_game_tie_breaks(cli, tmp_path, how, expected):
    g = write(tmp_path, "g.yaml", ONE_GAME)
    assert order(cli, g, "--tie-break", how) == expected


def test_fewest_double_blank_and_a_second_tie_break(cli, tmp_path):
    g = write(tmp_path, "g.yaml", ONE_GAME)
    # nobody held the 0-0: still tied, then the second tie-break decides
    assert order(cli, g, "--tie-break", "double-blank") == [(1, "Ana"), (1, "Ben"), (3, "Cy")]
    assert order(cli, g, "--tie-break", "double-blank", "--tie-break", "wins") == [
        (1, "Ana"), (2, "Ben"), (3, "Cy"),
    ]  # fmt: skip
    # Ana ends round 2 holding the 0-0 (worth 0 under these rules): Ben goes first
    held = write(tmp_path, "h.yaml", ONE_GAME.replace("Ana: 6-3,", "Ana: 6-3 0-0,"))
    assert order(cli, held, "--tie-break", "double-blank") == [(1, "Ben"), (2, "Ana"), (3, "Cy")]


def test_fewest_double_blank_puts_the_holder_behind():
    a = game_of("g", ["A", "B"], [{"A": 5, "B": 5}], double_blank=[frozenset({"A"})], out=[None])
    assert rank(["A", "B"], lambda p: 5, [a], ["double-blank"], one_game=True) == [
        (1, "B"), (2, "A"),
    ]  # fmt: skip


def test_tournament_head_to_head_among_the_tied_only():
    # A and B tie on games won (1 each); in the one game they played together B beat A.
    g1 = game_of("1", ["A", "C"], [{"A": 0, "C": 9}])
    g2 = game_of("2", ["B", "C"], [{"B": 0, "C": 9}])
    g3 = game_of("3", ["A", "B", "C"], [{"A": 5, "B": 3, "C": 1}])
    wins = {"A": -1, "B": -1, "C": -1}
    assert rank(["A", "B", "C"], wins.__getitem__, [g1, g2, g3], []) == [
        (1, "A"), (1, "B"), (1, "C"),
    ]  # fmt: skip
    got = rank(["A", "B"], lambda p: 0, [g1, g2, g3], ["head-to-head"])
    assert got == [(1, "B"), (2, "A")]


def test_tournament_tie_break_cli(cli, tmp_path):
    # Ana wins a, Ben wins b, Cy wins c: one win each; Ana beat Ben when they met.
    a = write(tmp_path, "a.yaml", "set: double-six\nrules: {rounds: 1}\nplayers: [Ana, Ben]\n"
              "rounds:\n  - scores: {Ana: 4, Ben: 6}\n")  # fmt: skip
    b = write(tmp_path, "b.yaml", "set: double-six\nrules: {rounds: 1}\nplayers: [Ben, Cy]\n"
              "rounds:\n  - scores: {Ben: 4, Cy: 9}\n")  # fmt: skip
    c = write(tmp_path, "c.yaml", "set: double-six\nrules: {rounds: 1}\nplayers: [Ana, Cy]\n"
              "rounds:\n  - scores: {Ana: 6, Cy: 0}\n")  # fmt: skip
    assert order(cli, a, b, c, "--rank-by", "wins") == [(1, "Ana"), (1, "Ben"), (1, "Cy")]
    assert order(cli, a, b, c, "--rank-by", "wins", "--tie-break", "head-to-head") == [
        (1, "Ana"), (1, "Ben"), (1, "Cy"),  # a cycle: each beat one of the others
    ]  # fmt: skip
    assert order(cli, a, b, "--rank-by", "wins", "--tie-break", "head-to-head") == [
        (1, "Ana"), (2, "Ben"), (3, "Cy"),
    ]  # fmt: skip


def test_tie_break_misuse_is_a_usage_error(cli, tmp_path):
    g = write(tmp_path, "g.yaml", ONE_GAME)
    assert cli("tally", g, "--tie-break", "coin").exit_code == 2
    assert cli("tally", g, "--rank-by", "rating", "--tie-break", "wins").exit_code == 2


def test_the_tie_break_changes_the_winner_line(cli, tmp_path):
    g = write(tmp_path, "g.yaml", ONE_GAME)
    assert "* winners: Ana and Ben" in cli("tally", g).stdout
    assert "* winner: Ana" in cli("tally", g, "--tie-break", "wins").stdout


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from("ABCDEF"), st.integers(0, 3), min_size=1))
def test_without_tie_breaks_the_ranks_are_the_standings_own(values):
    players = list(values)
    assert rank(players, values.__getitem__, [], []) == [
        (r, p) for r, p in competition_rank(players, values.__getitem__)
    ]
