"""Studies on the fast engine (cf.play.study): the same games as the simulator's, checkable.

A study's greedy and random seats play on cf.play.fast. These tests prove that every game
it plays is the game ``simulate_game`` plays through ``Round`` for the same seed (scores,
winner, every move), that ``check_round`` replays a sample through ``Round.apply``, and
that ``cf simulate --stats`` gives the same figures on either engine and with any --jobs.
"""

from __future__ import annotations

import json
import random

import pytest

from cf.play import simulate as sim
from cf.play import study
from cf.play.fast import Tables
from cf.play.simulate import Stats, simulate_game, study_chunk
from cf.rules import Rules

VARIANTS = [
    (Rules(top=6), 2),
    (Rules(top=6, starter_arms=2, reserve=0), 3),
    (Rules(top=9), 4),
    (Rules(top=9, double_blank=0), 6),
    (Rules(top=9, starter_arms="players", reserve=0), 2),
    (Rules(top=12, double_blank=25), 5),
    (Rules(top=6, deal=3, reserve=4), 4),
]


def seats_for(seed: int, players: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(["greedy", "random"]) for _ in range(players)]


@pytest.mark.parametrize("rules, players", VARIANTS, ids=str)
def test_the_fast_game_is_the_simulators_game_move_for_move(rules, players):
    names = [f"P{i}" for i in range(players)]
    tables = Tables.get(rules.top, rules.double_blank)
    for seed in range(12):
        seats = seats_for(seed, players)
        game = simulate_game(names, rules, seats, seed)
        fast = study.fast_game(names, rules, seats, seed, log=True)
        assert len(fast.rounds) == len(game.rounds)
        for r, f in zip(game.rounds, fast.rounds, strict=True):
            assert names[f.first] == r.first
            assert [r.scores[p] for p in names] == f.scores
            assert (names[f.winner] if f.winner >= 0 else None) == r.winner
            assert f.blocked == r.blocked
            assert f.moves == len(r.moves)
            assert study.round_moves(tables, names, f) == list(r.moves)
        assert fast.totals == [game.totals[p] for p in names]


@pytest.mark.parametrize("rules, players", VARIANTS, ids=str)
def test_a_sample_of_fast_games_replays_through_round(rules, players):
    names = [f"P{i}" for i in range(players)]
    for seed in range(100, 115):
        study.check_game(study.fast_game(names, rules, seats_for(seed, players), seed, log=True))


def test_a_fast_round_that_round_refuses_is_caught():
    rules, names = Rules(top=6), ["A", "B"]
    game = study.fast_game(names, rules, ["greedy", "greedy"], 3, rounds=1, log=True)
    r = game.rounds[0]
    assert r.log is not None
    seat, tile, near, drew = r.log[2]
    bad = [*r.log[:2], (1 - seat, tile, near, drew), *r.log[3:]]  # the wrong player
    with pytest.raises(study.CheckError, match=r"round 1, move 3: Round refuses it"):
        study.check_round(rules, names, 1, study.FastRound(**{**_fields(r), "log": bad}))
    with pytest.raises(study.CheckError, match="has not ended"):
        study.check_round(rules, names, 1, study.FastRound(**{**_fields(r), "log": r.log[:-1]}))
    hands = [r.hands[0] ^ 1, *r.hands[1:]]  # type: ignore[index]
    with pytest.raises(study.CheckError, match="hand at the end differs"):
        study.check_round(rules, names, 1, study.FastRound(**{**_fields(r), "hands": hands}))


def _fields(r: study.FastRound) -> dict:
    return {name: getattr(r, name) for name in study.FastRound.__slots__}


def test_the_inline_shuffle_is_this_pythons_shuffle():
    assert study._shuffle is study._inline_shuffle  # else studies lose a third of their speed
    for n in (2, 3, 27, 54, 90, 189):
        for seed in range(20):
            a, b = list(range(n)), list(range(n))
            random.Random(seed).shuffle(a)
            study._inline_shuffle(random.Random(seed), b)
            assert a == b


def test_only_greedy_and_random_play_on_the_fast_engine():
    assert study.fast_enough(["greedy", "random"])
    assert not study.fast_enough(["greedy", "smart"])
    with pytest.raises(ValueError, match="fast engine"):
        study.fast_game(["A", "B"], Rules(top=6), ["greedy", "pimc"], 1)


def test_a_study_counts_the_same_on_either_engine(monkeypatch):
    names, rules, seats = ["A", "B", "C"], Rules(top=6), ["greedy", "random", "random"]
    fast = study_chunk(names, rules, seats, 11, range(15))
    monkeypatch.setattr(study, "fast_enough", lambda strategies: False)
    slow = study_chunk(names, rules, seats, 11, range(15))
    assert fast.as_dict() == slow.as_dict()
    assert fast.games == 15 and fast.rounds == 105


