"""``cf simulate`` on the command line: determinism (the same seed gives the same game),
its options, the files it writes, and studies (``--stats``, ``--jobs``)."""

from __future__ import annotations

import json

import pytest
import yaml
from test_simulation_proof import Variant, play, points, tile  # the independent reading

from cf.play.simulate import (
    game_seed,
    simulate_game,
    study_chunk,
)
from cf.record.emit import game_yaml
from cf.rules import Rules

NAMES = ["Ana", "Ben", "Carla", "Dan", "Eva", "Fede"]
SET_NAMES = {6: "double-six", 9: "double-nine", 12: "double-twelve"}


# --- (c) determinism -------------------------------------------------------------------------


def test_same_seed_same_file_different_seed_different_file():
    variant = Variant(9, 4, 4, None)
    a = game_yaml(play(variant, 42))
    assert a == game_yaml(play(variant, 42))
    assert a != game_yaml(play(variant, 43))


def test_string_seeds_are_deterministic_too():
    rules = Rules(top=6)
    one = simulate_game(["A", "B"], rules, ["random", "random"], "cf-study:1:2")
    two = simulate_game(["A", "B"], rules, ["random", "random"], "cf-study:1:2")
    assert game_yaml(one) == game_yaml(two)


def test_cli_same_seed_same_output(cli):
    a = cli("simulate", "--players", "3", "--seed", "5", "--strategy", "random")
    b = cli("simulate", "--players", "3", "--seed", "5", "--strategy", "random")
    c = cli("simulate", "--players", "3", "--seed", "6", "--strategy", "random")
    assert a.exit_code == b.exit_code == c.exit_code == 0
    assert a.stdout == b.stdout
    assert a.stdout != c.stdout


def body(text: str) -> str:
    """A game file without its comment header."""
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))


def test_cli_plays_the_library_game(cli):
    result = cli("simulate", "--names", "Ana,Ben,Carla", "--strategy", "greedy,random,greedy",
                 "--seed", "9")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    game = simulate_game(["Ana", "Ben", "Carla"], Rules(), ["greedy", "random", "greedy"], 9)
    assert body(result.stdout) == body(game_yaml(game))


def test_cli_header_replays_the_same_game(cli):
    first = cli("simulate", "--players", "2", "--set", "6", "--seed", "17", "--reserve", "0",
                "--double-blank", "25", "--starter-arms", "3")  # fmt: skip
    assert first.exit_code == 0, first.stderr
    header = first.stdout.splitlines()[0]
    assert header.startswith("# cf simulate ")
    again = cli(*header[len("# cf ") :].split())
    assert again.exit_code == 0, again.stderr
    assert again.stdout == first.stdout


# --- (c) the command line --------------------------------------------------------------------


