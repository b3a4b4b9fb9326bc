"""What one seat can know of the other hands, and deals consistent with it.

From the public record — the table, the seat's own hand, hand sizes, named draws, and the
log — :func:`from_log` works out, for every other player, which tiles each of their unseen
tiles may be. The log says more than it seems to: a player who drew, or passed, held no
tile that fitted the board at that moment (SPEC §4, a turn). So each unseen tile of a hand
carries an *exclusion*: the tiles it cannot be, because its owner already held it at a
draw or pass when those tiles would have fitted. Tiles drawn later carry only the later
exclusions, so a hand's unseen tiles form groups, oldest (most excluded) first.

When a player plays a tile nobody saw them get, we cannot tell which unseen tile it was;
the group that loses a tile is the oldest one that could hold it. That is the weakest
reading consistent with the record (it never rules out a deal that could have happened),
and exact in the usual case where a hand's unseen tiles all share one exclusion.

:meth:`Knowledge.sample` deals the unseen tiles to those groups and to the chicken yard,
uniformly among all such deals (a deal: which tiles each group holds, and the yard's order).
It is constraint-aware rejection sampling: the groups are filled most excluded first, each
from the tiles it may hold, chosen uniformly; that proposal favours some deals over others,
and accepting each with probability proportional to ``prod(C(a_g, m_g))`` (``a_g`` tiles
were allowed to group ``g`` when it chose its ``m_g``) corrects it exactly. Only groups with
an exclusion need the correction; unconstrained hands and the yard share the rest uniformly.
tests/test_knowledge.py checks the uniformity by enumerating a small case.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from math import comb

from cf.board import Hand, Round
from cf.errors import Error
from cf.i18n import Message
from cf.notation import Action, Move
from cf.play.fast import State, Tables, bits
from cf.play.simulate import View
from cf.rules import DRAW_ONE_MAY, Rules
from cf.tiles import Tile

#: Proposals tried before :meth:`Knowledge.sample` takes the last possible one unweighted.
MAX_TRIES = 2000


class KnowledgeError(Error, ValueError):
    """The record contradicts itself: no deal of the unseen tiles fits it."""


@dataclass
class Knowledge:
    """What ``seat`` knows of a round in progress, in :class:`~cf.play.fast.Tables` masks.

    ``groups[i]`` lists ``[exclusion, count]`` for the unseen tiles of seat ``i`` (oldest
    first; empty for ``seat`` itself); ``known[i]`` is the mask of seat ``i``'s tiles that
    are known (all of them for ``seat``).
    """

    tables: Tables
    rules: Rules
    players: tuple[str, ...]
    seat: int
    board: Round
    known: list[int]
    groups: list[list[list[int]]]
    table: int
    _plan: tuple[list[tuple[int, int, int, int]], list[tuple[int, int]]] | None = field(
        default=None, repr=False
    )

    @property
    def hand(self) -> int:
        return self.known[self.seat]

    @property
    def pool(self) -> int:
        """The tiles whose place the seat does not know: in other hands or the yard."""
        held = 0
        for k in self.known:
            held |= k
        return self.tables.all & ~self.table & ~held

    def may_hold(self, player: str) -> list[Tile]:
        """The tiles ``player`` may hold, as far as the seat can tell (canonical order)."""
        i = self.players.index(player)
        mask = self.known[i]
        pool = self.pool
        for exclusion, _ in self.groups[i]:
            mask |= pool & ~exclusion
        return self.tables.tiles_of(mask)

    def _make_plan(self) -> tuple[list[tuple[int, int, int, int]], list[tuple[int, int]]]:
        pool = self.pool
        size = pool.bit_count()
        constrained = []
        free = []
        for i, groups in enumerate(self.groups):
            for exclusion, count in groups:
                allowed = pool & ~exclusion
                if allowed == pool:
                    free.append((i, count))
                else:
                    constrained.append((allowed.bit_count(), i, allowed, count))
        constrained.sort(key=lambda g: (g[0], g[1]))
        plan = []
        taken = 0
        for allowed_count, i, allowed, count in constrained:
            bound = min(allowed_count, size - taken)
            plan.append((i, allowed, count, bound))
            taken += count
        return plan, free

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """A deal of the unseen tiles, uniform among those consistent with the record:
        (hand mask per seat, the yard as tile numbers with the next one drawn last)."""
        if self._plan is None:
            self._plan = self._make_plan()
        plan, free = self._plan
        pool_list = bits(self.pool)
        picks, rest = self._constrained_deal(plan, pool_list, rng)
        hands = self.known[:]
        for i, chosen in picks:
            for t in chosen:
                hands[i] |= 1 << t
        others = [t for t in pool_list if rest >> t & 1]
        rng.shuffle(others)
        at = 0
        for i, count in free:
            for t in others[at : at + count]:
                hands[i] |= 1 << t
            at += count
        return hands, others[at:]

    def _constrained_deal(
        self, plan: list[tuple[int, int, int, int]], pool_list: list[int], rng: random.Random
    ) -> tuple[list[tuple[int, list[int]]], int]:
        """The constrained groups' tiles, by rejection sampling: (seat, tiles) per group and
        the mask of the pool's tiles left for the free hands and the yard."""
        pool = self.pool
        last = None
        for _ in range(MAX_TRIES):
            proposal = _propose(plan, pool, pool_list, rng)
            if proposal is None:
                continue
            picks, rest, weight = proposal
            last = (picks, rest)
            if weight >= 1.0 or rng.random() < weight:
                break
        if last is None:
            raise KnowledgeError(Message("no deal of the unseen tiles fits what the record says"))
        return last

    def state(self, rng: random.Random, cur: int | None = None) -> State:
        """A sampled deal as a :class:`~cf.play.fast.State` at the current position, the
        seat to move (or ``cur``)."""
        hands, yard = self.sample(rng)
        b = self.board
        return State.position(
            self.tables,
            hands=hands,
            yard=yard,
            reserve=b.reserve,
            starter=b.starter.high,
            arms=b.arms,
            arms_needed=b.arms_needed,
            pending=b.pending,
            toes=b.toes,
            ends=b.ends(),
            cur=self.seat if cur is None else cur,
            draw=self.rules.draw,
            out_on_double=self.rules.out_on_double,
        )


