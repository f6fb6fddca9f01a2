"""The evaluation graph: a chart of the game, one column per ply, and a way to move in it.

White's bars stand on a zero axis, Black's hang below it; a left-hand legend says which
side is which (``W`` above, ``B`` below), so the chart reads without colour. Exact values
(the solver's, a finished game) are solid blocks whose height grows with the nearness of
the win; the search's values are light shade ``░`` (a lean, not a proof). On the axis
``=`` is an exact draw, ``~`` a level search value, ``·`` a ply not evaluated yet; the
viewed ply is a vertical line ``│`` through the chart, ``┼`` on the axis.

Drawn with block characters rather than textual-plotext: at the few rows the graph has
at 80x24, plotext's bars cover whole rows only, several plies share one bar, and the zero
line disappears under the bars (docs/user-guide.md).
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.board.geometry import HALF, MAX_SCORE

from ..messages import PlyClicked
from ..styles import EMPTY_STYLE, PLAYER_STYLE

#: Eighths of a cell, from the axis outward: White's stand on it; Black's hang from it (a
#: reversed lower block of 8 - k eighths shows k eighths at the top).
RISE = " ▁▂▃▄▅▆▇█"
HANG = ("█", "▇", "▆", "▅", "▄", "▃", "▂", "▁", " ")
SEARCH_GLYPH = "░"
AXIS, AXIS_VIEWED, NOT_EVALUATED, EXACT_DRAW, SEARCH_LEVEL = "─", "┼", "·", "=", "~"
VIEWED = "│"
#: An exact value's bar is at least this share of its half: a short one reads as a bar.
MIN_EXACT = 0.35
LEGEND = ("W", "B")
AXIS_STYLE = "#9a9a9a"
#: The scale (values and words) instead of the legend from this many rows; its width.
SCALE_ROWS, SCALE_W = 7, 16


def scale_label(f: float, side: int) -> str:
    """The scale's words for a row whose top is ``f`` of its half, ``side``'s (0: White):
    the value, then the winner's disc that makes the four, or a lean (a search's value)."""
    value = f"{f if side == 0 else -f:+.2f}"
    player = LEGEND[side]
    if f < MIN_EXACT:
        return f"{value} {player} lean"
    disc = HALF + 1 - round((f - MIN_EXACT) / (1 - MIN_EXACT) * MAX_SCORE)
    return f"{value} {player} disc {min(HALF, disc)}"


def cells(v: float | None, exact: bool, above: int, below: int) -> list[tuple[str, str]]:
    """The glyph and style of one ply's column, top row first (``above`` rows, the axis,
    ``below`` rows); ``v`` in [-1, 1] from White's view, None: not evaluated."""
    col: list[tuple[str, str]] = [(" ", "")] * (above + 1 + below)
    if v is None:
        col[above] = (NOT_EVALUATED, EMPTY_STYLE)
        return col
    if abs(v) < 1e-9:
        col[above] = (EXACT_DRAW, AXIS_STYLE) if exact else (SEARCH_LEVEL, AXIS_STYLE)
        return col
    col[above] = (AXIS, AXIS_STYLE)
    side = 0 if v > 0 else 1
    rows = above if side == 0 else below
    style = PLAYER_STYLE[side]
    if not exact:  # a lean: shaded cells, as many as its height takes (at least one)
        n = max(1, min(rows, round(abs(v) * rows)))
        for i in range(n):
            col[above - 1 - i if side == 0 else above + 1 + i] = (SEARCH_GLYPH, style)
        return col
    eighths = max(1, min(8 * rows, round(abs(v) * 8 * rows)))
    for i in range(rows):
        k = max(0, min(8, eighths - 8 * i))
        if k == 0:
            break
        if side == 0:
            col[above - 1 - i] = (RISE[k], style)
        else:  # hanging: the top k eighths in the player's colour
            col[above + 1 + i] = (HANG[k], style + (" reverse" if k < 8 else ""))
    return col