def simulate_file(cli, tmp_path, *args: str) -> dict:
    path = tmp_path / "sim.yaml"
    result = cli("simulate", *args, "-o", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    validated = cli("validate", str(path))
    assert validated.exit_code == 0, validated.stdout
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_players_option(cli, tmp_path):
    data = simulate_file(cli, tmp_path, "--players", "5", "--seed", "1")
    assert len(data["players"]) == 5
    assert len(set(data["players"])) == 5
    assert len(data["rounds"]) == 10  # double-nine: a full game
    for rnd in data["rounds"]:
        assert set(rnd["deal"]) == set(data["players"])
        assert {"starter", "deal", "moves", "hands", "scores"} <= set(rnd)


def test_names_option_is_the_seating(cli, tmp_path):
    data = simulate_file(cli, tmp_path, "--names", "Zoe,Al,Mia", "--seed", "2")
    assert data["players"] == ["Zoe", "Al", "Mia"]
    first_movers = {next(iter(r["moves"][0])) for r in data["rounds"]}
    assert first_movers <= {"Zoe", "Al", "Mia"}


def test_awkward_names_survive_the_file(cli, tmp_path):
    names = ["No", "on", "1", "Ana Mª"]
    data = simulate_file(cli, tmp_path, "--names", ",".join(names), "--seed", "3")
    assert data["players"] == names  # quoted where YAML 1.1 would read something else
    assert all(set(r["scores"]) == set(names) for r in data["rounds"])


def test_one_strategy_for_all_equals_the_same_strategy_per_seat(cli):
    one = cli("simulate", "--players", "3", "--seed", "4", "--strategy", "random")
    per_seat = cli(
        "simulate", "--players", "3", "--seed", "4", "--strategy", "random,random,random"
    )
    assert one.exit_code == per_seat.exit_code == 0
    assert body(one.stdout) == body(per_seat.stdout)


def test_strategy_per_seat_changes_the_game(cli):
    greedy = cli("simulate", "--players", "3", "--seed", "4", "--strategy", "greedy")
    mixed = cli("simulate", "--players", "3", "--seed", "4", "--strategy", "greedy,random,greedy")
    assert greedy.exit_code == mixed.exit_code == 0
    assert body(greedy.stdout) != body(mixed.stdout)


@pytest.mark.parametrize(
    "args",
    [
        ("--strategy", "clever"),
        ("--players", "4", "--strategy", "greedy,random"),  # two strategies for four seats
        ("--names", "A,B,C,D", "--strategy", "greedy,random,greedy,random,greedy"),
        ("--players", "1"),
        ("--set", "double-seven"),
        ("--starter-arms", "many"),
        ("--starter-arms", "10"),  # double-nine: 2..9 arms
        ("--rounds", "11"),  # double-nine has 10 rounds
        ("--rounds", "0"),
        ("--double-blank", "-5"),
        ("--names", "Ana,Ana"),
    ],
)
def test_bad_options_are_usage_errors(cli, args):
    result = cli("simulate", "--seed", "1", *args)
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


def test_a_deal_that_cannot_be_made_is_not_a_game(cli):
    result = cli("simulate", "--set", "6", "--players", "4", "--deal", "7", "--seed", "1")
    assert result.exit_code != 0
    assert result.stdout == ""


@pytest.mark.parametrize("k", [1, 3, 7])
def test_rounds_option_gives_k_rounds(cli, tmp_path, k):
    data = simulate_file(cli, tmp_path, "--players", "2", "--rounds", str(k), "--seed", "8")
    assert len(data["rounds"]) == k
    assert [r["starter"] for r in data["rounds"]] == [f"{9 - i}-{9 - i}" for i in range(k)]


def test_output_file_is_what_stdout_would_have_been(cli, tmp_path):
    path = tmp_path / "out.yaml"
    written = cli("simulate", "--players", "2", "--seed", "21", "-o", str(path))
    printed = cli("simulate", "--players", "2", "--seed", "21")
    assert written.exit_code == printed.exit_code == 0
    assert written.stdout == ""
    assert path.read_text(encoding="utf-8") == printed.stdout


def test_output_to_an_unwritable_place_is_an_error(cli, tmp_path):
    result = cli("simulate", "--players", "2", "--seed", "1", "-o", str(tmp_path / "no" / "x"))
    assert result.exit_code != 0
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "top", "rules"),
    [
        (
            ["--set", "double-six", "--deal", "5", "--starter-arms", "3",
             "--double-blank", "25", "--reserve", "0"],
            6,
            {"starter_arms": 3, "double_blank": 25, "deal": 5, "reserve": 0},
        ),
        (
            ["--set", "12", "--starter-arms", "players", "--double-blank", "0",
             "--reserve", "2"],
            12,
            {"starter_arms": "players", "double_blank": 0, "reserve": 2},
        ),
        (
            ["--set", "d9", "--deal", "9", "--starter-arms", "2", "--double-blank", "10"],
            9,
            {"starter_arms": 2, "double_blank": 10, "deal": 9},
        ),
    ],
)  # fmt: skip
def test_rules_options_are_written_to_the_file(cli, tmp_path, args, top, rules):
    data = simulate_file(cli, tmp_path, "--players", "4", "--seed", "3", *args)
    assert data["set"] == SET_NAMES[top]
    for key, value in rules.items():
        assert data["rules"][key] == value, key
    assert len(data["rounds"]) == top + 1
    if "deal" in rules:
        for rnd in data["rounds"]:
            assert all(len(h.split()) == rules["deal"] for h in rnd["deal"].values())
    # the double blank's value is the one the scores use
    blank = rules["double_blank"]
    for rnd in data["rounds"]:
        for p, hand in rnd["hands"].items():
            tiles = [tile(t) for t in (hand or "").split()]
            assert rnd["scores"][p] == points(tiles, blank)