def _propose(
    plan: list[tuple[int, int, int, int]], pool: int, pool_list: list[int], rng: random.Random
) -> tuple[list[tuple[int, list[int]]], int, float] | None:
    """One proposal for the constrained groups, most excluded first: (seat, tiles) per
    group, the pool mask left, and the weight that corrects the proposal to uniform; None
    when a group has too few tiles left to choose from."""
    rest = pool
    weight = 1.0
    picks = []
    for i, allowed, count, bound in plan:
        cand = [t for t in pool_list if (rest & allowed) >> t & 1]
        if len(cand) < count:
            return None
        weight *= comb(len(cand), count) / comb(bound, count)
        chosen = rng.sample(cand, count)
        picks.append((i, chosen))
        for t in chosen:
            rest ^= 1 << t
    return picks, rest, weight


def fit_mask(tables: Tables, board: Round) -> int:
    """The tiles that fit ``board`` now."""
    if board.in_starter_phase:
        return tables.number[board.starter.high]
    if board.pending is not None:
        return tables.number[board.pending]
    m = 0
    for n in board.open_ends:
        m |= tables.number[n]
    return m


def from_log(
    rules: Rules,
    players: Sequence[str],
    starter: Tile,
    seat: str,
    moves: Iterable[Move],
    *,
    dealt: Iterable[Tile] | None = None,
    hand: Iterable[Tile] | None = None,
) -> Knowledge:
    """What ``seat`` knows after ``moves`` (the public log: other players' draws unnamed
    unless the record names them) of a round started with ``starter``.

    ``dealt`` is the seat's hand as dealt; ``hand``, its hand now, replaces what the log
    leaves (for a round whose deal was not recorded). Raises
    :class:`~cf.board.RuleViolation` for a move the rules refuse and :class:`KnowledgeError`
    for a ``hand`` that cannot be.
    """
    tables = Tables.get(rules.top, rules.double_blank)
    names = list(players)
    me = names.index(seat)
    each = rules.tiles_each(len(names))
    hands = {p: Hand(set(), each) for p in names}
    if dealt is not None:
        hands[seat] = Hand(set(dealt))
    size = sum(h.size for h in hands.values())
    board = Round(rules, names, starter, hands, rules.pool - size)
    groups: list[list[list[int]]] = [[[0, each]] if i != me else [] for i in range(len(names))]
    kept_may_fit = rules.draw == DRAW_ONE_MAY
    for move in moves:
        i = names.index(move.player)
        if i == me:
            board.apply(move.player, move.action)
        else:
            groups[i] = _follow_other(tables, board, groups[i], move)
        if kept_may_fit and move.action.drew and move.action.play is None:
            # Under one-may a tile drawn and kept may fit: such a pass does not say that
            # its player is stuck, so it does not count towards a block of unseen hands.
            board.passes_in_a_row = 0
    known = [tables.mask(board.hands[p].known) for p in names]
    if hand is not None:
        known[me] = _hand_now(tables, board, known, me, seat, hand)
    elif board.hands[seat].unseen:
        raise KnowledgeError(Message("the hand of {seat} is not known", seat=seat))
    return Knowledge(
        tables, rules, tuple(names), me, board, known, groups, tables.mask(board.on_table)
    )


