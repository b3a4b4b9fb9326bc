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
import os
from collections.abc import Sequence
from dataclasses import dataclass

from cf.errors import Error
from cf.i18n import _, ngettext
from cf.record.standings import GameStandings
from cf.render.svg import _f, document, text
from cf.text import xml_attr, xml_text

#: Line colours, one per player in order of first appearance (then again from the start).
COLOURS = (
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
    "#17becf", "#7f7f7f", "#bcbd22",
)  # fmt: skip


class ChartError(Error, ValueError):
    """A chart that cannot be made: an unknown file type, or PNG without the extra."""


def png_needs_extra() -> str:
    """The error of a PNG chart without the ``charts`` extra, in the reader's language."""
    return _(
        "a PNG chart needs the charts extra: pip install 'chickenfoot[charts]' "
        "(or write an .svg chart)"
    )


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


@dataclass(frozen=True, slots=True)
class _Frame:
    """The chart's geometry: the picture's size, the plot area's, and the scales."""

    width: float
    height: float
    left: float
    top: float
    plot_w: float
    plot_h: float
    count: int  # rounds along the x axis
    step: int  # between grid lines
    y_max: float

    def px(self, i: float) -> float:
        """The x of round index ``i`` (0..count-1, round i+1), centred in its slot."""
        return self.left + self.plot_w * (i + 0.5) / max(self.count, 1)

    def py(self, v: float) -> float:
        """The y of a running total ``v``."""
        return self.top + self.plot_h * (1 - v / self.y_max)


def _frame(series: Sequence[Series], rounds: Sequence[int]) -> _Frame:
    """The geometry for ``series`` over ``rounds`` rounds: wider for more rounds (up to a
    limit), the y axis up to a round step above the highest total."""
    count = sum(rounds)
    width = min(max(420.0, 24.0 * count), 960.0) + 56 + 190
    height = 380.0
    left, top, right, bottom = 56.0, 40.0, 190.0, 56.0
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max((t for s in series for t in s.totals if t is not None), default=0)
    step = _step(peak)
    y_max = max(step * math.ceil(peak / step), step)
    return _Frame(width, height, left, top, plot_w, plot_h, count, step, y_max)


def chart_svg(
    series: Sequence[Series],
    files: Sequence[str],
    rounds: Sequence[int],
    game_title: str | None = None,
) -> str:
    """The line chart: x the rounds (games one after another), y the running total. One
    game is named by ``game_title`` (its ``title:``) where it has one, else by its file's
    name (as the replay page names it)."""
    f = _frame(series, rounds)
    out = [f'<rect x="0" y="0" width="{_f(f.width)}" height="{_f(f.height)}" fill="#ffffff"/>']
    name = game_title or (os.path.basename(files[0]) if files else "")
    n = len(files)
    if n == 1:
        title = _("Running totals: {game}").format(game=name)
    else:
        title = ngettext("Running totals of {n} game", "Running totals of {n} games", n)
        title = title.format(n=n)
    out.append(text(f.left, 24, title, size=16, weight="bold"))
    out += _y_axis(f)
    out += _x_axis(f, files, rounds)
    out.append(
        f'<rect x="{_f(f.left)}" y="{_f(f.top)}" width="{_f(f.plot_w)}" height="{_f(f.plot_h)}" '
        'fill="none" stroke="#444444"/>'
    )
    ranked = sorted(series, key=lambda s: (_final(s) is None, _final(s) or 0))
    for i, s in enumerate(series):
        out.append(_series_lines(f, s, COLOURS[i % len(COLOURS)]))
    out += _legend(f, series, ranked)
    out.append(
        text(
            f.left + f.plot_w / 2,
            f.height - 6,
            _("lower is better"),
            size=10,
            fill="#666666",
            anchor="middle",
        )
    )
    label = f"{title}: " + ", ".join(
        f"{s.player} {_final(s)}" for s in ranked if _final(s) is not None
    )
    return document(0, 0, f.width, f.height, "".join(out), label)


def _y_axis(f: _Frame) -> list[str]:
    """The horizontal grid lines and the y axis's numbers."""
    out = []
    for v in range(0, int(f.y_max) + 1, f.step):
        y = f.py(v)
        out.append(
            f'<line x1="{_f(f.left)}" y1="{_f(y)}" x2="{_f(f.left + f.plot_w)}" y2="{_f(y)}" '
            'stroke="#dddddd" stroke-width="1"/>'
        )
        out.append(text(f.left - 6, y + 4, str(v), size=11, anchor="end"))
    return out


