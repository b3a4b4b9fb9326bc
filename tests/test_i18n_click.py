"""The words Typer and Click print themselves (cf/cli_words.py): ``Usage:``, the sections
of ``--help``, ``[required]``, the help option and every usage error are in the reader's
language, with the same exit status and the same streams; in English they are Click's
own, byte for byte."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from enum import Enum
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cf import cli_words, i18n

TRANSLATED = ("es", "gl")

#: Click's and Typer's own English words: none is left in Spanish or Galician. ("Error"
#: is Spanish as well: it is looked for in Galician only.)
STOP_WORDS = (
    "Usage",
    "Options",
    "OPTIONS",
    "Arguments",
    "ARGS",
    "Commands",
    "COMMAND",
    "Try",
    "Missing",
    "Invalid",
    "Show",
    "message",
    "exit",
    "required",
    "default",
    "such",
    "unexpected",
    "extra",
    "valid",
    "range",
    "requires",
    "Possible",
    "does not",
    "is not",
    "env var",
    "lists them",
    "Did you mean",
    "up",
)


def english_left(text: str, lang: str) -> list[str]:
    words = [*STOP_WORDS, "Error"] if lang == "gl" else STOP_WORDS
    return [w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


#: Usage errors, one of each kind Click raises, and the English cf printed before
#: cf/cli_words.py existed (the last line of stderr; exit status 2 for all).
USAGE_ERRORS = {
    "missing argument": (["add"], "Error: Missing argument 'FILE'."),
    "bad option": (["add", "--bogus", "x"], "Error: No such option: --bogus"),
    "near option": (
        ["add", "--rou", "2"],
        "Error: No such option: --rou (Possible options: --round)",
    ),
    "bad choice": (
        ["deal", "--format", "xml"],
        "Error: Invalid value for '--format' / '-f': 'xml' is not one of 'text', 'json'.",
    ),
    "extra argument": (["deal", "4", "5"], "Error: Got unexpected extra argument(s) (5)"),
    "not a number": (
        ["deal", "abc"],
        "Error: Invalid value for 'players': 'abc' is not a valid whole number.",
    ),
    "not a decimal": (
        ["score", "--min-confidence", "abc"],
        "Error: Invalid value for '--min-confidence': 'abc' is not a valid float range.",
    ),
    "out of range": (
        ["simulate", "--games", "0"],
        "Error: Invalid value for '--games' / '-g': 0 is not in the range from 1 to 10000000.",
    ),
    "below a bound": (
        ["add", "x.yaml", "--round", "0", "Ana=1"],
        "Error: Invalid value for '--round' / '-r': 0 is not in the range from 1 up.",
    ),
    "option without value": (
        ["deal", "--format"],
        "Error: Option '--format' requires an argument.",
    ),
    "flag with value": (
        ["deal", "--shuffle=yes"],
        "Error: Option '--shuffle' does not take a value.",
    ),
    "no such command": (
        ["valdate"],
        "Error: No such command 'valdate'. Did you mean 'validate'? (cf --help lists them)",
    ),
    "group option": (["--bogus"], "Error: No such option: --bogus"),
    "missing command": (["--lang", "en"], "Error: Missing command."),
    "environment variable": (
        ["score", "--double-blank", "x", "1-1"],
        "Error: Invalid value for '--double-blank' (env var: 'CF_DOUBLE_BLANK'): "
        "a whole number, 0 or more, not 'x'",
    ),
}


@pytest.mark.parametrize("case", sorted(USAGE_ERRORS))
def test_usage_errors_in_english_are_clicks_own(cli, case):
    args, last = USAGE_ERRORS[case]
    result = cli(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1] == last
    if result.stderr.startswith("Usage: "):
        command = "cf" if args[0].startswith("-") or case == "no such command" else "cf " + args[0]
        assert f"\nTry '{command} -h' for help.\n\n" in result.stderr


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("case", sorted(USAGE_ERRORS))
def test_usage_errors_are_in_the_readers_language(cli, lang, case):
    args, _last = USAGE_ERRORS[case]
    english = cli(*args)
    result = cli("--lang", lang, *args) if case != "missing command" else cli("--lang", lang)
    assert result.exit_code == english.exit_code == 2
    assert result.stdout == ""
    assert english_left(result.stderr, lang) == [], result.stderr
    # Same shape as in English: the usage line, the hint and the error, or the error alone.
    assert len(result.stderr.splitlines()) == len(english.stderr.splitlines())


def test_a_usage_error_keeps_what_the_user_typed_and_the_names_of_options(cli):
    result = cli("--lang", "es", "deal", "--format", "xml")
    assert result.stderr == (
        "Uso: cf deal [OPCIONES] [PLAYERS]\n"
        "Prueba 'cf deal -h' para ver la ayuda.\n"
        "\n"
        "Error: Valor no válido para '--format' / '-f': 'xml' no es ninguno de estos: "
        "'text', 'json'.\n"
    )
    result = cli("--lang", "gl", "add", "--rou", "2")
    assert result.stderr.splitlines()[-1] == (
        "Erro: Non existe a opción --rou (Opcións posibles: --round)"
    )


def framework_words(page: str) -> str:
    """What the framework writes on a help page: the usage line, the section headings,
    the bracketed notes ([required], [default: …]) and the help option's line. (The
    commands' own texts are marked with the commands; a module imported in English by an
    earlier test keeps them in English in-process.)"""
    lines = page.splitlines()
    parts = [lines[0]]
    parts += [line for line in lines if re.fullmatch(r"\S.*:", line)]
    parts += re.findall(r"\[[^\[\]]*\]", " ".join(page.split()))
    parts += [line for line in lines if re.match(r" +-h, --help ", line)]
    return "\n".join(parts)


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize(
    "args", [["--help"], ["add", "--help"], ["deal", "-h"], ["help", "add"], ["help", "--help"]]
)
def test_help_pages_have_no_english_framework_words(cli, lang, args):
    english = cli(*args)
    result = cli("--lang", lang, *args)
    assert result.exit_code == english.exit_code == 0
    assert result.stderr == ""
    assert english_left(framework_words(result.stdout), lang) == [], result.stdout
    assert english_left(framework_words(english.stdout), "gl") != []  # they are looked for


def test_help_in_spanish_names_every_part(cli):
    out = cli("--lang", "es", "add", "--help").stdout
    assert out.startswith("Uso: cf add [OPCIONES] FILE ENTRY...\n")
    assert "\nArgumentos:\n" in out and "\nOpciones:\n" in out
    assert "[obligatorio]" in out and "[por defecto: text]" in out
    assert re.search(r"\[de\s+1\s+en\s+adelante\]", out)
    assert re.search(r"-h, --help +Muestra esta ayuda y termina\.", out)
    top = cli("--lang", "gl", "--help").stdout
    assert top.startswith("Uso: cf [OPCIÓNS] ORDE [ARGUMENTOS]...\n")
    assert "\nOrdes:\n" in top


def test_help_in_english_is_clicks_own(cli):
    out = cli("add", "--help").stdout
    assert out.startswith("Usage: cf add [OPTIONS] FILE ENTRY...\n")
    assert "\nArguments:\n" in out and "\nOptions:\n" in out
    assert "[required]" in out and "[default: text]" in out
    assert re.search(r"\[from\s+1\s+up\]", out)
    assert re.search(r"-h, --help +Show this message and exit\.\n", out)
    assert cli("--help").stdout.startswith("Usage: cf [OPTIONS] COMMAND [ARGS]...\n")


def test_no_arguments_shows_the_help_in_the_readers_language(cli):
    result = cli(env={"CF_LANG": "gl"})
    assert result.exit_code == 2
    assert result.stderr.startswith("Uso: cf [OPCIÓNS] ORDE [ARGUMENTOS]...\n")


@settings(max_examples=30, deadline=None)
@given(value=st.text(alphabet="abcxyz019-_. ", min_size=1, max_size=12))
def test_any_bad_choice_fails_alike_in_every_language(value):
    from typer.testing import CliRunner

    from cf.cli import app

    runner = CliRunner()
    english = runner.invoke(app, ["--lang", "en", "deal", "--format", value])
    spanish = runner.invoke(app, ["--lang", "es", "deal", "--format", value])
    i18n.set_language(None)
    assert spanish.exit_code == english.exit_code
    assert (spanish.stdout == "") == (english.stdout == "")
    if english.exit_code == 2:
        assert english_left(spanish.stderr, "es") == [], spanish.stderr


def test_a_reason_cf_wrote_itself_is_left_as_it_is():
    i18n.set_language("gl")
    try:
        assert cli_words.reason("a game needs at least 2 players") == (
            "a game needs at least 2 players"
        )
        assert cli_words.reason("'q' is not one of 'a', 'b'.") == (
            "'q' non é ningún destes: 'a', 'b'."
        )
    finally:
        i18n.set_language(None)


class Colour(str, Enum):
    red = "red"
    blue = "blue"


def test_a_missing_choice_is_said_with_its_choices():
    """No cf command has a required choice yet; Click's sentence for one is ready."""
    import typer

    app = typer.Typer()

    @app.command(cls=cli_words.Command)
    def paint(colour: Colour) -> None:
        pass

    command = typer.main.get_command(app)
    i18n.set_language("es")
    try:
        with pytest.raises(cli_words.Told) as caught, cli_words.told():
            command.main([], prog_name="paint", standalone_mode=False)
        said = caught.value.format_message()
        usage = caught.value.original.ctx.get_usage()
    finally:
        i18n.set_language(None)
    assert said == "Falta el argumento 'colour'. Elige entre:\n\tred,\n\tblue"
    assert usage == "Uso: paint [OPCIONES] COLOUR"
    assert caught.value.exit_code == 2


