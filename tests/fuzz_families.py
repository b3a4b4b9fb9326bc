"""Seeded generators of hostile input for cf (issue 11, "Proof"), and the checks each must
pass. Shared by tests/test_fuzz.py (a few seconds) and bench/fuzz.py (a long campaign).

Every generator takes a :class:`random.Random` and returns an input; the same seed gives
the same input. Checks return ``None`` when cf behaved, else a one-line reason.
"""

from __future__ import annotations

import json
import random
import time
import unicodedata
from pathlib import Path

from cf.record.check import validate
from cf.record.problems import CODES, MAX_PROBLEMS
from cf.record.reader import read_game
from cf.render.problems import render_validation

ROOT = Path(__file__).parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
GAMES = sorted((ROOT / "tests" / "games").glob("*.yaml"))

BIG = "9" * 5000
#: Tokens that have broken a reader somewhere: dropped into files at random.
HOSTILE_TOKENS = [
    "\t",
    ":",
    ": :",
    "[5|4] [3|1]",
    "&a",
    "*a",
    "*zz",
    "!!python/str",
    "!!python/object/apply:os.system",
    "!!binary",
    "~",
    "null",
    "No",
    "033",
    BIG,
    "-" + BIG,
    "\x1b[2J",
    "\x07",
    "\r",
    "\x00",
    '"\\ud800"',
    '"\\x1b]0;pwned\\x07"',
    unicodedata.normalize("NFD", "José"),
    "Mamá",
    "🐔",
    "مرحبا",
    "x " * 50,
    "[" * 300,
    "{" * 300,
    "- " * 100,
    "? ",
    "<<: *a",
    "--- ",
    "...",
    "%YAML 1.1",
    "'unterminated",
    '"unterminated',
    "9-9 9-9",
    "99-1",
    "0-0",
    "draw draw, pass",
    "1e309",
    "0x1F",
    "²",
    "\u2028",
    "\ufeff",
]

#: Names (and titles) that carry markup, script, formulas, escape codes and odd characters:
#: every writer of SVG, HTML, CSV and terminal text gets each of them (issue 22 items 4-7,
#: 14). Each that is a valid name must come out as text, never as markup or a formula.
#: ``PWN`` marks a name that would set ``window.pwned`` if it ever ran.
HOSTILE_NAMES = [
    '"',
    "'",
    "<",
    "&",
    "]]>",
    "</script>",
    "<!--",
    "<!--<script>",
    "javascript:alert(1)",
    "A\u2028B",
    "A\u2029B",
    '\\"',
    '" onload="window.pwned=1" x="',
    "' onload='window.pwned=1' x='",
    '"><script>window.pwned=1</script>',
    "<img src=x onerror=window.pwned=1>",
    "<svg onload=window.pwned=1>",
    "]]><script>window.pwned=1</script>",
    "</script><script>window.pwned=1</script>",
    '=HYPERLINK("http://evil/","x")',
    "+1",
    "-1+1",
    "@SUM(1)",
    "\tTab",
    "\u202eAna",
    "\u2066B\u2069",
    "\x1b]0;PWNED\x07",
    "\x1b[2J",
    "\ud800",
    "Mamá",
    "🐔",
]


def hostile_name_game(name: str, title: str = "Hostile", seed: int = 5) -> str:
    """A complete two-round game (moves and all) between ``name`` and Ben, titled ``title``,
    as ``cf simulate`` writes it (names and title quoted and escaped as YAML needs)."""
    from cf.play.simulate import simulate_game
    from cf.record.emit import game_yaml
    from cf.rules import Rules

    game = simulate_game([name, "Ben"], Rules(top=6), ["greedy", "greedy"], seed, 2)
    return game_yaml(game, title=title)


# --- generators -----------------------------------------------------------------------------


def mutated_example(rng: random.Random) -> bytes:
    """A real game file (an example or a test game) with a few random edits."""
    data = rng.choice(EXAMPLES + GAMES).read_bytes()
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 6)):
        lines = lines or [b""]
        how = rng.randrange(8)
        i = rng.randrange(len(lines))
        if how == 0:
            del lines[i]
        elif how == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif how == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == 3 and lines[i]:
            k = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:k] + bytes([rng.randrange(256)]) + lines[i][k + 1 :]
        elif how == 4:
            token = rng.choice(HOSTILE_TOKENS).encode("utf-8", "surrogatepass")
            k = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:k] + token + lines[i][k:]
        elif how == 5:
            lines = lines[: rng.randrange(len(lines) + 1)]
            if not lines:
                lines = [b""]
        elif how == 6:
            lines[i] = lines[i].replace(b"  ", b"\t", 1)
        else:
            lines[i] = lines[i].replace(b":", b"", 1)
    return b"\n".join(lines)


def _names(rng: random.Random, n: int) -> list[str]:
    pool = ["Ana", "Ben", "Carla", "Dan", "José", "Mamá", "🐔", "No", "on", "1", "~"]
    names = rng.sample(pool, min(n, len(pool)))
    return [f'"{x}"' if x in ("~",) else x for x in names]


