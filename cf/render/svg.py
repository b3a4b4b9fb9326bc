"""SVG pictures of dominoes and of the table (``cf show --format svg``).

A tile is drawn as python-chess draws a board: plain SVG elements, no library. Pips follow
the layouts of real sets: 0 to 6 as on dice, 7 to 9 in three columns of three, and from
there a column of four, five or six pips each side with the rest down the middle (10 to 12
as double-twelve sets draw them, 13 to 18 the same way). With ``colour``, every number has
its own pip colour, as in double-twelve and larger sets.

>>> svg = tile_svg(Tile(9, 7))
>>> svg.startswith("<svg") and svg.count("<circle") == 16
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cf.i18n import N_, _, tr
from cf.render.layout import Layout, PlacedTile
from cf.render.table import Table
from cf.text import xml_attr, xml_text
from cf.tiles import Tile

#: Pixels per half-tile (a tile is 2 by 1 half-tiles).
UNIT = 28
#: Pip colours by number, for ``colour`` pictures (0 has no pips).
PIP_COLOURS = (
    "#000000", "#1e88e5", "#2e7d32", "#c62828", "#6d4c41", "#f9a825", "#8e24aa",
    "#00897b", "#283593", "#ef6c00", "#ad1457", "#558b2f", "#37474f", "#0277bd",
    "#d84315", "#4e342e", "#7b1fa2", "#00695c", "#b71c1c",
)  # fmt: skip
FACE = "#fffdf5"
EDGE = "#444444"
BACK = "#5b6f8a"
INK = "#222222"
#: The chicken yard's line under the hands (the replay page's script writes it too).
YARD = N_("Chicken yard: {yard} ({drawable} to draw)")


def pip_positions(n: int) -> list[tuple[float, float]]:
    """Where the ``n`` pips of a half go, in a unit square centred on (0, 0).

    >>> len(pip_positions(12)), pip_positions(1)
    (12, [(0.0, 0.0)])
    """
    if n <= 0:
        return []
    if n <= 5:
        c = 0.25
        dice: dict[int, list[tuple[float, float]]] = {
            1: [(0.0, 0.0)],
            2: [(-c, -c), (c, c)],
            3: [(-c, -c), (0.0, 0.0), (c, c)],
            4: [(-c, -c), (c, -c), (-c, c), (c, c)],
            5: [(-c, -c), (c, -c), (0.0, 0.0), (-c, c), (c, c)],
        }
        return dice[n]
    rows = max(3, -(-n // 3))  # 6-9: 3 rows, 10-12: 4, 13-15: 5, 16-18: 6
    middle = n - 2 * rows
    span = 0.34 if rows <= 3 else 0.38
    col = 0.25

    def row_y(i: float) -> float:
        return -span + 2 * span * i / (rows - 1)

    pips = [(-col, row_y(i)) for i in range(rows)] + [(col, row_y(i)) for i in range(rows)]
    if middle == 1:
        pips.append((0.0, 0.0))
    elif middle > 1:
        pips += [(0.0, row_y(i * (rows - 1) / (middle - 1))) for i in range(middle)]
    return pips


def _pip_radius(n: int) -> float:
    if n <= 9:
        return 0.085
    if n <= 12:
        return 0.07
    return 0.055


def _half(n: int, cx: float, colour: bool) -> str:
    r = _pip_radius(n) * UNIT
    fill = PIP_COLOURS[n % len(PIP_COLOURS)] if colour else "#111111"
    return "".join(
        f'<circle cx="{_f(cx + x * UNIT)}" cy="{_f(y * UNIT)}" r="{_f(r)}" fill="{fill}"/>'
        for x, y in pip_positions(n)
    )


def _f(v: float) -> str:
    """A coordinate, short: 2 decimals at most."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def tile_body(first: int, second: int, *, colour: bool = False, extra: str = "") -> str:
    """A tile's elements in its own frame: centred on (0, 0), long side along x, ``first``
    on the left. ``extra`` is added to the group's attributes."""
    w, h = 2 * UNIT, UNIT
    inset = 1.5
    return (
        f"<g{extra}>"
        f'<rect x="{_f(-w / 2 + inset)}" y="{_f(-h / 2 + inset)}" width="{_f(w - 2 * inset)}" '
        f'height="{_f(h - 2 * inset)}" rx="{_f(UNIT * 0.16)}" fill="{FACE}" stroke="{EDGE}" '
        'stroke-width="1.2"/>'
        f'<line x1="0" y1="{_f(-h / 2 + UNIT * 0.18)}" x2="0" y2="{_f(h / 2 - UNIT * 0.18)}" '
        f'stroke="{EDGE}" stroke-width="1"/>'
        f"{_half(first, -UNIT / 2, colour)}{_half(second, UNIT / 2, colour)}</g>"
    )


