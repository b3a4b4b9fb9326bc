"""Every command on the shipped examples, run in Spanish and Galician (SPEC §14): no English
sentence is left in the text a person reads, and JSON is byte-identical to the English run;
and a Spanish game night from ``cf new`` to the winner, end to end."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
FAMILY = str(EXAMPLES / "family-night.yaml")
LEAGUE = sorted(str(p) for p in (EXAMPLES / "league").glob("*.yaml"))
HALF = str(EXAMPLES / "in-progress" / "half-played.yaml")

#: Words of English sentences that are words in neither Spanish nor Galician.
STOP_WORDS = {
    "the", "and", "with", "which", "round", "rounds", "player", "players", "tile", "tiles",
    "hand", "hands", "starts", "next", "winner", "leader", "drew", "played", "passed",
    "points", "move", "movement", "moves", "problem", "problems", "valid", "wrote", "removed",
    "yard",
    "should", "would", "there", "this", "that", "is", "are", "of", "to", "wins", "games",
    "game", "average", "left", "best", "play", "score", "scores", "rating",
    "note", "from", "not", "has", "have", "open", "ends", "starter", "foot", "arms",
    "expected", "strategy", "seed", "seconds", "went", "blocked", "turn", "usage",
}  # fmt: skip
WORD = re.compile(r"[^\W\d_]+")
#: Machine words a person also reads: notation, file keys, option values, formats.
ALLOWED = {"draw", "pass", "out", "cf", "json", "csv", "svg", "html", "yaml", "text"}

#: (command line, whether it has --format json)
COMMANDS = [
    (["tally", FAMILY], True),
    (["tally", *sorted(str(p) for p in EXAMPLES.glob("*.yaml")), "--rank-by", "average"], True),
    (["tally", *LEAGUE, "--rank-by", "rating"], True),
    (["player", "Ana", *LEAGUE], True),
    (["validate", FAMILY], True),
    (["validate", str(EXAMPLES / "mistakes" / "foot-open.yaml")], True),
    (["validate", str(EXAMPLES / "mistakes" / "foot-open.yaml"), "-f", "github"], False),
    (["score", "9-7", "6-6", "4-1", "--explain"], True),
    (["deal", "4"], True),
    (["deal"], True),
    (["score", "--photo", str(EXAMPLES / "photos" / "empty-table.png")], True),
    (["explain", "foot-open"], False),
    (["show", FAMILY, "--round", "3", "--move", "20"], True),
    (["hint", HALF, "--playouts", "5", "--seed", "1"], True),
    (["simulate", "--players", "3", "--games", "4", "--stats", "--seed", "2"], True),
]


def english_words(text: str) -> list[str]:
    lowered = {w.lower() for w in WORD.findall(text)}
    return sorted(w for w in lowered if w in STOP_WORDS and w not in ALLOWED)


def _names_in(args: list[str]) -> set[str]:
    """Players' names and file names are the users' own words, not cf's."""
    words: set[str] = set()
    for arg in args:
        words |= {w.lower() for w in WORD.findall(arg)}
    return words


def test_the_stop_words_find_english(cli):
    english = cli(*COMMANDS[0][0]).stdout
    assert english_words(english), english


@pytest.mark.parametrize("lang", ["es", "gl"])
@pytest.mark.parametrize("case", COMMANDS, ids=lambda c: " ".join(c[0][:1] + c[0][-2:]))
def test_no_english_sentence_is_left(cli, lang, case, monkeypatch):
    args, _json = case
    monkeypatch.setenv("CF_LANG", lang)
    result = cli(*args)
    assert result.exit_code in (0, 1), result.output
    # cf explain's example is a game file (YAML keys stay English), indented as code
    lines = (result.stdout + result.stderr).splitlines()
    text = "\n".join(line for line in lines if not line.startswith("    "))
    left = [w for w in english_words(text) if w not in _names_in(args)]
    assert left == [], result.stdout + result.stderr


