"""Messages in the reader's language: English, Spanish (``es``) or Galician (``gl``).

Every text a person reads is marked where it is written and looked up in a gettext
catalogue (``cf/locale/LANG/LC_MESSAGES/cf.mo``) when it is printed:

- ``_("…")`` translates at once: for text printed where it is made (a scoreboard footer,
  a ``--help`` text, an error raised by a command).
- ``Message("…{player}…", player=name)`` is a string whose value stays English, for text
  that may also reach machine output (a problem's message is English in JSON and SARIF,
  in the reader's language in text): :func:`tr` gives its translation.
- ``N_("…")`` only marks a string for the catalogue; ``tr`` or ``_`` translates it later.

Placeholders are named (``{player}``), so a translator can put them in any order.

The language: ``--lang``, then ``CF_LANG``, then the usual ``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES`` and ``LANG``; a language cf has no catalogue for falls back to English.
Nothing is loaded until the first translated message in a language other than English, so
``cf score`` starts as fast as before (bench/startup.sh).

>>> set_language("es")
>>> _("Round {round}").format(round=3)
'Ronda 3'
>>> m = Message("Round {round}", round=3)
>>> str(m), tr(m)
('Round 3', 'Ronda 3')
>>> decimal(15.614, 2)
'15,61'
>>> set_language("en")
>>> tr(m), decimal(15.614, 2)
('Round 3', '15.61')
>>> set_language(None)
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

#: The languages cf speaks, English first (the language of the source).
LANGUAGES = ("en", "es", "gl")
DOMAIN = "cf"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: Environment variables that choose the language, strongest first.
ENVIRONMENT = ("CF_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_chosen: str | None = None
#: The language of the one request or task at hand (:func:`speaking`), over ``_chosen``: a
#: context variable, so each thread and each asyncio task sees its own.
_speaking: ContextVar[str | None] = ContextVar("cf_speaking", default=None)
_catalogues: dict[str, _gettext.NullTranslations] = {}


def set_language(code: str | None) -> None:
    """Use ``code`` (``es``, ``gl_ES.UTF-8``, …) from now on; ``None``: the environment's
    again. A language cf does not have means English."""
    global _chosen
    _chosen = None if code is None else _known(code) or "en"


def lang_options(args: list[str]) -> tuple[list[str], list[str]]:
    """``args`` split into its ``--lang`` options (``--lang X``, ``--lang=X``; not past
    ``--``) and the rest, each in order. A ``--lang`` with no language after it (the last
    argument, or an option next) is in the first list alone.

    >>> lang_options(["tally", "g.yaml", "--lang", "es", "--", "--lang=gl"])
    (['--lang', 'es'], ['tally', 'g.yaml', '--', '--lang=gl'])
    """
    options: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest += args[i:]
            break
        if arg.startswith("--lang="):
            options.append(arg)
        elif arg == "--lang":
            options.append(arg)
            if i + 1 < len(args) and not args[i + 1].startswith("-"):
                options.append(args[i + 1])
                i += 1
        else:
            rest.append(arg)
        i += 1
    return options, rest


def _languages(options: list[str]) -> list[str | None]:
    """The language of each ``--lang`` in ``options`` (:func:`lang_options`), ``None``
    where none was given."""
    said: list[str | None] = []
    for i, option in enumerate(options):
        if option.startswith("--lang="):
            said.append(option.partition("=")[2])
        elif option == "--lang":
            following = options[i + 1] if i + 1 < len(options) else "-"
            said.append(None if following.startswith("-") else following)
    return said


def language_from_args(args: list[str]) -> bool:
    """``cf --lang es …``: the language chosen on the command line (the last ``--lang``),
    set before the command line is parsed (so that its usage errors and ``--help`` are in
    it too). False when a ``--lang`` gives no language.

    >>> language_from_args(["--lang=gl", "deal"]); language()
    True
    'gl'
    >>> language_from_args(["--lang", "es", "deal", "--lang", "gl"]); language()
    True
    'gl'
    >>> set_language(None)
    """
    said = _languages(lang_options(args)[0])
    chosen = [code for code in said if code is not None]
    if chosen:
        set_language(chosen[-1])
    return None not in said


@contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """Within the block, messages are in ``code`` (``None``: the process's language) for
    this thread or task alone: what a server uses for each request, so that two readers
    in two languages at once never see each other's. Yields the language used.

    >>> with speaking("gl-ES"):
    ...     _("Round {round}").format(round=5)
    'Rolda 5'
    >>> language()
    'en'
    """
    mark = _speaking.set(None if code is None else _known(code) or "en")
    try:
        yield language()
    finally:
        _speaking.reset(mark)


def _known(code: str) -> str | None:
    """``es_ES.UTF-8`` → ``es``; ``C``, ``POSIX`` and languages cf lacks → ``None``."""
    base = code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def language() -> str:
    """The language messages are printed in now.

    >>> set_language("gl_ES.UTF-8"); language()
    'gl'
    >>> set_language("fr"); language()
    'en'
    >>> set_language(None)
    """
    now = _speaking.get()
    if now is not None:
        return now
    if _chosen is not None:
        return _chosen
    for name in ENVIRONMENT:
        value = os.environ.get(name)
        if not value:
            continue
        # LANGUAGE is a priority list (es:gl:en); the others name one locale. The first
        # variable that is set decides, as gettext does: a set but unknown one is English.
        for code in value.split(":") if name == "LANGUAGE" else [value]:
            found = _known(code)
            if found:
                return found
        return "en"
    return "en"


def _catalogue(lang: str) -> _gettext.NullTranslations:
    if lang not in _catalogues:
        _catalogues[lang] = _gettext.translation(
            DOMAIN, LOCALE_DIR, languages=[lang], fallback=True
        )
    return _catalogues[lang]


def gettext(message: str) -> str:
    """``message`` in the current language (itself in English or when not translated)."""
    lang = language()
    if lang == "en" or not message:
        return message
    return _catalogue(lang).gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` (one tile, two tiles) in the current language."""
    lang = language()
    if lang == "en":
        return singular if n == 1 else plural
    return _catalogue(lang).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it (yet)."""
    return message


#: A preposition of a translated sentence and the article that starts a translated part
#: put in it, written as one word where they meet ("en" + "o ficheiro da partida": "no
#: ficheiro da partida"; "de" + "el archivo": "del archivo"). Only there: a name, a path
#: or a value (the user's own text) is never changed.
_CONTRACTIONS = {
    "gl": {
        "en o": "no", "en a": "na", "en os": "nos", "en as": "nas",
        "de o": "do", "de a": "da", "de os": "dos", "de as": "das",
        "a o": "ao", "a os": "aos", "con o": "co", "con a": "coa",
        "en un": "nun", "en unha": "nunha", "de un": "dun", "de unha": "dunha",
    },
    "es": {"de el": "del", "a el": "al"},
}  # fmt: skip
#: Marks where a translated part starts in a sentence while it is put together.
_PART = "\x00"
_CONTRACTED: dict[str, Any] = {}


def contract(text: str, lang: str) -> str:
    r"""``text``, a sentence whose translated parts start with :data:`_PART`, with the
    contractions ``lang`` writes where its words meet those parts, and the marks gone.

    >>> contract("clave 'en o' de a repetida en \x00o ficheiro", "gl")
    "clave 'en o' de a repetida no ficheiro"
    """
    table = _CONTRACTIONS.get(lang)
    if table and _PART in text:
        pattern = _CONTRACTED.get(lang)
        if pattern is None:
            import re

            joins = "|".join(
                re.escape(k.replace(" ", " " + _PART))
                for k in sorted(table, key=len, reverse=True)
            )
            pattern = _CONTRACTED[lang] = re.compile(r"\b(" + joins + r")\b")
        text = pattern.sub(lambda m: table[m.group(1).replace(_PART, "")], text)
    return text.replace(_PART, "")


def _said(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """The parameters of a sentence in ``lang``: each translated part (a :class:`Message`,
    or an exception raised with one) marked where it starts, for :func:`contract`."""
    marked = lang in _CONTRACTIONS
    out = {}
    for key, value in params.items():
        part = value.args[0] if isinstance(value, BaseException) and value.args else value
        said = tr(value)  # anything else as it is: a number keeps its format spec ({n:02X})
        out[key] = _PART + said if marked and _starts_with_words(part) else said
    return out


def _starts_with_words(part: Any) -> bool:
    """Whether ``part`` is a translated part that starts with words of its own (an article
    a preposition may join), not with a value put in it ("{names} y {last}": a name)."""
    if isinstance(part, Plural):
        return not ngettext(part.singular, part.plural, part.n).startswith("{")
    if isinstance(part, Lines):
        return False
    return isinstance(part, Message) and not gettext(part.template).startswith("{")


class Message(str):
    """A message whose value is English, carrying what it takes to translate it.

    JSON, SARIF and every other machine output use it as the plain string it is; text
    for a person goes through :func:`tr`.
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Message:
        made = super().__new__(cls, template.format(**params) if params else template)
        made.template = template
        made.params = params
        return made

    def __reduce__(self) -> Any:  # worker processes send problems back by pickling
        return (_rebuild, (self.template, self.params))

    def translated(self) -> str:
        lang = language()
        if lang == "en":
            return str.__str__(self)
        text = gettext(self.template)
        if not self.params:
            return text
        return contract(text.format(**_said(self.params, lang)), lang)


def _rebuild(template: str, params: dict[str, Any]) -> Message:
    return Message(template, **params)


class Plural(Message):
    """A :class:`Message` with a count in it: English and every language take the form for
    ``n`` (``Plural("{n} time", "{n} times", n, n=n)``; extracted as ``ngettext`` is)."""

    singular: str
    plural: str
    n: int

    def __new__(cls, singular: str, plural: str, n: int, /, **params: Any) -> Plural:
        made = super().__new__(cls, singular if n == 1 else plural, **params)
        assert isinstance(made, Plural)
        made.singular, made.plural, made.n = singular, plural, n
        return made

    def __reduce__(self) -> Any:
        return (_rebuild_plural, (self.singular, self.plural, self.n, self.params))

    def translated(self) -> str:
        lang = language()
        if lang == "en":
            return str.__str__(self)
        text = ngettext(self.singular, self.plural, self.n)
        return contract(text.format(**_said(self.params, lang)), lang)


def _rebuild_plural(singular: str, plural: str, n: int, params: dict[str, Any]) -> Plural:
    return Plural(singular, plural, n, **params)


class Lines(Message):
    """Messages one per line, each said in the reader's language (``Lines([m1, m2])``)."""

    parts: tuple[Any, ...]

    def __new__(cls, parts: Any, /) -> Lines:
        parts = tuple(parts)
        made = super().__new__(cls, "\n".join(str(p) for p in parts))
        assert isinstance(made, Lines)
        made.parts = parts
        return made

    def __reduce__(self) -> Any:
        return (Lines, (self.parts,))

    def translated(self) -> str:
        return "\n".join(tr(p) for p in self.parts)


#: The system's reasons cf meets most, as the C library says them in English: said in
#: the reader's language (the system's own words are English whatever cf speaks).
OS_REASONS = (
    N_("No such file or directory"),
    N_("Permission denied"),
    N_("Operation not permitted"),
    N_("No space left on device"),
    N_("Disk quota exceeded"),
    N_("File too large"),
    N_("Broken pipe"),
    N_("Read-only file system"),
    N_("Is a directory"),
    N_("Not a directory"),
    N_("File exists"),
    N_("File name too long"),
    N_("Input/output error"),
    N_("Too many open files"),
    N_("Address already in use"),
    N_("Cannot assign requested address"),
    N_("stdin is closed"),
    N_("stdout is closed"),
)


def os_reason(exc: BaseException) -> Any:
    """Why an ``OSError`` failed, for a person: the system's reason, a :class:`Message`
    where it is one cf translates (``No space left on device``), else as the system said
    it; never Python's ``[Errno 28] …`` form."""
    said = getattr(exc, "strerror", None) or str(exc)
    return Message(said) if said in OS_REASONS else said


def message_of(exc: BaseException) -> Any:
    """The message ``exc`` was raised with: a :class:`Message` (said in any language
    later) where it is one, else its text."""
    args = exc.args
    return args[0] if len(args) == 1 and isinstance(args[0], Message) else str(exc)


def tr(text: Any) -> Any:
    """``text`` for a person: a :class:`Message` translated (an exception: its message),
    anything else as it is."""
    if isinstance(text, BaseException):
        args = text.args
        if len(args) == 1 and isinstance(args[0], Message):
            return args[0].translated()
        return str(text)
    return text.translated() if isinstance(text, Message) else text


def decimal(value: float, places: int) -> str:
    """``value`` rounded to ``places`` decimals as the reader's language writes numbers
    (``15.61``, ``15,61``), by Babel's locale data (loaded only for languages other than
    English)."""
    lang = language()
    if lang == "en":
        return f"{value:.{places}f}"
    from babel.numbers import format_decimal

    pattern = "0." + "0" * places if places else "0"
    return format_decimal(round(value, places), format=pattern, locale=lang)
