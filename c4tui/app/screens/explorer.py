"""The opening explorer (key ``E``): the games database's moves in the viewed position.

One row per move played there: its games, White/draw/Black %, and the exact value the
analysis panel shows (the exact worker's, while it has it). Enter plays the move on the
board (the explorer follows), backspace goes back a ply, ``g`` lists the games through the
position and opens one. The database is ``c4tui db``'s (c4tui/db/); the explorer never
makes one, and says how to when there is none. Lookups are one index search each (well
under a millisecond), so they run on the UI thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.markup import escape
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Label

from c4tui import db
from c4tui.bounded import shown
from c4tui.engine.board.position import Position
from c4tui.engine.scores import score_in_words
from c4tui.gamefile import Game

from .modal import OnceModalScreen

COLUMNS = ("move", "games", "White", "draw", "Black", "exact")
GAME_COLUMNS = ("#", "result", "White", "Black", "moves", "from")
CELL = 60  #: the most characters of a name or a source in the games' table
#: How often the explorer looks for the exact values it is still missing.
EXACT_POLL = 0.25


@dataclass(frozen=True)
class ExplorerLinks:
    """What the explorer asks of the app: the viewed position, its exact column values
    (None: not known yet, or hidden), and the moves the user makes in it."""

    position: Callable[[], Position]
    exact: Callable[[Position], tuple[int | None, ...] | None]
    play: Callable[[int], object]
    back: Callable[[], None]
    open_game: Callable[[Game], None]


class ExplorerScreen(OnceModalScreen[None]):
    """The explorer over the main screen; escape closes it."""

    DEFAULT_CSS = """
    ExplorerScreen {
        align: center middle;
    }
    #explorer {
        width: 100%;
        max-width: 80;
        height: auto;
        max-height: 100%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    #explorer-table {
        height: auto;
        max-height: 14;
    }
    #explorer-help {
        color: $text-muted;
        width: 100%;
    }
    """

    AUTO_FOCUS = "#explorer-table"
    BINDINGS = [
        Binding("escape", "close", "close"),
        Binding("backspace", "back", "back a ply"),
        Binding("g", "games", "games here"),
    ]

    def __init__(self, links: ExplorerLinks, path: Path | None = None) -> None:
        super().__init__()
        self.links = links
        self.path = (path or db.default_path()).expanduser()
        self.conn: sqlite3.Connection | None = None
        self.error = ""
        self.shown: Position | None = None  #: the position the table is of
        self.stats: db.PositionStats | None = None
        self._exact: tuple[int | None, ...] | None = None
        #: which filling of the table a row key belongs to: enters in a burst are all
        #: selected before the first move redraws it, and a stale row must not play
        self._filling = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="explorer"):
            yield Label("", id="explorer-title")
            table: DataTable[str] = DataTable(id="explorer-table", cursor_type="row",
                                              zebra_stripes=True)
            self._exact_column = table.add_columns(*COLUMNS)[-1]
            yield table
            yield Label("", id="explorer-help")

    def on_mount(self) -> None:
        try:
            self.conn = db.connect(self.path, readonly=True)
        except db.DatabaseError as exc:
            self.error = str(exc) if self.path.exists() else (
                f"no games database at {self.path}: import games with "
                "'c4tui db import FILES'")
        self.show()
        self._timer = self.set_interval(EXACT_POLL, self._poll)

    def on_unmount(self) -> None:
        if self.conn is not None:
            self.conn.close()

    # ------------------------------------------------------------------ drawing
    def show(self) -> None:
        """Fill the table for the viewed position."""
        pos = self.links.position().copy()
        self.shown, self._exact = pos, self.links.exact(pos)
        table = self.query_one(DataTable)
        table.clear()
        self._filling += 1
        where = pos.digits() or "the empty board"
        title = self.query_one("#explorer-title", Label)
        help_line = self.query_one("#explorer-help", Label)
        if self.conn is None:
            title.update("Opening explorer: no games database")
            help_line.update(Text(f"{shown(self.error, None)}   esc: close"))
            return
        try:
            self.stats = stats = db.explore(self.conn, pos)
        except sqlite3.Error as exc:
            title.update(f"Opening explorer: {where}")
            help_line.update(Text(f"{shown(f'{self.path}: cannot read ({exc})', None)}"
                                  "   esc: close"))
            return
        t = stats.total
        title.update(f"Opening explorer: {where}: {t.games:,} games, White "
                     f"{t.percent(t.white):.0f}% draw {t.percent(t.draws):.0f}% Black "
                     f"{t.percent(t.black):.0f}%")
        for m in stats.moves:
            name = f"{m.col + 1}" + (f"={m.twin + 1}" if m.twin is not None else "")
            table.add_row(name, f"{m.games:,}", f"{m.percent(m.white):.0f}%",
                          f"{m.percent(m.draws):.0f}%", f"{m.percent(m.black):.0f}%",
                          self._exact_text(m.col), key=self._row_key(m.col))
        help_line.update("enter: play   backspace: back   g: games here   esc: close"
                         if stats.moves else
                         "no game went on from here   backspace: back   g: games   esc: close")

    def _exact_text(self, col: int) -> str:
        if self._exact is None or self.shown is None or self._exact[col] is None:
            return ""
        score = self._exact[col]
        assert score is not None
        return score_in_words(score, self.shown.ply)

    def _poll(self) -> None:
        """The position changed behind the explorer (the engine moved), or exact values
        arrived: draw them."""
        pos = self.links.position()
        if self.shown is None or pos.key() != self.shown.key() or pos.ply != self.shown.ply:
            self.show()
            return
        exact = self.links.exact(pos)
        if exact != self._exact and self.stats is not None:
            self._exact = exact
            table = self.query_one(DataTable)
            for m in self.stats.moves:
                table.update_cell(self._row_key(m.col), self._exact_column,
                                  self._exact_text(m.col), update_width=True)

    def _row_key(self, col: int) -> str:
        return f"{self._filling}:{col}"

    # ------------------------------------------------------------------ keys
    @on(DataTable.RowSelected, "#explorer-table")
    def _walk(self, event: DataTable.RowSelected) -> None:
        if self.dismissed or event.row_key.value is None:
            return
        filling, col = event.row_key.value.split(":")
        if int(filling) != self._filling:  # a row of a position left since
            return
        self.links.play(int(col))
        self.show()

    def action_back(self) -> None:
        self.links.back()
        self.show()

    def action_games(self) -> None:
        if self.conn is None or self.shown is None:
            return
        games = db.games_through(self.conn, self.shown, limit=500)

        def chosen(game: db.StoredGame | None) -> None:
            if game is None:
                return
            self.links.open_game(Game(Position.from_moves(game.moves), game.headers))
            self.dismiss(None)

        self.app.push_screen(PositionGamesScreen(self.shown, games), chosen)

    def action_close(self) -> None:
        self.dismiss(None)


class PositionGamesScreen(OnceModalScreen["db.StoredGame | None"]):
    """The database's games through a position (the first 500); enter opens one."""

    DEFAULT_CSS = """
    PositionGamesScreen {
        align: center middle;
    }
    #pgames {
        width: 100%;
        max-width: 110;
        height: 100%;
        max-height: 24;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    #pgames-table {
        height: 1fr;
    }
    """

    AUTO_FOCUS = "#pgames-table"
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, pos: Position, games: list[db.StoredGame]) -> None:
        super().__init__()
        self.pos, self.games = pos, games

    def compose(self) -> ComposeResult:
        with Vertical(id="pgames"):
            yield Label(f"Games through {self.pos.digits() or 'the empty board'} "
                        "(or its mirror image)")
            table: DataTable[str] = DataTable(id="pgames-table", cursor_type="row",
                                              zebra_stripes=True)
            table.add_columns(*GAME_COLUMNS)
            for i, g in enumerate(self.games):
                # the database's rows: text from game files, shown by the one rule and
                # escaped for markup (a str cell is read as markup)
                source = shown(g.source, None)  # its end names the file: cut at its start
                source = source if len(source) <= CELL else "…" + source[1 - CELL:]
                table.add_row(str(g.id), g.result_token,
                              *(escape(shown(text, CELL)) for text in (
                                  g.headers.get("White", "?"), g.headers.get("Black", "?"),
                                  g.moves)), escape(source), key=str(i))
            yield table
            yield Label(f"{len(self.games)} games   enter: open   esc: close")

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        if not self.dismissed:
            self.dismiss(self.games[int(event.row_key.value or 0)])

    def action_cancel(self) -> None:
        self.dismiss(None)
