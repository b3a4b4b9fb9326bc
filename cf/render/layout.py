"""Board geometry: where every tile of a round lies on the table, with no two overlapping.

:class:`~cf.board.Round` knows only the multiset of open-end numbers, which is all the
rules need. A picture needs more: which tile lies against which. :class:`Layout` follows a
round move by move and keeps the tree of placed tiles — the starter, its arms, each chain,
each double with its three toes — and a position for each.

Which end a tile went on: the starter's next free place during the starter phase, the
open foot's next toe while a foot is open, else an open end showing the number the tile
touches (the near half as written, flipped only if that cannot fit, exactly as
:meth:`Round.apply` reads it). Where two open ends show that number, the log does not say
which, and the tile goes on the one opened first (SPEC §10).

Geometry. Lengths are in half-tiles: a tile is 2 long and 1 wide. Each tile has a centre,
and the direction of its line of play (``angle``, degrees, clockwise from the x axis as on
a screen, near half first). A double lies crosswise to its line. The starter (crosswise to
nothing: long side along x) sits at the origin with its arms spread evenly around it; a
foot's three toes fan out from the far side of its double, one straight on and two at 45°.
A chain runs straight on while there is room and turns a corner (90°, else 45°, else 135°,
clockwise first) where its next tile would overlap one already down or run into a dead end
(of the turns that fit, the first with room for LOOKAHEAD more tiles straight on, else the
one with most). In the rare case no turn has room, the tile is set down as near as there
is room (``detached``), and a picture joins it to its place with a line.

>>> from cf.notation import parse_action
>>> from cf.rules import Rules
>>> from cf.tiles import Tile, parse_hand
>>> from cf.board import Round
>>> hands = {"Ana": parse_hand("9-3 3-3"), "Ben": parse_hand("9-1 3-2")}
>>> board = Round.dealt(Rules(top=9, deal=2, starter_arms=2), ["Ana", "Ben"], Tile(9, 9), hands)
>>> layout = Layout(board.starter, board.arms_needed)
>>> for player, text in [("Ana", "9-3"), ("Ben", "9-1"), ("Ana", "3-3")]:
...     _ = layout.play(board, parse_action(text), player=player)
...     board.apply(player, parse_action(text))
>>> [(str(p.tile), p.role, p.parent) for p in layout.tiles]
[('9-9', 'starter', None), ('9-3', 'arm', 0), ('9-1', 'arm', 0), ('3-3', 'chain', 1)]
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from cf.board import Round
from cf.notation import Action
from cf.tiles import Tile

#: Space left between a tile and the one it lies against, in half-tiles.
GAP = 0.08
#: Turns a chain tries, in order, when straight on is taken (degrees).
TURNS = (0, 90, -90, 45, -45, 135, -135)
#: How many tiles ahead a chain looks for room before it picks a turn.
LOOKAHEAD = 2
_EPS = 1e-6
_CELL = 2.0  # the spatial index's cell side, in half-tiles


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """One tile on the table.

    ``near`` is the half that touches ``parent`` (the index of the tile it lies against in
    :attr:`Layout.tiles`; ``None`` for the starter), ``far`` the half that points on.
    ``role`` is ``starter``, ``arm`` (against the starter), ``toe`` (against a foot's
    double) or ``chain``. ``x``, ``y`` are its centre, ``angle`` the direction of its line
    of play; a double lies crosswise to it. ``anchor`` is the point of its parent it lies
    against (for a ``detached`` tile, the place it could not be put).
    """

    index: int
    tile: Tile
    near: int
    far: int
    parent: int | None
    role: str
    move: int
    player: str | None
    x: float
    y: float
    angle: float
    anchor: tuple[float, float]
    detached: bool = False

    @property
    def crosswise(self) -> bool:
        """Drawn across its line: doubles (the starter lies along x: also a double)."""
        return self.tile.is_double

    @property
    def long_axis(self) -> float:
        """Direction of the tile's long side, in degrees."""
        if self.role == "starter":
            return 0.0
        return self.angle + 90.0 if self.crosswise else self.angle

    def corners(self) -> list[tuple[float, float]]:
        """The four corners of the tile (2 by 1 half-tiles) on the table."""
        return _corners(self.x, self.y, self.long_axis)


@dataclass(slots=True)
class Slot:
    """A place a tile can go: an open end, a free place of the starter, a toe of a foot."""

    number: int
    parent: int
    x: float
    y: float
    angle: float
    opened: int  # order of opening: where two ends show one number, the lower goes first


