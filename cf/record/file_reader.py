"""Reading a game file, layer 3: the top level (known keys, ``set``, ``rules``, ``players``)."""

from __future__ import annotations

import contextlib
import difflib
from collections import Counter

import yaml

from cf.errors import clip
from cf.i18n import Message, Plural, message_of
from cf.record.game import TOP_KEYS
from cf.record.problems import has_control
from cf.record.round_reader import RoundReader
from cf.record.shapes import (
    DECIMAL,
    MAX_DIGITS,
    Names,
    Values,
    fold,
    is_null,
    kind_of,
    mentioned_names,
    nfc,
    node_pos,
    suggest,
)
from cf.rules import DRAW_RULES, RULE_KEYS, Rules, RulesError, check_option, parse_starter_arms
from cf.tiles import (
    SetNameError,
    parse_set_name,
)

#: The rules the deal is checked by (with the set and the players), and "rules" for a
#: ``rules`` that is no mapping: while none of them is bad, the deal is checked (SPEC §6:
#: problems that need no replay are all reported) though another rule's value is bad.
DEAL_KEYS = frozenset({"deal", "reserve", "starter_arms", "rules"})

# --- layer 3: the top level ---------------------------------------------------------------


class FileReader:
    def __init__(self, values: Values) -> None:
        self.v = values
        self.game = values.game
        self.names = Names()

    def read(self, root: yaml.Node | None) -> None:
        v = self.v
        if root is None or is_null(root):
            v.report(
                "schema",
                Message("the file is empty: a game file is a mapping with players and rounds"),
            )
            return
        if not isinstance(root, yaml.MappingNode):
            v.report(
                "schema",
                Message(
                    "a game file must be a mapping with players and rounds, not {kind}",
                    kind=kind_of(root),
                ),
                root,
            )
            return
        items, meant = self.top_items(root)
        self.read_header(items)
        self.read_set(items.get("set"))
        self.read_rules(items.get("rules"))
        if "players" in items:
            self.read_players(items["players"], items.get("rounds"))
        else:
            self.names.ok = False
            if "players" not in meant:
                v.report("schema", Message("the game file has no 'players' list"), root)
        if "rounds" in items:
            self.read_rounds(items["rounds"])
        elif "rounds" not in meant:
            v.report("schema", Message("the game file has no 'rounds' list"), root)

    def top_items(self, root: yaml.Node) -> tuple[dict[str, yaml.Node], set[str]]:
        """The known top-level keys' values, and the known keys unknown ones look like."""
        items: dict[str, yaml.Node] = {}
        meant: set[str] = set()
        for key, key_node, value in self.v.mapping(root, Message("the game file")):
            if key not in TOP_KEYS:
                self.v.report(
                    "schema",
                    Message(
                        "unknown key '{key}'{suggest}",
                        key=clip(key),
                        suggest=suggest(key, TOP_KEYS),
                    ),
                    key_node,
                )
                meant.update(difflib.get_close_matches(key.lower(), TOP_KEYS, n=1, cutoff=0.6))
                continue
            items[key] = value
        return items, meant

    def read_header(self, items: dict[str, yaml.Node]) -> None:
        for key in ("title", "date", "notes"):
            if key in items:
                text = self.v.scalar(items[key], key)
                if key == "title":
                    self.game.title = text
                elif key == "date":
                    self.game.date = text

    def read_set(self, node: yaml.Node | None) -> None:
        if node is None:
            return
        text = self.v.scalar(node, "set", "rules")
        if text is not None:
            try:
                self.game.top = parse_set_name(text)
                return
            except SetNameError as exc:
                self.v.report("rules", exc.args[0], node)  # a Message: translated where shown
        # Unknown set: tiles are read for their shape only and nothing is replayed.
        self.game.top = 18
        self.game.set_known = False

    def read_rules(self, node: yaml.Node | None) -> None:
        top = self.game.top
        values: dict[str, object] = {}
        ok = self.game.set_known
        bad: set[str] = set()  # keys whose value is no value
        if node is not None and not is_null(node):
            parsed_values: list[tuple[str, object, yaml.Node]] = []
            for key, key_node, value in self.v.mapping(node, "rules", "rules"):
                if key not in RULE_KEYS:
                    self.v.report(
                        "schema",
                        Message(
                            "unknown rule '{key}'{suggest}",
                            key=clip(key),
                            suggest=suggest(key, RULE_KEYS),
                        ),
                        key_node,
                    )
                    continue
                parsed = self.rule_value(key, value)
                if parsed is None:
                    ok = False
                    bad.add(key)
                    continue
                parsed_values.append((key, parsed, value))
            # `rounds` may pass N+1 only in a game played to a target.
            target = any(key == "target" for key, _, _ in parsed_values)
            for key, parsed, value in parsed_values:
                try:
                    check_option(key, parsed, top, target=target)
                except RulesError as exc:
                    self.v.report("rules", message_of(exc), value)
                    ok = False
                    bad.add(key)
                    continue
                values[key] = parsed
            if not isinstance(node, yaml.MappingNode):
                ok = False
                bad.add("rules")
        if ok:
            self.game.rules = Rules(top=top, **values)  # type: ignore[arg-type]
        elif self.game.set_known and not bad & DEAL_KEYS:
            # The deal's rules alone: `rounds` and `target` (whose bounds depend on each
            # other, one of them perhaps the bad one) play no part in it.
            dealt = {k: v for k, v in values.items() if k not in ("rounds", "target")}
            with contextlib.suppress(RulesError):  # the values together: said elsewhere
                self.game.deal_rules = Rules(top=top, **dealt)  # type: ignore[arg-type]

    def rule_value(self, key: str, node: yaml.Node) -> object:
        text = self.v.scalar(node, f"rules.{key}", "rules")
        if text is None:
            return None
        text = text.strip()
        if key == "starter_arms":
            try:
                return parse_starter_arms(text)
            except RulesError as exc:
                self.v.report("rules", Message("rules.{exc}", exc=exc), node)
                return None
        if key == "draw":
            if text.lower() in DRAW_RULES:  # as starter_arms' "players" and move keywords
                return text.lower()
            self.v.report(
                "rules",
                Message(
                    "rules.draw must be one of {DRAW_RULES}, not '{text}'",
                    DRAW_RULES=", ".join(DRAW_RULES),
                    text=clip(text),
                ),
                node,
            )
            return None
        if DECIMAL.fullmatch(text) and len(text) <= MAX_DIGITS:
            return int(text)
        self.v.report(
            "rules",
            Message("rules.{key} must be a whole number, not '{text}'", key=key, text=clip(text)),
            node,
        )
        return None

    def read_players(self, node: yaml.Node, rounds: yaml.Node | None) -> None:
        v, names = self.v, self.names
        self.game.players_pos = node_pos(node)
        if is_null(node):
            v.report(
                "player", Message("a game needs at least 2 players, this one lists none"), node
            )
            return
        if not isinstance(node, yaml.SequenceNode):
            v.report(
                "schema",
                Message("players must be a list of names, not {kind}", kind=kind_of(node)),
                node,
            )
            names.ok = False
            return
        if not v.first_walk(node, "players"):
            names.ok = False
            return
        where: dict[str, yaml.Node] = {}
        for item in node.value:
            name = self.player_name(item)
            if name is None:
                continue
            if name in names.seated:
                v.report(
                    "player", Message("{name} is seated twice", name=clip(name)), item, player=name
                )
            else:
                names.seated[name] = None
                where[name] = item
        if len(names.seated) < 2 and len(node.value) == len(names.seated):
            v.report(
                "player",
                Message(
                    "a game needs at least 2 players, this one has {n_seated}",
                    n_seated=len(names.seated),
                ),
                node,
            )
        self.game.players = list(names.seated)
        if rounds is not None:
            self.find_typos(where, mentioned_names(rounds))

    def player_name(self, item: yaml.Node) -> str | None:
        """One name of ``players:``, in NFC, or a problem and ``None``."""
        name = self.v.scalar(item, Message("a player's name"))
        if name is None:
            return None
        name = nfc(name.strip())
        if not name:
            self.v.report("schema", Message("a player's name is empty"), item)
            return None
        if has_control(name):
            self.v.report(
                "schema",
                Message(
                    "a player's name may not hold control characters: {name!r}", name=clip(name)
                ),
                item,
            )
            return None
        return name

    def find_typos(self, where: dict[str, yaml.Node], mentioned: Counter[str]) -> None:
        """A seat whose name the rounds never use, while they use a name like it that is not
        seated (and use it more than once), is a typo in ``players:``: reported once there,
        and the rounds' name is read as that seat, so the typo is not reported again at
        every mention."""
        names = self.names
        unseated = [m for m in mentioned if m not in names.seated]
        if not unseated or len(unseated) > 50 or len(where) > 1000:
            return
        for name, item in where.items():
            if name in mentioned:
                continue
            # Named twice or more: a name written once may be the typo itself.
            like = [m for m in unseated if mentioned[m] > 1 and _looks_like(m, name)]
            if len(like) != 1 or like[0] in names.aliases:
                continue
            meant = like[0]
            names.aliases[meant] = name
            times = mentioned[meant]
            self.v.report(
                "player",
                Plural(
                    "{name} is seated but never named in the rounds, which name "
                    "{meant} {times} time: did you mean '{meant}'?",
                    "{name} is seated but never named in the rounds, which name "
                    "{meant} {times} times: did you mean '{meant}'?",
                    times,
                    name=clip(name),
                    meant=clip(meant),
                    times=times,
                ),
                item,
                player=name,
            )

    def read_rounds(self, node: yaml.Node) -> None:
        v = self.v
        if is_null(node):
            return
        if not isinstance(node, yaml.SequenceNode):
            v.report(
                "schema", Message("rounds must be a list, not {kind}", kind=kind_of(node)), node
            )
            return
        if not v.first_walk(node, "rounds"):
            return
        reader = RoundReader(v, self.names, self.game.top if self.game.set_known else None)
        for number, item in enumerate(node.value, start=1):
            v.round = number
            self.game.rounds.append(reader.read(number, item))
        v.round = None


def _looks_like(a: str, b: str) -> bool:
    if fold(a) == fold(b):
        return True
    return difflib.SequenceMatcher(None, a.casefold(), b.casefold()).ratio() >= 0.6
