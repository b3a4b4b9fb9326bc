"""What a seat can know (cf.play.knowledge): sound inference, uniform consistent deals."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

from cf.board import Round
from cf.deal import deal_from
from cf.notation import Move, parse_action
from cf.play.fast import Tables, bits
from cf.play.knowledge import Knowledge, from_log, from_view, public_log
from cf.play.simulate import STRATEGIES, view_of
from cf.rules import Rules
from cf.tiles import Tile, parse_hand


def moves(*entries: str) -> list[Move]:
    out = []
    for e in entries:
        player, _, action = e.partition(":")
        out.append(Move(player.strip(), parse_action(action.strip(), 6)))
    return out


# --- inference ------------------------------------------------------------------------


ANA = parse_hand("6-5 6-4 5-5 3-2 2-1 1-0 0-0", 6)


def test_a_draw_says_the_drawer_held_nothing_that_fitted():
    know = from_log(
        Rules(top=6),
        ["Ana", "Ben"],
        Tile(6, 6),
        "Ana",
        moves("Ana: 6-5", "Ben: draw, pass"),
        dealt=ANA,
    )
    ben = know.may_hold("Ben")
    assert ben and not [t for t in ben if 6 in t]  # in the starter phase: no 6 at all
    assert Tile(4, 3) in ben
    assert not set(ben) & set(ANA)


def test_a_tile_drawn_later_may_be_anything():
    know = from_log(
        Rules(top=6, starter_arms=3),
        ["Ana", "Ben"],
        Tile(6, 6),
        "Ana",
        moves("Ana: 6-5", "Ben: draw, pass", "Ana: 6-4", "Ben: draw, 6-3", "Ana: 5-5"),
        dealt=ANA,
    )
    # Ben's 7 dealt tiles and his first draw hold no 6; the second draw was the 6-3
    assert [g[1] for g in know.groups[1]] == [8]
    assert not [t for t in know.may_hold("Ben") if 6 in t]
    know = from_log(
        Rules(top=6, starter_arms=2),
        ["Ana", "Ben"],
        Tile(6, 6),
        "Ana",
        moves("Ana: 6-5", "Ben: draw, pass", "Ana: 6-4", "Ben: draw, pass"),
        dealt=ANA,
    )
    # the second pass was in the open phase (ends 5 and 4): both draws saw no 5 or 4
    assert [g[1] for g in know.groups[1]] == [8, 1]
    excluded_first, excluded_second = (set(know.tables.tiles_of(g[0])) for g in know.groups[1])
    assert Tile(6, 1) in excluded_first and Tile(6, 1) not in excluded_second
    assert Tile(4, 1) in excluded_first and Tile(4, 1) in excluded_second


def test_playing_an_unseen_tile_uses_the_oldest_place_that_could_hold_it():
    know = from_log(
        Rules(top=6, starter_arms=2),
        ["Ana", "Ben"],
        Tile(6, 6),
        "Ana",
        moves("Ana: 6-5", "Ben: draw, pass", "Ana: 6-4", "Ben: 4-3"),
        dealt=ANA,
    )
    # 4-3 held no 6: it can be a dealt tile (the oldest group)
    assert [g[1] for g in know.groups[1]] == [7]
    know = from_log(
        Rules(top=6, starter_arms=2),
        ["Ana", "Ben"],
        Tile(6, 6),
        "Ana",
        moves(
            "Ana: 6-5", "Ben: draw, pass", "Ana: 6-4", "Ben: draw, pass", "Ana: 5-5", "Ben: 5-1"
        ),
        dealt=ANA,
    )
    # Ben held no 5 at his second pass and drew nothing since: the record contradicts
    # itself (another player's record can), and the newest place is dropped
    assert sum(g[1] for g in know.groups[1]) == 8


def test_public_log_hides_other_players_draws():
    log = moves("Ana: draw 2-1, pass", "Ben: draw 6-3, 6-3")
    assert [str(m) for m in public_log(log, "Ben")] == ["Ana: draw, pass", "Ben: draw 6-3, 6-3"]
    assert [str(m) for m in public_log(log, "Ana")] == ["Ana: draw 2-1, pass", "Ben: draw, 6-3"]


def test_the_truth_is_always_a_possible_deal():
    """Soundness: in simulated rounds, every hidden tile is where the seat thinks it may be."""
    rules = Rules(top=9)
    names = ["A", "B", "C", "D"]
    greedy = STRATEGIES["greedy"]
    checked = 0
    for seed in range(15):
        rng = random.Random(seed)
        dealt = deal_from(rng, rules, names, 1 + seed % 10)
        board = Round.dealt(rules, names, dealt.starter, dealt.hands)
        yard = list(dealt.chicken_yard)
        log: list[Move] = []
        from cf.notation import Action

        seat = seed % 4
        while not board.is_over:
            p = board.next_player or names[seat]
            view = view_of(board, p, public_log(log, p))
            know = from_view(view)
            for q in names:
                if q != p:
                    assert board.hands[q].known <= set(know.may_hold(q))
                    true = know.tables.mask(board.hands[q].known)
                    for _exclusion, count in know.groups[names.index(q)]:
                        assert count >= 0
                    assert true & ~know.known[names.index(q)] & know.table == 0
            checked += 1
            if view.playable:
                action = Action(play=board.orient(greedy(view, rng)))  # type: ignore[arg-type]
            elif board.drawable:
                t = yard.pop()
                action = Action(
                    play=board.orient(t) if board.fits(t) else None, drew=True, drawn=t
                )
            else:
                action = Action()
            board.apply(p, action)
            log.append(Move(p, action))
    assert checked > 300


# --- sampling -------------------------------------------------------------------------


def small_knowledge(groups: list[list[list[int]]], pool: list[Tile]) -> Knowledge:
    tables = Tables.get(6, 50)
    pool_mask = tables.mask(pool)
    others = tables.all & ~pool_mask
    mine = tables.mask(tables.tiles_of(others)[:3])
    return Knowledge(
        tables,
        Rules(top=6),
        ("me", "B", "C"),
        0,
        None,
        [mine, 0, 0],
        groups,  # type: ignore[arg-type]
        others & ~mine,
    )


def exact_distribution(know: Knowledge) -> Counter:
    """Every placement of the pool into the groups' places and the yard, by enumeration."""
    pool = bits(know.pool)
    places = [(i, g[0]) for i, gs in enumerate(know.groups) for g in gs for _ in range(g[1])]
    counts: Counter = Counter()
    for perm in itertools.permutations(pool):
        ok = all(not exclusion >> t & 1 for (i, exclusion), t in zip(places, perm, strict=False))
        if ok:
            hands = [0, 0, 0]
            for (i, _), t in zip(places, perm, strict=False):
                hands[i] |= 1 << t
            counts[(tuple(hands), tuple(perm[len(places) :]))] += 1
    return counts


