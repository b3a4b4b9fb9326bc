"""The board layout: the tree of placed tiles, the tie rule, and no two tiles overlapping.

The overlap check here is written independently of cf.render.layout's own (corners from
each tile's centre and direction, then a separating-axis test on the corner lists).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cf.board import Round
from cf.notation import parse_action
from cf.play.simulate import simulate_game
from cf.render.layout import Before, Layout, PlacedTile
from cf.rules import Rules
from cf.tiles import Tile, parse_hand


def corners(t: PlacedTile) -> list[tuple[float, float]]:
    """Corners of a 2-by-1 tile from its centre and the direction of its long side."""
    if t.role == "starter":
        axis = 0.0
    elif t.tile.is_double:
        axis = t.angle + 90
    else:
        axis = t.angle
    ux, uy = math.cos(math.radians(axis)), math.sin(math.radians(axis))
    vx, vy = -uy * 0.5, ux * 0.5
    return [
        (t.x + a * ux + b * vx, t.y + a * uy + b * vy)
        for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]


def overlap(p: list[tuple[float, float]], q: list[tuple[float, float]], tol: float = 1e-4) -> bool:
    """Two convex polygons overlap by more than ``tol`` (touching edges do not count)."""
    for poly in (p, q):
        for i in range(len(poly)):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y1 - y2, x2 - x1
            norm = math.hypot(nx, ny)
            a = [(x * nx + y * ny) / norm for x, y in p]
            b = [(x * nx + y * ny) / norm for x, y in q]
            if max(a) <= min(b) + tol or max(b) <= min(a) + tol:
                return False
    return True


def overlapping_pairs(tiles: list[PlacedTile]) -> list[tuple[str, str]]:
    # Sweep along x: only tiles whose centres are within 2.3 (more than a tile's
    # diagonal) can touch.
    ordered = sorted(tiles, key=lambda t: t.x)
    polys = [corners(t) for t in ordered]
    found = []
    for i, a in enumerate(ordered):
        for j in range(i + 1, len(ordered)):
            b = ordered[j]
            if b.x - a.x >= 2.3:
                break
            if abs(b.y - a.y) < 2.3 and overlap(polys[i], polys[j]):
                found.append((str(a.tile), str(b.tile)))
    return found


def lay_out(rules: Rules, sim_round, players) -> tuple[Layout, Round]:
    board = Round.dealt(rules, players, sim_round.starter, sim_round.deal)
    layout = Layout(board.starter, board.arms_needed)
    for number, move in enumerate(sim_round.moves, 1):
        before = Before.of(board)
        board.apply(move.player, move.action)
        layout.play(before, move.action, number, move.player)
        assert layout.open_numbers() == board.ends()
    return layout, board


def check_tree(layout: Layout, board: Round) -> None:
    tiles = layout.tiles
    assert len(tiles) == len(board.on_table)
    assert {t.tile for t in tiles} == board.on_table
    for t in tiles[1:]:
        parent = tiles[t.parent]  # type: ignore[index]
        assert t.parent < t.index  # type: ignore[operator]
        assert t.near in parent.tile and t.near == (
            parent.near if parent.tile.is_double else parent.far
        )
        assert {t.near, t.far} == set(t.tile)
    arms = layout.children(0)
    assert len(arms) == board.arms and all(a.role == "arm" for a in arms)
    for t in tiles[1:]:
        kids = layout.children(t.index)
        assert len(kids) <= (3 if t.tile.is_double else 1)
        assert all(k.role == ("toe" if t.tile.is_double else "chain") for k in kids)


# Every set, from two players to the most its table has (18: an explicit deal).
CASES = [
    (6, 2, None), (6, 3, None), (6, 5, None),
    (9, 2, None), (9, 4, None), (9, 6, None), (9, 8, None),
    (12, 3, None), (12, 6, None), (12, 9, None), (12, 12, None),
    (15, 2, None), (15, 7, None), (15, 13, None),
    (18, 2, 30), (18, 6, 20), (18, 12, 12),
]  # fmt: skip


@pytest.mark.parametrize("top, players, deal", CASES, ids=lambda v: str(v))
def test_no_overlap_in_simulated_rounds(top, players, deal):
    """About 550 rounds in all (bench/layout.py plays thousands), every set and player
    count, random and greedy players, two or more arms: every tile is laid out, none
    overlaps another, and the layout's tree agrees with the board (open ends, arms, toes)."""
    names = [f"P{i}" for i in range(players)]
    for arms in sorted({2, 4, min(top, 8)}):
        rules = Rules(top=top, deal=deal, starter_arms=arms)
        rounds = 0
        seed = 0
        while rounds < 10:
            game = simulate_game(
                names, rules, ["random", "greedy"] * players, seed=seed, rounds=min(top + 1, 10)
            )
            for sim in game.rounds:
                layout, board = lay_out(rules, sim, names)
                assert overlapping_pairs(layout.tiles) == []
                check_tree(layout, board)
                rounds += 1
            seed += 1


