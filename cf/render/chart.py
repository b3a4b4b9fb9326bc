"""``cf tally --chart``: each player's running total, round by round, as a line chart.

The chart is SVG written here, by hand, like the board pictures: a line chart is a few
dozen elements, and writing them costs no start-up and no dependency (matplotlib takes
about half a second to import, and its SVG would differ from the board's style). A PNG
is the same SVG rasterised by CairoSVG, the optional ``charts`` extra
(``pip install 'chickenfoot[charts]'``).

>>> s = Series("Ana", (0, 5, 5))
>>> svg = chart_svg([s], ["g.yaml"], [3])
>>> svg.count("<polyline"), "Ana" in svg
(1, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from cf.errors import Error
from cf.record.standings import GameStandings
from cf.render.svg import _f, document, text

#: Line colours, one per player in order of first appearance (then again from the start).
COLOURS = (
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
    "#17becf", "#7f7f7f", "#bcbd22",
)  # fmt: skip


class ChartError(Error, ValueError):
    """A chart that cannot be made: an unknown file type, or PNG without the extra."""


@dataclass(frozen=True, slots=True)
class Series:
    """One player's running total after each round of the games charted (``None`` in the
    rounds of a game the player did not play)."""

    player: str
    totals: tuple[int | None, ...]


def running_totals(games: Sequence[GameStandings]) -> tuple[list[Series], list[str], list[int]]:
    """Each player's running total over the rounds of ``games`` one after another (a
    player who sits out a game has ``None`` there, and carries the total on to the next
    game played). Also each game's file and number of rounds.

    >>> from cf.record.standings import game_standings
    >>> g = game_standings("g.yaml", ["Ana", "Ben"], [{"Ana": 5, "Ben": 0}, {"Ana": 1, "Ben": 9}])
    >>> [(s.player, s.totals) for s in running_totals([g])[0]]
    [('Ana', (5, 6)), ('Ben', (0, 9))]
    """
    order: list[str] = []
    for g in games:
        order += [p for p in g.seating if p not in order]
    totals: dict[str, list[int | None]] = {p: [] for p in order}
    running: dict[str, int | None] = dict.fromkeys(order)
    for g in games:
        rows = {r.player: r for r in g.rows}
        for k in range(g.rounds_played):
            for p in order:
                if p in rows:
                    running[p] = (running[p] or 0) + rows[p].rounds[k]
                    totals[p].append(running[p])
                else:
                    totals[p].append(None)
    series = [Series(p, tuple(totals[p])) for p in order]
    return series, [g.file for g in games], [g.rounds_played for g in games]


def _step(top: float) -> int:
    """A round step (1, 2 or 5 times a power of ten) for about six grid lines up to ``top``."""
    raw = max(top, 1) / 6
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return max(int(m * power), 1)
    return int(10 * power)  # pragma: no cover


def chart_svg(series: Sequence[Series], files: Sequence[str], rounds: Sequence[int]) -> str:
    """The line chart: x the rounds (games one after another), y the running total."""
    count = sum(rounds)
    width = min(max(420.0, 24.0 * count), 960.0) + 56 + 190
    height = 380.0
    left, top, right, bottom = 56.0, 40.0, 190.0, 56.0
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max((t for s in series for t in s.totals if t is not None), default=0)
    step = _step(peak)
    y_max = max(step * math.ceil(peak / step), step)

    def px(i: float) -> float:  # round index 0..count-1 (round i+1), centred in its slot
        return left + plot_w * (i + 0.5) / max(count, 1)

    def py(v: float) -> float:
        return top + plot_h * (1 - v / y_max)

    out = [f'<rect x="0" y="0" width="{_f(width)}" height="{_f(height)}" fill="#ffffff"/>']
    title = "Running totals" + (f": {files[0]}" if len(files) == 1 else f" of {len(files)} games")
    out.append(text(left, 24, title, size=16, weight="bold"))
    for v in range(0, int(y_max) + 1, step):  # grid and the y axis
        y = py(v)
        out.append(
            f'<line x1="{_f(left)}" y1="{_f(y)}" x2="{_f(left + plot_w)}" y2="{_f(y)}" '
            'stroke="#dddddd" stroke-width="1"/>'
        )
        out.append(text(left - 6, y + 4, str(v), size=11, anchor="end"))
    start = 0
    for file, n in zip(files, rounds, strict=True):  # the x axis: rounds, by game
        for k in range(n):
            every = 1 if count <= 26 else 2 if count <= 60 else 5
            if (k + 1) % every == 0 or k == 0:
                out.append(
                    text(px(start + k), top + plot_h + 16, f"R{k + 1}", size=10, anchor="middle")
                )
        if len(files) > 1:
            x0 = left + plot_w * start / max(count, 1)
            if start:
                out.append(
                    f'<line x1="{_f(x0)}" y1="{_f(top)}" x2="{_f(x0)}" y2="{_f(top + plot_h)}" '
                    'stroke="#999999" stroke-dasharray="4 3"/>'
                )
            name = file.rsplit("/", 1)[-1]
            out.append(
                text(px(start + (n - 1) / 2), top + plot_h + 34, name, size=10, anchor="middle")
            )
        start += n
    out.append(
        f'<rect x="{_f(left)}" y="{_f(top)}" width="{_f(plot_w)}" height="{_f(plot_h)}" '
        'fill="none" stroke="#444444"/>'
    )
    ranked = sorted(series, key=lambda s: (_final(s) is None, _final(s) or 0))
    for i, s in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        points = [(px(k), py(t)) for k, t in enumerate(s.totals) if t is not None]
        runs: list[list[tuple[float, float]]] = [[]]  # a line for each stretch of games played
        for k, t in enumerate(s.totals):
            if t is None:
                if runs[-1]:
                    runs.append([])
            else:
                runs[-1].append((px(k), py(t)))
        lines = "".join(
            '<polyline points="'
            + " ".join(f"{_f(x)},{_f(y)}" for x, y in run)
            + f'" fill="none" stroke="{colour}" stroke-width="2.2" stroke-linejoin="round"/>'
            for run in runs
            if run
        )
        out.append(
            f'<g class="series" data-player="{escape(s.player)}"><title>{escape(s.player)}</title>'
            + lines
            + "".join(
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="2.6" fill="{colour}"/>' for x, y in points
            )
            + "</g>"
        )
    for i, s in enumerate(ranked):  # the legend, lowest total (the leader) first
        colour = COLOURS[series.index(s) % len(COLOURS)]
        y = top + 10 + 20 * i
        x = left + plot_w + 18
        out.append(
            f'<line x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x + 22)}" y2="{_f(y)}" stroke="{colour}" '
            'stroke-width="3"/>'
        )
        final = _final(s)
        out.append(text(x + 28, y + 4, f"{s.player}  {'-' if final is None else final}", size=12))
    out.append(
        text(
            left + plot_w / 2,
            height - 6,
            "lower is better",
            size=10,
            fill="#666666",
            anchor="middle",
        )
    )
    label = f"{title}: " + ", ".join(
        f"{s.player} {_final(s)}" for s in ranked if _final(s) is not None
    )
    return document(0, 0, width, height, "".join(out), label)


def _final(s: Series) -> int | None:
    return next((t for t in reversed(s.totals) if t is not None), None)


def chart_bytes(games: Sequence[GameStandings], kind: str) -> bytes:
    """The chart of ``games`` as an ``svg`` or ``png`` file's bytes."""
    svg = chart_svg(*running_totals(games))
    if kind == "svg":
        return svg.encode("utf-8")
    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError):
        raise ChartError(
            "a PNG chart needs the charts extra: pip install 'chickenfoot[charts]' "
            "(or write an .svg chart)"
        ) from None
    return bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=1.5))


def chart_kind(path: str) -> str:
    """``svg`` or ``png`` by the file's extension; anything else is a :class:`ChartError`."""
    kind = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if kind not in ("svg", "png"):
        raise ChartError(f"{path}: a chart is written as .svg or .png")
    return kind
