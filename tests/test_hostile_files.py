"""Hostile files (issue 6, item 5): alias expansion, deep nesting, binary junk, a 50 MB
single line, a BOM, Windows and old-Mac line endings, non-UTF-8 text, Python object tags.
Each ends in a clear problem (or is read correctly) within bounded time and memory, and
never runs anything; the big inputs are made in ``tmp_path``. No timing asserts: the bound
is that the test finishes. Run in-process and as a real subprocess (``python -m cf``).
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from hardening_helpers import (
    assert_clean_failure,
    assert_one_line_each,
    cf,
    check,
    messages,
    small_game,
)

from cf.record.check import Report, validate
from cf.record.reader import MAX_BYTES, read_game, read_game_file

# --- 6. hostile files: alias expansion ---------------------------------------------------

LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


@pytest.mark.parametrize(
    "tail",
    [
        "players: [Ana, Ben]\nrounds: []\n",
        "players: [Ana, Ben]\nrounds: *i\n",
        "players: *i\nrounds: *i\n",
        "players: [Ana, Ben]\nrounds: [{scores: *i}, {hands: *i}, {moves: *i}, {deal: *i}]\n",
        "players: [Ana, Ben]\nrounds: [{moves: [*i, *i]}]\ntitle: *i\nnotes: *i\n",
    ],
)
def test_billion_laughs_is_never_expanded(tail):
    """9**9 'lol's behind nine levels of aliases: read as a small tree of shared nodes."""
    report = check(LAUGHS + tail)
    assert not report.valid
    assert len(report.problems) < 200, messages(report)[:2000]
    assert report.moves < 100
    assert_one_line_each(report)


def _alias_rounds_of_moves(k: int) -> str:
    """k rounds, each the same round (an alias) of k moves, each the same move (an alias)."""
    return (
        "players: [Ana, Ben]\n"
        "x: &m {Ana: pass}\n"
        f"y: &r {{scores: {{Ana: 1, Ben: 2}}, moves: [{', '.join(['*m'] * k)}]}}\n"
        f"rounds: [{', '.join(['*r'] * k)}]\n"
    )


def _alias_rounds_of_hands(k: int) -> str:
    """k rounds, each the same round whose hand is k times the same tile (an alias)."""
    return (
        "players: [Ana, Ben]\n"
        "x: &t 9-8\n"
        f"y: &r {{hands: {{Ana: [{', '.join(['*t'] * k)}], Ben: ''}}}}\n"
        f"rounds: [{', '.join(['*r'] * k)}]\n"
    )


def _alias_deals(k: int) -> str:
    return (
        "players: [Ana, Ben]\n"
        "x: &d {Ana: 9-8 9-7, Ben: 9-6 9-5}\n"
        f"y: &r {{deal: *d, moves: [{', '.join(['{Ana: 9-8}'] * 3)}]}}\n"
        f"rounds: [{', '.join(['*r'] * k)}]\n"
    )


@pytest.mark.parametrize(
    "make",
    [_alias_rounds_of_moves, _alias_rounds_of_hands, _alias_deals],
    ids=lambda f: f.__name__,
)
def test_alias_expansion_where_the_reader_walks_is_bounded(make):
    """Aliases placed where cf walks (rounds, moves, hands) must not multiply the work:
    a few kilobytes may not become hundreds of thousands of moves read or problems
    reported. Either aliases are refused with a clear problem, or the work stays in
    proportion to the file's size."""
    text = make(700)  # ~4 KB
    game = read_game(text, "aliases.yaml")
    report = validate(game)
    work = game.move_count + len(report.problems)
    assert work <= len(text), (
        f"{len(text)} bytes of YAML became {game.move_count} moves read and "
        f"{len(report.problems)} problems; first: {messages(report)[:500]}"
    )


def test_alias_expansion_cli_output_is_bounded(tmp_path):
    """The same through `cf validate`: exit 1, no traceback, and not megabytes of output."""
    path = tmp_path / "aliases.yaml"
    path.write_text(_alias_rounds_of_hands(700))
    proc = cf("validate", str(path))
    assert_clean_failure(proc, codes=(1,))
    size = len(proc.stdout) + len(proc.stderr)
    assert size < 1_000_000, f"{path.stat().st_size} bytes in, {size} bytes of report out"


# --- 6. deep nesting -----------------------------------------------------------------------

DEPTH = 10_000