def _follow_other(
    tables: Tables, board: Round, groups: list[list[int]], move: Move
) -> list[list[int]]:
    """Apply another player's ``move`` to ``board``; return that player's unseen-tile groups
    narrowed by it (an exclusion for a draw or pass, one tile fewer for an unseen play)."""
    player, action = move.player, move.action
    if action.drew or action.play is None:
        # held nothing that fitted; nor did a tile drawn before another draw (draw: until),
        # nor the last one drawn if the turn is a pass (unless the rule is one-may: a tile
        # that fits may be kept)
        fit = fit_mask(tables, board)
        for g in groups:
            g[0] |= fit
        for d in action.earlier:
            if d is None:
                groups.append([fit, 1])
        if action.drew and action.drawn is None:
            kept = action.play is None and board.rules.draw != DRAW_ONE_MAY
            groups.append([fit if kept else 0, 1])
    from_unseen = (
        action.play is not None
        and action.played_tile not in board.hands[player].known
        and not (action.drew and action.drawn is not None)
    )
    board.apply(player, action)
    if from_unseen:
        tile = tables.index[action.played_tile]  # type: ignore[index]
        if action.drew:
            groups.pop()  # the tile just drawn
        else:
            _take(groups, tile)
    return _merged(groups)


def _hand_now(
    tables: Tables, board: Round, known: list[int], me: int, seat: str, hand: Iterable[Tile]
) -> int:
    """The mask of ``hand``, the seat's hand now, once it fits the record; raises
    :class:`KnowledgeError` for a tile on the table or in another hand, or a wrong count."""
    mine = tables.mask(hand)
    own = board.hands[seat]
    table = tables.mask(board.on_table)
    if mine & table:
        raise KnowledgeError(
            Message("{tables} is already on the table", tables=_list(tables, mine & table))
        )
    others = 0
    for j, k in enumerate(known):
        if j != me:
            others |= k
    if mine & others:
        raise KnowledgeError(
            Message("{tables} is in another player's hand", tables=_list(tables, mine & others))
        )
    if mine.bit_count() != own.size:
        raise KnowledgeError(
            Message(
                "{seat} holds {size} tile(s) by the record, not {bit_count}",
                seat=seat,
                size=own.size,
                bit_count=mine.bit_count(),
            )
        )
    if tables.mask(own.known) & ~mine:
        missing = tables.mask(own.known) & ~mine
        raise KnowledgeError(
            Message(
                "{seat} holds {tables} by the record", seat=seat, tables=_list(tables, missing)
            )
        )
    return mine


def from_view(view: View) -> Knowledge:
    """What the seat of a :class:`~cf.play.simulate.View` knows."""
    if view.rules is None:
        raise KnowledgeError(
            Message("the view has no rules: build it with cf.play.simulate.view_of")
        )
    mine = [m for m in view.history if m.player == view.seat]
    dealt = set(view.hand)
    for m in mine:
        if m.action.play is not None:
            dealt.add(m.action.played_tile)  # type: ignore[arg-type]
    for m in mine:
        for d in m.action.draws:  # several under draw: until
            if d is not None:
                dealt.discard(Tile.of(*d))
    return from_log(view.rules, view.players, view.starter, view.seat, view.history, dealt=dealt)


def _take(groups: list[list[int]], tile: int) -> None:
    for g in groups:  # oldest first: the weakest reading of the record
        if not g[0] >> tile & 1 and g[1]:
            g[1] -= 1
            return
    for g in reversed(groups):  # the record contradicts itself: drop the newest
        if g[1]:
            g[1] -= 1
            return


def _merged(groups: list[list[int]]) -> list[list[int]]:
    out: list[list[int]] = []
    for exclusion, count in groups:
        if not count:
            continue
        for g in out:
            if g[0] == exclusion:
                g[1] += count
                break
        else:
            out.append([exclusion, count])
    return out


def _list(tables: Tables, mask: int) -> str:
    return ", ".join(str(t) for t in tables.tiles_of(mask))


def public_log(moves: Iterable[Move], seat: str) -> list[Move]:
    """``moves`` as ``seat`` saw them: other players' drawn tiles unnamed (a drawn tile that
    is played at once is seen when it is played)."""
    out = []
    for m in moves:
        a = m.action
        if m.player != seat and any(d is not None for d in a.draws):
            unnamed = (None,) * len(a.earlier)
            m = Move(m.player, Action(play=a.play, drew=True, earlier=unnamed))
        out.append(m)
    return out


__all__ = ["Knowledge", "KnowledgeError", "fit_mask", "from_log", "from_view", "public_log"]
