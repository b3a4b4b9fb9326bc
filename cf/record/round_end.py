"""What a round's end is worth, for :mod:`cf.record.check`: a hand's points (0-0 as the
file counts it, an empty hand after going out on a double), how a recorded hand differs
from what the log leaves, the bounds a score must keep, and the watch on a game played to
``rules.target``.
"""

from __future__ import annotations

from collections.abc import Iterable

from cf.board import Round
from cf.errors import clip
from cf.i18n import Message
from cf.record.problems import Problem
from cf.record.reader import HandEntry
from cf.rules import Rules
from cf.tiles import Tile, format_hand, hand_points


class TargetWatch:
    """Running totals of a game played to ``rules.target``: the round in which a total
    reached it ends the game. A round whose points cannot be told (a problem in it) stops
    the watch: nothing after it is called a round after the end."""

    def __init__(self, players: list[str], target: int | None, found: list[Problem]) -> None:
        self.players = players
        self.target = target
        self.totals = dict.fromkeys(players, 0)
        self.watching = target is not None
        self.read_problems = {p.round for p in found if p.round is not None}
        #: (round, player, total) of the round that ended the game.
        self.ended: tuple[int, str, int] | None = None

    def add(self, k: int, points: dict[str, int] | None, *, clean: bool) -> None:
        if not self.watching or self.target is None:
            return
        if points is None or not clean or k in self.read_problems:
            self.watching = False
            return
        for name in self.players:
            self.totals[name] += points[name]
        reached = [name for name in self.players if self.totals[name] >= self.target]
        if reached:
            self.ended = (k, reached[0], self.totals[reached[0]])

    def after_end(self, k: int) -> str:
        assert self.ended is not None
        j, name, total = self.ended
        return Message(
            "round {k} comes after the end of the game: {name}'s total reached "
            "{total} in round {j}, and the game is played to {target} (rules.target)",
            k=k,
            name=clip(name),
            total=total,
            j=j,
            target=self.target,
        )


def not_out_on_double(board: Round | None, name: str) -> Message:
    """Why an empty hand scored as ``out_on_double`` is worth 0 (for ``score-mismatch``)."""
    if board is not None and board.winner == name and board.out_tile is not None:
        return Message(
            "{name} went out on {tile}, not a double, so the empty hand",
            name=clip(name),
            tile=str(board.out_tile),
        )
    return Message(
        "an empty hand counts out_on_double only where the round's moves show going out "
        "on a double (without a log, record scores alone), so it"
    )


def went_out_on_double(board: Round | None, name: str) -> bool:
    """Whether the replayed log shows ``name`` going out by playing a double."""
    return board is not None and board.winner == name and board.out_on_double


def worth(rules: Rules, tiles: Iterable[Tile], out_on_double: bool) -> int:
    """The points of a hand left at the end of a round; an empty one is worth 0, or
    ``out_on_double`` for a player who went out on a double."""
    tiles = tuple(tiles)
    if not tiles and out_on_double:
        return rules.out_on_double
    return hand_points(tiles, rules.double_blank)


def hand_difference(board: Round, name: str, entry: HandEntry) -> str | None:
    recorded = set(entry.tiles or ())
    hand = board.hands[name]
    on_table = sorted(recorded & board.on_table, reverse=True)
    if on_table:
        return Message(
            "{name}'s recorded hand holds {tiles}, already on the table",
            name=name,
            tiles=format_hand(on_table),
        )
    elsewhere = [t for t in recorded if board.owner.get(t, name) != name]
    if elsewhere:
        t = elsewhere[0]
        return Message(
            "{name}'s recorded hand holds {tile}, which the log leaves with {owner}",
            name=name,
            tile=str(t),
            owner=board.owner[t],
        )
    missing = sorted(hand.known - recorded, reverse=True)
    if missing:
        return Message(
            "{name}'s recorded hand lacks {tiles}, which the log leaves with them",
            name=name,
            tiles=format_hand(missing),
        )
    if len(recorded) != hand.size:
        has, left = _tiles(len(recorded)), _tiles(hand.size)
        return Message(
            "{name}'s recorded hand has {has}, the log leaves {left}",
            name=name,
            has=has,
            left=left,
        )
    return None


def cheapest_double(rules: Rules) -> Tile:
    """The double worth least under ``rules`` (1-1, or 0-0 where it counts under 2)."""
    doubles = (Tile.of(d, d) for d in range(rules.top + 1))
    return min(doubles, key=lambda t: t.points(rules.double_blank))


def most_points(rules: Rules, starter: Tile) -> int:
    """The points of the whole set less the round's starter: more than any hand can hold."""
    top = rules.top
    pips = top * (top + 1) * (top + 2) // 2  # every number appears top + 2 times
    return pips + rules.double_blank - starter.points(rules.double_blank)


def double_blank_note(tiles: object, double_blank: int) -> str:
    """Where a hand holds 0-0, which value the file gives it and how to change it."""
    if Tile.of(0, 0) not in tiles:  # type: ignore[operator]
        return ""
    return Message(
        " (0-0 counts {value} in this file; if your table counts it otherwise, "
        "set it in the file, as in rules: {{double_blank: 25}})",
        value=double_blank,
    )


def _tiles(n: int) -> str:
    return Message("{n} tile", n=n) if n == 1 else Message("{n} tiles", n=n)
