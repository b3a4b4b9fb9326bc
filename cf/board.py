"""The state machine of one round (the rules: docs/rules.md).

A :class:`Round` holds the board (starter and its arms, the pending chicken foot and its
toes, the multiset of open ends), the chicken yard count, every hand as far as it is known,
and whose turn it is. ``apply`` takes one whole turn, or raises
:class:`RuleViolation` carrying the problem code and leaves it unchanged.
Predicates (``fits``, ``legal_plays``, ``is_blocked``) never raise.

>>> from cf.notation import parse_action
>>> from cf.rules import DRAW_ONE_MAY, DRAW_UNTIL, Rules
>>> from cf.tiles import Tile, parse_hand
>>> hands = {"Ana": parse_hand("9-3 5-5"), "Ben": parse_hand("9-1 2-2")}
>>> r = Round.dealt(Rules(top=9, deal=2, starter_arms=2), ["Ana", "Ben"], Tile(9, 9), hands)
>>> r.apply("Ana", parse_action("9-3")); r.apply("Ben", parse_action("1-9")); r.ends()
[1, 3]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from cf.errors import Error
from cf.i18n import N_, Message
from cf.notation import Action
from cf.rules import DRAW_ONE_MAY, DRAW_UNTIL, Rules
from cf.tiles import Tile

TOES = 3


class RuleViolation(Error, ValueError):
    """An illegal action on the board; ``code`` is its problem code."""

    code: str

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Hand:
    """A player's tiles: the ones we know of, plus how many we have not seen."""

    known: set[Tile] = field(default_factory=set)
    unseen: int = 0

    @property
    def size(self) -> int:
        return len(self.known) + self.unseen


