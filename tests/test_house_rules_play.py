"""Every computer player under every house rule (issue 20, items 2 and 4).

How a player draws (``draw``: one, one-may, until), what going out on a double scores
(``out_on_double``) and games played to a ``target``: simulated games validate under each,
the fast engines play the same games as ``Round``, what a seat knows stays sound (the
true hands are always among the deals it imagines), strategies see only their seat's
view, and ``cf simulate`` takes the options and compares them side by side.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cf.board import Round
from cf.notation import Action, Move, parse_action
from cf.play import study
from cf.play.fast import Tables
from cf.play.knowledge import from_log, from_view
from cf.play.simulate import STRATEGIES, View, greedy_strategy, simulate_game, study_chunk
from cf.record.check import validate
from cf.record.emit import game_yaml
from cf.record.reader import read_game
from cf.rules import Rules
from cf.tiles import Tile, parse_hand

DRAWS = ["one", "one-may", "until"]
OPTIONS = [
    {"draw": d, "out_on_double": o, "target": t}
    for d in DRAWS
    for o in (0, 50)
    for t in (None, 120)
]


def rules_of(top: int, options: dict, **more) -> Rules:
    return Rules(top=top, **options, **more)


def valid(game) -> None:
    report = validate(read_game(game_yaml(game, "test").encode(), "g.yaml"))
    assert report.problems == [], report.problems[:3]


# --- every simulated game validates, on either engine -------------------------------------


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    options=st.sampled_from(OPTIONS),
    table=st.sampled_from([(6, 2), (6, 3), (6, 4), (9, 4), (9, 6)]),
    mix=st.lists(st.sampled_from(["greedy", "random", "smart"]), min_size=6, max_size=6),
    reserve=st.sampled_from([None, 0]),
)
def test_every_simulated_game_validates_under_every_house_rule(seed, options, table, mix, reserve):
    top, players = table
    rules = rules_of(top, options, reserve=reserve)
    names = [f"P{i}" for i in range(players)]
    seats = mix[:players]
    game = simulate_game(names, rules, seats, seed)
    valid(game)
    totals = game.totals
    if rules.target is not None:  # over at the first round a total reaches the target
        assert max(totals.values()) >= rules.target
        before = {p: totals[p] - game.rounds[-1].scores[p] for p in names}
        assert max(before.values()) < rules.target
    else:
        assert len(game.rounds) == top + 1
    if study.fast_enough(seats):
        fast = study.fast_game(names, rules, seats, seed, log=True)
        study.check_game(fast)
        tables = Tables.get(top, rules.double_blank)
        assert len(fast.rounds) == len(game.rounds)
        for r, f in zip(game.rounds, fast.rounds, strict=True):
            assert [r.scores[p] for p in names] == f.scores
            assert study.round_moves(tables, names, f) == list(r.moves)


@pytest.mark.parametrize("draw", DRAWS)
@pytest.mark.parametrize("searcher", ["pimc", "ismcts"])
def test_the_searchers_play_valid_rounds_under_each_drawing_rule(draw, searcher, monkeypatch):
    from cf.play import search

    kept: list[bool] = []
    real = search.keeps_drawn

    def spy(*args, **kwargs):
        kept.append(real(*args, **kwargs))
        return kept[-1]

    monkeypatch.setattr(search, "keeps_drawn", spy)
    rules = Rules(top=6, draw=draw, out_on_double=50)
    names = ["A", "B", "C"]
    for seed in range(3):
        valid(simulate_game(names, rules, [searcher, "greedy", "random"], seed, 3, playouts=4))
    if draw == "one-may":  # the searcher decided, at least once, whether to keep a tile
        assert kept
    else:
        assert not kept


def test_out_on_double_is_scored_by_every_engine():
    rules = Rules(top=6, out_on_double=50)
    names = ["A", "B"]
    doubles = 0
    for seed in range(40):
        game = simulate_game(names, rules, ["greedy", "greedy"], seed)
        fast = study.fast_game(names, rules, ["greedy", "greedy"], seed)
        for r, f in zip(game.rounds, fast.rounds, strict=True):
            if r.winner is not None and r.moves[-1].action.play[0] == r.moves[-1].action.play[1]:
                doubles += 1
                assert r.scores[r.winner] == 50 == f.scores[names.index(r.winner)]
    assert doubles


# --- a seat knows only what it could, and what it infers is sound -------------------------


def test_several_unnamed_draws_under_until_held_nothing_that_fitted():
    ana = parse_hand("6-5 6-4 5-5 5-0 4-4 3-2 3-1 2-1 2-0 1-1 1-0 0-0", 6)
    log = [
        Move("Ana", parse_action("6-5", 6)),
        Move("Ben", Action(drew=True, earlier=(None, None))),  # three draws, then a pass
        Move("Ana", parse_action("6-4", 6)),
    ]
    rules = Rules(top=6, draw="until", reserve=0, deal=12)  # a chicken yard of 3
    know = from_log(rules, ["Ana", "Ben"], Tile(6, 6), "Ana", log, dealt=ana)
    six = know.tables.number[6]
    assert [(g[0] & six == six, g[1]) for g in know.groups[1]] == [(True, 15)]
    assert not [t for t in know.may_hold("Ben") if 6 in t]


def test_a_tile_kept_under_one_may_may_be_one_that_fits():
    ana = parse_hand("6-5 6-4 5-5 3-2 2-1 1-0 0-0", 6)
    log = [Move("Ana", parse_action("6-5", 6)), Move("Ben", Action(drew=True))]
    one = from_log(Rules(top=6), ["Ana", "Ben"], Tile(6, 6), "Ana", log, dealt=ana)
    may = from_log(Rules(top=6, draw="one-may"), ["Ana", "Ben"], Tile(6, 6), "Ana", log, dealt=ana)
    assert not [t for t in one.may_hold("Ben") if 6 in t]  # a draw that fits is played
    assert Tile(6, 3) in may.may_hold("Ben")  # ... or, under one-may, perhaps kept


@pytest.mark.parametrize("draw", DRAWS)
def test_strategies_see_their_seat_only_and_the_true_hands_are_always_possible(draw, monkeypatch):
    """Under each drawing rule, every view a strategy gets (to play, or to keep a drawn
    tile) holds only its own tiles, and the knowledge worked out from it admits the true
    hands: no deal that happened is ever ruled out."""
    seen: list[tuple[View, Round]] = []
    boards: dict[str, Round] = {}
    import cf.play.simulate as sim

    real_view = sim._view

    def recording_view(board, player, playable, history):
        view = real_view(board, player, playable, history)
        boards["now"] = board
        return view

    def spy(view: View, rng: random.Random) -> Tile:
        seen.append((view, _snapshot(boards["now"])))
        return greedy_strategy(view, rng)

    def keep(view: View, tile: Tile, rng: random.Random) -> bool:
        assert tile not in view.hand
        seen.append((view, _snapshot(boards["now"])))
        return rng.random() < 0.5

    spy.keep_drawn = keep  # type: ignore[attr-defined]
    monkeypatch.setattr(sim, "_view", recording_view)
    monkeypatch.setitem(STRATEGIES, "spy", spy)
    names = ["Ana", "Ben", "Carla"]
    game = simulate_game(names, Rules(top=6, draw=draw, reserve=0), ["spy"] * 3, seed=5)
    valid(game)
    assert len(seen) > 30
    for view, hands in seen[::3]:
        for name in View.__dataclass_fields__:  # no tile of anyone else's hand
            value = getattr(view, name)
            if isinstance(value, tuple) and value and isinstance(value[0], Tile):
                assert set(value) <= set(view.hand), name
        know = from_view(view)
        for p in names:
            if p != view.seat:
                assert hands[p] <= set(know.may_hold(p)), (draw, p)


def _snapshot(board: Round) -> dict[str, set[Tile]]:
    return {p: set(h.known) for p, h in board.hands.items()}


# --- studies and the command line ----------------------------------------------------------


def test_a_study_under_house_rules_counts_the_same_on_either_engine(monkeypatch):
    names, seats = ["A", "B", "C"], ["greedy", "random", "random"]
    for options in OPTIONS[::2]:
        rules = rules_of(6, options)
        fast = study_chunk(names, rules, seats, 3, range(6))
        with monkeypatch.context() as m:
            m.setattr(study, "fast_enough", lambda strategies: False)
            slow = study_chunk(names, rules, seats, 3, range(6))
        assert fast.as_dict() == slow.as_dict(), options


def test_simulate_takes_the_house_rules_and_writes_them(cli, tmp_path):
    path = tmp_path / "g.yaml"
    args = ["simulate", "--players", "3", "--set", "6", "--seed", "4", "--draw", "until",
            "--out-on-double", "50", "--target", "80"]  # fmt: skip
    result = cli(*args, "-o", str(path))
    assert result.exit_code == 0, result.stderr
    text = path.read_text()
    assert "rules: {starter_arms: 4, double_blank: 50, draw: until, out_on_double: 50, " \
        "target: 80}" in text  # fmt: skip
    header = text.splitlines()[0]
    assert header.endswith("--draw until --out-on-double 50 --target 80")
    again = cli(*header[len("# cf ") :].split())
    assert again.stdout == text
    assert cli("validate", str(path)).exit_code == 0


def test_target_lets_rounds_pass_the_set(cli):
    result = cli("simulate", "--set", "6", "--players", "2", "--seed", "1", "--target", "400",
                 "--rounds", "9")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "rounds: 9, target: 400" in result.stdout
    too_many = cli("simulate", "--set", "6", "--players", "2", "--rounds", "9")
    assert too_many.exit_code == 2


COMPARE = ["simulate", "--stats", "--set", "6", "--players", "3", "--games", "40", "--seed", "2",
           "--strategy", "greedy,random,greedy", "--compare", "draw=one",
           "--compare", "draw=until", "--compare", "draw=one-may,out_on_double=50"]  # fmt: skip


def test_compare_plays_the_same_games_under_each_rule_in_one_table(cli):
    result = cli(*COMPARE)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "40 games under each house rule, 3 players (greedy, random), seeds 2 to 41"
    header = lines[2].split()
    assert header == ["draw=one", "draw=until", "draw=one-may,out_on_double=50"]
    for row in ("points per player and round", "moves per round", "rounds ending blocked",
                "rounds won by the first player", "spread of those points"):  # fmt: skip
        assert any(line.startswith(row) for line in lines), row
    data = json.loads(cli(*COMPARE, "-f", "json").stdout)
    assert [c["rules"] for c in data["compare"]] == header
    # each column is the study of that rule alone
    alone = cli(*COMPARE[:12], "--draw", "until", "-f", "json")
    assert {k: v for k, v in json.loads(alone.stdout).items() if k != "seed"} == {
        k: v for k, v in data["compare"][1].items() if k != "rules"
    }
    assert data["compare"][0] != data["compare"][1]
    two = cli(*COMPARE, "-f", "json", "--jobs", "2")
    assert two.stdout == cli(*COMPARE, "-f", "json").stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--compare", "draw=one"], "add --stats"),
        (["--stats", "--compare", "draw=sometimes"], "draw must be one of"),
        (["--stats", "--compare", "colour=red"], "is not OPTION=VALUE"),
        (["--stats", "--compare", "target=lots"], "not a whole number"),
        (["--stats", "--compare", "reserve=-1"], "'-1' is not a whole number, 0 or more"),
        (["--stats", "--compare", "target=-3"], "'-3' is not a whole number, at least 1"),
        (["--stats", "--draw", "twice"], "--draw"),
    ],
)
def test_bad_house_rules_are_usage_errors(cli, args, message):
    result = cli("simulate", "--seed", "1", "--set", "6", *args)
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


# --- cf hint under the house rules ----------------------------------------------------------


def in_progress(tmp_path, rules: Rules, cut) -> tuple[str, Move]:
    """A simulated one-round game cut before the first move ``cut(move)`` picks, as a file
    in progress; and that move."""
    import yaml

    for seed in range(200):
        game = simulate_game(["Ana", "Ben"], rules, ["greedy", "greedy"], seed, rounds=1)
        moves = game.rounds[0].moves
        at = next((i for i, m in enumerate(moves) if i and cut(m)), None)
        if at is None:
            continue
        data = yaml.safe_load(game_yaml(game))
        rnd = data["rounds"][0]
        rnd["moves"] = rnd["moves"][:at]
        del rnd["hands"], rnd["scores"]
        path = tmp_path / f"cut-{seed}.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
        return str(path), moves[at]
    raise AssertionError("no such move in 200 games")


def test_hint_under_one_may_judges_keeping_the_drawn_tile(cli, tmp_path):
    rules = Rules(top=6, draw="one-may", rounds=1)
    path, move = in_progress(tmp_path, rules, lambda m: m.action.drew and m.action.play)
    drawn = move.action.drawn_tile
    first = cli("hint", path, "-n", "10")
    assert first.exit_code == 0, first.stderr
    assert "a drawn tile that fits you may keep (--drawn TILE)" in first.stdout
    result = cli("hint", path, "-n", "10", "--drawn", str(drawn), "-f", "json")
    assert result.exit_code == 0, result.stderr
    records = {a["record"]: a["action"] for a in json.loads(result.stdout)["actions"]}
    assert records[f"draw {drawn}, pass"] == "pass"
    plays = [r for r, kind in records.items() if kind == "play"]
    assert plays and all(r.startswith(f"draw {drawn}, ") for r in plays)
    text = cli("hint", path, "-n", "10", "--drawn", str(drawn)).stdout
    assert f"drew {drawn} (draw: one-may: play it or keep it)" in text
    assert f"keep {drawn} and pass" in text


ONE_MAY_FOOT = """\
set: double-six
rules: {deal: 3, starter_arms: 2, draw: one-may}
players: [A, B]
rounds:
  - deal: {A: 6-1 5-5 2-2, B: 6-5 3-3 0-0}
    moves:
      - A: 6-1
      - B: 6-5
      - A: 5-5
