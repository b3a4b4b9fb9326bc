"""Fuzzing with hypothesis (issue 6, item 6): arbitrary text, bytes and YAML structures
into the reader and the validator; arbitrary text into the tile and move notation;
arbitrary bytes on stdin for ``cf score``. Never an exception or a traceback; problems
with known codes; exit 0/1/2. (tests/test_fuzz.py holds the seeded hostile families.)
"""

from __future__ import annotations

import json

import yaml
from hardening_helpers import (
    FUZZ,
    check,
    small_game,
)
from hypothesis import given
from hypothesis import strategies as st

from cf.notation import format_action, parse_action
from cf.record.reader import ROUND_KEYS, TOP_KEYS
from cf.rules import RULE_KEYS
from cf.tiles import NotationError, Tile, parse_hand

# --- 5. fuzzing: the reader and the validator ---------------------------------------------


@FUZZ
@given(st.text())
def test_fuzz_reader_on_arbitrary_text(text):
    check(text)
    check(text.encode("utf-8", "surrogatepass"))


@FUZZ
@given(st.binary())
def test_fuzz_reader_on_arbitrary_bytes(data):
    check(data)


@FUZZ
@given(
    st.lists(
        st.sampled_from(
            [
                "players:",
                "rounds:",
                " - ",
                "- ",
                "{",
                "}",
                "[",
                "]",
                ": ",
                ", ",
                "\n",
                "  ",
                "&a ",
                "*a",
                "!!str ",
                "!!python/tuple ",
                "Ana",
                "Ben",
                "scores",
                "moves",
                "deal",
                "hands",
                "9-7",
                "draw",
                "pass",
                "033",
                "~",
                "'",
                '"',
                "#",
                "? ",
                "|\n",
                "<<: ",
            ]
        ),
        max_size=40,
    ).map("".join)
)
def test_fuzz_reader_on_yaml_like_text(text):
    check(text)


NAMES = ["Ana", "Ben", "No", "on", "1", "~", "José", "😀", "שלום"]
_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.sampled_from(
        [
            *NAMES,
            "033",
            "9-7",
            "7-9",
            "0-0",
            "10-3",
            "[9|7]",
            "draw, pass",
            "pass",
            "players",
            "draw 2-1, pass",
            "double-six",
            "d12",
            "9-7 6-6 4-1",
            "",
            "9" * 60,
        ]
    ),
)
_keys = st.one_of(
    st.sampled_from([*TOP_KEYS, *ROUND_KEYS, *RULE_KEYS, *NAMES]),
    st.text(max_size=8),
    st.integers(),
    st.booleans(),
)
_tree = st.recursive(
    _scalar,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(_keys, kids, max_size=4),
    max_leaves=20,
)
_name = st.sampled_from(NAMES)
_tile = st.builds(
    lambda a, b, brackets, sep: f"[{a}{sep}{b}]" if brackets else f"{a}{sep}{b}",
    st.integers(0, 13),
    st.integers(0, 13),
    st.booleans(),
    st.sampled_from("-|"),
)
_hand = st.one_of(st.lists(_tile, max_size=12).map(" ".join), st.lists(_tile, max_size=6), _tree)
_action = st.one_of(
    _tile,
    st.just("pass"),
    st.builds(lambda t, u: f"draw {t}, {u}", _tile, _tile | st.just("pass")),
    st.builds(lambda u: f"draw, {u}", _tile | st.just("pass")),
    st.text(alphabet="0123456789-|[] ,drawpsDRAWPS", max_size=15),
)
_round = st.fixed_dictionaries(
    {},
    optional={
        "starter": _tile | _tree,
        "deal": st.dictionaries(_name, _hand, max_size=4) | _tree,
        "moves": st.lists(
            st.dictionaries(_name, _action, min_size=1, max_size=1) | _tree, max_size=20
        )
        | _tree,
        "hands": st.dictionaries(_name, _hand, max_size=4) | _tree,
        "scores": st.dictionaries(
            _name, st.integers(0, 200) | st.sampled_from(["033", "1e3", "-1", "9" * 50]) | _tree
        )
        | _tree,
        "notes": _tree,
    },
)
_game = st.fixed_dictionaries(
    {},
    optional={
        "players": st.lists(_name, max_size=5) | _tree,
        "rounds": st.lists(_round, max_size=3) | _tree,
        "set": st.sampled_from(["double-six", "9", "d12", "double-15", "18", "nine"]) | _tree,
        "rules": st.fixed_dictionaries(
            {},
            optional={
                k: st.integers(-2, 30) | st.sampled_from(["players", "033"]) | _tree
                for k in RULE_KEYS
            },
        )
        | _tree,
        "title": _tree,
        "date": _tree,
        "extra": _tree,
    },
)


