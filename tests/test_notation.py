"""Move notation (SPEC §5): ``TILE`` | ``draw [TILE], TILE`` | ``draw [TILE], pass`` | ``pass``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cf.notation import Action, MoveNotationError, format_action, parse_action
from cf.tiles import Tile, TileError


@pytest.mark.parametrize(
    ("text", "play", "drew", "drawn"),
    [
        # TILE: a play, read near-far as written
        ("9-7", (9, 7), False, None),
        ("4-7", (4, 7), False, None),
        ("[4|7]", (4, 7), False, None),
        ("[7-4]", (7, 4), False, None),
        ("0|0", (0, 0), False, None),
        # draw TILE, TILE
        ("draw 7-5, 7-5", (7, 5), True, (7, 5)),
        ("draw 7-5, 5-7", (5, 7), True, (7, 5)),
        ("draw [2|1], [1|2]", (1, 2), True, (2, 1)),
        # draw TILE, pass
        ("draw 2-1, pass", None, True, (2, 1)),
        # draw, pass (unnamed draw)
        ("draw, pass", None, True, None),
        # draw, TILE (unnamed draw, then the drawn tile is played)
        ("draw, 3-1", (3, 1), True, None),
        # pass
        ("pass", None, False, None),
    ],
)
def test_every_move_form(text, play, drew, drawn):
    action = parse_action(text)
    assert action == Action(play=play, drew=drew, drawn=drawn)
    assert action.is_pass == (play is None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PASS", Action()),
        ("Pass", Action()),
        ("pAsS", Action()),
        ("DRAW, PASS", Action(drew=True)),
        ("Draw 2-1, Pass", Action(drew=True, drawn=(2, 1))),
        ("dRaW, 9-7", Action(play=(9, 7), drew=True)),
    ],
)
def test_keywords_are_case_insensitive(text, expected):
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("draw 2-1 pass", Action(drew=True, drawn=(2, 1))),
        ("draw pass", Action(drew=True)),
        ("draw  9-7   9-7", Action(play=(9, 7), drew=True, drawn=(9, 7))),
        ("draw,pass", Action(drew=True)),
        ("draw 2-1,pass", Action(drew=True, drawn=(2, 1))),
        ("draw\t2-1\tpass", Action(drew=True, drawn=(2, 1))),
        ("  draw 2-1 ,  pass  ", Action(drew=True, drawn=(2, 1))),
        ("draw 3-1", Action(play=(3, 1), drew=True)),
    ],
)
def test_the_comma_may_be_spaces(text, expected):
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    ("text", "draws", "play"),
    [
        ("draw 5-4, draw 2-1, draw 6-6, 6-6", ((5, 4), (2, 1), (6, 6)), (6, 6)),
        ("draw, draw, pass", (None, None), None),
        # a tile right after `draw` names the drawn tile only when another item follows
        ("draw 5-4 draw 2-1", ((5, 4), None), (2, 1)),
        ("Draw 5-4 DRAW, pass", ((5, 4), None), None),
        ("draw, draw 3-1, 1-3", (None, (3, 1)), (1, 3)),
    ],
)
def test_several_draws_in_one_turn(text, draws, play):
    action = parse_action(text)
    assert (action.draws, action.play, action.draw_count) == (draws, play, len(draws))
    assert parse_action(format_action(action)) == action


def test_several_draws_are_written_each_with_its_own_draw():
    action = parse_action("draw 5-4 draw 2-1 draw 6-6 6-6")
    assert format_action(action) == "draw 5-4, draw 2-1, draw 6-6, 6-6"
    assert format_action(parse_action("draw draw pass")) == "draw, draw, pass"


def test_played_and_drawn_tiles():
    action = parse_action("draw 2-1, 1-2")
    assert action.drawn_tile == Tile(2, 1)
    assert action.played_tile == Tile(2, 1)
    assert parse_action("pass").played_tile is None
    assert parse_action("draw, pass").drawn_tile is None


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("9-7", "9-7"),
        ("[4|7]", "4-7"),
        ("PASS", "pass"),
        ("Draw [2|1] Pass", "draw 2-1, pass"),
        ("draw,pass", "draw, pass"),
        ("DRAW 3|1 ,1-3", "draw 3-1, 1-3"),
        ("draw 3-1", "draw, 3-1"),
    ],
)
def test_format_is_canonical_and_keeps_orientation(text, canonical):
    assert format_action(parse_action(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        ",",
        "foo",
        "draw",
        "DRAW",
        "pass pass",
        "pass, 9-7",
        "9-7 pass",
        "9-7, 6-6",
        "play 9-7",
        "draw 9-7, 6-6, pass",
        "draw draw",
        "draw pass, pass",
        "draw 9-7, draw",
        "draw 9-7 draw",
        "draw, draw",
        "draw 9-7, 6-6, draw 5-4, pass",
        "draw 9-7 6-6 pass",
        "pass, draw, pass",
        "draw 9-7, foo",
        "9-x",
        "draws 9-7",
        "passes",
        "9",
        "10-x",
        # a comma with no item on one side: no form has one (a hand may)
        "6-4,",
        ",6-4",
        " , 6-4",
        "draw,,5-4",
        "draw 5-4 ,, 5-4",
        "draw 5-4, 5-4,",
        "pass,",
        "10-3,",
    ],
)
def test_text_that_is_no_move_form_is_notation(text):
    with pytest.raises(MoveNotationError) as info:
        parse_action(text)
    assert info.value.code == "notation"


@pytest.mark.parametrize(
    ("text", "top", "token"),
    [
        ("10-3", 9, "10-3"),
        ("[10|3]", 9, "[10|3]"),
        ("draw 10-3, pass", 9, "10-3"),
        ("draw, 3-10", 9, "3-10"),
        ("draw 9-7, 12-0", 9, "12-0"),
        ("7-0", 6, "7-0"),
        ("16-16", 15, "16-16"),
    ],
)
def test_tile_shaped_token_outside_the_set_is_a_tile_error(text, top, token):
    with pytest.raises(TileError) as info:
        parse_action(text, top)
    assert not isinstance(info.value, MoveNotationError)
    assert info.value.code == "tile"
    assert token in str(info.value)


@pytest.mark.parametrize("text", ["[9-7", "9-7]", "draw [2|1, pass"])
def test_half_bracketed_tile_is_refused(text):
    # SPEC §5 and §6 leave open whether this is bad tile text (`tile`) or no move (`notation`)
    with pytest.raises((TileError, MoveNotationError)):
        parse_action(text)


def test_set_bounds_the_tiles():
    assert parse_action("12-0", 12) == Action(play=(12, 0))
    assert parse_action("draw 18-18, pass", 18) == Action(drew=True, drawn=(18, 18))


# --- round trip ---------------------------------------------------------------------------

TOPS = [6, 9, 12, 15, 18]


@st.composite
def set_and_action(draw):
    top = draw(st.sampled_from(TOPS))
    pip = st.integers(0, top)
    oriented = st.tuples(pip, pip)
    drew = draw(st.booleans())
    drawn = draw(st.one_of(st.none(), oriented)) if drew else None
    # Several draws in one turn (draw: until): the ones before the last.
    earlier = tuple(draw(st.lists(st.one_of(st.none(), oriented), max_size=3))) if drew else ()
    play = draw(st.one_of(st.none(), oriented))
    return top, Action(play=play, drew=drew, drawn=drawn, earlier=earlier)


@given(set_and_action())
def test_format_then_parse_round_trips(case):
    top, action = case
    text = format_action(action)
    assert parse_action(text, top) == action
    assert format_action(parse_action(text, top)) == text


def _write_tile(data, a: int, b: int) -> str:
    return data.draw(st.sampled_from([f"{a}-{b}", f"{a}|{b}", f"[{a}-{b}]", f"[{a}|{b}]"]))


def _write_word(data, word: str) -> str:
    flips = data.draw(st.lists(st.booleans(), min_size=len(word), max_size=len(word)))
    return "".join(c.upper() if up else c for c, up in zip(word, flips, strict=True))


@given(set_and_action(), st.data())
def test_any_way_of_writing_an_action_parses_to_it(case, data):
    top, action = case
    end = "pass" if action.play is None else None
    end_text = _write_word(data, end) if end else _write_tile(data, *action.play)
    sep = st.sampled_from([", ", ",", " ", "  ", " , ", "\t"])
    text = ""
    for drawn in action.draws:
        text += _write_word(data, "draw")
        if drawn is not None:
            text += data.draw(st.sampled_from([" ", "  ", "\t"])) + _write_tile(data, *drawn)
        text += data.draw(sep)
    text += end_text
    assert parse_action(text, top) == action
    assert parse_action(format_action(parse_action(text, top)), top) == action
