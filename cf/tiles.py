"""Tiles, domino sets and hands: parsing, canonical text and points.

>>> Tile.parse("[7|9]")
Tile(9, 7)
>>> str(Tile.parse("4-1"))
'4-1'
>>> hand_points(parse_hand("9-7 6-6 4-1"))
33
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter

from cf.errors import Error, clip
from cf.i18n import Message

DEFAULT_DOUBLE_BLANK = 50

#: Canonical set names by highest pip.
SET_NAMES: dict[int, str] = {
    6: "double-six",
    9: "double-nine",
    12: "double-twelve",
    15: "double-fifteen",
    18: "double-eighteen",
}

# ASCII digits only: str.isdigit() and \d also accept other scripts' digits.
_TILE_RE = re.compile(r"([0-9]+)[-|]([0-9]+)")
_SEPARATORS = re.compile(r"[\s,]+")


class NotationError(Error, ValueError):
    """Text that is not what it should be. ``code`` is its problem code."""

    code = "tile"

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class TileError(NotationError):
    """A token that is not a tile of the set (bad text or a pip above the set)."""

    code = "tile"


class DuplicateTileError(NotationError):
    """The same tile twice where each tile may appear once."""

    code = "duplicate-tile"


class SetNameError(Error, ValueError):
    """An unknown set name."""

    code = "rules"


class Tile(tuple):  # type: ignore[type-arg]
    """A domino, stored high-low so that ``9-7`` and ``7-9`` are equal.

    An immutable value: a tuple ``(high, low)`` underneath, so that hashing and comparing —
    the replay's hot path — run in C. Tiles order by high pip, then low pip.
    """

    __slots__ = ()

    high = property(itemgetter(0), doc="The higher pip.")
    low = property(itemgetter(1), doc="The lower pip.")

    def __new__(cls, high: int, low: int) -> Tile:
        if low > high:
            raise ValueError(
                Message("Tile({high}, {low}): store the high pip first", high=high, low=low)
            )
        if low < 0:
            raise ValueError(Message("pips are never negative"))
        return tuple.__new__(cls, (high, low))

    def __getnewargs__(self) -> tuple[int, int]:
        return (self[0], self[1])

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile with pips ``a`` and ``b`` in either order (one shared object per tile)."""
        if 0 <= a <= _MAX_TOP and 0 <= b <= _MAX_TOP:
            return _INTERNED[a][b]
        return cls(a, b) if a >= b else cls(b, a)

    @classmethod
    def parse(cls, text: str, top: int | None = None) -> Tile:
        """Read ``a-b``, ``a|b``, ``[a-b]`` or ``[a|b]``; ``top`` is the set's highest pip."""
        return cls.of(*parse_oriented(text, top))

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def pips(self) -> int:
        return self.high + self.low

    def has(self, number: int) -> bool:
        return self.high == number or self.low == number

    def other(self, number: int) -> int:
        """The half that is not ``number`` (``number`` itself for a double)."""
        return self.low if self.high == number else self.high

    def points(self, double_blank: int = DEFAULT_DOUBLE_BLANK) -> int:
        """What this tile costs in a hand at the end of a round."""
        return double_blank if self.high == 0 else self.high + self.low

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"


_MAX_TOP = 18
_CANONICAL = {(a, b): Tile(a, b) for a in range(_MAX_TOP + 1) for b in range(a + 1)}
_INTERNED: list[list[Tile]] = [
    [_CANONICAL[max(a, b), min(a, b)] for b in range(_MAX_TOP + 1)] for a in range(_MAX_TOP + 1)
]
_ORIENTED_CACHE: dict[tuple[str, int | None], tuple[int, int]] = {}
_CACHE_LIMIT = 50_000


def parse_oriented(text: str, top: int | None = None) -> tuple[int, int]:
    """Read a tile keeping the written order: ``"4-7"`` gives ``(4, 7)``."""
    key = (text, top)
    cached = _ORIENTED_CACHE.get(key)
    if cached is not None:
        return cached
    result = _parse_oriented(text, top)
    if len(_ORIENTED_CACHE) >= _CACHE_LIMIT:  # hostile input cannot grow it without bound
        _ORIENTED_CACHE.clear()
    _ORIENTED_CACHE[key] = result
    return result


#: Letters typed for the digits they look like: 4-l, I-1, O-4.
_LOOKALIKES = str.maketrans({"l": "1", "I": "1", "i": "1", "O": "0", "o": "0"})


def _tile_hint(token: str, top: int | None) -> str:
    """``did you mean 4-1?`` for a letter typed for a digit (``4-l``), where that makes
    a tile of the set; else how a tile is written.

    >>> _tile_hint("4-l", 9), _tile_hint("O-I", None), _tile_hint("x-1", 9)
    ('did you mean 4-1?', 'did you mean 0-1?', 'write it like 9-7 or [9|7]')
    """
    fixed = token.translate(_LOOKALIKES)
    if fixed != token and len(token) <= 16:
        try:
            _parse_oriented(fixed, top)
        except TileError:
            pass
        else:
            return Message("did you mean {tile}?", tile=fixed)
    return Message("write it like 9-7 or [9|7]")


