"""cf.record.edit: rounds spliced into a file's text, every other byte kept (SPEC §8)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cf.record.check import validate
from cf.record.edit import EditError, add_round, remove_last_round
from cf.record.reader import read_game
from cf.tiles import parse_hand

EXAMPLES = Path(__file__).parent.parent / "examples"

SCORES = {"scores": {"Ana": 3, "Ben": 0}, "comment": "Ana: 2-1"}
HANDS = {"hands": {"Ana": "", "Ben": "5-5 1-0"}}

#: Hand-written files in the styles people use, each a valid game of players Ana and Ben.
STYLES = {
    "block, comments, blank lines": (
        "# Friday at home\n"
        "title: 'Friday'   # quoted title\n"
        "\n"
        "players: [Ana, Ben]\n"
        "rules:\n"
        "  double_blank: 25\n"
        "rounds:\n"
        "  # the first round was quick\n"
        "  - scores: {Ana: 0, Ben: 12}   # Ben kept 6-6\n"
        "\n"
        "  - scores:\n"
        "      Ana: 7\n"
        '      "Ben": 0\n'
        "    notes: |\n"
        "      Ben went out\n"
        "      on a double.\n"
        "\n"
        "# end of the sheet\n"
    ),
    "indentless sequence, key after rounds": (
        "players:\n- Ana\n- Ben\nrounds:\n- hands: {Ana: '4-1', Ben: \"\"}\n"
        "- scores: {Ana: 2, Ben: 0}\nnotes: rounds come first here\n"
    ),
    "flow rounds": (
        "players: [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 0}}, {scores: {Ana: 0, Ben: 4}}]\n"
    ),
    "multi-line flow rounds": (
        "players: [Ana, Ben]\nrounds: [\n  {scores: {Ana: 1, Ben: 0}},\n"
        "  {scores: {Ana: 0, Ben: 4}}\n]  # x\n"
    ),
    "flow root": "{players: [Ana, Ben], rounds: [{scores: {Ana: 1, Ben: 0}}]}\n",
    "empty flow rounds with a comment": (
        "players: [Ana, Ben]\nrounds: []   # none yet\nnotes: hi\n"
    ),
    "wide dash gap": "players: [Ana, Ben]\nrounds:\n    -   scores: {Ana: 1, Ben: 0}\n",
    "no newline at the end": "players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 1, Ben: 0}",
    "CRLF": "players: [Ana, Ben]\r\nrounds:\r\n  - scores: {Ana: 1, Ben: 0}  # c\r\n\r\n# end\r\n",
    "BOM and CRLF": "\ufeffplayers: [Ana, Ben]\r\nrounds:\r\n  - scores: {Ana: 1, Ben: 0}\r\n",
    "BOM, empty rounds": "\ufeffplayers: [Ana, Ben]\nrounds: []\n",
}


def read(text: str):
    return read_game(text.encode("utf-8"), "g.yaml")


def changed(old: str, new: str) -> tuple[int, int, str]:
    """Where ``new`` differs from ``old``: the span [start, end) of ``old`` that was
    replaced (past the common prefix and suffix) and the text put there."""
    p = 0
    while p < min(len(old), len(new)) and old[p] == new[p]:
        p += 1
    s = 0
    while s < min(len(old), len(new)) - p and old[-1 - s] == new[-1 - s]:
        s += 1
    return p, len(old) - s, new[p : len(new) - s]


def spliced(old: str, new: str) -> tuple[str, str]:
    """The part of ``old`` and of ``new`` between their common prefix and suffix."""
    start, end, put = changed(old, new)
    return old[start:end], put


def offset(text: str, line: int, column: int) -> int:
    """The index in ``text`` (a BOM counts) of a 1-based line and column."""
    lines = text.split("\n")
    bom = 1 if text.startswith("\ufeff") else 0
    return sum(len(x) + 1 for x in lines[: line - 1]) + column - 1 + (bom if line == 1 else 0)


def round_span(text: str, number: int) -> tuple[int, int]:
    """Index of where round ``number`` begins, and of where the next round begins (or, for
    the last round, the end of the text)."""
    rounds = read(text).rounds
    start = offset(text, rounds[number - 1].pos.line, rounds[number - 1].pos.column)
    if number < len(rounds):
        nxt = rounds[number].pos
        return start, offset(text, nxt.line, nxt.column)
    return start, len(text)


@pytest.mark.parametrize("style", sorted(STYLES))
@pytest.mark.parametrize("data", [SCORES, HANDS], ids=["scores", "hands"])
def test_add_then_undo_gives_back_every_byte(style, data):
    text = STYLES[style]
    assert validate(read(text)).valid
    added = add_round(text, data)
    game = read(added)
    assert validate(game).valid, validate(game).problems
    assert len(game.rounds) == len(read(text).rounds) + 1
    last = game.rounds[-1]
    if "scores" in data:
        assert {p: v for p, (v, _) in last.scores.items()} == data["scores"]
    else:
        assert {p: h.tiles for p, h in last.hands.items()} == {
            "Ana": (),
            "Ben": parse_hand("5-5 1-0"),
        }
    assert remove_last_round(added).text == text


@pytest.mark.parametrize("style", sorted(s for s in STYLES if "empty" not in s))
def test_adding_only_inserts_and_replacing_only_changes_that_round(style):
    text = STYLES[style]
    added = add_round(text, SCORES)
    removed, inserted = spliced(text, added)
    assert removed == ""  # nothing of the old file changed: the round was inserted
    assert "Ana: 3, Ben: 0" in inserted
    if "\r\n" in text:
        assert "\n" not in added.replace("\r\n", "")
    assert added.startswith("\ufeff") == text.startswith("\ufeff")
    replaced = add_round(text, HANDS, 1)
    start, end, put = changed(text, replaced)
    first, after = round_span(text, 1)
    assert first <= start <= end <= after  # only round 1's own text changed
    assert put  # (what is put there is checked by reading it back)
    assert read(replaced).rounds[0].hands["Ben"].tiles == parse_hand("5-5 1-0")
    assert validate(read(replaced)).valid


def test_comment_on_the_replaced_rounds_last_line_goes_with_it_others_stay():
    text = STYLES["block, comments, blank lines"]
    replaced = add_round(text, {"scores": {"Ana": 9, "Ben": 0}}, 1)
    assert "# Ben kept 6-6" not in replaced
    assert "# the first round was quick" in replaced and "# end of the sheet" in replaced
    assert "  - scores: {Ana: 9, Ben: 0}\n\n  - scores:\n      Ana: 7\n" in replaced


def test_empty_flow_rounds_become_a_block_keeping_the_comment():
    added = add_round(STYLES["empty flow rounds with a comment"], SCORES)
    assert added == (
        "players: [Ana, Ben]\nrounds:   # none yet\n  - scores: {Ana: 3, Ben: 0}  # Ana: 2-1\n"
        "notes: hi\n"
    )


def test_flow_rounds_stay_flow_without_the_comment():
    added = add_round(STYLES["flow rounds"], SCORES)
    assert added.endswith("{scores: {Ana: 0, Ben: 4}}, {scores: {Ana: 3, Ben: 0}}]\n")


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.yaml")))
def test_shipped_examples_keep_every_byte(tmp_path, name):
    path = tmp_path / name
    shutil.copy(EXAMPLES / name, path)
    text = path.read_text(encoding="utf-8")
    game = read(text)
    data = {"scores": dict.fromkeys(game.players, 0)}
    undo = remove_last_round(text)
    assert validate(read(undo.text)).valid
    start, end, put = changed(text, undo.text)
    assert put == "" and round_span(text, len(game.rounds))[0] - 4 <= start  # only removed
    again = add_round(undo.text, data)
    assert remove_last_round(again).text == undo.text
    replaced = add_round(text, data, 1)
    assert validate(read(replaced)).valid
    start, end, _ = changed(text, replaced)
    first, after = round_span(text, 1)
    assert first <= start <= end <= after


def test_no_rounds_list_or_no_such_round_is_an_edit_error():
    with pytest.raises(EditError):
        add_round("players: [Ana, Ben]\n", SCORES)
    with pytest.raises(EditError):
        add_round("players: [Ana, Ben]\nrounds: []\n", SCORES, 3)
    with pytest.raises(EditError):
        remove_last_round("players: [Ana, Ben]\nrounds: []\n")


scores = st.fixed_dictionaries({"Ana": st.integers(0, 99), "Ben": st.integers(0, 99)})


@settings(max_examples=40, deadline=None)
@given(style=st.sampled_from(sorted(STYLES)), rounds=st.lists(scores, min_size=1, max_size=4))
def test_any_sequence_of_adds_undoes_back_to_the_original(style, rounds):
    text = STYLES[style]
    steps = [text]
    for points in rounds:
        steps.append(add_round(steps[-1], {"scores": points}))
        assert [v for v, _ in read(steps[-1]).rounds[-1].scores.values()] == list(points.values())
    for before in reversed(steps[:-1]):
        assert remove_last_round(steps[-1]).text == before
        steps.pop()


# --- issue 22 item 15: lines that end in CR alone -----------------------------------------


def test_cr_only_line_endings_are_kept_by_add_and_undo(cli, tmp_path):
    text = "title: old Mac\rplayers: [Ana, Ben]\rrounds:\r  - scores: {Ana: 1, Ben: 0}\r"
    path = tmp_path / "mac.yaml"
    path.write_bytes(text.encode())
    result = cli("add", str(path), "Ana=0", "Ben=5")
    assert result.exit_code == 0, result.output
    after = path.read_bytes().decode()
    assert "\n" not in after
    assert after == text + "  - scores: {Ana: 0, Ben: 5}\r"
    assert cli("undo", str(path)).exit_code == 0
    assert path.read_bytes() == text.encode()


# --- issue 22 item 13: cf add then cf undo gives back the original bytes -------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _add_then_undo(text: str) -> str | None:
    """The file after adding a round of scores and undoing it; ``None`` if cf add refuses."""
    from cf.record.keeper import EntryError, add_entries
    from cf.record.reader import read_game
    from cf.record.undo import undo_last

    game = read_game(text, "g.yaml")
    if len(game.players) < 2:
        return None
    try:
        change = add_entries(text, "g.yaml", [(p, str(i)) for i, p in enumerate(game.players)])
    except (EntryError, EditError):
        return None
    if not change.report.valid:
        return None
    return undo_last(change.text, "g.yaml").change.text


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_add_then_undo_is_byte_identical_for_mutated_examples(seed):
    import random

    from fuzz_families import mutated_example

    try:
        text = mutated_example(random.Random(seed)).decode("utf-8")
    except UnicodeDecodeError:
        return
    after = _add_then_undo(text)
    if after is not None:
        assert after == text


@pytest.mark.parametrize(
    "text",
    [
        "title: " + "T" * 60_000 + "\nplayers: [Ana, Ben]\nrounds: []\n",
        "players: [Ana, Ben]\nrounds: []\n# " + "c" * 60_000 + "\n",
        "players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 1, Ben: 0}  # " + "c" * 60_000 + "\n",
        "players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 1, Ben: 0}\n" + "# note\n" * 200_000,
        "\ufeffplayers: [Ana, Ben]\r\nrounds: [{scores: {Ana: 1, Ben: 0}}]",
        "players: [Ana, Ben]\rrounds: []\r",
        "players: [Ana, Ben]\nrounds:\n",
        "players: [Ana, Ben]\nrounds: null\n",
        "players: [Ana, Ben]\nrounds:   ~   # none yet\r\nnotes: x\r\n",
        "players: [Ana, Ben]\nrounds: NULL",
        "players: [Ana, Ben]\nrounds:  # none yet\n\n# later\n",
        "players: [Ana, Ben]\nrounds: []  \n",
    ],
    ids=[
        "long-title",
        "long-comment",
        "long-round-comment",
        "many-comments",
        "bom-flow",
        "cr",
        "rounds-nothing",
        "rounds-null",
        "rounds-tilde-comment-crlf",
        "rounds-NULL-no-newline",
        "rounds-nothing-comment",
        "rounds-empty-trailing-spaces",
    ],
)
def test_add_then_undo_is_byte_identical(text):
    assert _add_then_undo(text) == text


# --- issue 22 item 12: the editor keeps nothing of the rounds it does not touch ---------


def _content_ends(text: str) -> tuple[list[int], list[int]] | None:
    """Where each round's own text ends, found on outlines (as cf add edits) and on whole
    nodes (as it used to); ``None`` for a file the editor does not take."""
    from cf.record.compose import compose
    from cf.record.edit import _Doc

    try:
        doc = _Doc(text)
    except EditError:
        return None
    outlined = [doc.content_end(item) for item in doc.items]
    root = compose(doc.text, compact=False)
    rounds = next(v for k, v in root.value if getattr(k, "value", None) == "rounds")
    whole = [doc.content_end(item) for item in getattr(rounds, "value", [])]
    return outlined, whole


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6))
def test_outlines_end_rounds_where_whole_nodes_do(seed):
    import random

    from fuzz_families import mutated_example

    try:
        text = mutated_example(random.Random(seed)).decode("utf-8")
        found = _content_ends(text)
    except (UnicodeDecodeError, yaml.YAMLError):
        return
    if found is not None and "*" not in text:  # an alias: see the test below
        outlined, whole = found
        assert outlined == whole


@pytest.mark.parametrize("style", sorted(STYLES))
def test_outlines_end_rounds_where_whole_nodes_do_in_every_style(style):
    found = _content_ends(STYLES[style])
    assert found is not None and found[0] == found[1]


ALIASED_LAST = (
    "players: [Ana, Ben]\nrounds:\n  - scores: {Ana: &z 1, Ben: 0}\n"
    "  - scores:\n      Ana: 2\n      Ben: *z\n"
)


def test_a_round_ending_in_an_alias_ends_where_the_alias_is_written():
    """The last value of the last round is an alias of a value in round 1: the new round
    went in after round 1 (the alias's node is written there), and undo cut round 2 wrong."""
    added = add_round(ALIASED_LAST, {"scores": {"Ana": 0, "Ben": 7}})
    assert added == ALIASED_LAST + "  - scores: {Ana: 0, Ben: 7}\n"
    assert remove_last_round(added).text == ALIASED_LAST
    removed = remove_last_round(ALIASED_LAST)
    assert removed.removed == "  - scores:\n      Ana: 2\n      Ben: *z\n"


def test_editing_a_long_move_log_keeps_no_node_of_it():
    """cf add and cf undo composed every move as nodes (1.1 kB a move: 440 MB for 400,000):
    the rounds are outlines now, so the edit costs the text and little more."""
    import tracemalloc

    n = 50_000
    text = (
        "players: [Ana, Ben]\nrounds:\n  - moves:\n"
        + "      - Ana: draw\n      - Ben: draw\n" * (n // 2)
        + "    scores: {Ana: 1, Ben: 0}\n"
    )
    tracemalloc.start()
    try:
        added = add_round(text, {"scores": {"Ana": 0, "Ben": 7}})
        undone = remove_last_round(added).text
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert undone == text
    assert peak < 5 * len(text) + 2**20, peak  # the texts; whole nodes took 60 MB here


@pytest.mark.parametrize(
    ("text", "added"),
    [
        ("rounds:\n", "rounds:\n- scores: {Ana: 3, Ben: 0}  # Ana: 2-1\n"),
        ("rounds: ~\n", "rounds: # was ~\n- scores: {Ana: 3, Ben: 0}  # Ana: 2-1\n"),
        (
            "rounds: null  # none yet\n",
            "rounds: # was null  # none yet\n- scores: {Ana: 3, Ben: 0}  # Ana: 2-1\n",
        ),
        ("rounds:  [ ]\n", "rounds:  # was [ ]\n  - scores: {Ana: 3, Ben: 0}  # Ana: 2-1\n"),
        ("rounds: []\n", "rounds:\n  - scores: {Ana: 3, Ben: 0}  # Ana: 2-1\n"),
    ],
    ids=["nothing", "tilde", "null-comment", "spaced-empty-list", "empty-list"],
)
def test_rounds_without_a_list_get_a_list_flush_with_the_key(text, added):
    """Issue 22 item 13: `rounds:` (or a null word) came back as `rounds: []` after cf add
    then cf undo. The list cf add starts there is flush with its key, the null word kept
    as a comment on the key's line (as is an empty list written other than ` []`); undo of
    that only round gives back what was written."""
    head = "players: [Ana, Ben]\n"
    after = add_round(head + text, SCORES)
    assert after == head + added
    assert validate(read(after)).valid
    assert remove_last_round(after).text == head + text


def test_undo_of_a_hand_written_flush_list_leaves_no_list(cli, tmp_path):
    """A list written flush with its key (as PyYAML writes it) is taken to have been no
    list: undo of its only round leaves `rounds:`, which reads as no rounds."""
    path = tmp_path / "g.yaml"
    path.write_text("players: [Ana, Ben]\nrounds:\n- scores: {Ana: 1, Ben: 0}\n")
    result = cli("undo", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_text() == "players: [Ana, Ben]\nrounds:\n"
    assert cli("validate", str(path)).exit_code == 0


@pytest.mark.parametrize("value", ["", " ~", " null  # none yet"])
def test_cf_add_then_cf_undo_give_back_rounds_without_a_list(cli, tmp_path, value):
    path = tmp_path / "g.yaml"
    text = f"players: [Ana, Ben]\nrounds:{value}\n"
    path.write_text(text)
    assert cli("add", str(path), "Ana=3", "Ben=0").exit_code == 0
    assert cli("validate", str(path)).exit_code == 0
    assert cli("undo", str(path)).exit_code == 0
    assert path.read_text() == text


def test_a_round_whose_dash_stands_alone_on_its_line_takes_add_and_undo(cli, tmp_path):
    """A valid file may open a round with '-' alone, its keys on the lines below: cf add
    refused it ('cannot find where the round at line 5 begins')."""
    before = "set: d6\nplayers: [Ana, Ben]\nrounds:\n  -\n    scores: {Ana: 1, Ben: 3}\n"
    game = tmp_path / "g.yaml"
    game.write_text(before)
    assert cli("validate", str(game)).exit_code == 0
    added = cli("add", str(game), "Ana=4", "Ben=0")
    assert added.exit_code == 0, added.output
    assert [r.scores["Ana"][0] for r in read_game(game.read_bytes()).rounds] == [1, 4]
    assert cli("undo", str(game)).exit_code == 0
    assert game.read_text() == before


@pytest.mark.parametrize(
    "first",
    [
        "  - # round 1 -\n    scores: {Ana: 1, Ben: 3}\n",  # a comment after the dash
        "  -\n    # a note -\n    scores: {Ana: 1, Ben: 3}\n",  # a comment line between
        "  # a comment -\n  - scores: {Ana: 1, Ben: 3}\n",  # a comment's '-' is no dash
    ],
)
def test_a_rounds_dash_is_found_past_comments(cli, tmp_path, first):
    before = "set: d6\nplayers: [Ana, Ben]\nrounds:\n" + first
    game = tmp_path / "g.yaml"
    game.write_text(before)
    assert cli("add", str(game), "Ana=4", "Ben=0").exit_code == 0
    assert [r.scores["Ana"][0] for r in read_game(game.read_bytes()).rounds] == [1, 4]
    assert game.read_text().count("#") == before.count("#")  # round 1's comment is its own
    assert cli("undo", str(game)).exit_code == 0
    assert game.read_text() == before
    assert cli("undo", str(game)).exit_code == 0  # the first round too
    assert read_game(game.read_bytes()).rounds == []
