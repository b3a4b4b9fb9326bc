"""``cf score`` and the rules common to every command (SPEC §7)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cf import __version__

ROOT = Path(__file__).parent.parent


@pytest.fixture(autouse=True)
def _no_cf_environment(monkeypatch):
    """The tests below set CF_SET / CF_DOUBLE_BLANK themselves, never inherit them."""
    monkeypatch.delenv("CF_SET", raising=False)
    monkeypatch.delenv("CF_DOUBLE_BLANK", raising=False)


def no_traceback(result) -> None:
    assert "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --- one hand from the arguments ----------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("9-7", "6-6", "4-1"),
        ("9-7 6-6 4-1",),
        ("9-7,6-6,4-1",),
        ("9-7,", "6-6,", "4-1"),
        ("[9|7]", "[6-6]", "1|4"),
        ("7-9 6-6", "4-1"),
    ],
)
def test_arguments_together_are_one_hand(cli, args):
    result = cli("score", *args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "33\n"
    assert result.stderr == ""


def test_empty_argument_is_the_empty_hand(cli):
    result = cli("score", "")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "0\n"


@pytest.mark.parametrize(
    ("args", "points"),
    [(("0-0",), 50), (("0-0", "9-7"), 66), (("3-0",), 3), (("9-9",), 18), (("1-0", "0-0"), 51)],
)
def test_points_default_double_blank(cli, args, points):
    result = cli("score", *args)
    assert result.exit_code == 0
    assert result.stdout == f"{points}\n"


@pytest.mark.parametrize(("value", "points"), [("50", 66), ("25", 41), ("0", 16), ("100", 116)])
def test_double_blank_option(cli, value, points):
    result = cli("score", "--double-blank", value, "9-7", "0-0")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{points}\n"


@pytest.mark.parametrize(("value", "deal"), [("+25", "+5"), ("2_5", "0_5"), (" 25 ", " 5 ")])
def test_double_blank_is_a_number_as_every_number_option_takes_it(cli, value, deal):
    """click's int options (--deal, --rounds, ...) read what Python's int() reads: so does
    --double-blank (it has its own parser, for its message)."""
    result = cli("score", "--double-blank", value, "9-7", "0-0")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "41\n"
    dealt = cli("deal", "--set", "6", "2", "--deal", deal, "--seed", "1")
    assert dealt.exit_code == 0
    assert dealt.stdout == cli("deal", "--set", "6", "2", "--deal", "5", "--seed", "1").stdout


@pytest.mark.parametrize("value", ["-1", "x", "2.5", "", "-0x1", "1" * 1001])
def test_bad_double_blank_is_a_usage_error(cli, value):
    result = cli("score", "--double-blank", value, "9-7")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr != ""
    no_traceback(result)


# --- --set --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "forms"),
    [
        (6, ["double-six", "double-6", "d6", "6"]),
        (9, ["double-nine", "double-9", "d9", "9"]),
        (12, ["double-twelve", "double-12", "d12", "12"]),
        (15, ["double-fifteen", "double-15", "d15", "15"]),
        (18, ["double-eighteen", "double-18", "d18", "18"]),
    ],
)
def test_set_by_every_name_form(cli, top, forms):
    for name in forms:
        ok = cli("score", "--set", name, f"{top}-{top}", "1-0")
        assert ok.exit_code == 0, (name, ok.stderr)
        assert ok.stdout == f"{2 * top + 1}\n"
        above = cli("score", "--set", name, f"{top + 1}-0")
        assert above.exit_code == 1, name
        assert f"{top + 1}-0" in above.stderr
        assert above.stdout == ""


def test_default_set_is_double_nine(cli):
    assert cli("score", "9-9").exit_code == 0
    assert cli("score", "10-0").exit_code == 1


@pytest.mark.parametrize("name", ["double-seven", "7", "d10", "nine", "bogus", ""])
def test_unknown_set_is_a_usage_error(cli, name):
    result = cli("score", "--set", name, "1-1")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr != ""
    no_traceback(result)


# --- bad hands ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "token"),
    [
        (("9-7", "9-x"), "9-x"),
        (("foo",), "foo"),
        (("9-7 6-6 [4|1",), "[4|1"),
        (("10-3",), "10-3"),  # outside double-nine
        (("9-7", "[3|12]"), "[3|12]"),
    ],
)
def test_bad_tile_is_exit_1_naming_the_token(cli, args, token):
    result = cli("score", *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert token in result.stderr
    no_traceback(result)


@pytest.mark.parametrize(
    ("args", "tile"),
    [(("9-7", "7-9"), "9-7"), (("6-6 [6|6]",), "6-6"), (("1-0", "2-2", "0|1"), "1-0")],
)
def test_repeated_tile_is_exit_1_naming_the_tile(cli, args, tile):
    result = cli("score", *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert tile in result.stderr
    no_traceback(result)


def test_tile_outside_a_smaller_set(cli):
    result = cli("score", "--set", "double-six", "6-6", "9-7")
    assert result.exit_code == 1
    assert "9-7" in result.stderr
    assert result.stdout == ""


# --- --explain ----------------------------------------------------------------------------


def test_explain_breaks_down_every_tile(cli):
    result = cli("score", "--explain", "9-7", "6-6", "4-1")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert re.search(r"\b33\b", out)
    for tile, points in [("9-7", 16), ("6-6", 12), ("4-1", 5)]:
        assert re.search(rf"{tile}\D+{points}\b", out), (tile, out)


def test_explain_shows_the_double_blank_value_in_use(cli):
    result = cli("score", "--explain", "--double-blank", "25", "[0|0]", "7|9")
    assert result.exit_code == 0, result.stderr
    assert re.search(r"\b41\b", result.stdout)
    assert re.search(r"0-0\D+25\b", result.stdout)
    assert re.search(r"9-7\D+16\b", result.stdout)


# --- --format json ------------------------------------------------------------------------


def test_json_for_one_hand(cli):
    result = cli("score", "--format", "json", "9-7", "6-6", "4-1")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"tiles": ["9-7", "6-6", "4-1"], "points": 33}


def test_json_tiles_are_canonical(cli):
    result = cli(
        "score", "--format", "json", "7-9", "[6|6]", "[1-4]", "0|0", "--double-blank", "0"
    )
    assert json.loads(result.stdout) == {"tiles": ["9-7", "6-6", "4-1", "0-0"], "points": 33}


def test_json_for_the_empty_hand(cli):
    result = cli("score", "--format", "json", "")
    assert json.loads(result.stdout) == {"tiles": [], "points": 0}


def test_text_format_is_the_default_and_can_be_named(cli):
    assert cli("score", "--format", "text", "9-7").stdout == "16\n"


def test_unknown_format_is_a_usage_error(cli):
    result = cli("score", "--format", "xml", "9-7")
    assert result.exit_code == 2
    assert result.stdout == ""


# --- stdin: one hand per line -------------------------------------------------------------


def test_stdin_lines_with_and_without_names(cli):
    text = "Ben: 9-7 6-6 4-1\n\n5-5 1-1\n   \nAna: 0-0\nCarla: [9|7], [0|1]\n"
    result = cli("score", input=text)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "Ben: 33\n12\nAna: 50\nCarla: 17\n"


def test_stdin_name_with_an_empty_hand(cli):
    result = cli("score", input="Ana:\nBen: 9-7\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "Ana: 0\nBen: 16\n"


def test_stdin_empty_input_prints_nothing(cli):
    result = cli("score", input="")
    assert result.exit_code == 0
    assert result.stdout == ""


def test_stdin_bad_line_reported_with_its_line_number(cli):
    text = "Ben: 9-7 6-6 4-1\n\nAna: 9-x 1-1\nCarla: 5-5\nDan: 10-3\nEva: 2-2 2|2\n"
    result = cli("score", input=text)
    assert result.exit_code == 1
    # the good lines are still printed, in order
    assert result.stdout == "Ben: 33\nCarla: 10\n"
    lines = result.stderr.splitlines()
    assert len(lines) == 3, result.stderr
    assert "3" in lines[0] and "9-x" in lines[0]
    assert "5" in lines[1] and "10-3" in lines[1]
    assert "6" in lines[2] and "2-2" in lines[2]
    assert re.search(r"\bline 3\b", lines[0])
    assert re.search(r"\bline 5\b", lines[1])
    assert re.search(r"\bline 6\b", lines[2])
    no_traceback(result)


def test_stdin_bad_line_with_json_still_lists_the_good_lines(cli):
    result = cli("score", "--format", "json", input="Ben: 9-7\nx\nAna: 0-0\n")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == [
        {"name": "Ben", "tiles": ["9-7"], "points": 16},
        {"name": "Ana", "tiles": ["0-0"], "points": 50},
    ]
    assert re.search(r"\bline 2\b", result.stderr)


def test_stdin_json_is_a_list_with_names_where_given(cli):
    result = cli("score", "-f", "json", input="Ben: 9-7 6-6 4-1\n5-5 1-1\n")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == [
        {"name": "Ben", "tiles": ["9-7", "6-6", "4-1"], "points": 33},
        {"tiles": ["5-5", "1-1"], "points": 12},
    ]


def test_stdin_json_is_a_list_even_for_one_line(cli):
    result = cli("score", "--format", "json", input="9-7\n")
    assert json.loads(result.stdout) == [{"tiles": ["9-7"], "points": 16}]


def test_stdin_with_options(cli):
    result = cli("score", "--set", "12", "--double-blank", "0", input="A: 12-12 0-0\nB: 11-0\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "A: 24\nB: 11\n"


def test_stdin_explain(cli):
    result = cli("score", "--explain", input="Ben: 9-7 4-1\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Ben: 21")
    assert re.search(r"9-7\D+16\b", result.stdout)
    assert re.search(r"4-1\D+5\b", result.stdout)


# --- environment variables ----------------------------------------------------------------


def test_cf_set_environment_variable(cli):
    assert cli("score", "12-12", env={"CF_SET": "double-twelve"}).stdout == "24\n"
    result = cli("score", "9-7", env={"CF_SET": "d6"})
    assert result.exit_code == 1
    assert "9-7" in result.stderr


def test_set_option_wins_over_cf_set(cli):
    result = cli("score", "--set", "9", "9-7", env={"CF_SET": "6"})
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "16\n"
    refused = cli("score", "--set", "9", "12-0", env={"CF_SET": "12"})
    assert refused.exit_code == 1


def test_cf_double_blank_environment_variable(cli):
    result = cli("score", "0-0", "1-0", env={"CF_DOUBLE_BLANK": "25"})
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "26\n"


def test_double_blank_option_wins_over_cf_double_blank(cli):
    result = cli("score", "--double-blank", "0", "0-0", "1-0", env={"CF_DOUBLE_BLANK": "25"})
    assert result.stdout == "1\n"


def test_environment_variables_apply_to_stdin_too(cli):
    env = {"CF_SET": "15", "CF_DOUBLE_BLANK": "10"}
    result = cli("score", input="A: 15-14 0-0\n", env=env)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "A: 39\n"


@pytest.mark.parametrize(
    "env",
    [
        {"CF_SET": "bogus"},
        {"CF_SET": "double-seven"},
        {"CF_DOUBLE_BLANK": "x"},
        {"CF_DOUBLE_BLANK": "-5"},
        {"CF_DOUBLE_BLANK": "1.5"},
    ],
)
def test_bad_environment_value_is_a_usage_error(cli, env):
    result = cli("score", "1-1", env=env)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr != ""
    no_traceback(result)


def test_good_option_wins_over_a_bad_environment_value(cli):
    result = cli("score", "--double-blank", "5", "0-0", env={"CF_DOUBLE_BLANK": "x"})
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "5\n"
    result = cli("score", "--set", "6", "6-6", env={"CF_SET": "bogus"})
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "12\n"


# --- no traceback for any input -----------------------------------------------------------


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.text(alphabet="0123456789-|[], x:\t", max_size=12), min_size=1, max_size=4))
def test_any_arguments_score_or_fail_cleanly(cli, args):
    if args == ["-"]:  # reads stdin instead: tested on its own
        return
    result = cli("score", "--", *args)
    assert result.exit_code in (0, 1), (args, result.stderr)
    no_traceback(result)
    if result.exit_code == 0:
        assert re.fullmatch(r"\d+\n", result.stdout)
    else:
        assert result.stdout == ""
        assert result.stderr.strip() != ""


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=80))
def test_any_stdin_scores_or_fails_cleanly(cli, text):
    result = cli("score", input=text)
    assert result.exit_code in (0, 1), (text, result.stderr)
    no_traceback(result)


def test_a_lone_dash_reads_stdin(cli):
    result = cli("score", "-", input="Ben: 9-7 6-6 4-1\n")
    assert result.exit_code == 0
    assert result.stdout == "Ben: 33\n"


# --- version, help, and a real process ----------------------------------------------------


def test_version(cli):
    result = cli("--version")
    assert result.exit_code == 0
    assert __version__ in result.stdout


@pytest.mark.parametrize("command", ["score", "deal", "validate", "tally", "simulate"])
def test_help_for_every_command(cli, command):
    result = cli(command, "--help")
    assert result.exit_code == 0, result.stderr
    assert "Usage" in result.stdout
    assert command in result.stdout


def test_top_level_help_lists_every_command(cli):
    result = cli("--help")
    assert result.exit_code == 0
    for command in ["score", "deal", "validate", "tally", "simulate"]:
        assert command in result.stdout


def _run(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CF_")}
    return subprocess.run(
        [sys.executable, "-m", "cf", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=env,
    )


def test_python_m_cf_scores_stdin_lines():
    proc = _run("score", input="Ben: 9-7 6-6 4-1\nAna: 0-0\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "Ben: 33\nAna: 50\n"


def test_python_m_cf_bad_input_exit_1_without_traceback():
    proc = _run("score", "9-7", "7-9")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "9-7" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_python_m_cf_usage_error_is_exit_2():
    proc = _run("score", "--set", "bogus", "1-1")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr


def test_python_m_cf_version():
    proc = _run("--version")
    assert proc.returncode == 0
    assert __version__ in proc.stdout


@pytest.mark.parametrize("args", [["9-7"], []])
def test_min_confidence_without_a_photo_is_a_usage_error(cli, args):
    """--min-confidence is a photo's: typed for tiles it would be ignored unsaid."""
    result = cli("score", *args, "--min-confidence", "0.9", input="9-7\n")
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: --min-confidence is for photos: add --photo (cf score --photo hand.jpg)\n"
    )
    assert result.stdout == ""
    assert cli("score", "9-7").stdout == "16\n"  # its default alone changes nothing
