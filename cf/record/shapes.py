"""Reading a game file, layers 1 and 2: positions, problems and the shapes of values;
the seated players' names."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import yaml

from cf.errors import clip
from cf.i18n import Message
from cf.record.compose import Move
from cf.record.game import Game, Pos
from cf.record.problems import Problem

YAML_TAG = "tag:yaml.org,2002:"
PLAIN_TAGS = {YAML_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
COLLECTION_TAGS = {YAML_TAG + "seq", YAML_TAG + "map"}
STR_TAG = YAML_TAG + "str"
NULLS = {"", "~", "null", "Null", "NULL"}
DECIMAL = re.compile(r"[0-9]+")
MAX_DIGITS = 1000
TOKEN = re.compile(r"[^\s,]+")
#: Text that aliases may add to what is read, beyond the file's own length.
ALIAS_SLACK = 64 * 1024


# --- layer 1: positions, problems, shapes -------------------------------------------------


class TooMuch(Exception):
    """Aliases expand to more than the file holds: reading stops (already reported)."""


def node_pos(node: yaml.Node) -> Pos:
    return Pos(node.start_mark.line + 1, node.start_mark.column + 1)


def kind_of(node: yaml.Node) -> str:
    if node.tag not in PLAIN_TAGS | COLLECTION_TAGS:
        return Message("a value tagged {tag}", tag=clip(node.tag))
    if isinstance(node, yaml.MappingNode):
        return Message("a mapping")
    if isinstance(node, yaml.SequenceNode):
        return Message("a list")
    return f"'{clip(node.value)}'"


def is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and not node.style and node.value in NULLS


SURROGATE = re.compile("[\ud800-\udfff]")


def suggest(key: str, known: tuple[str, ...]) -> str:
    """`` (did you mean 'x'?)`` for the closest known key, or nothing."""
    lower = key.lower()
    close = difflib.get_close_matches(lower, known, n=1, cutoff=0.6)
    if not close and len(lower) >= 3:
        # a word of a known key (arms), a known key with more words (date_played), its
        # initials (ood); never a key that a word only contains (update is no date)
        words = set(re.split(r"[\W_]+", lower))  # date played, double-six set
        close = [
            k
            for k in known
            if words & set(k.split("_")) or lower == "".join(w[0] for w in k.split("_"))
        ][:1]
    if close:
        return Message(" (did you mean '{key}'?)", key=close[0])
    return Message(" (known keys: {keys})", keys=", ".join(known))


class Values:
    """Problems and the shapes of values, shared by every reader of one file.

    Problems go to the game's capped :class:`ProblemLog`. A YAML alias is the same node
    again: a list or mapping is read once (a repeat is refused), and the text of every
    scalar read counts against a budget of the file's own length, so aliases can never
    make reading cost more than a file of the same size written out.
    """

    def __init__(self, game: Game, length: int) -> None:
        self.game = game
        self.log = game.problems
        self.round: int | None = None
        self.walked: set[int] = set()
        self.budget = length + ALIAS_SLACK

    def spend(self, text: str) -> None:
        self.budget -= len(text)
        if self.budget < 0:
            self.log.keep(
                Problem(
                    "schema",
                    Message(
                        "YAML aliases repeat more text than the file holds: write the parts out"
                    ),
                )
            )
            raise TooMuch

    # problems ----------------------------------------------------------------------
    def problem(
        self, code: str, message: str, node: yaml.Node | Pos | None = None, **kw: object
    ) -> Problem:
        pos = node if isinstance(node, Pos) else (node_pos(node) if node is not None else Pos())
        return Problem(code, message, pos.line, pos.column, round=self.round, **kw)  # type: ignore[arg-type]

    def report(
        self, code: str, message: str, node: yaml.Node | Pos | None = None, **kw: object
    ) -> None:
        if self.log.full:
            self.log.skip(code)
        else:
            self.log.append(self.problem(code, message, node, **kw))

    def bad_tag(self, code: str, node: yaml.Node, what: str, player: str | None) -> None:
        self.report(
            code,
            Message(
                "{what} has the tag {tag}, which cf does not accept", what=what, tag=clip(node.tag)
            ),
            node,
            player=player,
        )

    # shapes --------------------------------------------------------------------------
    def first_walk(self, node: yaml.Node, what: str, player: str | None = None) -> bool:
        """Whether this list or mapping is met for the first time (``player``: whose it
        is, for a problem).

        A YAML alias is the same node again: walking it each time would let a few
        kilobytes of aliases stand for millions of moves. Each part is read once.
        """
        if node.tag not in COLLECTION_TAGS:
            self.bad_tag("schema", node, what, player)
            return False
        if id(node) not in self.walked:
            self.walked.add(id(node))
            return True
        self.report(
            "schema",
            Message(
                "{what} repeats, through a YAML alias, a part already read: write it out in full",
                what=what,
            ),
            node,
            player=player,
        )
        return False

    def scalar(
        self,
        node: yaml.Node,
        what: str,
        code: str = "schema",
        *,
        spent: bool = False,
        player: str | None = None,
    ) -> str | None:
        """The text of a scalar, or a problem and ``None`` (``spent``: already counted
        against the alias budget; ``player``: whose value it is, for the problem)."""
        if not isinstance(node, yaml.ScalarNode):
            hint = ""
            if isinstance(node, yaml.MappingNode):  # Ben: Jr, read as {Ben: Jr}
                hint = Message(" (a ': ' in it? put it in quotes)")
            self.report(
                code,
                Message(
                    "{what} must be a single value, not {kind}{hint}",
                    what=what,
                    kind=kind_of(node),
                    hint=hint,
                ),
                node,
                player=player,
            )
            return None
        if node.tag not in PLAIN_TAGS:
            self.bad_tag(code, node, what, player)
            return None
        text: str = node.value
        if not spent:
            self.spend(text)
        if not text.isascii() and SURROGATE.search(text):
            self.report(
                code,
                Message("{what} holds a lone surrogate (\\u escape), not text", what=what),
                node,
                player=player,
            )
            return None
        return text

    def mapping(
        self,
        node: yaml.Node,
        what: str,
        code: str = "schema",
        player_of: Callable[[str], str | None] | None = None,
    ) -> Iterator[tuple[str, yaml.Node, yaml.Node]]:
        """Items of a mapping as (key text, key node, value node); duplicates reported
        (``player_of``: the player a key names, for the problem)."""
        if not isinstance(node, yaml.MappingNode) or node.tag != YAML_TAG + "map":
            self.report(
                code,
                Message(
                    "{what} must be a mapping of keys to values, not {kind}",
                    what=what,
                    kind=kind_of(node),
                ),
                node,
            )
            return
        if not self.first_walk(node, what):
            return
        seen: set[str] = set()
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in PLAIN_TAGS | {
                YAML_TAG + "merge"
            }:
                self.report(
                    "schema", Message("a key in {what} must be plain text", what=what), key_node
                )
                continue
            key = key_node.value
            self.spend(key)
            if key in seen:
                self.report(
                    "schema",
                    Message("duplicate key '{key}' in {what}", key=clip(key), what=what),
                    key_node,
                    player=player_of(key) if player_of else None,
                )
                continue
            seen.add(key)
            yield key, key_node, value_node

    def decimal(
        self, node: yaml.Node, what: str, code: str, player: str | None = None
    ) -> int | None:
        """A whole number, 0 or more, from the node's text, or a problem (``player``: whose
        number it is, for the problem's ``player`` field) and None."""
        text = self.scalar(node, what, code, player=player)
        if text is None:
            return None
        text = text.strip()
        if not DECIMAL.fullmatch(text) or len(text) > MAX_DIGITS:
            self.report(
                code,
                Message(
                    "{what} must be a whole number, 0 or more, not '{text}'",
                    what=what,
                    text=clip(text),
                ),
                node,
                player=player,
            )
            return None
        return int(text)


