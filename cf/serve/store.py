"""The one game file the server keeps: what the page shows of it, and the writes it asks for.

Every write is the scorekeeper's (:mod:`cf.record.keeper`): the file as it would be is
validated first, and only a valid one is written, atomically and under the writers' lock
(:mod:`cf.files`), as ``cf add`` and ``cf undo`` write it. Refusals carry the library's own
messages. Nothing here reads or writes any file but the game file (and its lock).

The state the page shows is rebuilt only when the file changes (its inode, size or time),
whoever changed it: a page, another phone, or ``cf add`` in a shell.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any

from cf.errors import Error
from cf.files import WriteError, atomic_write, locked
from cf.record.edit import EditError
from cf.record.keeper import Change, EntryError, add_entries, check_text, undo_last
from cf.record.reader import MAX_BYTES, Game, RoundRecord
from cf.record.replay import round_starter
from cf.record.standings import GameStandings, standings_of
from cf.render.standings import game_json, movement, scoreboard_footer
from cf.rules import Rules
from cf.tiles import format_hand

#: What the file's stat says of its content: inode, size, modification time (ns).
Signature = tuple[int, int, int]


class Refused(Error):
    """A write the keeper refused: nothing was written. ``problems`` are the lines
    ``cf validate`` would print for the file as it would have been."""

    def __init__(self, message: str, problems: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.problems = problems or []


@dataclass
class Store:
    """The game file at ``path`` (named ``name`` in messages, as the user gave it)."""

    path: str
    name: str = ""
    _cache: tuple[Signature | None, dict[str, Any]] | None = field(default=None, repr=False)
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

    def state(self) -> dict[str, Any]:
        """What the page shows (see :func:`state_of`), rebuilt only when the file changed."""
        with self._lock:
            sig = self.signature()
            if self._cache is not None and self._cache[0] == sig and sig is not None:
                return self._cache[1]
            try:
                change = check_text(self._read(), self.name)
                state = state_of(change)
            except Refused as exc:
                state = {"error": exc.message, "players": [], "rounds": []}
            state["version"] = "-".join(map(str, sig)) if sig else "none"
            self._cache = (sig, state)
            return state

    def _read(self) -> str:
        try:
            with open(self.path, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise Refused(f"cannot read {self.name}: {exc.strerror or exc}") from None
        if len(data) > MAX_BYTES:
            raise Refused(f"{self.name} is larger than {MAX_BYTES // 2**20} MiB")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise Refused(
                f"{self.name} is not UTF-8 text (bad byte at offset {exc.start})"
            ) from None

    def chart(self) -> str:
        """The standings chart, as ``cf tally --chart`` draws it (SVG)."""
        from cf.render.chart import chart_svg, running_totals

        change = check_text(self._read(), self.name)
        standing = _standings(change)
        if standing is None:
            raise Refused("the file has problems, so there is no chart")
        return chart_svg(*running_totals([standing]))

    # --- writing ---------------------------------------------------------------------

    def add(self, entries: list[tuple[str, str]], number: int | None = None) -> None:
        """Append the round ``entries`` (NAME, VALUE as ``cf add`` takes them) make, or
        put it in place of round ``number``. Raises :class:`Refused`."""
        self._write(lambda text: _checked(add_entries(text, self.name, entries, number)))

    def undo(self) -> int:
        """Remove the last round; its number. Raises :class:`Refused`."""
        removed: list[int] = []

        def change(text: str) -> str:
            result = undo_last(text, self.name)
            removed.append(result.removed.number)
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
                    raise Refused(str(exc)) from None
                atomic_write(self.path, new, overwrite=True)
        except WriteError as exc:
            raise Refused(str(exc)) from None
        except OSError as exc:  # the lock file beside the game file
            raise Refused(f"cannot write {self.name}: {exc.strerror or exc}") from None


def _checked(change: Change) -> str:
    """The new text, if the file as it would be is valid; else :class:`Refused` with its
    problems as ``cf validate`` prints them."""
    if not change.report.valid:
        raise Refused(
            "nothing written: the file would have these problems",
            [_problem(change.report.file, p) for p in change.report.problems],
        )
    return change.text


def _problem(file: str, p: Any) -> dict[str, Any]:
    from cf.render.problems import problem_line

    return {"code": p.code, "player": p.player, "round": p.round, "text": problem_line(file, p)}


def _standings(change: Change) -> GameStandings | None:
    points = change.report.round_points
    if not change.report.valid or any(p is None for p in points):
        return None
    return standings_of(change.game, points)  # type: ignore[arg-type]


def state_of(change: Change) -> dict[str, Any]:
    """The page's data: the scoreboard as ``cf add`` prints it, the set and players for
    the entry form, each round's entries for fixing it, and any problem of the file."""
    game = change.game
    rules = game.rules or Rules(top=game.top)
    state: dict[str, Any] = {
        "file": os_basename(change.report.file),
        "title": game.title,
        "top": game.top,
        "double_blank": rules.double_blank,
        "players": list(game.players),
        "rounds": [_entries(game, r) for r in game.rounds],
        "problems": [_problem(change.report.file, p) for p in change.report.problems],
    }
    standing = _standings(change)
    if standing is None:
        state["scoreboard"] = None
        return state
    k = standing.rounds_played + 1
    next_starter = str(round_starter(game.top, k)) if k <= game.top + 1 else None
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


def _entries(game: Game, rec: RoundRecord) -> dict[str, str] | None:
    """Round ``rec`` as the entries that write it again (score, tiles or ``out``); ``None``
    for a round with a deal or a move log, which only the file itself can fix."""
    if rec.deal is not None or rec.moves is not None:
        return None
    out: dict[str, str] = {}
    for p in game.players:
        if rec.hands is not None and p in rec.hands and rec.hands[p].tiles is not None:
            tiles = rec.hands[p].tiles
            out[p] = format_hand(tiles) if tiles else "out"
        elif rec.scores is not None and p in rec.scores and rec.scores[p][0] is not None:
            out[p] = str(rec.scores[p][0])
        else:
            return None
    return out


def os_basename(path: str) -> str:
    return os.path.basename(path) or path
