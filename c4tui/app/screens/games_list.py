"""The games in the data directory (key ``G``): a table, newest first."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Label

from c4tui.bounded import shown
from c4tui.gamelist import COLUMNS, GameEntry, list_games

from .modal import OnceModalScreen


class GamesScreen(OnceModalScreen[Path | None]):
    """Returns the chosen game's path (enter, or a click on the highlighted row), None on
    escape. The files are read in a thread: a large directory never holds up the keys."""

    DEFAULT_CSS = """
    GamesScreen {
        align: center middle;
    }
    #games {
        width: 100%;
        max-width: 110;
        height: 100%;
        max-height: 30;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    #games-table {
        height: 1fr;
    }
    #games-help {
        color: $text-muted;
    }
    """

    AUTO_FOCUS = "#games-table"
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, directory: Path) -> None:
        super().__init__()
        self.directory = directory
        self.entries: list[GameEntry] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="games"):
            yield Label(Text(f"Games in {shown(str(self.directory))}"), id="games-title")
            table: DataTable[str] = DataTable(id="games-table", cursor_type="row",
                                              zebra_stripes=True)
            table.add_columns(*COLUMNS)
            yield table
            yield Label("reading the games...", id="games-help")

    def on_mount(self) -> None:
        self._read()

    @work(thread=True, exit_on_error=False)
    def _read(self) -> None:
        entries = list_games(self.directory)
        self.app.call_from_thread(self._fill, entries)

    def _fill(self, entries: list[GameEntry]) -> None:
        if not self.is_attached:  # closed before the files were read
            return
        self.entries = entries
        table = self.query_one(DataTable)
        for i, entry in enumerate(entries):
            # cells() escapes the names and headers by the one rule; a str cell is read
            # as markup, so "[b]" in one is escaped for it too
            table.add_row(*(escape(cell) for cell in entry.cells()), key=str(i))
        help_text = (f"{len(entries)} games, newest first   enter: open   esc: close"
                     if entries else "no games here yet (s saves one)   esc: close")
        self.query_one("#games-help", Label).update(help_text)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        if not self.dismissed:  # a second enter or click may already be queued
            self.dismiss(self.entries[int(event.row_key.value or 0)].path)

    def action_cancel(self) -> None:
        self.dismiss(None)
