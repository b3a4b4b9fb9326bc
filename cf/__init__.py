"""cf — the Chicken Foot (Pata de Gallina) domino toolkit, as a Python library.

The names below are the documented API (docs/api.md). They are loaded on first use, so
``import cf`` costs next to nothing and ``cf score`` starts fast.

>>> import cf
>>> cf.points(cf.parse_hand("9-7 6-6 4-1"))
33

Tiles and sets: :class:`Tile`, :class:`DominoSet`, :func:`parse_hand`, :func:`format_hand`,
:func:`points`. House rules: :class:`Rules`. One round: :class:`Round` (its
:meth:`Round.apply` takes a whole turn), :class:`Action`, :func:`parse_action`,
:func:`format_action`. Game files: :func:`read_game`, :func:`read_game_file`,
:func:`validate` (a :class:`Report` of :class:`Problem` s). Standings:
:func:`game_standings`, :func:`tournament`, :func:`player_stats`. Keeping score:
:func:`new_game_text`, :func:`add_entries` (a round from ``NAME=VALUE`` entries, checked),
:func:`add_round` and :func:`remove_last_round` (splice a round in or out of a file's text,
every other byte kept). Computer players: :func:`simulate_game`,
:data:`STRATEGIES`; advice for a round in progress: :func:`advise`. Pictures:
:func:`table_at` (the table after any move, laid out as a :class:`Layout`),
:func:`table_facts` (its JSON facts), :func:`table_svg`, :func:`game_page` (the HTML
replay). For editors and linters: :func:`game_schema` (the JSON Schema of a
game file) and :func:`explanation` (what a problem code means, with an example).
Errors: every exception cf raises derives from :class:`Error`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from cf.i18n import _

__version__ = "0.3.0"

#: Public name -> (module, attribute).
_API: dict[str, tuple[str, str]] = {
    "Error": ("cf.errors", "Error"),
    "Tile": ("cf.tiles", "Tile"),
    "DominoSet": ("cf.tiles", "DominoSet"),
    "parse_hand": ("cf.tiles", "parse_hand"),
    "format_hand": ("cf.tiles", "format_hand"),
    "points": ("cf.tiles", "hand_points"),
    "NotationError": ("cf.tiles", "NotationError"),
    "TileError": ("cf.tiles", "TileError"),
    "Rules": ("cf.rules", "Rules"),
    "RulesError": ("cf.rules", "RulesError"),
    "Round": ("cf.board", "Round"),
    "RuleViolation": ("cf.board", "RuleViolation"),
    "Action": ("cf.notation", "Action"),
    "Move": ("cf.notation", "Move"),
    "parse_action": ("cf.notation", "parse_action"),
    "format_action": ("cf.notation", "format_action"),
    "Game": ("cf.record.reader", "Game"),
    "read_game": ("cf.record.reader", "read_game"),
    "read_game_file": ("cf.record.reader", "read_game_file"),
    "validate": ("cf.record.check", "validate"),
    "Report": ("cf.record.check", "Report"),
    "Problem": ("cf.record.problems", "Problem"),
    "CODES": ("cf.record.problems", "CODES"),
    "replay": ("cf.record.replay", "replay"),
    "game_standings": ("cf.record.standings", "game_standings"),
    "tournament": ("cf.record.standings", "tournament"),
    "player_stats": ("cf.record.standings", "player_stats"),
    "add_round": ("cf.record.edit", "add_round"),
    "remove_last_round": ("cf.record.edit", "remove_last_round"),
    "new_game_text": ("cf.record.keeper", "new_game_text"),
    "add_entries": ("cf.record.keeper", "add_entries"),
    "simulate_game": ("cf.play.simulate", "simulate_game"),
    "STRATEGIES": ("cf.play.simulate", "STRATEGIES"),
    "Layout": ("cf.render.layout", "Layout"),
    "table_at": ("cf.render.table", "table_at"),
    "table_facts": ("cf.render.table", "table_facts"),
    "table_svg": ("cf.render.svg", "table_svg"),
    "game_page": ("cf.render.html", "game_page"),
    "advise": ("cf.play.hint", "advise"),
    "game_schema": ("cf.record.schema", "game_schema"),
    "Explanation": ("cf.record.explain", "Explanation"),
    "explanation": ("cf.record.explain", "explanation"),
}

__all__ = [
    "CODES",
    "STRATEGIES",
    "Action",
    "DominoSet",
    "Error",
    "Explanation",
    "Game",
    "Layout",
    "Move",
    "NotationError",
    "Problem",
    "Report",
    "Round",
    "RuleViolation",
    "Rules",
    "RulesError",
    "Tile",
    "TileError",
    "add_entries",
    "add_round",
    "advise",
    "explanation",
    "format_action",
    "format_hand",
    "game_page",
    "game_schema",
    "game_standings",
    "new_game_text",
    "parse_action",
    "parse_hand",
    "player_stats",
    "points",
    "read_game",
    "read_game_file",
    "remove_last_round",
    "replay",
    "simulate_game",
    "table_at",
    "table_facts",
    "table_svg",
    "tournament",
    "validate",
]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from cf.board import Round, RuleViolation
    from cf.errors import Error
    from cf.notation import Action, Move, format_action, parse_action
    from cf.play.hint import advise
    from cf.play.simulate import STRATEGIES, simulate_game
    from cf.record.check import Report, validate
    from cf.record.edit import add_round, remove_last_round
    from cf.record.explain import Explanation, explanation
    from cf.record.keeper import add_entries, new_game_text
    from cf.record.problems import CODES, Problem
    from cf.record.reader import Game, read_game, read_game_file
    from cf.record.replay import replay
    from cf.record.schema import game_schema
    from cf.record.standings import game_standings, player_stats, tournament
    from cf.render.html import game_page
    from cf.render.layout import Layout
    from cf.render.svg import table_svg
    from cf.render.table import table_at, table_facts
    from cf.rules import Rules, RulesError
    from cf.tiles import DominoSet, NotationError, Tile, TileError, format_hand, parse_hand
    from cf.tiles import hand_points as points


def __getattr__(name: str) -> Any:
    try:
        module, attr = _API[name]
    except KeyError:
        raise AttributeError(
            _("module 'cf' has no attribute {name!r}").format(name=name)
        ) from None
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
