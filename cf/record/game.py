"""What a game file is, as read: its rounds, hands and moves, with their positions."""

from __future__ import annotations

from dataclasses import dataclass, field

from cf.notation import Action
from cf.record.problems import Problem, ProblemLog
from cf.rules import Rules
from cf.tiles import (
    Tile,
)

TOP_KEYS = ("title", "date", "notes", "set", "rules", "players", "rounds")
ROUND_KEYS = ("starter", "deal", "moves", "hands", "scores", "notes")


@dataclass(frozen=True, slots=True)
class Pos:
    """1-based line and column of a value in the file."""

    line: int | None = None
    column: int | None = None


@dataclass(frozen=True, slots=True)
class HandEntry:
    """A hand as written for one player: its tiles, or ``None`` if it could not be read.
    A hand with a bad token (already a problem) keeps what it is made of for the checks
    across hands: ``partial``, the tiles that could be read, and ``size``, how many tokens
    it has (``None`` when it is no list of tokens at all)."""

    tiles: tuple[Tile, ...] | None
    pos: Pos
    partial: tuple[Tile, ...] = ()
    size: int | None = None

    @property
    def known(self) -> tuple[Tile, ...]:
        """The tiles read: all of them, or those a hand with a bad token has."""
        return self.tiles if self.tiles is not None else self.partial

    @property
    def count(self) -> int | None:
        """How many tiles the hand is written with, or ``None``."""
        return len(self.tiles) if self.tiles is not None else self.size


@dataclass(slots=True)
class MoveEntry:
    """One turn of the log. ``action`` is ``None`` when it could not be read, and then
    ``problem`` says why (a ``notation``, ``tile`` or ``player`` problem)."""

    number: int
    player: str | None
    action: Action | None
    line: int  # 0-based, as YAML marks count: most moves never need a position
    column: int
    problem: Problem | None = None
    #: A move whose problem is a tile outside the set, read for its shape alone (the
    #: replay checks a draw in it before that tile: SPEC 6's order).
    shape: Action | None = None

    @property
    def pos(self) -> Pos:
        return Pos(self.line + 1, self.column + 1)


@dataclass
class RoundRecord:
    """One item of ``rounds``. A part that is missing, or too broken to use, is ``None``."""

    number: int
    pos: Pos
    starter: Tile | None = None
    starter_pos: Pos | None = None
    deal: dict[str, HandEntry] | None = None
    deal_pos: Pos | None = None
    moves: list[MoveEntry] | None = None
    moves_pos: Pos | None = None
    hands: dict[str, HandEntry] | None = None
    hands_pos: Pos | None = None
    scores: dict[str, tuple[int | None, Pos]] | None = None
    scores_pos: Pos | None = None
    notes: bool = False  # the round has notes (which cf add cannot write)
    broken: bool = False  # a part was present but unreadable: do not replay
    # Parts (or typos of parts) present but not readable: already a problem, so nobody is
    # reported missing from them.
    unreadable: set[str] = field(default_factory=set)
    # (part, player) -> where a misspelling of that player's name stands in that part: the
    # player is reported missing there, right after the misspelling (the root cause).
    misnamed: dict[tuple[str, str], Pos] = field(default_factory=dict)


@dataclass
class Game:
    """A game file as read, with the problems found while reading it.

    ``set_known`` is false when the file names a set cf does not know: then ``top`` is
    only a placeholder and nothing that depends on the set is checked.
    """

    file: str
    top: int = 9
    rules: Rules | None = None
    #: Where ``rules`` is None for a bad value of a rule the deal does not depend on
    #: (``double_blank``, ``out_on_double``, ``rounds``, ``target``, ``draw``): the rules
    #: with the good values, so that the deal can still be checked (no replay needs it).
    deal_rules: Rules | None = None
    players: list[str] = field(default_factory=list)
    players_pos: Pos = Pos()
    rounds: list[RoundRecord] = field(default_factory=list)
    title: str | None = None
    date: str | None = None
    problems: ProblemLog = field(default_factory=ProblemLog)
    set_known: bool = True
    #: The path as given, where ``file`` had to replace bytes that are not UTF-8.
    path: str | None = None

    @property
    def move_count(self) -> int:
        return sum(len(r.moves or ()) for r in self.rounds)
