"""The one game file the server keeps: what the page shows of it, and the writes it asks for.

Every write is the scorekeeper's (:mod:`cf.record.keeper`): the file as it would be is
validated first, and only a valid one is written, atomically and under the writers' lock
(:mod:`cf.files`), as ``cf add`` and ``cf undo`` write it. Refusals carry the library's own
messages. Nothing here reads or writes any file but the game file (and its lock).

The state the page shows is rebuilt only when the file changes (its inode, size or time),
whoever changed it: a page, another phone, or ``cf add`` in a shell.

Languages (docs/serve.md, "In the table's language"): the state is JSON, so its messages
are English whatever the language, as every machine output of cf; asked for a language,
it also carries ``shown``: the same messages in that language, for the page to show.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any

from cf.errors import Error
from cf.files import WriteError, atomic_write, locked
from cf.i18n import Message, message_of, os_reason, speaking, tr
from cf.record.edit import EditError, round_texts
from cf.record.keeper import Change, EntryError, add_entries, check_text
from cf.record.reader import MAX_BYTES, Game, read_game
from cf.record.replay import round_starter
from cf.record.standings import GameStandings, standings_of
from cf.record.undo import round_entries, undo_last
from cf.render.standings import game_json, movement, scoreboard_footer
from cf.rules import Rules

#: What the file's stat says of its content: inode, size, modification time (ns).
Signature = tuple[int, int, int]


class Refused(Error):
    """A write the keeper refused: nothing was written. ``problems`` are the lines
    ``cf validate`` would print for the file as it would have been (English, as JSON
    carries them); :meth:`json` gives them as the page shows them too: in its language,
    and those of the round being entered (``entered``) in words about that round (its
    lines are not in the file)."""

    def __init__(
        self, message: str, found: list[tuple[str, Any]] | None = None, entered: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.found = found or []  # (file, problem) pairs, to say again in any language
        self.entered = entered  # the round being entered: its problems are said in words

    @property
    def problems(self) -> list[dict[str, Any]]:
        with speaking("en"):
            return [_problem(file, p) for file, p in self.found]

    def said(self, lang: str | None) -> str:
        """The message in ``lang`` (English without one)."""
        with speaking(lang or "en"):
            return str(tr(self.message))

    def json(self, lang: str | None = None) -> dict[str, Any]:
        """``{"error", "problems"}`` in English; with ``lang``, also ``shown``: the error
        and each problem's line in that language."""
        data: dict[str, Any] = {"error": _english(self.message), "problems": self.problems}
        if lang is not None:
            with speaking(lang):
                data["shown"] = {
                    "error": tr(self.message),
                    "problems": [
                        _problem(file, p, self.entered)["text"] for file, p in self.found
                    ],
                }
        return data


def _english(text: Any) -> str:
    """A message as machine output carries it: English, even in a server that speaks
    another language."""
    with speaking("en"):
        return str(tr(text))


