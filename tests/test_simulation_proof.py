"""Simulated games are valid games, and the validator catches every kind of damage done
to them.

(a) Proof by simulation: under every rules variant, every game the simulator writes
    validates with no problem and tallies to the sum of its recorded scores.
(b) Mutation: damage one move (or a hand, a score) of a simulated game in a known way and
    the validator reports exactly that code at exactly that round and move.

The mutation tests read the game file as text (the ``game_yaml`` layout) and follow each
round with a small tracker of their own, so the expected codes do not come from cf.board.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cf.play.simulate import (
    STRATEGIES,
    simulate_game,
)
from cf.record.check import validate
from cf.record.emit import game_yaml
from cf.record.reader import read_game
from cf.record.standings import game_standings
from cf.rules import Rules, RulesError

NAMES = ["Ana", "Ben", "Carla", "Dan", "Eva", "Fede"]
SET_NAMES = {6: "double-six", 9: "double-nine", 12: "double-twelve"}


# --- rules variants ------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    top: int
    players: int
    arms: int | str
    reserve: int | None
    deal: int | None = None

    def rules(self, double_blank: int = 50) -> Rules:
        return Rules(
            top=self.top,
            deal=self.deal,
            starter_arms=self.arms,
            double_blank=double_blank,
            reserve=self.reserve,
        )

    def __str__(self) -> str:
        return f"d{self.top}-p{self.players}-arms{self.arms}-res{self.reserve}-deal{self.deal}"


def _variants() -> list[Variant]:
    found = []
    for top in (6, 9, 12):
        for players in range(2, 7):
            for arms in (3, 4, "players"):
                for reserve in (0, 1, 2, None):
                    # double-six has no row for six players: deal them 4 tiles each
                    deal = 4 if (top, players) == (6, 6) else None
                    variant = Variant(top, players, arms, reserve, deal)
                    try:
                        variant.rules().row(players)
                        variant.rules().arms_for(players)
                    except RulesError:
                        continue
                    found.append(variant)
    return found


VARIANTS = _variants()


def seat_strategies(players: int, mix: str, seed: int) -> list[str]:
    if mix in STRATEGIES:
        return [mix] * players
    return ["greedy" if (i + seed) % 2 else "random" for i in range(players)]


def play(variant: Variant, seed: int, mix: str = "mixed", double_blank: int = 50):
    names = NAMES[: variant.players]
    strategies = seat_strategies(variant.players, mix, seed)
    return simulate_game(names, variant.rules(double_blank), strategies, seed)


# --- an independent reading of the game file ---------------------------------------------------

Pair = tuple[int, int]


def tile(text: str) -> Pair:
    a, b = (int(x) for x in text.split("-"))
    return (max(a, b), min(a, b))


def oriented(text: str) -> Pair:
    a, b = (int(x) for x in text.split("-"))
    return (a, b)


def show(t: Pair) -> str:
    return f"{t[0]}-{t[1]}"


def points(hand: list[Pair] | set[Pair], double_blank: int) -> int:
    return sum(double_blank if t == (0, 0) else t[0] + t[1] for t in hand)


@dataclass
class MoveText:
    line: int
    player: str
    action: str

    @property
    def drew(self) -> bool:
        return self.action.startswith("draw")

    @property
    def drawn(self) -> Pair | None:
        m = re.fullmatch(r"draw (\d+-\d+), .*", self.action)
        return tile(m.group(1)) if m else None

    @property
    def played(self) -> Pair | None:
        last = self.action.split(", ")[-1]
        return None if last == "pass" else oriented(last)

    @property
    def is_plain_play(self) -> bool:
        return not self.drew and self.action != "pass"


@dataclass
class RoundText:
    number: int
    starter: Pair
    deal: dict[str, list[Pair]] = field(default_factory=dict)
    moves: list[MoveText] = field(default_factory=list)
    hand_lines: dict[str, int] = field(default_factory=dict)
    hands: dict[str, list[Pair]] = field(default_factory=dict)
    scores_line: int = -1
    scores: dict[str, int] = field(default_factory=dict)


@dataclass
class GameText:
    lines: list[str]
    top: int
    players: list[str]
    rules: dict
    rounds: list[RoundText]
    states: dict[int, list[Before]] = field(default_factory=dict)  # track()'s, by round

    @property
    def double_blank(self) -> int:
        return self.rules.get("double_blank", 50)

    def arms(self) -> int:
        arms = self.rules.get("starter_arms", 4)
        return len(self.players) if arms == "players" else arms

    def reserve(self) -> int:
        if "reserve" in self.rules:
            return self.rules["reserve"]
        return 2 if len(self.players) == 2 else 1

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def parse_layout(text: str) -> GameText:
    """Read a ``game_yaml`` file line by line: where each move, hand and score is."""
    lines = text.splitlines()
    head = yaml.safe_load("\n".join(line for line in lines if not line.startswith(" ")))
    top = {v: k for k, v in SET_NAMES.items()}[head["set"]]
    game = GameText(lines, top, [str(p) for p in head["players"]], head["rules"], [])
    section = ""
    for i, line in enumerate(lines):
        if line.startswith("  - starter: "):
            game.rounds.append(RoundText(len(game.rounds) + 1, tile(line.split(": ")[1])))
        elif line in ("    deal:", "    moves:", "    hands:"):
            section = line.strip(" :")
        elif line.startswith("    scores: "):
            rnd = game.rounds[-1]
            rnd.scores_line = i
            rnd.scores = {str(k): v for k, v in yaml.safe_load(line.split(": ", 1)[1]).items()}
        elif line.startswith("      - "):
            player, action = line[8:].split(": ", 1)
            game.rounds[-1].moves.append(MoveText(i, player, action))
        elif line.startswith("      "):
            name, rest = line.strip().split(": ", 1)
            tiles = [] if rest == '""' else [tile(t) for t in rest.split()]
            if section == "deal":
                game.rounds[-1].deal[name] = tiles
            else:
                assert section == "hands", line
                game.rounds[-1].hands[name] = tiles
                game.rounds[-1].hand_lines[name] = i
    return game


@dataclass
class Before:
    """The state of a round just before a move, as the tracker sees it."""

    index: int  # 1-based move number
    move: MoveText
    hands: dict[str, set[Pair]]
    on_table: set[Pair]
    drawable: int
    starter_phase: bool
    pending: int | None
    ends: Counter

    def fits(self, t: Pair, starter: int) -> bool:
        if self.starter_phase:
            return starter in t
        if self.pending is not None:
            return self.pending in t
        return self.ends[t[0]] > 0 or self.ends[t[1]] > 0


def track(game: GameText, rnd: RoundText) -> list[Before]:
    """Follow a (valid) round move by move: every hand, the table, the board's ends."""
    if rnd.number not in game.states:
        game.states[rnd.number] = _track(game, rnd)
    return game.states[rnd.number]