def tile_svg(tile: Tile, *, colour: bool = False, scale: float = 1.0, inline: bool = False) -> str:
    """One tile on its own, high half on the left, as a small standalone SVG (``inline``:
    for inside an HTML page, which needs no namespace)."""
    w, h = 2 * UNIT, UNIT
    ns = "" if inline else ' xmlns="http://www.w3.org/2000/svg"'
    return (
        f'<svg{ns} width="{_f(w * scale)}" '
        f'height="{_f(h * scale)}" viewBox="{_f(-w / 2)} {_f(-h / 2)} {w} {h}" role="img" '
        f'aria-label="{tile}"><title>{tile}</title>'
        f"{tile_body(tile.high, tile.low, colour=colour)}</svg>"
    )


def back_body(extra: str = "") -> str:
    """A face-down tile (an unseen one) in its own frame."""
    w, h = 2 * UNIT, UNIT
    return (
        f'<g{extra}><rect x="{_f(-w / 2 + 1.5)}" y="{_f(-h / 2 + 1.5)}" width="{_f(w - 3)}" '
        f'height="{_f(h - 3)}" rx="{_f(UNIT * 0.16)}" fill="{BACK}" stroke="{EDGE}" '
        'stroke-width="1.2"/></g>'
    )


def placed_svg(t: PlacedTile, *, colour: bool = False, extra: str = "") -> str:
    """One tile of a layout, where it lies (the near half towards the tile it touches)."""
    x, y = t.x * UNIT, t.y * UNIT
    if t.crosswise:
        first = second = t.near
        rotation = t.long_axis
    else:
        first, second = t.near, t.far
        rotation = t.angle
    title = f"<title>{xml_text(_by(t))}</title>"
    body = tile_body(first, second, colour=colour)
    if t.role == "starter":  # the round's double, set apart by a gold edge
        body = body.replace(
            f'stroke="{EDGE}" stroke-width="1.2"', 'stroke="#b8860b" stroke-width="3"', 1
        )
    line = ""
    if t.detached:  # joined to the place it belongs, which was taken
        ax, ay = t.anchor[0] * UNIT, t.anchor[1] * UNIT
        line = (
            f'<line x1="{_f(ax)}" y1="{_f(ay)}" x2="{_f(x)}" y2="{_f(y)}" stroke="{EDGE}" '
            'stroke-width="1.5" stroke-dasharray="4 3"/>'
        )
    return (
        f'{line}<g class="tile" data-tile="{t.tile}"{extra} '
        f'transform="translate({_f(x)} {_f(y)}) rotate({_f(rotation)})">{title}{body}</g>'
    )


def _by(t: PlacedTile) -> str:
    """A placed tile's tooltip: the tile and the move that put it there."""
    if t.role == "starter":
        return _("{tile} (starter)").format(tile=t.tile)
    return _("{tile} (move {move}, {player})").format(
        tile=t.tile, move=t.move, player=t.player or "?"
    )


