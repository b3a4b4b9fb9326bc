"""Problem messages and cf add's entry errors in Spanish and Galician (SPEC §14): the
message of every problem the test games have, and every error an entry can get, reads
with no English word left in it, however it was put together (a rule's reason carried by
an exception, a part of the file named inside a sentence, several names joined), while
the JSON message stays English."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_i18n_commands import english_words

from cf import i18n
from cf.record.check import validate
from cf.record.reader import ROUND_KEYS, TOP_KEYS, read_game, read_game_file
from cf.rules import RULE_KEYS

ROOT = Path(__file__).parent.parent
GAMES = sorted(
    [
        *(ROOT / "tests" / "games").glob("*.yaml"),
        *(ROOT / "tests" / "data").glob("*.yaml"),
        *(ROOT / "examples" / "mistakes").glob("*.yaml"),
    ]
)
QUOTED = re.compile(r"'[^']*'")
#: The file's keys (``starter_arms``, ``scores``) are the file's words, not a sentence's.
KEYS = re.compile(r"\b(?:rules\.)?(?:" + "|".join((*TOP_KEYS, *ROUND_KEYS, *RULE_KEYS)) + r")\b")


def _said(message: str, lang: str, *names: str) -> list[str]:
    """English words left in ``message`` said in ``lang``, past quoted input and names."""
    with i18n.speaking(lang):
        text = i18n.tr(message)
    text = KEYS.sub(" ", QUOTED.sub(" ", text))
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return english_words(text)


def _shown(game, lang: str) -> str:
    """Every problem of ``game`` as a person reads it in ``lang``, one a line."""
    with i18n.speaking(lang):
        return "\n".join(i18n.tr(p.message) for p in validate(game).problems)


def test_the_check_sees_english_in_a_problem():
    game = read_game_file(str(ROOT / "tests" / "games" / "already-played.yaml"))
    (problem,) = validate(game).problems
    assert _said(problem.message, "en", *game.players)


@pytest.mark.parametrize("lang", ["es", "gl"])
def test_every_problem_of_the_test_games_is_said_in_the_language(lang):
    left = {}
    for path in GAMES:
        game = read_game_file(str(path))
        for p in [*game.problems, *validate(game).problems]:
            words = _said(p.message, lang, *game.players, path.name)
            if words:
                left[f"{path.name} [{p.code}] {p.message}"] = words
    assert left == {}, "\n".join(left)


#: Problems the test games do not all have, one file each: a rule's reason carried by an
#: exception, a part of the file named inside a sentence, a key twice, a list for a value.
MADE = [
    "set: double-six\nrules: {starter_arms: 9, target: 0, rounds: 8}\nplayers: [Ana, Ben]\n"
    "rounds: []\n",
    "set: double-six\nrules: {deal: 13}\nplayers: [Ana, Ben]\nrounds:\n"
    "  - deal: {Ana: 6-6, Ben: 5-5}\n",
    "set: double-six\nplayers: [Ana, Ben, Cy, Dee, Eve, Flo]\nrounds:\n  - moves: [Ana: pass]\n",
    "set: double-six\nrules: {starter_arms: players}\nplayers: [A1, A2, A3, A4, A5, A6, A7]\n"
    "rounds: []\n",
    "title: a\ntitle: b\nplayers: [Ana, Ben]\nrounds:\n  - scores: {Ana: 1, Ben: -3}\n",
    "title: [a, b]\nplayers: [Ana, Ben]\nrounds:\n  - {scores: {Ana: 1, Ben: 2}, x: 1}\n",
    "players: [Ana, Ben]\nrounds:\n  - starter: 9-9\n    deal: {Ana: 9-8, Ben: 9-7}\n"
    "    moves:\n      - Ana: plays 9-8\n      - Ben: 9-10\n      - {Ana: 9-8, Ben: pass}\n",
]


@pytest.mark.parametrize("lang", ["es", "gl"])
@pytest.mark.parametrize("text", MADE, ids=range(len(MADE)))
def test_problems_made_of_parts_are_said_in_the_language(lang, text):
    game = read_game(text, "made.yaml")
    problems = [*game.problems, *validate(game).problems]
    assert problems
    for p in problems:
        assert _said(p.message, lang, *game.players) == [], p.message


#: cf add entries that are refused, with what the English error says.
ENTRIES = [
    (["Anna=1", "Bem=2", "Carla=3"], "is not a player"),
    (["ana=1", "Ben=2", "Carla=3"], "matches 2 players"),
    (["Ana=x", "Ben=1", "Carla=3"], "is not a tile"),
    (["Ana=1.5", "Ben=1", "Carla=3"], "is not a score"),
    # tiles, but no hand of the set: the file's problems, as cf validate prints them
    (["Ana=5-5,5-5", "Ben=1", "Carla=3"], "[duplicate-tile] Ana's hand holds 5-5 twice"),
    (["Ana=5-5 4-4 [5|5]", "Ben=1", "Carla=3"], "[duplicate-tile] Ana's hand holds 5-5 twice"),
    (["Ana=7-7", "Ben=1", "Carla=3"], "[tile] Ana's hand: '7-7' is not in double-six"),
    (["Ana=1"], "Ben, Carla missing"),
]


@pytest.mark.parametrize("lang", ["es", "gl"])
@pytest.mark.parametrize("case", ENTRIES, ids=lambda c: c[1])
def test_cf_add_says_why_an_entry_is_refused_in_the_language(cli, tmp_path, lang, case):
    entries, english = case
    game = tmp_path / "g.yaml"
    players = ["Ana", "ANA", "Ben", "Carla"] if "matches" in english else ["Ana", "Ben", "Carla"]
    assert cli("new", str(game), "--players", ",".join(players), "--set", "6").exit_code == 0
    said = cli("add", str(game), *entries)
    assert said.exit_code == 1 and english in said.stderr, said.output
    said = cli("add", str(game), *entries, env={"CF_LANG": lang})
    assert said.exit_code == 1 and said.stderr.strip(), said.output
    text = QUOTED.sub(" ", said.stderr.replace(str(game), " "))
    text = re.sub(r"\[[a-z-]+\]", " ", text)  # a problem's code is never translated
    for name in [*players, game.name]:
        text = text.replace(name, " ")
    assert english_words(text) == [], said.stderr


@pytest.mark.parametrize("lang", ["es", "gl"])
def test_several_missing_players_take_the_plural(cli, tmp_path, lang):
    game = tmp_path / "g.yaml"
    assert cli("new", str(game), "--players", "Ana,Ben,Carla", "--set", "6").exit_code == 0
    said = cli("add", str(game), "Ana=1", env={"CF_LANG": lang})
    assert "faltan Ben, Carla" in said.stderr
    said = cli("add", str(game), "Ana=1", "Ben=2", env={"CF_LANG": lang})
    assert "falta Carla" in said.stderr


def test_the_json_message_stays_english(cli, monkeypatch):
    path = str(ROOT / "tests" / "games" / "yard-empty.yaml")
    english = cli("validate", path, "--format", "json").stdout
    monkeypatch.setenv("CF_LANG", "es")
    assert cli("validate", path, "--format", "json").stdout == english
    (problem,) = json.loads(english)["files"][0]["problems"]
    assert "down to the reserve of" in problem["message"]


@pytest.mark.parametrize(("lang", "what"), [("es", "un nombre"), ("gl", "un nome")])
def test_cf_new_names_what_it_refuses_in_the_language(cli, tmp_path, lang, what):
    said = cli("new", str(tmp_path / "n.yaml"), "--players", "A\x07,B", env={"CF_LANG": lang})
    assert said.exit_code == 2 and f"{what} no" in said.stderr, said.stderr
    assert "a name" not in said.stderr


@pytest.mark.parametrize(("lang", "words"), [("es", "no jugó en ninguna"), ("gl", "non xogou")])
def test_cf_player_says_a_stranger_played_in_none_in_the_language(cli, lang, words):
    league = sorted(str(p) for p in (ROOT / "examples" / "league").glob("*.yaml"))
    english = cli("player", "Zed", *league)
    assert english.exit_code == 1 and "'Zed' played in none of these games" in english.stderr
    said = cli("player", "Zed", *league, env={"CF_LANG": lang})
    assert said.exit_code == 1 and words in said.stderr, said.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Error: cannot write output: No space left on device"),
        ("es", "Error: no se puede escribir la salida: no queda espacio en el dispositivo"),
        ("gl", "Erro: non se pode escribir a saída: non queda espazo no dispositivo"),
    ],
)
def test_the_systems_reason_is_said_in_the_language(lang, said):
    """The system says its reasons in English whatever cf speaks: the ones cf meets most
    are translated (English stays the system's own words)."""
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "cf", "--lang", lang, "score", "1-1"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    assert proc.returncode == 1 and proc.stderr.strip() == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "gl",
            ["repetida no ficheiro da partida", "repetida na rolda 2", "a puntuación de Ben debe"],
        ),
        ("es", ["repetida en el archivo de la partida", "la puntuación de Ben debe ser"]),
    ],
)
def test_sentences_made_of_parts_are_grammatical(lang, said):
    """A translated part inside a translated sentence: Galician joins a preposition and
    the part's article ('en' + 'o ficheiro' is 'no ficheiro'), and a score agrees with
    its verb; a quoted value, the user's own text, is left as written."""
    text = (
        "title: a\ntitle: b\nplayers: [Ana, Ben]\nrounds:\n  - scores: {Ana: 1, Ben: -3}\n"
        "  - {scores: {Ana: 1, Ben: 2}, scores: {Ana: 1, Ben: 2}}\n"
    )
    game = read_game(text, "g.yaml")
    shown = _shown(game, lang)
    for words in said:
        assert words in shown, shown
    assert " en o " not in shown and " de a " not in shown