"""


@pytest.mark.parametrize(
    ("moves", "drawn", "plays"),
    [
        (3, "4-3", []),  # the foot on 5-5 wants a 5: 4-3 cannot be played
        (3, "5-3", ["draw 5-3, 5-3"]),
        (1, "2-1", []),  # the starter 6-6 wants a 6 on its arms
        (1, "6-2", ["draw 6-2, 6-2"]),
    ],
)
def test_hint_drawn_is_played_only_where_a_foot_or_the_starter_lets_it(
    cli, tmp_path, moves, drawn, plays
):
    """A drawn tile is judged played only where it may go: while a foot or the starter is
    open, only on its number (the advice once offered 'draw 4-3, 5-4', which is must-play),
    and the record names the tile drawn; every advised record is valid when written."""
    lines = ONE_MAY_FOOT.splitlines()
    text = "\n".join(lines[: len(lines) - 3 + moves]) + "\n"
    if moves == 1:
        text = text.replace("B: 6-5 3-3 0-0", "B: 3-1 3-3 0-0")
    path = tmp_path / "g.yaml"
    path.write_text(text)
    result = cli("hint", str(path), "-n", "5", "--drawn", drawn, "-f", "json")
    assert result.exit_code == 0, result.stderr
    actions = json.loads(result.stdout)["actions"]
    assert sorted(a["record"] for a in actions if a["action"] == "play") == plays
    for action in actions:
        path.write_text(text + f"      - B: {action['record']}\n")
        checked = json.loads(cli("validate", str(path), "-f", "json").stdout)
        codes = {p["code"] for p in checked["files"][0]["problems"]}
        assert codes == {"unfinished"}, (action, codes)  # the log stops there, no fault


def test_hint_drawn_is_refused_where_it_cannot_be(cli, tmp_path):
    rules = Rules(top=6, draw="one-may", rounds=1)
    path, _ = in_progress(tmp_path, rules, lambda m: m.action.drew and m.action.play)
    held = cli("hint", path, "--drawn", str(Tile(6, 6)))
    assert held.exit_code == 2
    assert "6-6 cannot have been drawn" in held.stderr
    sheet, _ = in_progress(tmp_path, Rules(top=6, rounds=1), lambda m: m.action.drew)
    one = cli("hint", sheet, "--drawn", "1-0")
    assert one.exit_code == 2
    assert "--drawn is for the house rule draw: one-may" in one.stderr
    bad = cli("hint", path, "--drawn", "x-y")
    assert bad.exit_code == 2


def test_hint_under_until_reads_several_draws_and_says_how_to_draw(cli, tmp_path):
    rules = Rules(top=6, draw="until", rounds=1)
    # cut after a turn of several draws, just before a turn that must draw
    path, _ = in_progress(tmp_path, rules, lambda m: len(m.action.draws) > 1)
    result = cli("hint", path, "-n", "5")
    assert result.exit_code == 0, result.stderr
    later, _ = in_progress(
        tmp_path, rules, lambda m: m.action.drew and not m.action.earlier and m.player == "Ana"
    )
    drawing = cli("hint", later, "-n", "5")
    assert drawing.exit_code == 0, drawing.stderr
    assert "nothing fits: draw until a tile fits, and play it" in drawing.stdout


def test_kept_draws_under_one_may_do_not_block_a_round_of_unseen_hands():
    """Ben drew and kept twice (one-may: perhaps a tile that fits), Ana passed: the yard
    is empty and every player passed in turn, yet Ben may hold a 6 — and plays it (the
    tile he drew last: at his second draw he held no 6, so none is left)."""
    ana = parse_hand("6-5 5-5 5-4 5-3 5-2 5-1 5-0 4-4 4-3 4-2 4-1 4-0", 6)
    log = [
        Move("Ana", parse_action("6-5", 6)),
        Move("Ben", parse_action("draw, pass", 6)),
        Move("Ana", parse_action("draw 3-3, pass", 6)),
        Move("Ben", parse_action("draw, pass", 6)),
        Move("Ana", parse_action("pass", 6)),
        Move("Ben", parse_action("6-4", 6)),
    ]
    rules = Rules(top=6, draw="one-may", reserve=0, deal=12, starter_arms=2)
    know = from_log(rules, ["Ana", "Ben"], Tile(6, 6), "Ana", log, dealt=ana)
    assert know.board.arms == 2
    assert know.may_hold("Ben") and not [t for t in know.may_hold("Ben") if 6 in t]


def test_hint_in_a_round_past_the_sets_last_of_a_game_to_a_target(cli, tmp_path):
    """Under target the doubles start again after 0-0: round 8 of double-six is 6-6."""
    import yaml

    rules = Rules(top=6, target=400)
    game = next(
        g
        for s in range(50)
        if len((g := simulate_game(["Ana", "Ben"], rules, ["greedy", "greedy"], s)).rounds) > 7
    )
    data = yaml.safe_load(game_yaml(game))
    data["rounds"] = data["rounds"][:8]
    last = data["rounds"][7]
    assert last["starter"] == "6-6"
    last["moves"] = last["moves"][:3]
    del last["hands"], last["scores"]
    path = tmp_path / "target.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    result = cli("hint", str(path), "-n", "5")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Round 8, after 3 moves")


def test_simulate_reads_the_draw_rule_in_any_case(cli):
    study = ["simulate", "--stats", "--set", "6", "--players", "3", "--games", "5", "--seed", "2"]
    lower = json.loads(cli(*study, "--draw", "until", "-f", "json").stdout)
    upper = json.loads(cli(*study, "--draw", "UNTIL", "-f", "json").stdout)
    assert upper == lower
    compared = json.loads(cli(*study, "--compare", "draw=One-May", "-f", "json").stdout)
    alone = json.loads(cli(*study, "--draw", "one-may", "-f", "json").stdout)
    column = compared["compare"][0]
    assert {k: v for k, v in column.items() if k != "rules"} == {
        k: v for k, v in alone.items() if k != "seed"
    }
