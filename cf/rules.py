"""House-rule options and deal tables (docs/rules.md), as plain data.

>>> Rules().tiles_each(4)
11
>>> Rules(top=6).row(4)
DealRow(set='double-six', players=4, tiles_each=5, yard=7, reserve=1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cf.errors import Error, clip
from cf.i18n import Message
from cf.tiles import DEFAULT_DOUBLE_BLANK, SET_NAMES, set_name

#: Tiles dealt to each player, by set (highest pip) and number of players.
DEAL_TABLES: dict[int, dict[int, int]] = {
    6: {2: 7, 3: 7, 4: 5, 5: 4},
    9: {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5},
    12: {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 11, 8: 10, 9: 9, 10: 8, 11: 7, 12: 7},
    15: {
        **{2: 18, 3: 18, 4: 18, 5: 15, 6: 15, 7: 13, 8: 13},
        **{9: 11, 10: 11, 11: 10, 12: 10, 13: 9},
    },
    18: {},
}

#: The option value that gives the starter one arm per player.
PLAYERS = "players"

#: The ``draw`` option's values (docs/rules.md, "House rules"): draw one tile and play it
#: if it fits (both rule sheets); draw one and *may* play it; draw until one fits.
DRAW_ONE, DRAW_ONE_MAY, DRAW_UNTIL = "one", "one-may", "until"
DRAW_RULES: tuple[str, ...] = (DRAW_ONE, DRAW_ONE_MAY, DRAW_UNTIL)

#: Every option of ``rules`` in a game file, in the order ``cf new`` writes them.
RULE_KEYS: tuple[str, ...] = (
    "starter_arms",
    "double_blank",
    "deal",
    "reserve",
    "rounds",
    "draw",
    "out_on_double",
    "target",
)


class RulesError(Error, ValueError):
    """A house-rule value outside what docs/rules.md allows, or a deal that cannot be made."""

    code = "rules"


@dataclass(frozen=True, slots=True)
class DealRow:
    """One row of a deal table: what each player gets and what stays in the yard."""

    set: str
    players: int
    tiles_each: int
    yard: int
    reserve: int

    def as_dict(self) -> dict[str, object]:
        return {
            "set": self.set,
            "players": self.players,
            "tiles_each": self.tiles_each,
            "yard": self.yard,
            "reserve": self.reserve,
        }


@dataclass(frozen=True, slots=True)
class Rules:
    """The options a table agrees on before playing. ``None`` means "the default"."""

    top: int = 9
    deal: int | None = None
    starter_arms: int | str = 4
    double_blank: int = DEFAULT_DOUBLE_BLANK
    reserve: int | None = None
    rounds: int | None = None
    draw: str = DRAW_ONE
    out_on_double: int = 0
    target: int | None = None

    def __post_init__(self) -> None:
        if self.top not in SET_NAMES:
            raise RulesError(Message("unknown set double-{top}", top=self.top))
        check_option("deal", self.deal, self.top, allow_none=True)
        check_option("starter_arms", self.starter_arms, self.top)
        check_option("double_blank", self.double_blank, self.top)
        check_option("reserve", self.reserve, self.top, allow_none=True)
        check_option("target", self.target, self.top, allow_none=True)
        check_option(
            "rounds", self.rounds, self.top, allow_none=True, target=self.target is not None
        )
        check_option("draw", self.draw, self.top)
        check_option("out_on_double", self.out_on_double, self.top)

    @property
    def set_name(self) -> str:
        return set_name(self.top)

    @property
    def rounds_in_game(self) -> int | None:
        """How many rounds make a complete game: the ``rounds`` option, else one per double
        of the set (N+1, from the top double down to 0-0); ``None`` for a game played to a
        ``target`` with no ``rounds`` (it ends when a total reaches the target). The one
        place this is decided.

        >>> Rules().rounds_in_game, Rules(top=6, rounds=3).rounds_in_game
        (10, 3)
        >>> Rules(target=150).rounds_in_game, Rules(target=150, rounds=25).rounds_in_game
        (None, 25)
        """
        if self.rounds is not None:
            return self.rounds
        return None if self.target is not None else self.top + 1

    def starter_number(self, round_number: int) -> int:
        """The number on round ``round_number``'s starting double: N, N-1, ..., 0, then N
        again (only a ``target`` game has more than N+1 rounds).

        >>> [Rules(top=6, target=100).starter_number(k) for k in (1, 7, 8, 9)]
        [6, 0, 6, 5]
        """
        return starter_number(self.top, round_number)

    def game_over(self, totals: Iterable[int], rounds_played: int) -> bool:
        """Whether a game whose players have these ``totals`` after ``rounds_played``
        rounds is over: every round of ``rounds_in_game`` is in, or a total reached the
        ``target``.

        >>> Rules(target=100).game_over([40, 100], 3), Rules(target=100).game_over([99], 30)
        (True, False)
        """
        most = self.rounds_in_game
        if most is not None and rounds_played >= most:
            return True
        return self.target is not None and any(t >= self.target for t in totals)

    @property
    def pool(self) -> int:
        """Tiles that can be dealt: the whole set less the starting double."""
        return (self.top + 1) * (self.top + 2) // 2 - 1

    def tiles_each(self, players: int) -> int:
        """Tiles dealt to each of ``players``: the ``deal`` option, else the table."""
        if players < 2:
            raise RulesError(Message("a game needs at least 2 players"))
        if self.deal is not None:
            return self.deal
        table = DEAL_TABLES[self.top]
        if players not in table:
            if not table:
                raise RulesError(
                    Message(
                        "{set_name} has no deal table: give the deal explicitly",
                        set_name=self.set_name,
                    )
                )
            low, high = min(table), max(table)
            raise RulesError(
                Message(
                    "{set_name} deals for {low} to {high} players, not "
                    "{players}: give the deal explicitly",
                    set_name=self.set_name,
                    low=low,
                    high=high,
                    players=players,
                )
            )
        return table[players]

    def reserve_for(self, players: int) -> int:
        """Tiles that stay in the chicken yard and can never be drawn."""
        if self.reserve is not None:
            return self.reserve
        return 2 if players == 2 else 1

    def arms_for(self, players: int) -> int:
        """How many arms the starting double takes before play opens up."""
        arms = players if self.starter_arms == PLAYERS else int(self.starter_arms)
        if not 2 <= arms <= self.top:
            raise RulesError(
                Message(
                    "the starter takes 2 to {top} arms in {set_name}, so "
                    "starter_arms 'players' cannot be {arms}",
                    top=self.top,
                    set_name=self.set_name,
                    arms=arms,
                )
            )
        return arms

    def row(self, players: int) -> DealRow:
        """The deal for ``players``, checked: raises :class:`RulesError` if it cannot be made."""
        each = self.tiles_each(players)
        reserve = self.reserve_for(players)
        yard = self.pool - players * each
        if yard < 0:
            raise RulesError(
                Message(
                    "dealing {each} tiles to {players} players needs {need} tiles: "
                    "{set_name} has only {pool} besides the starting double",
                    each=each,
                    players=players,
                    need=players * each,
                    pool=self.pool,
                    set_name=self.set_name,
                )
            )
        if yard < reserve:
            raise RulesError(
                Message(
                    "dealing {each} tiles to {players} players leaves {max} in "
                    "the chicken yard of {set_name}, fewer than the reserve of "
                    "{reserve}",
                    each=each,
                    players=players,
                    max=yard,
                    set_name=self.set_name,
                    reserve=reserve,
                )
            )
        return DealRow(self.set_name, players, each, yard, reserve)

    def table(self) -> list[DealRow]:
        """Every row of this set's deal table (with the ``deal`` option, if any, applied)."""
        counts = sorted(DEAL_TABLES[self.top])
        if self.deal is not None and not counts:
            counts = [n for n in range(2, self.pool + 1) if self.pool - n * self.deal >= 0]
        rows = []
        for players in counts:
            try:
                rows.append(self.row(players))
            except RulesError:
                continue
        return rows