def _track(game: GameText, rnd: RoundText) -> list[Before]:
    """The tracker proper. It also checks, on its own reading of SPEC §4, that every move
    of the (simulated) round is legal and that the round ends as the rules say."""
    s = rnd.starter[0]
    pool = (game.top + 1) * (game.top + 2) // 2 - 1
    hands = {p: set(rnd.deal[p]) for p in game.players}
    yard = pool - sum(len(h) for h in hands.values())
    reserve = game.reserve()
    on_table = {rnd.starter}
    arms, pending, toes = 0, None, 0
    ends: Counter = Counter()
    states = []
    where = f"round {rnd.number}"

    def fits(t: Pair) -> bool:
        if arms < game.arms():
            return s in t
        if pending is not None:
            return pending in t
        return ends[t[0]] > 0 or ends[t[1]] > 0

    for i, move in enumerate(rnd.moves, start=1):
        here = f"{where}, move {i}: {move.player}: {move.action}"
        assert all(hands.values()), f"{here}: after someone went out"
        if i > 1:
            before = game.players.index(rnd.moves[i - 2].player)
            assert move.player == game.players[(before + 1) % len(game.players)], here
        drawable = max(yard - reserve, 0)
        states.append(
            Before(
                i,
                move,
                {p: set(h) for p, h in hands.items()},
                set(on_table),
                drawable,
                arms < game.arms(),
                pending,
                Counter(ends),
            )
        )
        hand = hands[move.player]
        if move.drew or move.played is None:
            assert not any(fits(t) for t in hand), f"{here}: held a playable tile"
        if move.drew:
            drawn = move.drawn
            assert drawable > 0, f"{here}: nothing to draw"
            assert drawn not in on_table and all(drawn not in h for h in hands.values()), here
            hand.add(drawn)
            yard -= 1
            if move.played is None:
                assert not fits(drawn), f"{here}: passed with a playable drawn tile"
        elif move.played is None:
            assert drawable == 0, f"{here}: passed while tiles could be drawn"
        play_ = move.played
        if play_ is None:
            continue
        t = tile(show(play_))
        assert t in hand, f"{here}: not in hand"
        assert not move.drew or t == move.drawn, f"{here}: not the drawn tile"
        assert fits(t), f"{here}: does not fit"
        hand.remove(t)
        on_table.add(t)
        near, far = play_
        if arms < game.arms():
            arms += 1
            ends[near if far == s else far] += 1
        elif pending is not None:
            toes += 1
            ends[far if near == pending else near] += 1
            if toes == 3:
                pending = None
        else:
            touch = near if ends[near] else far
            ends[touch] -= 1
            if near == far:
                pending, toes = touch, 0
            else:
                ends[far if touch == near else near] += 1
    if all(hands.values()):  # nobody went out: the round must be blocked
        assert max(yard - reserve, 0) == 0, f"{where}: stops with tiles left to draw"
        assert not any(fits(t) for h in hands.values() for t in h), f"{where}: not blocked"
    return states


