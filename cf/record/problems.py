"""Problems found in a game file: a problem code, a message and where it is."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

# Control characters, line and paragraph separators, and lone surrogates (which no output
# encoding can write): a message or a name shows them as escapes.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")

#: The most problems kept per file; past it they are only counted, by code.
MAX_PROBLEMS = 1000
#: The longest message kept whole (a message quotes the file; quotes are clipped too).
MAX_MESSAGE = 500


def one_line(text: str) -> str:
    r"""``text`` with line breaks and other control characters written as escapes.

    >>> print(one_line("Ana\x1b[2J"))
    Ana\x1b[2J
    """
    return _CONTROL.sub(
        lambda m: m.group().encode("unicode_escape", "backslashreplace").decode("ascii"), text
    )


def has_control(text: str) -> bool:
    """Whether ``text`` holds a character :func:`one_line` would escape."""
    return _CONTROL.search(text) is not None


#: Every problem code, in the order docs/file-format.md lists them.
CODES: tuple[str, ...] = (
    "yaml",
    "schema",
    "rules",
    "player",
    "tile",
    "notation",
    "duplicate-tile",
    "deal",
    "starter",
    "round-count",
    "missing-score",
    "turn",
    "not-in-hand",
    "already-played",
    "not-in-yard",
    "no-match",
    "starter-open",
    "foot-open",
    "must-play",
    "must-play-drawn",
    "must-draw",
    "draw-limit",
    "yard-empty",
    "after-end",
    "unfinished",
    "hands-mismatch",
    "score-mismatch",
)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a game file. Unknown positions are ``None``."""

    code: str
    message: str
    line: int | None = None
    column: int | None = None
    round: int | None = None
    move: int | None = None
    player: str | None = None

    def __post_init__(self) -> None:
        # A message quotes the file; whatever it quotes, a problem stays on one line.
        message = self.message
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 1] + "…"
        if _CONTROL.search(message):
            message = one_line(message)
        if message is not self.message:
            object.__setattr__(self, "message", message)

    def sort_key(self) -> tuple[int, int, int, int]:
        big = 1 << 62
        return (
            self.line if self.line is not None else big,
            self.column if self.column is not None else 0,
            self.round if self.round is not None else 0,
            self.move if self.move is not None else 0,
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "round": self.round,
            "move": self.move,
            "player": self.player,
        }


class ProblemLog(list[Problem]):
    """The problems of one file: the first ``cap`` are kept, the rest only counted by code,
    so that a file of millions of bad tokens costs what reading it costs.

    >>> log = ProblemLog(cap=1)
    >>> for _ in range(3):
    ...     log.append(Problem("tile", "bad"))
    >>> len(log), log.total, dict(log.omitted)
    (1, 3, {'tile': 2})
    """

    def __init__(self, problems: Iterable[Problem] = (), cap: int = MAX_PROBLEMS) -> None:
        super().__init__()
        self.cap = cap
        self.omitted: Counter[str] = Counter()
        if isinstance(problems, ProblemLog):  # a copy keeps what the original kept
            self.extend(problems)
            self.omitted.update(problems.omitted)
        else:
            for p in problems:
                self.append(p)

    @property
    def full(self) -> bool:
        """Whether a further problem would only be counted."""
        return len(self) >= self.cap

    @property
    def total(self) -> int:
        """Problems found, kept and omitted."""
        return len(self) + sum(self.omitted.values())

    def append(self, problem: Problem) -> None:
        if len(self) < self.cap:
            super().append(problem)
        else:
            self.omitted[problem.code] += 1

    def keep(self, problem: Problem) -> None:
        """Add ``problem`` even past the cap: one that ends reading must be seen."""
        super().append(problem)

    def skip(self, code: str) -> None:
        """Count a problem of ``code`` past the cap without building it."""
        self.omitted[code] += 1
