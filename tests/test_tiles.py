"""Tiles, sets, hands and points (SPEC §1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cf.notation import Action, MoveNotationError, parse_action
from cf.tiles import (
    DominoSet,
    DuplicateTileError,
    NotationError,
    SetNameError,
    Tile,
    TileError,
    format_hand,
    hand_points,
    parse_hand,
    parse_set_name,
)

# The sets of SPEC §1, typed from the SPEC: (highest pip, canonical name, number word).
SETS = [
    (6, "double-six", "six"),
    (9, "double-nine", "nine"),
    (12, "double-twelve", "twelve"),
    (15, "double-fifteen", "fifteen"),
    (18, "double-eighteen", "eighteen"),
]
TOPS = [top for top, _, _ in SETS]


def written_forms(a: int, b: int) -> list[str]:
    """The four ways SPEC §1 lets a tile be written, in the order given."""
    return [f"{a}-{b}", f"{a}|{b}", f"[{a}-{b}]", f"[{a}|{b}]"]


@st.composite
def set_and_tile(draw):
    top = draw(st.sampled_from(TOPS))
    a = draw(st.integers(0, top))
    b = draw(st.integers(0, top))
    return top, a, b


@st.composite
def set_and_hand(draw):
    top = draw(st.sampled_from(TOPS))
    tiles = DominoSet(top).tiles()
    hand = draw(st.lists(st.sampled_from(tiles), unique=True, max_size=len(tiles)))
    return top, tuple(hand)


# --- single tiles -----------------------------------------------------------------------


@pytest.mark.parametrize("text", [*written_forms(9, 7), *written_forms(7, 9)])
def test_every_written_form_in_either_order_is_the_same_tile(text):
    tile = Tile.parse(text)
    assert tile == Tile.parse("9-7")
    assert (tile.high, tile.low) == (9, 7)
    assert str(tile) == "9-7"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("9-7", "9-7"),
        ("7-9", "9-7"),
        ("[6|6]", "6-6"),
        ("1|4", "4-1"),
        ("[0-0]", "0-0"),
        ("[3|0]", "3-0"),
        ("0|3", "3-0"),
        ("[12-15]", "15-12"),
    ],
)
def test_canonical_text_is_high_first(text, canonical):
    assert str(Tile.parse(text)) == canonical
    assert Tile.parse(canonical) == Tile.parse(text)


def test_tile_parse_ignores_surrounding_whitespace():
    assert Tile.parse("  [9|7] ") == Tile.parse("9-7")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "9",
        "9-",
        "-7",
        "9--7",
        "9_7",
        "9/7",
        "9 - 7",
        "a-b",
        "9-x",
        "[9-7",
        "9-7]",
        "[[9-7]]",
        "(9-7)",
        "9-7-1",
        "-1-3",
        "9.0-7",
        "٣-١",  # Arabic-Indic digits are not decimal pips here
        "９-７",  # full-width digits neither
    ],
)
def test_tile_parse_rejects_bad_text(text):
    with pytest.raises(TileError):
        Tile.parse(text)


@pytest.mark.parametrize("top", TOPS)
def test_tile_parse_rejects_a_pip_above_the_set(top):
    assert Tile.parse(f"{top}-{top}", top) == Tile(top, top)
    with pytest.raises(TileError):
        Tile.parse(f"{top + 1}-0", top)
    with pytest.raises(TileError):
        Tile.parse(f"[0|{top + 1}]", top)


def test_double_and_pips():
    assert Tile.parse("6-6").is_double
    assert not Tile.parse("6-5").is_double
    assert Tile.parse("9-7").pips == 16


@given(set_and_tile())
def test_str_then_parse_is_the_same_tile(case):
    top, a, b = case
    tile = Tile.of(a, b)
    assert Tile.parse(str(tile), top) == tile
    assert str(tile) == f"{max(a, b)}-{min(a, b)}"
    assert tile in DominoSet(top)


@given(set_and_tile())
def test_all_written_forms_in_either_order_agree(case):
    top, a, b = case
    expected = Tile.of(a, b)
    for text in [*written_forms(a, b), *written_forms(b, a)]:
        assert Tile.parse(text, top) == expected


# --- sets -------------------------------------------------------------------------------


@pytest.mark.parametrize(("top", "canonical", "word"), SETS)
def test_every_set_by_every_name_form(top, canonical, word):
    forms = [canonical, f"double-{word}", f"double-{top}", f"d{top}", str(top)]
    for name in forms:
        assert parse_set_name(name) == top, name
        assert DominoSet.named(name).name == canonical


@pytest.mark.parametrize(
    "name",
    [
        "",
        "double-seven",
        "double-7",
        "d7",
        "7",
        "0",
        "10",
        "double-ten",
        "double-",
        "double",
        "d",
        "nine",
        "double nine",
        "dd9",
        "d-9",
        "9.0",
        "-9",
        "double-nine-x",
        "twelve",
    ],
)
def test_unknown_set_names_are_rejected(name):
    with pytest.raises(SetNameError):
        parse_set_name(name)
    assert issubclass(SetNameError, ValueError)


@pytest.mark.parametrize(("top", "size"), [(6, 28), (9, 55), (12, 91), (15, 136), (18, 190)])
def test_set_sizes(top, size):
    domino_set = DominoSet(top)
    assert size == (top + 1) * (top + 2) // 2
    assert domino_set.size == size
    tiles = domino_set.tiles()
    assert len(tiles) == size
    assert len(set(tiles)) == size
    assert all(0 <= t.low <= t.high <= top for t in tiles)
    assert Tile(top, top) in domino_set
    assert Tile(top + 1, 0) not in domino_set


@pytest.mark.parametrize(
    ("top", "round_number", "starter"),
    [(9, 1, "9-9"), (9, 2, "8-8"), (9, 10, "0-0"), (6, 1, "6-6"), (6, 7, "0-0"), (12, 4, "9-9")],
)
def test_round_starter_is_the_round_double(top, round_number, starter):
    assert str(DominoSet(top).starter(round_number)) == starter


# --- hands ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "9-7 6-6 4-1",
        "9-7,6-6,4-1",
        "9-7, 6-6, 4-1",
        "  9-7\t6-6\n4-1  ",
        "[9|7] [6|6] [1|4]",
        "[9-7],[6|6],1-4",
        "7-9 , , 6|6 4-1,",
    ],
)
def test_hand_separators_and_forms(text):
    assert parse_hand(text) == (Tile(9, 7), Tile(6, 6), Tile(4, 1))
    assert format_hand(parse_hand(text)) == "9-7 6-6 4-1"


@pytest.mark.parametrize("text", ["", "   ", ",", " , ,\n"])
def test_empty_text_is_the_empty_hand(text):
    assert parse_hand(text) == ()
    assert hand_points(parse_hand(text)) == 0


@given(set_and_hand())
def test_format_then_parse_hand_round_trips(case):
    top, hand = case
    assert parse_hand(format_hand(hand), top) == hand


@given(set_and_hand(), st.data())
def test_hand_in_any_written_forms_and_separators(case, data):
    top, hand = case
    tokens = []
    for tile in hand:
        a, b = data.draw(st.permutations([tile.high, tile.low]))
        tokens.append(data.draw(st.sampled_from(written_forms(a, b))))
    seps = st.sampled_from([" ", ",", ", ", " ,", "\t", "\n", "  ,  "])
    text = "".join(token + data.draw(seps) for token in tokens)
    assert parse_hand(text, top) == hand


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("9-7 x 4-1", "x"),
        ("9-7 6-6 9-", "9-"),
        ("foo bar", "foo"),
        ("9-7,[6-6", "[6-6"),
    ],
)
def test_bad_text_in_a_hand_names_the_token(text, token):
    with pytest.raises(TileError) as info:
        parse_hand(text)
    assert info.value.token == token
    assert token in str(info.value)
    assert not isinstance(info.value, DuplicateTileError)


@pytest.mark.parametrize(
    ("text", "top", "token", "set_name"),
    [
        ("9-7 10-3", 9, "10-3", "double-nine"),
        ("6-6 [7|1]", 6, "[7|1]", "double-six"),
        ("13-0", 12, "13-0", "double-twelve"),
    ],
)
def test_pip_above_the_set_names_the_token_and_the_set(text, top, token, set_name):
    with pytest.raises(TileError) as info:
        parse_hand(text, top)
    assert info.value.token == token
    assert token in str(info.value)
    assert set_name in str(info.value)


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("9-7 7-9", "7-9"),
        ("9-7 6-6 [9|7]", "[9|7]"),
        ("0-0,0-0", "0-0"),
        ("1-2 3-4 2|1 4-3", "2|1"),
    ],
)
def test_repeated_tile_in_a_hand_names_the_token(text, token):
    with pytest.raises(DuplicateTileError) as info:
        parse_hand(text)
    assert info.value.token == token
    message = str(info.value)
    assert token in message or str(Tile.parse(token)) in message


def test_hand_error_classes_carry_spec_codes():
    assert TileError.code == "tile"
    assert DuplicateTileError.code == "duplicate-tile"
    assert issubclass(TileError, ValueError)
    assert issubclass(DuplicateTileError, ValueError)


# --- points -----------------------------------------------------------------------------


def test_rule_sheet_example_is_33():
    hand = parse_hand("9-7 6-6 4-1")
    assert [t.points() for t in hand] == [16, 12, 5]
    assert hand_points(hand) == 33


@pytest.mark.parametrize(
    ("double_blank", "blank_alone", "with_9_7"), [(50, 50, 66), (25, 25, 41), (0, 0, 16)]
)
def test_double_blank_points(double_blank, blank_alone, with_9_7):
    assert hand_points(parse_hand("0-0"), double_blank) == blank_alone
    assert hand_points(parse_hand("9-7 0-0"), double_blank) == with_9_7
    # only the double blank is special: other blanks count their pips
    assert hand_points(parse_hand("3-0 1-0"), double_blank) == 4


def test_double_blank_default_is_50():
    assert hand_points(parse_hand("0-0")) == 50
    assert Tile(0, 0).points() == 50


@given(set_and_hand(), st.integers(0, 1000))
def test_points_are_the_pip_sum_except_the_double_blank(case, double_blank):
    _, hand = case
    expected = sum(double_blank if (t.high, t.low) == (0, 0) else t.high + t.low for t in hand)
    assert hand_points(hand, double_blank) == expected


# --- arbitrary text never crashes ---------------------------------------------------------

_TEXT = st.one_of(
    st.text(),
    st.text(alphabet="0123456789-|[], \t\nxdrawpsDRAWPS"),
)


@given(_TEXT, st.sampled_from([None, *TOPS]))
def test_tile_parse_of_any_text_parses_or_raises_tile_error(text, top):
    try:
        tile = Tile.parse(text, top)
    except TileError:
        return
    assert isinstance(tile, Tile)
    if top is not None:
        assert tile in DominoSet(top)


@given(_TEXT, st.sampled_from(TOPS))
def test_parse_hand_of_any_text_parses_or_raises_a_hand_error(text, top):
    try:
        hand = parse_hand(text, top)
    except (TileError, DuplicateTileError):
        return
    assert len(set(hand)) == len(hand)
    assert all(t in DominoSet(top) for t in hand)


@given(_TEXT, st.sampled_from(TOPS))
def test_parse_action_of_any_text_parses_or_raises_a_notation_error(text, top):
    try:
        action = parse_action(text, top)
    except (MoveNotationError, TileError) as exc:
        assert isinstance(exc, NotationError)
        assert isinstance(exc, ValueError)
        return
    assert isinstance(action, Action)
