"""``cf show --format html``: one self-contained page that steps through a whole game.

Everything is in the page — the board of each round as inline SVG (every tile tagged with
the move that put it down), the facts after each move as JSON, the style and the script —
so it works offline, from a file, and loads nothing from anywhere. Moves are stepped with
the slider, the buttons or the arrow keys (Home and End go to the first and last move);
each problem ``cf validate`` finds is listed, marked on the timeline, and shown when its
move is reached; the scoreboard shows the totals after each round played so far.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from cf.errors import Error
from cf.i18n import N_, _, language, tr
from cf.record.check import Report
from cf.record.problems import Problem
from cf.record.reader import Game, RoundRecord
from cf.render.layout import Layout
from cf.render.problems import _context
from cf.render.svg import UNIT, YARD, _f, back_body, board_elements, bounds_px, tile_svg
from cf.render.table import Step, round_steps
from cf.text import xml_attr, xml_text
from cf.tiles import DominoSet

_CSS = """
body{font-family:system-ui,sans-serif;margin:0;background:#f4f6f1;color:#222}
header{padding:10px 16px;background:#2f4f3a;color:#fff}
header h1{font-size:20px;margin:0 0 4px}
header h1,header div{overflow-wrap:anywhere}
#over{display:none;background:#2f7d32;color:#fff;font-weight:bold;padding:6px 10px;
  border-radius:4px;margin:6px 0}
#over.shown{display:block}
#controls{display:flex;gap:8px;align-items:center;padding:8px 16px;flex-wrap:wrap}
#controls button{font-size:16px;padding:4px 10px}
#slider{flex:1;min-width:240px}
#timeline{position:relative;height:10px;margin:0 16px;background:#dde3d8;border-radius:4px}
#timeline .mark{position:absolute;top:0;width:4px;height:10px;background:#c62828;cursor:pointer}
#counter{font-weight:bold;min-width:260px}
main{display:flex;gap:16px;padding:8px 16px;align-items:flex-start;flex-wrap:wrap}
#board{background:#eef3ea;border:1px solid #cdd6c6;border-radius:6px;flex:1 1 560px;
  min-width:320px;overflow:auto}
#board svg{display:block;width:100%;height:auto;max-height:78vh}
#board .hidden{display:none}
#board .last rect{stroke:#d84315;stroke-width:3}
#board .open-end{fill:#2e7d32;stroke:#fff;stroke-width:1}
#board .free-place{fill:none;stroke:#2e7d32;stroke-width:1.5;stroke-dasharray:2 2}
#side{flex:0 1 380px}
.hand{margin-bottom:8px}
.hand .name{font-weight:bold}
.hand.next .name::after{content:"  TO_PLAY";color:#2f7d32}
.tiles svg{margin:1px}
#problem{display:none;background:#fde7e9;border:2px solid #c62828;color:#8b0000;
  padding:6px 8px;border-radius:4px;margin:6px 0}