# --- (a) proof by simulation -------------------------------------------------------------------


def check_simulated(game, variant: Variant) -> int:
    """Validate the written game and tally it; return how many rounds it had."""
    text = game_yaml(game)
    report = validate(read_game(text.encode(), "sim.yaml"))
    assert report.problems == [], (str(variant), report.problems[:3])

    layout = parse_layout(text)
    assert len(layout.rounds) == variant.top + 1
    for rnd in layout.rounds:
        track(layout, rnd)  # every move legal by the test's own reading of the rules
    each = variant.rules().row(variant.players).tiles_each
    for rnd in layout.rounds:
        assert rnd.starter == (variant.top - rnd.number + 1,) * 2
        assert all(len(h) == each for h in rnd.deal.values())
        # the recorded scores are the points of the recorded hands; someone out or blocked
        for p in layout.players:
            assert rnd.scores[p] == points(rnd.hands[p], layout.double_blank)
        went_out = [p for p in layout.players if not rnd.hands[p]]
        assert len(went_out) <= 1
        if went_out:
            assert rnd.moves[-1].player == went_out[0]

    recorded = {p: sum(r.scores[p] for r in layout.rounds) for p in layout.players}
    standings = game_standings("sim.yaml", layout.players, report.round_points, variant.top + 1)
    assert {row.player: row.total for row in standings.rows} == recorded
    assert standings.complete
    return len(layout.rounds)


def test_the_variant_list_covers_every_option():
    assert {v.top for v in VARIANTS} == {6, 9, 12}
    assert {v.players for v in VARIANTS} == {2, 3, 4, 5, 6}
    assert {v.arms for v in VARIANTS} == {3, 4, "players"}
    assert {v.reserve for v in VARIANTS} == {0, 1, 2, None}
    assert len(VARIANTS) > 100


def test_every_variant_once_gives_valid_games():
    rounds = 0
    for i, variant in enumerate(VARIANTS):
        mix = ("greedy", "random", "mixed")[i % 3]
        rounds += check_simulated(play(variant, seed=1000 + i, mix=mix), variant)
    assert rounds > 1000


