"""Wrong types are `schema` problems (SPEC §5), said once: no problems that follow from them."""

# ruff: noqa: E501  (one game file per line reads best here)

from __future__ import annotations

import pytest
from conftest import codes, problems


@pytest.mark.parametrize(
    "source, expected",
    [
        # a round part that is not a mapping: nobody is then reported missing from it
        ("players: [A, B]\nrounds: [{hands: 5}]\n", [("schema", 1, None)]),
        ("players: [A, B]\nrounds: [{scores: [1, 2]}]\n", [("schema", 1, None)]),
        ("players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, deal: 5}]\n", [("schema", 1, None)]),
        # typos of required keys: the unknown key, not also the missing one
        ("player: [A, B]\nrounds: []\n", [("schema", None, None)]),
        ("players: [A, B]\nround: []\n", [("schema", None, None)]),
        ("players: [A, B]\nrounds: [{score: {A: 1, B: 2}}]\n", [("schema", 1, None)]),
        # no players list to compare names with: names elsewhere go unchecked
        ("players: A\nrounds: [{scores: {A: 1, B: 2}, moves: [{C: 9-9}]}]\n", [("schema", None, None)]),
        # values of the wrong type inside a round
        ("players: [A, B]\nrounds: [{starter: [9, 9], scores: {A: 1, B: 2}}]\n", [("schema", 1, None)]),
        ("players: [A, B]\nrounds: [{hands: {A: {x: 1}, B: ''}}]\n", [("schema", 1, None)]),
        ("players: [A, B]\nrounds: [{hands: {A: [[9-9]], B: ''}}]\n", [("schema", 1, None)]),
        # a move that is not a one-key mapping of a name to text
        ("players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: [5]}]\n", [("schema", 1, 1)]),
        ("players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: [{A: 9-8, B: 9-7}]}]\n", [("schema", 1, 1)]),
        ("players: [A, B]\nrounds: [{scores: {A: 1, B: 2}, moves: [{A: {tile: 9-8}}]}]\n", [("schema", 1, 1)]),
        # but any value of any type in set or rules is a rules problem (SPEC §2)
        ("players: [A, B]\nrules: 5\nrounds: []\n", [("rules", None, None)]),
        ("players: [A, B]\nrules: [1]\nrounds: []\n", [("rules", None, None)]),
        ("set: [9]\nplayers: [A, B]\nrounds: []\n", [("rules", None, None)]),
        # an empty players list is fewer than two players
        ("players:\nrounds: []\n", [("player", None, None)]),
    ],
)  # fmt: skip
def test_one_fault_one_problem(source, expected):
    assert codes(source) == expected


def test_round_count_message_counts_the_rounds_of_the_file():
    rounds = ", ".join(["{scores: {A: 1, B: 2}}"] * 9)
    found = problems(f"set: double-six\nplayers: [A, B]\nrounds: [{rounds}]\n")
    assert [(p.code, p.round) for p in found] == [("round-count", 8)]
    assert found[0].message.startswith("9 rounds")


def test_rounds_past_the_last_still_get_every_check_that_needs_no_replay():
    """SPEC 6: problems that need no replay are all reported, in a round past the last too
    (round-count at the first such round); such a round is never replayed (no
    `unfinished` for its log) nor scored."""
    rounds = "".join("  - scores: {A: 1, B: 2}\n" for _ in range(7))
    extra = (
        "  - scores: {A: 1}\n"  # round 8: B left out
        "  - scores: {A: 9999, B: 0}\n"  # round 9: no hand holds that much
        "  - deal: {A: 6-6 6-6, B: 5-5}\n"  # round 10: a tile dealt twice, B short
        "    moves:\n"
        "      - A: xx\n"  # not a move
        "      - B: 5-5\n"
    )
    found = problems(f"set: double-six\nplayers: [A, B]\nrounds:\n{rounds}{extra}")
    assert [(p.code, p.round, p.move) for p in found] == [
        ("round-count", 8, None),
        ("missing-score", 8, None),
        ("score-mismatch", 9, None),
        ("deal", 10, None),  # A: 2 tiles (6-6 twice counts twice), the deal is 7
        ("duplicate-tile", 10, None),
        ("deal", 10, None),
        ("notation", 10, 1),
    ]
    # It has no double of its own: nothing is checked against a guessed one (0-0 dealt or
    # held is no starter there); a score is bounded by the set less its cheapest double;
    # a recorded starter must be a double, and is then the round's.
    past = f"set: double-six\nplayers: [A, B]\nrounds:\n{rounds}"
    found = problems(past + "  - deal: {A: 0-0 1-1, B: 2-2 3-3}\n    hands: {A: 0-0, B: ''}\n")
    assert [(p.code, p.round) for p in found] == [("round-count", 8), ("deal", 8), ("deal", 8)]
    assert [p.code for p in problems(past + "  - scores: {A: 216, B: 0}\n")] == ["round-count"]
    found = problems(past + "  - scores: {A: 217, B: 0}\n")
    assert [p.code for p in found] == ["round-count", "score-mismatch"]
    assert "less its cheapest double 1-1 is worth 216" in found[1].message
    found = problems(past + "  - starter: 6-5\n    scores: {A: 1, B: 2}\n")
    assert [(p.code, p.round) for p in found] == [("round-count", 8), ("starter", 8)]
    found = problems(past + "  - starter: 6-6\n    hands: {A: 6-6, B: ''}\n")
    assert [(p.code, p.round) for p in found] == [("round-count", 8), ("duplicate-tile", 8)]
    # The same after a target is reached.
    target = "set: double-six\nrules: {target: 10}\nplayers: [A, B]\nrounds:\n"
    found = problems(target + "  - scores: {A: 10, B: 0}\n  - scores: {A: 1}\n")
    assert [(p.code, p.round) for p in found] == [("round-count", 2), ("missing-score", 2)]


def test_a_bad_score_names_its_player():
    """SPEC 6: the problem names the player involved, in its `player` field too."""
    for score in ("-3", "[3]", "!odd 3"):
        found = problems(f"players: [A, B, C]\nrounds: [{{scores: {{A: 1, B: 2, C: {score}}}}}]\n")
        assert [(p.code, p.player, p.round) for p in found] == [("schema", "C", 1)], score


@pytest.mark.parametrize("part", ["hands", "deal"])
@pytest.mark.parametrize(
    "value",
    ["{a: 1}", "[[3-3]]", "!odd 3-3", "[!odd 3-3]"],
)
def test_a_bad_hand_names_its_player(part, value):
    """SPEC 6: a hand (or dealt hand) that is no hand names whose it is in `player`."""
    found = problems(
        f"set: 6\nplayers: [A, B]\nrounds:\n  - {part}: {{A: {value}, B: 2-2}}\n"
        "    scores: {A: 0, B: 4}\n"
    )
    assert [(p.code, p.player) for p in found if p.code == "schema"] == [("schema", "A")]


@pytest.mark.parametrize("part", ["hands", "deal", "scores"])
def test_a_player_given_twice_is_named(part):
    value = "0" if part == "scores" else "2-2"
    scored = "" if part == "scores" else "    scores: {A: 0, B: 4}\n"
    found = problems(
        f"set: 6\nplayers: [A, B]\nrounds:\n  - {part}: {{A: {value}, B: {value}, B: {value}}}\n"
        + scored
    )
    dup = [(p.player, p.message) for p in found if "duplicate key" in p.message]
    assert dup == [("B", f"duplicate key 'B' in {part}")]
