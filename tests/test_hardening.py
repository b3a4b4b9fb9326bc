"""Hardening (issue 6, items 5–7): hostile files, fuzzing, names and numbers.

- Hostile files: alias expansion, deep nesting, binary junk, a 50 MB single line, a BOM,
  Windows and old-Mac line endings, non-UTF-8 text, Python object tags. Each must end in a
  clear problem (or be read correctly) within bounded time and memory, never run anything.
  The big inputs are made here, in ``tmp_path``, never committed. There are no timing
  asserts: the bound is that the test finishes.
- Fuzzing (hypothesis): arbitrary text, bytes and YAML structures into the reader and the
  validator; arbitrary text into the tile and move notation; arbitrary bytes on stdin for
  ``cf score``. Never an exception or a traceback; problems with known codes; exit 0/1/2.
- Names and numbers (SPEC §5 "Scalars are taken as written"): names YAML 1.1 reads as
  booleans, numbers or null; accents, emoji and right-to-left names; ``033`` is 33; huge
  integers are added up exactly or refused cleanly.

The command line is run both in-process (the ``cli`` fixture) and as a real subprocess
(``python -m cf``), where a traceback or the "internal error" safety net would show.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cf.notation import format_action, parse_action
from cf.play.simulate import simulate_game
from cf.record.check import Report, validate
from cf.record.emit import game_yaml
from cf.record.problems import CODES
from cf.record.reader import MAX_BYTES, ROUND_KEYS, RULE_KEYS, TOP_KEYS, read_game, read_game_file
from cf.render.problems import render_validation
from cf.rules import Rules
from cf.tiles import NotationError, Tile, parse_hand

ROOT = Path(__file__).parent.parent
FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(autouse=True)
def _no_cf_environment(monkeypatch):
    monkeypatch.delenv("CF_SET", raising=False)
    monkeypatch.delenv("CF_DOUBLE_BLANK", raising=False)


# --- helpers ----------------------------------------------------------------------------


def check(data: bytes | str, name: str = "hostile.yaml") -> Report:
    """Read and validate; every problem must be well formed and every format must render."""
    game = read_game(data, name)
    report = validate(game)
    for p in report.problems:
        assert p.code in CODES, p
        assert isinstance(p.message, str) and p.message.strip(), p
        assert p.line is None or p.line >= 1, p
        assert p.column is None or p.column >= 1, p
    render_validation([report], "text")
    render_validation([report], "github")
    json.loads(render_validation([report], "json"))
    return report


def assert_one_line_each(report: Report) -> None:
    """SPEC §7: one line per problem, then the summary line."""
    text = render_validation([report], "text")
    assert len(text.splitlines()) == len(report.problems) + 1, text[:2000]


def messages(report: Report) -> str:
    return "\n".join(f"[{p.code}] {p.message}" for p in report.problems)


def cf(
    *args: str, stdin: bytes | None = None, stdin_file=None, limit_memory: int | None = None
) -> subprocess.CompletedProcess:
    """Run ``python -m cf ARGS`` as a real process (a hang fails at the timeout)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CF_")}

    def limits() -> None:  # pragma: no cover - runs in the child
        if limit_memory is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (limit_memory, limit_memory))

    return subprocess.run(
        [sys.executable, "-m", "cf", *args],
        input=stdin,
        stdin=stdin_file,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        preexec_fn=limits if limit_memory else None,
    )


def assert_clean_failure(proc: subprocess.CompletedProcess, codes=(1, 2)) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err[-3000:]
    assert "internal error" not in err, err[-3000:]
    assert proc.returncode in codes, (proc.returncode, err[-3000:])
    return err


def small_game(names: list[str], rounds: int = 2, seed: int = 5) -> str:
    """A complete, valid game file written by the simulator."""
    game = simulate_game(names, Rules(top=9), ["greedy"] * len(names), seed, rounds)
    return game_yaml(game)


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


# --- 7. names and numbers --------------------------------------------------------------------

YAML11_NAMES = [
    "No", "no", "NO", "n", "N", "Yes", "y", "on", "On", "off", "OFF", "true", "False",
    "1", "0", "033", "0x1F", "0o17", "0b101", "1_000", "+1", "-1", "1.5", "1e3", ".inf",
    "-.Inf", ".NaN", "2026-11-28", "12:30", "190:20:30", "null", "Null", "NULL", "~",
]  # fmt: skip


