"""``cf tally`` (SPEC §7): one game's standings, tournaments, formats and failures."""

from __future__ import annotations

import csv
import io
import json
import re
import textwrap
from pathlib import Path

import pytest

# --- helpers -------------------------------------------------------------------------------


def write(tmp_path: Path, name: str, source: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return str(path)


def scores_game(
    players: list[str], rounds: list[list[int]], top: str = "double-six", complete: bool = False
) -> str:
    """A game file scored round by round: ``rounds[k][i]`` is player i's score in round k+1.
    ``complete``: the file declares ``rules.rounds`` to be the rounds given."""
    lines = [f"set: {top}", f"players: [{', '.join(players)}]", "rounds:"]
    if complete:
        lines.insert(1, f"rules: {{rounds: {len(rounds)}}}")
    for points in rounds:
        pairs = ", ".join(f"{p}: {s}" for p, s in zip(players, points, strict=True))
        lines.append(f"  - scores: {{{pairs}}}")
    return "\n".join(lines) + "\n"


def tally_json(cli, *args: str) -> dict:
    result = cli("tally", *args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def ranking(data: dict) -> list[tuple[int, str]]:
    return [(row["rank"], row["player"]) for row in data["standings"]]


def names_in_order(text: str, names: list[str]) -> list[str]:
    """The names as they appear, one per line, in a rendered table (notes under it aside)."""
    found = []
    for line in text.splitlines():
        if "winner" in line or "leader" in line:
            continue
        hits = [n for n in names if re.search(rf"(?<![A-Za-z]){n}(?![A-Za-z])", line)]
        assert len(hits) <= 1, line
        found.extend(hits)
    return found


# --- one game -----------------------------------------------------------------------------

FOUR = ["Ana", "Ben", "Carla", "Dan"]


@pytest.fixture
def one_game(tmp_path):
    # totals: Ana 12, Ben 7, Carla 20, Dan 3
    return write(
        tmp_path, "g.yaml", scores_game(FOUR, [[5, 0, 10, 3], [7, 4, 0, 0], [0, 3, 10, 0]])
    )


def test_one_game_json_has_rank_player_rounds_total_lowest_first(cli, one_game):
    data = tally_json(cli, one_game)
    assert data == {
        "ranked_by": "total",
        "complete": False,  # 3 of double-six's 7 rounds
        "leaders": ["Dan"],
        "standings": [
            {"rank": 1, "player": "Dan", "total": 3, "rounds": [3, 0, 0], "movement": 0},
            {"rank": 2, "player": "Ben", "total": 7, "rounds": [0, 4, 3], "movement": 0},
            {"rank": 3, "player": "Ana", "total": 12, "rounds": [5, 7, 0], "movement": 1},
            {"rank": 4, "player": "Carla", "total": 20, "rounds": [10, 0, 10], "movement": -1},
        ],
    }


def test_one_game_json_row_keys_are_exactly_the_spec_ones(cli, one_game):
    data = tally_json(cli, one_game)
    assert set(data) == {"ranked_by", "complete", "leaders", "standings"}
    for row in data["standings"]:
        assert set(row) == {"rank", "player", "total", "rounds", "movement"}
        assert isinstance(row["rounds"], list)
        assert sum(row["rounds"]) == row["total"]


def test_one_game_text_table_has_a_column_per_round(cli, one_game):
    result = cli("tally", one_game)
    assert result.exit_code == 0, result.stderr
    header = result.stdout.splitlines()[0].split()
    assert header == ["rank", "player", "R1", "R2", "R3", "total"]
    assert names_in_order(result.stdout, FOUR) == ["Dan", "Ben", "Ana", "Carla"]
    dan = next(line for line in result.stdout.splitlines() if "Dan" in line)
    assert dan.split()[0] == "1"
    assert dan.split()[-4:] == ["3", "0", "0", "3"]


def test_competition_ranking_one_two_two_four(cli, tmp_path):
    path = write(tmp_path, "g.yaml", scores_game(FOUR, [[1, 2, 2, 4]]))
    assert ranking(tally_json(cli, path)) == [(1, "Ana"), (2, "Ben"), (2, "Carla"), (4, "Dan")]


def test_ties_at_every_position_share_the_rank_in_seating_order(cli, tmp_path):
    # Seating is neither alphabetical nor the order of the totals.
    players = ["Zoe", "Mia", "Eve", "Bob", "Kim", "Al"]
    #          10     3      7      3      10     7
    rounds = [[4, 3, 7, 0, 10, 2], [6, 0, 0, 3, 0, 5]]
    data = tally_json(cli, write(tmp_path, "g.yaml", scores_game(players, rounds)))
    assert ranking(data) == [
        (1, "Mia"),
        (1, "Bob"),
        (3, "Eve"),
        (3, "Al"),
        (5, "Zoe"),
        (5, "Kim"),
    ]
    assert [r["total"] for r in data["standings"]] == [3, 3, 7, 7, 10, 10]


def test_everybody_tied_all_rank_one_in_seating_order(cli, tmp_path):
    players = ["Dan", "Ana", "Ben"]
    data = tally_json(cli, write(tmp_path, "g.yaml", scores_game(players, [[4, 4, 4]])))
    assert ranking(data) == [(1, "Dan"), (1, "Ana"), (1, "Ben")]


def test_text_table_lists_tied_players_in_seating_order(cli, tmp_path):
    players = ["Zoe", "Mia", "Eve", "Bob"]
    path = write(tmp_path, "g.yaml", scores_game(players, [[9, 2, 9, 2]]))
    result = cli("tally", path, "--format", "plain")
    assert result.exit_code == 0, result.stderr
    assert names_in_order(result.stdout, players) == ["Mia", "Bob", "Zoe", "Eve"]


# --- where a round's points come from -------------------------------------------------------


def test_points_from_scores(cli, tmp_path):
    path = write(
        tmp_path,
        "g.yaml",
        """\
        players: [Ana, Ben]
        rounds:
          - scores: {Ana: 033, Ben: 0}
        """,
    )
    data = tally_json(cli, path)
    assert {r["player"]: r["rounds"] for r in data["standings"]} == {"Ana": [33], "Ben": [0]}


@pytest.mark.parametrize(("double_blank", "expected"), [(50, 50), (25, 25), (0, 0)])
def test_points_from_hands_use_the_games_double_blank(cli, tmp_path, double_blank, expected):
    path = write(
        tmp_path,
        "g.yaml",
        f"""\
        players: [Ana, Ben, Carla]
        rules: {{double_blank: {double_blank}}}
        rounds:
          - hands: {{Ana: 9-7 6-6 4-1, Ben: "", Carla: 0-0 2-1}}
        """,
    )
    data = tally_json(cli, path)
    points = {r["player"]: r["rounds"][0] for r in data["standings"]}
    assert points == {"Ana": 33, "Ben": 0, "Carla": expected + 3}


def test_default_double_blank_is_50_for_hands(cli, tmp_path):
    path = write(
        tmp_path,
        "g.yaml",
        """\
        players: [Ana, Ben]
        rounds:
          - hands: {Ana: [0-0], Ben: ""}
        """,
    )
    data = tally_json(cli, path)
    assert {r["player"]: r["total"] for r in data["standings"]} == {"Ana": 50, "Ben": 0}


REPLAY = """\
set: double-six
rules: {{deal: 2, starter_arms: 2{extra}}}
players: [Ana, Ben]
rounds:
  - starter: 6-6
    deal: {{Ana: 6-1 1-2, Ben: 6-3 0-0}}
    moves:
      - Ana: 6-1
      - Ben: 6-3
      - Ana: 1-2
  - deal: {{Ana: 5-4 3-1, Ben: 5-2 2-2}}
    moves:
      - Ben: 5-2
      - Ana: 5-4
      - Ben: 2-2
"""


@pytest.mark.parametrize(("extra", "blank"), [("", 50), (", double_blank: 25", 25)])
def test_points_from_the_replayed_log(cli, tmp_path, extra, blank):
    # Round 1: Ana goes out, Ben is left with 0-0. Round 2: Ben goes out on a double
    # (the round ends at once), Ana is left with 3-1.
    path = write(tmp_path, "g.yaml", REPLAY.format(extra=extra))
    data = tally_json(cli, path)
    rounds = {r["player"]: r["rounds"] for r in data["standings"]}
    assert rounds == {"Ana": [0, 4], "Ben": [blank, 0]}
    assert ranking(data) == [(1, "Ana"), (2, "Ben")]


def test_scores_and_hands_that_agree_are_tallied(cli, tmp_path):
    path = write(
        tmp_path,
        "g.yaml",
        """\
        players: [Ana, Ben]
        rounds:
          - hands: {Ana: 9-7 6-6 4-1, Ben: ""}
            scores: {Ana: 33, Ben: 0}
        """,
    )
    data = tally_json(cli, path)
    assert {r["player"]: r["total"] for r in data["standings"]} == {"Ana": 33, "Ben": 0}


def test_scores_that_disagree_with_hands_are_not_tallied(cli, tmp_path):
    path = write(
        tmp_path,
        "g.yaml",
        """\
        players: [Ana, Ben]
        rounds:
          - hands: {Ana: 9-7 6-6 4-1, Ben: ""}
            scores: {Ana: 30, Ben: 0}
        """,
    )
    result = cli("tally", path)
    assert result.exit_code == 1
    assert "[score-mismatch]" in result.stderr
    assert "Ana" not in result.stdout


def test_scores_that_disagree_with_the_log_are_not_tallied(cli, tmp_path):
    source = REPLAY.format(extra="").replace(
        "      - Ana: 1-2\n", "      - Ana: 1-2\n    scores: {Ana: 0, Ben: 5}\n"
    )
    result = cli("tally", write(tmp_path, "g.yaml", source))
    assert result.exit_code == 1
    assert "[score-mismatch]" in result.stderr


UNSEEN = """\
set: double-six
rules: {{deal: 2, starter_arms: 2}}
players: [Ana, Ben]
rounds:
  - deal: {{Ana: 6-1 4-3, Ben: 6-2 2-4}}
    moves:
      - Ana: 6-1
      - Ben: 6-2
      - Ana: draw, pass
      - Ben: 2-4
{tail}"""


def test_scores_are_used_where_the_log_leaves_unseen_tiles(cli, tmp_path):
    # Ana drew a tile nobody saw: only the recorded scores can say what she holds.
    source = UNSEEN.format(tail="    scores: {Ana: 12, Ben: 0}\n")
    data = tally_json(cli, write(tmp_path, "g.yaml", source))
    assert {r["player"]: r["rounds"] for r in data["standings"]} == {"Ana": [12], "Ben": [0]}


def test_without_scores_a_log_with_unseen_tiles_cannot_be_tallied(cli, tmp_path):
    result = cli("tally", write(tmp_path, "g.yaml", UNSEEN.format(tail="")))
    assert result.exit_code == 1
    assert "[missing-score]" in result.stderr


def test_hands_are_used_where_the_log_leaves_unseen_tiles(cli, tmp_path):
    source = UNSEEN.format(tail='    hands: {Ana: 4-3 5-0, Ben: ""}\n')
    data = tally_json(cli, write(tmp_path, "g.yaml", source))
    assert {r["player"]: r["rounds"] for r in data["standings"]} == {"Ana": [12], "Ben": [0]}


def test_names_and_scores_are_taken_as_written(cli, tmp_path):
    path = write(
        tmp_path,
        "g.yaml",
        """\
        players: [No, on, 1, Ana Mª]
        rounds:
          - scores: {No: 3, on: 010, 1: 0, Ana Mª: 2}
        """,
    )
    data = tally_json(cli, path)
    assert [(r["player"], r["total"]) for r in data["standings"]] == [
        ("1", 0),
        ("Ana Mª", 2),
        ("No", 3),
        ("on", 10),
    ]


# --- partial and complete games --------------------------------------------------------------


def test_a_partial_game_is_tallied_and_says_so(cli, one_game):
    result = cli("tally", one_game)
    assert result.exit_code == 0
    said = (result.stdout + result.stderr).lower()
    assert "partial" in said
    assert "3 of 7" in said


def test_a_complete_game_is_not_called_partial(cli, tmp_path):
    rounds = [[k, 7 - k] for k in range(7)]  # double-six: 7 rounds
    result = cli("tally", write(tmp_path, "g.yaml", scores_game(["Ana", "Ben"], rounds)))
    assert result.exit_code == 0, result.stderr
    assert "partial" not in (result.stdout + result.stderr).lower()


# --- tournaments ---------------------------------------------------------------------------


@pytest.fixture
def league(tmp_path):
    """Three games. Cy skips game 2, Dan skips game 1; game 1's win is shared (Ana, Cy).

    totals  Ana 5+6+4=15   Ben 10+3+2=15   Cy 5+1=6   Dan 4+6=10
    rounds  Ana 6          Ben 6           Cy 4       Dan 4
    average Ana 2.5        Ben 2.5         Cy 1.5     Dan 2.5
    wins    Ana 1 (g1)     Ben 1 (g2)      Cy 2 (g1, g3)   Dan 0
    """
    g1 = scores_game(["Ana", "Ben", "Cy"], [[3, 10, 0], [2, 0, 5]], complete=True)
    g2 = scores_game(["Dan", "Ben", "Ana"], [[4, 1, 6], [0, 2, 0]], complete=True)
    g3 = scores_game(["Cy", "Ana", "Ben", "Dan"], [[1, 2, 0, 3], [0, 2, 2, 3]], complete=True)
    return [write(tmp_path, f"g{i}.yaml", g) for i, g in enumerate((g1, g2, g3), start=1)]


def test_tournament_json(cli, league):
    """SPEC §7's keys ("games", "wins", "average" added for several files), and the
    tournament table's "rounds" column too."""
    data = tally_json(cli, *league)
    assert data == {
        "ranked_by": "total",
        "standings": [
            {"rank": 1, "player": "Cy", "games": 2, "rounds": 4, "wins": 2, "total": 6,
             "average": 1.5},
            {"rank": 2, "player": "Dan", "games": 2, "rounds": 4, "wins": 0, "total": 10,
             "average": 2.5},
            {"rank": 3, "player": "Ana", "games": 3, "rounds": 6, "wins": 1, "total": 15,
             "average": 2.5},
            {"rank": 3, "player": "Ben", "games": 3, "rounds": 6, "wins": 1, "total": 15,
             "average": 2.5},
        ],
    }  # fmt: skip


def test_tournament_rank_by_average(cli, league):
    data = tally_json(cli, *league, "--rank-by", "average")
    assert data["ranked_by"] == "average"
    # Ana, Ben and Dan share 2.5: first appearance is Ana, Ben (game 1), Dan (game 2).
    assert ranking(data) == [(1, "Cy"), (2, "Ana"), (2, "Ben"), (2, "Dan")]


def test_tournament_rank_by_wins(cli, league):
    data = tally_json(cli, *league, "--rank-by", "wins")
    assert data["ranked_by"] == "wins"
    assert ranking(data) == [(1, "Cy"), (2, "Ana"), (2, "Ben"), (4, "Dan")]
    assert [r["wins"] for r in data["standings"]] == [2, 1, 1, 0]


def test_equal_wins_share_the_rank_whatever_the_totals(cli, tmp_path):
    # Ana and Ben win one game each; Ben's total is lower, but Ana appeared first.
    g1 = write(tmp_path, "a.yaml", scores_game(["Ana", "Ben", "Cy"], [[9, 1, 5]], complete=True))
    g2 = write(tmp_path, "b.yaml", scores_game(["Ana", "Ben", "Cy"], [[5, 6, 7]], complete=True))
    data = tally_json(cli, g1, g2, "--rank-by", "wins")
    assert ranking(data) == [(1, "Ana"), (1, "Ben"), (3, "Cy")]
    assert [r["total"] for r in data["standings"]] == [14, 7, 12]


def test_tournament_rank_by_total_explicitly(cli, league):
    assert tally_json(cli, *league, "--rank-by", "total") == tally_json(cli, *league)


def test_first_appearance_follows_the_order_the_files_are_given(cli, league):
    # Given game 3 first, the seating there (Cy, Ana, Ben, Dan) is the first appearance.
    data = tally_json(cli, league[2], league[0], league[1], "--rank-by", "average")
    assert ranking(data) == [(1, "Cy"), (2, "Ana"), (2, "Ben"), (2, "Dan")]
    data = tally_json(cli, league[1], league[0], league[2], "--rank-by", "average")
    assert ranking(data) == [(1, "Cy"), (2, "Dan"), (2, "Ben"), (2, "Ana")]


def test_a_shared_win_goes_to_every_player_tied_on_the_lowest_total(cli, tmp_path):
    g1 = write(tmp_path, "a.yaml", scores_game(["Ana", "Ben", "Cy"], [[2, 2, 2]], complete=True))
    g2 = write(tmp_path, "b.yaml", scores_game(["Ana", "Ben", "Cy"], [[1, 5, 1]], complete=True))
    data = tally_json(cli, g1, g2)
    assert {r["player"]: r["wins"] for r in data["standings"]} == {"Ana": 2, "Ben": 1, "Cy": 2}


def test_uneven_rounds_under_total_warn_and_suggest_average(cli, league):
    result = cli("tally", *league)
    assert result.exit_code == 0
    assert "--rank-by average" in result.stderr
    assert "--rank-by average" not in result.stdout


def test_no_round_warning_when_everybody_played_the_same_rounds(cli, tmp_path):
    g1 = write(tmp_path, "a.yaml", scores_game(["Ana", "Ben"], [[2, 3]]))
    g2 = write(tmp_path, "b.yaml", scores_game(["Ben", "Ana"], [[1, 5]]))
    result = cli("tally", g1, g2)
    assert result.exit_code == 0
    assert "--rank-by average" not in result.stderr


def test_no_round_warning_when_ranking_by_average(cli, league):
    result = cli("tally", *league, "--rank-by", "average")
    assert result.exit_code == 0
    assert "--rank-by average" not in result.stderr


def test_tournament_text_table(cli, league):
    result = cli("tally", *league)
    header = result.stdout.splitlines()[0].split()
    assert header == ["rank", "player", "games", "rounds", "wins", "total", "average"]
    assert names_in_order(result.stdout, ["Ana", "Ben", "Cy", "Dan"]) == [
        "Cy",
        "Dan",
        "Ana",
        "Ben",
    ]
    cy = next(line for line in result.stdout.splitlines() if "Cy" in line)
    assert cy.split()[-5:] == ["2", "4", "2", "6", "1.50"]


def test_players_are_matched_by_exact_name(cli, tmp_path):
    g1 = write(tmp_path, "a.yaml", scores_game(["Ana", "Ben"], [[2, 3]]))
    g2 = write(tmp_path, "b.yaml", scores_game(["ana", "Ben"], [[1, 5]]))
    data = tally_json(cli, g1, g2)
    games = {r["player"]: r["games"] for r in data["standings"]}
    assert games == {"Ana": 1, "ana": 1, "Ben": 2}


def test_the_same_game_twice_is_a_usage_error(cli, one_game, tmp_path):
    """Issue 10 item 5: a game given twice would count twice."""
    result = cli("tally", one_game, one_game)
    assert result.exit_code == 2
    assert "given twice" in result.stderr
    link = tmp_path / "link.yaml"
    link.symlink_to(one_game)
    result = cli("tally", one_game, str(link))
    assert result.exit_code == 2
    assert "the same file as" in result.stderr


# --- files with problems ---------------------------------------------------------------------

BAD = """\
players: [Ana, Ben]
rounds:
  - scores: {Ana: 3, Ben: 0}
  - hands: {Ana: 9-7, Ben: 10-3}
  - scores: {Ana: 1}
"""


def test_a_file_with_a_problem_is_not_tallied(cli, tmp_path):
    path = write(tmp_path, "bad.yaml", BAD)
    result = cli("tally", path)
    assert result.exit_code == 1
    assert "Ana" not in result.stdout and "Ben" not in result.stdout
    assert "[tile]" in result.stderr
    assert "[missing-score]" in result.stderr


def test_problems_are_shown_as_validate_shows_them(cli, tmp_path):
    path = write(tmp_path, "bad.yaml", BAD)
    validated = cli("validate", path)
    assert validated.exit_code == 1
    problem_lines = [line for line in validated.stdout.splitlines() if "] " in line]
    assert len(problem_lines) >= 2
    tallied = cli("tally", path)
    for line in problem_lines:
        assert line in tallied.stderr.splitlines()


def test_only_the_bad_file_is_left_out_of_a_tournament(cli, tmp_path):
    good = write(tmp_path, "good.yaml", scores_game(["Ana", "Ben"], [[2, 3]]))
    other = write(tmp_path, "other.yaml", scores_game(["Ben", "Cy"], [[1, 5]]))
    bad = write(tmp_path, "bad.yaml", BAD)
    result = cli("tally", good, bad, other, "--format", "json")
    assert result.exit_code == 1
    assert "bad.yaml" in result.stderr
    data = json.loads(result.stdout)
    games = {r["player"]: r["games"] for r in data["standings"]}
    assert games == {"Ana": 1, "Ben": 2, "Cy": 1}


def test_a_rule_violation_in_a_log_stops_the_tally(cli, tmp_path):
    source = REPLAY.format(extra="").replace("      - Ben: 6-3\n", "      - Ben: 0-0\n")
    result = cli("tally", write(tmp_path, "g.yaml", source))
    assert result.exit_code == 1
    assert "[starter-open]" in result.stderr
    assert "round 1, move 2" in result.stderr


# --- formats -----------------------------------------------------------------------------------


def test_csv_one_game_parses_back(cli, one_game):
    result = cli("tally", one_game, "--format", "csv")
    assert result.exit_code == 0
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["rank", "player", "R1", "R2", "R3", "total"]
    assert rows[1:] == [
        ["1", "Dan", "3", "0", "0", "3"],
        ["2", "Ben", "0", "4", "3", "7"],
        ["3", "Ana", "5", "7", "0", "12"],
        ["4", "Carla", "10", "0", "10", "20"],
    ]


def test_csv_tournament_parses_back(cli, league):
    result = cli("tally", *league, "--format", "csv")
    assert result.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == ["rank", "player", "games", "rounds", "wins", "total", "average"]
    assert [(r["rank"], r["player"], r["total"]) for r in rows] == [
        ("1", "Cy", "6"),
        ("2", "Dan", "10"),
        ("3", "Ana", "15"),
        ("3", "Ben", "15"),
    ]
    assert float(rows[0]["average"]) == 1.5
    assert rows[0]["wins"] == "2" and rows[3]["games"] == "3" and rows[1]["rounds"] == "4"


def test_csv_quotes_awkward_names(cli, tmp_path):
    path = write(
        tmp_path,
        "g.yaml",
        """\
        players: ['Smith, Jo', 'Ana "La Jefa"']
        rounds:
          - scores: {'Smith, Jo': 4, 'Ana "La Jefa"': 2}
        """,
    )
    result = cli("tally", path, "--format", "csv")
    assert result.exit_code == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert [r[1] for r in rows[1:]] == ['Ana "La Jefa"', "Smith, Jo"]


@pytest.mark.parametrize("fmt", ["simple", "github", "grid", "plain", "pipe", "rst"])
def test_tabulate_formats(cli, one_game, fmt):
    result = cli("tally", one_game, "--format", fmt)
    assert result.exit_code == 0, result.stderr
    assert "rank" in result.stdout and "total" in result.stdout
    assert names_in_order(result.stdout, FOUR) == ["Dan", "Ben", "Ana", "Carla"]


def test_formats_really_differ(cli, one_game):
    out = {
        f: cli("tally", one_game, "-f", f).stdout for f in ("simple", "github", "grid", "plain")
    }
    assert len(set(out.values())) == 4
    assert out["github"].lstrip().startswith("|")
    assert out["grid"].lstrip().startswith("+")
    assert "|" not in out["plain"] and "-----" not in out["plain"]


@pytest.mark.parametrize("fmt", ["github", "grid"])
def test_tabulate_formats_for_a_tournament(cli, league, fmt):
    result = cli("tally", *league, "--format", fmt)
    assert result.exit_code == 0
    assert "average" in result.stdout
    assert names_in_order(result.stdout, ["Ana", "Ben", "Cy", "Dan"]) == [
        "Cy",
        "Dan",
        "Ana",
        "Ben",
    ]


def test_unknown_format_is_a_usage_error(cli, one_game):
    result = cli("tally", one_game, "--format", "yaml-ish")
    assert result.exit_code == 2
    assert result.stdout == ""


def test_unknown_rank_by_is_a_usage_error(cli, league):
    result = cli("tally", *league, "--rank-by", "points")
    assert result.exit_code == 2
    assert result.stdout == ""


def test_missing_file_is_a_usage_error(cli, tmp_path, one_game):
    result = cli("tally", one_game, str(tmp_path / "nope.yaml"))
    assert result.exit_code == 2
    assert "nope.yaml" in result.stderr
    assert result.stdout == ""


def test_tally_reads_stdin(cli):
    source = scores_game(["Ana", "Ben"], [[2, 3]])
    result = cli("tally", "-", "--format", "json", input=source)
    assert result.exit_code == 0, result.stderr
    assert ranking(json.loads(result.stdout)) == [(1, "Ana"), (2, "Ben")]


def test_no_traceback_for_garbage(cli, tmp_path):
    path = tmp_path / "junk.yaml"
    path.write_bytes(b"\xff\xfe: [unclosed\n")
    result = cli("tally", str(path))
    assert result.exit_code == 1
    assert "Traceback" not in result.stderr + result.stdout
    assert "[yaml]" in result.stderr


# --- leaders and winners (issue 10 item 5, SPEC §2 rounds, §8) --------------------------------


def test_no_rounds_yet_marks_nobody(cli, tmp_path):
    path = write(tmp_path, "g.yaml", "players: [Ana, Ben]\nrounds: []\n")
    result = cli("tally", path)
    assert result.exit_code == 0, result.stderr
    assert "*" not in result.stdout
    assert "winner" not in result.stdout
    data = tally_json(cli, path)
    assert data["leaders"] == [] and data["complete"] is False and "winners" not in data


def test_mid_game_the_top_is_the_leader_not_the_winner(cli, one_game):
    result = cli("tally", one_game)
    assert result.stdout.splitlines()[-1] == "* leader: Dan (partial game: 3 of 7 rounds)"
    assert "winner" not in result.stdout


def test_a_complete_game_names_its_winners_ties_shared(cli, tmp_path):
    path = write(tmp_path, "g.yaml", scores_game(["Ana", "Ben", "Cy"], [[1, 1, 5]], complete=True))
    result = cli("tally", path)
    assert result.stdout.splitlines()[-1] == "* winners: Ana and Ben"
    data = tally_json(cli, path)
    assert data["complete"] is True and data["winners"] == ["Ana", "Ben"]
    assert "leaders" not in data


def test_a_game_declared_shorter_is_complete_after_its_rounds(cli, tmp_path):
    source = scores_game(["Ana", "Ben"], [[3, 0], [0, 1]]).replace(
        "players:", "rules: {rounds: 2}\nplayers:"
    )
    data = tally_json(cli, write(tmp_path, "g.yaml", source))
    assert data["complete"] is True and data["winners"] == ["Ben"]


def test_more_rounds_than_declared_is_round_count_at_the_first_extra(cli, tmp_path):
    source = scores_game(["Ana", "Ben"], [[3, 0], [0, 1], [2, 2]]).replace(
        "players:", "rules: {rounds: 2}\nplayers:"
    )
    result = cli("validate", write(tmp_path, "g.yaml", source), "-f", "json")
    problems = json.loads(result.stdout)["files"][0]["problems"]
    assert [(p["code"], p["round"]) for p in problems] == [("round-count", 3)]


@pytest.mark.parametrize("value", ["0", "8", "many", "-1"])
def test_rounds_outside_1_to_n_plus_1_is_a_rules_problem(cli, tmp_path, value):
    source = f"set: double-six\nrules: {{rounds: {value}}}\nplayers: [Ana, Ben]\nrounds: []\n"
    result = cli("validate", write(tmp_path, "g.yaml", source), "-f", "json")
    problems = json.loads(result.stdout)["files"][0]["problems"]
    assert [p["code"] for p in problems] == ["rules"]


def test_partial_games_win_nothing_unless_count_partial(cli, tmp_path):
    done = write(tmp_path, "a.yaml", scores_game(["Ana", "Ben"], [[0, 5]], complete=True))
    partial = write(tmp_path, "b.yaml", scores_game(["Ana", "Ben"], [[9, 0]]))
    wins = {r["player"]: r["wins"] for r in tally_json(cli, done, partial)["standings"]}
    assert wins == {"Ana": 1, "Ben": 0}
    data = tally_json(cli, done, partial, "--count-partial")
    assert {r["player"]: r["wins"] for r in data["standings"]} == {"Ana": 1, "Ben": 1}


def test_after_round_gives_the_standings_then(cli, one_game):
    data = tally_json(cli, one_game, "--after-round", "2")
    # after round 1: Ben 0, Dan 3, Ana 5, Carla 10; after round 2: Dan 3, Ben 4, Carla 10, Ana 12
    assert [(r["player"], r["total"], r["movement"]) for r in data["standings"]] == [
        ("Dan", 3, 1),
        ("Ben", 4, -1),
        ("Carla", 10, 1),
        ("Ana", 12, -1),
    ]
    assert data["leaders"] == ["Dan"]


def test_after_round_past_the_rounds_in_or_with_several_files_is_a_usage_error(cli, one_game):
    assert cli("tally", one_game, "--after-round", "4").exit_code == 2
    assert cli("tally", one_game, "--after-round", "0").exit_code == 2
    result = cli("tally", one_game, "-", "--after-round", "1", input="players: [A, B]\nrounds: []")
    assert result.exit_code == 2


# --- stats (issue 12 item 5) -------------------------------------------------------------------


def test_stats_of_one_game(cli, one_game):
    # rounds: Ana 5 7 0 | Ben 0 4 3 | Carla 10 0 10 | Dan 3 0 0
    data = tally_json(cli, one_game, "--stats")
    stats = {r["player"]: r for r in data["standings"]}
    assert {
        p: (s["rounds_won"], s["times_last"], s["highest"], s["lowest"], s["longest_streak"])
        for p, s in stats.items()
    } == {
        "Ana": (1, 1, 7, 0, 1),
        "Ben": (1, 0, 4, 0, 1),
        "Carla": (1, 2, 10, 0, 1),
        "Dan": (2, 0, 3, 0, 2),
    }
    assert stats["Carla"]["average"] == pytest.approx(20 / 3)
    text = cli("tally", one_game, "--stats").stdout
    assert text.splitlines()[0].split()[-6:] == ["won", "last", "high", "low", "avg", "streak"]


def test_stats_of_a_tournament_streaks_stay_within_a_game(cli, tmp_path):
    g1 = write(tmp_path, "a.yaml", scores_game(["Ana", "Ben"], [[5, 0], [0, 5]], complete=True))
    g2 = write(tmp_path, "b.yaml", scores_game(["Ana", "Ben"], [[0, 5], [3, 0]], complete=True))
    rows = {r["player"]: r for r in tally_json(cli, g1, g2, "--stats")["standings"]}
    assert rows["Ana"]["rounds_won"] == 2 and rows["Ana"]["longest_streak"] == 1
    assert rows["Ben"]["times_last"] == 2 and rows["Ben"]["highest"] == 5
    csv_rows = list(csv.reader(io.StringIO(cli("tally", g1, g2, "--stats", "-f", "csv").stdout)))
    assert csv_rows[0][-5:] == ["won", "last", "high", "low", "streak"]


# --- formats (issue 10 item 15) ----------------------------------------------------------------


@pytest.mark.parametrize("alias", ["markdown", "md"])
def test_markdown_is_an_alias_of_github(cli, one_game, alias):
    assert (
        cli("tally", one_game, "-f", alias).stdout == cli("tally", one_game, "-f", "github").stdout
    )
    assert cli("tally", one_game, "-f", alias).stdout.startswith("|")


@pytest.mark.parametrize("fmt", ["html", "latex", "latex_booktabs"])
def test_html_and_latex_mark_the_top_as_text_does(cli, tmp_path, fmt):
    path = write(tmp_path, "g.yaml", scores_game(["Ana", "Ben"], [[4, 0]], complete=True))
    out = cli("tally", path, "-f", fmt).stdout
    assert "Ben *" in out and "Ana *" not in out
    last = out.splitlines()[-1]
    assert last == ("<p>* winner: Ben</p>" if fmt == "html" else "* winner: Ben")


@pytest.mark.parametrize(("fmt", "kin"), [("unsafehtml", "html"), ("latex_raw", "latex")])
def test_the_raw_formats_write_a_name_as_text_never_as_markup(cli, tmp_path, fmt, kin):
    """A name from the file never runs as script in a page (nor as a LaTeX command): the
    raw formats are written as their escaping kin."""
    names = ["<script>alert(1)</script>", "\\input{/etc/passwd}"]
    quoted = [json.dumps(n) for n in names]
    path = write(tmp_path, "g.yaml", scores_game(quoted, [[4, 0]], complete=True))
    out = cli("tally", path, "-f", fmt)
    assert out.exit_code == 0 and out.stdout == cli("tally", path, "-f", kin).stdout
    markup = "<script>" if kin == "html" else "\\input{"
    assert markup not in out.stdout and markup not in cli("tally", path, "-f", kin).stdout


def test_tsv_is_bare_data(cli, tmp_path):
    path = write(tmp_path, "g.yaml", scores_game(["Ana", "Carlota"], [[4, 0]], complete=True))
    out = cli("tally", path, "-f", "tsv").stdout
    assert out == "rank\tplayer\tR1\ttotal\n1\tCarlota\t0\t0\n2\tAna\t4\t4\n"


def test_wide_characters_keep_text_columns_aligned(cli, tmp_path):
    from wcwidth import wcswidth

    path = write(tmp_path, "g.yaml", scores_game(["李小龍", "Ana", "🐔🐔"], [[4, 0, 9]]))
    lines = cli("tally", path).stdout.splitlines()[:-1]
    assert len({wcswidth(line) for line in lines}) == 1, lines