def _parse_oriented(text: str, top: int | None) -> tuple[int, int]:
    token = text.strip()
    inner = token
    if inner.startswith("[") and inner.endswith("]"):
        inner = inner[1:-1]
    match = _TILE_RE.fullmatch(inner)
    if match is None:
        raise TileError(
            Message(
                "'{token}' is not a tile ({tile_hint})",
                token=clip(token),
                tile_hint=_tile_hint(token, top),
            ),
            token,
        )
    if len(match.group(1)) > 4 or len(match.group(2)) > 4:
        raise TileError(Message("'{token}' has a pip above the set", token=clip(token)), token)
    a, b = int(match.group(1)), int(match.group(2))
    if top is not None and max(a, b) > top:
        raise TileError(
            Message(
                "'{token}' is not in {set_name}: pips go from 0 to {top}",
                token=token,
                set_name=set_name(top),
                top=top,
            ),
            token,
        )
    return a, b


def split_tokens(text: str) -> list[str]:
    """Split hand text on whitespace and commas, dropping empty pieces."""
    return [t for t in _SEPARATORS.split(text) if t]


def parse_hand(text: str | Iterable[str], top: int | None = 9) -> tuple[Tile, ...]:
    """Read a hand: tiles separated by whitespace and/or commas, each tile at most once.

    ``text`` may also be a list of tile tokens. Raises :class:`TileError` or
    :class:`DuplicateTileError` naming the first offending token.
    """
    tokens = split_tokens(text) if isinstance(text, str) else list(text)
    seen: set[Tile] = set()
    tiles = []
    for token in tokens:
        tile = Tile.parse(token, top)
        if tile in seen:
            again = (
                Message("'{token}' repeats {tile}", token=token, tile=tile)
                if token.strip() != str(tile)
                else Message("{tile} twice", tile=tile)
            )
            raise DuplicateTileError(
                Message("{again}: a tile can be in a hand only once", again=again), token
            )
        seen.add(tile)
        tiles.append(tile)
    return tuple(tiles)


def format_hand(tiles: Iterable[Tile]) -> str:
    """Canonical text of a hand: ``"9-7 6-6 4-1"``."""
    return " ".join(str(t) for t in tiles)


def hand_points(tiles: Iterable[Tile], double_blank: int = DEFAULT_DOUBLE_BLANK) -> int:
    """Points of a hand: the sum of its pips, the double blank counting ``double_blank``."""
    return sum(t.points(double_blank) for t in tiles)


# --- sets -------------------------------------------------------------------

_NUMBER_WORDS = {v.split("-", 1)[1]: k for k, v in SET_NAMES.items()}


def parse_set_name(text: object) -> int:
    """The highest pip of a named set: ``double-nine``, ``double-9``, ``d9`` or ``9``.

    >>> parse_set_name("d12")
    12
    """
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise SetNameError(Message("a set is named by text, not {name}", name=type(text).__name__))
    name = str(text).strip().lower() if isinstance(text, str) else _int_text(text)
    number = name
    if name.startswith("double-"):
        number = name[len("double-") :]
    elif name.startswith("d"):
        number = name[1:]
    top = _NUMBER_WORDS.get(number) if name.startswith("double-") else None
    # ASCII digits only, and few of them: int() of thousands of digits is refused by Python.
    if top is None and number.isascii() and number.isdigit() and len(number) <= 4:
        top = int(number)
    if top not in SET_NAMES:
        known = ", ".join(SET_NAMES.values())
        written = text if isinstance(text, str) else name
        raise SetNameError(
            Message("unknown set '{written}' (known: {known})", written=clip(written), known=known)
        )
    return top


def _int_text(number: int) -> str:
    # str() of an int past Python's digit limit raises: such a number names no set anyway.
    return str(number) if -(10**6) < number < 10**6 else "?"


def set_name(top: int) -> str:
    """Canonical name of the double-``top`` set."""
    return SET_NAMES.get(top, f"double-{top}")


@dataclass(frozen=True, slots=True)
class DominoSet:
    """A double-N set: every tile ``a-b`` with ``0 <= b <= a <= N``, once."""

    top: int

    @classmethod
    def named(cls, name: object) -> DominoSet:
        return cls(parse_set_name(name))

    @property
    def name(self) -> str:
        return set_name(self.top)

    @property
    def size(self) -> int:
        return (self.top + 1) * (self.top + 2) // 2

    def tiles(self) -> list[Tile]:
        """All tiles, in canonical order (0-0, 1-0, 1-1, 2-0, …)."""
        return [Tile.of(a, b) for a in range(self.top + 1) for b in range(a + 1)]

    def starter(self, round_number: int) -> Tile:
        """The double that starts round ``round_number`` (1-based): N-N, then down to 0-0,
        then N-N again (only a game played to a ``target`` has more than N+1 rounds)."""
        if round_number < 1:
            raise ValueError(
                Message("{name} has rounds 1 to {value}", name=self.name, value=self.top + 1)
            )
        value = self.top - (round_number - 1) % (self.top + 1)
        return Tile.of(value, value)

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and tile.high <= self.top