@pytest.mark.parametrize(
    ("lang", "name", "said"),
    [
        ("gl", "a", "a puntuación de a debe"),  # not "da"
        ("gl", "un", "a puntuación de un debe"),  # not "dun"
        ("es", "el", "la puntuación de el debe"),  # not "del"
    ],
)
def test_a_name_is_never_contracted(lang, name, said):
    """Only where a translated part meets its preposition: a player's name, a path or a
    value is the user's own text, as written."""
    text = f"players: [{name}, Ben]\nrounds:\n  - scores: {{{name}: -1, Ben: 2}}\n"
    game = read_game(text, "g.yaml")
    shown = _shown(game, lang)
    assert said in shown, shown


def test_a_path_is_never_contracted(cli, tmp_path):
    folder = tmp_path / "de a"
    result = cli("new", str(folder / "f" / "x.yaml"), "--players", "A,B", env={"CF_LANG": "gl"})
    assert result.exit_code != 0 and "de a/f/x.yaml" in result.stderr, result.stderr


@pytest.mark.parametrize("lang", ["es", "gl"])
@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"players: [Ana, Ben]\nrounds: []\ntitle: \xff\n", "0xFF"),  # {data:02X}
        (b"set: double-six\nrules: {starter_arms: 9}\nplayers: [A, B]\nrounds: []\n", " 9"),
    ],
)
def test_a_number_in_a_sentence_keeps_its_format(lang, data, said):
    """A sentence's parameters that are no translated part are put in as they are, so a
    format spec ({data:02X}) or a repr ({value!r}) still applies to the number."""
    game = read_game(data, "g.yaml")
    problems = [*game.problems, *validate(game).problems]
    with i18n.speaking(lang):
        shown = [i18n.tr(p.message) for p in problems]
    assert any(said in s and "'9'" not in s for s in shown), shown


