"""Problems found in a game file: a problem code, a message and where it is."""

from __future__ import annotations

import re
from dataclasses import dataclass

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def one_line(text: str) -> str:
    """``text`` with line breaks and other control characters written as escapes."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


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
        if _CONTROL.search(self.message):
            object.__setattr__(self, "message", one_line(self.message))

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
