"""A family's game night without a single puzzled look (issue 21): the words cf says at
the table — a round entered twice, a forgotten pair of quotes, two typos at once, a
replaced round, the restore line of ``cf undo``, a missing photo."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from cf.record.reader import read_game

PLAYERS = "Ana,Ben,Mamá,Tío Lu"


@pytest.fixture
def family(cli, tmp_path) -> Path:
    """A new double-six game (7 rounds) for a family with accented and spaced names."""
    path = tmp_path / "family.yaml"
    result = cli("new", str(path), "--players", PLAYERS, "--set", "6", "--date", "2026-12-01")
    assert result.exit_code == 0, result.output
    return path


def add(cli, path: Path, *entries: str):
    return cli("add", str(path), *entries)


# --- 1. a round entered twice; a score that is not a whole number -------------------------


def test_a_round_like_the_one_before_is_written_with_a_warning(cli, family):
    assert add(cli, family, "Ana=5", "Ben=0", "Mamá=12", "Tío Lu=out").stderr == ""
    result = add(cli, family, "Ana=5", "Ben=0", "Mamá=12", "Tío Lu=out")
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        "warning: round 2 has the same entries as round 1 — entered twice? cf undo removes it\n"
    )
    assert len(read_game(family.read_bytes(), str(family)).rounds) == 2
    other = add(cli, family, "Ana=5", "Ben=1", "Mamá=12", "Tío Lu=out")
    assert other.exit_code == 0 and other.stderr == ""


def test_hands_like_the_round_before_warn_too_but_not_a_replaced_round(cli, family):
    hands = ("Ana=out", "Ben=4-4", "Mamá=1-1", "Tío Lu=2-2 1-0")
    add(cli, family, *hands)
    assert "round 2 has the same entries as round 1" in add(cli, family, *hands).stderr
    result = cli("add", str(family), "--round", "2", *hands)  # a fix, not a repeat
    assert result.exit_code == 0 and "warning" not in result.stderr


@pytest.mark.parametrize("value", ["-4", "12.5", "+3", "0,5", ".5"])
def test_a_score_that_is_not_a_whole_number_says_what_a_score_is(cli, family, value):
    before = family.read_bytes()
    result = add(cli, family, "Ana=5", "Ben=0", f"Mamá={value}", "Tío Lu=out")
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: Mamá: '{value}' is not a score (a score is a whole number, 0 or more)\n"
    )
    assert "not a tile" not in result.stderr
    assert family.read_bytes() == before


# --- 2. forgotten quotes; every typo at once ----------------------------------------------


def test_tiles_split_by_a_space_say_the_quotes_to_type(cli, family):
    before = family.read_bytes()
    result = add(cli, family, "Ana=5-4", "3-1", "Ben=0", "Mamá=2", "Tío Lu=out")
    assert result.exit_code == 2
    assert 'tiles with spaces need quotes: Ana="5-4 3-1"' in result.stderr
    assert "is not NAME=VALUE" not in result.stderr
    result = add(cli, family, "Ana=0", "Tío Lu=6-5", "4-1", "[3|3]", "Ben=0", "Mamá=1")
    assert 'need quotes: "Tío Lu"="6-5 4-1 [3|3]"' in result.stderr
    assert family.read_bytes() == before


def test_a_tile_after_a_score_is_not_taken_for_forgotten_quotes(cli, family):
    result = add(cli, family, "Ana=5", "3-1", "Ben=0", "Mamá=2", "Tío Lu=out")
    assert result.exit_code == 2
    assert "'3-1' is not NAME=VALUE" in result.stderr and "quotes" not in result.stderr


def test_a_word_that_is_no_entry_still_shows_the_forms(cli, family):
    result = add(cli, family, "Ana=1", "Ben")
    assert result.exit_code == 2
    assert "'Ben' is not NAME=VALUE (Ana=12," in result.stderr


def test_every_name_typo_is_reported_at_once(cli, family):
    result = add(cli, family, "Anna=5", "Benn=0", "Mama=12", "Tio=out")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: 'Anna' is not a player (did you mean 'Ana'?)\n"
        "Error: 'Benn' is not a player (did you mean 'Ben'?)\n"
        "Error: 'Tio' is not a player (did you mean 'Tío Lu'?)\n"
    )


# --- 4, 5. the scoreboard: a replaced round, and what the * means -------------------------


def test_after_round_k_the_scoreboard_shows_round_k_replaced(cli, family):
    """Round K's column; the movement is since the previous round, as in ``cf tally`` (the
    fix made Ben first, but the ranks after round 2 are those after round 1)."""
    add(cli, family, "Ana=5", "Ben=0", "Mamá=12", "Tío Lu=out")
    add(cli, family, "Ana=1", "Ben=2", "Mamá=3", "Tío Lu=out")
    result = cli("add", str(family), "--round", "1", "Ana=7", "Ben=0", "Mamá=12", "Tío Lu=9")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "  rank  player      round 1    total  movement\n"
        "------  --------  ---------  -------  ----------\n"
        "     1  Ben *             0        2  –\n"
        "     2  Ana               7        8  –\n"
        "     3  Tío Lu            9        9  –\n"
        "     4  Mamá             12       15  –\n"
        "* leader: Ben\n"
        "round 1 replaced; round 2 of 7, next starts with 4-4\n"
    )
    data = cli("add", str(family), "-r", "2", "Ana=1", "Ben=2", "Mamá=3", "Tío Lu=0", "-f", "json")
    assert '"replaced": 2' in data.stdout
    tally = cli("tally", str(family), "-f", "json")
    moves = [(r["player"], r["movement"]) for r in json.loads(data.stdout)["standings"]]
    assert moves == [(r["player"], r["movement"]) for r in json.loads(tally.stdout)["standings"]]


def test_the_star_is_explained_under_the_scoreboard(cli, tmp_path):
    path = tmp_path / "g.yaml"
    cli("new", str(path), "--players", "Ana,Ben", "--rounds", "2")
    first = cli("add", str(path), "Ana=3", "Ben=0").stdout.splitlines()
    assert first[-2:] == ["* leader: Ben", "round 1 of 2, next starts with 8-8"]
    last = cli("add", str(path), "Ana=0", "Ben=3").stdout.splitlines()
    assert last[-2:] == ["* winners: Ana and Ben", "game over: Ana and Ben win, tied on 3"]


# --- 7. cf undo's restore line ------------------------------------------------------------


def test_the_restore_line_quotes_one_way_and_keeps_out(cli, tmp_path):
    folder = tmp_path / "game night"
    folder.mkdir()
    path = folder / "family.yaml"
    cli("new", str(path), "--players", PLAYERS, "--set", "6")
    add(cli, path, "Ana=5", "Ben=0", "Mamá=12", "Tío Lu=out")
    before = path.read_bytes()
    add(cli, path, "Ana=5", "Ben=6-1 5-0", "Mamá=out", "Tío Lu=2")
    after = path.read_bytes()
    result = cli("undo", str(path))
    line = result.stdout.splitlines()[1].strip()
    assert line == f'cf add "{path}" Ana=5 Ben="6-1 5-0" Mamá=out "Tío Lu"=2'
    assert path.read_bytes() == before
    # pasted into a shell, it puts back the very same bytes
    words = shlex.split(line)
    assert words[0] == "cf"
    assert cli(*words[1:]).exit_code == 0
    assert path.read_bytes() == after


def test_the_restore_line_is_pasteable_in_a_real_shell(cli, tmp_path):
    """bash itself reads the line: double quotes, accents, a space in a name."""
    path = tmp_path / "g.yaml"
    cli("new", str(path), "--players", PLAYERS, "--set", "6")
    add(cli, path, "Ana=out", "Ben=6-1 5-0", "Mamá=3", "Tío Lu=0")
    line = cli("undo", str(path)).stdout.splitlines()[1].strip()
    assert "'" not in line
    printed = subprocess.run(
        ["bash", "-c", f"printf '%s\\n' {line[len('cf add ') :]}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert printed == [str(path), "Ana=out", "Ben=6-1 5-0", "Mamá=3", "Tío Lu=0"]


def test_a_name_with_a_dollar_is_quoted_whole():
    from cf.record.undo import _shell_entry

    assert _shell_entry("Ana $1", "out") == "'Ana $1=out'"
    assert shlex.split(_shell_entry("Ana $1", "out")) == ["Ana $1=out"]


# --- 12. a missing photo ------------------------------------------------------------------


def test_a_missing_photo_is_said_alike_by_cf_score_and_cf_add(cli, family, monkeypatch):
    monkeypatch.setitem(sys.modules, "cf.photo", None)  # with or without the extra
    score = cli("score", "--photo", "nope.jpg")
    added = add(cli, family, "Ana=@nope.jpg", "Ben=0", "Mamá=1", "Tío Lu=out")
    assert score.exit_code == added.exit_code == 2
    assert score.stderr == added.stderr == "Error: cannot read nope.jpg: no such file\n"


def test_an_empty_photo_path_is_a_usage_error(cli, family):
    result = add(cli, family, "Ana=@", "Ben=0", "Mamá=1", "Tío Lu=out")
    assert result.exit_code == 2
    assert "Ana=@: the photo's file goes after the @ (Ana=@hand.jpg)" in result.stderr


# --- 6. files written are named on stderr; a partial game said once ------------------------


def test_a_chart_written_is_named_on_stderr_and_stdout_stays_the_table(cli, tmp_path):
    chart = tmp_path / "night.svg"
    plain = cli("tally", "examples/scorekeeper.yaml")
    result = cli("tally", "examples/scorekeeper.yaml", "--chart", str(chart))
    assert result.exit_code == 0
    assert result.stdout == plain.stdout
    assert result.stderr == f"wrote {chart}\n"
    assert chart.read_bytes().startswith(b"<?xml")


@pytest.mark.parametrize("fmt, ending", [("svg", "svg"), ("html", "html"), ("json", "json")])
def test_cf_show_names_the_file_it_wrote(cli, tmp_path, fmt, ending):
    out = tmp_path / f"board.{ending}"
    result = cli("show", "examples/family-night.yaml", "-f", fmt, "-o", str(out))
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == f"wrote {out}\n"
    assert out.stat().st_size > 0
    to_stdout = cli("show", "examples/family-night.yaml", "-f", "json")
    assert "wrote" not in to_stdout.stderr + to_stdout.stdout


def test_a_partial_game_is_said_once(cli, family):
    add(cli, family, "Ana=5", "Ben=0", "Mamá=12", "Tío Lu=out")
    result = cli("tally", str(family))
    said = (result.stdout + result.stderr).count("partial game")
    assert said == 1 and result.stderr == ""
    assert result.stdout.splitlines()[-1] == (
        "* leaders: Ben and Tío Lu (partial game: 1 of 7 rounds)"
    )
    # csv has no note line: stderr says it (once)
    csv = cli("tally", str(family), "-f", "csv")
    assert csv.stderr == f"note: {family} is a partial game: 1 of 7 rounds\n"


# --- 8. the chart's title; the replay page --------------------------------------------------


def chart_title(svg: str) -> str:
    import re

    return re.search(r'font-weight="bold"[^>]*>([^<]*)</text>', svg).group(1)


def test_the_chart_is_called_by_the_games_title(cli, tmp_path):
    out = tmp_path / "c.svg"
    cli("tally", "examples/scorekeeper.yaml", "--chart", str(out))
    assert chart_title(out.read_text()) == "Running totals: Sunday at the club"
    cli("tally", "examples/family-night.yaml", "--chart", str(out))  # no title: its name
    assert chart_title(out.read_text()) == "Running totals: family-night.yaml"


def page_of(cli, path) -> tuple[str, dict]:
    import json
    import re

    html = cli("show", str(path), "-f", "html").stdout
    data = json.loads(re.search(r'id="cf-data">(.*?)</script>', html, re.S).group(1))
    return html, data


def test_the_page_of_a_title_less_game_is_called_by_the_files_name(cli):
    html, _ = page_of(cli, "examples/family-night.yaml")
    assert "<h1>family-night.yaml</h1>" in html
    assert "<title>family-night.yaml — cf replay</title>" in html


def test_a_long_title_wraps_at_phone_width(cli):
    html, _ = page_of(cli, "examples/family-night.yaml")
    assert "header h1,header div{overflow-wrap:anywhere}" in html


def test_the_last_step_has_the_winners_banner(cli, family):
    _, data = page_of(cli, "examples/family-night.yaml")
    assert data["outcome"] == "Game over: Carla wins with 138"
    add(cli, family, "Ana=5", "Ben=0", "Mamá=12", "Tío Lu=out")
    _, data = page_of(cli, family)
    assert data["outcome"] == "Leaders: Ben and Tío Lu (partial game: 1 of 7 rounds)"


def test_a_scores_only_game_has_the_scoreboard_and_no_empty_board(cli):
    html, data = page_of(cli, "examples/scorekeeper.yaml")
    assert 'id="board"' not in html
    assert 'id="scores"' in html
    assert data["outcome"] == "Game over: Carla wins with 125"
    logged, _ = page_of(cli, "examples/family-night.yaml")
    assert 'id="board"' in logged


# --- 9. cf validate: a photo for a game file; the parser's words made plain -------------------


def test_a_photo_given_to_cf_validate_is_not_a_text_file(cli, tmp_path):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(bytes.fromhex("ffd8ffe000104a464946") + bytes(range(256)) * 8)
    result = cli("validate", str(photo))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        f"{photo}:1:1: [yaml] not a text file (is this an image?): a game file is YAML "
        "text, saved as UTF-8"
    )
    png = tmp_path / "hand.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    assert "(is this an image?)" in cli("validate", str(png)).stdout
    zipped = tmp_path / "games.zip"
    zipped.write_bytes(b"PK\x03\x04" + bytes(range(200)))
    said = cli("validate", str(zipped)).stdout
    assert "not a text file: a game file is YAML text" in said and "image" not in said


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (
            "players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 1, Ben: %3}\n",
            3,
            "a value cannot start with '%': put it in quotes, as in \"%3\"",
        ),
        (
            "players: [@Ana, Ben]\nrounds: []\n",
            1,
            "a value cannot start with '@': put it in quotes, as in \"@Ana\"",
        ),
        ("players: [Ana, Ben]\n%rounds: []\n", 2, "remove the stray '%'"),
        (
            "title: Game: one\nplayers: [Ana, Ben]\nrounds: []\n",
            1,
            "a name or a value holding ': ' needs quotes, as in title: \"Game: one\"",
        ),
        (
            "players: [Ana, Ben]\nrounds:\n  - scores:\n      Ana: 1\n      Ben: Jr: 0\n",
            5,
            'or "Ben: Jr": 0',
        ),
        ("players: [Ana, Ben\nrounds: []\n", 2, "the list begun with '[' on line 1 is not"),
        (
            "players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 1, Ben: Jr: 0}\n",
            3,
            "or a name with ':' or ',' needs quotes",
        ),
        ('title: "night\nplayers: [Ana, Ben]\nrounds: []\n', 1, "a quote opened on line 1"),
        (
            "players: [Ana, Ben]\nrounds:\n - scores: {Ana: 1, Ben: 0}\n   - scores: {Ana: 1}\n",
            4,
            "indentation does not fit the lines above",
        ),
    ],
    ids=[
        "percent",
        "at",
        "percent-line",
        "colon-title",
        "colon-name",
        "open-list",
        "colon-in-braces",
        "open-quote",
        "indent",
    ],
)
def test_parser_messages_are_plain_words_with_the_line(text, line, words):
    from conftest import check

    (problem,) = check(text).problems
    assert problem.code == "yaml" and problem.line == line
    assert words in problem.message, problem.message
    for jargon in ("cannot start any token", "while scanning", "while parsing", "begun at"):
        assert jargon not in problem.message


def test_a_name_read_as_a_mapping_hints_at_quotes(cli, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("players: [Ana, Ben: Jr]\nrounds: []\n")
    assert "(a ': ' in it? put it in quotes)" in cli("validate", str(path)).stdout


# --- 14. a letter typed for a digit ----------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("4-l", "4-1"), ("I-1", "1-1"), ("O-4", "0-4"), ("[6|l]", "[6|1]"), ("l0-o", "10-0")],
)
def test_a_letter_for_a_digit_gets_did_you_mean(cli, typed, meant):
    result = cli("score", "9-7", "6-6", typed, "--set", "12")
    assert result.exit_code == 1
    assert result.stderr == f"Error: '{typed}' is not a tile (did you mean {meant}?)\n"


def test_no_did_you_mean_where_the_fix_is_no_tile_of_the_set(cli):
    result = cli("score", "9-7", "l0-1")  # 10-1 is not in double-nine
    assert result.stderr == "Error: 'l0-1' is not a tile (write it like 9-7 or [9|7])\n"


def test_the_tile_hint_is_in_the_reader_s_language(cli):
    """The hint inside "is not a tile (…)" is translated with the rest (it stayed English)."""
    result = cli("--lang", "es", "score", "4-l")
    assert result.stderr == "Error: '4-l' no es una ficha (¿querías decir 4-1?)\n"
    result = cli("--lang", "gl", "score", "x")
    assert result.stderr == "Erro: 'x' non é unha ficha (escríbea como 9-7 ou [9|7])\n"
    # and in cf validate's problems, the hand named in the reader's language too
    checked = cli("--lang", "es", "validate", "-", input="players: [Ana, Ben]\nrounds:\n"
                  "  - hands: {Ana: 4-l, Ben: ''}\n")  # fmt: skip
    assert "[tile] la mano de Ana: '4-l' no es una ficha (¿querías decir 4-1?)" in checked.stdout
    as_json = cli("--lang", "es", "validate", "-f", "json", "-", input="players: [Ana, Ben]\n"
                  "rounds:\n  - hands: {Ana: 4-l, Ben: ''}\n")  # fmt: skip
    assert "Ana's hand: '4-l' is not a tile (did you mean 4-1?)" in as_json.stdout  # machine


def test_cf_add_says_it_too(cli, family):
    result = add(cli, family, "Ana=4-l", "Ben=0", "Mamá=1", "Tío Lu=out")
    assert result.exit_code == 1 and "'4-l' is not a tile (did you mean 4-1?)" in result.stderr


# --- 10. help: no unrelated suggestion, one placeholder style, scorekeeping first ------------

from cf.cli import COMMANDS  # noqa: E402

COMMAND_NAMES = [*COMMANDS, "help"]


@pytest.mark.parametrize("word", ["nosuch", "chart", "xyz"])
def test_an_unknown_command_suggests_nothing_unrelated(cli, word):
    for args in (["help", word], [word]):
        result = cli(*args)
        assert result.exit_code == 2
        assert f"No such command '{word}'. (cf --help lists them)" in result.stderr
        assert "Did you mean" not in result.stderr


@pytest.mark.parametrize(
    ("word", "meant"),
    [("sim", "simulate"), ("valdate", "validate"), ("nwe", "new"), ("ad", "add")],
)
def test_a_near_miss_or_a_prefix_still_gets_did_you_mean(cli, word, meant):
    assert f"Did you mean '{meant}'?" in cli("help", word).stderr


def placeholders(help_text: str) -> list[str]:
    """Every placeholder of a help text: in the usage line, and after each option."""
    import re

    found = []
    usage = help_text.splitlines()[0]
    found += usage.split("[OPTIONS]", 1)[1].split() if "[OPTIONS]" in usage else []
    for line in help_text.splitlines():
        m = re.match(r"\s+(-\w, )?--[\w-]+(, --[\w-]+)? (\S+)", line)
        if m and not m.group(3)[0].isupper() and "|" not in m.group(3):
            continue  # the help text itself began on this line (a flag)
        if m:
            found.append(m.group(3))
    return found


@pytest.mark.parametrize("command", COMMAND_NAMES)
def test_one_placeholder_style_in_every_help(cli, command):
    import re

    text = cli(command, "--help").stdout
    assert "<" not in text.split("\n\n")[0] and "{" not in text.splitlines()[0]
    style = re.compile(r"\[?[A-Z][A-Z0-9_]*(\.\.\.)?\]?(\.\.\.)?|[a-z][a-z-]*(\|[a-z][a-z-]*)+")
    for word in placeholders(text):
        assert style.fullmatch(word), f"cf {command} --help: {word!r}"
    for jargon in ("<str>", "<whole number>", "INTEGER", "<float", "{FILE}", "[files]"):
        assert jargon not in text, f"cf {command} --help: {jargon}"


def test_the_placeholders_read_as_the_docs_write_them(cli):
    assert cli("add", "--help").stdout.startswith("Usage: cf add [OPTIONS] FILE ENTRY...\n")
    assert cli("tally", "--help").stdout.startswith("Usage: cf tally [OPTIONS] [FILE...]\n")
    assert "-f, --format text|json  " in cli("add", "--help").stdout
    assert "--chart FILE " in cli("tally", "--help").stdout
    assert "--double-blank N " in cli("new", "--help").stdout


def test_cf_help_speaks_of_keeping_score_first(cli):
    text = cli("--help").stdout
    about = " ".join(text.split("\n\n")[1].split())
    assert about.startswith(
        "cf — the Chicken Foot (Pata de Gallina) toolkit: keep score at the table round by "
        "round (cf new, cf add, cf undo), score a hand"
    )


@pytest.mark.parametrize("command", ["", *COMMAND_NAMES])
def test_no_help_points_to_a_docs_folder_a_pip_user_does_not_have(cli, command):
    text = cli(*([command] if command else []), "--help").stdout
    assert "docs/" not in text and ".md" not in text


# --- 11. completion: player names after cf add FILE; both program names -------------------


def bash_words(cli, line: str) -> list[str]:
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    env = {"_CF_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(cword)}
    return [w for w in cli(env=env).stdout.splitlines() if w]


def test_cf_add_completes_the_players_of_the_file(cli, family):
    assert bash_words(cli, f"cf add {family} ") == ["Ana=", "Ben=", "Mamá=", "Tío\\ Lu="]
    assert bash_words(cli, f"cf add {family} Ana=3 mamá=0 ") == ["Ben=", "Tío\\ Lu="]
    assert bash_words(cli, f"cf add {family} -r 1 Ana=3 T") == ["Tío\\ Lu="]
    assert bash_words(cli, f"cf add {family} Ana=") == []  # the value is the player's
    assert bash_words(cli, "cf add nope.yaml ") == []


@pytest.mark.parametrize(
    ("shell", "markers"),
    [
        ("bash", ["complete -o default -F _cf_completion cf chickenfoot"]),
        ("zsh", ["#compdef cf chickenfoot", "compdef _cf_completion cf chickenfoot"]),
        ("fish", ["complete --command cf ", "complete --command chickenfoot "]),
    ],
)
def test_completion_registers_for_chickenfoot_too(cli, shell, markers):
    script = cli("--show-completion", shell).stdout
    for marker in markers:
        assert marker in script


def test_fish_install_writes_a_file_for_each_name(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cli("--install-completion", "fish").exit_code == 0
    folder = tmp_path / ".config/fish/completions"
    assert "--command chickenfoot" in (folder / "chickenfoot.fish").read_text()
    assert "--command cf " in (folder / "cf.fish").read_text()


@pytest.mark.skipif(subprocess.run(["bash", "-c", "true"]).returncode != 0, reason="bash")
def test_a_real_bash_completes_a_name_without_a_space_after_the_equals(family):
    """Sourced into bash, for the ``chickenfoot`` command: one candidate, ``nospace``."""
    script = (
        "source <(cf --show-completion bash)\n"
        f"COMP_WORDS=(chickenfoot add {family} Ana=1 Ben=2 Mam); COMP_CWORD=5\n"
        'compopt() { echo compopt "$@"; }\n'  # outside a real completion: show the call
        "_cf_completion chickenfoot\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
        "complete -p chickenfoot\n"
    )
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    out = subprocess.run(
        ["bash", "--norc", "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == [
        "compopt -o nospace",
        "Mamá=",
        "complete -o default -F _cf_completion chickenfoot",
    ]
