"""A fast playout engine: one round with every hand known, on integers and bitmasks.

Search players (:mod:`cf.play.search`) spend nearly all their time playing rounds out, so
this engine trades :class:`~cf.board.Round`'s explanations for speed: a tile is a small
integer, a hand is an ``int`` used as a bit set, the open ends are a list of counts, and
what fits the board is one precomputed mask. It knows only legal turns (it never checks a
move: callers pick from :meth:`State.options`), and tests/test_fast.py proves that it agrees
with ``Round.apply`` on every move of hundreds of random rounds (bench/playouts.py on
thousands).

Tiles are numbered in greedy's order of preference (see :class:`Tables`), so greedy's
choice among the playable tiles ``hand & fit`` is simply the highest set bit.

>>> from cf.rules import Rules
>>> from cf.tiles import Tile
>>> t = Tables.get(6, 50)
>>> st = State.start(t, Rules(top=6, starter_arms=2), Tile(6, 6),
...                  [[Tile(6, 1), Tile(1, 1)], [Tile(6, 2), Tile(2, 0)]], [Tile(5, 5)])
>>> playout(st); st.winner, st.scores()
(0, [0, 2])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from cf.rules import Rules
from cf.tiles import Tile

TOES = 3

#: The ``draw`` house rule as the fast engine keeps it (cf.rules: one, one-may, until).
DRAW_CODES = {"one": 0, "one-may": 1, "until": 2}
ONE, ONE_MAY, UNTIL = 0, 1, 2


def _greedy_key(tile: Tile, double_blank: int) -> tuple[int, int, Tile]:
    # greedy_strategy: the double blank first when it costs more than any tile can, else
    # the tile worth most (ties: the higher tile).
    if tile.high == 0 and double_blank > 18:  # 0-0
        return (1, 0, tile)
    return (0, tile.points(double_blank), tile)


class Tables:
    """Per-set constants: the tile numbering and the masks of tiles holding each number."""

    _cache: ClassVar[dict[tuple[int, int], Tables]] = {}

    def __init__(self, top: int, double_blank: int) -> None:
        tiles = [Tile(a, b) for a in range(top + 1) for b in range(a + 1)]
        tiles.sort(key=lambda t: _greedy_key(t, double_blank))
        self.top = top
        self.double_blank = double_blank
        self.tiles: list[Tile] = tiles
        self.index: dict[Tile, int] = {t: i for i, t in enumerate(tiles)}
        self.high = [t.high for t in tiles]
        self.low = [t.low for t in tiles]
        self.points = [t.points(double_blank) for t in tiles]
        self.number = [0] * (top + 1)  # number -> mask of the tiles that hold it
        for i, t in enumerate(tiles):
            self.number[t.high] |= 1 << i
            self.number[t.low] |= 1 << i
        self.all = (1 << len(tiles)) - 1
        self._open: dict[int, int] = {}

    @classmethod
    def get(cls, top: int, double_blank: int) -> Tables:
        key = (top, double_blank)
        tables = cls._cache.get(key)
        if tables is None:
            tables = cls._cache[key] = cls(top, double_blank)
        return tables

    def fit_open(self, open_bits: int) -> int:
        """The tiles that fit open ends showing the numbers in the bit set ``open_bits``."""
        mask = self._open.get(open_bits)
        if mask is None:
            mask = 0
            for n in range(self.top + 1):
                if open_bits >> n & 1:
                    mask |= self.number[n]
            self._open[open_bits] = mask
        return mask

    def mask(self, tiles: Iterable[Tile]) -> int:
        index = self.index
        m = 0
        for t in tiles:
            m |= 1 << index[t]
        return m

    def tiles_of(self, mask: int) -> list[Tile]:
        """The tiles of ``mask``, in canonical (ascending) order."""
        return sorted(self.tiles[i] for i in bits(mask))

    def points_of(self, mask: int) -> int:
        points = self.points
        return sum(points[i] for i in bits(mask))


def bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class State:
    """One round in play with every hand and the yard order known (a determinization).

    ``hands`` are masks by seat; ``yard`` lists tile numbers, drawn from the end;
    ``pending`` is the open foot's number or -1; ``winner`` the seat that went out or -1,
    and ``out_double`` whether its last tile was a double. ``draw`` is the house rule
    (:data:`ONE`, :data:`ONE_MAY`, :data:`UNTIL`); ``out_points`` what going out on a
    double scores (the ``out_on_double`` rule).
    """

    __slots__ = (
        "arms",
        "arms_needed",
        "blocked",
        "cur",
        "draw",
        "drawable",
        "ends",
        "fit",
        "hands",
        "open_bits",
        "out_double",
        "out_points",
        "pending",
        "starter",
        "t",
        "toes",
        "winner",
        "yard",
    )

    t: Tables
    hands: list[int]
    yard: list[int]
    drawable: int
    starter: int
    arms: int
    arms_needed: int
    pending: int
    toes: int
    ends: list[int]
    open_bits: int
    fit: int
    cur: int
    winner: int
    blocked: bool
    draw: int
    out_points: int
    out_double: bool

    @classmethod
    def start(
        cls,
        tables: Tables,
        rules: Rules,
        starter: Tile,
        hands: Sequence[Iterable[Tile]],
        yard: Sequence[Tile],
        first: int = 0,
    ) -> State:
        """A round before its first move; ``yard`` is in draw order (first drawn first)."""
        st = cls.position(
            tables,
            hands=[tables.mask(h) for h in hands],
            yard=[tables.index[t] for t in reversed(yard)],
            reserve=rules.reserve_for(len(hands)),
            starter=starter.high,
            arms=0,
            arms_needed=rules.arms_for(len(hands)),
            pending=None,
            toes=0,
            ends=[],
            cur=first,
            draw=rules.draw,
            out_on_double=rules.out_on_double,
        )
        return st

    @classmethod
    def position(
        cls,
        tables: Tables,
        *,
        hands: list[int],
        yard: list[int],
        reserve: int,
        starter: int,
        arms: int,
        arms_needed: int,
        pending: int | None,
        toes: int,
        ends: Iterable[int],
        cur: int,
        draw: str = "one",
        out_on_double: int = 0,
    ) -> State:
        """A round at any point: ``yard`` lists tile numbers, the next one drawn last;
        ``draw`` and ``out_on_double`` are the house rules of those names."""
        st = cls()
        st.draw = DRAW_CODES[draw]
        st.out_points = out_on_double
        st.out_double = False
        st.t = tables
        st.hands = hands
        st.yard = yard
        st.drawable = max(len(yard) - reserve, 0)
        st.starter = starter
        st.arms = arms
        st.arms_needed = arms_needed
        st.pending = -1 if pending is None else pending
        st.toes = toes
        st.ends = [0] * (tables.top + 1)
        st.open_bits = 0
        for n in ends:
            st.ends[n] += 1
            st.open_bits |= 1 << n
        st.cur = cur
        st.winner = -1
        st.blocked = False
        st._refit()
        st._check_blocked()
        return st

    def copy(self) -> State:
        st = State.__new__(State)
        st.t = self.t
        st.hands = self.hands[:]
        st.yard = self.yard[:]
        st.drawable = self.drawable
        st.starter = self.starter
        st.arms = self.arms
        st.arms_needed = self.arms_needed
        st.pending = self.pending
        st.toes = self.toes
        st.ends = self.ends[:]
        st.open_bits = self.open_bits
        st.fit = self.fit
        st.cur = self.cur
        st.winner = self.winner
        st.blocked = self.blocked
        st.draw = self.draw
        st.out_points = self.out_points
        st.out_double = self.out_double
        return st

    @property
    def over(self) -> bool:
        return self.winner >= 0 or self.blocked

    def _refit(self) -> None:
        if self.arms < self.arms_needed:
            self.fit = self.t.number[self.starter]
        elif self.pending >= 0:
            self.fit = self.t.number[self.pending]
        else:
            self.fit = self.t.fit_open(self.open_bits)

    def _check_blocked(self) -> None:
        if self.drawable or self.winner >= 0:
            return
        fit = self.fit
        for h in self.hands:
            if h & fit:
                return
        self.blocked = True

    def options(self) -> list[tuple[int, int]]:
        """The current player's plays as (tile, number it is placed on), best greedy first.

        A tile that fits two open ends showing different numbers gives two options.
        """
        playable = self.hands[self.cur] & self.fit
        out = []
        t = self.t
        if self.arms < self.arms_needed or self.pending >= 0:
            near = self.starter if self.arms < self.arms_needed else self.pending
            while playable:
                i = playable.bit_length() - 1
                playable ^= 1 << i
                out.append((i, near))
            return out
        ends = self.ends
        while playable:
            i = playable.bit_length() - 1
            playable ^= 1 << i
            hi, lo = t.high[i], t.low[i]
            if ends[hi]:
                out.append((i, hi))
            if hi != lo and ends[lo]:
                out.append((i, lo))
        return out

    def greedy_near(self, tile: int) -> int:
        """Where ``Round.orient`` puts ``tile``: on its high half if an open end shows it."""
        if self.arms < self.arms_needed:
            return self.starter
        if self.pending >= 0:
            return self.pending
        hi = self.t.high[tile]
        return hi if self.ends[hi] else self.t.low[tile]

    def play(self, tile: int, near: int) -> None:
        """The current player plays ``tile`` (in hand, or just drawn) touching ``near``."""
        t = self.t
        hi, lo = t.high[tile], t.low[tile]
        ends = self.ends
        if self.arms < self.arms_needed:
            self.arms += 1
            new = lo if hi == self.starter else hi
        elif self.pending >= 0:
            d = self.pending
            self.toes += 1
            if self.toes == TOES:
                self.pending = -1
            new = lo if hi == d else hi
        else:
            left = ends[near] - 1
            ends[near] = left
            if not left:
                self.open_bits ^= 1 << near
            if hi == lo:
                self.pending = near
                self.toes = 0
                new = -1
            else:
                new = lo if near == hi else hi
        if new >= 0:
            if not ends[new]:
                self.open_bits |= 1 << new
            ends[new] += 1
        p = self.cur
        hand = self.hands[p] & ~(1 << tile)
        self.hands[p] = hand
        if not hand:
            self.winner = p
            self.out_double = hi == lo
        self._refit()
        self.cur = (p + 1) % len(self.hands)
        if not self.drawable:
            self._check_blocked()

    def forced(self, keep: bool = False) -> int:
        """The current player, holding nothing playable, draws (and plays the drawn tile if
        it fits, on greedy's end) or passes. Under ``draw: until`` the player draws again
        while the drawn tile does not fit and a tile can be drawn; under ``one-may``,
        ``keep`` keeps a drawn tile that fits instead of playing it. Returns the tile drawn
        and played, or -1."""
        while self.drawable:
            self.drawable -= 1
            tile = self.yard.pop()
            if self.fit >> tile & 1 and not (keep and self.draw == ONE_MAY):
                self.play(tile, self.greedy_near(tile))
                return tile
            self.hands[self.cur] |= 1 << tile
            if self.draw != UNTIL or self.fit >> tile & 1:
                break
        self.pass_turn()
        return -1

    def draw_one(self) -> int:
        """The current player draws one tile into the hand (the turn goes on: under
        ``one-may`` a fitting one is then played with :meth:`play`, or kept with
        :meth:`pass_turn`). Returns the tile."""
        self.drawable -= 1
        tile = self.yard.pop()
        self.hands[self.cur] |= 1 << tile
        return tile

    def pass_turn(self) -> None:
        """The current player's turn ends without a play."""
        self.cur = (self.cur + 1) % len(self.hands)
        if not self.drawable:
            self._check_blocked()

    def points(self, seat: int) -> int:
        """What ``seat`` scores now: its hand's points, or ``out_on_double`` if it went
        out on a double."""
        if seat == self.winner and self.out_double:
            return self.out_points
        return self.t.points_of(self.hands[seat])

    def scores(self) -> list[int]:
        """What each seat scores: the points left in its hand (the winner's is 0, or the
        ``out_on_double`` points for going out on a double)."""
        return [self.points(i) for i in range(len(self.hands))]


def playout(st: State) -> None:
    """Play ``st`` to the end with every seat greedy: the default policy of the searchers.

    The loop is :meth:`State.play` and :meth:`State.forced` inlined, because it is where
    the search spends its time. That makes it the one function in cf above radon
    complexity 15 by choice (issue 9): moving the tile placement into a helper made
    playouts 18% slower.
    """
    t = st.t
    number, high, low, fit_open = t.number, t.high, t.low, t.fit_open
    hands, yard, ends = st.hands, st.yard, st.ends
    n = len(hands)
    if st.winner >= 0 or st.blocked:
        return
    cur, fit, drawable = st.cur, st.fit, st.drawable
    arms, arms_needed, pending, toes = st.arms, st.arms_needed, st.pending, st.toes
    open_bits, s = st.open_bits, st.starter
    until = st.draw == UNTIL  # one-may: greedy plays a drawn tile that fits, as under one
    winner = -1
    blocked = False
    while True:
        hand = hands[cur]
        playable = hand & fit
        tile = -1
        if playable:
            tile = playable.bit_length() - 1
            hand ^= 1 << tile
            hands[cur] = hand
        elif drawable:
            drawable -= 1
            tile = yard.pop()
            while not fit >> tile & 1:
                hand |= 1 << tile
                hands[cur] = hand
                tile = -1
                if not (until and drawable):
                    break
                drawable -= 1
                tile = yard.pop()
        if tile >= 0:
            hi, lo = high[tile], low[tile]
            if arms < arms_needed:
                arms += 1
                new = lo if hi == s else hi
            elif pending >= 0:
                toes += 1
                new = lo if hi == pending else hi
                if toes == TOES:
                    pending = -1
            else:
                near = hi if ends[hi] else lo
                left = ends[near] - 1
                ends[near] = left
                if not left:
                    open_bits ^= 1 << near
                if hi == lo:
                    pending = near
                    toes = 0
                    new = -1
                else:
                    new = lo if near == hi else hi
            if new >= 0:
                if not ends[new]:
                    open_bits |= 1 << new
                ends[new] += 1
            if not hands[cur]:
                winner = cur
                st.out_double = hi == lo
                break
            if arms < arms_needed:
                fit = number[s]
            elif pending >= 0:
                fit = number[pending]
            else:
                fit = fit_open(open_bits)
        cur = cur + 1 if cur + 1 < n else 0
        if not drawable:
            for h in hands:
                if h & fit:
                    break
            else:
                blocked = True
                break
    st.cur, st.fit, st.drawable = cur, fit, drawable
    st.arms, st.pending, st.toes, st.open_bits = arms, pending, toes, open_bits
    st.winner, st.blocked = winner, blocked