def hostile_file(rng: random.Random) -> str:
    """A small game file from one of the families of issue 11 (and issue 10's typos)."""
    family = rng.randrange(12)
    players = _names(rng, rng.randint(2, 4))
    head = f"players: [{', '.join(players)}]\nrounds:\n"
    p0 = players[0]
    if family == 0:  # huge numbers wherever a number goes
        where = rng.choice(["set", "rules", "score"])
        if where == "set":
            return f"set: {rng.choice([BIG, 'd' + BIG, 'double-' + BIG])}\n{head}  - {{}}\n"
        if where == "rules":
            key = rng.choice(["double_blank", "deal", "reserve", "starter_arms"])
            return f"rules: {{{key}: {BIG}}}\n{head}"
        return head + f"  - scores: {{{p0}: {BIG[: rng.randint(1, 5000)]}}}\n"
    if family == 1:  # control characters and lone surrogates in names
        bad = rng.choice(["A\\x07", "\\x1b[2J", "A\\rB", "\\x00", "\\ud800", "\\udcff", "\\x85"])
        return f'players: ["{bad}", Ben]\nrounds:\n  - scores: {{"{bad}": 1, Ben: 0}}\n'
    if family == 2:  # scalar aliases, many times over
        hand = "x " * rng.randint(1, 3000)
        refs = ", ".join(f"{p}: *h" for p in players[1:]) * 1
        moves = "\n".join(f"      - {p0}: *m" for _ in range(rng.randint(1, 3000)))
        return (
            head
            + f"  - hands: {{{p0}: &h '{hand}', {refs}}}\n"
            + f"  - moves:\n      - {p0}: &m '{'draw ' * rng.randint(1, 500)}'\n{moves}\n"
        )
    if family == 3:  # tags on keys and values
        tag = rng.choice(["!!python/str", "!!str", "!!int", "!custom", "!!binary", "!"])
        return head + f"  - scores: {{{p0}: 0}}\n    moves:\n      - {{{tag} {p0}: pass}}\n"
    if family == 4:  # many players
        n = rng.randint(100, 20_000)
        names = [f"P{i}" for i in range(n)]
        return (
            f"rules: {{deal: 1}}\nplayers: [{', '.join(names)}]\nrounds:\n"
            f"  - scores: {{{', '.join(f'{x}: 0' for x in names)}}}\n"
        )
    if family == 5:  # problems per token
        return head + f"  - hands: {{{p0}: {'x ' * rng.randint(1, 100_000)}}}\n"
    if family == 6:  # deep nesting
        depth = rng.randint(1, 3000)
        return head + "  - " + "[" * depth + "]" * depth + "\n"
    if family == 7:  # misspelled names (issue 10 #10)
        typo = p0[:-1] if len(p0) > 2 else p0 + "x"
        return head + f"  - scores: {{{typo}: 1, {', '.join(f'{p}: 0' for p in players[1:])}}}\n"
    if family == 8:  # YAML slips (issue 10 #11)
        return rng.choice(
            [
                head + "\t- scores: {}\n",
                "players: [Ana, Ben]\nrounds\n  - {}\n",
                head + f"  - hands:\n      {p0} 9-7\n",
                head + f"  - hands:\n      {p0}: [5|4] [3|1]\n",
            ]
        )
    if family == 9:  # impossible scores and 0-0 (issue 10 #12, #13)
        score = rng.choice([0, 27, 527, 528, 10**30])
        return head + f"  - hands: {{{p0}: 0-0 1-1}}\n    scores: {{{p0}: {score}}}\n"
    if family == 10:  # long values
        long = "N" * rng.randint(1000, 200_000)
        return f"title: {long}\nplayers: [Ana, Ben, {long}, {long}]\nrounds: []\n"
    return f"set: {rng.choice(['doble-nueve', 'd7', 'double-10', 'nine'])}\n{head}" + "".join(
        f"  - starter: {rng.randint(0, 20)}-{rng.randint(0, 20)}\n    hands: {{{p0}: 19-3}}\n"
        for _ in range(rng.randint(1, 25))
    )


def random_bytes(rng: random.Random) -> bytes:
    """Bytes with a YAML-ish skeleton: a line or two of a game file around junk."""
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(0, 400)))
    return rng.choice([b"", b"players: [Ana, Ben]\n", b"rounds:\n  - "]) + junk


# --- checks --------------------------------------------------------------------------------


def check_file(data: bytes | str, seconds: float = 2.0) -> str | None:
    """Read, validate and render ``data`` in-process; ``None`` if all went as it should."""
    start = time.process_time()  # CPU time: other work on the machine does not count
    try:
        report = validate(read_game(data, "fuzz.yaml"))
        text = render_validation([report], "text")
        github = render_validation([report], "github")
        parsed = json.loads(render_validation([report], "json"))
    except Exception as exc:  # what this is for
        return f"{type(exc).__name__}: {exc}"[:300]
    elapsed = time.process_time() - start
    size = len(data)
    if size < 2**20 and elapsed > seconds:
        return f"{elapsed:.1f} s of CPU for {size} bytes"
    for p in report.problems:
        if p.code not in CODES:
            return f"unknown code {p.code}"
        if "\n" in p.message or "\r" in p.message or "\x1b" in p.message:
            return f"message not on one line: {p.message[:80]!r}"
        if len(p.message) > 600:
            return f"message of {len(p.message)} characters"
    if len(report.problems) > MAX_PROBLEMS + 1:
        return f"{len(report.problems)} problems kept"
    for out in (text, github):
        try:
            out.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"output cannot be written as UTF-8: {exc}"
    if not isinstance(parsed, dict) or parsed["files"][0]["valid"] != report.valid:
        return "JSON does not match the report"
    return None