def test_a_winners_name_is_never_contracted(cli, tmp_path):
    """'victoria de {names}' with the winners 'el' and Ben: 'de el y Ben', not 'del y Ben'
    (the list of names is no translated words: nothing joins it)."""
    game = tmp_path / "g.yaml"
    assert (
        cli("new", str(game), "--players", "el,Ben,Cy", "--set", "6", "--rounds", "1").exit_code
        == 0
    )
    assert cli("add", str(game), "el=0", "Ben=0", "Cy=5").exit_code == 0
    said = cli("add", str(game), "el=0", "Ben=0", "Cy=5", env={"CF_LANG": "es"})
    assert said.exit_code == 1 and "victoria de el y Ben" in said.stderr, said.stderr


@pytest.mark.parametrize(
    ("errno_name", "es", "gl"),
    [
        ("EFBIG", "archivo demasiado grande", "ficheiro demasiado grande"),
        ("EPIPE", "tubería rota", "tubaxe rota"),
    ],
)
def test_a_file_too_large_and_a_broken_pipe_are_said_in_the_language(errno_name, es, gl):
    """Two more of the system's reasons a write meets (ulimit -f, a FIFO's reader gone)."""
    import errno
    import os

    from cf import i18n

    code = getattr(errno, errno_name)
    reason = i18n.os_reason(OSError(code, os.strerror(code)))
    for lang, words in (("es", es), ("gl", gl), ("en", os.strerror(code))):
        with i18n.speaking(lang):
            assert i18n.tr(reason) == words


