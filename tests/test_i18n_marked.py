"""Every text a person reads is marked for translation where it is written
(docs/translating.md): an AST scan of cf/ for string literals and f-strings that reach
a printer, an error or a help text without passing through ``_``, ``ngettext``, ``N_``
or ``Message``.

What reaches a person: the arguments of ``print``, ``typer.echo``/``secho``, ``fail``,
``say``, ``warn``; the message of any exception raised (``raise X("…")``); the
``help=``, ``short_help=`` and ``epilog=`` of a command or option. A literal with no
letters in it (punctuation, a format like ``"{}: {}"``) needs no translation, and a
line that says ``# untranslated: WHY`` is machine text (YAML, notation) on purpose.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
CF = ROOT / "cf"
PRINTERS = {"print", "echo", "secho", "fail", "say", "warn"}
HELP_KEYWORDS = {"help", "short_help", "epilog", "message"}
MARKERS = {"_", "gettext", "ngettext", "N_", "Message"}
#: Exceptions whose first argument is a problem code (machine text) and second the message.
CODE_FIRST = {"RuleViolation"}

#: Modules whose messages are not marked yet (docs/translating.md, "What is not
#: translated yet"). The list only shrinks: a module leaves it once marked.
NOT_YET = {
    line.strip()
    for line in (Path(__file__).parent / "i18n_not_yet.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _has_words(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return any(c.isalpha() for c in node.value)
    if isinstance(node, ast.JoinedStr):
        return any(_has_words(v) for v in node.values)
    if isinstance(node, ast.BinOp):  # "a" + "b", "…%s" % x
        return _has_words(node.left) or _has_words(node.right)
    return False


def _unmarked(tree: ast.AST, source: str = "") -> list[int]:
    """Lines where a worded literal reaches a person unmarked."""
    lines: list[int] = []
    text = source.splitlines()

    def check(value: ast.AST) -> None:
        line = value.lineno
        if _has_words(value) and "# untranslated:" not in (text[line - 1] if text else ""):
            lines.append(line)

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if _name(node.func) in PRINTERS:
                for arg in node.args[:1]:
                    check(arg)
            for keyword in node.keywords:
                if keyword.arg in HELP_KEYWORDS:
                    check(keyword.value)
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            first = 1 if _name(node.exc.func) in CODE_FIRST else 0
            for arg in node.exc.args[first : first + 1]:
                check(arg)
    return lines


MODULES = sorted(str(p.relative_to(ROOT)) for p in CF.rglob("*.py") if "locale" not in p.parts)


@pytest.mark.parametrize("module", [m for m in MODULES if m not in NOT_YET])
def test_messages_are_marked_for_translation(module):
    source = (ROOT / module).read_text(encoding="utf-8")
    assert _unmarked(ast.parse(source), source) == [], (
        f"{module}: wrap these lines' messages in _() or Message()"
    )


def test_the_not_yet_list_names_only_modules_that_still_need_it():
    def clean(module: str) -> bool:
        source = (ROOT / module).read_text(encoding="utf-8")
        return not _unmarked(ast.parse(source), source)

    done = [m for m in sorted(NOT_YET) if m in MODULES and clean(m)]
    gone = [m for m in sorted(NOT_YET) if m not in MODULES]
    assert done == [] and gone == [], "remove these from tests/i18n_not_yet.txt"


def test_the_scan_sees_an_unmarked_message():
    source = 'import typer\ntyper.echo(f"round {k} of {n}")\nraise ValueError("bad tile")\n'
    assert sorted(_unmarked(ast.parse(source))) == [2, 3]
    marked = 'typer.echo(_("round {k}").format(k=1))\nraise ValueError(Message("bad"))\n'
    assert _unmarked(ast.parse(marked)) == []
