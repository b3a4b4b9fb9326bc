"""A JSON Schema (draft 2020-12) of the game file, for editors (SPEC §12).

The schema describes the file as a YAML 1.2 reader sees it — an editor's language server,
not cf: ``033`` is the integer 33, ``No`` and ``on`` are strings, ``2026-11-28`` is a
string, and ``true``, ``1`` or ``1.5`` as a player's name are a boolean and numbers, which
cf reads as the names ``true``, ``1`` and ``1.5``.

It draws the line where cf's ``schema`` problem does (docs/file-format.md): it accepts
every file that has no ``schema`` problem, whatever other problems it has, and rejects the
ones that have one — unknown keys, values of the wrong shape, a score that is not a whole
number. What no JSON Schema can see is left to ``cf validate``: a key given twice, a part
repeated through a YAML alias, and a score that YAML 1.2 turns into a whole number but cf
reads as written (``+5``, ``0x1F``, ``3.0``). Values that are of the right shape but wrong
(a set that does not exist, a tile not in the set, a move out of turn) are other problems,
and the schema leaves them to ``cf validate`` too.

>>> schema = game_schema()
>>> schema["required"]
['players', 'rounds']
"""

from __future__ import annotations

import json
from typing import Any

from cf.rules import RULE_KEYS

DRAFT = "https://json-schema.org/draft/2020-12/schema"

_SCALAR_TYPES = ["string", "number", "boolean", "null"]
_DIGITS = "^\\s*[0-9]+\\s*$"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _text(description: str) -> dict[str, Any]:
    return {"description": description, "type": _SCALAR_TYPES}


def _rule(description: str, default: object = None) -> dict[str, Any]:
    return {"description": description} | ({} if default is None else {"default": default})


# Any value of a rule is allowed here: a bad one is a `rules` problem (SPEC §2). The keys
# are the reader's (RULE_KEYS), so that a rule cf learns is a rule the schema allows.
_RULES = {
    "starter_arms": _rule("Lines that must leave the starting double: 2 to N, or players.", 4),
    "double_blank": _rule("Points for holding 0-0 at the end of a round.", 50),
    "deal": _rule("Tiles dealt to each player (default: the deal table)."),
    "reserve": _rule("Tiles that stay in the chicken yard (2 with two players, else 1)."),
    "rounds": _rule(
        "How many rounds the game has, from the top double down (1 to N+1); with a target, "
        "the most rounds it may have (1 or more)."
    ),
    "draw": _rule(
        "What a player who cannot play does: one (draw one tile, play it if it fits), "
        "one-may (draw one, may play it) or until (draw until a tile fits).",
        "one",
    ),
    "out_on_double": _rule(
        "Points for going out by playing a double as the last tile (instead of 0).", 0
    ),
    "target": _rule(
        "Play to a target total: the game ends after the round in which a total reaches it; "
        "the starting doubles go N down to 0, then N again."
    ),
}


def game_schema() -> dict[str, Any]:
    """The JSON Schema of a game file, as a dict ready for :func:`json.dumps`."""
    defs: dict[str, Any] = {
        "name": {
            "description": "A player's name. cf reads it as written: 1, true or No are names.",
            "anyOf": [
                {"type": "string", "pattern": "\\S"},
                {"type": ["number", "boolean"]},
            ],
        },
        "hand": {
            "description": "Tiles: one text (9-7 6-6 4-1, or with commas) or a list of "
            "tiles; empty text, [] or nothing is the empty hand.",
            "anyOf": [
                {"type": _SCALAR_TYPES},
                {"type": "array", "items": {"type": _SCALAR_TYPES}},
            ],
            "examples": ["9-7 6-6 4-1", ["9-7", "6-6", "4-1"], ""],
        },
        "hands": {
            "description": "Player name -> hand, every player once.",
            "type": ["object", "null"],
            "additionalProperties": _ref("hand"),
        },
        "score": {
            "description": "A whole number, 0 or more.",
            "anyOf": [
                {"type": "integer", "minimum": 0},
                {"type": "string", "pattern": _DIGITS},
            ],
        },
        "move": {
            "description": "One turn, PLAYER: ACTION, where ACTION is a tile (9-7), "
            "draw TILE, TILE / draw TILE, pass / draw, TILE / draw, pass, or pass; under "
            "draw: until, several draws: draw 5-4, draw 2-1, 2-1.",
            "type": "object",
            "minProperties": 1,
            "maxProperties": 1,
            "additionalProperties": {
                "anyOf": [
                    {"type": _SCALAR_TYPES},
                    {
                        "description": "A one-item list is read as that tile: [7-3].",
                        "type": "array",
                        "minItems": 1,
                        "maxItems": 1,
                        "items": {"type": _SCALAR_TYPES},
                    },
                ]
            },
            "examples": [
                {"Ana": "7-3"},
                {"Ben": "draw 2-1, pass"},
                {"Ana": "draw 5-4, draw 2-1, 2-1"},
            ],
        },
        "round": {
            "description": "One round: scores, or hands, or deal and moves (or more).",
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "starter": {
                    "description": "The starting double; it must be the round's double.",
                    "anyOf": [
                        {"type": _SCALAR_TYPES},
                        {
                            "description": "A one-item list is read as that tile: [6|6].",
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 1,
                            "items": {"type": _SCALAR_TYPES},
                        },
                    ],
                },
                "deal": {"description": "The hands as dealt.", **_ref("hands")},
                "moves": {
                    "description": "The move log, one entry per turn.",
                    "type": ["array", "null"],
                    "items": _ref("move"),
                },
                "hands": {"description": "The tiles left at the end.", **_ref("hands")},
                "scores": {
                    "description": "Player name -> points for the round, every player once.",
                    "type": ["object", "null"],
                    "additionalProperties": _ref("score"),
                },
                "notes": _text("Free text."),
            },
        },
    }
    return {
        "$schema": DRAFT,
        "title": "Chicken Foot game file (cf)",
        "description": "A game of Chicken Foot dominoes as cf reads it: the players, the "
        "rounds and as much of each round as the table recorded. The schema checks the "
        "shape of the file; `cf validate` checks everything else.",
        "type": "object",
        "required": ["players", "rounds"],
        "additionalProperties": False,
        "properties": {
            "title": _text("A name for the game; free text."),
            "date": _text("When it was played; free text, not checked."),
            "notes": _text("Anything worth remembering; free text."),
            "set": {
                "description": "The domino set: double-six, double-nine (the default), "
                "double-twelve, double-fifteen, double-eighteen; also double-9, d9 or 9.",
                "default": "double-nine",
                "examples": [
                    "double-six",
                    "double-nine",
                    "double-twelve",
                    "double-fifteen",
                    "double-eighteen",
                ],
            },
            "rules": {
                "description": "House rules; every key optional.",
                "properties": {key: _RULES.get(key, {}) for key in RULE_KEYS},
                "additionalProperties": False,
            },
            "players": {
                "description": "The players in seating order (turn order); 2 or more.",
                "type": ["array", "null"],
                "items": _ref("name"),
            },
            "rounds": {
                "description": "The rounds played so far, in order; round k starts with the "
                "double N-k+1.",
                "type": ["array", "null"],
                "items": _ref("round"),
            },
        },
        "$defs": defs,
    }


def schema_json() -> str:
    """The schema as ``cf schema`` prints it (and docs/game.schema.json holds it)."""
    return json.dumps(game_schema(), ensure_ascii=False, indent=2) + "\n"


__all__ = ["game_schema", "schema_json"]
