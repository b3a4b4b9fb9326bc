"""Dealing real hands: the starter set aside, the pool shuffled, each player served."""

from __future__ import annotations

import random
from dataclasses import dataclass

from cf.rules import Rules
from cf.tiles import DominoSet, Tile


@dataclass(frozen=True, slots=True)
class Deal:
    """Hands as dealt for one round, and what is left in the chicken yard (in draw order)."""

    starter: Tile
    hands: dict[str, tuple[Tile, ...]]
    chicken_yard: tuple[Tile, ...]


def shuffle_deal(
    rules: Rules, names: list[str], round_number: int = 1, seed: int | None = None
) -> Deal:
    """Shuffle and deal. The same ``seed`` gives the same deal on every machine.

    Raises :class:`~cf.rules.RulesError` when the deal cannot be made for ``names``.

    >>> d = shuffle_deal(Rules(), ["Ana", "Ben", "Carla", "Dan"], seed=7)
    >>> str(d.starter), [len(h) for h in d.hands.values()], len(d.chicken_yard)
    ('9-9', [11, 11, 11, 11], 10)
    """
    return deal_from(seeded(seed), rules, names, round_number)


def seeded(seed: int | str | None) -> random.Random:
    """A random source for ``seed``, distinct for every seed.

    ``random.Random(-5)`` is ``random.Random(5)`` (Python seeds with the absolute value),
    so a negative seed is taken by its text instead; zero and positive seeds are as ever.

    >>> seeded(-5).random() != seeded(5).random()
    True
    """
    if isinstance(seed, int) and seed < 0:
        return random.Random(f"cf-negative-seed:{seed}")
    return random.Random(seed)


def deal_from(rng: random.Random, rules: Rules, names: list[str], round_number: int) -> Deal:
    """Deal with the caller's random source (the simulator deals every round from one)."""
    each = rules.row(len(names)).tiles_each
    starter = DominoSet(rules.top).starter(round_number)
    pool = [t for t in DominoSet(rules.top).tiles() if t != starter]
    rng.shuffle(pool)
    hands = {}
    for i, name in enumerate(names):
        hands[name] = tuple(sorted(pool[i * each : (i + 1) * each], reverse=True))
    return Deal(starter, hands, tuple(pool[len(names) * each :]))