def test_starter_arms_players_and_many_arms():
    names = [f"P{i}" for i in range(10)]
    rules = Rules(top=12, starter_arms="players")
    game = simulate_game(names, rules, ["greedy"] * 10, seed=3, rounds=3)
    for sim in game.rounds:
        layout, _ = lay_out(rules, sim, names)
        assert len(layout.children(0)) == 10
        assert overlapping_pairs(layout.tiles) == []


def play(layout: Layout, board: Round, moves: list[tuple[str, str]]) -> list[PlacedTile | None]:
    placed = []
    for player, text in moves:
        action = parse_action(text)
        placed.append(layout.play(board, action, len(placed) + 1, player))
        board.apply(player, action)
    return placed


def small_round(hands: dict[str, str], arms: int = 2) -> tuple[Layout, Round]:
    dealt = {p: parse_hand(h) for p, h in hands.items()}
    size = max(len(h) for h in dealt.values())
    board = Round.dealt(Rules(top=9, deal=size, starter_arms=arms), list(hands), Tile(9, 9), dealt)
    return Layout(board.starter, board.arms_needed), board


def test_equal_open_ends_go_to_the_one_opened_first():
    # Two ends show 3: arm 1's (opened at move 1) and the 5-3's (opened at move 3).
    layout, board = small_round({"Ana": "9-3 5-3 8-8", "Ben": "9-5 3-1 7-7"})
    placed = play(layout, board, [("Ana", "9-3"), ("Ben", "9-5"), ("Ana", "5-3"), ("Ben", "3-1")])
    arm1, _, five_three, three_one = placed
    assert board.ends() == [1, 3]
    assert three_one.parent == arm1.index  # not five_three.index
    assert three_one.near == 3 and three_one.far == 1
    assert layout.children(five_three.index) == []


def test_flipped_tile_and_the_foot():
    layout, board = small_round({"Ana": "9-4 4-4 4-2 2-2", "Ben": "9-6 4-1 4-0 0-0"})
    placed = play(
        layout,
        board,
        [("Ana", "9-4"), ("Ben", "9-6"), ("Ana", "4-4"), ("Ben", "1-4"), ("Ana", "4-2"),
         ("Ben", "4-0")],
    )  # fmt: skip
    double = placed[2]
    assert double.role == "chain" and double.tile == Tile(4, 4)
    toes = layout.children(double.index)
    assert [t.tile for t in toes] == [Tile(4, 1), Tile(4, 2), Tile(4, 0)]
    assert [t.role for t in toes] == ["toe"] * 3
    assert toes[0].near == 4 and toes[0].far == 1  # written 1-4, flipped to fit
    # Fanned: straight on, and 45 degrees to either side.
    assert sorted((t.angle - double.angle) % 360 for t in toes) == [0, 45, 315]
    assert board.ends() == layout.open_numbers() == [0, 1, 2, 6]


def test_a_pass_places_nothing():
    layout, board = small_round({"Ana": "9-3 1-1", "Ben": "9-5 2-2"})
    assert layout.play(board, parse_action("pass")) is None


@settings(max_examples=30, deadline=None)
@given(
    table=st.sampled_from(CASES),
    arms=st.sampled_from([2, 3, 4, "players"]),
    seed=st.integers(0, 10**6),
    k=st.integers(1, 7),
)
def test_no_overlap_for_any_seed(table, arms, seed, k):
    """Any deal, any round: one simulated round laid out, no overlap, a sound tree."""
    top, players, deal = table
    if arms == "players" and players > top:
        arms = top
    rules = Rules(top=top, deal=deal, starter_arms=arms)
    names = [f"P{i}" for i in range(players)]
    sim = simulate_game(names, rules, ["random"] * players, seed=seed, rounds=k).rounds[-1]
    layout, board = lay_out(rules, sim, names)
    assert overlapping_pairs(layout.tiles) == []
    check_tree(layout, board)
