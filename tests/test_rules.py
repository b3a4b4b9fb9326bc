"""House-rule options and deal tables (SPEC §2, §3)."""

from __future__ import annotations

import pytest

from cf.rules import Rules, RulesError

# SPEC §3, typed from the SPEC (not from cf.rules): set -> {players: tiles each}.
SPEC_TABLES = {
    6: {2: 7, 3: 7, 4: 5, 5: 4},
    9: {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5},
    12: {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 11, 8: 10, 9: 9, 10: 8, 11: 7, 12: 7},
    15: {
        2: 18,
        3: 18,
        4: 18,
        5: 15,
        6: 15,
        7: 13,
        8: 13,
        9: 11,
        10: 11,
        11: 10,
        12: 10,
        13: 9,
    },
}
NAMES = {6: "double-six", 9: "double-nine", 12: "double-twelve", 15: "double-fifteen"}
# The pool is the whole set less the starting double: (N+1)(N+2)/2 - 1.
POOL = {6: 27, 9: 54, 12: 90, 15: 135, 18: 189}

ROWS = [
    (top, players, each) for top, table in SPEC_TABLES.items() for players, each in table.items()
]


def spec_reserve(players: int) -> int:
    return 2 if players == 2 else 1


@pytest.mark.parametrize(("top", "players", "each"), ROWS)
def test_every_row_of_every_deal_table(top, players, each):
    rules = Rules(top=top)
    assert rules.tiles_each(players) == each
    row = rules.row(players)
    assert row.set == NAMES[top]
    assert row.players == players
    assert row.tiles_each == each
    assert row.yard == POOL[top] - players * each
    assert row.reserve == spec_reserve(players)
    assert row.as_dict() == {
        "set": NAMES[top],
        "players": players,
        "tiles_each": each,
        "yard": POOL[top] - players * each,
        "reserve": spec_reserve(players),
    }


@pytest.mark.parametrize("top", sorted(SPEC_TABLES))
def test_whole_table_has_exactly_the_spec_rows(top):
    rows = Rules(top=top).table()
    assert [(r.players, r.tiles_each) for r in rows] == sorted(SPEC_TABLES[top].items())
    assert all(r.yard == POOL[top] - r.players * r.tiles_each for r in rows)


@pytest.mark.parametrize(("top", "pool"), sorted(POOL.items()))
def test_pool_is_the_set_less_the_starting_double(top, pool):
    assert Rules(top=top).pool == pool


@pytest.mark.parametrize(
    ("top", "players"),
    [(6, 6), (6, 1), (9, 9), (9, 1), (12, 13), (15, 14), (15, 20)],
)
def test_player_count_outside_the_table_needs_an_explicit_deal(top, players):
    with pytest.raises(RulesError):
        Rules(top=top).tiles_each(players)
    with pytest.raises(RulesError):
        Rules(top=top).row(players)


@pytest.mark.parametrize(("top", "players", "deal"), [(6, 6, 3), (9, 9, 5), (15, 14, 8)])
def test_explicit_deal_covers_a_player_count_outside_the_table(top, players, deal):
    row = Rules(top=top, deal=deal).row(players)
    assert row.tiles_each == deal
    assert row.yard == POOL[top] - players * deal


@pytest.mark.parametrize("players", [0, 1, -3])
def test_fewer_than_two_players_is_never_allowed(players):
    with pytest.raises(RulesError):
        Rules().tiles_each(players)
    with pytest.raises(RulesError):
        Rules(deal=5).row(players)


def test_deal_option_overrides_the_table():
    rules = Rules(deal=5)
    assert rules.tiles_each(4) == 5
    row = rules.row(4)
    assert (row.tiles_each, row.yard, row.reserve) == (5, 54 - 20, 1)


def test_double_eighteen_has_no_table():
    rules = Rules(top=18)
    for players in (2, 4, 8, 12):
        with pytest.raises(RulesError):
            rules.tiles_each(players)
        with pytest.raises(RulesError):
            rules.row(players)
    assert rules.table() == []