class EvalGraph(Widget, can_focus=True):
    """The app sets ``values`` (per ply, [-1, 1] from White's view, None: not evaluated
    yet), ``exact`` (per ply: the value is exact) and ``ply`` (the viewed one). A click
    on a ply, or ←/→/home/end while the graph has focus, posts :class:`PlyClicked`.
    ``hidden``: play mode's hints are off."""

    DEFAULT_CSS = """
    EvalGraph {
        text-wrap: nowrap;
        text-overflow: clip;
    }
    """

    BINDINGS = [
        Binding("left", "step(-1)", "previous ply", show=False),
        Binding("right", "step(1)", "next ply", show=False),
        Binding("home", "jump(0)", "first ply", show=False),
        Binding("end", "jump(-1)", "last ply", show=False),
    ]

    values: reactive[tuple[float | None, ...]] = reactive(tuple)
    exact: reactive[tuple[bool, ...]] = reactive(tuple)
    ply: reactive[int] = reactive(0)
    hidden: reactive[bool] = reactive(False)

    @property
    def legend_width(self) -> int:
        """The columns left of the chart: the scale's with room for it, else the legend's."""
        return SCALE_W if self.size.height >= SCALE_ROWS else 1

    def _window(self) -> tuple[int, int]:
        """(first ply shown, plies shown): the plies around the viewed one when the game
        is longer than the chart is wide (the legend takes a column)."""
        width = max(1, self.size.width - self.legend_width)
        n = len(self.values)
        if n <= width:
            return 0, n
        return max(0, min(self.ply - width // 2, n - width)), width

    def ply_at(self, x: int) -> int | None:
        """The ply drawn at column ``x`` of the widget (None: the legend, past the end)."""
        start, shown = self._window()
        i = x - self.legend_width
        return start + i if 0 <= i < shown else None

    def on_click(self, event: events.Click) -> None:
        ply = self.ply_at(event.x - self.gutter.left)
        if ply is not None:
            self.post_message(PlyClicked(ply))

    def action_step(self, delta: int) -> None:
        self.action_jump(max(0, self.ply + delta))

    def action_jump(self, ply: int) -> None:
        last = max(0, len(self.values) - 1)
        ply = last if ply < 0 else min(ply, last)
        if ply != self.ply:
            self.post_message(PlyClicked(ply))

    def render(self) -> Text:
        vals = self.values
        out = Text(no_wrap=True, overflow="crop")
        if self.hidden:
            return out.append("evaluations hidden", style="dim")
        if not vals:
            out.append("no evaluations yet", style="dim")
            return out
        height = max(1, self.size.height)
        above = (height - 1) // 2
        below = height - 1 - above
        start, shown = self._window()
        columns = []
        for ply in range(start, start + shown):
            exact = ply < len(self.exact) and self.exact[ply]
            col = cells(vals[ply], exact, above, below)
            if ply == self.ply:
                col = [(VIEWED, "bold") if g == " " else (g, s + " bold") for g, s in col]
                if col[above][0] == AXIS or col[above][0] == NOT_EVALUATED:
                    col[above] = (AXIS_VIEWED, "bold")
            columns.append(col)
        for row in range(above + 1 + below):
            if row:
                out.append("\n")
            self._legend(out, row, above, below)
            for col in columns:
                out.append(*col[row])
        return out

    def _legend(self, out: Text, row: int, above: int, below: int) -> None:
        """The chart's left column at ``row``: ``W``/``B``/``0``, or the scale's row."""
        if self.legend_width > 1:
            side = 0 if row < above else 1
            if row == above:
                out.append(f"{'0 draw / level':<{SCALE_W - 1}}┼", style=AXIS_STYLE)
                return
            k = above - row if side == 0 else row - above  # rows from the axis
            text = scale_label(k / (above if side == 0 else below), side)
            out.append(f"{text:<{SCALE_W - 1}}", style=PLAYER_STYLE[side])
            out.append("┤", style=AXIS_STYLE)
            return
        legend = LEGEND[0] if row == 0 and above else \
            LEGEND[1] if row == above + below and below else \
            "0" if row == above else " "
        out.append(legend, style=PLAYER_STYLE[0] if legend == "W" else
                   PLAYER_STYLE[1] if legend == "B" else "dim")
