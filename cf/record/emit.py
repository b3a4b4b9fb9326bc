"""Writing YAML by hand: small, stable, and read back exactly as written by cf."""

from __future__ import annotations

import json
import re

from cf.text import HIDDEN

# Letters of any script may start a plain scalar (``Mamá``, ``李``); YAML indicators may not.
_PLAIN = re.compile(r"[^\W\d][\w .'-]*[\w.']|[^\W\d]")
# Names YAML 1.1 would read as something else are still plain for cf, which reads every
# scalar as written; other YAML readers would not, so they are quoted too.
_SPECIAL = {
    "y",
    "n",
    "yes",
    "no",
    "on",
    "off",
    "true",
    "false",
    "null",
    "~",
}


def yaml_key(text: str) -> str:
    r"""``text`` as a YAML scalar: plain when that is unambiguous, else double-quoted, with
    every character YAML would not keep as it is (line and paragraph separators, which
    YAML folds, controls, bidi controls) written as an escape.

    >>> print(yaml_key("Ana\u2028B"))
    "Ana\u2028B"
    """
    if _PLAIN.fullmatch(text) and text.lower() not in _SPECIAL:
        return text
    quoted = json.dumps(text, ensure_ascii=False)
    return HIDDEN.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


#: The longest key written without a ``?`` before it: YAML reads a key so (an implicit key)
#: only when its ``:`` comes within 1,024 characters of its start.
IMPLICIT_KEY = 1000


def yaml_pair(key: str, value: str, indent: str | None = None) -> str:
    r"""``key: value``, the key as :func:`yaml_key` writes it; a key too long for YAML to
    read as one without a ``?`` (a player's name of over a thousand characters) written
    after one: ``? KEY: value`` in a flow mapping (``indent`` None), ``? KEY`` and then
    ``: value`` on a line of its own at ``indent`` in a block one.

    >>> yaml_pair("Ana", "9-8")
    'Ana: 9-8'
    >>> yaml_pair("x" * 1001, "3")[:4], yaml_pair("x" * 1001, "3", "  ")[-6:]
    ('? xx', '\n  : 3')
    """
    written = yaml_key(key)
    if len(written) <= IMPLICIT_KEY:
        return f"{written}: {value}"
    if indent is None:
        return f"? {written}: {value}"
    return f"? {written}\n{indent}: {value}"


def game_yaml(game: object, header: str | None = None, title: str | None = None) -> str:
    """A simulated game (:class:`cf.play.simulate.SimGame`) as a complete game file."""
    from cf.notation import format_action
    from cf.rules import Rules
    from cf.tiles import format_hand

    rules: Rules = game.rules  # type: ignore[attr-defined]
    players = game.players  # type: ignore[attr-defined]
    out: list[str] = []
    if header:
        out.extend(f"# {line}" for line in header.splitlines())
    if title:
        out.append(f"title: {yaml_key(title)}")
    out.append(f"set: {rules.set_name}")
    opts = [f"starter_arms: {rules.starter_arms}", f"double_blank: {rules.double_blank}"]
    if rules.deal is not None:
        opts.append(f"deal: {rules.deal}")
    if rules.reserve is not None:
        opts.append(f"reserve: {rules.reserve}")
    if rules.target is not None:  # a game to a target: rounds is only its maximum
        if rules.rounds is not None:
            opts.append(f"rounds: {rules.rounds}")
    elif rules.rounds is not None or len(game.rounds) != rules.rounds_in_game:  # type: ignore[attr-defined]
        # `cf simulate --rounds K` plays a complete game of K rounds: the file says so
        opts.append(f"rounds: {len(game.rounds)}")  # type: ignore[attr-defined]
    # The house rules of docs/rules.md, written when they are not the rule sheets'.
    if rules.draw != "one":
        opts.append(f"draw: {rules.draw}")
    if rules.out_on_double:
        opts.append(f"out_on_double: {rules.out_on_double}")
    if rules.target is not None:
        opts.append(f"target: {rules.target}")
    out.append("rules: {" + ", ".join(opts) + "}")
    out.append("players: [" + ", ".join(yaml_key(p) for p in players) + "]")
    out.append("rounds:")
    for r in game.rounds:  # type: ignore[attr-defined]
        out.append(f"  - starter: {r.starter}")
        out.append("    deal:")
        for p in players:
            out.append("      " + yaml_pair(p, format_hand(r.deal[p]), " " * 6))
        out.append("    moves:")
        for m in r.moves:
            out.append("      - " + yaml_pair(m.player, format_action(m.action), " " * 8))
        out.append("    hands:")
        for p in players:
            tiles = format_hand(r.hands[p])
            out.append("      " + yaml_pair(p, tiles or chr(34) * 2, " " * 6))
        scores = ", ".join(yaml_pair(p, str(r.scores[p])) for p in players)
        out.append(f"    scores: {{{scores}}}")
    return "\n".join(out) + "\n"
