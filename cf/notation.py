"""Move notation (docs/file-format.md, "Moves"): the ``ACTION`` of a ``PLAYER: ACTION`` log entry.

An action is ``TILE`` (play), ``draw [TILE], TILE`` (draw, then play that tile),
``draw [TILE], pass`` or ``pass``; a turn with several draws (legal only under the house
rule ``draw: until``) writes each with its own ``draw``: ``draw 5-4, draw 2-1, 2-1``.
Keywords are case-insensitive and the comma may be spaces, so a tile right after ``draw``
names the drawn tile only when another item follows it. Tiles keep the order they were
written in (near end first).

>>> a = parse_action("Draw 2-1, pass")
>>> a
Action(play=None, drew=True, drawn=(2, 1))
>>> format_action(a)
'draw 2-1, pass'
>>> b = parse_action("draw 5-4 draw 2-1")
>>> b
Action(play=(2, 1), drew=True, drawn=None, earlier=((5, 4),))
>>> format_action(b), b.draws
('draw 5-4, draw, 2-1', ((5, 4), None))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cf.errors import clip
from cf.i18n import Message
from cf.tiles import NotationError, Tile, TileError, parse_oriented, split_tokens

_TILE_SHAPE = re.compile(r"\[?[0-9]+[-|][0-9]+\]?")

Oriented = tuple[int, int]


class MoveNotationError(NotationError):
    """Text that is none of the move forms."""

    code = "notation"


@dataclass(frozen=True, slots=True)
class Action:
    """One turn. ``play`` is the tile played as written (``None``: the turn ends in a pass);
    ``drew`` says whether the player drew first, and ``drawn`` which tile the last draw
    took, if named. ``earlier`` holds the draws before the last one, in order (each a tile,
    or ``None`` if unnamed): a turn of several draws, ``draw 5-4, draw 2-1, 2-1``, is
    ``Action(play=(2, 1), drew=True, drawn=(2, 1), earlier=((5, 4),))``."""

    play: Oriented | None = None
    drew: bool = False
    drawn: Oriented | None = None
    earlier: tuple[Oriented | None, ...] = field(default=(), repr=False)
    # The same tiles, canonical: worked out once, the replay reads them for every move.
    played_tile: Tile | None = field(default=None, init=False, repr=False, compare=False)
    drawn_tile: Tile | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.play is not None:
            object.__setattr__(self, "played_tile", Tile.of(*self.play))
        if self.drawn is not None:
            object.__setattr__(self, "drawn_tile", Tile.of(*self.drawn))
        if self.earlier and not self.drew:  # (an empty tuple is false: no cost per move)
            raise ValueError(Message("an action with earlier draws must have drew=True"))

    def __repr__(self) -> str:
        more = f", earlier={self.earlier!r}" if self.earlier else ""
        return f"Action(play={self.play!r}, drew={self.drew!r}, drawn={self.drawn!r}{more})"

    @property
    def is_pass(self) -> bool:
        return self.play is None

    @property
    def draws(self) -> tuple[Oriented | None, ...]:
        """Every draw of the turn, in order (a tile as written, or ``None`` if unnamed)."""
        if not self.drew:
            return ()
        return (*self.earlier, self.drawn)

    @property
    def draw_count(self) -> int:
        """How many tiles the turn drew: 0, 1, or more (only under ``draw: until``)."""
        return len(self.earlier) + 1 if self.drew else 0


@dataclass(frozen=True, slots=True)
class Move:
    """A log entry: who took the turn and what they did."""

    player: str
    action: Action

    def __str__(self) -> str:
        return f"{self.player}: {format_action(self.action)}"


def _tile(token: str, top: int | None) -> Oriented:
    if not _TILE_SHAPE.fullmatch(token):
        raise MoveNotationError(
            Message("'{token}' is not a tile, 'draw' or 'pass'", token=clip(token)), token
        )
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


#: A comma with no item before or after it (a hand allows them; a move's forms do not).
_EMPTY_ITEM = re.compile(r"^[\s,]*,|,[\s,]*$|,\s*,")


def _parse_action(text: str, top: int | None) -> Action:
    tokens = split_tokens(text)
    words = [t.lower() for t in tokens]
    if not tokens:
        raise MoveNotationError(Message("empty move: write a tile, 'draw …' or 'pass'"), text)
    if "," in text and _EMPTY_ITEM.search(text):
        raise MoveNotationError(
            Message(
                "'{text}' is not a move: a comma with nothing before or after it",
                text=clip(text),
            ),
            text,
        )
    if words == ["pass"]:
        return Action()
    if words[0] != "draw":
        if len(tokens) == 1:
            return Action(play=_tile(tokens[0], top))
        raise MoveNotationError(
            Message(
                "'{text}' is not a move: write a tile, 'draw [TILE], TILE|pass' or 'pass'",
                text=clip(text),
            ),
            text,
        )
    # One or more `draw [TILE]`, then the tile played or `pass`. A tile after `draw` names
    # the drawn tile only when another item follows it.
    draws: list[Oriented | None] = []
    i, last = 0, len(tokens) - 1
    while i < last and words[i] == "draw":
        i += 1
        if i < last and words[i] != "draw":
            draws.append(_tile(tokens[i], top))
            i += 1
        else:
            draws.append(None)
    if not draws or i != last or words[last] == "draw":
        raise MoveNotationError(
            Message(
                "'{text}' is not a move: a draw is 'draw [TILE], TILE' or "
                "'draw [TILE], pass' (several draws: 'draw [TILE], draw "
                "[TILE], …, TILE|pass')",
                text=clip(text),
            ),
            text,
        )
    play = None if words[last] == "pass" else _tile(tokens[last], top)
    return Action(play=play, drew=True, drawn=draws[-1], earlier=tuple(draws[:-1]))


def format_action(action: Action) -> str:
    """Canonical text of an action, keeping each tile's written orientation."""
    end = "pass" if action.play is None else "{}-{}".format(*action.play)
    if not action.drew:
        return end
    draws = ("draw" if d is None else "draw {}-{}".format(*d) for d in action.draws)
    return ", ".join((*draws, end))


__all__ = [
    "Action",
    "Move",
    "MoveNotationError",
    "TileError",
    "format_action",
    "parse_action",
]