@settings(
    max_examples=120,  # every variant is also played once above; this mixes the rest
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    variant=st.sampled_from(VARIANTS),
    mix=st.sampled_from(["greedy", "random", "mixed"]),
    double_blank=st.sampled_from([50, 25, 0, 7]),
)
def test_simulated_games_always_validate_and_tally(seed, variant, mix, double_blank):
    check_simulated(play(variant, seed, mix, double_blank), variant)


@pytest.mark.parametrize("top", [6, 9, 12])
def test_cf_tally_of_a_simulated_game_sums_the_recorded_scores(cli, tmp_path, top):
    path = tmp_path / "g.yaml"
    result = cli("simulate", "--set", str(top), "--players", "3", "--seed", "11", "-o", str(path))
    assert result.exit_code == 0, result.stderr
    data = yaml.safe_load(path.read_text())
    recorded = {p: sum(r["scores"][p] for r in data["rounds"]) for p in data["players"]}
    tallied = cli("tally", str(path), "--format", "json")
    assert tallied.exit_code == 0, tallied.stderr
    rows = json.loads(tallied.stdout)["standings"]
    assert {r["player"]: r["total"] for r in rows} == recorded
    for r in rows:
        assert r["rounds"] == [rnd["scores"][r["player"]] for rnd in data["rounds"]]


# --- (b) mutations ------------------------------------------------------------------------------

MUTATION_VARIANTS = [
    Variant(6, 2, 4, None),
    Variant(6, 4, 3, 0),
    Variant(9, 3, 4, None),
    Variant(9, 4, "players", 1),
    Variant(12, 5, 3, 2),
]
MUTATION_SEEDS = range(40)


@functools.cache
def simulated_text(seed: int) -> str:
    variant = MUTATION_VARIANTS[seed % len(MUTATION_VARIANTS)]
    return game_yaml(play(variant, seed))


@functools.cache
def simulated(seed: int) -> GameText:
    """The game of ``seed``, read once (mutations copy its lines, never change it)."""
    return parse_layout(simulated_text(seed))


def replace_move(game: GameText, move: MoveText, player: str, action: str) -> str:
    lines = list(game.lines)
    lines[move.line] = f"      - {player}: {action}"
    return "\n".join(lines) + "\n"


Expected = tuple[str, int, int | None]


def m_turn(game, rng):
    cands = [(r, b) for r in game.rounds for b in track(game, r) if b.index >= 2]
    r, b = rng.choice(cands)
    other = rng.choice([p for p in game.players if p != b.move.player])
    return replace_move(game, b.move, other, b.move.action), ("turn", r.number, b.index)


def m_turn_comes_before_the_tile(game, rng):
    """The wrong player, playing a tile already on the table: the turn is reported."""
    cands = [(r, b) for r in game.rounds for b in track(game, r) if b.index >= 2]
    r, b = rng.choice(cands)
    other = rng.choice([p for p in game.players if p != b.move.player])
    action = show(rng.choice(sorted(b.on_table)))
    return replace_move(game, b.move, other, action), ("turn", r.number, b.index)


def m_tile_outside_the_set(game, rng):
    r, b = rng.choice(_plain_plays(game))
    action = f"{game.top + 1}-{rng.randint(0, game.top)}"
    return replace_move(game, b.move, b.move.player, action), ("tile", r.number, b.index)


def m_notation(game, rng):
    r, b = rng.choice([(r, b) for r in game.rounds for b in track(game, r)])
    action = rng.choice(["play 3-4", "draw 1-2, 3-4, pass", "passes", "knock"])
    return replace_move(game, b.move, b.move.player, action), ("notation", r.number, b.index)


def _plain_plays(game):
    return [(r, b) for r in game.rounds for b in track(game, r) if b.move.is_plain_play]


