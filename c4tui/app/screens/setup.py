"""Position setup (key ``S``): a position typed or clicked, checked, then a new game.

The dialog's grid (widgets/setup_grid.py) takes discs anywhere; the line under it says at
once whether a game reaches the grid (no floating disc, White with as many discs as Black
or one more, no four but one made by the last move) and, if so, a move order that does
(the UGI FEN's reader finds it: c4tui/ugi/fen.py). The line above takes a position as text:
moves (``4453``, ``d1 d2``, ``0:3342``), a connect4.gamesolver.org link, or a FEN; enter
shows it on the grid. Enter on the grid returns the position: the typed
one's own moves while the grid is as typed, else the move order found.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from c4tui.engine.board.geometry import HEIGHT, WIDTH
from c4tui.engine.board.position import PLAYER_NAMES, Position, is_link
from c4tui.ugi.fen import DISC, FenError, parse_fen

from ...report.text import plural
from ..widgets.prompt import LineInput
from ..widgets.setup_grid import Grid, SetupGrid, grid_of
from .modal import OnceModalScreen


def grid_fen(grid: Grid) -> str:
    """The FEN's board field of ``grid`` (no side to move: the discs say it)."""
    ranks = []
    for row in range(HEIGHT - 1, -1, -1):
        rank, empty = "", 0
        for col in range(WIDTH):
            owner = grid[col][row]
            if owner is None:
                empty += 1
                continue
            rank += (str(empty) if empty else "") + DISC[owner]
            empty = 0
        ranks.append(rank + (str(empty) if empty else ""))
    return "/".join(ranks)


def read_grid(grid: Grid) -> Position:
    """A game's position with these squares; :class:`FenError` saying why none reaches
    them (the FEN's words, without its ``fen:``)."""
    try:
        return parse_fen(grid_fen(grid))
    except FenError as exc:
        raise FenError(str(exc).removeprefix("fen: ")) from None


def read_text(text: str) -> Position:
    """A typed position: moves, a link, a 0-based string (Position.parse) or a FEN;
    ``ValueError`` saying what is wrong."""
    stripped = text.strip()
    if "/" in stripped and not is_link(stripped):
        return parse_fen(stripped)
    return Position.parse(stripped)


def describe(pos: Position) -> str:
    """The check's line for a reachable position."""
    if pos.is_over:
        state = "the game is over" + (f" ({PLAYER_NAMES[pos.winner]} won)"
                                      if pos.winner is not None else " (a draw)")
    else:
        state = f"{PLAYER_NAMES[pos.to_move]} to move"
    return f"ok: {plural(pos.ply, 'disc')}, {state}; a game: {pos.digits() or 'no moves'}"


class SetupScreen(OnceModalScreen[Position | None]):
    """Returns the position set up, or None on escape."""

    BINDINGS = [
        Binding("escape", "cancel", "cancel"),
        Binding("enter", "accept", "set up"),
        Binding("ctrl+l", "clear", "empty board"),
    ]
    DEFAULT_CSS = """
    SetupScreen { align: center middle; }
    #setup { width: 72; height: auto; border: round $accent; padding: 0 1;
             background: $surface; }
    #setup-grid { width: auto; height: auto; margin: 1 0 0 0; }
    #setup-input { width: 100%; height: 1; border: none; padding: 0 1; }
    #setup-check { width: 100%; }
    .setup-help { color: $text-muted; }
    """

    def __init__(self, position: Position) -> None:
        super().__init__()
        self.start = position.copy()
        self.typed: Position | None = position.copy()  # while the grid shows it
        self.checked: Position | None = self.typed

    def compose(self) -> ComposeResult:
        with Vertical(id="setup"):
            yield Label("Set up a position", id="setup-title")
            yield LineInput(value=self.start.digits(), id="setup-input",
                            placeholder="4453, d1 d2, 0:3342, a gamesolver link or a FEN")
            yield Label("typed: enter shows it on the grid", classes="setup-help")
            yield SetupGrid(id="setup-grid")
            yield Label("", id="setup-check")
            yield Label("arrows: square  x: White ●  o: Black ○  space: empty  click: "
                        "cycles\nctrl+l: clear  tab: the text  enter: set up  esc: cancel",
                        classes="setup-help")

    def on_mount(self) -> None:
        grid = self.query_one(SetupGrid)
        grid.grid = grid_of(self.start)
        grid.focus()
        self._show(describe(self.start))

    @property
    def check_line(self) -> str:
        """What the check's line says now."""
        return str(self.query_one("#setup-check", Label).render())

    def _show(self, text: str) -> None:
        self.query_one("#setup-check", Label).update(text)

    # ------------------------------------------------------------------ edits
    @on(SetupGrid.Changed)
    def _grid_changed(self) -> None:
        self.typed = None  # the grid is the user's now
        try:
            self.checked = read_grid(self.query_one(SetupGrid).grid)
        except FenError as exc:
            self.checked = None
            self._show(f"not reachable: {exc}")
            return
        self._show(describe(self.checked))

    @on(Input.Submitted, "#setup-input")
    def _typed(self, event: Input.Submitted) -> None:
        try:
            pos = read_text(event.value)
        except ValueError as exc:  # IllegalMoveError, FenError: one line each
            self._show(f"not a position: {exc}")
            self.app.bell()
            return
        self.typed = self.checked = pos
        grid = self.query_one(SetupGrid)
        grid.grid = grid_of(pos)
        grid.focus()
        self._show(describe(pos) + " (enter sets it up)")

    def action_clear(self) -> None:
        grid = self.query_one(SetupGrid)
        grid.grid = grid_of(Position())
        self._grid_changed()

    # ------------------------------------------------------------------ the answer
    def action_accept(self) -> None:
        if self.dismissed:
            return
        if self.checked is None:
            self.app.bell()  # the check's line says why
            return
        self.dismiss(self.typed if self.typed is not None else self.checked)

    def action_cancel(self) -> None:
        self.dismiss(None)