#problem.shown{display:block}
#problems li{cursor:pointer;color:#8b0000}
table.score{border-collapse:collapse;margin-top:6px}
table.score td,table.score th{border:1px solid #cdd6c6;padding:2px 6px;text-align:right}
table.score th:first-child,table.score td:first-child{text-align:left}
.status{margin:4px 0}
"""

_JS = r"""
"use strict";
const DATA = JSON.parse(document.getElementById("cf-data").textContent);
const TILES = DATA.tiles;
const steps = DATA.steps;
// The page's words, in the reader's language: say("key", {name: value}) fills {name}.
const say = (key, params = {}) =>
  DATA.text[key].replace(/\{(\w+)\}/g, (whole, name) => String(params[name]));
let at = 0;
const $ = (id) => document.getElementById(id);
const slider = $("slider");
slider.max = steps.length - 1;

function tileHtml(name) { return TILES[name] || ""; }

function show(i) {
  at = Math.max(0, Math.min(steps.length - 1, i));
  slider.value = at;
  const s = steps[at];
  const r = DATA.rounds[s.r];
  $("counter").textContent = s.log
    ? say("counter", {round: r.number, move: s.m, moves: r.moves})
    : say(s.stopped ? "not_replayed" : "no_log", {round: r.number});
  $("counter").dataset.round = r.number;
  $("counter").dataset.move = s.log ? s.m : "";
  const before = s.log ? say("before") : "";
  const said = {player: s.player, move: s.text};
  const move = s.f.problem ? say("refused", said) : `${s.player}: ${s.text}`;
  $("what").textContent = s.text ? move : before;
  document.querySelectorAll("#board > svg").forEach((svg) => {
    svg.classList.toggle("hidden", svg.dataset.round != r.number);
  });
  const svg = document.querySelector(`#board > svg[data-round="${r.number}"]`);
  if (svg) {
    svg.querySelectorAll("[data-move]").forEach((g) => {
      const m = Number(g.dataset.move);
      g.classList.toggle("hidden", !s.log || m > s.f.move);
      g.classList.toggle("last", s.log && m > 0 && m === s.f.move);
    });
  }
  document.querySelectorAll("#board .marks").forEach((g) => g.remove());
  if (svg && s.log) {
    const ns = svg.namespaceURI;
    const marks = document.createElementNS(ns, "g");
    marks.setAttribute("class", "marks");
    s.k.forEach(([x, y, n, end]) => {
      const c = document.createElementNS(ns, "circle");
      c.setAttribute("cx", x);
      c.setAttribute("cy", y);
      c.setAttribute("r", end ? 4.5 : 5);
      c.setAttribute("class", end ? "open-end" : "free-place");
      c.setAttribute("data-number", n);
      marks.appendChild(c);
    });
    svg.appendChild(marks);
  }
  const hands = $("hands");
  hands.innerHTML = "";
  DATA.players.forEach((p) => {
    const div = document.createElement("div");
    div.className = "hand";
    div.dataset.player = p;
    const h = s.log ? s.f.hands[p] : null;
    if (s.log && s.f.next === p) div.classList.add("next");
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = h ? `${p} (${h.known.length + h.unseen})` : p;
    div.appendChild(name);
    const tiles = document.createElement("div");
    tiles.className = "tiles";
    if (h) {
      tiles.innerHTML = h.known.map(tileHtml).join("") + DATA.back.repeat(h.unseen);
      tiles.dataset.tiles = h.known.join(" ");
      if (!h.known.length && !h.unseen) tiles.textContent = say("empty");
    }
    div.appendChild(tiles);
    hands.appendChild(div);
  });
  const f = s.f;
  let status = "";
  if (s.log) {
    const ends = f.open_ends.length ? f.open_ends.join(" ") : say("none");
    if (f.arms < f.arms_needed) {
      status = say("arms", {starter: f.starter, arms: f.arms, needed: f.arms_needed});
    } else if (f.pending !== null) {
      status = say("foot", {double: `${f.pending}-${f.pending}`, toes: f.toes});
    } else {
      status = say("ends", {ends: ends});
    }
    if (f.over === "out") status += " \u00b7 " + say("went_out");
    else if (f.over === "blocked") status += " \u00b7 " + say("blocked");
    $("yard").textContent = say("yard", {yard: f.yard, drawable: f.drawable});
  } else {
    $("yard").textContent = "";
  }
  $("status").textContent = status;
  const probs = DATA.problems.filter((p) => p.step === at);
  const box = $("problem");
  box.classList.toggle("shown", probs.length > 0);
  box.textContent = probs.map((p) => `${p.where}[${p.code}] ${p.message}`).join("\n");
  box.dataset.codes = probs.map((p) => p.code).join(" ");
  // The scoreboard after every round finished by now.
  const finished = !s.log || f.over !== null || s.lastOfRound === true;
  const done = s.r + (finished ? 1 : 0);
  renderScores(done);
}

function renderScores(done) {
  const t = $("scores");
  const heads = DATA.players.map((p) => `<th>${esc(p)}</th>`).join("");
  let html = `<tr><th>${esc(say("after_round"))}</th>${heads}</tr>`;
  const totals = Object.fromEntries(DATA.players.map((p) => [p, 0]));
  let known = true;
  for (let k = 0; k < done; k++) {
    const pts = DATA.rounds[k].points;
    if (!pts) known = false;
    html += `<tr><td>${DATA.rounds[k].number}</td>` + DATA.players.map((p) => {
      if (known && pts) totals[p] += pts[p];
      return `<td>${known && pts ? totals[p] : "?"}</td>`;
    }).join("") + "</tr>";
  }
  t.innerHTML = html;
  $("scorenote").textContent = done ? "" : say("no_round_yet");
  // At the last step, who won (or who leads a game not finished yet).
  const over = $("over");
  const end = at === steps.length - 1 && DATA.outcome !== null;
  over.classList.toggle("shown", end);
  over.textContent = end ? DATA.outcome : "";
}

function esc(s) {
  return s.replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
}

slider.addEventListener("input", () => show(Number(slider.value)));
$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(at - 1));
$("next").addEventListener("click", () => show(at + 1));
$("last").addEventListener("click", () => show(steps.length - 1));
document.addEventListener("keydown", (e) => {
  if (e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) e.preventDefault();
  if (e.key === "ArrowRight") show(at + 1);
  else if (e.key === "ArrowLeft") show(at - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(steps.length - 1);
  else return;
  e.preventDefault();
});
const timeline = $("timeline");
DATA.problems.forEach((p) => {
  if (p.step === null) return;
  const m = document.createElement("div");
  m.className = "mark";
  m.title = `${p.where}[${p.code}] ${p.message}`;
  m.style.left = `${(100 * p.step) / Math.max(1, steps.length - 1)}%`;
  m.addEventListener("click", () => show(p.step));
  timeline.appendChild(m);
});
document.querySelectorAll("#problems li[data-step]").forEach((li) => {
  li.addEventListener("click", () => show(Number(li.dataset.step)));
});
show(0);
"""


#: The words the page's script writes, by key; ``{name}`` is filled in by the script.
_WORDS = {
    "counter": N_("Round {round} · move {move} of {moves}"),
    "no_log": N_("Round {round} · scored without a move log"),
    "not_replayed": N_("Round {round} · its log is not replayed (see its problems)"),
    "before": N_("before the first move"),
    "refused": N_("{player}: {move} (refused: the table stays as it was)"),
    "empty": N_("(empty)"),
    "none": N_("none"),
    "arms": N_("starter {starter}: {arms} of {needed} arms"),
    "foot": N_("foot open on {double}: {toes} of 3 toes"),
    "ends": N_("open ends {ends}"),
    "went_out": N_("round over: went out"),
    "blocked": N_("round over: blocked"),
    "after_round": N_("after round"),
    "no_round_yet": N_("no round finished yet"),
}


def page_words() -> dict[str, str]:
    """The words of the page's script in the reader's language (the page's JSON carries
    them: the script never holds a sentence of its own)."""
    return {key: _(text) for key, text in {**_WORDS, "yard": YARD}.items()}


#: Problems about how a round ended: shown at its last move.
_END_OF_ROUND = ("unfinished", "hands-mismatch", "score-mismatch", "missing-score")


def game_page(game: Game, report: Report, *, colour: bool = False) -> str:
    """The whole replay page of ``game`` (``report``: what ``cf validate`` found in it)."""
    timeline = _Timeline()
    for rec in game.rounds:
        timeline.add_round(game, report, rec, colour)
    problems = [_problem_entry(p, timeline.step_of(p)) for p in report.problems]
    data = {
        "players": game.players,
        "rounds": timeline.rounds,
        "steps": timeline.steps,
        "problems": problems,
        "tiles": _tile_pictures(game.top, colour),
        "back": _back_picture(),
        "outcome": _outcome(game, report),
        "text": page_words(),
    }
    return _page(game, timeline.boards, data, problems)


@dataclass
class _Timeline:
    """The page's rounds, board pictures and steps (one per move of each replayable round,
    one without a log for any other: also a round cf validate does not replay, its deal or
    starter wrong), built round by round."""

    rounds: list[dict[str, Any]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    boards: list[str] = field(default_factory=list)
    where: dict[tuple[int, int], int] = field(default_factory=dict)  # (round, move) -> step
    first_of: dict[int, int] = field(default_factory=dict)  # round -> its first step

    def add_round(self, game: Game, report: Report, rec: RoundRecord, colour: bool) -> None:
        """Add round ``rec``: its entry, and its board and a step per move if it replays."""
        k = rec.number
        points = report.round_points[k - 1] if k - 1 < len(report.round_points) else None
        index = len(self.rounds)
        self.rounds.append({"number": k, "points": points, "moves": len(rec.moves or [])})
        self.first_of[k] = len(self.steps)
        stopped = k in report.not_replayed and rec.moves is not None
        replayed = None if stopped else _replayed(game, rec)
        if replayed is None:
            step = {"r": index, "log": False, "f": {}, "text": "", "player": None}
            self.steps.append({**step, "stopped": True} if stopped else step)
            return
        layout, round_moves = replayed
        self.boards.append(_board_picture(k, layout, colour))
        for s in round_moves:
            self.where[(k, s.move)] = len(self.steps)
            self.steps.append(_move_step(index, s))
        self.steps[-1]["lastOfRound"] = True

    def step_of(self, p: Problem) -> int | None:
        """The step at which problem ``p`` is shown: at its move (or its round's last step,
        past a stop), at the last step for how a round ended, else at its round's first;
        ``None`` for a problem of no round on the page."""
        if p.round is None or p.round not in self.first_of:
            return None
        last = self.first_of.get(p.round + 1, len(self.steps)) - 1
        if p.move is not None:
            return self.where.get((p.round, p.move), last)
        if p.code in _END_OF_ROUND:
            return last
        return self.first_of[p.round]


def _outcome(game: Game, report: Report) -> str | None:
    """The banner of the page's last step: the winner(s) of a complete game, the leader(s)
    of one still being played; ``None`` where the rounds do not all score."""
    from cf.record.standings import standings_of
    from cf.render.standings import game_note, scoreboard_footer

    points = report.round_points
    if not game.rounds or len(points) < len(game.rounds) or any(p is None for p in points):
        return None
    standing = standings_of(game, points)  # type: ignore[arg-type]
    text = scoreboard_footer(standing, None) if standing.complete else game_note(standing)
    text = (text or "").lstrip("* ")
    return text[:1].upper() + text[1:] or None


def _replayed(game: Game, rec: RoundRecord) -> tuple[Layout, list[Step]] | None:
    """Round ``rec``'s layout and steps, or ``None`` when it has no log, the game no usable
    rules or players, or the rules cannot deal it (cf validate says why: its score only)."""
    from cf.record.replay import ReplayError, check_playable

    if rec.moves is None:
        return None
    try:
        check_playable(game)
    except ReplayError:
        return None
    assert game.rules is not None
    if rec.number > game.top + 1 and game.rules.target is None:  # no double starts it
        return None
    try:
        return round_steps(game, rec.number)
    except Error:
        return None


def _board_picture(k: int, layout: Layout, colour: bool) -> str:
    """Round ``k``'s finished board as inline SVG, every tile tagged with its move."""
    x, y, w, h = bounds_px(layout)
    label = _("round {round}").format(round=k)
    return (
        f'<svg data-round="{k}" viewBox="{_f(x)} {_f(y)} {_f(w)} {_f(h)}" role="img" '
        f"aria-label={xml_attr(label)}>"
        f"{board_elements(layout.tiles, colour=colour, tag_moves=True)}"
        "</svg>"
    )