def board_elements(
    tiles: Iterable[PlacedTile], *, colour: bool = False, tag_moves: bool = False
) -> str:
    """The tiles of a layout as SVG elements; with ``tag_moves``, each carries
    ``data-move`` (the move that placed it), for a page that shows them one by one."""
    out = []
    for t in tiles:
        extra = f' data-move="{t.move}"' if tag_moves else ""
        if tag_moves and t.detached:
            out.append(f'<g data-move="{t.move}">{placed_svg(t, colour=colour)}</g>')
        else:
            out.append(placed_svg(t, colour=colour, extra=extra))
    return "".join(out)


def bounds_px(layout: Layout, margin: float = 0.6) -> tuple[float, float, float, float]:
    """The layout's box in pixels, with a margin: ``(x, y, width, height)``."""
    x0, y0, x1, y1 = layout.bounds()
    for t in layout.tiles:  # a detached tile's line starts at its anchor
        if t.detached:
            x0, x1 = min(x0, t.anchor[0]), max(x1, t.anchor[0])
            y0, y1 = min(y0, t.anchor[1]), max(y1, t.anchor[1])
    m = margin
    return (
        (x0 - m) * UNIT,
        (y0 - m) * UNIT,
        (x1 - x0 + 2 * m) * UNIT,
        (y1 - y0 + 2 * m) * UNIT,
    )