def m_not_in_hand_other(game, rng):
    cands = []
    for r, b in _plain_plays(game):
        theirs = sorted(t for p, h in b.hands.items() if p != b.move.player for t in h)
        if theirs:
            cands.append((r, b, theirs))
    r, b, theirs = rng.choice(cands)
    action = show(rng.choice(theirs))
    return replace_move(game, b.move, b.move.player, action), ("not-in-hand", r.number, b.index)


def m_not_in_hand_yard(game, rng):
    every = [(a, c) for a in range(game.top + 1) for c in range(a + 1)]
    cands = []
    for r, b in _plain_plays(game):
        held = set().union(*b.hands.values())
        yard = [t for t in every if t not in held and t not in b.on_table]
        if yard:
            cands.append((r, b, yard))
    r, b, yard = rng.choice(cands)
    action = show(rng.choice(yard))
    return replace_move(game, b.move, b.move.player, action), ("not-in-hand", r.number, b.index)


def m_already_played(game, rng):
    r, b = rng.choice(_plain_plays(game))
    action = show(rng.choice(sorted(b.on_table)))
    return replace_move(game, b.move, b.move.player, action), ("already-played", r.number, b.index)


def m_starter_open(game, rng):
    cands = []
    for r, b in _plain_plays(game):
        s = r.starter[0]
        off = sorted(t for t in b.hands[b.move.player] if s not in t)
        if b.starter_phase and off:
            cands.append((r, b, off))
    if not cands:
        return None
    r, b, off = rng.choice(cands)
    action = show(rng.choice(off))
    return replace_move(game, b.move, b.move.player, action), ("starter-open", r.number, b.index)


def m_foot_open(game, rng):
    cands = []
    for r, b in _plain_plays(game):
        if b.pending is None:
            continue
        off = sorted(t for t in b.hands[b.move.player] if b.pending not in t)
        if off:
            cands.append((r, b, off))
    if not cands:
        return None
    r, b, off = rng.choice(cands)
    action = show(rng.choice(off))
    return replace_move(game, b.move, b.move.player, action), ("foot-open", r.number, b.index)


def m_no_match(game, rng):
    cands = []
    for r, b in _plain_plays(game):
        if b.starter_phase or b.pending is not None:
            continue
        off = sorted(t for t in b.hands[b.move.player] if not b.fits(t, r.starter[0]))
        if off:
            cands.append((r, b, off))
    if not cands:
        return None
    r, b, off = rng.choice(cands)
    action = show(rng.choice(off))
    return replace_move(game, b.move, b.move.player, action), ("no-match", r.number, b.index)


def m_must_play_pass(game, rng):
    r, b = rng.choice(_plain_plays(game))
    return replace_move(game, b.move, b.move.player, "pass"), ("must-play", r.number, b.index)


def m_must_play_draw(game, rng):
    r, b = rng.choice(_plain_plays(game))
    new = replace_move(game, b.move, b.move.player, "draw, pass")
    return new, ("must-play", r.number, b.index)


def m_must_play_other_tile(game, rng):
    """Draw a tile that fits, then play another one from the hand."""
    cands = []
    for r in game.rounds:
        for b in track(game, r):
            if b.move.drew and b.move.played is not None:
                others = sorted(b.hands[b.move.player] - {b.move.drawn})
                if others:
                    cands.append((r, b, others))
    if not cands:
        return None
    r, b, others = rng.choice(cands)
    action = f"draw {show(b.move.drawn)}, {show(rng.choice(others))}"
    return replace_move(game, b.move, b.move.player, action), ("must-play", r.number, b.index)


def m_must_play_drawn(game, rng):
    cands = [(r, b) for r in game.rounds for b in track(game, r) if b.move.drew and b.move.played]
    if not cands:
        return None
    r, b = rng.choice(cands)
    action = f"draw {show(b.move.drawn)}, pass"
    return replace_move(game, b.move, b.move.player, action), (
        "must-play-drawn",
        r.number,
        b.index,
    )


