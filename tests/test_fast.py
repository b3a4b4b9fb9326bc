"""The fast playout engine (cf.play.fast) agrees with Round.apply on every move.

Random rounds under varied house rules are played on both engines side by side: every
turn the fast engine's options are compared with Round's legal plays, a random option is
applied to both, and the boards, hands, yard and end of round are compared after it.
bench/playouts.py runs the same check on thousands of rounds.
"""

from __future__ import annotations

import random

import pytest

from cf.board import Round
from cf.deal import deal_from
from cf.notation import Action
from cf.play.fast import State, Tables, playout
from cf.play.simulate import greedy_strategy, simulate_game
from cf.rules import Rules

VARIANTS = [
    (Rules(top=6), 2),
    (Rules(top=6, starter_arms=2, reserve=0), 3),
    (Rules(top=9), 4),
    (Rules(top=9, double_blank=0), 6),
    (Rules(top=9, starter_arms="players", reserve=0), 2),
    (Rules(top=12, double_blank=25), 5),
    # the house rules of issue 20: how a player draws, going out on a double
    (Rules(top=6, draw="until"), 3),
    (Rules(top=9, draw="until", reserve=0, out_on_double=50), 4),
    (Rules(top=9, draw="one-may"), 4),
    (Rules(top=6, draw="one-may", out_on_double=25, reserve=0), 2),
    (Rules(top=12, draw="until", starter_arms="players"), 6),
]


def agree_on_a_round(rules: Rules, players: int, seed: int) -> int:
    """Play one random round on both engines; return how many moves were compared."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    k = rng.randint(1, rules.top + 1)
    dealt = deal_from(rng, rules, names, k)
    board = Round.dealt(rules, names, dealt.starter, dealt.hands)
    tables = Tables.get(rules.top, rules.double_blank)
    first = rng.randrange(players)
    st = State.start(
        tables,
        rules,
        dealt.starter,
        [dealt.hands[p] for p in names],
        list(reversed(dealt.chicken_yard)),  # deal_from's yard is popped from the end
        first,
    )
    moves = 0
    while not board.is_over:
        assert not st.over
        player = names[st.cur]
        options = st.options()
        legal = board.legal_plays(player)
        assert sorted({tables.tiles[i] for i, _ in options}) == legal
        if options:
            tile, near = rng.choice(options)
            t = tables.tiles[tile]
            board.apply(player, Action(play=(near, t.other(near))))
            st.play(tile, near)
        else:
            yard = st.yard[:]
            # under one-may, keep a drawn tile that fits one time in two
            drawn = st.forced(keep=rng.random() < 0.5)
            pulled = [tables.tiles[i] for i in reversed(yard[len(st.yard) :])]
            if pulled:  # drawn in this order: every tile but the last did not fit
                written = [(t.high, t.low) for t in pulled]
                play = board.orient(pulled[-1]) if drawn >= 0 else None
                action = Action(
                    play=play, drew=True, drawn=written[-1], earlier=tuple(written[:-1])
                )
                board.apply(player, action)
            else:
                board.apply(player, Action())
        moves += 1
        assert sorted(n for n, c in enumerate(st.ends) for _ in range(c)) == board.ends()
        assert st.open_bits == sum(1 << n for n in set(board.ends()))
        assert (st.pending if st.pending >= 0 else None) == board.pending
        if board.pending is not None:
            assert st.toes == board.toes
        assert st.arms == board.arms
        assert st.drawable == board.drawable
        assert len(st.yard) == board.yard
        for i, p in enumerate(names):
            assert tables.tiles_of(st.hands[i]) == sorted(board.hands[p].known)
        assert (names[st.winner] if st.winner >= 0 else None) == board.winner
        assert st.over == board.is_over
    assert st.over
    scores = [sum(t.points(rules.double_blank) for t in board.hands[p].known) for p in names]
    if board.winner is not None and board.out_on_double:
        scores[names.index(board.winner)] = rules.out_on_double
    assert st.scores() == scores
    return moves


@pytest.mark.parametrize("rules, players", VARIANTS, ids=lambda v: str(v))
def test_fast_engine_agrees_with_round_on_every_move(rules, players):
    moves = sum(agree_on_a_round(rules, players, seed) for seed in range(50))
    assert moves > 50 * 10


@pytest.mark.parametrize(
    "rules",
    [Rules(top=9), Rules(top=9, draw="until", out_on_double=50), Rules(top=9, draw="one-may")],
    ids=str,
)
def test_greedy_playout_plays_the_simulators_greedy_game(rules):
    """playout() is greedy for every seat: the same round as cf simulate's greedy players."""
    for seed in range(30):
        names = ["A", "B", "C", "D"]
        game = simulate_game(names, rules, ["greedy"] * 4, seed=seed, rounds=1)
        sim = game.rounds[0]
        tables = Tables.get(9, 50)
        # the simulator draws from the end of the yard it dealt: rebuild it from the moves
        st_rng = random.Random(seed)
        dealt = deal_from(st_rng, rules, names, 1)
        st = State.start(
            tables,
            rules,
            dealt.starter,
            [dealt.hands[p] for p in names],
            list(reversed(dealt.chicken_yard)),
            names.index(sim.first),
        )
        playout(st)
        assert st.scores() == [sim.scores[p] for p in names]
        assert (names[st.winner] if st.winner >= 0 else None) == sim.winner
    assert greedy_strategy  # the policy playout() inlines