@pytest.mark.parametrize(
    "text",
    [
        "players: [Ana, Ben]\nrounds: " + "[" * DEPTH + "]" * DEPTH + "\n",
        "players: [Ana, Ben]\nrounds: " + "{a: " * DEPTH + "1" + "}" * DEPTH + "\n",
        "players: [Ana, Ben]\nrounds: [{moves: " + "[" * DEPTH + "]" * DEPTH + "}]\n",
        "[" * DEPTH + "]" * DEPTH,
        "[" * 100_000,
        "players: [Ana, Ben]\nrounds:\n" + "".join(" " * i + "- \n" for i in range(1, 3000)),
        "players: [Ana, Ben]\nrounds:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 3000)),
    ],
    ids=[
        "flow-lists",
        "flow-maps",
        "in-moves",
        "bare",
        "unclosed-100k",
        "block-lists",
        "block-maps",
    ],
)
def test_deep_nesting_is_a_yaml_problem(text):
    report = check(text)
    assert [p.code for p in report.problems] == ["yaml"], messages(report)
    assert "depth" in report.problems[0].message or "nest" in report.problems[0].message
    assert report.problems[0].line is not None
    assert_one_line_each(report)


# --- 6. binary junk, control characters, non-UTF-8 ---------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_bytes_are_a_yaml_problem(seed):
    junk = random.Random(seed).randbytes(64 * 1024)
    report = check(junk)
    assert [p.code for p in report.problems] == ["yaml"], messages(report)
    assert_one_line_each(report)


@pytest.mark.parametrize(
    "data",
    [
        bytes(range(256)),
        b"PK\x03\x04" + bytes(range(200)),
        "players: [José, Ben]\nrounds: []\n".encode("latin-1"),
        "players: [Ana, Ben]\nrounds: []\n".encode("utf-16"),
        "players: [Ana, Ben]\nrounds: []\n".encode("utf-32"),
        "players: [Ana, Ben]\nrounds: []\n".encode("cp1252") + b"\x80\x81",
        b"players: [Ana, Ben]\nrounds: []\n\xed\xa0\x80",  # a UTF-8-encoded surrogate
    ],
    ids=["all-bytes", "zip", "latin-1", "utf-16", "utf-32", "cp1252", "surrogate"],
)
def test_non_utf8_is_a_clear_yaml_problem(data):
    report = check(data)
    assert [p.code for p in report.problems] == ["yaml"], messages(report)
    assert "UTF-8" in report.problems[0].message
    assert_one_line_each(report)


@pytest.mark.parametrize(
    "text",
    [
        "players: [Ana, Ben]\x00\nrounds: []\n",
        "\x1f",
        "\x7fELF\x02\x01\x01\x00" + "\x00" * 1000,
        "players: [Ana, Ben]\nrounds: []\ntitle: bell \x07\n",
        "players: [Ana, Ben]\nrounds: []\ntitle: \ufffe\n",
    ],
    ids=["nul", "unit-separator", "elf-header", "bell", "non-character"],
)
def test_control_characters_give_a_one_line_problem(text):
    """A character YAML forbids is a `yaml` problem in ONE line, at a line and column
    (the text output is one line per problem; PyYAML's reader error spans two lines)."""
    report = check(text)
    assert [p.code for p in report.problems] == ["yaml"], messages(report)
    assert "\n" not in report.problems[0].message, report.problems[0].message
    assert report.problems[0].line is not None, report.problems[0]
    assert_one_line_each(report)


@pytest.mark.parametrize(
    "text",
    [
        '{"\\n": 1, players: [Ana, Ben], rounds: []}',
        '{"ti\\ntle": 1, players: [Ana, Ben], rounds: []}',
        'players: [Ana, Ben]\nrounds: [{"a\\nb": 1, scores: {Ana: 1, Ben: 2}}]\n',
        'players: [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 2, "Eve\\nx": 3}}]\n',
        'players: [Ana, Ben]\nrounds: [{scores: {Ana: "1\\n2", Ben: 2}}]\n',
        'players: [Ana, Ben]\nrounds: [{hands: {Ana: "9-7\\r12-1", Ben: ""}}]\n',
        'players: [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 2}, moves: [{Ana: "9-7\\nx"}]}]\n',
    ],
)
def test_text_quoted_in_a_message_stays_on_its_line(text):
    """Keys, names and values quoted in a message must not break the one-line format."""
    report = check(text)
    assert not report.valid
    assert_one_line_each(report)