#: Text libyaml (or cf's composer) stops at with words of its own: each a different one.
BROKEN_YAML = [
    "players: [A, B]\nrounds: []\n---\nplayers: [A]\n",  # a second document
    "players: [A, B]\nrounds:\n  - scores: {A: 1, B: 2}\n  bad: 1\n",  # '-' indicator
    "players: [A, B]\nrounds: []\n%YAML 1.1\n",  # <document start>
    "players: [A, B]\nrounds: []\n...\nmore: 1\n",  # text after the end of the document
    'title: "a\\qb"\nplayers: [A]\n',  # an unknown escape
    "players: - A\n",  # a list item after a key on its line
    "a: &x 1\nb: &x 2\n",  # an anchor set twice
    "title: !x!y 1\n",  # an unknown tag handle
    "a: " + "[" * 210 + "1" + "]" * 210 + "\n",  # nested too deep
    "title: !a%zz b\n",  # a bad '%' escape in a tag
]


@pytest.mark.parametrize("lang", ["es", "gl"])
@pytest.mark.parametrize("text", BROKEN_YAML)
def test_every_yaml_parser_message_is_said_in_the_language(lang, text):
    """libyaml's own English ("expected a single document in the stream", "did not find
    expected '-' indicator") never reaches a person: each is said in cf's words."""
    (problem,) = read_game(text, "g.yaml").problems
    assert problem.code == "yaml" and problem.line is not None
    assert not _said(problem.message, lang), i18n.tr(problem.message)


@pytest.mark.parametrize("lang", ["es", "gl"])
def test_a_parser_message_cf_does_not_know_is_said_in_the_language(lang):
    import yaml

    from cf.record.yaml_errors import yaml_problem

    mark = yaml.Mark("<text>", 0, 0, 3, None, None)
    problem = yaml_problem(yaml.MarkedYAMLError(None, None, "found something new", mark), "a: b")
    assert "found something new" not in problem.message
    assert not _said(problem.message, lang), i18n.tr(problem.message)


@pytest.mark.parametrize(
    ("text", "line", "said"),
    [
        # libyaml stops at the next line holding anything: the '...' or '%' line is named
        ("set: double-six\nplayers: [A, B]\nrounds: []\n...\n# more\n\ntitle: late\n", 4, "'...'"),
        ("players: [A, B]\nrounds: []\n%YAML 1.1", 3, "'%'"),
        # at the end of a file with no last line break: still the list begun on line 3
        ("players: [A, B]\nrounds: [\n  {scores: {A: 1, B: 2}}", 3, "begun with '[' on line 2"),
        # lines ended by CR alone (old Macs): counted as libyaml counts them
        ("players: [A, B]\rrounds: [\r  {scores: {A: 1}}\r  {scores: {A: 2}}\r", 4, "line 2"),
        # between the '-' and the item's keys: an indentation, not a missing '- '
        ("players: [A, B]\nrounds:\n  - scores: {A: 1, B: 2}\n   notes: x\n", 4, "indentation"),
    ],
)
def test_a_yaml_mistake_is_placed_and_named_truly(text, line, said):
    (problem,) = read_game(text, "g.yaml").problems
    assert problem.line == line and said in problem.message, (problem.line, problem.message)