@pytest.mark.parametrize("name", YAML11_NAMES)
def test_names_yaml_11_would_convert_are_taken_as_written(cli, tmp_path, name):
    path = tmp_path / "g.yaml"
    path.write_text(
        f"players:\n  - {name}\n  - Ben\nrounds:\n  - scores:\n      {name}: 3\n      Ben: 0\n"
        f"  - hands:\n      {name}: ''\n      Ben: 9-7\n"
    )
    report = check(path.read_bytes())
    assert report.valid, messages(report)
    assert report.players == [name, "Ben"]
    assert report.round_points == [{name: 3, "Ben": 0}, {name: 0, "Ben": 16}]
    result = cli("tally", str(path), "-f", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["standings"]
    assert [(r["player"], r["total"]) for r in rows] == [(name, 3), ("Ben", 16)]


UNICODE_NAMES = ["José", "Zoë", "Ñandú", "😀🐔", "שלום", "سارة", "\u200fדוד", "李雷", "Ана"]


def _unquoted_game(names: list[str], rounds: int = 2) -> str:
    text = small_game(names, rounds)
    for n in names:
        text = text.replace(json.dumps(n, ensure_ascii=False), n)
    return text


def test_special_and_unicode_names_through_a_whole_game(cli, tmp_path):
    """Deal, moves, hands and scores keyed by names written plain, as a person would."""
    names = ["No", "on", "1", "José", "😀🐔", "שלום"]
    text = _unquoted_game(names)
    assert '"No"' not in text and "- 1: " in text
    path = tmp_path / "names.yaml"
    path.write_text(text, encoding="utf-8")
    report = check(text.encode())
    assert report.valid, messages(report)
    assert report.players == names
    result = cli("validate", str(path))
    assert result.exit_code == 0, result.output
    result = cli("tally", str(path), "-f", "json")
    assert result.exit_code == 0, result.output
    assert sorted(r["player"] for r in json.loads(result.stdout)["standings"]) == sorted(names)
    result = cli("tally", str(path))
    assert result.exit_code == 0, result.output
    for n in names:
        assert n in result.stdout


@pytest.mark.parametrize("name", UNICODE_NAMES)
def test_unicode_names_in_validate_and_tally(cli, tmp_path, name):
    path = tmp_path / "u.yaml"
    path.write_text(
        f"players: [{name}, Ben]\nrounds:\n  - hands: {{{name}: 9-8, Ben: 0-0}}\n"
        f"  - scores: {{{name}: 0, Ben: 7, Eve: 1}}\n",
        encoding="utf-8",
    )
    result = cli("validate", str(path), "-f", "json")
    assert result.exit_code == 1
    problem = json.loads(result.stdout)["files"][0]["problems"][0]
    assert problem["code"] == "player"
    path.write_text(path.read_text().replace(", Eve: 1", ""), encoding="utf-8")
    for fmt in ("simple", "csv", "github", "json"):
        result = cli("tally", str(path), "-f", fmt)
        assert result.exit_code == 0, result.output
        assert name in result.stdout


def test_names_in_two_files_match_as_written(cli, tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("players: [No, José]\nrounds: [{scores: {No: 1, José: 2}}]\n")
    b.write_text('players: ["No", "José"]\nrounds: [{scores: {"No": 10, "José": 20}}]\n')
    result = cli("tally", str(a), str(b), "-f", "json")
    assert result.exit_code == 0, result.output
    rows = {r["player"]: r for r in json.loads(result.stdout)["standings"]}
    assert rows["No"]["total"] == 11 and rows["José"]["total"] == 22
    assert rows["No"]["games"] == 2


@pytest.mark.parametrize("written", ["033", "'033'", '"033"', "0033", "!!str 033", "!!int 033"])
def test_score_033_is_33(cli, tmp_path, written):
    path = tmp_path / "s.yaml"
    path.write_text(f"players: [Ana, Ben]\nrounds: [{{scores: {{Ana: {written}, Ben: 0}}}}]\n")
    report = check(path.read_bytes())
    assert report.valid, messages(report)
    assert report.round_points == [{"Ana": 33, "Ben": 0}]
    result = cli("tally", str(path), "-f", "json")
    assert json.loads(result.stdout)["standings"][1]["total"] == 33


@pytest.mark.parametrize(
    "written", ["0x1F", "0o17", "1_000", "3.0", "-1", "+3", "1e3", ".inf", "٣", "３", "3 4", "''"]
)
def test_scores_that_are_not_decimal_are_schema_problems(written):
    report = check(f"players: [Ana, Ben]\nrounds: [{{scores: {{Ana: {written}, Ben: 0}}}}]\n")
    assert [p.code for p in report.problems] == ["schema"], messages(report)
    assert report.problems[0].player is None or report.problems[0].player == "Ana"
    assert_one_line_each(report)


def test_huge_scores_add_up_exactly(cli, tmp_path):
    big = 10**60 + 7
    path = tmp_path / "big.yaml"
    # A score above what the whole set is worth is a score-mismatch (SPEC §5): a double
    # blank worth 10**61 makes such scores possible.
    path.write_text(f"rules: {{double_blank: {10**61}}}\n"
                    f"players: [Ana, Ben]\nrounds: [{{scores: {{Ana: {big}, Ben: 0}}}}, "
                    f"{{scores: {{Ana: {big}, Ben: 1}}}}]\n")  # fmt: skip
    result = cli("tally", str(path), "-f", "json")
    assert result.exit_code == 0, result.output
    rows = {r["player"]: r for r in json.loads(result.stdout)["standings"]}
    assert rows["Ana"]["total"] == 2 * big
    result = cli("tally", str(path))
    assert str(2 * big) in result.stdout


@pytest.mark.parametrize("digits", [400, 1000])
@pytest.mark.parametrize("fmt", ["simple", "json", "csv", "grid"])
def test_huge_scores_in_a_tournament(tmp_path, digits, fmt):
    """Several files: totals and averages of scores far beyond a float. Exact totals, and
    an average that is right or a clean problem; never an internal error.
    (`cf tally a.yaml b.yaml` with a 309-digit score: OverflowError in the average.)"""
    big = int("9" * digits)
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(f"players: [Ana, Ben]\nrounds: [{{scores: {{Ana: {big}, Ben: 0}}}}]\n")
    b.write_text("players: [Ana, Ben]\nrounds: [{scores: {Ana: 1, Ben: 0}}]\n")
    proc = cf("tally", str(a), str(b), "-f", fmt)
    assert_clean_failure(proc, codes=(0, 1))
    if proc.returncode == 0:
        assert str(big + 1) in proc.stdout.decode()


@pytest.mark.parametrize("digits", [1001, 4301, 100_000])
def test_scores_with_too_many_digits_are_a_clean_problem(digits):
    report = check(f"players: [Ana, Ben]\nrounds: [{{scores: {{Ana: {'9' * digits}, Ben: 0}}}}]\n")
    assert [p.code for p in report.problems] == ["schema"], messages(report)[:300]
    assert len(report.problems[0].message) < 200
    assert_one_line_each(report)


@pytest.mark.parametrize(
    "rules",
    ["{double_blank: " + "9" * 5000 + "}", "{deal: " + "9" * 400 + "}",
     "{reserve: 0" + "0" * 999 + "}", "{starter_arms: " + "9" * 2000 + "}"],
)  # fmt: skip
def test_huge_rule_values_are_clean(rules):
    report = check(
        f"rules: {rules}\nplayers: [Ana, Ben]\nrounds: [{{hands: {{Ana: 0-0, Ben: 9-8}}}}]\n"
    )
    assert_one_line_each(report)
    if not report.valid:
        assert {p.code for p in report.problems} <= {"rules", "schema"}, messages(report)[:500]


@pytest.mark.parametrize(
    "args",
    [
        ["score", "--double-blank", "9" * 400, "0-0"],
        ["score", "--double-blank", "9" * 5000, "0-0"],
        ["score", "9" * 5000 + "-1"],
        ["deal", "9" * 400],
        ["deal", "--deal", "9" * 400, "4"],
        ["deal", "--shuffle", "--seed", "9" * 5000, "4"],
        ["simulate", "--rounds", "9" * 400],
        ["simulate", "--deal", "9" * 400, "-p", "2"],
        ["simulate", "-p", "2", "--games", "2", "--stats", "--jobs", "9" * 400],
    ],
    ids=lambda a: " ".join(x if len(x) < 12 else "<huge>" for x in a),
)
def test_huge_numbers_on_the_command_line(args):
    assert_clean_failure(cf(*args), codes=(0, 1, 2))


@pytest.mark.parametrize("players", ["10000000", "9" * 400])
def test_huge_player_count_is_refused_at_once(players):
    """`cf simulate --players N` with N far beyond any table: refused before anything is
    built for N players (today a list of N names is made first: 10**7 takes about a second
    and 800 MB, 10**400 never ends). 1 GiB of address space is plenty for a refusal."""
    assert_clean_failure(cf("simulate", "--players", players, limit_memory=2**30), codes=(1, 2))