# --- 6. a 50 MB single line; endless input --------------------------------------------------


def _write_single_line(path: Path, size: int) -> None:
    unit = "{Ana: 9-8}, "
    head = "{players: [Ana, Ben], rounds: [{scores: {Ana: 1, Ben: 2}, moves: ["
    with open(path, "w") as fh:
        fh.write(head)
        chunk = unit * (1 << 16)
        written = len(head)
        while written < size:
            fh.write(chunk)
            written += len(chunk)
        fh.write("]}]}")


def test_50_mb_single_line_file_is_refused_unread(tmp_path):
    path = tmp_path / "huge.yaml"
    _write_single_line(path, 50 * 2**20)
    assert path.stat().st_size >= 50 * 2**20
    game = read_game_file(str(path))
    assert [p.code for p in game.problems] == ["yaml"]
    assert "MiB" in game.problems[0].message
    for command in ("validate", "tally"):
        proc = cf(command, str(path))
        err = assert_clean_failure(proc, codes=(1,))
        assert "larger than" in proc.stdout.decode() + err
    with open(path, "rb") as fh:
        proc = cf("validate", "-", stdin_file=fh)
    assert_clean_failure(proc, codes=(1,))
    assert b"larger than" in proc.stdout


def test_50_mb_single_line_text_is_refused():
    text = "title: " + "x" * (50 * 2**20)
    report = check(text)
    assert [p.code for p in report.problems] == ["yaml"]


class _Endless(io.RawIOBase):
    """A stream that never ends (like /dev/zero, but of a plausible character)."""

    served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        buffer[:] = b"x" * len(buffer)
        self.served += len(buffer)
        return len(buffer)


def test_endless_stream_is_read_only_up_to_the_limit():
    raw = _Endless()
    game = read_game(io.BufferedReader(raw), "<stdin>")
    assert [p.code for p in game.problems] == ["yaml"]
    assert raw.served <= MAX_BYTES + 2**20


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", ["validate", "tally", "score"])
def test_endless_stdin_is_refused_within_bounded_memory(command):
    """`cf COMMAND < /dev/zero` with 1 GiB of address space: a clear message, exit 1."""
    with open("/dev/zero", "rb") as zero:
        proc = cf(command, stdin_file=zero, limit_memory=2**30)
    err = assert_clean_failure(proc, codes=(1,))
    assert err.strip() or proc.stdout.strip()


# --- 6. BOM and line endings ---------------------------------------------------------------

BAD_GAME = (
    "players: [Ana, Ben]\n"
    "rounds:\n"
    "  - hands: {Ana: 9-7 6-6 12-1, Ben: ''}\n"
    "  - scores: {Ana: 1, Ben: 2, Eve: 3}\n"
)


def _where(report: Report) -> list[tuple]:
    return [(p.code, p.line, p.column, p.round, p.move) for p in report.problems]


@pytest.mark.parametrize(
    "encode",
    [
        lambda t: t.encode(),
        lambda t: b"\xef\xbb\xbf" + t.encode(),
        lambda t: "\ufeff" + t,
        lambda t: t.replace("\n", "\r\n").encode(),
        lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode(),
        lambda t: t.replace("\n", "\r").encode(),
        lambda t: t.replace("\n", "\r\n", 2).encode(),
    ],
    ids=["lf", "bom-bytes", "bom-text", "crlf", "bom-crlf", "cr", "mixed"],
)
def test_bom_and_line_endings_give_the_same_problems_at_the_same_places(encode):
    expected = _where(check(BAD_GAME))
    assert [e[0] for e in expected] == ["tile", "player"]
    assert _where(check(encode(BAD_GAME))) == expected


@pytest.mark.parametrize("crlf", [False, True])
@pytest.mark.parametrize("bom", [False, True])
def test_complete_game_with_bom_and_crlf_is_valid(bom, crlf):
    text = small_game(["Ana", "Ben", "Carla"])
    if crlf:
        text = text.replace("\n", "\r\n")
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode()
    report = check(data)
    assert report.valid, messages(report)
    assert report.moves > 0


def test_score_stdin_with_bom_and_crlf(cli):
    result = cli("score", input=b"\xef\xbb\xbfAna: 9-7 6-6 4-1\r\nBen: 0-0\r\n")
    assert result.exit_code == 0, result.output
    assert result.stdout == "Ana: 33\nBen: 50\n"