def test_environment_variables_set_the_rules(cli, tmp_path):
    path = tmp_path / "env.yaml"
    env = {"CF_SET": "double-six", "CF_DOUBLE_BLANK": "30"}
    result = cli("simulate", "--players", "2", "--seed", "2", "-o", str(path), env=env)
    assert result.exit_code == 0, result.stderr
    data = yaml.safe_load(path.read_text())
    assert data["set"] == "double-six" and data["rules"]["double_blank"] == 30
    over = cli("simulate", "--players", "2", "--seed", "2", "--set", "9", env=env)
    assert yaml.safe_load(over.stdout)["set"] == "double-nine"


def test_several_games_go_to_a_folder(cli, tmp_path):
    folder = tmp_path / "games"
    result = cli("simulate", "--players", "2", "--set", "6", "--games", "3", "--seed", "1",
                 "-o", str(folder))  # fmt: skip
    assert result.exit_code == 0, result.stderr
    files = sorted(folder.iterdir())
    assert len(files) == 3
    assert len({f.read_text() for f in files}) == 3
    validated = cli("validate", *map(str, files))
    assert validated.exit_code == 0, validated.stdout


def test_several_games_without_a_folder_are_a_usage_error(cli):
    """--games above 1 writes a folder: without --output (stdout) it is exit 2 before any
    game is played (it was an internal error)."""
    result = cli("simulate", "--games", "2", "--rounds", "1", "--seed", "1")
    assert result.exit_code == 2
    assert "several games need a folder, not stdout" in result.stderr
    assert result.stdout == ""


# --- (c) studies -----------------------------------------------------------------------------

STUDY = ["simulate", "--players", "3", "--set", "6", "--games", "20", "--stats", "--seed", "77",
         "--strategy", "greedy,random,random"]  # fmt: skip


def test_stats_table(cli):
    result = cli(*STUDY)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "20 games, 140 rounds" in out
    assert "moves per round" in out
    assert "blocked" in out
    for word in ("seat", "strategy", "points/round", "win rate", "greedy", "random"):
        assert word in out, word
    for name in ("Ana", "Ben", "Carla"):
        assert name in out


def test_stats_json_figures_are_the_games_figures(cli):
    result = cli(*STUDY, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"moves_per_round", "blocked_share", "points_per_round_by_seat", "by_strategy"} <= set(
        data
    )
    assert set(data["points_per_round_by_seat"]) == {"1", "2", "3"}
    assert set(data["by_strategy"]) == {"greedy", "random"}
    for figures in data["by_strategy"].values():
        assert set(figures) >= {"points_per_round", "win_rate"}
        assert 0 <= figures["win_rate"] <= 1

    # the same 20 games, played and counted here
    names, seats = ["Ana", "Ben", "Carla"], ["greedy", "random", "random"]
    games = [simulate_game(names, Rules(top=6), seats, game_seed(77, i)) for i in range(20)]
    rounds = [r for g in games for r in g.rounds]
    assert len(rounds) == 140
    assert data["moves_per_round"] == pytest.approx(sum(len(r.moves) for r in rounds) / 140, 1e-3)
    assert data["blocked_share"] == pytest.approx(sum(r.blocked for r in rounds) / 140, 1e-3)
    for seat, name in enumerate(names, start=1):
        per_round = sum(r.scores[name] for r in rounds) / 140
        assert data["points_per_round_by_seat"][str(seat)] == pytest.approx(per_round, 1e-3)
    greedy_points = sum(r.scores["Ana"] for r in rounds) / 140
    random_points = sum(r.scores[n] for r in rounds for n in ("Ben", "Carla")) / 280
    assert data["by_strategy"]["greedy"]["points_per_round"] == pytest.approx(greedy_points, 1e-3)
    assert data["by_strategy"]["random"]["points_per_round"] == pytest.approx(random_points, 1e-3)
    greedy_wins = sum(g.totals["Ana"] == min(g.totals.values()) for g in games)
    assert data["by_strategy"]["greedy"]["win_rate"] == pytest.approx(greedy_wins / 20, 1e-3)