def test_double_eighteen_with_a_deal():
    row = Rules(top=18, deal=10).row(4)
    assert row.set == "double-eighteen"
    assert (row.tiles_each, row.yard, row.reserve) == (10, 189 - 40, 1)


# --- reserve ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "reserve"), [(2, 2), (3, 1), (4, 1), (5, 1), (8, 1)])
def test_default_reserve_is_two_with_two_players_else_one(players, reserve):
    assert Rules().reserve_for(players) == reserve
    assert Rules().row(players).reserve == reserve


@pytest.mark.parametrize("reserve", [0, 1, 3, 7])
def test_reserve_option_overrides(reserve):
    rules = Rules(reserve=reserve)
    assert rules.reserve_for(2) == reserve
    assert rules.reserve_for(5) == reserve
    assert rules.row(4).reserve == reserve


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({"deal": 27}, 2),  # 54 - 54 = 0 < 2
        ({"deal": 14}, 4),  # 54 - 56 < 0
        ({"deal": 26, "reserve": 3}, 2),  # 54 - 52 = 2 < 3
        ({"deal": 13, "reserve": 3}, 4),  # 54 - 52 = 2 < 3
        ({"top": 6, "deal": 9}, 3),  # 27 - 27 = 0 < 1
        ({"top": 12, "reserve": 61}, 2),  # 90 - 30 = 60 < 61
        ({"top": 18, "deal": 94}, 2),  # 189 - 188 = 1 < 2
    ],
)
def test_deal_leaving_fewer_than_reserve_is_refused(options, players):
    with pytest.raises(RulesError):
        Rules(**options).row(players)


def test_a_deal_bigger_than_the_set_says_so_not_a_yard_of_0():
    with pytest.raises(RulesError) as raised:
        Rules(top=6, deal=14, reserve=0).row(2)
    assert str(raised.value) == (
        "dealing 14 tiles to 2 players needs 28 tiles: "
        "double-six has only 27 besides the starting double"
    )
    with pytest.raises(RulesError) as raised:
        Rules(deal=27).row(2)
    assert "leaves 0 in the chicken yard of double-nine, fewer than the reserve of 2" in str(
        raised.value
    )


@pytest.mark.parametrize(
    ("options", "players", "yard"),
    [
        ({"deal": 26}, 2, 2),  # exactly the reserve of 2
        ({"deal": 13}, 4, 2),
        ({"deal": 27, "reserve": 0}, 2, 0),
        ({"top": 6, "deal": 8}, 3, 3),
        ({"top": 12, "reserve": 60}, 2, 60),
    ],
)
def test_deal_leaving_exactly_the_reserve_is_allowed(options, players, yard):
    assert Rules(**options).row(players).yard == yard


def test_table_with_a_deal_option_drops_rows_that_cannot_be_dealt():
    rows = Rules(deal=10).table()
    # 54 - 5*10 = 4 >= 1, 54 - 6*10 < 0: rows for 2..5 players only
    assert [r.players for r in rows] == [2, 3, 4, 5]
    assert all(r.tiles_each == 10 and r.yard >= r.reserve for r in rows)


# --- option validation --------------------------------------------------------------------


def test_defaults():
    rules = Rules()
    assert rules.top == 9
    assert rules.set_name == "double-nine"
    assert rules.starter_arms == 4
    assert rules.double_blank == 50
    assert rules.arms_for(4) == 4


@pytest.mark.parametrize(
    ("top", "arms"), [(9, 2), (9, 3), (9, 9), (6, 6), (18, 18), (9, "players")]
)
def test_starter_arms_allowed(top, arms):
    assert Rules(top=top, starter_arms=arms).starter_arms == arms


@pytest.mark.parametrize(
    ("top", "arms"),
    [
        (9, 1),
        (9, 0),
        (9, -4),
        (9, 10),
        (6, 7),
        (12, 13),
        (9, "4"),
        (9, 4.0),
        (9, True),
        (9, None),
        (9, "player"),
        (9, "all"),
        (9, [4]),
    ],
)
def test_starter_arms_rejected(top, arms):
    with pytest.raises(RulesError):
        Rules(top=top, starter_arms=arms)