@dataclass(frozen=True, slots=True)
class Before:
    """What :meth:`Layout.play` reads of a board: taken before a move, it lets the move be
    laid out after the board has accepted it."""

    arms: int
    arms_needed: int
    pending: int | None
    open_ends: frozenset[int]

    @classmethod
    def of(cls, board: Round) -> Before:
        return cls(board.arms, board.arms_needed, board.pending, frozenset(board.open_ends))


class Layout:
    """The tiles of one round as they lie on the table, built one move at a time."""

    def __init__(self, starter: Tile, arms_needed: int) -> None:
        self.starter = starter
        self.arms_needed = arms_needed
        self.tiles: list[PlacedTile] = [
            PlacedTile(
                0, starter, starter.high, starter.high, None, "starter", 0, None, 0, 0, 0, (0, 0)
            )
        ]
        self._index = _Index()
        self._rects = [_rect(0.0, 0.0, 0.0)]  # by tile index
        self._index.add(0, self._rects[0])
        self._opened = 0
        self.arm_slots = [
            self._slot(starter.high, 0, x, y, a) for x, y, a in _arm_places(arms_needed)
        ]
        self.toe_slots: list[Slot] = []  # the open foot's toes not yet played
        self.open: list[Slot] = []  # open ends, in order of opening

    def _slot(self, number: int, parent: int, x: float, y: float, angle: float) -> Slot:
        self._opened += 1
        return Slot(number, parent, x, y, angle, self._opened)

    # --- following the round ------------------------------------------------------------

    def play(
        self, board: Round | Before, action: Action, move: int = 0, player: str | None = None
    ) -> PlacedTile | None:
        """Put down the tile ``action`` plays, on ``board`` as it is *before* the action is
        applied (the round itself, or a :class:`Before` taken of it). Call it only for an
        action that ``board.apply`` accepts. Returns the placed tile (``None`` for a turn
        that plays nothing)."""
        if action.play is None:
            return None
        tile = Tile.of(*action.play)
        near, far = action.play
        if board.arms < board.arms_needed:
            slot = self.arm_slots.pop(0)
            role = "arm"
        elif board.pending is not None:
            slot = self.toe_slots.pop(0)
            role = "toe"
        else:
            touch = near if near in board.open_ends else far
            slot = next(s for s in self.open if s.number == touch)  # the one opened first
            self.open.remove(slot)
            role = "chain"
        number = slot.number
        other = tile.other(number)
        placed = self._put(tile, number, other, slot, role, move, player)
        if tile.is_double and role == "chain":
            self.toe_slots = [self._slot(number, placed.index, *t) for t in _toe_places(placed)]
        else:
            fx, fy = _far_point(placed)
            self.open.append(self._slot(other, placed.index, fx, fy, placed.angle))
        return placed

    def free_places(self) -> list[tuple[float, float, int, bool]]:
        """Where the next tiles can go: ``(x, y, number, is_open_end)`` a little way out
        from each open end (``True``) and each free place of the starter or of the open
        foot (``False``)."""
        out = []
        for slots, is_end in ((self.open, True), ((*self.arm_slots, *self.toe_slots), False)):
            for slot in slots:
                dx, dy = _unit(slot.angle)
                out.append((slot.x + dx * 0.3, slot.y + dy * 0.3, slot.number, is_end))
        return out

    def open_numbers(self) -> list[int]:
        """The open-end numbers, sorted (what ``Round.ends()`` says, from the picture)."""
        return sorted(s.number for s in self.open)

    def children(self, index: int) -> list[PlacedTile]:
        """The tiles lying against tile ``index``, in the order they were played."""
        return [t for t in self.tiles if t.parent == index]

    # --- geometry ---------------------------------------------------------------------------

    def _put(
        self, tile: Tile, near: int, far: int, slot: Slot, role: str, move: int, player: str | None
    ) -> PlacedTile:
        double = tile.is_double
        turns = TURNS if role != "arm" else (0,)  # arms go down first: always room
        best: tuple[int, float, float, float, _Rect] | None = None
        parent = self._rects[slot.parent]
        for turn in turns:  # against its slot: the turn with most room ahead wins
            angle = slot.angle + turn
            cx, cy, rect = _turned(slot, turn, double, parent)
            if not self._index.free(rect):
                continue
            room = self._room_ahead(cx, cy, angle, double)
            if best is None or room > best[0]:
                best = (room, cx, cy, angle, rect)
            if room == LOOKAHEAD:
                break
        if best is not None:
            _, cx, cy, angle, rect = best
            return self._add(tile, near, far, slot, role, move, player, cx, cy, angle, rect, False)
        for ax, ay, angle, _unused in _candidates(slot, ()):
            cx, cy = _centre(ax, ay, angle, double)
            rect = _rect(cx, cy, angle + 90.0 if double else angle)
            if self._index.free(rect):
                return self._add(
                    tile, near, far, slot, role, move, player, cx, cy, angle, rect, True
                )
        raise AssertionError(_("unreachable: far enough out there is always room"))

    def _room_ahead(self, cx: float, cy: float, angle: float, double: bool) -> int:
        """How many tiles (up to LOOKAHEAD) would fit straight on after this one."""
        dx, dy = _unit(angle)
        x, y = cx + dx * (0.5 if double else 1.0), cy + dy * (0.5 if double else 1.0)
        for k in range(LOOKAHEAD):
            nx, ny = _centre(x, y, angle, False)
            if not self._index.free(_rect(nx, ny, angle)):
                return k
            x, y = nx + dx, ny + dy
        return LOOKAHEAD

    def _add(
        self, tile: Tile, near: int, far: int, slot: Slot, role: str, move: int,
        player: str | None, cx: float, cy: float, angle: float, rect: _Rect, detached: bool,
    ) -> PlacedTile:  # fmt: skip
        placed = PlacedTile(
            len(self.tiles), tile, near, far, slot.parent, role, move, player,
            cx, cy, _norm(angle), (slot.x, slot.y), detached,
        )  # fmt: skip
        self.tiles.append(placed)
        self._rects.append(rect)
        self._index.add(placed.index, rect)
        return placed

    def bounds(self) -> tuple[float, float, float, float]:
        """``(min_x, min_y, max_x, max_y)`` of every tile's corners."""
        xs = [x for t in self.tiles for x, _unused in t.corners()]
        ys = [y for t in self.tiles for _unused, y in t.corners()]
        return min(xs), min(ys), max(xs), max(ys)