def test_stats_same_with_two_jobs(cli):
    args = [*STUDY[:6], "60", *STUDY[7:], "--format", "json"]
    one = cli(*args, "--jobs", "1")
    two = cli(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, two.stderr
    assert json.loads(one.stdout)["games"] == 60
    assert one.stdout == two.stdout


def test_study_chunks_add_up_to_the_whole():
    names, rules, seats = ["A", "B"], Rules(top=6), ["greedy", "random"]
    whole = study_chunk(names, rules, seats, 5, range(6))
    parts = study_chunk(names, rules, seats, 5, range(0, 2))
    parts.merge(study_chunk(names, rules, seats, 5, range(2, 6)))
    assert whole.as_dict() == parts.as_dict()
    assert whole.games == 6 and whole.rounds == 42


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "9", "--set", "double-six"], "double-six deals for 2 to 5 players, not 9"),
        (["--players", "4", "--set", "18"], "double-eighteen has no deal table"),
        (["--players", "9", "--set", "6", "--stats", "--compare", "draw=until"], "not 9"),
    ],
)
def test_a_player_count_the_deal_table_lacks_says_which_option_to_give(cli, args, words):
    """The deal must be given, and the error says with which option (exit 1, as for ``cf
    deal``: docs/cli.md)."""
    result = cli("simulate", *args, "--seed", "1")
    assert result.exit_code == 1, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1
    assert words in result.stderr
    assert result.stderr.rstrip().endswith("give it with --deal")


def test_starter_arms_the_set_cannot_take_are_refused(cli):
    result = cli("simulate", "--players", "14", "--set", "12", "--deal", "3",
                 "--starter-arms", "players", "--seed", "1")  # fmt: skip
    assert result.exit_code == 1, result.stderr
    assert "starter_arms 'players' cannot be 14" in result.stderr


def test_a_target_nobody_reaches_stops_and_is_written_complete(cli, monkeypatch):
    """The game stops at MAX_TARGET_ROUNDS rounds, says so, and its file says so too
    (rules.rounds), so that it is a complete game as SPEC 7 promises."""
    from cf.play import simulate

    monkeypatch.setattr(simulate, "MAX_TARGET_ROUNDS", 3)
    result = cli("simulate", "--set", "6", "--players", "2", "--seed", "1", "--target", "9999")
    assert result.exit_code == 0, result.output
    assert "nobody reached the target 9999 in 3 rounds" in result.stderr
    data = yaml.safe_load(result.stdout)
    assert data["rules"]["rounds"] == 3 and data["rules"]["target"] == 9999
    assert len(data["rounds"]) == 3
    assert cli("validate", "-", input=result.stdout).exit_code == 0
    tally = cli("tally", "-", "--format", "json", input=result.stdout)
    assert json.loads(tally.stdout)["complete"] is True


def test_force_replaces_every_earlier_game_in_the_folder(cli, tmp_path):
    """The earlier study's games are removed (and said so), not files cf simulate did not
    write, whatever their names."""
    out = tmp_path / "study"
    args = ["simulate", "--set", "6", "--players", "2", "--rounds", "1", "-o", str(out)]
    assert cli(*args, "--games", "3", "--seed", "1").exit_code == 0
    (out / "notes.txt").write_text("mine")
    (out / "game-7.yaml").write_text("players: [A, B]\nrounds: []\n")  # typed by hand
    (out / "game-8.yaml").symlink_to(out / "game-3.yaml")  # a link: never followed
    result = cli(*args, "--games", "2", "--seed", "5", "--force")
    assert result.exit_code == 0
    assert "removed 1 earlier game of cf simulate from" in result.stderr
    assert "kept 2 game-N.yaml files in" in result.stderr  # game-7 (by hand), game-8 (a link)
    names = sorted(p.name for p in out.iterdir())
    assert names == ["game-1.yaml", "game-2.yaml", "game-7.yaml", "game-8.yaml", "notes.txt"]


def test_a_read_only_output_is_exit_1(cli, tmp_path):
    path = tmp_path / "ro.yaml"
    path.write_text("old\n")
    path.chmod(0o444)
    result = cli("simulate", "--seed", "1", "--rounds", "1", "-o", str(path), "--force")
    assert result.exit_code == 1 and "is read-only: nothing written" in result.stderr
    assert path.read_text() == "old\n"
