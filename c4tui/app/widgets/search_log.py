"""The search log: one row per iteration of the iterative deepening, the last one live."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.position import Position
from c4tui.engine.seam import Snapshot

from ..log_rows import COLUMNS, MIN_PV, NARROW, iteration_rows


def fit_pv(pv: str, room: int) -> str:
    """``pv`` (moves separated by spaces) in ``room`` cells: cut after a whole move, with
    ``…`` saying that more follows."""
    if len(pv) <= room:
        return pv
    cut = pv[: max(0, room - 1)]
    if " " in cut and pv[len(cut)] != " ":
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip() + "…"


class SearchLog(Widget, can_focus=True):
    """The app sets ``position`` and ``snapshot`` (None: no search of this position), and
    ``hidden`` (play mode's hints are off: the header and a line that says so). It shows
    the last rows; focused (``tab``), ↑ ↓ page up/down home end scroll back through them,
    as does the mouse wheel. Like a terminal: new rows keep the view at the bottom, unless
    it was scrolled back; then the rows shown stay where they are."""

    BINDINGS = [
        Binding("up", "scroll_rows(1)", "earlier rows", show=False),
        Binding("down", "scroll_rows(-1)", "later rows", show=False),
        Binding("pageup", "scroll_rows(5)", "earlier rows", show=False),
        Binding("pagedown", "scroll_rows(-5)", "later rows", show=False),
        Binding("home", "scroll_rows(1000)", "first row", show=False),
        Binding("end", "scroll_rows(-1000)", "last row", show=False),
    ]

    DEFAULT_CSS = """
    SearchLog {
        text-wrap: nowrap;
        text-overflow: clip;
    }
    """

    position: reactive[Position] = reactive(Position)
    snapshot: reactive[Snapshot | None] = reactive(None)
    hidden: reactive[bool] = reactive(False)
    back: reactive[int] = reactive(0)  #: rows scrolled back from the last one

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self._rows = 0  #: the rows the view was drawn with (to hold it when more come)

    def watch_position(self) -> None:
        self.back = 0  # another position's search: from its last row
        self._rows = 0

    def watch_snapshot(self) -> None:
        """Rows added below a view scrolled back push it no further from its rows."""
        rows = self.row_count
        if self.back and rows > self._rows:
            self.back += rows - self._rows
        self._rows = rows

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.action_scroll_rows(1)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.action_scroll_rows(-1)

    def action_scroll_rows(self, rows: int) -> None:
        """Scroll ``rows`` back (negative: forward), within the rows there are."""
        hidden = self.row_count - max(1, self.size.height - 1)
        self.back = max(0, min(self.back + rows, hidden))

    def watch_back(self, back: int) -> None:
        self.border_subtitle = f"↓ {back} more (end)" if back else ""  # later rows

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
        back = max(0, min(self.back, len(rows) - room))
        end = len(rows) - back
        for i, row in enumerate(rows[max(0, end - room):end]):
            style = "bold yellow" if row.live else ("" if i % 2 else "on #1e1e28")
            out.append("\n")
            line = "".join(f"{row.cells.get(name, ''):>{w}} " for name, w in cols)
            line += fit_pv(row.pv, width - len(line))
            out.append(f"{line:<{width}}", style=style)
        return out