def test_starter_arms_players_gives_one_arm_per_player():
    rules = Rules(starter_arms="players")
    assert rules.arms_for(2) == 2
    assert rules.arms_for(5) == 5
    assert Rules(starter_arms=3).arms_for(6) == 3


def test_starter_arms_players_cannot_exceed_the_set():
    # 'players' means one arm per player, but arms are 2..N: 10 players in double-nine can't
    with pytest.raises(RulesError):
        Rules(starter_arms="players", deal=4).arms_for(10)


@pytest.mark.parametrize("value", [0, 25, 50, 1000])
def test_double_blank_allowed(value):
    assert Rules(double_blank=value).double_blank == value


@pytest.mark.parametrize("value", [-1, "50", 50.0, True, None, [50]])
def test_double_blank_rejected(value):
    with pytest.raises(RulesError):
        Rules(double_blank=value)


@pytest.mark.parametrize("value", [1, 5, 21])
def test_deal_allowed(value):
    assert Rules(deal=value).deal == value


@pytest.mark.parametrize("value", [0, -1, "5", 5.0, 5.5, True, False, [5]])
def test_deal_rejected(value):
    with pytest.raises(RulesError):
        Rules(deal=value)


@pytest.mark.parametrize("value", [0, 1, 2, 10])
def test_reserve_allowed(value):
    assert Rules(reserve=value).reserve == value


@pytest.mark.parametrize("value", [-1, "1", 1.0, False, True, [1]])
def test_reserve_rejected(value):
    with pytest.raises(RulesError):
        Rules(reserve=value)


@pytest.mark.parametrize("top", [0, 5, 7, 10, 19, -9])
def test_unknown_set_is_a_rules_error(top):
    with pytest.raises(RulesError):
        Rules(top=top)


def test_rules_error_is_the_rules_code():
    assert RulesError.code == "rules"
    assert issubclass(RulesError, ValueError)


# --- house rules: draw, out_on_double, target -------------------------------------------


def test_house_rule_defaults():
    rules = Rules()
    assert (rules.draw, rules.out_on_double, rules.target) == ("one", 0, None)


@pytest.mark.parametrize("value", ["one", "one-may", "until"])
def test_draw_allowed(value):
    assert Rules(draw=value).draw == value


@pytest.mark.parametrize("value", ["", "One", "twice", "one_may", 1, None, True, ["one"]])
def test_draw_rejected(value):
    with pytest.raises(RulesError):
        Rules(draw=value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0, 25, 50])
def test_out_on_double_allowed(value):
    assert Rules(out_on_double=value).out_on_double == value


@pytest.mark.parametrize("value", [-1, "50", 50.0, True, None])
def test_out_on_double_rejected(value):
    with pytest.raises(RulesError):
        Rules(out_on_double=value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0, -5, "100", 100.0, False])
def test_target_rejected(value):
    with pytest.raises(RulesError):
        Rules(target=value)  # type: ignore[arg-type]


def test_with_a_target_rounds_is_a_maximum_of_any_size():
    assert Rules(top=6, target=100, rounds=30).rounds_in_game == 30
    assert Rules(top=6, target=100).rounds_in_game is None
    with pytest.raises(RulesError):
        Rules(top=6, rounds=8)  # without a target: 1 to N+1
    with pytest.raises(RulesError):
        Rules(top=6, target=100, rounds=0)


def test_starting_doubles_cycle_in_a_target_game():
    rules = Rules(top=9, target=150)
    assert [rules.starter_number(k) for k in (1, 2, 10, 11, 12, 21)] == [9, 8, 0, 9, 8, 9]


def test_game_over_at_the_target_or_the_last_round():
    assert not Rules(top=6, target=100).game_over([99, 12], 20)
    assert Rules(top=6, target=100).game_over([100, 12], 2)
    assert Rules(top=6, target=100, rounds=3).game_over([1, 2], 3)
    assert Rules(top=6).game_over([500, 900], 7) and not Rules(top=6).game_over([500], 6)
