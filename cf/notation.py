"""Move notation (docs/file-format.md, "Moves"): the ``ACTION`` of a ``PLAYER: ACTION`` log entry.

An action is ``TILE`` (play), ``draw [TILE], TILE`` (draw, then play that tile),
``draw [TILE], pass`` or ``pass``. Keywords are case-insensitive and the comma may be
spaces. Tiles keep the order they were written in (near end first).

>>> a = parse_action("Draw 2-1, pass")
>>> a
Action(play=None, drew=True, drawn=(2, 1))
>>> format_action(a)
'draw 2-1, pass'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cf.errors import clip
from cf.tiles import NotationError, Tile, TileError, parse_oriented, split_tokens

_TILE_SHAPE = re.compile(r"\[?[0-9]+[-|][0-9]+\]?")

Oriented = tuple[int, int]


class MoveNotationError(NotationError):
    """Text that is none of the move forms."""

    code = "notation"


@dataclass(frozen=True, slots=True)
class Action:
    """One turn. ``play`` is the tile played as written (``None``: the turn ends in a pass);
    ``drew`` says whether the player drew first, and ``drawn`` which tile, if named."""

    play: Oriented | None = None
    drew: bool = False
    drawn: Oriented | None = None
    # The same tiles, canonical: worked out once, the replay reads them for every move.
    played_tile: Tile | None = field(default=None, init=False, repr=False, compare=False)
    drawn_tile: Tile | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.play is not None:
            object.__setattr__(self, "played_tile", Tile.of(*self.play))
        if self.drawn is not None:
            object.__setattr__(self, "drawn_tile", Tile.of(*self.drawn))

    @property
    def is_pass(self) -> bool:
        return self.play is None


@dataclass(frozen=True, slots=True)
class Move:
    """A log entry: who took the turn and what they did."""

    player: str
    action: Action

    def __str__(self) -> str:
        return f"{self.player}: {format_action(self.action)}"


def _tile(token: str, top: int | None) -> Oriented:
    if not _TILE_SHAPE.fullmatch(token):
        raise MoveNotationError(f"'{clip(token)}' is not a tile, 'draw' or 'pass'", token)
    return parse_oriented(token, top)


_ACTION_CACHE: dict[tuple[str, int | None], Action] = {}
_CACHE_LIMIT = 50_000


def parse_action(text: str, top: int | None = 9) -> Action:
    """Read an action. Raises :class:`MoveNotationError` (code ``notation``) for text that is
    none of the forms, :class:`~cf.tiles.TileError` (code ``tile``) for a tile-shaped token
    that is not in the set."""
    key = (text, top)
    action = _ACTION_CACHE.get(key)
    if action is None:
        action = _parse_action(text, top)
        if len(_ACTION_CACHE) >= _CACHE_LIMIT:  # a log is a few thousand distinct texts
            _ACTION_CACHE.clear()
        _ACTION_CACHE[key] = action
    return action


def _parse_action(text: str, top: int | None) -> Action:
    tokens = split_tokens(text)
    words = [t.lower() for t in tokens]
    if not tokens:
        raise MoveNotationError("empty move: write a tile, 'draw …' or 'pass'", text)
    if words == ["pass"]:
        return Action()
    if words[0] != "draw":
        if len(tokens) == 1:
            return Action(play=_tile(tokens[0], top))
        raise MoveNotationError(
            f"'{clip(text)}' is not a move: write a tile, 'draw [TILE], TILE|pass' or 'pass'",
            text,
        )
    rest, last = tokens[1:-1], tokens[-1]
    if len(tokens) < 2 or len(rest) > 1:
        raise MoveNotationError(
            f"'{clip(text)}' is not a move: a draw is 'draw [TILE], TILE' or 'draw [TILE], pass'",
            text,
        )
    drawn = _tile(rest[0], top) if rest else None
    play = None if last.lower() == "pass" else _tile(last, top)
    return Action(play=play, drew=True, drawn=drawn)


def format_action(action: Action) -> str:
    """Canonical text of an action, keeping each tile's written orientation."""
    end = "pass" if action.play is None else "{}-{}".format(*action.play)
    if not action.drew:
        return end
    if action.drawn is None:
        return f"draw, {end}"
    return "draw {}-{}, {}".format(*action.drawn, end)


__all__ = [
    "Action",
    "Move",
    "MoveNotationError",
    "TileError",
    "format_action",
    "parse_action",
]