def test_new_figures_count_first_player_wins_and_spread():
    names, rules = ["A", "B"], Rules(top=6)
    games = [simulate_game(names, rules, ["greedy", "random"], s) for s in range(10)]
    stats = Stats()
    for g in games:
        stats.add(g)
    rounds = [r for g in games for r in g.rounds]
    assert stats.first_wins == sum(r.winner == r.first for r in rounds)
    points = [r.scores[p] for r in rounds for p in names]
    mean = sum(points) / len(points)
    sd = (sum((x - mean) ** 2 for x in points) / (len(points) - 1)) ** 0.5
    figures = stats.as_dict()
    assert figures["points_spread"] == pytest.approx(sd, abs=1e-3)
    assert figures["points_per_player_round"] == pytest.approx(mean, abs=1e-3)
    assert figures["first_player_wins_share"] == pytest.approx(stats.first_wins / 70, abs=1e-3)


# --- the command line -------------------------------------------------------------------------

STUDY = ["simulate", "--players", "3", "--set", "6", "--games", "30", "--stats", "--seed", "5",
         "--strategy", "greedy,random,greedy", "--format", "json"]  # fmt: skip


def test_check_replays_every_round_and_changes_no_figure(cli):
    plain = cli(*STUDY)
    checked = cli(*STUDY, "--check")
    assert plain.exit_code == checked.exit_code == 0, checked.stderr
    assert plain.stdout == checked.stdout
    assert json.loads(plain.stdout)["rounds"] == 210


def test_check_reports_a_difference_as_an_error(cli, monkeypatch):
    def broken(*args, **kwargs):
        raise study.CheckError("round 1, move 3: Round refuses it: it is Ben's turn")

    monkeypatch.setattr(study, "check_game", broken)
    result = cli(*STUDY, "--check")
    assert result.exit_code == 1
    assert result.stderr == "Error: round 1, move 3: Round refuses it: it is Ben's turn\n"


def test_check_without_stats_is_a_usage_error(cli):
    result = cli("simulate", "--seed", "1", "--check")
    assert result.exit_code == 2
    assert "--stats" in result.stderr


def test_jobs_zero_is_one_per_core_with_the_same_figures(cli):
    one = cli(*STUDY, "--jobs", "1")
    every = cli(*STUDY, "--jobs", "0")
    assert one.exit_code == every.exit_code == 0, every.stderr
    assert one.stdout == every.stdout


def test_a_study_of_searchers_still_plays_through_round(monkeypatch):
    calls = []
    real = sim.simulate_game

    def spy(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(sim, "simulate_game", spy)
    stats = study_chunk(["A", "B"], Rules(top=6), ["smart", "greedy"], 1, range(2), rounds=1)
    assert stats.games == 2 and len(calls) == 2


# --- issue 21, items 6 and 10 ------------------------------------------------------------------


def test_output_file_is_named_on_stderr_not_stdout(cli, tmp_path):
    path = tmp_path / "g.yaml"
    result = cli("simulate", "--players", "2", "--set", "6", "--seed", "1", "-o", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"wrote {path}\n"
    assert path.read_text().startswith("# cf simulate")


def test_a_folder_of_games_is_named_on_stderr(cli, tmp_path):
    folder = tmp_path / "games"
    args = ["simulate", "--players", "2", "--set", "6", "--seed", "1", "--games", "3"]
    result = cli(*args, "-o", str(folder))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"wrote 3 games: {folder}/game-1.yaml to {folder}/game-3.yaml\n"


def test_stdout_output_says_nothing_on_stderr(cli):
    result = cli("simulate", "--players", "2", "--set", "6", "--seed", "1")
    assert result.exit_code == 0
    assert result.stderr == ""


def test_strategies_per_seat_say_how_many_players(cli):
    result = cli("simulate", "--strategy", "greedy,random,greedy", "--seed", "3", "--set", "6")
    assert result.exit_code == 0, result.stderr
    assert "--names Ana,Ben,Carla --strategy greedy,random,greedy" in result.stdout
    searcher = cli("simulate", "--strategy", "pimc,greedy,greedy", "--seed", "3", "--set", "6",
                   "--rounds", "1", "--playouts", "1")  # fmt: skip
    assert searcher.exit_code == 0, searcher.stderr
    assert "--names Ana,Ben,Carla --strategy pimc,greedy,greedy" in searcher.stdout
    one = cli("simulate", "--strategy", "random", "--seed", "3", "--rounds", "1")
    assert "--names Ana,Ben,Carla,Dan " in one.stdout
    clash = cli("simulate", "--strategy", "greedy,random,greedy", "--players", "4")
    assert clash.exit_code == 2
    assert "one per seat (4)" in clash.stderr