def _draws(game, passed: bool | None = None):
    return [
        (r, b)
        for r in game.rounds
        for b in track(game, r)
        if b.move.drew and (passed is None or (b.move.played is None) == passed)
    ]


def m_must_draw(game, rng):
    cands = _draws(game, passed=True)
    if not cands:
        return None
    r, b = rng.choice(cands)
    assert b.drawable > 0
    return replace_move(game, b.move, b.move.player, "pass"), ("must-draw", r.number, b.index)


def m_must_draw_after_play(game, rng):
    cands = _draws(game, passed=False)
    if not cands:
        return None
    r, b = rng.choice(cands)
    return replace_move(game, b.move, b.move.player, "pass"), ("must-draw", r.number, b.index)


def m_yard_empty(game, rng):
    cands = [(r, b) for r in game.rounds for b in track(game, r) if b.move.action == "pass"]
    if not cands:
        return None
    r, b = rng.choice(cands)
    assert b.drawable == 0
    action = rng.choice(["draw, pass", "draw pass", "DRAW, PASS"])
    return replace_move(game, b.move, b.move.player, action), ("yard-empty", r.number, b.index)


def m_not_in_yard(game, rng):
    cands = _draws(game)
    if not cands:
        return None
    r, b = rng.choice(cands)
    elsewhere = sorted(b.on_table | set().union(*b.hands.values()))
    named = show(rng.choice(elsewhere))
    rest = b.move.action.split(", ")[-1]
    if rest != "pass":
        rest = named
    new = replace_move(game, b.move, b.move.player, f"draw {named}, {rest}")
    return new, ("not-in-yard", r.number, b.index)


def m_after_end(game, rng):
    cands = [r for r in game.rounds if any(not h for h in r.hands.values())]
    if not cands:
        return None
    r = rng.choice(cands)
    last = r.moves[-1]
    player = rng.choice(game.players)
    action = rng.choice(["pass", "draw, pass", show(r.starter)])
    lines = list(game.lines)
    lines.insert(last.line + 1, f"      - {player}: {action}")
    return "\n".join(lines) + "\n", ("after-end", r.number, len(r.moves) + 1)


def m_score(game, rng):
    r = rng.choice(game.rounds)
    player = rng.choice(game.players)
    scores = dict(r.scores)
    scores[player] += rng.choice([1, 2, 10, 50])
    lines = list(game.lines)
    lines[r.scores_line] = (
        "    scores: {" + ", ".join(f"{p}: {v}" for p, v in scores.items()) + "}"
    )
    return "\n".join(lines) + "\n", ("score-mismatch", r.number, None)


def _set_hand(game, r: RoundText, player: str, hand: list[Pair]) -> list[str]:
    """Rewrite a player's recorded hand and fix the score, so only the hand is wrong."""
    lines = list(game.lines)
    text = " ".join(show(t) for t in sorted(hand, reverse=True)) or '""'
    lines[r.hand_lines[player]] = f"      {player}: {text}"
    scores = dict(r.scores)
    scores[player] = points(hand, game.double_blank)
    lines[r.scores_line] = (
        "    scores: {" + ", ".join(f"{p}: {v}" for p, v in scores.items()) + "}"
    )
    return lines


def m_hand_lacks_a_tile(game, rng):
    cands = [(r, p) for r in game.rounds for p in game.players if r.hands[p]]
    r, p = rng.choice(cands)
    hand = list(r.hands[p])
    hand.remove(rng.choice(hand))
    return "\n".join(_set_hand(game, r, p, hand)) + "\n", ("hands-mismatch", r.number, None)


def m_hand_holds_a_played_tile(game, rng):
    r = rng.choice(game.rounds)
    p = rng.choice(game.players)
    played = sorted({tile(show(m.played)) for m in r.moves if m.played} - set(r.hands[p]))
    hand = [*r.hands[p], rng.choice(played)]
    return "\n".join(_set_hand(game, r, p, hand)) + "\n", ("hands-mismatch", r.number, None)