def starter_number(top: int, round_number: int) -> int:
    """The number on the starting double of round ``round_number`` (1-based) of a
    double-``top`` game: d = N - ((k-1) mod (N+1)), so after 0-0 comes N-N again."""
    return top - (round_number - 1) % (top + 1)


def parse_starter_arms(text: str) -> int | str:
    """The ``starter_arms`` option as written: ``"4"`` gives 4, ``"Players"`` gives
    :data:`PLAYERS`. Raises :class:`RulesError` for anything else (whether the number suits
    the set is :func:`check_option`'s question).

    >>> parse_starter_arms(" players "), parse_starter_arms("3")
    ('players', 3)
    """
    word = text.strip()
    if word.lower() == PLAYERS:
        return PLAYERS
    # ASCII digits only (str.isdigit() takes '²'), and few: int() refuses thousands of digits.
    if word.isascii() and word.isdigit() and len(word) <= 1000:
        return int(word)
    raise RulesError(
        Message(
            "starter_arms must be a whole number from 2 up or 'players', not '{word}'",
            word=clip(word),
        )
    )


def check_option(
    name: str, value: object, top: int, *, allow_none: bool = False, target: bool = False
) -> None:
    """Raise :class:`RulesError` unless ``value`` is allowed for option ``name``
    (``target``: the game also has a ``target``, so ``rounds`` may pass N+1)."""
    if value is None and allow_none:
        return
    if name == "draw":
        if value in DRAW_RULES:
            return
        raise RulesError(
            Message(
                "draw must be one of {DRAW_RULES}, not {value!r}",
                DRAW_RULES=", ".join(DRAW_RULES),
                value=value,
            )
        )
    if name == "starter_arms":
        if value == PLAYERS:
            return
        if _is_int(value) and 2 <= value <= top:  # type: ignore[operator]
            return
        raise RulesError(
            Message(
                "starter_arms must be a whole number from 2 to {top} or 'players', not {value!r}",
                top=top,
                value=value,
            )
        )
    if name == "rounds":
        if _is_int(value) and 1 <= value <= top + 1:  # type: ignore[operator]
            return
        if target and _is_int(value) and value >= 1:  # type: ignore[operator]
            return  # with a target, rounds is only the most a game may have
        if target:
            raise RulesError(
                Message("rounds must be a whole number, at least 1, not {value!r}", value=value)
            )
        raise RulesError(
            Message(
                "rounds must be a whole number from 1 to {value} (one per "
                "double of {set_name}), not {value2!r}",
                value=top + 1,
                set_name=set_name(top),
                value2=value,
            )
        )
    minimum = 1 if name in ("deal", "target") else 0
    if _is_int(value) and value >= minimum:  # type: ignore[operator]
        return
    if minimum:
        raise RulesError(
            Message(
                "{name} must be a whole number, at least 1, not {value!r}", name=name, value=value
            )
        )
    raise RulesError(
        Message("{name} must be a whole number, 0 or more, not {value!r}", name=name, value=value)
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
