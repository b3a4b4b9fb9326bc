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
        "draw 9-7, foo",
        "9-x",
        "draws 9-7",
        "passes",
        "9",
        "10-x",
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
    play = draw(st.one_of(st.none(), oriented))
    return top, Action(play=play, drew=drew, drawn=drawn)


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
    if not action.drew:
        text = end_text
    elif action.drawn is None:
        text = _write_word(data, "draw") + data.draw(sep) + end_text
    else:
        text = (
            _write_word(data, "draw")
            + data.draw(st.sampled_from([" ", "  ", "\t"]))
            + _write_tile(data, *action.drawn)
            + data.draw(sep)
            + end_text
        )
    assert parse_action(text, top) == action
    assert parse_action(format_action(parse_action(text, top)), top) == action
