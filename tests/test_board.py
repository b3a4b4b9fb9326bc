"""The round engine driven directly: Round.apply takes one whole turn.

Every code the board raises has a test here, and a property test checks that a refused
turn leaves the round exactly as it was (docs/api.md promises it).
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cf.board import Round, RuleViolation
from cf.deal import deal_from
from cf.notation import Action, parse_action
from cf.rules import Rules
from cf.tiles import Tile, parse_hand


def dealt(hands: dict[str, str], top: int = 9, arms: int = 2, **rules: object) -> Round:
    deal = {p: parse_hand(h, top) for p, h in hands.items()}
    each = max(len(h) for h in deal.values())
    r = Rules(top=top, deal=each, starter_arms=arms, **rules)  # type: ignore[arg-type]
    return Round.dealt(r, list(hands), Tile(top, top), deal)


def turns(board: Round, *moves: str) -> None:
    for move in moves:
        player, text = move.split(":", 1)
        board.apply(player, parse_action(text.strip()))


def code_of(board: Round, player: str, text: str) -> str:
    with pytest.raises(RuleViolation) as info:
        board.apply(player, parse_action(text))
    return info.value.code


def state(board: Round) -> object:
    return copy.deepcopy(
        {k: v for k, v in vars(board).items() if k not in ("rules", "_after", "seat")}
    )


def test_a_whole_turn_is_one_call():
    board = dealt({"A": "9-3 5-5 3-1", "B": "9-1 2-2 8-7"})
    turns(board, "A: 9-3", "B: 1-9")
    assert board.ends() == [1, 3]
    assert board.next_player == "A"
    turns(board, "A: 3-1")  # flipped: the 3 touches, the 1 is open
    assert board.ends() == [1, 1]


def test_after_end():
    board = dealt({"A": "9-3", "B": "9-1 2-2"})
    turns(board, "A: 9-3")
    assert board.winner == "A"
    assert code_of(board, "B", "9-1") == "after-end"


def test_turn_and_player():
    board = dealt({"A": "9-3 5-5", "B": "9-1 2-2"})
    turns(board, "A: 9-3")
    assert code_of(board, "A", "5-5") == "turn"
    assert code_of(board, "Zed", "pass") == "player"


def test_already_played_and_not_in_hand():
    board = dealt({"A": "9-3 5-5", "B": "9-1 2-2"})
    turns(board, "A: 9-3")
    assert code_of(board, "B", "9-3") == "already-played"
    assert code_of(board, "B", "9-9") == "already-played"  # the starter
    assert code_of(board, "B", "5-5") == "not-in-hand"  # in A's hand
    assert code_of(board, "B", "9-2") == "not-in-hand"  # B holds no unseen tile


def test_starter_open_foot_open_no_match():
    board = dealt({"A": "9-3 3-3 8-1", "B": "9-1 4-2 3-0 7-6"})
    assert code_of(board, "A", "3-3") == "starter-open"
    turns(board, "A: 9-3", "B: 9-1")
    turns(board, "A: 3-3")
    assert board.pending == 3
    assert code_of(board, "B", "4-2") == "foot-open"
    turns(board, "B: 3-0")
    assert code_of(board, "A", "8-1") == "foot-open"
    board2 = dealt({"A": "9-3 8-7", "B": "9-1 6-5"})
    turns(board2, "A: 9-3", "B: 9-1")
    assert code_of(board2, "A", "8-7") == "no-match"


def test_must_play_must_draw_yard_empty():
    board = dealt({"A": "9-3 5-5", "B": "9-1 2-2"})
    assert code_of(board, "A", "pass") == "must-play"
    assert code_of(board, "A", "draw, pass") == "must-play"
    turns(board, "A: 9-3")
    assert code_of(board, "B", "pass") == "must-play"
    turns(board, "B: 9-1")
    # A holds 5-5 only, open ends 1 and 3: the yard has tiles, so A must draw
    assert code_of(board, "A", "pass") == "must-draw"
    tight = dealt({"A": "9-3 5-5", "B": "9-1 2-2"}, reserve=Rules(top=9).pool - 4)
    turns(tight, "A: 9-3", "B: 9-1")
    assert tight.drawable == 0
    assert code_of(tight, "A", "draw, pass") == "yard-empty"
    turns(tight, "A: pass")  # nothing to draw, nothing to play


def test_not_in_yard_and_must_play_drawn():
    board = dealt({"A": "9-3 5-5", "B": "9-1 2-2"})
    turns(board, "A: 9-3", "B: 9-1")
    assert code_of(board, "A", "draw 9-3, pass") == "not-in-yard"  # on the table
    assert code_of(board, "A", "draw 2-2, pass") == "not-in-yard"  # in B's hand
    assert code_of(board, "A", "draw 5-5, pass") == "not-in-yard"  # in A's own hand
    assert code_of(board, "A", "draw 3-2, pass") == "must-play-drawn"
    assert code_of(board, "A", "draw 3-2, 1-6") == "must-play"  # not the drawn tile
    turns(board, "A: draw 3-2, 3-2")
    assert board.ends() == [1, 2]


def test_a_refused_draw_is_undone():
    board = dealt({"A": "9-3 5-5", "B": "9-1 2-2"})
    turns(board, "A: 9-3", "B: 9-1")
    before = state(board)
    for text in ("draw 3-2, pass", "draw 3-2, 1-6", "draw, 8-8", "draw 8-7, 8-7"):
        with pytest.raises(RuleViolation):
            board.apply("A", parse_action(text))
        assert state(board) == before, text


def test_draw_until_draws_until_a_tile_fits():
    board = dealt({"A": "9-3 5-5", "B": "9-1 2-2"}, draw="until")
    turns(board, "A: 9-3", "B: 9-1")  # open ends 1 and 3; A holds 5-5
    assert code_of(board, "A", "draw 8-7, pass") == "must-draw"  # more to draw
    assert code_of(board, "A", "draw 3-2, draw 8-7, pass") == "must-play-drawn"
    assert code_of(board, "A", "draw 8-7, draw 8-7, pass") == "not-in-yard"
    assert code_of(board, "A", "draw 8-7, draw 6-4, 3-2") == "must-play"
    before = state(board)
    assert code_of(board, "A", "draw 8-7, draw, draw 6-4, pass") == "must-draw"
    assert state(board) == before  # every draw of the refused turn undone
    turns(board, "A: draw 8-7, draw, draw 3-2, 3-2")
    assert board.hands["A"].size == 3 and board.ends() == [1, 2]


def test_one_and_one_may_allow_one_draw_a_turn():
    for rule, after_fitting_draw in (("one", "must-play-drawn"), ("one-may", "draw-limit")):
        board = dealt({"A": "9-3 5-5", "B": "9-1 2-2"}, draw=rule)
        turns(board, "A: 9-3", "B: 9-1")
        assert code_of(board, "A", "draw 8-7, draw 3-2, 3-2") == "draw-limit"
        assert code_of(board, "A", "draw, draw, pass") == "draw-limit"
        assert code_of(board, "A", "draw 3-2, draw 8-7, pass") == after_fitting_draw
    may = dealt({"A": "9-3 5-5", "B": "9-1 2-2"}, draw="one-may")
    turns(may, "A: 9-3", "B: 9-1", "A: draw 3-2, pass")  # may keep a tile that fits
    assert may.hands["A"].known == {Tile(5, 5), Tile(3, 2)}


def test_going_out_on_a_double_is_seen():
    board = dealt({"A": "9-3 3-3", "B": "9-1 2-2 1-0"})
    turns(board, "A: 9-3", "B: 9-1", "A: 3-3")
    assert board.winner == "A" and board.out_tile == Tile(3, 3) and board.out_on_double


def _random_action(rng: random.Random, board: Round, top: int) -> Action:
    tiles = [Tile(a, b) for a in range(top + 1) for b in range(a + 1)]
    kind = rng.randrange(4)
    tile = rng.choice(tiles)
    written = (tile.high, tile.low) if rng.random() < 0.5 else (tile.low, tile.high)
    if kind == 0:
        return Action(play=written)
    if kind == 1:
        return Action()
    drawn_tile = rng.choice(tiles)
    drawn = (drawn_tile.high, drawn_tile.low) if rng.random() < 0.7 else None
    # a turn of several draws now and then (legal only under draw: until)
    earlier = tuple(
        None if rng.random() < 0.3 else rng.choice(tiles)[:]
        for _ in range(rng.choice([0, 0, 1, 3]))
    )
    if kind == 2:
        return Action(drew=True, drawn=drawn, earlier=earlier)
    return Action(
        play=written if rng.random() < 0.5 else drawn, drew=True, drawn=drawn, earlier=earlier
    )


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([6, 9]),
    st.integers(2, 4),
    st.sampled_from(["one", "one-may", "until"]),
)
def test_any_refused_turn_leaves_the_round_unchanged(seed, top, players, draw_rule):
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(players)]
    rules = Rules(top=top, draw=draw_rule)
    d = deal_from(rng, rules, names, 1)
    board = Round.dealt(rules, names, d.starter, d.hands)
    yard = list(d.chicken_yard)
    refused = 0
    for _ in range(200):
        if board.is_over:
            break
        player = board.next_player or names[0]
        work = copy.deepcopy(board)
        try:
            work.apply(player, _random_action(rng, board, top))
        except RuleViolation:
            refused += 1
            assert state(work) == state(board)
        board.apply(player, _legal_action(rng, board, player, yard))
    assert refused


def _legal_action(rng: random.Random, board: Round, player: str, yard: list[Tile]) -> Action:
    """A legal turn under the board's drawing rule, drawing from the top of ``yard``."""
    playable = board.legal_plays(player)
    if playable:
        return Action(play=board.orient(rng.choice(playable)))
    if not board.drawable:
        return Action()
    drawn = [yard.pop()]
    if board.rules.draw == "until":
        while not board.fits(drawn[-1]) and len(drawn) < board.drawable:
            drawn.append(yard.pop())
    t = drawn[-1]
    keep = board.rules.draw == "one-may" and rng.random() < 0.5
    play = board.orient(t) if board.fits(t) and not keep else None
    return Action(play=play, drew=True, drawn=t, earlier=tuple(drawn[:-1]))