def _move_step(index: int, s: Step) -> dict[str, Any]:
    """The page's data for one move of round ``index`` (0-based): its facts, text, player,
    and the open-end marks (in pixels)."""
    return {
        "r": index,
        "m": s.move,
        "log": True,
        "f": s.facts,
        "text": s.text,
        "player": s.player,
        "k": [[round(x * UNIT, 1), round(y * UNIT, 1), n, int(end)] for x, y, n, end in s.marks],
    }


def _problem_entry(p: Problem, step: int | None) -> dict[str, Any]:
    """The page's data for problem ``p``, shown at ``step``: where and what in the
    reader's language (its code as it is)."""
    return {
        "step": step,
        "code": p.code,
        "message": tr(p.message),
        "line": p.line,
        "where": _context(p),
    }


def _tile_pictures(top: int, colour: bool) -> dict[str, str]:
    """Every tile of the set as a small inline SVG, for the hands."""
    return {
        str(t): tile_svg(t, colour=colour, scale=0.75, inline=True) for t in DominoSet(top).tiles()
    }


def _back_picture() -> str:
    """A tile's back as a small inline SVG, for unseen tiles."""
    return (
        f'<svg width="{_f(2 * UNIT * 0.75)}" height="{_f(UNIT * 0.75)}" viewBox="{-UNIT} '
        f'{_f(-UNIT / 2)} {2 * UNIT} {UNIT}">{back_body()}</svg>'
    )