def _x_axis(f: _Frame, files: Sequence[str], rounds: Sequence[int]) -> list[str]:
    """The x axis: round labels (every one, or every 2nd or 5th for many) and, for more
    than one game, each game's file name under its rounds and a dashed line between games."""
    out = []
    every = 1 if f.count <= 26 else 2 if f.count <= 60 else 5
    start = 0
    for file, n in zip(files, rounds, strict=True):
        for k in range(n):
            if (k + 1) % every == 0 or k == 0:
                out.append(
                    text(
                        f.px(start + k),
                        f.top + f.plot_h + 16,
                        _("R{round}").format(round=k + 1),
                        size=10,
                        anchor="middle",
                    )
                )
        if len(files) > 1:
            out += _game_label(f, file, start, n)
        start += n
    return out


def _game_label(f: _Frame, file: str, start: int, n: int) -> list[str]:
    """A game's file name under its ``n`` rounds from ``start``, after a dashed line that
    parts it from the game before (none before the first)."""
    out = []
    if start:
        x0 = f.left + f.plot_w * start / max(f.count, 1)
        out.append(
            f'<line x1="{_f(x0)}" y1="{_f(f.top)}" x2="{_f(x0)}" y2="{_f(f.top + f.plot_h)}" '
            'stroke="#999999" stroke-dasharray="4 3"/>'
        )
    name = file.rsplit("/", 1)[-1]
    out.append(
        text(f.px(start + (n - 1) / 2), f.top + f.plot_h + 34, name, size=10, anchor="middle")
    )
    return out


def _runs(f: _Frame, totals: Sequence[int | None]) -> list[list[tuple[float, float]]]:
    """The points of ``totals``, one list for each stretch of games played (the line breaks
    where the player sits out)."""
    runs: list[list[tuple[float, float]]] = [[]]
    for k, t in enumerate(totals):
        if t is None:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append((f.px(k), f.py(t)))
    return [run for run in runs if run]


def _series_lines(f: _Frame, s: Series, colour: str) -> str:
    """One player's lines and a dot at each round played, grouped and titled by name."""
    points = [(f.px(k), f.py(t)) for k, t in enumerate(s.totals) if t is not None]
    lines = "".join(
        '<polyline points="'
        + " ".join(f"{_f(x)},{_f(y)}" for x, y in run)
        + f'" fill="none" stroke="{colour}" stroke-width="2.2" stroke-linejoin="round"/>'
        for run in _runs(f, s.totals)
    )
    return (
        f'<g class="series" data-player={xml_attr(s.player)}><title>{xml_text(s.player)}</title>'
        + lines
        + "".join(
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="2.6" fill="{colour}"/>' for x, y in points
        )
        + "</g>"
    )


def _legend(f: _Frame, series: Sequence[Series], ranked: Sequence[Series]) -> list[str]:
    """The legend right of the plot, lowest total (the leader) first: each player's colour,
    name and final total."""
    out = []
    for i, s in enumerate(ranked):
        colour = COLOURS[series.index(s) % len(COLOURS)]
        y = f.top + 10 + 20 * i
        x = f.left + f.plot_w + 18
        out.append(
            f'<line x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x + 22)}" y2="{_f(y)}" stroke="{colour}" '
            'stroke-width="3"/>'
        )
        final = _final(s)
        out.append(text(x + 28, y + 4, f"{s.player}  {'-' if final is None else final}", size=12))
    return out


def _final(s: Series) -> int | None:
    return next((t for t in reversed(s.totals) if t is not None), None)


def chart_bytes(games: Sequence[GameStandings], kind: str, title: str | None = None) -> bytes:
    """The chart of ``games`` (one game: called ``title``, if given) as an ``svg`` or
    ``png`` file's bytes."""
    svg = chart_svg(*running_totals(games), title)
    if kind == "svg":
        return svg.encode("utf-8")
    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError):
        raise ChartError(png_needs_extra()) from None
    return bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=1.5))


def check_png() -> None:
    """A :class:`ChartError` unless PNG can be written (the charts extra): asked before a
    command prints anything, so that it fails whole."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        raise ChartError(png_needs_extra()) from None


def chart_kind(path: str) -> str:
    """``svg`` or ``png`` by the file's extension; anything else is a :class:`ChartError`."""
    kind = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if kind not in ("svg", "png"):
        raise ChartError(_("{path}: a chart is written as .svg or .png").format(path=path))
    return kind