MUTATIONS = {
    "turn": m_turn,
    "turn (before already-played)": m_turn_comes_before_the_tile,
    "tile (not in the set)": m_tile_outside_the_set,
    "notation": m_notation,
    "not-in-hand (another's tile)": m_not_in_hand_other,
    "not-in-hand (a yard tile)": m_not_in_hand_yard,
    "already-played": m_already_played,
    "starter-open": m_starter_open,
    "foot-open": m_foot_open,
    "no-match": m_no_match,
    "must-play (pass)": m_must_play_pass,
    "must-play (draw)": m_must_play_draw,
    "must-play (other tile after a draw)": m_must_play_other_tile,
    "must-play-drawn": m_must_play_drawn,
    "must-draw (draw X, pass -> pass)": m_must_draw,
    "must-draw (draw X, X -> pass)": m_must_draw_after_play,
    "yard-empty": m_yard_empty,
    "not-in-yard": m_not_in_yard,
    "after-end": m_after_end,
    "score-mismatch": m_score,
    "hands-mismatch (a tile missing)": m_hand_lacks_a_tile,
    "hands-mismatch (a played tile)": m_hand_holds_a_played_tile,
}


def test_the_unharmed_simulated_games_are_valid():
    for seed in MUTATION_SEEDS:
        report = validate(read_game(simulated_text(seed).encode(), "sim.yaml"))
        assert report.problems == [], seed


def test_the_tracker_agrees_with_the_recorded_hands():
    # The test's own reading of the rules leaves exactly the hands the file records.
    for seed in MUTATION_SEEDS:
        game = parse_layout(simulated_text(seed))
        for rnd in game.rounds:
            last = track(game, rnd)[-1]
            hands = {p: set(h) for p, h in last.hands.items()}
            if last.move.drew:
                hands[last.move.player].add(last.move.drawn)
            if last.move.played:
                hands[last.move.player].discard(tile(show(last.move.played)))
            assert hands == {p: set(h) for p, h in rnd.hands.items()}, (seed, rnd.number)


@pytest.mark.parametrize("kind", list(MUTATIONS))
def test_one_damaged_move_gives_exactly_its_code_at_its_place(kind):
    mutate = MUTATIONS[kind]
    applied = 0
    wrong = []
    for seed in MUTATION_SEEDS:
        game = simulated(seed)
        done = mutate(game, random.Random(f"{kind}:{seed}"))
        if done is None:
            continue
        text, expected = done
        applied += 1
        report = validate(read_game(text.encode(), "damaged.yaml"))
        got = [(p.code, p.round, p.move) for p in report.problems]
        if got[:1] != [expected] or len(got) != 1:
            wrong.append((seed, expected, got[:3]))
    assert not wrong, wrong
    assert applied >= len(MUTATION_SEEDS) // 2, f"{kind} applied to only {applied} games"


def test_problem_lines_point_at_the_damaged_move():
    game = parse_layout(simulated_text(3))
    text, (_, rnd, move) = m_must_play_pass(game, random.Random(3))
    report = validate(read_game(text.encode(), "damaged.yaml"))
    (problem,) = report.problems
    target = game.rounds[rnd - 1].moves[move - 1]
    assert problem.line == target.line + 1
    assert problem.player == target.player


def test_a_pass_after_a_blocked_round_is_still_valid():
    # "After a block only passes can follow": such a pass is no problem at all.
    blocked = 0
    for seed in MUTATION_SEEDS:
        game = parse_layout(simulated_text(seed))
        for r in game.rounds:
            if any(not h for h in r.hands.values()):
                continue
            blocked += 1
            last = r.moves[-1]
            nxt = game.players[(game.players.index(last.player) + 1) % len(game.players)]
            lines = list(game.lines)
            lines.insert(last.line + 1, f"      - {nxt}: pass")
            report = validate(read_game(("\n".join(lines) + "\n").encode(), "b.yaml"))
            assert report.problems == [], (seed, r.number, report.problems[:2])
            break
    assert blocked > 0