def test_score_stdin_line_numbers_count_newlines_only(cli):
    """A form feed or a unicode line separator inside a line is not a new line number."""
    result = cli("score", input=b"9-7\x0c6-6\n10-1\n")
    assert result.exit_code == 1
    assert "line 2" in result.stderr, result.stderr


# --- 6. Python object tags -------------------------------------------------------------------

APPLY = "!!python/object/apply:os.system"


@pytest.mark.parametrize(
    "text",
    [
        f"{APPLY} ['touch MARKER']\n",
        "!!python/object:cf.rules.Rules {players: [Ana, Ben], rounds: []}\n",
        f"players: {APPLY} ['touch MARKER']\nrounds: []\n",
        "players: !!python/tuple [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 0}}]\n",
        "players: [Ana, Ben]\nrounds: !!python/tuple [{scores: {Ana: 1, Ben: 0}}]\n",
        "players: [Ana, Ben]\nrounds: [!!python/object:builtins.dict {scores: {Ana: 1, Ben: 0}}]",
        "players: [Ana, Ben]\nrounds: [{scores: !!python/object/new:dict {Ana: 1, Ben: 0}}]\n",
        f"players: [Ana, Ben]\nrounds: [{{scores: {{Ana: {APPLY} ['touch MARKER'], Ben: 0}}}}]\n",
        "players: [Ana, !!python/name:os.system ]\nrounds: [{scores: {Ana: 1, Ben: 0}}]\n",
        "players: [Ana, Ben]\nrounds: [{hands: {Ana: !!python/tuple [9-7], Ben: ''}}]\n",
        "players: [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 0}, moves: !!python/tuple []}]\n",
        "players: [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 0}}]\ntitle: !!python/module:os\n",
        "players: [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 0}}]\nrules: !!python/object/"
        "apply:subprocess.check_output [[touch, MARKER]]\n",
    ],
)
def test_python_tags_are_refused_by_name(text, tmp_path, monkeypatch):
    """Nothing is constructed, so nothing runs; and wherever the tag is, the file is not
    valid and a problem names the tag (the reader ignores a tag on a list or a mapping
    today: it reads `rounds: !!python/tuple [...]` as a plain list)."""
    monkeypatch.chdir(tmp_path)
    text = text.replace("MARKER", str(tmp_path / "ran"))
    report = check(text)
    assert not (tmp_path / "ran").exists()
    assert not report.valid, "a file with a Python tag was accepted"
    assert "python" in messages(report), messages(report)
    assert_one_line_each(report)


def test_python_tags_never_run_through_the_command_line(tmp_path):
    marker = tmp_path / "ran"
    path = tmp_path / "evil.yaml"
    path.write_text(
        f"players: {APPLY} ['touch {marker}']\n"
        f"rounds: [{{scores: !!python/object/apply:os.system ['touch {marker}']}}]\n"
        f"title: !!python/object/apply:subprocess.check_output [[touch, {marker}]]\n"
    )
    for command in ("validate", "tally"):
        assert_clean_failure(cf(command, str(path)), codes=(1,))
    assert_clean_failure(cf("validate", "-", stdin=path.read_bytes()), codes=(1,))
    assert not marker.exists()


# --- 6. every hostile file through the real command line -----------------------------------