def chi_square_ok(observed: Counter, expected: Counter, draws: int) -> bool:
    total = sum(expected.values())
    stat = 0.0
    for key, weight in expected.items():
        e = draws * weight / total
        stat += (observed.get(key, 0) - e) ** 2 / e
    df = len(expected) - 1
    # Wilson-Hilferty: the chi-square quantile for p = 0.0001 (z = 3.72)
    critical = df * (1 - 2 / (9 * df) + 3.72 * math.sqrt(2 / (9 * df))) ** 3
    return stat < critical


def sampled(know: Knowledge, draws: int) -> Counter:
    rng = random.Random(5)
    out: Counter = Counter()
    for _ in range(draws):
        hands, yard = know.sample(rng)
        out[(tuple(h & know.pool for h in hands), tuple(yard))] += 1
    return out


def test_the_sampler_is_uniform_over_consistent_deals():
    tables = Tables.get(6, 50)
    pool = parse_hand("5-4 5-3 4-2 3-1 2-0 1-1", 6)
    no5 = tables.mask(t for t in tables.tiles if 5 in t)
    no4 = tables.mask(t for t in tables.tiles if 4 in t)
    know = small_knowledge([[], [[no5, 2]], [[no4, 2]]], list(pool))
    expected = exact_distribution(know)
    assert len(expected) > 20
    assert set(expected.values()) == {4}  # 2! x 2! places per deal: each deal once
    observed = sampled(know, 30_000)
    assert set(observed) <= set(expected)
    assert chi_square_ok(observed, expected, 30_000)


def test_the_sampler_weighs_nested_groups_by_their_places():
    tables = Tables.get(6, 50)
    pool = parse_hand("5-4 5-3 4-2 3-1 2-0 1-1", 6)
    no5 = tables.mask(t for t in tables.tiles if 5 in t)
    no53 = no5 | tables.mask(t for t in tables.tiles if 3 in t)
    know = small_knowledge([[], [[no53, 1], [0, 1]], [[no5, 2]]], list(pool))
    expected = exact_distribution(know)
    observed = sampled(know, 30_000)
    assert set(observed) <= set(expected)
    assert chi_square_ok(observed, expected, 30_000)


def test_no_possible_deal_is_an_error():
    import pytest

    from cf.play.knowledge import KnowledgeError

    tables = Tables.get(6, 50)
    pool = parse_hand("5-4 5-3 4-2 3-1", 6)
    no5 = tables.mask(t for t in tables.tiles if 5 in t)
    know = small_knowledge([[], [[no5, 3]], [[0, 1]]], list(pool))
    with pytest.raises(KnowledgeError):
        know.sample(random.Random(0))
