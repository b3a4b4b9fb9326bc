"""Problems found in a game file: a code from SPEC §6, a message and where it is."""

from __future__ import annotations

from dataclasses import dataclass

#: Every problem code, in the order SPEC §6 lists them.
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


class RuleViolation(ValueError):
    """An illegal action on the board; ``code`` is its SPEC §6 problem code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
