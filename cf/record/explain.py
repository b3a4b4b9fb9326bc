"""What each problem code means, with a failing example and its fix (``cf explain``).

This is the one source of the long story behind a problem line: ``cf explain CODE`` prints
it, ``cf validate --format sarif`` puts it in each rule's help, and docs/file-format.md's
section on the problem codes is generated from it (docs/generate.py; a test checks that
they agree). Each ``example`` is a whole game file that ``cf validate`` reports with that
code and no other; each ``fixed`` is the same file put right, and valid.

>>> explanation("turn").summary
'a move by the wrong player'
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from cf.i18n import N_, Message
from cf.record.problems import CODES


@dataclass(frozen=True, slots=True)
class Explanation:
    """The long story of one problem code."""

    code: str
    summary: str  #: one line: what the code is about
    rule: str  #: the rule, in a paragraph
    example: str  #: a game file with this problem (and no other)
    fix: str  #: how to put it right
    fixed: str  #: ``example`` put right: a valid game file

    def changes(self) -> list[tuple[int, list[str], list[str]]]:
        """(first line, lines taken out, lines put in) from ``example`` to ``fixed``."""
        old, new = self.example.splitlines(), self.fixed.splitlines()
        matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
        return [
            (i1 + 1, old[i1:i2], new[j1:j2])
            for tag, i1, i2, j1, j2 in matcher.get_opcodes()
            if tag != "equal"
        ]


class UnknownCodeError(LookupError):
    """Not a problem code; ``suggestion`` is the closest one, if any."""

    def __init__(self, code: str, suggestion: str | None) -> None:
        if suggestion:
            message = Message(
                "no problem code '{code}' (did you mean '{suggestion}'?); "
                "`cf explain` lists them all",
                code=code,
                suggestion=suggestion,
            )
        else:
            message = Message("no problem code '{code}'; `cf explain` lists them all", code=code)
        super().__init__(message)
        self.code = code
        self.suggestion = suggestion


# --- the example games ---------------------------------------------------------------
# Tiny bases: a round scored by hand, and rounds recorded move by move (double-six, two or
# three tiles each and a starter that takes two arms, so that a log is short). An example
# is a base with one change; its fix is the base, or the base with another change.

_SCORES = """\
players: [Ana, Ben]
rounds:
  - scores: {Ana: 0, Ben: 12}
"""

_LOG = """\
set: double-six
rules: {deal: 2, starter_arms: 2}
players: [Ana, Ben]
rounds:
  - deal: {Ana: 6-5 2-1, Ben: 6-4 4-3}
    moves:
      - Ana: 6-5
      - Ben: 6-4
      - Ana: draw 1-0, pass
      - Ben: 4-3
"""

_FOOT = """\
set: double-six
rules: {deal: 3, starter_arms: 2}
players: [Ana, Ben]
rounds:
  - deal: {Ana: 6-5 5-5 5-1, Ben: 6-4 5-3 4-2}
    moves:
      - Ana: 6-5
      - Ben: 6-4
      - Ana: 5-5
      - Ben: 5-3
      - Ana: 5-1