def hand_row(tiles: Sequence[Tile], unseen: int, x: float, y: float, *, colour: bool,
             per_row: int = 6, scale: float = 0.6) -> tuple[str, float]:  # fmt: skip
    """A hand as small tiles from (x, y), ``per_row`` to a row, then the unseen ones face
    down. Returns the elements and the height used."""
    out = []
    w, h = 2 * UNIT * scale, UNIT * scale
    step_x, step_y = w + 4, h + 4
    items: list[Tile | None] = [*tiles, *([None] * unseen)]
    for i, t in enumerate(items):
        cx = x + (i % per_row) * step_x + w / 2
        cy = y + (i // per_row) * step_y + h / 2
        frame = f' transform="translate({_f(cx)} {_f(cy)}) scale({scale})"'
        if t is None:
            out.append(back_body(frame + ' class="unseen"'))
        else:
            out.append(
                f'<g class="hand-tile" data-tile="{t}"><title>{t}</title>'
                f"{tile_body(t.high, t.low, colour=colour, extra=frame)}</g>"
            )
    rows = -(-len(items) // per_row) if items else 1
    return "".join(out), rows * step_y


def text(x: float, y: float, content: str, *, size: int = 14, weight: str = "normal",
         fill: str = INK, anchor: str = "start") -> str:  # fmt: skip
    """A line of text (``content`` is escaped)."""
    return (
        f'<text x="{_f(x)}" y="{_f(y)}" font-family="sans-serif" font-size="{size}" '
        f'font-weight="{weight}" fill="{fill}" text-anchor="{anchor}">{xml_text(content)}</text>'
    )


def document(x: float, y: float, width: float, height: float, body: str, label: str) -> str:
    """A standalone SVG document sized to its content."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
        f'viewBox="{_f(x)} {_f(y)} {_f(width)} {_f(height)}" role="img" '
        f"aria-label={xml_attr(label)}><title>{xml_text(label)}</title>{body}</svg>\n"
    )


def table_svg(table: Table, *, colour: bool = False) -> str:
    """``cf show --format svg``: the table drawn, the hands beside it, sized to fit."""
    board, layout = table.board, table.layout
    bx, by, bw, bh = bounds_px(layout)
    head = 54.0
    panel_x = bx + bw + 24
    panel_w = 6 * (2 * UNIT * 0.6 + 4) + 16
    parts = [board_elements(layout.tiles, colour=colour), _open_marks(layout)]
    # The header: which round and move, and what the board needs.
    title = _("Round {round}, after move {move} of {moves}").format(
        round=table.round_number, move=table.moves, moves=table.log_length
    )
    parts.append(text(bx, by - head + 20, title, size=17, weight="bold"))
    parts.append(text(bx, by - head + 40, _status(table), size=13))
    # The hands, one block each, then the chicken yard.
    y = by
    nxt = table.next_player
    for p in board.players:
        h = board.hands[p]
        label = f"{p} ({h.size})" + ("  " + _("← to play") if p == nxt else "")
        parts.append(
            text(panel_x, y + 13, label, size=14, weight="bold" if p == nxt else "normal")
        )
        row, used = hand_row(
            sorted(h.known, reverse=True), h.unseen, panel_x, y + 20, colour=colour
        )
        parts.append(row)
        y += 20 + used + 10
    parts.append(text(panel_x, y + 13, yard_line(board.yard, board.drawable), size=13))
    y += 24
    stopped = ""
    if table.problem is not None:
        stop = table.problem
        stopped = tr(stop.message)
        parts.append(
            text(
                bx,
                max(by + bh, y) + 18,
                (
                    _("Log not replayed: [{code}] {message}")
                    if stop.move is None
                    else _("Stopped at move {move}: [{code}] {message}")
                ).format(move=stop.move, code=stop.code, message=stopped),
                size=13,
                fill="#b00020",
            )
        )
        y = max(by + bh, y) + 30 - by
    height = max(bh, y - by) + head + 8
    width = panel_x + panel_w - bx
    if table.problem is not None:
        width = max(width, 7.2 * len(stopped) + 200)
    background = (
        f'<rect x="{_f(bx)}" y="{_f(by - head)}" width="{_f(width)}" height="{_f(height)}" '
        'fill="#eef3ea"/>'
    )
    label = f"{title}: {_status(table)}"
    return document(bx, by - head, width, height, background + "".join(parts), label)


def _open_marks(layout: Layout) -> str:
    """A green dot at each open end; a dashed ring at each free place of the starter or
    of the open foot: where the next tiles can go."""
    return "".join(mark_svg(x * UNIT, y * UNIT, n, end) for x, y, n, end in layout.free_places())


def mark_svg(x: float, y: float, number: int, open_end: bool) -> str:
    """The mark of one place where a tile can go (see :func:`_open_marks`)."""
    if open_end:
        title = _("open end: {number}").format(number=number)
        return (
            f'<circle class="open-end" cx="{_f(x)}" cy="{_f(y)}" r="4.5" fill="#2e7d32" '
            f'stroke="#ffffff" stroke-width="1"><title>{xml_text(title)}</title></circle>'
        )
    title = _("free place: a {number} goes here").format(number=number)
    return (
        f'<circle class="free-place" cx="{_f(x)}" cy="{_f(y)}" r="5" fill="none" '
        'stroke="#2e7d32" stroke-width="1.5" stroke-dasharray="2 2">'
        f"<title>{xml_text(title)}</title></circle>"
    )


def yard_line(yard: int, drawable: int) -> str:
    """``Chicken yard: 10 (6 to draw)``, in the reader's language."""
    return _(YARD).format(yard=yard, drawable=drawable)


def _status(table: Table) -> str:
    board = table.board
    ends = " ".join(str(n) for n in board.ends()) or _("none")
    if board.arms < board.arms_needed:
        need = _("starter {starter}: {arms} of {needed} arms").format(
            starter=board.starter, arms=board.arms, needed=board.arms_needed
        )
    elif board.pending is not None:
        d = board.pending
        need = _("foot open on {double}: {toes} of 3 toes").format(
            double=f"{d}-{d}", toes=board.toes
        )
    else:
        need = _("open ends {ends}").format(ends=ends)
    if table.over == "out":
        return _("{status} · {player} went out").format(status=need, player=board.winner)
    if table.over == "blocked":
        return _("{status} · blocked").format(status=need)
    if table.next_player:
        return _("{status} · {player} to play").format(status=need, player=table.next_player)
    return need