@dataclass
class Store:
    """The game file at ``path`` (named ``name`` in messages, as the user gave it)."""

    path: str
    name: str = ""
    #: (signature, the English state, what it was made from, its views by language).
    _cache: tuple[Signature | None, dict[str, Any], Any, dict[str, dict[str, Any]]] | None = field(
        default=None, repr=False
    )
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        self.name = self.name or self.path

    # --- reading ---------------------------------------------------------------------

    def signature(self) -> Signature | None:
        """The file's stat as a change marker; ``None`` when it cannot be seen."""
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def state(self, lang: str | None = None) -> dict[str, Any]:
        """What the page shows (see :func:`state_of`), rebuilt only when the file changed.
        Its messages are English; with ``lang`` (``es``, ``gl``, ``en``) it also has
        ``shown``: the footer, the file's error and problems in that language."""
        with self._lock:
            sig = self.signature()
            if self._cache is None or self._cache[0] != sig or sig is None:
                source: Change | Refused
                with speaking("en"):
                    try:
                        source = check_text(self._read(), self.name)
                        state = state_of(source)
                    except Refused as exc:
                        source = exc
                        state = _refused_state(self.name, _english(exc.message))
                state["version"] = "-".join(map(str, sig)) if sig else "none"
                self._cache = (sig, state, source, {})
            _, state, source, views = self._cache
            if lang is None:
                return state
            if lang not in views:
                with speaking(lang):
                    views[lang] = {**state, "shown": shown_of(source)}
            return views[lang]

    def _read(self) -> str:
        try:
            with open(self.path, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise Refused(
                Message("cannot read {file}: {why}", file=self.name, why=os_reason(exc))
            ) from None
        if len(data) > MAX_BYTES:
            raise Refused(
                Message(
                    "{file} is larger than {size} MiB", file=self.name, size=MAX_BYTES // 2**20
                )
            )
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Refused(
                Message(
                    "{file} is not UTF-8 text (bad byte at offset {offset})",
                    file=self.name,
                    offset=exc.start,
                )
            ) from None

    def chart(self, lang: str | None = None) -> str:
        """The standings chart, as ``cf tally --chart`` draws it (SVG), its words in
        ``lang``."""
        from cf.render.chart import chart_svg, running_totals

        with speaking(lang):
            change = check_text(self._read(), self.name)
            standing = _standings(change)
            if standing is None:
                raise Refused(Message("the file has problems, so there is no chart"))
            # named as cf tally --chart names one game: by its title, else its file
            return chart_svg(*running_totals([standing]), change.game.title)

    # --- writing ---------------------------------------------------------------------

    def add(
        self, entries: list[tuple[str, str]], number: int | None = None, expect: int | None = None
    ) -> None:
        """Append the round ``entries`` (NAME, VALUE as ``cf add`` takes them) make, or
        put it in place of round ``number``. ``expect``: the number the round was entered
        as; appended as another (a round written meanwhile elsewhere), it is refused.
        Raises :class:`Refused`."""

        def change(text: str) -> str:
            game = read_game(text, self.name)
            entered = number or len(game.rounds) + 1
            if number is None and expect is not None and expect != entered:
                raise Refused(
                    Message(
                        "nothing written: this was entered as round {expect}, but the next "
                        "round is {next} now (the rounds changed elsewhere): check them, "
                        "then enter it again",
                        expect=expect,
                        next=entered,
                    )
                )
            return _checked(add_entries(text, self.name, entries, number, before=game), entered)

        self._write(change)

    def undo(self, expect: int | None = None) -> int:
        """Remove the last round; its number. ``expect``: the round the page asked to undo;
        when another is the last now (a round written meanwhile elsewhere, or undone), it
        is refused. Raises :class:`Refused`."""
        removed: list[int] = []

        def change(text: str) -> str:
            result = undo_last(text, self.name)  # a file it cannot undo in says why first
            last = result.removed.number
            if expect is not None and last != expect:
                raise Refused(
                    Message(
                        "nothing undone: round {expect} was to be undone, but the last "
                        "round is {last} now (the rounds changed elsewhere): check them, "
                        "then undo again",
                        expect=expect,
                        last=last,
                    )
                )
            removed.append(last)
            return _checked(result.change)

        self._write(change)
        return removed[0]

    def _write(self, make: Any) -> None:
        try:
            with locked(self.path):
                text = self._read()
                try:
                    new = make(text)
                except (EntryError, EditError) as exc:
                    raise Refused(message_of(exc)) from None
                atomic_write(self.path, new, overwrite=True)
        except WriteError as exc:
            raise Refused(message_of(exc)) from None
        except OSError as exc:  # the lock file beside the game file
            raise Refused(
                Message("cannot write {file}: {why}", file=self.name, why=os_reason(exc))
            ) from None


def _checked(change: Change, entered: int | None = None) -> str:
    """The new text, if the file as it would be is valid; else :class:`Refused` with its
    problems (``entered``: the number of the round being entered, if any)."""
    if not change.report.valid:
        raise Refused(
            Message("nothing written: the file would have these problems"),
            [(change.report.file, p) for p in change.report.problems],
            entered,
        )
    return change.text


def _problem(file: str, p: Any, entered: int | None = None) -> dict[str, Any]:
    from cf.render.problems import entered_line, problem_line

    text = entered_line(p) if entered is not None and p.round == entered else problem_line(file, p)
    return {"code": p.code, "player": p.player, "round": p.round, "text": text}


def _standings(change: Change) -> GameStandings | None:
    points = change.report.round_points
    if not change.report.valid or any(p is None for p in points):
        return None
    return standings_of(change.game, points)  # type: ignore[arg-type]


def _refused_state(name: str, error: str) -> dict[str, Any]:
    """The page's data for a file that cannot be read at all: the keys of
    :func:`state_of`, nothing in them but the error."""
    state: dict[str, Any] = {
        "file": os_basename(name),
        "error": error,
        "title": None,
        "top": None,
        "double_blank": None,
        "out_on_double": None,
        "players": [],
        "rounds": [],
        "problems": [],
        "scoreboard": None,
    }
    return state


def state_of(change: Change) -> dict[str, Any]:
    """The page's data: the scoreboard as ``cf add`` prints it, the set and players for
    the entry form, each round's entries for fixing it, and any problem of the file
    (``error`` is for a file that cannot be read at all: :func:`_refused_state`)."""
    game = change.game
    rules = game.rules or Rules(top=game.top)
    state: dict[str, Any] = {
        "file": os_basename(change.report.file),
        "error": None,
        "title": game.title,
        "top": game.top,
        "double_blank": rules.double_blank,
        "out_on_double": rules.out_on_double,
        "players": list(game.players),
        "rounds": _entries(change),
        "problems": [_problem(change.report.file, p) for p in change.report.problems],
    }
    standing = _standings(change)
    if standing is None:
        state["scoreboard"] = None
        return state
    next_starter = _next_starter(game, standing)
    board = game_json(standing)
    board["rounds_in_game"] = standing.rounds_in_game
    board["rounds_played"] = standing.rounds_played
    board["next_starter"] = None if standing.complete else next_starter
    board["footer"] = scoreboard_footer(standing, next_starter)
    for row in board["standings"]:  # type: ignore[attr-defined]
        row["move"] = movement(row["movement"])
        row["this_round"] = row["rounds"][-1] if row["rounds"] else None
    state["scoreboard"] = board
    return state


def _next_starter(game: Game, standing: GameStandings) -> str | None:
    # a game to a target goes round the doubles again after 0-0
    k = standing.rounds_played + 1
    return None if standing.complete else str(round_starter(game.top, k))


def shown_of(source: Change | Refused) -> dict[str, Any]:
    """The state's messages in the language spoken now (:func:`cf.i18n.speaking`): the
    scoreboard's footer, the file's error and each of its problems' lines."""
    if isinstance(source, Refused):
        return {"error": tr(source.message), "footer": None, "problems": []}
    standing = _standings(source)
    footer = None
    if standing is not None:
        footer = scoreboard_footer(standing, _next_starter(source.game, standing))
    return {
        "error": None,
        "footer": footer,
        "problems": [_problem(source.report.file, p)["text"] for p in source.report.problems],
    }


def _entries(change: Change) -> list[dict[str, str] | None]:
    """Each round as the entries that write it again (score, tiles, ``out`` or
    ``out-double``, the tiles cf add kept in a comment beside scores as tiles), as ``cf
    undo`` gives them back; ``None`` for a round only the file itself can fix (a deal, a
    move log, a starter, notes: a fix from the page would lose them)."""
    texts = round_texts(change.text)
    if len(texts) != len(change.game.rounds):
        texts = [""] * len(change.game.rounds)
    return [
        round_entries(change.game, rec, text)
        for rec, text in zip(change.game.rounds, texts, strict=True)
    ]


def os_basename(path: str) -> str:
    return os.path.basename(path) or path