# --- layer 2: names -----------------------------------------------------------------------


def nfc(name: str) -> str:
    return name if name.isascii() else unicodedata.normalize("NFC", name)


def fold(name: str) -> str:
    """A name without case or accents, to find what a misspelling meant."""
    decomposed = unicodedata.normalize("NFD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class Names:
    """The seated players and how a name written elsewhere is matched to one of them.

    Names compare in Unicode NFC (an NFD ``José`` is the same player). ``aliases`` maps
    the name the rounds use to a seat whose name in ``players:`` is a typo of it.
    """

    def __init__(self) -> None:
        self.seated: dict[str, None] = {}  # ordered, and O(1) to look up
        self.aliases: dict[str, str] = {}
        self.ok = True  # False: no readable players list, so names elsewhere go unchecked
        self._folded: dict[str, list[str]] | None = None
        self._guesses: dict[str, str | None] = {}

    def resolve(self, written: str) -> str | None:
        """The seated name ``written`` stands for, or ``None``."""
        if written in self.seated:
            return written
        name = nfc(written.strip())
        if name in self.seated:
            return name
        return self.aliases.get(name)

    def guess(self, written: str) -> str | None:
        """The seated player a name that is not seated most likely means, or ``None``."""
        if written in self._guesses:
            return self._guesses[written]
        if self._folded is None:
            self._folded = {}
            for name in self.seated:
                self._folded.setdefault(fold(name), []).append(name)
        same = self._folded.get(fold(written), [])
        guess: str | None = same[0] if len(same) == 1 else None
        if guess is None and len(self.seated) <= 200:  # difflib is quadratic in names
            close = difflib.get_close_matches(written, list(self.seated), n=2, cutoff=0.6)
            guess = close[0] if len(close) == 1 else None
        if len(self._guesses) < 10_000:
            self._guesses[written] = guess
        return guess

    def did_you_mean(self, written: str) -> str:
        guess = self.guess(written)
        return Message(" (did you mean '{key}'?)", key=clip(guess)) if guess else ""


def mentioned_names(rounds: yaml.Node) -> Counter[str]:
    """How often each name is written in the rounds (keys of deal, hands, scores, moves).

    A quick look at the shapes only; reading the rounds reports whatever is wrong.
    """
    seen: Counter[str] = Counter()
    if not isinstance(rounds, yaml.SequenceNode):
        return seen
    done: set[int] = set()  # an alias is the same node again: look at each once
    for item in rounds.value:
        if isinstance(item, yaml.MappingNode) and id(item) not in done:
            done.add(id(item))
            _mentioned_in_round(item, seen, done)
    return Counter({nfc(k.strip()): n for k, n in seen.items()})


def _mentioned_in_round(item: yaml.MappingNode, seen: Counter[str], done: set[int]) -> None:
    for key, value in item.value:
        if id(value) in done or not isinstance(key, yaml.ScalarNode):
            continue
        done.add(id(value))
        if key.value in ("deal", "hands", "scores") and isinstance(value, yaml.MappingNode):
            seen.update(k.value for k, _ in value.value if isinstance(k, yaml.ScalarNode))
        elif key.value == "moves" and isinstance(value, yaml.SequenceNode):
            seen.update(_movers(value.value))


def _movers(items: list[Any]) -> list[str]:
    """The player of each move that names one. Every move of the file passes here: a
    comprehension, not a call per move."""
    return [
        item.player if type(item) is Move else item.value[0][0].value  # type: ignore[union-attr]
        for item in items
        if type(item) is Move
        or (
            type(item) is yaml.MappingNode
            and len(item.value) == 1
            and type(item.value[0][0]) is yaml.ScalarNode
        )
    ]
