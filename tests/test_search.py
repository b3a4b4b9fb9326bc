"""The players that think (cf.play.search): legal, repeatable, blind to hidden tiles."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cf.board import Round
from cf.deal import deal_from
from cf.notation import Action, Move
from cf.play import search
from cf.play.knowledge import from_view, public_log
from cf.play.simulate import STRATEGIES, simulate_game, strategy_for, view_of
from cf.record.check import validate
from cf.record.emit import game_yaml
from cf.record.reader import read_game
from cf.rules import Rules
from cf.tiles import Tile

FAST = {"pimc": 8, "ismcts": 40}


@pytest.mark.parametrize("name", ["smart", "pimc", "ismcts"])
def test_searchers_play_valid_repeatable_games(name):
    rules = Rules(top=6)
    seats = [name, "greedy", "random"]
    one = simulate_game(["A", "B", "C"], rules, seats, seed=3, rounds=2, playouts=FAST.get(name))
    two = simulate_game(["A", "B", "C"], rules, seats, seed=3, rounds=2, playouts=FAST.get(name))
    assert one == two
    assert validate(read_game(game_yaml(one).encode(), "g.yaml")).problems == []


def test_playouts_change_the_effort():
    pimc = strategy_for("pimc", 5)
    assert pimc.keywords == {"playouts": 5}  # type: ignore[attr-defined]
    assert strategy_for("greedy", 5) is STRATEGIES["greedy"]


def position(seed: int, moves: int, players: int = 4):
    """A greedy round of double-nine after ``moves`` moves, with its log and yard."""
    rules = Rules(top=9)
    names = [f"P{i}" for i in range(players)]
    rng = random.Random(seed)
    dealt = deal_from(rng, rules, names, 1 + seed % 10)
    board = Round.dealt(rules, names, dealt.starter, dealt.hands)
    yard = list(dealt.chicken_yard)
    log: list[Move] = []
    greedy = STRATEGIES["greedy"]
    p = names[seed % players]
    for _ in range(moves):
        if board.is_over:
            break
        p = board.next_player or p
        view = view_of(board, p, public_log(log, p))
        if view.playable:
            action = Action(play=board.orient(greedy(view, rng)))  # type: ignore[arg-type]
        elif board.drawable:
            t = yard.pop()
            action = Action(play=board.orient(t) if board.fits(t) else None, drew=True, drawn=t)
        else:
            action = Action()
        board.apply(p, action)
        log.append(Move(p, action))
    return rules, names, board, yard, log


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 30),
    name=st.sampled_from(["smart", "pimc", "ismcts"]),
)
def test_hidden_tiles_do_not_change_the_move(seed, moves, name):
    """Deal the other hands and the yard anew, consistently with all the seat knows: the
    seat's view, and so its move, stay the same."""
    _rules, names, board, yard, log = position(seed, moves)
    assume(not board.is_over)
    p = board.next_player or names[seed % 4]
    view = view_of(board, p, public_log(log, p))
    assume(len(view.playable) > 1)
    know = from_view(view)
    hands, new_yard = know.sample(random.Random(seed + 1))
    other = copy.deepcopy(board)
    for i, q in enumerate(names):
        if q != p:
            tiles = set(know.tables.tiles_of(hands[i]))
            for t in other.hands[q].known:
                del other.owner[t]
            other.hands[q].known = tiles
            for t in tiles:
                other.owner[t] = q
    other_view = view_of(other, p, public_log(log, p))
    assert other_view == view
    strategy = strategy_for(name, FAST.get(name))
    assert strategy(view, random.Random(seed)) == strategy(other_view, random.Random(seed))
    del new_yard, yard  # the yard's order is nowhere in the view


def test_the_view_gives_no_hidden_tile_to_a_strategy():
    _rules, _names, board, _, log = position(7, 20)
    p = board.next_player
    assert p is not None
    view = view_of(board, p, public_log(log, p))
    for m in view.history:
        if m.player != p:
            assert m.action.drawn is None


@pytest.mark.parametrize("name", ["smart", "pimc", "ismcts"])
def test_choices_are_legal_plays_on_an_end_that_shows_their_number(name):
    strategy = strategy_for(name, FAST.get(name))
    for seed in range(6):
        _, _names, board, _, log = position(seed, 5 + 3 * seed)
        p = board.next_player
        if p is None or board.is_over:
            continue
        view = view_of(board, p, public_log(log, p))
        if not view.playable:
            continue
        choice = strategy(view, random.Random(seed))
        near, far = choice if not isinstance(choice, Tile) else board.orient(choice)
        assert Tile.of(near, far) in view.playable
        board.apply(p, Action(play=(near, far)))  # the board accepts it


def test_evaluate_lists_every_action_best_first():
    rules = Rules(top=9)
    names = ["A", "B", "C", "D"]
    rules_, names_, board, _, log = position(11, 12)
    p = board.next_player
    assert p is not None
    view = view_of(board, p, public_log(log, p))
    judged = search.evaluate(from_view(view), 30, random.Random(0))
    assert [j.expected_points for j in judged] == sorted(j.expected_points for j in judged)
    if view.playable:
        assert {j.tile for j in judged} == set(view.playable)
    else:
        assert [j.tile for j in judged] == [None]
    assert all(0 <= j.p_out <= 1 for j in judged)
    del rules, names, rules_, names_


def test_cf_simulate_takes_the_searchers_and_their_effort(cli):
    args = ["simulate", "--names", "Ana,Ben", "--set", "6", "--rounds", "2", "--seed", "5"]
    one = cli(*args, "--strategy", "pimc,greedy", "--playouts", "5")
    assert one.exit_code == 0, one.output
    assert one.output.splitlines()[0] == (
        "# cf simulate --names Ana,Ben --strategy pimc,greedy --seed 5 --set double-six "
        "--rounds 2 --playouts 5"
    )
    assert cli(*args, "--strategy", "pimc,greedy", "--playouts", "5").output == one.output
    assert validate(read_game(one.output.encode(), "g.yaml")).problems == []
    stats = cli(*args, "--strategy", "ismcts,smart", "-n", "20", "--stats", "-g", "2")
    assert stats.exit_code == 0 and "ismcts" in stats.output and "smart" in stats.output
    bad = cli(*args, "--strategy", "pimc,greedy", "--playouts", "0")
    assert bad.exit_code == 2