def test_the_words_typer_marks_are_in_cfs_catalogue():
    """Typer marks some of its words with gettext; cf/cli_words.py lists them for the
    catalogue. A Typer with other words fails here: add them there."""
    import typer.core
    from babel.messages.extract import extract_from_file

    marked = {
        message
        for _line, message, _comments, _context in extract_from_file("python", typer.core.__file__)
    }
    assert marked == set(cli_words.TYPER_WORDS)


ROOT = Path(__file__).parent.parent


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in i18n.ENVIRONMENT}
    return subprocess.run(
        [sys.executable, "-m", "cf", *args],
        capture_output=True,
        text=True,
        env={**environment, "PYTHONPATH": str(ROOT), **env},
        check=False,
    )


def test_the_cf_command_speaks_the_systems_language():
    result = _run(["add"], LANG="es_ES.UTF-8")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "Uso: cf add [OPCIONES] FILE ENTRY...\n"
        "Prueba 'cf add -h' para ver la ayuda.\n"
        "\n"
        "Error: Falta el argumento 'FILE'.\n"
    )
    for lang, args in (("gl", ["add", "--help"]), ("es", ["deal", "--help"])):
        page = _run(args, LANG=f"{lang}_ES.UTF-8")
        assert page.returncode == 0 and page.stderr == ""
        assert english_left(page.stdout, lang) == [], page.stdout  # the whole page
    assert page.stdout.startswith("Uso: cf deal [OPCIONES] [PLAYERS]\n")


def test_with_or_without_rich_the_words_are_the_same():
    """Typer uses Rich for help and errors only with a markup mode, which cf turns off:
    the output is the same whether Rich is used or not (TYPER_USE_RICH=0)."""
    for args in (["--lang", "es", "add"], ["--lang", "gl", "deal", "--help"], ["add"]):
        with_rich = _run(args)
        without = _run(args, TYPER_USE_RICH="0")
        assert (with_rich.returncode, with_rich.stdout, with_rich.stderr) == (
            without.returncode,
            without.stdout,
            without.stderr,
        )
