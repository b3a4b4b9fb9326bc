"""``cf tally --rank-by rating --history OUT.svg``: each player's rating after each game.

Drawn as :mod:`cf.render.chart` draws running totals (hand-written SVG, the same colours,
text helpers and PNG route), but the y axis is the rating ranked (the ordinal, mu - 3
sigma), which can be negative, and higher is better. A line starts at a player's first
game and runs on, flat, through the games they miss (their rating does not move); a dot
marks each game they played. Every name is escaped, in text and in attributes.

>>> from cf.record.league import game_of
>>> from cf.record.ratings import rate
>>> g = game_of("g.yaml", ["A&B", 'Cy "C"'], [{"A&B": 0, 'Cy "C"': 9}])
>>> svg = history_svg(rate([g, g]))
>>> svg.count("<polyline"), "A&amp;B" in svg, 'data-player="Cy &quot;C&quot;"' in svg
(2, True, True)
"""

from __future__ import annotations

import math

from cf.i18n import _, decimal
from cf.record.ratings import Ratings
from cf.render.chart import COLOURS, _step, png_needs_extra
from cf.render.svg import _f, document, text
from cf.text import xml_attr, xml_text

WIDTH_MIN, WIDTH_MAX = 420.0, 960.0
LEFT, TOP, RIGHT, BOTTOM = 56.0, 40.0, 210.0, 56.0
HEIGHT = 380.0


def history_svg(ratings: Ratings) -> str:
    """The chart of ``ratings.history``: x the games in the order rated, y the ordinal."""
    history = ratings.history
    count = max(len(history), 1)
    width = min(max(WIDTH_MIN, 36.0 * count), WIDTH_MAX) + LEFT + RIGHT
    plot_w, plot_h = width - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    values = [r.ordinal for h in history for r in h.ratings.values()] or [0.0]
    step = _step(max(values) - min(values, default=0) or 1)
    low = step * math.floor(min(min(values), 0) / step)
    high = max(step * math.ceil(max(max(values), 0) / step), low + step)

    def px(i: int) -> float:
        return LEFT + plot_w * (i + 0.5) / count

    def py(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    out = [f'<rect x="0" y="0" width="{_f(width)}" height="{_f(HEIGHT)}" fill="#ffffff"/>']
    title = _("Ratings after each game ({model})").format(model=ratings.model)
    out.append(text(LEFT, 24, title, size=16, weight="bold"))
    for v in range(int(low), int(high) + 1, step):
        y = py(v)
        stroke = "#999999" if v == 0 else "#dddddd"
        out.append(
            f'<line x1="{_f(LEFT)}" y1="{_f(y)}" x2="{_f(LEFT + plot_w)}" y2="{_f(y)}" '
            f'stroke="{stroke}" stroke-width="1"/>'
        )
        out.append(text(LEFT - 6, y + 4, str(v), size=11, anchor="end"))
    every = 1 if count <= 26 else 2 if count <= 60 else 5
    for i, h in enumerate(history):
        if (i + 1) % every == 0 or i == 0:
            label = _("G{game}").format(game=h.game)
            out.append(text(px(i), TOP + plot_h + 16, label, size=10, anchor="middle"))
    first, last = history[0] if history else None, history[-1] if history else None
    if first is not None and last is not None:
        span = _("{first} to {last}").format(
            first=first.date or first.file, last=last.date or last.file
        )
        out.append(text(LEFT + plot_w / 2, TOP + plot_h + 34, span, size=10, anchor="middle"))
    out.append(
        f'<rect x="{_f(LEFT)}" y="{_f(TOP)}" width="{_f(plot_w)}" height="{_f(plot_h)}" '
        'fill="none" stroke="#444444"/>'
    )
    order = [p.player for p in ratings.players]
    seen = list(history[-1].ratings) if history else []
    colour = {p: COLOURS[i % len(COLOURS)] for i, p in enumerate(seen)}
    for p in seen:
        points = [(i, h.ratings[p].ordinal, p in h.played) for i, h in enumerate(history)
                  if p in h.ratings]  # fmt: skip
        line = " ".join(f"{_f(px(i))},{_f(py(v))}" for i, v, _unused in points)
        dots = "".join(
            f'<circle cx="{_f(px(i))}" cy="{_f(py(v))}" r="2.6" fill="{colour[p]}"/>'
            for i, v, played in points
            if played
        )
        out.append(
            f'<g class="series" data-player={xml_attr(p)}><title>{xml_text(p)}</title>'
            f'<polyline points="{line}" fill="none" stroke="{colour[p]}" stroke-width="2.2" '
            f'stroke-linejoin="round"/>{dots}</g>'
        )
    for i, p in enumerate(order):
        y = TOP + 10 + 20 * i
        x = LEFT + plot_w + 18
        out.append(
            f'<line x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x + 22)}" y2="{_f(y)}" '
            f'stroke="{colour[p]}" stroke-width="3"/>'
        )
        out.append(text(x + 28, y + 4, f"{p}  {decimal(ratings.players[i].ordinal, 1)}", size=12))
    out.append(
        text(
            LEFT + plot_w / 2,
            HEIGHT - 6,
            _("rating = mu - 3 sigma; higher is better"),
            size=10,
            fill="#666666",
            anchor="middle",
        )
    )
    label = f"{title}: " + ", ".join(
        f"{p.player} {decimal(p.ordinal, 1)}" for p in ratings.players
    )
    return document(0, 0, width, HEIGHT, "".join(out), label)


def history_chart_bytes(ratings: Ratings, kind: str) -> bytes:
    """The history chart as an ``svg`` or ``png`` file's bytes (PNG: the charts extra)."""
    svg = history_svg(ratings)
    if kind == "svg":
        return svg.encode("utf-8")
    from cf.render.chart import ChartError

    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError):
        raise ChartError(png_needs_extra()) from None
    return bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=1.5))