"""

_SEVEN_ROUNDS = "set: double-six\nplayers: [Ana, Ben]\nrounds:\n" + "".join(
    f"  - scores: {{Ana: {a}, Ben: {b}}}\n"
    for a, b in ((0, 12), (9, 0), (0, 4), (7, 0), (0, 3), (5, 0), (0, 2))
)


def _edit(base: str, old: str, new: str) -> str:
    assert old in base, old
    return base.replace(old, new, 1)


# 27 tiles less 4 dealt leave 23 in the yard: a reserve of 23 leaves nothing to draw.
_YARD_EMPTY = _edit(_LOG, "starter_arms: 2}", "starter_arms: 2, reserve: 23}")


def _entry(
    code: str,
    summary: str,
    rule: str,
    base: str,
    old: str,
    new: str,
    fix: str,
    fixed: str | None = None,
) -> Explanation:
    """``base`` with ``old`` made ``new`` has the problem; with ``old`` made ``fixed``
    (``old`` itself by default), it is valid."""
    example = _edit(base, old, new)
    return Explanation(code, summary, rule, example, fix, _edit(base, old, fixed or old))


_ENTRIES = (
    _entry(
        "yaml",
        N_("the file cannot be parsed as YAML (or is not UTF-8 text, or is larger than 16 MiB)"),
        N_(
            "A game file is a YAML document: a mapping of keys to values, with lists in [ ] "
            "or one '- ' item per line, and mappings in { } or one 'key: value' per line. "
            "Indentation is made of spaces, never tabs. The parser reports where it gave up, "
            "which may be the line after the mistake."
        ),
        _SCORES,
        "players: [Ana, Ben]",
        "players: [Ana, Ben",
        N_("close the list: every [ needs its ], every { its }, every quote its partner."),
    ),
    _entry(
        "schema",
        N_(
            "an unknown or duplicated key, a missing players or rounds, a value of the wrong "
            "shape, or a score that is not a whole number"
        ),
        N_(
            "The top of the file takes title, date, notes, set, rules, players and rounds "
            "(players and rounds are required); a round takes starter, deal, moves, hands, "
            "scores and notes. Any other key, a key given twice, a list where one value "
            "belongs (or the other way round) and a score that is not a whole number 0 or "
            "more are schema problems. An unknown key is usually a typo: the message names "
            "the closest known key. `cf schema` gives editors the same checks as you type."
        ),
        _SCORES,
        "  - scores:",
        "  - score:",
        N_("spell the key as the message suggests."),
    ),
    _entry(
        "rules",
        N_(
            "a set or house-rule value that is not allowed, or rules that cannot work with "
            "this many players"
        ),
        N_(
            "set names a set cf knows (double-six, double-nine, double-twelve, double-fifteen, "
            "double-eighteen, or double-9, d9, 9); in rules, starter_arms is a whole number "
            "from 2 to the set's top pip or 'players', double_blank and reserve are whole "
            "numbers 0 or more, deal is a whole number 1 or more and rounds one from 1 to "
            "N+1. The deal must leave at "
            "least the reserve in the chicken yard, and a player count the deal table has no "
            "row for needs an explicit deal."
        ),
        _SCORES,
        "players: [Ana, Ben]\n",
        "rules: {starter_arms: 1}\nplayers: [Ana, Ben]\n",
        N_(
            "give a value from the allowed range (here 2 or more), or leave the key out for "
            "its default."
        ),
    ),
    _entry(
        "player",
        N_("a name that is not a player, a player seated twice, or fewer than two players"),
        N_(
            "players lists everybody at the table, each once, in seating order; a game needs "
            "two or more. Every name in deal, hands, scores and the moves must be one of "
            "them, written the same way (names are case-sensitive)."
        ),
        _LOG,
        "      - Ben: 6-4",
        "      - Bob: 6-4",
        N_("use the name as it is written in players (or add the player there)."),
    ),
    _entry(
        "tile",
        N_("text that is not a tile, or a tile not in the set"),
        N_(
            "A tile is two pips joined by - or |, optionally in square brackets (6-5, 5|6, "
            "[6-5]); each pip is a whole number from 0 to the set's top (6 in double-six, 9 "
            "in double-nine). Hands, deals, starters and moves hold only tiles of the set."
        ),
        _LOG,
        "      - Ana: 6-5",
        "      - Ana: 7-5",
        N_("write the tile that was played, with pips of the set."),
    ),
    _entry(
        "notation",
        N_("a move that is none of the move forms"),
        N_(
            "A move is PLAYER: ACTION, where ACTION is a tile (play it), 'draw TILE, TILE' "
            "(draw a tile and play it), 'draw TILE, pass' (draw a tile that does not fit and "
            "pass), the same with an unnamed draw ('draw, TILE', 'draw, pass'), or 'pass'. "
            "Keywords may be in any case; the comma may be a space."
        ),
        _LOG,
        "      - Ana: 6-5",
        "      - Ana: plays 6-5",
        N_("write just the tile for a play."),
    ),
    _entry(
        "duplicate-tile",
        N_("a tile dealt twice or held twice, or the round's starter in a dealt or recorded hand"),
        N_(
            "A set has each tile once: no tile may be in two hands, or twice in one, and the "
            "round's starting double is on the table from the start, in nobody's hand. cf add "
            "checks the tiles it keeps in a comment beside scores the same way."
        ),
        _LOG,
        "Ben: 6-4 4-3}",
        "Ben: 6-5 4-3}",
        N_("write each hand as it was dealt; one of the two copies is a slip."),
    ),
    _entry(
        "deal",
        N_("a dealt hand with the wrong number of tiles, or a player left out of deal"),
        N_(
            "Every player is dealt the same number of tiles: rules.deal, or the deal table's "
            "number for the set and the player count. A round's deal lists every player."
        ),
        _LOG,
        "Ben: 6-4 4-3}",
        "Ben: 6-4}",
        N_("give each player the number of tiles dealt (here 2)."),
    ),
    _entry(
        "starter",
        N_("a round's starter that is not its double"),
        N_(
            "Round k starts with the double N-k+1: in double-six 6-6, then 5-5, down to 0-0. "
            "starter may be left out; if it is given, it must be that double."
        ),
        _LOG,
        "  - deal:",
        "  - starter: 5-5\n    deal:",
        N_("write the round's double, or leave starter out."),
    ),
    Explanation(
        "round-count",
        N_(
            "more rounds than the set has (N+1), than rules.rounds, or after a total reached "
            "rules.target"
        ),
        N_(
            "A game has one round per double, from the top one down to 0-0: N+1 rounds in a "
            "double-N set, 7 in double-six, 10 in double-nine; a table that plays fewer says so "
            "in rules.rounds. A game played to a target (rules.target) ends after the first "
            "round in which a total reaches it (the doubles start again from the top after "
            "0-0), and rules.rounds is then the most rounds it may have. The problem is "
            "reported at the first round too many. A round past the set's last (in a game "
            "without a target) has no double to start it, so no command replays it: `cf show`, "
            "`cf hint` and every other command that would (`cf show -r 8`, `cf hint`) say this "
            "problem instead (`Error: … round 8: [round-count] …`, exit 1)."
        ),
        _SEVEN_ROUNDS + "  - scores: {Ana: 0, Ben: 1}\n",
        N_("take the extra round out, or check the file's set."),
        _SEVEN_ROUNDS,
    ),
    _entry(
        "missing-score",
        N_("a round, or a player in it, that cannot be scored"),
        N_(
            "Every round must let each player be scored: it records scores, or hands, or the "
            "deal and the moves. scores and hands list every player; a player whose hand is "
            "not fully known at the end of the log (an unnamed draw never played) needs hands "
            "or scores."
        ),
        _SCORES,
        "{Ana: 0, Ben: 12}",
        "{Ana: 0}",
        N_("give every player's score (0 for the player who went out)."),
    ),
    _entry(
        "turn",
        N_("a move by the wrong player"),
        N_(
            "The first turn is taken by whichever player the log names first; after that "
            "turns follow the order of players, cyclically. Every turn is one entry, a pass "
            "or a draw included."
        ),
        _LOG,
        "      - Ben: 6-4\n",
        "",
        N_(
            "put in the missing turn (here Ben's), or give the move to the player whose turn "
            "it was."
        ),
    ),
    _entry(
        "not-in-hand",
        N_("a play of a tile the player cannot be holding"),
        N_(
            "A player plays from the hand: with a deal, the hand is known, and a tile not in "
            "it cannot be played; without one, a tile known to be in another hand cannot be, "
            "nor any tile once the player has no unseen tile left."
        ),
        _LOG,
        "      - Ana: 6-5",
        "      - Ana: 6-3",
        N_("write the tile that was played, or correct the deal."),
    ),
    _entry(
        "already-played",
        N_("a play of a tile that is already on the table"),
        N_(
            "Each tile is played at most once, and the starting double is on the table from "
            "the start."
        ),
        _LOG,
        "      - Ben: 6-4",
        "      - Ben: 6-5",
        N_("write the tile that was played."),
    ),
    _entry(
        "not-in-yard",
        N_("a named draw of a tile that cannot be in the chicken yard"),
        N_(
            "A drawn tile comes from the chicken yard: it cannot be on the table, in a hand "
            "that is known, or drawn before."
        ),
        _LOG,
        "      - Ana: draw 1-0, pass",
        "      - Ana: draw 4-3, pass",
        N_("write the tile that was drawn, or 'draw, pass' if nobody saw it."),
    ),
    _entry(
        "no-match",
        N_("a play that matches no open end"),
        N_(
            "Once the starter has its arms, a tile goes against an open end showing one of "
            "its numbers; that end is used up and the tile's other half becomes an open end."
        ),
        _LOG,
        "      - Ana: draw 1-0, pass",
        "      - Ana: 2-1",
        N_("play a tile that fits an open end; a player who has none draws."),
    ),
    _entry(
        "starter-open",
        N_("a play off the starter before it has all its arms"),
        N_(
            "While the starting double has fewer arms than starter_arms (4 by default), every "
            "play must be a tile with the starter's number, placed against the starter."
        ),
        _LOG,
        "      - Ben: 6-4",
        "      - Ben: 4-3",
        N_("play a tile with the starter's number until it has all its arms."),
    ),
    Explanation(
        "foot-open",
        N_("a play elsewhere before a chicken foot has its three toes"),
        N_(
            "A double played on an open end is a chicken foot: the next three plays, by "
            "whoever, must be tiles with the double's number placed on it (its toes). Until "
            "the third toe is down, no tile may be played anywhere else."
        ),
        _edit(_FOOT, "      - Ben: 5-3\n      - Ana: 5-1\n", "      - Ben: 4-2\n"),
        N_("play a toe on the foot (here a 5); a player who has none draws."),
        _FOOT,
    ),
    _entry(
        "must-play",
        N_(
            "a draw or a pass while holding a playable tile, or playing another tile than "
            "the one just drawn"
        ),
        N_(
            "A player who holds a tile that can be played must play one; only a player who "
            "cannot play draws. A drawn tile that fits must be played at once: that tile, not "
            "another."
        ),
        _LOG,
        "      - Ben: 6-4",
        "      - Ben: draw 1-0, pass",
        N_("play the playable tile (here Ben's 6-4 on the starter)."),
    ),
    _entry(
        "must-play-drawn",
        N_("a pass, or another draw, after drawing a tile that could be played"),
        N_(
            "A drawn tile that fits must be played at once: 'draw TILE, TILE', not 'draw TILE, "
            "pass', nor another draw. Under the house rule draw: one-may the player may keep "
            "it and pass."
        ),
        _LOG,
        "      - Ana: draw 1-0, pass",
        "      - Ana: draw 5-3, pass",
        N_("play the drawn tile: 'draw 5-3, 5-3'."),
        "      - Ana: draw 5-3, 5-3",
    ),
    _entry(
        "must-draw",
        N_("a pass without drawing while the chicken yard has a tile to draw"),
        N_(
            "A player who cannot play draws one tile if the chicken yard has one to draw (all "
            "but the reserve); only when nothing can be drawn may a player pass without "
            "drawing. Under the house rule draw: until, a player whose drawn tile does not fit "
            "draws again, and may pass only when nothing more can be drawn."
        ),
        _LOG,
        "      - Ana: draw 1-0, pass",
        "      - Ana: pass",
        N_("record the draw: 'draw TILE, pass', or 'draw, pass' if nobody saw the tile."),
    ),
    _entry(
        "draw-limit",
        N_("a second draw in one turn, under a drawing rule that allows one"),
        N_(
            "Under the rule sheets' drawing rule (rules: {draw: one}, the default) and under "
            "draw: one-may, a player who cannot play draws one tile a turn: then plays it or "
            "passes. Only under the house rule draw: until does a player draw again when the "
            "drawn tile does not fit, each draw written with its own 'draw' "
            "('draw 5-4, draw 2-1, 2-1')."
        ),
        _LOG,
        "      - Ana: draw 1-0, pass",
        "      - Ana: draw 1-0, draw 3-2, pass",
        N_(
            "keep one draw in the turn ('draw 1-0, pass'); if your table draws until a tile "
            "fits, say so in the file: rules: {draw: until}."
        ),
    ),
    Explanation(
        "yard-empty",
        N_("a draw when nothing can be drawn"),
        N_(
            "The chicken yard holds the tiles left after the deal; reserve of them (2 with two "
            "players, else 1) are never drawn. When only the reserve is left, a player who "
            "cannot play passes."
        ),
        _YARD_EMPTY,
        N_("write 'pass' for that turn (or check the rules' reserve and deal)."),
        _edit(_YARD_EMPTY, "draw 1-0, pass", "pass"),
    ),
    _entry(
        "after-end",
        N_("a move after the round ended"),
        N_(
            "A round ends when a player plays the last tile, at once (even on a double), or "
            "when it is blocked: nothing can be drawn and nobody can play. After a block only "
            "passes may follow; after a player went out, nothing."
        ),
        _LOG,
        "      - Ben: 4-3\n",
        "      - Ben: 4-3\n      - Ana: pass\n",
        N_("take out the moves after the end, or check the move that ended the round."),
    ),
    _entry(
        "unfinished",
        N_("a move log that stops before anyone went out or the round was blocked"),
        N_(
            "A round's moves run to its end: until a player goes out, or the round is "
            "blocked. A log that stops before is reported at its last move ('moves: []' at "
            "moves). Leave moves out altogether for a round recorded only by scores or hands."
        ),
        _LOG,
        "      - Ben: 4-3\n",
        "",
        N_("write the rest of the log."),
    ),
    _entry(
        "hands-mismatch",
        N_("recorded hands that are not what the move log leaves, or two empty hands in a round"),
        N_(
            "In a round with moves, hands must be what the deal and the log leave in each "
            "hand: the same number of tiles always, the same tiles as far as they are known, "
            "and never a tile that is on the table. Only one player can go out in a round: "
            "two empty recorded hands, with or without moves, are one problem, at the second "
            "(so are two players given as out to cf add)."
        ),
        _LOG,
        "      - Ben: 4-3\n",
        '      - Ben: 4-3\n    hands: {Ana: 2-1, Ben: ""}\n',
        N_("write the tiles that were left (here Ana also holds the 1-0 she drew)."),
        '      - Ben: 4-3\n    hands: {Ana: 2-1 1-0, Ben: ""}\n',
    ),
    _entry(
        "score-mismatch",
        N_("recorded scores that are not the points of the hands"),
        N_(
            "A player's score is the points of the tiles left in the hand: the sum of the "
            "pips, 0-0 counting double_blank (50 by default); whoever went out scores 0, or "
            "out_on_double for going out on a double where the table plays it (an empty "
            "recorded hand counts it only when the moves show it). Recorded scores must equal "
            "the points of the recorded hands, or of what the log leaves."
        ),
        _LOG,
        "      - Ben: 4-3\n",
        "      - Ben: 4-3\n    scores: {Ana: 3, Ben: 0}\n",
        N_("score what the hand holds (here 2-1 and 1-0: 4)."),
        "      - Ben: 4-3\n    scores: {Ana: 4, Ben: 0}\n",
    ),
)

EXPLANATIONS: dict[str, Explanation] = {e.code: e for e in _ENTRIES}
assert tuple(EXPLANATIONS) == CODES, "one explanation per code, in CODES order"


def explanation(code: str) -> Explanation:
    """The explanation of ``code`` (``[turn]`` and ``TURN`` are ``turn`` too).

    Raises :class:`UnknownCodeError`, with the closest code, for anything else.
    """
    key = code.strip().strip("[]").strip().lower()
    if key in EXPLANATIONS:
        return EXPLANATIONS[key]
    close = difflib.get_close_matches(key, CODES, n=1, cutoff=0.5)
    raise UnknownCodeError(code, close[0] if close else None)


__all__ = ["EXPLANATIONS", "Explanation", "UnknownCodeError", "explanation"]
