"""The search log: one row per iteration of the iterative deepening, the last one live."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.board.position import Position
from c4tui.engine.seam import Snapshot

from ...report.log_rows import COLUMNS, MIN_PV, NARROW, Row, iteration_rows

#: The compact form, for a log too narrow for every column (80x24 with the threat panel
#: or the search path beside it): every number of each row but its window, time and PV,
#: which a last line gives for the last row shown (scrolling back moves it).
COMPACT = (("d", 5), ("re", 3), ("score", 5), ("nodes", 5), ("n/s", 5), ("hit", 4),
           ("fill", 4))


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
        hidden = self.row_count - self._room()
        self.back = max(0, min(self.back + rows, hidden))

    def watch_back(self, back: int) -> None:
        self.border_subtitle = f"↓ {back} more (end)" if back else ""  # later rows

    @property
    def row_count(self) -> int:
        snap = self.snapshot
        return 0 if snap is None else len(iteration_rows(self.position, snap))

    def _room(self) -> int:
        """The rows of iterations shown: the height less the header (and the compact
        form's last line)."""
        detailed = self._columns(max(10, self.size.width))[1]
        return max(1, self.size.height - 1 - detailed)

    def _columns(self, width: int) -> tuple[list[tuple[str, int]], bool]:
        """The columns that fit ``width`` cells, and whether the last line details the
        last row: every column and a PV; else the compact form; else (narrower still)
        depth, score, nodes, time and a PV."""
        if sum(w + 1 for _, w in COLUMNS) + MIN_PV <= width:
            return list(COLUMNS), False
        if sum(w + 1 for _, w in COMPACT) - 1 <= width:
            return list(COMPACT), True
        return [c for c in COLUMNS if c[0] in NARROW], False

    @staticmethod
    def _detail(row: Row, width: int) -> str:
        """The compact form's last line: the window (or the live row's state), the time
        and the PV of ``row``: ``└ [476,478] 293ms d5 d6 e1…``."""
        cells = [row.cells.get("window", ""), row.cells.get("time", "")]
        head = "└ " + " ".join(c for c in cells if c)
        return head + " " + fit_pv(row.pv, width - len(head) - 1) if row.pv else head

    def render(self) -> Text:
        width = max(10, self.size.width)
        cols, detailed = self._columns(width)
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
        room = self._room()
        back = max(0, min(self.back, len(rows) - room))
        end = len(rows) - back
        shown = rows[max(0, end - room):end]
        for i, row in enumerate(shown):
            style = "bold yellow" if row.live else ("" if i % 2 else "on #1e1e28")
            out.append("\n")
            line = "".join(f"{row.cells.get(name, ''):>{w}} " for name, w in cols)
            line += "" if detailed else fit_pv(row.pv, width - len(line))
            out.append(f"{line:<{width}}", style=style)
        if detailed and shown:
            out.append("\n" + self._detail(shown[-1], width), style="dim")
        return out
