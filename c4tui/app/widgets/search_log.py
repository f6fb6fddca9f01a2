"""The search log: one row per iteration of the iterative deepening, the last one live."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.position import Position
from c4tui.engine.seam import Snapshot

from ..log_rows import COLUMNS, MIN_PV, NARROW, iteration_rows


class SearchLog(Widget):
    """The app sets ``position`` and ``snapshot`` (None: no search of this position), and
    ``hidden`` (play mode's hints are off: the header and a line that says so)."""

    DEFAULT_CSS = """
    SearchLog {
        text-wrap: nowrap;
        text-overflow: clip;
    }
    """

    position: reactive[Position] = reactive(Position)
    snapshot: reactive[Snapshot | None] = reactive(None)
    hidden: reactive[bool] = reactive(False)

    @property
    def row_count(self) -> int:
        snap = self.snapshot
        return 0 if snap is None else len(iteration_rows(self.position, snap))

    def render(self) -> Text:
        width = max(10, self.size.width)
        cols = [c for c in COLUMNS if c[0] in NARROW] \
            if sum(w + 1 for _, w in COLUMNS) + MIN_PV > width else list(COLUMNS)
        out = Text(no_wrap=True, overflow="crop")
        for name, w in cols:
            out.append(f"{name:>{w}} ", style="bold")
        out.append("pv", style="bold")
        snap = self.snapshot
        if self.hidden:
            return out.append("\nhidden: h shows the hints", style="dim")
        if snap is None:
            return out
        rows = iteration_rows(self.position, snap)
        room = max(1, self.size.height - 1)
        for i, row in enumerate(rows[-room:]):
            style = "bold yellow" if row.live else ("" if i % 2 else "on #1e1e28")
            out.append("\n")
            line = "".join(f"{row.cells.get(name, ''):>{w}} " for name, w in cols)
            line += row.pv
            out.append(f"{line:<{width}}", style=style)
        return out
