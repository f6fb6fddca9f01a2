"""The position-setup dialog's board: a grid of squares the user fills disc by disc.

Unlike the main board it has no gravity and no game: any square takes a White disc, a
Black one or nothing (the dialog then says whether a game reaches the grid). Keys: the
arrows move the cursor, ``x`` and ``o`` put a disc, ``space`` (or ``delete``) empties the
square; a click cycles a square through empty, White, Black.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.board.geometry import COLUMN_NAMES, HEIGHT, WIDTH
from c4tui.engine.board.position import Position

from ..styles import DISC, EMPTY_STYLE, PLAYER_STYLE

#: One square's width in cells, and the columns left of the grid (the row numbers).
CELL, MARGIN = 3, 2
#: A square: None (empty), 0 (a White disc) or 1 (a Black disc); the grid: columns of
#: squares, bottom first.
Grid = tuple[tuple[int | None, ...], ...]
EMPTY_GRID: Grid = tuple((None,) * HEIGHT for _ in range(WIDTH))


def grid_of(pos: Position) -> Grid:
    """The squares of ``pos``."""
    return tuple(tuple(pos.cell(c, r) for r in range(HEIGHT)) for c in range(WIDTH))


class SetupGrid(Widget, can_focus=True):
    """Posts :class:`SetupGrid.Changed` after every edit."""

    BINDINGS = [
        Binding("left", "move(-1, 0)", "left", show=False),
        Binding("right", "move(1, 0)", "right", show=False),
        Binding("up", "move(0, 1)", "up", show=False),
        Binding("down", "move(0, -1)", "down", show=False),
        Binding("x", "put(0)", "White disc"),
        Binding("o", "put(1)", "Black disc"),
        Binding("space", "put(-1)", "empty"),
        Binding("delete", "put(-1)", "empty", show=False),
    ]

    grid: reactive[Grid] = reactive(EMPTY_GRID)
    cursor: reactive[tuple[int, int]] = reactive((WIDTH // 2, 0))

    class Changed(Message):
        """The grid was edited by the user."""

    def render(self) -> Text:
        text = Text()
        cc, cr = self.cursor if self.has_focus else (-1, -1)
        for row in range(HEIGHT - 1, -1, -1):
            text.append(f"{row + 1} ", style=EMPTY_STYLE)
            for col in range(WIDTH):
                owner = self.grid[col][row]
                glyph = "·" if owner is None else DISC[owner]
                style = EMPTY_STYLE if owner is None else PLAYER_STYLE[owner]
                if (col, row) == (cc, cr):
                    text.append(f"[{glyph}]", style=f"{style} reverse")
                else:
                    text.append(f" {glyph} ", style=style)
            text.append("\n")
        text.append(" " * MARGIN + "".join(f" {COLUMN_NAMES[c]} " for c in range(WIDTH)),
                    style=EMPTY_STYLE)
        return text

    def get_content_width(self, container: object, viewport: object) -> int:
        return MARGIN + CELL * WIDTH

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return HEIGHT + 1

    def action_move(self, dc: int, dr: int) -> None:
        col, row = self.cursor
        self.cursor = ((col + dc) % WIDTH, (row + dr) % HEIGHT)

    def action_put(self, owner: int) -> None:
        col, row = self.cursor
        self._set(col, row, None if owner < 0 else owner)

    def on_click(self, event: events.Click) -> None:
        col, row = (event.x - MARGIN) // CELL, HEIGHT - 1 - event.y
        if event.x < MARGIN or not (0 <= col < WIDTH and 0 <= row < HEIGHT):
            return
        self.cursor = (col, row)
        owner = self.grid[col][row]
        self._set(col, row, 0 if owner is None else 1 if owner == 0 else None)

    def _set(self, col: int, row: int, owner: int | None) -> None:
        column = list(self.grid[col])
        column[row] = owner
        self.grid = self.grid[:col] + (tuple(column),) + self.grid[col + 1:]
        self.post_message(self.Changed())

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