#: Characters no JSON inside a <script> element may hold as they are: ``<`` and ``>`` could
#: open or close a tag or a ``<!--`` (the "double-escaped" state that would swallow the
#: page's own script), ``&`` a character reference; U+2028 and U+2029 end a line in old
#: JavaScript. Each is written as its JSON escape, which JSON.parse reads back the same.
_SCRIPT_UNSAFE = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def script_json(data: object) -> str:
    """``data`` as JSON text that no content can make a page parse differently: safe inside
    any ``<script>`` element.

    >>> script_json({"name": "<!--<script>"})
    '{"name":"\\\\u003c!--\\\\u003cscript\\\\u003e"}'
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_SCRIPT_UNSAFE)


def _page(
    game: Game, boards: list[str], data: dict[str, Any], problems: list[dict[str, Any]]
) -> str:
    """The HTML document: header, controls, the boards, the side panel with the problems
    listed, and ``data`` as JSON for the script."""
    # As a title-less game's chart names it: by the file's name, not the path typed.
    title = getattr(game, "title", None) or os.path.basename(game.file) or game.file
    listed = "".join(
        f'<li data-step="{p["step"]}">{xml_text(p["where"])}[{xml_text(p["code"])}] '
        f"{xml_text(p['message'])}</li>"
        if p["step"] is not None
        else f"<li>[{xml_text(p['code'])}] {xml_text(p['message'])}</li>"
        for p in problems
    )
    verdict = (
        _("cf validate finds no problem in this game")
        if not problems
        else _("cf validate finds {n} problem(s):").format(n=len(problems))
    )
    players = _("{players} · {rounds} round(s)").format(
        players=", ".join(game.players), rounds=len(game.rounds)
    )
    page_title = _("{title} — cf replay").format(title=title)
    slider = _("the move shown")
    timeline = _("problems found by cf validate")
    scoreboard, problems_found = _("Scoreboard"), _("Problems")
    payload = script_json(data)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang={xml_attr(language())}><head><meta charset="utf-8">'
        f"<title>{xml_text(page_title)}</title>"
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{_style()}</style></head><body>"
        f"<header><h1>{xml_text(title)}</h1>"
        f"<div>{xml_text(players)}</div></header>"
        '<div id="controls">'
        + _button("first", _("first move (Home)"), _("« first"))
        + _button("prev", _("previous move (←)"), "◀")
        + _button("next", _("next move (→)"), "▶")
        + _button("last", _("last move (End)"), _("last »"))
        + '<input id="slider" type="range" min="0" value="0" '
        f"aria-label={xml_attr(slider)}>"
        '<span id="counter"></span></div>'
        f'<div id="timeline" title={xml_attr(timeline)}></div>'
        "<main>"
        + (f'<div id="board">{"".join(boards)}</div>' if boards else "")  # no empty pane
        + '<div id="side">'
        '<div id="what" class="status"></div><div id="status" class="status"></div>'
        '<div id="over" role="status"></div>'
        '<div id="problem" role="alert"></div>'
        '<div id="hands"></div><div id="yard" class="status"></div>'
        f'<h3>{xml_text(scoreboard)}</h3><table class="score" id="scores"></table>'
        '<div id="scorenote"></div>'
        f"<h3>{xml_text(problems_found)}</h3><p>{xml_text(verdict)}</p>"
        f'<ul id="problems">{listed}</ul>'
        "</div></main>"
        f'<script type="application/json" id="cf-data">{payload}</script>'
        f"<script>{_JS}</script></body></html>\n"
    )


def _button(name: str, title: str, label: str) -> str:
    """A control button: its id, its tooltip and what it shows."""
    return f'<button id="{name}" title={xml_attr(title)}>{xml_text(label)}</button>'


def _style() -> str:
    """The page's style sheet, the "to play" mark in the reader's language."""
    return _CSS.replace("TO_PLAY", css_string(_("← to play")))


def css_string(text: str) -> str:
    """``text`` for inside a double-quoted CSS string in a ``<style>`` element: every
    character but an ASCII letter, digit or space as a CSS escape, so that no text can end
    the string or the element. An escape ends with a space, which CSS takes as part of it
    (the text's own spaces stay).

    >>> css_string("← to play"), css_string('"</style>')
    ('\\\\2190  to play', '\\\\22 \\\\3c \\\\2f style\\\\3e ')
    """
    return "".join(
        c if c.isascii() and (c.isalnum() or c == " ") else f"\\{ord(c):x} " for c in text
    )
