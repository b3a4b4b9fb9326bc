"""Check a game against the rules: replay every round, report every problem.

>>> from cf.record.reader import read_game
>>> report = validate(read_game(b"players: [A, B]\\nrounds: [{scores: {A: 3, B: 0}}]"))
>>> report.valid, report.round_points
(True, [{'A': 3, 'B': 0}])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cf.board import Round, RuleViolation
from cf.errors import clip
from cf.i18n import N_, Message, Plural, message_of
from cf.record.problems import Problem, ProblemLog
from cf.record.reader import Game, MoveEntry, Pos, RoundRecord
from cf.record.replay import apply_entry, round_count_message, round_starter, start_round
from cf.record.round_end import (
    TargetWatch,
    cheapest_double,
    double_blank_note,
    hand_difference,
    most_points,
    not_out_on_double,
    went_out_on_double,
    worth,
)
from cf.rules import Rules, RulesError
from cf.tiles import Tile, format_hand


@dataclass
class Report:
    """What validation found: the problems, sorted, and each round's points where known.

    ``problems`` keeps the first :data:`~cf.record.problems.MAX_PROBLEMS` found; its
    ``omitted`` counts the rest by code (``problems.total`` is how many there are).

    It keeps what the commands print, not the game itself, so that checking an archive
    holds one game in memory at a time.
    """

    file: str
    players: list[str]
    top: int
    rounds: int
    moves: int
    problems: ProblemLog = field(default_factory=ProblemLog)
    round_points: list[dict[str, int] | None] = field(default_factory=list)
    #: The path as given (``file`` may show a non-UTF-8 byte as U+FFFD); SARIF wants it.
    path: str | None = None
    #: Rounds with a deal or a move log that validation does not replay (a problem in the
    #: round's deal, its starter or its parts, a round past the game's end; rules that
    #: cannot be used), each with the problem that stops it (kept past the problems' cap).
    not_replayed: dict[int, Problem | None] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return not self.problems


def validate(game: Game) -> Report:
    """Every problem of ``game``: those found reading it, then the rule checks."""
    report = Report(
        game.file,
        game.players,
        game.top,
        len(game.rounds),
        game.move_count,
        ProblemLog(game.problems),
    )
    report.path = game.path
    _Checker(game, report).run()
    report.problems.sort(key=Problem.sort_key)
    return report


class _Checker:
    def __init__(self, game: Game, report: Report) -> None:
        self.game = game
        self.report = report
        self.rules: Rules | None = game.rules if len(game.players) >= 2 else None
        self.deal_count: int | None = None
        self.first: Problem | None = None  # the first problem added since it was cleared

    def add(
        self,
        code: str,
        message: str,
        pos: Pos | None,
        round_: int | None = None,
        move: int | None = None,
        player: str | None = None,
    ) -> None:
        pos = pos or Pos()
        problem = Problem(code, message, pos.line, pos.column, round_, move, player)
        if self.first is None:
            self.first = problem
        self.report.problems.append(problem)

    def first_of(self, check: Callable[[], bool]) -> tuple[bool, Problem | None]:
        """Run ``check``; whether it passed, and the first problem it added."""
        self.first = None
        ok = check()
        return ok, self.first

    def run(self) -> None:
        game = self.game
        if self.rules is not None:
            self.check_rules_for_players()
        elif game.deal_rules is not None and len(game.players) >= 2:
            # Another rule's value is bad, so nothing is replayed, but the deal (which needs
            # no replay) is still checked by the good ones.
            self.rules = game.deal_rules
            self.check_rules_for_players()
            self.rules = None  # the deal's size stays known: each dealt hand is checked
        rules = game.rules or Rules(top=game.top)
        last = rules.rounds_in_game
        too_many = round_count_message(game)
        target = TargetWatch(game.players, rules.target, game.problems)
        extra = False  # past the rounds the game can have: checked, never replayed nor scored
        count: Problem | None = None  # the round-count problem, at the first extra round
        for rec in game.rounds:
            self.first = None
            if not extra and last is not None and rec.number > last and too_many is not None:
                self.add("round-count", too_many, rec.pos, rec.number)
                extra, count = True, self.first
            elif not extra and target.ended is not None and game.set_known:
                self.add("round-count", target.after_end(rec.number), rec.pos, rec.number)
                extra, count = True, self.first
            if extra:
                self.check_extra_round(rec)
                if rec.moves is not None or rec.deal is not None:
                    self.report.not_replayed[rec.number] = count
                continue
            before = self.report.problems.total
            points = self.check_round(rec)
            self.report.round_points.append(points)
            target.add(rec.number, points, clean=self.report.problems.total == before)

    # --- rules that depend on the number of players -----------------------------------

    def check_rules_for_players(self) -> None:
        rules, n = self.rules, len(self.game.players)
        assert rules is not None
        try:
            rules.arms_for(n)
        except RulesError as exc:
            self.add("rules", message_of(exc), self.game.players_pos)
            self.rules = None
            return
        needs_deal = any(r.deal is not None or r.moves is not None for r in self.game.rounds)
        try:
            rules.tiles_each(n)
        except RulesError as exc:  # no table row and no `deal`: a problem only if needed
            if needs_deal:
                self.add("rules", message_of(exc), self.game.players_pos)
                self.rules = None
            return
        try:
            self.deal_count = rules.row(n).tiles_each
        except RulesError as exc:  # the deal leaves fewer tiles than the reserve
            self.add("rules", message_of(exc), self.game.players_pos)
            self.rules = None

    # --- one round ------------------------------------------------------------------------

    def check_round(self, rec: RoundRecord) -> dict[str, int] | None:
        """Every check of one round; its points where they can be known."""
        top, rules = self.game.top, self.game.rules
        cycles = rules is not None and rules.target is not None  # N-N again after 0-0
        starter = round_starter(top, rec.number if cycles else min(rec.number, top + 1))
        replayable = not rec.broken and self.rules is not None and self.deal_count is not None
        # What stops the replay: a part that could not be read, a wrong starter, a player
        # left out of the deal, a problem in the deal (the first of them in the file).
        stops = [p for p in self.game.problems if p.round == rec.number] if rec.broken else []
        starts = self.first_of(lambda: self.check_starter(rec, starter))
        self.check_scored(rec)
        listed = self.first_of(lambda: self.check_everyone_listed(rec))
        dealt = self.first_of(lambda: rec.deal is None or self.check_deal(rec, starter))
        for ok, first in (starts, listed, dealt):
            replayable &= ok
            if not ok and first is not None:
                stops.append(first)
        if not replayable and (rec.moves is not None or rec.deal is not None):
            self.report.not_replayed[rec.number] = min(stops, key=Problem.sort_key, default=None)
        two_out = False
        if rec.hands is not None:
            two_out = self.check_one_out(rec)
        board = None
        if rec.moves is not None:
            if replayable:
                board = self.replay(rec, starter, compare_hands=not two_out)
            else:
                self.report_unread_moves(rec.moves, 0)
        if rec.hands is not None:
            # The starter in a final hand is hands-mismatch where the log was replayed to
            # its end and compared; else (no log, a replay that stopped) duplicate-tile:
            # it is on the table from the start, no replay needed (SPEC 6).
            self.check_final_hands(rec, starter, replayed=board is not None and not two_out)
        self.check_scores(rec, starter, board)
        return self.points(rec, board)

    def check_extra_round(self, rec: RoundRecord) -> None:
        """A round past the rounds the game can have (``round-count``): every check that
        needs no replay (SPEC 6: those problems are all reported); it is never replayed nor
        scored. It has no double of its own: a recorded starter must be a double, and is
        then taken as the round's; without one nothing is checked against a starter, and a
        score is bounded by the whole set less its cheapest double."""
        starter = rec.starter
        if starter is not None and not starter.is_double and self.game.set_known:
            self.add(
                "starter",
                Message(
                    "round {k} starts with {starter}, which is not a double",
                    k=rec.number,
                    starter=starter,
                ),
                rec.starter_pos,
                rec.number,
            )
            starter = None
        self.check_scored(rec)
        self.check_everyone_listed(rec)
        if rec.deal is not None:
            self.check_deal(rec, starter)
        if rec.hands is not None:
            self.check_final_hands(rec, starter, replayed=rec.moves is not None)
            self.check_one_out(rec)
        if rec.moves is not None:
            self.report_unread_moves(rec.moves, 0)
        self.check_scores(rec, starter, None)

    def check_one_out(self, rec: RoundRecord) -> bool:
        """``hands-mismatch``: only one player can go out in a round, so two empty recorded
        hands are one problem, reported once, at the second. True if it was reported."""
        assert rec.hands is not None
        empty = [
            (name, entry)
            for name, entry in rec.hands.items()
            if entry.tiles is not None and not entry.tiles
        ]
        if len(empty) < 2:
            return False
        (first, _), (second, entry) = empty[0], empty[1]
        self.add(
            "hands-mismatch",
            Message(
                "{second}'s recorded hand is empty, and so is {first}'s: "
                "only one player can go out in a round (round {number})",
                second=clip(second),
                first=clip(first),
                number=rec.number,
            ),
            entry.pos,
            rec.number,
            player=second,
        )
        return True

    def check_starter(self, rec: RoundRecord, starter: Tile) -> bool:
        """``starter``: the round's recorded starter must be its double."""
        if rec.starter is None or rec.starter == starter or not self.game.set_known:
            return True
        k = rec.number
        self.add(
            "starter",
            Message(
                "round {k} starts with {starter}, not {starter2}",
                k=k,
                starter=starter,
                starter2=rec.starter,
            ),
            rec.starter_pos,
            k,
        )
        return False

    def check_scored(self, rec: RoundRecord) -> None:
        """``missing-score``: a round needs scores, hands, or a deal with moves."""
        if (
            rec.scores is None
            and rec.hands is None
            and not (rec.deal is not None and rec.moves is not None)
            and not rec.unreadable & {"scores", "hands", "deal", "moves"}
        ):
            k = rec.number
            self.add(
                "missing-score",
                Message(
                    "round {k} has no scores, no hands and no deal with moves: "
                    "nobody can be scored",
                    k=k,
                ),
                rec.pos,
                k,
            )

    def check_everyone_listed(self, rec: RoundRecord) -> bool:
        """``missing-score`` (scores, hands) and ``deal``: every player is listed.
        False if someone is missing from the deal (the round cannot be replayed)."""
        complete_deal = True
        for part, code in (
            ("scores", "missing-score"),
            ("hands", "missing-score"),
            ("deal", "deal"),
        ):
            given = getattr(rec, part)
            if given is None or part in rec.unreadable:
                continue
            for name in self.game.players:
                if name not in given:
                    # Where a misspelling of the name stands, if one does: the root cause
                    # is reported there, just before this.
                    misnamed = rec.misnamed.get((part, name))
                    self.add(
                        code,
                        Message(
                            "{name} is missing from round {number}'s {part}",
                            name=clip(name),
                            number=rec.number,
                            part=part,
                        ),
                        misnamed or getattr(rec, f"{part}_pos"),
                        rec.number,
                        player=name,
                    )
                    complete_deal = complete_deal and part != "deal"
        return complete_deal

    def check_scores(self, rec: RoundRecord, starter: Tile | None, board: Round | None) -> None:
        """``score-mismatch``: a score no hand could reach, or one the recorded hand is not
        worth. Without known rules (an unknown set, a broken ``rules``) neither is checked.

        An empty hand is worth 0, or ``out_on_double`` when the log shows its player going
        out on a double; a log that could not be replayed to its end shows neither, and
        either score is taken."""
        rules = self.game.rules
        if rec.scores is None or rules is None:
            return
        # A round past the last with no starter recorded: bounded by the cheapest double.
        bound = starter if starter is not None else cheapest_double(rules)
        most = most_points(rules, bound)
        untold = rec.moves is not None and board is None
        for name, (score, pos) in rec.scores.items():
            if score is None:
                continue
            if score > most and score != rules.out_on_double:
                words = N_(
                    "{name} scored {score}, more than any hand can hold: the "
                    "whole {set_name} less the starter {starter} is worth {most}"
                )
                if starter is None:  # a round past the last, with no starter recorded
                    words = N_(
                        "{name} scored {score}, more than any hand can hold: the whole "
                        "{set_name} less its cheapest double {starter} is worth {most}"
                    )
                self.add(
                    "score-mismatch",
                    Message(
                        words,
                        name=clip(name),
                        score=score,
                        set_name=rules.set_name,
                        starter=bound,
                        most=most,
                    ),
                    pos,
                    rec.number,
                    player=name,
                )
                continue
            hand = rec.hands.get(name) if rec.hands is not None else None
            if hand is None or hand.tiles is None:
                continue
            points = worth(rules, hand.tiles, went_out_on_double(board, name))
            if untold and not hand.tiles and score == rules.out_on_double:
                continue
            if points != score:
                what = (
                    Message("the hand {hand}", hand=format_hand(hand.tiles))
                    if hand.tiles
                    else Message("an empty hand")
                )
                if not hand.tiles and score == rules.out_on_double:
                    what = not_out_on_double(board, name)
                self.add(
                    "score-mismatch",
                    Message(
                        "{name} scored {score}, but {what} is worth {points}{note}",
                        name=clip(name),
                        score=score,
                        what=what,
                        points=points,
                        note=double_blank_note(hand.tiles, rules.double_blank),
                    ),
                    pos,
                    rec.number,
                    player=name,
                )

    def check_deal(self, rec: RoundRecord, starter: Tile | None) -> bool:
        assert rec.deal is not None
        ok = True
        seen: dict[Tile, str] = {}
        for name, entry in rec.deal.items():
            # A hand with a bad token (a `tile` problem already) is still counted and its
            # tiles checked against the others': those problems need no replay.
            if entry.tiles is None:
                ok = False
            count = entry.count
            if self.deal_count is not None and count is not None and count != self.deal_count:
                self.add(
                    "deal",
                    Plural(
                        "{name} was dealt {n_tiles} tile, the deal is {deal_count}",
                        "{name} was dealt {n_tiles} tiles, the deal is {deal_count}",
                        count,
                        name=name,
                        n_tiles=count,
                        deal_count=self.deal_count,
                    ),
                    entry.pos,
                    rec.number,
                    player=name,
                )
                ok = False
            for tile in entry.known:
                if tile == starter:
                    self.add(
                        "duplicate-tile",
                        Message(
                            "{name} was dealt {tile}, the starter, which is set aside",
                            name=name,
                            tile=tile,
                        ),
                        entry.pos,
                        rec.number,
                        player=name,
                    )
                    ok = False
                elif tile in seen:
                    self.add(
                        "duplicate-tile",
                        Message(
                            "{tile} was dealt to {name} and to {seen}",
                            tile=tile,
                            name=name,
                            seen=seen[tile],
                        ),
                        entry.pos,
                        rec.number,
                        player=name,
                    )
                    ok = False
                else:
                    seen[tile] = name
        return ok

    def check_final_hands(self, rec: RoundRecord, starter: Tile | None, *, replayed: bool) -> None:
        assert rec.hands is not None
        seen: dict[Tile, str] = {}
        for name, entry in rec.hands.items():
            for tile in entry.known:  # a hand with a bad token too: no replay needed
                if tile == starter and not replayed:
                    self.add(
                        "duplicate-tile",
                        Message(
                            "{name}'s hand holds {tile}, the round's starter", name=name, tile=tile
                        ),
                        entry.pos,
                        rec.number,
                        player=name,
                    )
                elif tile in seen:
                    self.add(
                        "duplicate-tile",
                        Message(
                            "{tile} is in both {seen}'s and {name}'s hands",
                            tile=tile,
                            seen=seen[tile],
                            name=name,
                        ),
                        entry.pos,
                        rec.number,
                        player=name,
                    )
                else:
                    seen[tile] = name

    # --- the replay ----------------------------------------------------------------------

    def replay(
        self, rec: RoundRecord, starter: Tile, *, compare_hands: bool = True
    ) -> Round | None:
        """Replay the log; return the final board, or ``None`` if it stopped on a problem.
        ``compare_hands``: check recorded hands against the log (not when two are empty:
        that is one problem already)."""
        assert rec.moves is not None and self.rules is not None
        k, players = rec.number, self.game.players
        board = start_round(self.rules, players, starter, rec.deal)
        apply = board.apply
        for entry in rec.moves:
            try:
                if entry.action is None:
                    apply_entry(board, entry)
                apply(entry.player or "", entry.action)  # type: ignore[arg-type]
            except RuleViolation as exc:
                self.add(exc.code, exc.message, entry.pos, k, entry.number, entry.player)
                self.report_unread_moves(rec.moves, entry.number)
                return None
        if board.winner is None and not board.is_blocked():
            last = rec.moves[-1] if rec.moves else None
            self.add(
                "unfinished",
                Message(
                    "round {k}'s log stops before anyone went out or the round "
                    "was blocked ({describe_board}, {drawable} tile(s) left to "
                    "draw)",
                    k=k,
                    describe_board=board.describe_board(),
                    drawable=board.drawable,
                ),
                last.pos if last else rec.moves_pos,
                k,
                last.number if last else None,
            )
            return None
        self.check_against_log(rec, board, compare_hands=compare_hands)
        return board

    def report_unread_moves(self, moves: list[MoveEntry], after: int) -> None:
        """Moves that could not be read need no replay: report them all."""
        for entry in moves:
            if entry.number > after and entry.problem is not None:
                self.report.problems.append(entry.problem)

    def check_against_log(
        self, rec: RoundRecord, board: Round, *, compare_hands: bool = True
    ) -> None:
        k = rec.number
        if rec.hands is not None and compare_hands:
            for name, entry in rec.hands.items():
                if entry.tiles is None:
                    continue
                problem = hand_difference(board, name, entry)
                if problem:
                    self.add("hands-mismatch", problem, entry.pos, k, player=name)
        if rec.scores is not None and rec.hands is None and self.rules is not None:
            for name, (score, pos) in rec.scores.items():
                hand = board.hands[name]
                if score is None or hand.unseen:
                    continue
                points = worth(self.rules, hand.known, went_out_on_double(board, name))
                most = most_points(self.rules, board.starter)
                if points != score and (score <= most or score == self.rules.out_on_double):
                    left = format_hand(sorted(hand.known, reverse=True)) or Message("nothing")
                    self.add(
                        "score-mismatch",
                        Message(
                            "{name} scored {score}, but the log leaves {left}, "
                            "worth {points}{note}",
                            name=name,
                            score=score,
                            left=left,
                            points=points,
                            note=double_blank_note(hand.known, self.rules.double_blank),
                        ),
                        pos,
                        k,
                        player=name,
                    )

    # --- points --------------------------------------------------------------------------

    def points(self, rec: RoundRecord, board: Round | None) -> dict[str, int] | None:
        """Each player's points this round, from scores, else hands, else the replay."""
        players = self.game.players
        if rec.scores is not None and all(
            name in rec.scores and rec.scores[name][0] is not None for name in players
        ):
            return {name: rec.scores[name][0] for name in players}  # type: ignore[misc]
        rules = self.game.rules
        if rules is None:
            return None
        if rec.hands is not None and all(
            name in rec.hands and rec.hands[name].tiles is not None for name in players
        ):
            return {
                name: worth(rules, rec.hands[name].tiles or (), went_out_on_double(board, name))
                for name in players
            }
        if board is not None and rec.deal is not None:
            return self.points_left_by_log(rec, board, rules)
        return None

    def points_left_by_log(
        self, rec: RoundRecord, board: Round, rules: Rules
    ) -> dict[str, int] | None:
        """``missing-score``: points from the replay need every hand fully known."""
        players = self.game.players
        unknown = [name for name in players if board.hands[name].unseen]
        for name in unknown:
            n = board.hands[name].unseen
            self.add(
                "missing-score",
                Message(
                    "{name}'s hand at the end of round {number} is not fully "
                    "known ({n} tile{value} drawn unnamed and never played): "
                    "record hands or scores",
                    name=name,
                    number=rec.number,
                    n=n,
                    value="s" if n != 1 else "",
                ),
                rec.pos,
                rec.number,
                player=name,
            )
        if unknown:
            return None
        return {
            name: worth(rules, board.hands[name].known, went_out_on_double(board, name))
            for name in players
        }