@pytest.mark.parametrize("lang", ["es", "gl"])
@pytest.mark.parametrize(
    "case", [c for c in COMMANDS if c[1]], ids=lambda c: " ".join(c[0][:1] + c[0][-2:])
)
def test_json_does_not_change_with_the_language(cli, lang, case, monkeypatch):
    args, _json = case
    english = cli(*args, "--format", "json")
    monkeypatch.setenv("CF_LANG", lang)
    translated = cli(*args, "--format", "json")
    assert english.exit_code == translated.exit_code
    json.loads(english.stdout)
    assert translated.stdout == english.stdout


def test_a_spanish_game_night_from_new_to_the_winner(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("CF_LANG", "es")
    monkeypatch.chdir(tmp_path)  # the temporary folder's English name is not cf's
    game = "noche.yaml"
    result = cli("new", game, "--players", "Ana,Ben,Mamá", "--set", "double-six", "--rounds", "2")
    assert result.exit_code == 0, result.output
    assert english_words(result.stdout + result.stderr) == []
    result = cli("add", game, "Ana=0", "Ben=23", "Mamá=31")
    assert result.exit_code == 0, result.output
    assert "ronda 1 de 2" in result.stdout
    assert english_words(result.stdout + result.stderr) == []
    result = cli("add", game, "Ana=fuera", "Ben=5-4", "Mamá=0-0")
    assert result.exit_code == 0, result.output
    assert "Ana" in result.stdout and "gan" in result.stdout.lower()
    assert english_words(result.stdout + result.stderr) == []
    result = cli("tally", game)
    assert result.exit_code == 0 and english_words(result.stdout) == []
    result = cli("add", game, "Ana=0", "Ben=1", "Mamá=2")
    assert result.exit_code == 1
    assert english_words(result.stderr) == [] and result.stderr.strip()
    result = cli("undo", game)
    assert result.exit_code == 0 and english_words(result.stdout + result.stderr) == []


def test_galician_under_lang_as_a_real_process(tmp_path):
    env = dict(os.environ, LANG="gl_ES.UTF-8", LANGUAGE="", LC_ALL="", LC_MESSAGES="")
    env.pop("CF_LANG", None)
    run = subprocess.run(
        [sys.executable, "-m", "cf", "tally", FAMILY],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert english_words(run.stdout) == [] and "gañador" in run.stdout


#: Every command's --help, in a real process (help texts are read when a command is loaded).
HELPS = ["score", "deal", "validate", "tally", "player", "simulate", "new", "add", "undo"]
HELPS += ["serve", "show", "hint", "schema", "explain", "help"]
#: What a help page shows as it is typed: options and their values, metavars, example
#: commands, file keys (rules.rounds), defaults in brackets.
TYPED = re.compile(
    r"(\bcf [\w-]+|--[\w-]+ [a-z][\w|-]*|--?[\w-]+|\b[A-Z][A-Z_.]+\b|[\w-]+(\|[\w-]+)+"
    r"|\w+\.\w+|\w+_\w+|\w+(-\w+)+|\[[^\]]*\]|'[\w-]+')"
)


#: Game-file keys and problem codes a help page lists among others (cf new: "starter_arms,
#: …, rounds, draw"; cf explain: "turn, foot-open, …").
KEYS_LISTED = {"new": {"rounds"}, "add": {"hands", "scores"}, "explain": {"turn"}}


@pytest.mark.parametrize("lang", ["es", "gl"])
def test_every_help_page_is_in_the_language(lang):
    env = dict(os.environ, CF_LANG=lang, COLUMNS="200")
    for command in HELPS:
        run = subprocess.run(
            [sys.executable, "-m", "cf", command, "--help"],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        assert run.returncode == 0, run.stderr
        prose = [line for line in run.stdout.splitlines() if not line.strip().startswith("cf ")]
        left = english_words(TYPED.sub(" ", "\n".join(prose)))
        left = [w for w in left if w not in KEYS_LISTED.get(command, set())]
        assert left == [], (command, left, run.stdout)


def test_an_unknown_set_is_said_in_the_language_and_json_keeps_english(cli, tmp_path, monkeypatch):
    game = tmp_path / "g.yaml"
    game.write_text("set: double-seven\nplayers: [Ana, Ben]\nrounds:\n", encoding="utf-8")
    english = cli("validate", str(game), "-f", "json").stdout
    monkeypatch.setenv("CF_LANG", "es")
    result = cli("validate", str(game))
    assert result.exit_code == 1 and "juego desconocido 'double-seven'" in result.stdout
    assert cli("validate", str(game), "-f", "json").stdout == english
    assert "unknown set 'double-seven'" in english


@pytest.mark.parametrize(
    ("lang", "hint"), [("en", "give it with --deal"), ("es", "con --deal"), ("gl", "con --deal")]
)
@pytest.mark.parametrize("command", ["new", "simulate", "deal"])
def test_a_missing_deal_names_its_option_in_every_language(
    cli, tmp_path, monkeypatch, lang, hint, command
):
    """The deal table's error ends in a hint for a game file; on the command line the hint
    names the option, in the reader's language too."""
    monkeypatch.setenv("CF_LANG", lang)
    args = {"new": ["--players", "A,B,C,D,E,F,G,H,I"], "simulate": ["--players", "9"]}.get(
        command, ["9"]
    )
    where = [str(tmp_path / "g.yaml")] if command == "new" else []
    result = cli(command, *where, *args, "--set", "6")
    assert result.exit_code == (2 if command == "new" else 1)  # as docs/cli.md says
    assert result.stderr.rstrip().endswith(hint), result.stderr


@pytest.mark.parametrize("lang", ["es", "gl"])
def test_refusals_of_files_and_photos_are_said_in_the_language(cli, lang, monkeypatch, tmp_path):
    """Refusals built from a message carried by an exception or a part of a sentence (a
    photo given for the game file, a photo refused before it is decoded, a house rule's
    bound) were said in English inside a translated line."""
    import cf.photo.limits

    monkeypatch.setenv("CF_LANG", lang)
    monkeypatch.setattr(cf.photo.limits, "MAX_PHOTO_BYTES", 100)
    png = str(tmp_path / "empty-table.png")  # cf add locks beside the file: not in the repo
    shutil.copy(EXAMPLES / "photos" / "empty-table.png", png)
    rules = str(ROOT / "tests" / "games" / "rules-target.yaml")
    for args in (
        ["add", png, "Ana=0", "Ben=1"],  # a photo for the game file
        ["undo", png],
        ["score", "--photo", os.devnull],  # not a regular file
        ["score", "--photo", png],  # more than MAX_PHOTO_BYTES
        ["validate", rules],  # target: 0, "at least 1"
    ):
        result = cli(*args)
        assert result.exit_code in (1, 2), result.output
        said = result.stdout + result.stderr
        left = [w for w in english_words(said) if w not in _names_in(args)]
        assert left == [] and "least" not in said, said


@pytest.mark.parametrize(("lang", "said"), [("es", "la foto no es"), ("gl", "a foto non é")])
def test_a_photo_cf_serve_cannot_decode_is_named_in_the_language(lang, said):
    pytest.importorskip("cv2")
    from cf.i18n import speaking, tr
    from cf.serve.photos import UploadError, read_upload

    whole = (EXAMPLES / "photos" / "empty-table.png").read_bytes()
    cut = whole[: len(whole) // 3]  # an upload that stopped
    with pytest.raises(UploadError) as refused, speaking(lang):
        read_upload(cut, 9, 50, lang)
    with speaking(lang):
        assert said in tr(refused.value), tr(refused.value)


def test_a_game_too_big_to_read_is_refused_in_the_language():
    from cf.i18n import Message, speaking, tr
    from cf.record.game import Game
    from cf.record.problems import Problem
    from cf.record.replay import unusable

    game = Game("big.yaml")
    too_big = Message("the file is larger than {value} MiB: not read", value=16)
    game.problems.append(Problem("yaml", too_big))
    with speaking("es"):
        assert tr(unusable(game)) == "[yaml] el archivo ocupa más de 16 MiB: no se lee"
