"""cf in English, Spanish and Galician (docs/translating.md): the language is chosen as
the usual tools choose it, the catalogues are complete and compiled, and machine output
never changes with the language."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cf import i18n

babel = pytest.importorskip("babel")
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir  # noqa: E402
from babel.messages.mofile import read_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(__file__).parent.parent
LOCALE = ROOT / "cf" / "locale"
TRANSLATED = ("es", "gl")
FIELD = re.compile(r"\{(\w*)[^{}]*\}")


@pytest.fixture(autouse=True)
def _environment_language(monkeypatch):
    for name in i18n.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    i18n.set_language(None)
    yield
    i18n.set_language(None)


def _extracted() -> set[str]:
    keywords = {**DEFAULT_KEYWORDS, "Message": None, "Plural": (1, 2)}
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT / "cf"), method_map=[("**.py", "python")], keywords=keywords
    ):
        found.add(message if isinstance(message, str) else message[0])
    return found


def _catalogue(lang: str):
    with open(LOCALE / lang / "LC_MESSAGES" / "cf.po", "rb") as handle:
        return read_po(handle, locale=lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_stale(lang):
    catalog = _catalogue(lang)
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
    extracted = _extracted()
    assert sorted(extracted - ids) == [], "run tools/catalogues.sh and translate"
    assert sorted(ids - extracted) == [], "stale entries: run tools/catalogues.sh"
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    empty = [
        m.id
        for m in catalog
        if m.id and not all(m.string if isinstance(m.string, tuple) else [m.string])
    ]
    assert fuzzy == [] and empty == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_every_placeholder(lang):
    for m in _catalogue(lang):
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        wanted = set(FIELD.findall(ids[-1]))
        for string in strings:
            assert set(FIELD.findall(string)) == wanted, m.id


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogue_is_the_text_one(lang):
    def plain(value):
        return value if isinstance(value, str) else tuple(value)

    with open(LOCALE / lang / "LC_MESSAGES" / "cf.mo", "rb") as handle:
        compiled = {plain(m.id): plain(m.string) for m in read_mo(handle) if m.id}
    text = {plain(m.id): plain(m.string) for m in _catalogue(lang) if m.id}
    assert compiled == text, "run tools/catalogues.sh to compile"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "en"),
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "gl_ES.UTF-8"}, "gl"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "gl_ES.UTF-8", "LANG": "es_ES.UTF-8"}, "gl"),
        ({"LC_MESSAGES": "es_ES", "LANG": "gl_ES"}, "es"),
        ({"LANGUAGE": "fr:gl:es", "LANG": "es_ES.UTF-8"}, "gl"),
        ({"LANGUAGE": "fr", "LANG": "es_ES.UTF-8"}, "en"),  # set, none known: English
        ({"CF_LANG": "es", "LANGUAGE": "gl"}, "es"),
        ({"LANGUAGE": "es", "LANG": "C"}, "es"),  # docs/translating.md: unlike GNU's
        ({"LANGUAGE": "gl", "LC_ALL": "C.UTF-8"}, "gl"),
        ({"CF_LANG": "xx", "LANG": "es_ES.UTF-8"}, "en"),
    ],
)
def test_the_language_is_chosen_as_the_usual_tools_do(monkeypatch, env, expected):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert i18n.language() == expected


def test_lang_option_may_follow_the_command(cli):
    """``cf deal 4 --lang es`` is ``cf --lang es deal 4``; after ``--`` it is an argument."""
    assert cli("deal", "4", "--lang", "es").stdout == cli("--lang", "es", "deal", "4").stdout
    assert "fichas cada uno" in cli("deal", "4", "--lang=es").stdout
    assert "fichas cada un" in cli("--lang", "es", "deal", "4", "--lang", "gl").stdout  # last
    i18n.set_language(None)  # the last command chose Galician for this process
    for missing in (["deal", "4", "--lang"], ["deal", "4", "--lang", "--format", "json"]):
        result = cli(*missing)
        assert result.exit_code == 2 and "give a language: es, gl or en" in result.stderr


def test_lang_option_wins_over_the_environment(cli, monkeypatch):
    monkeypatch.setenv("CF_LANG", "gl")
    result = cli("--lang", "es", "deal", "4")
    assert "fichas cada uno" in result.stdout
    result = cli("--lang", "zz", "deal", "4")
    assert "tiles each" in result.stdout  # an unknown language is English, silently
    assert result.exit_code == 0


def test_help_is_translated_when_the_language_is_set_before_start(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "cf", "--lang", "gl", "deal", "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert "Número de xogadores: amosa só esa fila." in out.stdout


@pytest.mark.parametrize("lang", TRANSLATED)
def test_json_is_the_same_in_every_language(cli, lang):
    english = cli("deal", "--format", "json").stdout
    assert cli("--lang", lang, "deal", "--format", "json").stdout == english
    assert json.loads(english)[0]["tiles_each"] == 21


def test_numbers_follow_the_language():
    i18n.set_language("es")
    assert i18n.decimal(15.614, 2) == "15,61"
    i18n.set_language("gl")
    assert i18n.decimal(1234.5, 1) == "1234,5"
    i18n.set_language("en")
    assert i18n.decimal(15.614, 2) == "15.61"


def test_a_message_is_english_for_machines_and_translated_for_people():
    message = i18n.Message("Round {round}", round=4)
    i18n.set_language("es")
    assert message == "Round 4"
    assert json.dumps(message) == '"Round 4"'
    assert i18n.tr(message) == "Ronda 4"
    import pickle

    assert i18n.tr(pickle.loads(pickle.dumps(message))) == "Ronda 4"


def test_a_plural_message_takes_the_form_for_its_count_in_every_language():
    import pickle

    one = i18n.Plural("{n} tile", "{n} tiles", 1, n=1)
    two = i18n.Plural("{n} tile", "{n} tiles", 2, n=2)
    assert (one, two) == ("1 tile", "2 tiles")
    assert i18n.tr(pickle.loads(pickle.dumps(two))) == "2 tiles"
    text = """\
        players: [Ana, Bem, Carla]
        rounds:
          - scores: {Ana: 3, Ben: 5, Carla: 1}
          - scores: {Ana: 3, Ben: 5, Carla: 1}
        """
    from conftest import check

    found = [p.message for p in check(text).problems]
    assert "Ben 2 times: did you mean 'Ben'?" in found[0]
    i18n.set_language("es")
    assert "Ben 2 veces" in i18n.tr(found[0])
    i18n.set_language("gl")
    assert "Ben 2 veces" in i18n.tr(pickle.loads(pickle.dumps(found[0])))


@pytest.mark.parametrize("word", ["fuera", "Fuera", "fóra", "FÓRA", "fo\u0301ra", "out"])
def test_out_is_understood_in_every_language(cli, tmp_path, word):
    game = tmp_path / "g.yaml"
    assert cli("new", str(game), "--players", "Ana,Ben", "--set", "6").exit_code == 0
    result = cli("add", str(game), f"Ana={word}", "Ben=5-4")
    assert result.exit_code == 0, result.output
    assert 'hands: {Ana: "", Ben: 5-4}' in game.read_text(encoding="utf-8")