HOSTILE = {
    "laughs": (LAUGHS + "players: [Ana, Ben]\nrounds: *i\n").encode(),
    "deep": ("rounds: " + "[" * DEPTH + "]" * DEPTH).encode(),
    "junk": random.Random(7).randbytes(4096),
    "latin-1": "players: [José, Ben]\nrounds: []\n".encode("latin-1"),
    "utf-16": "players: [Ana, Ben]\nrounds: []\n".encode("utf-16"),
    "nul": b"players: [Ana, Ben]\x00\nrounds: []\n",
    "bom-crlf-bad": b"\xef\xbb\xbf" + BAD_GAME.replace("\n", "\r\n").encode(),
    "python-tag": b"players: !!python/object/apply:os.getcwd []\nrounds: []\n",
    "empty": b"",
    "only-bom": b"\xef\xbb\xbf",
    "a-list": b"- 1\n- 2\n",
    "a-scalar": b"9-7 6-6\n",
    "tab-indent": b"players: [Ana, Ben]\nrounds:\n\t- scores: {Ana: 1, Ben: 2}\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("command", ["validate", "tally"])
def test_hostile_file_through_the_command_line(command, name, tmp_path):
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(HOSTILE[name])
    proc = cf(command, str(path))
    assert_clean_failure(proc, codes=(1,))


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_stdin_through_the_command_line(name):
    for command in ("validate", "tally"):
        assert_clean_failure(cf(command, "-", stdin=HOSTILE[name]), codes=(1,))
    assert_clean_failure(cf("score", stdin=HOSTILE[name]), codes=(0, 1))


# --- issue 22 item 9: one composer for reading and editing, one depth limit ----------------

#: Deep enough to break PyYAML's pure-Python composer (a RecursionError), within libyaml's.
DEEP = 500
DEEP_FILES = {
    "deep-notes": "notes: " + "[" * DEEP + "]" * DEEP + "\nplayers: [Ana, Ben]\n"
    "rounds:\n  - scores: {Ana: 1, Ben: 0}\n",
    "deep-round": "players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 1, Ben: 0}\n  - "
    + "[" * DEEP
    + "]" * DEEP
    + "\n",
    "deep-block": "players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 1, Ben: 0}\nnotes:\n"
    + "".join(" " * i + "- \n" for i in range(DEEP)),
}
#: Every command that reads a game file, with the arguments it needs after the file.
READERS = {
    "validate": [],
    "tally": [],
    "show": [],
    "show-html": ["-f", "html"],
    "hint": [],
    "add": ["Ana=1", "Ben=0"],
    "undo": [],
}


@pytest.mark.parametrize("name", sorted(DEEP_FILES))
def test_deep_nesting_is_refused_alike_by_reader_and_editor(name):
    from cf.record.edit import EditError, remove_last_round

    report = check(DEEP_FILES[name])
    assert [p.code for p in report.problems] == ["yaml"], messages(report)
    assert "nest more than" in report.problems[0].message
    with pytest.raises(EditError, match="nest more than"):
        remove_last_round(DEEP_FILES[name])


@pytest.mark.parametrize("name", sorted(DEEP_FILES))
@pytest.mark.parametrize("command", sorted(READERS))
def test_deep_nesting_into_every_command(cli, tmp_path, name, command):
    path = tmp_path / "deep.yaml"
    path.write_text(DEEP_FILES[name])
    verb = command.split("-")[0]
    result = cli(verb, str(path), *READERS[command])
    assert result.exit_code in (1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "internal error" not in result.output
    assert path.read_text() == DEEP_FILES[name]


def test_deep_nesting_through_cf_add_and_undo_as_processes(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text(DEEP_FILES["deep-notes"])
    for args in (["add", str(path), "Ana=1", "Ben=0"], ["undo", str(path)]):
        err = assert_clean_failure(cf(*args), codes=(1,))
        assert "nest more than" in err
    assert path.read_text() == DEEP_FILES["deep-notes"]


# --- issue 22 item 11: more rounds than the set has --------------------------------------

TOO_MANY = (
    "players: [Ana, Ben]\nrounds:\n"
    + "  - scores: {Ana: 1, Ben: 0}\n" * 11
    + "  - moves:\n      - Ana: draw\n"
)


@pytest.mark.parametrize(
    "args",
    [
        ["validate"],
        ["tally"],
        ["show"],
        ["show", "-r", "11"],
        ["show", "-r", "12", "-m", "0", "-f", "json"],
        ["show", "-f", "svg"],
        ["show", "-f", "html"],
        ["hint"],
        ["hint", "--round", "11", "--player", "Ana"],
        ["add", "Ana=1", "Ben=0"],
        ["undo"],
    ],
    ids=lambda a: "-".join(a),
)
def test_more_rounds_than_the_set_has_is_the_validators_problem(cli, tmp_path, args):
    path = tmp_path / "long.yaml"
    path.write_text(TOO_MANY)
    result = cli(args[0], str(path), *args[1:])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    if args[0] == "show" and "html" in args:
        assert result.exit_code == 0  # the page marks the problem
        assert "round-count" in result.output
        return
    count = {"add": 13, "undo": 11}.get(args[0], 12)  # the file as it would be
    assert result.exit_code == 1, result.output
    assert f"[round-count] {count} rounds: a game with double-nine has 10 at most" in result.output
    assert path.read_text() == TOO_MANY
