"""What computer players may see (a View of the seat's own knowledge) and how random
and greedy choose."""

from __future__ import annotations

import random

import pytest

from cf.play.simulate import (
    STRATEGIES,
    View,
    greedy_strategy,
    random_strategy,
    simulate_game,
)
from cf.record.check import validate
from cf.record.emit import game_yaml
from cf.record.reader import read_game
from cf.rules import Rules
from cf.tiles import Tile

NAMES = ["Ana", "Ben", "Carla", "Dan", "Eva", "Fede"]
SET_NAMES = {6: "double-six", 9: "double-nine", 12: "double-twelve"}


# --- (c) what strategies see ---------------------------------------------------------------------


def make_view(playable: list[Tile], hand: list[Tile] | None = None, double_blank: int = 50):
    hand = hand if hand is not None else playable
    return View(
        hand=tuple(sorted(hand)),
        playable=tuple(playable),
        open_ends=(0, 3, 9),
        starter=Tile(9, 9),
        pending=None,
        hand_sizes={"Ana": len(hand), "Ben": 7},
        drawable=4,
        double_blank=double_blank,
    )


def test_a_view_holds_nothing_of_other_hands():
    names = set(View.__dataclass_fields__)
    assert {"hand", "playable", "hand_sizes", "drawable"} <= names
    assert not names & {"hands", "deal", "yard", "chicken_yard", "board", "round"}


@pytest.mark.parametrize("strategy", [random_strategy, greedy_strategy])
def test_strategies_choose_a_playable_tile(strategy):
    rng = random.Random(0)
    for i in range(200):
        local = random.Random(i)
        every = [Tile(a, b) for a in range(10) for b in range(a + 1)]
        hand = local.sample(every, local.randint(1, 12))
        playable = local.sample(hand, local.randint(1, len(hand)))
        choice = strategy(make_view(playable, hand), rng)
        assert choice in playable


def test_random_strategy_uses_every_option():
    playable = [Tile(9, 3), Tile(3, 0), Tile(9, 0)]
    rng = random.Random(1)
    chosen = {random_strategy(make_view(playable), rng) for _ in range(100)}
    assert chosen == set(playable)


def test_greedy_plays_the_double_blank_first_when_it_is_costly():
    playable = [Tile(9, 8), Tile(0, 0), Tile(9, 0)]
    assert greedy_strategy(make_view(playable, double_blank=50), random.Random(0)) == Tile(0, 0)
    assert greedy_strategy(make_view(playable, double_blank=25), random.Random(0)) == Tile(0, 0)
    # even before a bigger tile (double-fifteen): holding 0-0 at the end is the real risk
    big = [Tile(15, 15), Tile(0, 0), Tile(15, 14)]
    assert greedy_strategy(make_view(big, double_blank=25), random.Random(0)) == Tile(0, 0)
    assert greedy_strategy(make_view(big, double_blank=50), random.Random(0)) == Tile(0, 0)


def test_greedy_sheds_the_most_points_otherwise():
    playable = [Tile(9, 3), Tile(0, 0), Tile(9, 8), Tile(4, 4)]
    assert greedy_strategy(make_view(playable, double_blank=0), random.Random(0)) == Tile(9, 8)
    assert greedy_strategy(make_view([Tile(2, 1), Tile(6, 5)]), random.Random(0)) == Tile(6, 5)


def test_strategies_see_only_their_own_hand_in_a_real_game(monkeypatch):
    seen: list[View] = []

    def spy(view: View, rng: random.Random) -> Tile:
        seen.append(view)
        choice = greedy_strategy(view, rng)
        if Tile(0, 0) in view.playable:
            assert choice == Tile(0, 0)
        return choice

    monkeypatch.setitem(STRATEGIES, "spy", spy)
    names = ["Ana", "Ben", "Carla"]
    game = simulate_game(names, Rules(top=9), ["spy"] * 3, seed=12)
    assert seen
    assert validate(read_game(game_yaml(game).encode(), "s.yaml")).problems == []
    for view in seen:
        assert view.playable
        assert set(view.playable) <= set(view.hand)
        assert len(view.hand) in view.hand_sizes.values()
        assert set(view.hand_sizes) == set(names)
        for name in View.__dataclass_fields__:  # no tile of anyone else's hand
            value = getattr(view, name)
            if isinstance(value, tuple) and value and isinstance(value[0], Tile):
                assert set(value) <= set(view.hand), name
    # the double blank, when it was playable, was played at once (greedy, 50 points)
    assert any(Tile(0, 0) in v.playable for v in seen)
