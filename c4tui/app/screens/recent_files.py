"""The recent files (key ``O``): the last games opened or saved, newest first."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Label

from c4tui.bounded import shown

from .modal import OnceModalScreen


class RecentFilesScreen(OnceModalScreen[Path | None]):
    """Returns the chosen file (enter, or a click on the highlighted row), None on escape.

    A file that is gone is listed as *missing*; choosing it anyway gives the usual
    one-line error of opening it.
    """

    DEFAULT_CSS = """
    RecentFilesScreen {
        align: center middle;
    }
    #recent {
        width: 76;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    #recent-table {
        height: auto;
        max-height: 14;
    }
    #recent-help {
        color: $text-muted;
    }
    """

    AUTO_FOCUS = "#recent-table"
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, files: list[Path]) -> None:
        super().__init__()
        self.files = files

    def compose(self) -> ComposeResult:
        with Vertical(id="recent"):
            yield Label("Recent files", id="recent-title")
            table: DataTable[str] = DataTable(id="recent-table", cursor_type="row",
                                              zebra_stripes=True)
            # the state before the folder: a long folder cannot push "missing" out of
            # sight (80 columns), and is cut at its start, where it says least
            table.add_columns("file", "", "folder")
            for i, path in enumerate(self.files):
                # a name by the one rule, and not markup ("[b]" in it stays "[b]")
                table.add_row(escape(shown(path.name)), _state(path),
                              escape(_folder(path.parent, FOLDER_ROOM)), key=str(i))
            table.display = bool(self.files)
            yield table
            yield Label("enter: open   esc: close" if self.files
                        else "no recent files yet (they appear after o or s)   esc: close",
                        id="recent-help")

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        if not self.dismissed:  # a second enter or click may already be queued
            self.dismiss(self.files[int(event.row_key.value or 0)])

    def action_cancel(self) -> None:
        self.dismiss(None)


#: Cells for the folder column in the 76-column box (the name and the state take the rest).
FOLDER_ROOM = 40


def _folder(folder: Path, room: int) -> str:
    """``folder`` in ``room`` cells: the home directory as ``~``, a longer one cut at its
    start (``…/games/2026``)."""
    text = shown(str(folder), None)  # a folder's name is not ours: the one rule
    home = shown(str(Path.home()), None)
    if home not in ("", "/") and (text == home or text.startswith(home + "/")):
        text = "~" + text[len(home):]
    return text if len(text) <= room else "…" + text[len(text) - room + 1:]


def _state(path: Path) -> str:
    try:
        return "" if path.is_file() else "missing"
    except (OSError, ValueError):
        return "missing"