# --- plain geometry --------------------------------------------------------------------------


def _candidates(slot: Slot, turns: tuple[int, ...]) -> Iterator[tuple[float, float, float, bool]]:
    """Where a tile may go, best first: against its slot, straight on or turned; else
    (``detached``) as near the slot as there is room, on rings ever further out, which in
    the end clear everything on the table."""
    for turn in turns:
        yield slot.x, slot.y, slot.angle + turn, False
    ring = 1
    while True:
        around = 8 * ring
        for i in range(around):
            phi = slot.angle + 360.0 * i / around
            dx, dy = _unit(phi)
            for turn in (0, 90, -90, 180):
                yield slot.x + dx * ring, slot.y + dy * ring, slot.angle + turn, True
        ring += 1


def _norm(angle: float) -> float:
    a = angle % 360.0
    return 0.0 if abs(a - 360.0) < 1e-9 else a


def _unit(angle: float) -> tuple[float, float]:
    r = math.radians(angle)
    return math.cos(r), math.sin(r)


def _centre(ax: float, ay: float, angle: float, double: bool) -> tuple[float, float]:
    """The centre of a tile whose near side touches the point (ax, ay), facing ``angle``."""
    dx, dy = _unit(angle)
    depth = (0.5 if double else 1.0) + GAP
    return ax + dx * depth, ay + dy * depth


def _turned(slot: Slot, turn: float, double: bool, parent: _Rect) -> tuple[float, float, _Rect]:
    """Centre and outline of a tile played on ``slot`` and turned by ``turn`` degrees.

    Straight on, its near side touches the slot. Turned, it goes round the corner: its near
    half lies against the end of the tile it is played on (a quarter turn makes an L), moved
    out along the turn until it clears that tile.
    """
    angle = slot.angle + turn
    long_axis = angle + 90.0 if double else angle
    if turn == 0:
        cx, cy = _centre(slot.x, slot.y, angle, double)
        return cx, cy, _rect(cx, cy, long_axis)
    dx, dy = _unit(slot.angle)
    ex, ey = _unit(angle)
    side = 0.0 if double else 0.5
    cx = slot.x + dx * (0.5 + GAP) + ex * side
    cy = slot.y + dy * (0.5 + GAP) + ey * side
    bx, by = dx + ex, dy + ey
    norm = math.hypot(bx, by) or 1.0
    bx, by = bx / norm * 0.05, by / norm * 0.05
    rect = _rect(cx, cy, long_axis)
    for _unused in range(80):
        if not _overlap(rect, parent):
            break
        cx, cy = cx + bx, cy + by
        rect = _rect(cx, cy, long_axis)
    # A gap as wide as along a straight line.
    cx, cy = cx + bx * GAP / 0.05, cy + by * GAP / 0.05
    return cx, cy, _rect(cx, cy, long_axis)


