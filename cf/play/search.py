"""Players that think: a cheap heuristic (``smart``) and two searchers (``pimc``, ``ismcts``).

Both searchers see only a :class:`~cf.play.simulate.View`. From its public log they work
out what each other hand may hold (:mod:`cf.play.knowledge`), deal the unseen tiles at
random consistently with that, and play rounds out on the fast engine
(:mod:`cf.play.fast`) with every seat greedy. docs/players.md explains each one and how
strong it is.

- ``pimc`` (perfect-information Monte Carlo): ``playouts`` deals; in each, every legal
  action is played and the round played out from it (the same deal for every action, so
  that luck cancels between them); the action with the fewest points left at the end, on
  average, wins (ties: the better chance of going out, then greedy's order).
- ``ismcts`` (single-observer information-set Monte Carlo tree search, Cowling, Powley
  and Whitehouse 2012): ``playouts`` iterations; each deals anew, walks down one tree of
  the actions every seat took (UCB1 over the actions available in that deal, counting
  availability instead of the parent's visits), adds one node, plays the rest greedy and
  scores every seat by its own points. The most visited root action is played.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import partial
from math import log, sqrt
from typing import Optional

from cf.play.fast import State, playout
from cf.play.knowledge import Knowledge, from_view
from cf.play.simulate import Choice, Strategy, View
from cf.tiles import Tile

#: Default effort of ``pimc``: playouts (deals) per legal action.
PIMC_PLAYOUTS = 100
#: Default effort of ``ismcts``: iterations (deals) per move.
ISMCTS_ITERATIONS = 800
#: UCB1's exploration constant for ``ismcts``, with rewards of -points/30.
UCB_C = 0.7
REWARD_SCALE = 30.0

Option = Optional[tuple[int, int]]  # (tile number, number it touches); None: draw or pass


@dataclass(frozen=True, slots=True)
class Judgement:
    """One legal action judged over ``playouts`` deals."""

    option: Option
    tile: Tile | None
    near: int | None
    expected_points: float
    p_out: float


def evaluate(know: Knowledge, playouts: int, rng: random.Random) -> list[Judgement]:
    """Every legal action of the seat to move, best first: the points it holds at the end
    of the round, on average over ``playouts`` deals, and how often it goes out first.

    The action is a play (tile and the number it is placed on) or, with nothing playable,
    the forced draw or pass (a draw averages over what could be drawn).
    """
    seat = know.seat
    first = know.state(rng)
    options: list[Option] = list(first.options()) or [None]
    totals = [0] * len(options)
    outs = [0] * len(options)
    for k in range(playouts):
        base = first if k == 0 else know.state(rng)
        for j, option in enumerate(options):
            st = base.copy()
            if option is None:
                st.forced()
            else:
                st.play(*option)
            playout(st)
            totals[j] += st.points(seat)
            outs[j] += st.winner == seat
    tables = know.tables
    judged = [
        Judgement(
            o,
            None if o is None else tables.tiles[o[0]],
            None if o is None else o[1],
            totals[j] / playouts,
            outs[j] / playouts,
        )
        for j, o in enumerate(options)
    ]
    order = sorted(range(len(judged)), key=lambda j: (totals[j], -outs[j], j))
    return [judged[j] for j in order]


def judge_drawn(know: Knowledge, tile: int, playouts: int, rng: random.Random) -> list[Judgement]:
    """Under ``draw: one-may``: the seat has just drawn ``tile`` (a tile number); ``know``
    is what it knows with the tile kept (its turn over). Judges playing it (on each end it
    fits: none while the starter or a foot wants a number the tile lacks) and keeping it,
    best first, as :func:`evaluate` judges actions; keeping is the option ``None``."""
    seat = know.seat
    nxt = (seat + 1) % len(know.players)
    first = know.state(rng, cur=nxt)
    b, drawn = know.board, know.tables.tiles[tile]
    if b.in_starter_phase:
        wanted = [b.starter.high]
    elif b.pending is not None:
        wanted = [b.pending]
    else:
        wanted = list(b.open_ends)
    nears = [n for n in dict.fromkeys((drawn.high, drawn.low)) if n in wanted]
    options: list[Option] = [(tile, n) for n in nears]
    options.append(None)
    totals = [0] * len(options)
    outs = [0] * len(options)
    for k in range(playouts):
        base = first if k == 0 else know.state(rng, cur=nxt)
        for j, option in enumerate(options):
            st = base.copy()
            if option is not None:
                st.cur = seat
                st.play(*option)
            playout(st)
            totals[j] += st.points(seat)
            outs[j] += st.winner == seat
    tables = know.tables
    judged = [
        Judgement(
            o,
            None if o is None else tables.tiles[o[0]],
            None if o is None else o[1],
            totals[j] / playouts,
            outs[j] / playouts,
        )
        for j, o in enumerate(options)
    ]
    order = sorted(range(len(judged)), key=lambda j: (totals[j], -outs[j], j))
    return [judged[j] for j in order]


def keeps_drawn(view: View, tile: Tile, rng: random.Random, playouts: int) -> bool:
    """Whether a searcher keeps ``tile``, just drawn and fitting, under ``draw: one-may``:
    when keeping it is judged better than every way of playing it."""
    from dataclasses import replace

    from cf.notation import Action, Move

    written = (tile.high, tile.low)
    kept = replace(
        view,
        hand=tuple(sorted((*view.hand, tile))),
        playable=(),
        history=(*view.history, Move(view.seat, Action(drew=True, drawn=written))),
    )
    know = from_view(kept)
    best = judge_drawn(know, know.tables.index[tile], playouts, rng)[0]
    return best.option is None


def _choice(tile: Tile, near: int) -> Choice:
    return (near, tile.other(near))


def pimc_strategy(view: View, rng: random.Random, playouts: int = PIMC_PLAYOUTS) -> Choice:
    """Perfect-information Monte Carlo: judge each legal action over ``playouts`` deals."""
    if len(view.playable) == 1 and not _two_ends(view, view.playable[0]):
        return view.playable[0]
    best = evaluate(from_view(view), playouts, rng)[0]
    assert best.tile is not None and best.near is not None
    return _choice(best.tile, best.near)


def _two_ends(view: View, tile: Tile) -> bool:
    open_phase = not view.starter_open and view.pending is None
    return open_phase and not tile.is_double and {tile.high, tile.low} <= set(view.open_ends)


def ismcts_strategy(view: View, rng: random.Random, playouts: int = ISMCTS_ITERATIONS) -> Choice:
    """Single-observer information-set MCTS with ``playouts`` iterations."""
    if len(view.playable) == 1 and not _two_ends(view, view.playable[0]):
        return view.playable[0]
    know = from_view(view)
    tile, near = ismcts(know, playouts, rng)
    return _choice(know.tables.tiles[tile], near)


def ismcts(know: Knowledge, iterations: int, rng: random.Random) -> tuple[int, int]:
    """The root action (tile number, number it touches) of an SO-ISMCTS search."""
    seat = know.seat
    # a node: [visits, total reward, availability, children {(seat, tile, near): node}]
    root: dict[tuple[int, int, int], list] = {}  # type: ignore[type-arg]
    for _ in range(iterations):
        st = know.state(rng)
        path = _descend(st, root, rng)
        playout(st)
        _backpropagate(path, st)
    if not root:  # no choice at the root (cannot happen for a strategy's call)
        options = know.state(rng).options()
        return options[0]
    key = max(root, key=lambda k: (root[k][0], root[k][1], -k[1]))
    assert key[0] == seat
    return key[1], key[2]


def _descend(st: State, root: dict, rng: random.Random) -> list[tuple[list, int]]:
    """Play one deal down the tree from ``root`` (UCB1 among tried actions), up to and
    including the first untried action, which becomes a new node; the (node, seat) path.

    Every tried action available in this deal has its availability counted."""
    children = root
    path = []
    while not st.over:
        options = st.options()
        if not options:
            st.forced()
            continue
        if len(options) == 1:
            st.play(*options[0])
            continue
        cur = st.cur
        keys = [(cur, *o) for o in options]
        untried = []
        for key in keys:
            node = children.get(key)
            if node is None:
                untried.append(key)
            else:
                node[2] += 1
        if untried:
            key = untried[rng.randrange(len(untried))]
            node = children[key] = [0, 0.0, 1, {}]
            st.play(key[1], key[2])
            path.append((node, cur))
            break
        best = _ucb_best(children, keys)
        node = children[best]
        st.play(best[1], best[2])
        path.append((node, cur))
        children = node[3]
    return path


def _ucb_best(children: dict, keys: list[tuple[int, int, int]]) -> tuple[int, int, int]:
    """The key among ``keys`` (all tried) with the highest UCB1 value, the first on ties."""
    best = None
    best_value = -math.inf
    for key in keys:
        node = children[key]
        value = node[1] / node[0] + UCB_C * sqrt(log(node[2]) / node[0])
        if value > best_value:
            best, best_value = key, value
    assert best is not None
    return best


def _backpropagate(path: list[tuple[list, int]], st: State) -> None:
    """Add a finished deal's result to every node on ``path``, each by its own seat's points."""
    rewards = [-p / REWARD_SCALE for p in st.scores()]
    for node, player in path:
        node[0] += 1
        node[1] += rewards[player]


# --- smart: a cheap heuristic -------------------------------------------------------------

#: Weights of :func:`smart_strategy`, found by a small search against greedy (docs/players.md).
DOUBLE_BONUS = 6.0
FOLLOW_BONUS = 1.5
STRANDED_DOUBLE = 4.0


def smart_strategy(view: View, rng: random.Random) -> Choice:
    """Greedy with judgement: shed points, doubles first (they fit only their own number),
    open an end you hold more tiles of, and do not open a foot you cannot feed."""
    best: tuple[float, Tile, int] | None = None
    for tile in view.playable:
        for near in _ends_for(view, tile):
            score = _smart_score(view, tile, near)
            if best is None or (score, tile, near) > best:
                best = (score, tile, near)
    assert best is not None
    return _choice(best[1], best[2])


def _smart_score(view: View, tile: Tile, near: int) -> float:
    """How much ``smart`` likes playing ``tile`` on ``near``: its points, a bonus for a
    double (less if nothing in hand can feed its foot), or one for tiles that follow it."""
    db = view.double_blank
    far = tile.other(near)
    score = 100.0 if (tile == (0, 0) and db > 18) else float(tile.points(db))
    rest = [t for t in view.hand if t != tile]
    if tile.is_double:
        score += DOUBLE_BONUS
        if not view.starter_open and view.pending is None:
            feeders = sum(1 for t in rest if near in t)
            if not feeders:
                score -= STRANDED_DOUBLE
    else:
        follow = sum(1 for t in rest if far in t)
        score += FOLLOW_BONUS * min(follow, 3)
    return score


def _ends_for(view: View, tile: Tile) -> list[int]:
    if view.starter_open:
        return [view.starter.high]
    if view.pending is not None:
        return [view.pending]
    ends = set(view.open_ends)
    return [n for n in dict.fromkeys((tile.high, tile.low)) if n in ends]


def _pimc_keeps(view: View, tile: Tile, rng: random.Random, playouts: int = PIMC_PLAYOUTS) -> bool:
    return keeps_drawn(view, tile, rng, playouts)


def _ismcts_keeps(
    view: View, tile: Tile, rng: random.Random, playouts: int = ISMCTS_ITERATIONS
) -> bool:
    # one decision between few options: judged as pimc judges it, with a tenth of the effort
    return keeps_drawn(view, tile, rng, max(playouts // 10, 1))


pimc_strategy.keep_drawn = _pimc_keeps  # type: ignore[attr-defined]
ismcts_strategy.keep_drawn = _ismcts_keeps  # type: ignore[attr-defined]


def with_effort(name: str, playouts: int) -> Strategy:
    """``pimc`` or ``ismcts`` with ``playouts`` as its effort."""
    function = {"pimc": pimc_strategy, "ismcts": ismcts_strategy}[name]
    strategy = partial(function, playouts=playouts)
    keep = {"pimc": _pimc_keeps, "ismcts": _ismcts_keeps}[name]
    strategy.keep_drawn = partial(keep, playouts=playouts)  # type: ignore[attr-defined]
    return strategy


__all__ = [
    "ISMCTS_ITERATIONS",
    "PIMC_PLAYOUTS",
    "Judgement",
    "evaluate",
    "ismcts",
    "ismcts_strategy",
    "judge_drawn",
    "keeps_drawn",
    "pimc_strategy",
    "smart_strategy",
    "with_effort",
]