class Round:
    """One round being played or replayed."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        starter: Tile,
        hands: Mapping[str, Hand],
        yard: int,
    ) -> None:
        self.rules = rules
        self.players = list(players)
        self.seat = {name: i for i, name in enumerate(self.players)}
        self.starter = starter
        self.arms_needed = rules.arms_for(len(self.players))
        self.arms = 0
        self.pending: int | None = None  # the number on the double whose foot is open
        self.toes = 0
        # The multiset of open-end numbers: number -> how many ends show it (never 0).
        self.open_ends: dict[int, int] = {}
        self.hands = dict(hands)
        self.owner: dict[Tile, str] = {t: p for p, h in self.hands.items() for t in h.known}
        self.on_table: set[Tile] = {starter}
        self.yard = yard
        self.reserve = rules.reserve_for(len(self.players))
        self.next_player: str | None = None
        self._after = {p: self.players[(i + 1) % len(self.players)] for i, p in enumerate(players)}
        self.unseen_total = sum(h.unseen for h in self.hands.values())
        self.winner: str | None = None
        self.out_tile: Tile | None = None  # the last tile the winner played
        self.passes_in_a_row = 0
        self.turns = 0

    # --- construction -------------------------------------------------------------

    @classmethod
    def dealt(
        cls,
        rules: Rules,
        players: Sequence[str],
        starter: Tile,
        deal: Mapping[str, Iterable[Tile]],
    ) -> Round:
        """A round whose hands are known from the deal."""
        hands = {p: Hand(set(deal[p])) for p in players}
        dealt = sum(len(h.known) for h in hands.values())
        return cls(rules, players, starter, hands, rules.pool - dealt)

    @classmethod
    def unseen(cls, rules: Rules, players: Sequence[str], starter: Tile) -> Round:
        """A round whose deal was not recorded: every hand starts as unseen tiles."""
        each = rules.tiles_each(len(players))
        hands = {p: Hand(set(), each) for p in players}
        return cls(rules, players, starter, hands, rules.pool - each * len(players))

    # --- what the board accepts ----------------------------------------------------

    @property
    def in_starter_phase(self) -> bool:
        return self.arms < self.arms_needed

    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn (the reserve never can)."""
        return max(self.yard - self.reserve, 0)

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.is_blocked()

    @property
    def out_on_double(self) -> bool:
        """Whether a player went out by playing a double as the last tile."""
        tile = self.out_tile
        return tile is not None and tile.high == tile.low

    @property
    def fully_known(self) -> bool:
        return not self.unseen_total

    def ends(self) -> list[int]:
        """The open-end numbers, sorted, each as often as it is open."""
        return sorted(n for n, count in self.open_ends.items() for _ in range(count))

    def fits(self, tile: Tile) -> bool:
        """Whether ``tile`` can be placed now, in either orientation."""
        if self.arms < self.arms_needed:
            return self.starter[0] in tile
        if self.pending is not None:
            return self.pending in tile
        ends = self.open_ends
        return tile[0] in ends or tile[1] in ends

    def legal_plays(self, player: str) -> list[Tile]:
        """The known tiles in ``player``'s hand that fit now, in canonical order."""
        return sorted(t for t in self.hands[player].known if self.fits(t))

    def can_play(self, player: str) -> bool:
        """Whether ``player`` holds a known tile that fits now."""
        fits = self.fits
        return any(fits(t) for t in self.hands[player].known)

    def is_blocked(self) -> bool:
        """Nothing to draw and nobody can play (docs/rules.md; with hands partly unknown too)."""
        if self.winner is not None or self.drawable:
            return False
        if self.fully_known:
            return not any(self.fits(t) for t in self.owner)
        return self.passes_in_a_row >= len(self.players)

    def describe_board(self) -> str:
        """What the board needs now, in words, for problem messages."""
        s = self.starter.high
        if self.in_starter_phase:
            return Message(
                "the starter {starter} has {arms} of {needed} arms",
                starter=str(self.starter),
                arms=self.arms,
                needed=self.arms_needed,
            )
        if self.pending is not None:
            return Message(
                "the chicken foot on {double} has {toes} of 3 toes",
                double=f"{self.pending}-{self.pending}",
                toes=self.toes,
            )
        ends = " ".join(str(n) for n in self.ends())
        if not ends:
            return Message("open ends none (starter {starter})", starter=f"{s}-{s}")
        return Message("open ends {ends} (starter {starter})", ends=ends, starter=f"{s}-{s}")

    # --- the turn -----------------------------------------------------------------------

    def apply(self, player: str, action: Action) -> None:
        """``player`` takes one whole turn: ``action`` is a play, a draw followed by the
        drawn tile or a pass, or a pass.

        Raises :class:`RuleViolation` with the problem code that comes first in the order
        of docs/file-format.md ("Which code, when several apply") and leaves the round as
        it was.
        """
        play = action.play
        if not action.drew and play is not None:  # most turns: inlined, the replay's hot path
            if self.winner is not None or player != self.next_player:
                self.check_turn(player)
            if self.unseen_total and self.yard <= self.reserve and self.is_blocked():
                raise RuleViolation(
                    "after-end",
                    Message(
                        "{player} played after the round was blocked (nothing to "
                        "draw and every player passed in turn)",
                        player=player,
                    ),
                )
            self._play(player, play, action.played_tile)
            self.turns += 1
            self.passes_in_a_row = 0
            self.next_player = self._after[player]
            return
        if not action.drew:
            self._pass(player)
            return
        self._draw_turn(player, action)

    def orient(self, tile: Tile) -> tuple[int, int]:
        """``tile`` written near end first, as it would be placed now (the starter's
        number, the open foot's number, else its high half if an open end shows it)."""
        if self.arms < self.arms_needed:
            near = self.starter.high
        elif self.pending is not None:
            near = self.pending
        else:
            near = tile.high if tile.high in self.open_ends else tile.low
        return (near, tile.other(near))

    def check_turn(self, player: str) -> None:
        """Raise ``after-end`` or ``turn`` if ``player`` may not move now."""
        if self.winner is not None:
            raise RuleViolation(
                "after-end",
                Message(
                    "{player} moved after {winner} went out: the round is over",
                    player=player,
                    winner=self.winner,
                ),
            )
        if player not in self.seat:
            raise RuleViolation(
                "player", Message("{player} is not a player in this game", player=player)
            )
        if self.next_player is not None and player != self.next_player:
            raise RuleViolation(
                "turn",
                Message(
                    "it is {next_player}'s turn, not {player}'s",
                    next_player=self.next_player,
                    player=player,
                ),
            )

    def _draw_turn(self, player: str, action: Action) -> None:
        """A draw, then the drawn tile played or a pass; undone if the follow-up is refused.
        A turn of several draws (only ``draw: until`` allows it) goes to :meth:`_draws_turn`."""
        if action.earlier:
            self._draws_turn(player, action)
            return
        drawn = action.drawn_tile
        self._draw(player, drawn)
        try:
            if action.play is None:
                rule = self.rules.draw
                if drawn is not None and rule != DRAW_ONE_MAY and self.fits(drawn):
                    raise RuleViolation(
                        "must-play-drawn",
                        Message(
                            "{player} drew {drawn}, which fits ({describe_board}), and "
                            "must play it",
                            player=player,
                            drawn=drawn,
                            describe_board=self.describe_board(),
                        ),
                    )
                if rule == DRAW_UNTIL and self.drawable:
                    self._check_pass_after_draw(player, drawn, rule)
            else:
                self._play_drawn(player, drawn, action)
        except RuleViolation:
            self._undraw(player, drawn)
            raise
        self.turns += 1
        self.passes_in_a_row = 0 if action.play is not None else self.passes_in_a_row + 1
        self.next_player = self._after[player]

    def _play_drawn(self, player: str, drawn: Tile | None, action: Action) -> None:
        """The play that ends a turn that drew: it must be the tile drawn (when named)."""
        if drawn is not None and action.played_tile != drawn:
            raise self._not_the_drawn(player, drawn, action.played_tile)
        assert action.play is not None
        self._play(player, action.play, action.played_tile)

    def check_draw_before_its_tiles(self, player: str, action: Action) -> None:
        """SPEC 6's order for a turn that draws and names a tile outside the set
        (``action`` read for its shape alone; that tile is its ``tile`` problem): the
        draws' own problems come first (``must-play``, ``yard-empty``, ``not-in-yard``; a
        further draw's ``must-play-drawn`` or ``draw-limit``), then what ends the turn: a
        pass (``must-play-drawn``, ``must-draw``) or a play of another tile than the named
        drawn one (``must-play``); a drawn tile outside the set is checked as an unnamed
        draw. Raises the first that fits, else returns for the ``tile``
        problem; the round is left as it was."""
        made: list[Tile | None] = []  # the tiles drawn so far (None: unnamed or outside)
        try:
            for i, written in enumerate(action.draws):
                tile = None if written is None else Tile.of(*written)
                if tile is not None and tile.high > self.rules.top:
                    tile = None
                if i:
                    self._check_further_draw(player, made[-1], self.rules.draw)
                    self._take(player, tile)
                else:
                    self._draw(player, tile)
                made.append(tile)
            drawn = made[-1] if made else None
            if action.play is None:
                self._check_pass_after_draw(player, drawn, self.rules.draw)
            elif drawn is not None:
                played = action.played_tile
                if played != drawn:
                    raise self._not_the_drawn(player, drawn, played)
        finally:
            for tile in reversed(made):
                self._undraw(player, tile)

    def _not_the_drawn(self, player: str, drawn: Tile, played: Tile | None) -> RuleViolation:
        """``must-play``: a turn that drew ``drawn`` played another tile; the message says
        what the rules ask instead: play the drawn tile where it fits (not under
        ``one-may``), draw again under ``until`` while a tile can be drawn, else that only
        the drawn tile may be played."""
        said = {"player": player, "drawn": drawn, "played_tile": played}
        fits = self.fits(drawn)
        if fits and self.rules.draw != DRAW_ONE_MAY:
            text = N_("{player} drew {drawn}, which fits, and must play it, not {played_tile}")
        elif not fits and self.rules.draw == DRAW_UNTIL and self.drawable:
            text = N_(
                "{player} drew {drawn}, which does not fit: under the house rule draw: until "
                "they draw again, not play {played_tile}"
            )
        else:
            text = N_(
                "{player} drew {drawn}: after a draw only the tile drawn may be played, "
                "not {played_tile}"
            )
        return RuleViolation("must-play", Message(text, **said))

    def _draws_turn(self, player: str, action: Action) -> None:
        """Several draws in one turn, then the last drawn tile played or a pass; every draw
        undone if anything in the turn is refused."""
        made: list[Tile | None] = []  # the tiles drawn so far this turn (None: unnamed)
        rule = self.rules.draw
        try:
            for i, written in enumerate(action.draws):
                tile = None if written is None else Tile.of(*written)
                if i:
                    self._check_further_draw(player, made[-1], rule)
                    self._take(player, tile)
                else:
                    self._draw(player, tile)
                made.append(tile)
            drawn = made[-1]
            if action.play is None:
                self._check_pass_after_draw(player, drawn, rule)
            else:
                self._play_drawn(player, drawn, action)
        except RuleViolation:
            for tile in reversed(made):
                self._undraw(player, tile)
            raise
        self.turns += 1
        self.passes_in_a_row = 0 if action.play is not None else self.passes_in_a_row + 1
        self.next_player = self._after[player]

    def _check_further_draw(self, player: str, before: Tile | None, rule: str) -> None:
        """Another draw in the same turn, after ``before`` (``None``: unnamed) was drawn:
        ``draw-limit`` under ``one`` and ``one-may``; ``must-play-drawn`` if the tile
        drawn before fits (under ``one`` and ``until``)."""
        if rule != DRAW_ONE_MAY and before is not None and self.fits(before):
            raise RuleViolation(
                "must-play-drawn",
                Message(
                    "{player} drew {before}, which fits ({describe_board}), and "
                    "must play it, not draw again",
                    player=player,
                    before=before,
                    describe_board=self.describe_board(),
                ),
            )
        if rule != DRAW_UNTIL:
            raise RuleViolation(
                "draw-limit",
                Message(
                    "{player} drew again in the same turn, but under the house "
                    "rule draw: {rule} a turn has one draw at most (draw: until "
                    "allows more)",
                    player=player,
                    rule=rule,
                ),
            )

    def _check_pass_after_draw(self, player: str, drawn: Tile | None, rule: str) -> None:
        """A pass that ends a drawing turn: ``must-play-drawn`` if the named drawn tile fits
        (not under ``one-may``); under ``until``, ``must-draw`` while a tile can be drawn."""
        if rule != DRAW_ONE_MAY and drawn is not None and self.fits(drawn):
            raise RuleViolation(
                "must-play-drawn",
                Message(
                    "{player} drew {drawn}, which fits ({describe_board}), and must play it",
                    player=player,
                    drawn=drawn,
                    describe_board=self.describe_board(),
                ),
            )
        if rule == DRAW_UNTIL and self.drawable:
            raise RuleViolation(
                "must-draw",
                Message(
                    "{player} passed after drawing, but under the house rule "
                    "draw: until a player draws until a tile fits, and the "
                    "chicken yard has {drawable} tile(s) to draw",
                    player=player,
                    drawable=self.drawable,
                ),
            )

    def _draw(self, player: str, tile: Tile | None) -> None:
        """The turn's first draw: ``turn``, ``must-play``, then as :meth:`_take`."""
        self.check_turn(player)
        if self.can_play(player):
            raise RuleViolation(
                "must-play",
                Message(
                    "{player} drew while holding {legal_plays}, playable: {describe_board}",
                    player=player,
                    legal_plays=_list(self.legal_plays(player)),
                    describe_board=self.describe_board(),
                ),
            )
        self._take(player, tile)

    def _take(self, player: str, tile: Tile | None) -> None:
        """One tile from the chicken yard (``tile``, or an unnamed one): ``yard-empty`` when
        nothing can be drawn, ``not-in-yard`` for a named tile that cannot be there."""
        hand = self.hands[player]
        if not self.drawable:
            raise RuleViolation(
                "yard-empty",
                Message(
                    "{player} drew, but the chicken yard is empty: nothing to draw", player=player
                )
                if self.yard == 0
                else Message(
                    "{player} drew, but the chicken yard is down to the reserve of {reserve}: "
                    "nothing to draw",
                    player=player,
                    reserve=self.reserve,
                ),
            )
        if tile is not None:
            if tile in self.on_table:
                raise RuleViolation(
                    "not-in-yard",
                    Message(
                        "{player} drew {tile}, but {tile} is on the table",
                        player=player,
                        tile=tile,
                    ),
                )
            holder = self.owner.get(tile)
            if holder is not None:
                raise RuleViolation(
                    "not-in-yard",
                    Message(
                        "{player} drew {tile}, but {tile} is in their own hand",
                        player=player,
                        tile=tile,
                    )
                    if holder == player
                    else Message(
                        "{player} drew {tile}, but {tile} is in {holder}'s hand",
                        player=player,
                        tile=tile,
                        holder=holder,
                    ),
                )
            hand.known.add(tile)
            self.owner[tile] = player
        else:
            hand.unseen += 1
            self.unseen_total += 1
        self.yard -= 1

    def _undraw(self, player: str, tile: Tile | None) -> None:
        hand = self.hands[player]
        if tile is not None:
            hand.known.discard(tile)
            del self.owner[tile]
        else:
            hand.unseen -= 1
            self.unseen_total -= 1
        self.yard += 1

    def _pass(self, player: str) -> None:
        self.check_turn(player)
        if self.can_play(player):
            raise RuleViolation(
                "must-play",
                Message(
                    "{player} passed while holding {legal_plays}, playable: {describe_board}",
                    player=player,
                    legal_plays=_list(self.legal_plays(player)),
                    describe_board=self.describe_board(),
                ),
            )
        if self.drawable:
            raise RuleViolation(
                "must-draw",
                Message(
                    "{player} passed without drawing, but the chicken yard has "
                    "{drawable} tile(s) to draw",
                    player=player,
                    drawable=self.drawable,
                ),
            )
        self.turns += 1
        self.passes_in_a_row += 1
        self.next_player = self._after[player]

    # --- internals --------------------------------------------------------------------

    def _play(self, player: str, oriented: tuple[int, int], tile: Tile | None = None) -> None:
        # The replay's hot path: local names, tuple tests that run in C.
        if tile is None:
            tile = Tile.of(*oriented)
        if tile in self.on_table:
            raise RuleViolation(
                "already-played",
                Message("{player} played {tile}, which is the starter", player=player, tile=tile)
                if tile == self.starter
                else Message(
                    "{player} played {tile}, which is on the table", player=player, tile=tile
                ),
            )
        hand = self.hands[player]
        known = hand.known
        in_hand = tile in known
        if not in_hand:
            self._check_unseen_play(player, tile, hand)
        near, far = oriented
        new_end: int | None
        if self.arms < self.arms_needed:  # the starter takes its arms first
            new_end = self._on_starter(player, tile, near, far)
        elif self.pending is not None:  # a chicken foot takes its toes first
            new_end = self._on_foot(player, tile, near, far)
        else:
            new_end = self._on_open_end(player, tile, near, far)
        if new_end is not None:
            ends = self.open_ends
            ends[new_end] = ends.get(new_end, 0) + 1
        if in_hand:
            known.discard(tile)
            del self.owner[tile]
        else:
            hand.unseen -= 1
            self.unseen_total -= 1
        self.on_table.add(tile)
        if not known and not hand.unseen:
            self.winner = player
            self.out_tile = tile

    def _check_unseen_play(self, player: str, tile: Tile, hand: Hand) -> None:
        """``not-in-hand``: a tile not known in the hand must be one of its unseen tiles."""
        holder = self.owner.get(tile)
        if holder is not None:
            raise RuleViolation(
                "not-in-hand",
                Message(
                    "{player} played {tile}, which is in {holder}'s hand",
                    player=player,
                    tile=tile,
                    holder=holder,
                ),
            )
        if hand.unseen == 0:
            held = _list(sorted(hand.known)) if hand.known else "nothing"
            raise RuleViolation(
                "not-in-hand",
                Message(
                    "{player} played {tile}, but holds {held}", player=player, tile=tile, held=held
                ),
            )

    def _on_starter(self, player: str, tile: Tile, near: int, far: int) -> int:
        """``starter-open``: an arm of the starter; returns the new open end."""
        s = self.starter[0]
        if s not in tile:
            raise RuleViolation(
                "starter-open",
                _holding(
                    s,
                    N_(
                        "{player} played {tile} off the starter: {describe_board}, "
                        "so every play must hold a {number}"
                    ),
                    N_(
                        "{player} played {tile} off the starter: {describe_board}, "
                        "so every play must hold an {number}"
                    ),
                    player=player,
                    tile=tile,
                    describe_board=self.describe_board(),
                ),
            )
        self.arms += 1
        return far if near == s else near

    def _on_foot(self, player: str, tile: Tile, near: int, far: int) -> int:
        """``foot-open``: a toe of the open chicken foot; returns the new open end."""
        d = self.pending
        assert d is not None
        if d not in tile:
            raise RuleViolation(
                "foot-open",
                _holding(
                    d,
                    N_(
                        "{player} played {tile} elsewhere while {describe_board}: "
                        "the next play must hold a {number}"
                    ),
                    N_(
                        "{player} played {tile} elsewhere while {describe_board}: "
                        "the next play must hold an {number}"
                    ),
                    player=player,
                    tile=tile,
                    describe_board=self.describe_board(),
                ),
            )
        self.toes += 1
        if self.toes == TOES:
            self.pending = None
        return far if near == d else near

    def _on_open_end(self, player: str, tile: Tile, near: int, far: int) -> int | None:
        """``no-match``: on an open end, as written, flipped only if that cannot fit. A double
        opens its chicken foot and no new end yet (``None``)."""
        ends = self.open_ends
        if near in ends:
            touch, new_end = near, far
        elif far in ends:
            touch, new_end = far, near
        else:
            raise RuleViolation(
                "no-match",
                Message(
                    "{player} played {tile}, which matches no open end: {describe_board}",
                    player=player,
                    tile=tile,
                    describe_board=self.describe_board(),
                ),
            )
        left = ends[touch] - 1
        if left:
            ends[touch] = left
        else:
            del ends[touch]
        if near == far:
            self.pending = touch
            self.toes = 0
            return None
        return new_end


def _list(tiles: Iterable[Tile]) -> str:
    return ", ".join(str(t) for t in tiles)


def _holding(number: int, a: str, an: str, **params: object) -> Message:
    """The message ``a`` ("must hold a {number}"), or ``an`` where English says "an"
    before the number (an 8, an 11, an 18)."""
    return Message(an if number in (8, 11, 18) else a, number=number, **params)