def _far_point(t: PlacedTile) -> tuple[float, float]:
    dx, dy = _unit(t.angle)
    return t.x + dx, t.y + dy


def _toe_places(double: PlacedTile) -> list[tuple[float, float, float]]:
    """Anchor and direction of a foot's three toes: straight on, then left and right."""
    dx, dy = _unit(double.angle)
    px, py = -dy, dx  # a quarter turn clockwise on screen
    fx, fy = double.x + dx * 0.5, double.y + dy * 0.5  # the middle of the far side
    side = 1.0  # the toes start at the ends of the double's far side, fanned out by 45°
    return [
        (fx, fy, double.angle),
        (fx - px * side, fy - py * side, double.angle - 45.0),
        (fx + px * side, fy + py * side, double.angle + 45.0),
    ]


def _arm_places(n: int) -> list[tuple[float, float, float]]:
    """Anchor and direction of each of the starter's ``n`` arms, spread evenly around it:
    with four, east, south, west and north (clockwise on screen)."""
    angles = [0.0, 180.0] if n == 2 else [360.0 * i / n for i in range(n)]
    if n == 3:
        angles = [0.0, 180.0, 270.0]
    places = []
    starter = _rect(0.0, 0.0, 0.0)
    # Far enough out that neighbouring arms' near ends do not touch each other.
    spread = (0.5 + GAP) / math.tan(math.pi / n) if n > 2 else 0.0
    for a in angles:
        dx, dy = _unit(a)
        r = max(spread, 0.0)
        while True:  # then out past the starter itself
            cx, cy = _centre(dx * r, dy * r, a, False)
            if not _overlap(_rect(cx, cy, a), starter):
                break
            r += 0.05
        places.append((dx * r, dy * r, a))
    return places


_Rect = tuple[float, float, float, float, float, float, float, float]  # cx cy ux uy hl hw box


def _rect(cx: float, cy: float, long_axis: float) -> _Rect:
    """A 2-by-1 tile centred at (cx, cy) with its long side along ``long_axis`` (degrees),
    shrunk a hair so that tiles touching along an edge do not count as overlapping."""
    ux, uy = _unit(long_axis)
    hl, hw = 1.0 - _EPS, 0.5 - _EPS
    ex = abs(ux) * hl + abs(uy) * hw
    ey = abs(uy) * hl + abs(ux) * hw
    return (cx, cy, ux, uy, hl, hw, ex, ey)


def _overlap(a: _Rect, b: _Rect) -> bool:
    """Separating-axis test for two oriented rectangles."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if abs(dx) > a[6] + b[6] or abs(dy) > a[7] + b[7]:
        return False
    for ux, uy in ((a[2], a[3]), (-a[3], a[2]), (b[2], b[3]), (-b[3], b[2])):
        dist = abs(dx * ux + dy * uy)
        ra = a[4] * abs(a[2] * ux + a[3] * uy) + a[5] * abs(-a[3] * ux + a[2] * uy)
        rb = b[4] * abs(b[2] * ux + b[3] * uy) + b[5] * abs(-b[3] * ux + b[2] * uy)
        if dist > ra + rb:
            return False
    return True


def _corners(cx: float, cy: float, long_axis: float) -> list[tuple[float, float]]:
    ux, uy = _unit(long_axis)
    px, py = -uy, ux
    return [
        (cx + sx * ux + sy * 0.5 * px, cy + sx * uy + sy * 0.5 * py)
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]


class _Index:
    """Tiles by grid cell, so that testing a new tile looks only at its neighbours."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[_Rect]] = {}

    def _cells(self, r: _Rect) -> Iterator[tuple[int, int]]:
        x0, x1 = math.floor((r[0] - r[6]) / _CELL), math.floor((r[0] + r[6]) / _CELL)
        y0, y1 = math.floor((r[1] - r[7]) / _CELL), math.floor((r[1] + r[7]) / _CELL)
        for i in range(x0, x1 + 1):
            for j in range(y0, y1 + 1):
                yield i, j

    def add(self, index: int, r: _Rect) -> None:
        for c in self._cells(r):
            self.cells.setdefault(c, []).append(r)

    def free(self, r: _Rect) -> bool:
        cells = self.cells
        for c in self._cells(r):
            for other in cells.get(c, ()):
                if _overlap(r, other):
                    return False
        return True


__all__ = ["GAP", "Before", "Layout", "PlacedTile", "Slot"]