@FUZZ
@given(st.one_of(_game, _tree), st.booleans(), st.booleans())
def test_fuzz_reader_on_yaml_structures(value, unicode, flow):
    text = yaml.safe_dump(value, allow_unicode=unicode, default_flow_style=flow)
    check(text)
    check(text.encode())


@FUZZ
@given(st.lists(_action, min_size=1, max_size=60), st.sampled_from([2, 3, 4]))
def test_fuzz_replay_on_arbitrary_logs(actions, players):
    """Arbitrary (mostly well-formed) logs against a real deal: the replay never raises."""
    names = NAMES[:players]
    base = yaml.safe_load(small_game(names, rounds=1))
    rnd = base["rounds"][0]
    rnd["moves"] = [{names[i % players]: a} for i, a in enumerate(actions)]
    rnd.pop("hands")
    check(yaml.safe_dump(base, allow_unicode=True))


# --- 5. fuzzing: tile and move notation ------------------------------------------------------

_notation_text = st.one_of(
    st.text(),
    st.text(alphabet="0123456789-|[], \t\ndrawpasDRAWPAS\u0660\u00b2\uff13", max_size=30),
)
_tops = st.sampled_from([None, 6, 9, 12, 15, 18])


@FUZZ
@given(_notation_text, _tops)
def test_fuzz_notation_raises_only_notation_errors(text, top):
    for parse in (parse_hand, Tile.parse, parse_action):
        try:
            value = parse(text, top)
        except NotationError as exc:
            assert str(exc)
            continue
        if isinstance(value, Tile) and top is not None:
            assert value.high <= top
        if parse is parse_action:
            assert parse_action(format_action(value), top) == value  # type: ignore[arg-type]
        if parse is parse_hand:
            assert len(set(value)) == len(value)  # type: ignore[arg-type]


# --- 5. fuzzing: cf score -----------------------------------------------------------------


def _no_traceback(result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )


@FUZZ
@given(
    st.one_of(
        st.binary(max_size=400),
        st.lists(_tile | st.text(max_size=6), max_size=10).map(lambda ts: " ".join(ts).encode()),
    ),
    st.sampled_from([[], ["-f", "json"], ["--explain"], ["--set", "6"], ["--double-blank", "0"]]),
)
def test_fuzz_score_stdin(cli, data, options):
    result = cli("score", *options, input=data)
    assert result.exit_code in (0, 1), (result.exit_code, result.output)
    _no_traceback(result)
    if options == ["-f", "json"]:
        json.loads(result.stdout)


@FUZZ
@given(st.lists(_notation_text | _tile, max_size=5))
def test_fuzz_score_arguments(cli, args):
    result = cli("score", "--", *args)
    assert result.exit_code in (0, 1), (result.exit_code, result.output)
    _no_traceback(result)


@FUZZ
@given(st.binary(max_size=400))
def test_fuzz_validate_and_tally_stdin(cli, data):
    for command in ("validate", "tally"):
        result = cli(command, "-", input=data)
        assert result.exit_code in (0, 1), (command, result.exit_code, result.output)
        _no_traceback(result)
