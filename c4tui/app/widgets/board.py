"""The board: discs, labels, cursor, last move, winning four, threats, move values, the
best move; drawn as it is or mirrored (the last column on the left)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.board.geometry import COLUMN_NAMES, HEIGHT, WIDTH, square_bit
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Score

from ..messages import ColumnChosen, CursorMoved
from ..styles import (
    BIG,
    DISC,
    EMPTY_STYLE,
    FOUR,
    GHOST,
    LAST,
    PLAYER_DIM,
    PLAYER_STYLE,
    THREAT_MARK,
    score_style,
)
from .board_size import CELL_W, GUTTER


@dataclass(frozen=True)
class BestMove:
    """The engine's best columns (0-based; several when exact values tie) and where that
    comes from: ``"exact"`` (the solver) or ``"search"`` (the analysis search's move)."""

    columns: tuple[int, ...]
    source: str


#: The best move's marker above its column and its landing square's background.
BEST_MARK, BEST_STYLE, BEST_SQUARE = "▼", "bold #58a6ff", " on #1f3f5f"


def threat_squares(pos: Position) -> dict[tuple[int, int], tuple[bool, bool]]:
    """Threat squares of both players: (col, row) -> (White threatens, Black threatens)."""
    white, black = pos.threats(0), pos.threats(1)
    out: dict[tuple[int, int], tuple[bool, bool]] = {}
    for c in range(WIDTH):
        for r in range(HEIGHT):
            bit = square_bit(c, r)
            if (white | black) & bit:
                out[(c, r)] = (bool(white & bit), bool(black & bit))
    return out


class BoardView(Widget, can_focus=True):
    """The board (any size; 7x6 by default). The app sets ``position`` (a copy),
    ``values`` (the value of each move for the side to move, None: unknown or full) and
    ``solving``, and ``best`` (:class:`BestMove`, drawn while ``show_best``). It owns the
    cursor keys: ← → move the cursor, enter (or a click on a column) posts
    :class:`ColumnChosen`. ``flipped`` mirrors the drawing (column g on the left): the
    cursor keys and clicks follow what is drawn, columns keep their names."""

    DEFAULT_CSS = """
    BoardView {
        text-wrap: nowrap;
        text-overflow: clip;
    }
    """

    position: reactive[Position] = reactive(Position, always_update=True)
    values: reactive[tuple[Score | None, ...]] = reactive(tuple)
    solving: reactive[bool] = reactive(False)  #: the exact values are being computed
    cursor: reactive[int] = reactive(WIDTH // 2)
    show_threats: reactive[bool] = reactive(False)
    big: reactive[bool] = reactive(False)  #: 6-column, 2-line cells for large terminals
    #: a line previewed from ``position``: ghost discs numbered in the line's order (the
    #: game is not changed)
    preview: reactive[tuple[int, ...]] = reactive(tuple)
    flipped: reactive[bool] = reactive(False)  #: mirrored: column g on the left
    best: reactive[BestMove | None] = reactive(None)
    show_best: reactive[bool] = reactive(False)  #: the best move marked (key b)
    #: the why view's rule squares (key w): (col, row, letter, style), a later one drawn
    #: over an earlier on a shared square
    why_marks: reactive[tuple[tuple[int, int, str, str], ...]] = reactive(tuple)

    BINDINGS = [
        Binding("left", "cursor(-1)", "cursor left", show=False),
        Binding("right", "cursor(1)", "cursor right", show=False),
        Binding("enter", "choose", "play cursor column", show=False),
    ]

    def action_cursor(self, delta: int) -> None:
        """Move the cursor ``delta`` columns to the right as drawn."""
        self.cursor = (self.cursor + (-delta if self.flipped else delta)) % WIDTH

    def action_choose(self) -> None:
        self.post_message(ColumnChosen(self.cursor))

    @property
    def cell_w(self) -> int:
        return 6 if self.big else CELL_W

    @property
    def order(self) -> list[int]:
        """The columns from left to right as drawn."""
        cols = list(range(WIDTH))
        return cols[::-1] if self.flipped else cols

    @property
    def marked(self) -> tuple[int, ...]:
        """The best columns drawn now (none: off, unknown, or a preview on the board)."""
        best = self.best
        return best.columns if self.show_best and best is not None and not self.preview \
            else ()

    # layout: the row gutter, then cell_w columns per board column
    def _col_at(self, x: int) -> int | None:
        i = (x - GUTTER) // self.cell_w
        return self.order[i] if 0 <= i < WIDTH and x >= GUTTER else None

    def on_click(self, event: events.Click) -> None:
        col = self._col_at(event.x - self.gutter.left)
        if col is not None:
            self.cursor = col
            self.post_message(ColumnChosen(col))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        col = self._col_at(event.x - self.gutter.left)
        if col is not None and col != self.cursor:
            self.cursor = col

    def watch_cursor(self, col: int) -> None:
        self.post_message(CursorMoved(col))

    def _ghosts(self) -> tuple[dict[tuple[int, int], tuple[str, str]], set[tuple[int, int]]]:
        """(col, row) -> (glyph, style) of the previewed line's discs: the owner's disc
        and the move's number (``●1 ○2``), so they read without colour; the last one
        reversed. And the squares of a four the line completes (drawn ``◆``/``◇``)."""
        p = self.position.copy()
        placed: list[tuple[int, int, int]] = []
        for col in self.preview:
            if p.is_over or not p.can_play(col):
                break
            placed.append((col, p.height(col), p.to_move))
            p.play(col)
        four = set(p.winning_four())
        out = {}
        for n, (col, row, player) in enumerate(placed, start=1):
            glyph, style = DISC[player], PLAYER_DIM[player] + " italic"
            if (col, row) in four:
                glyph, style = FOUR[player], style + " on #1f6f3a"
            if n == len(placed):
                style += " reverse"
            out[(col, row)] = (f"{glyph}{n}", style)
        return out, four

    def _threat_cell(self, col: int, row: int, owners: tuple[bool, bool],
                     acute: bool) -> tuple[str, str]:
        letter = "o" if row % 2 == 0 else "e"  # row 1 is odd
        if owners[0] and owners[1]:
            return ("X" if acute else "x"), "bold magenta" + (" reverse" if acute else "")
        player = 0 if owners[0] else 1
        style = PLAYER_STYLE[player] + (" reverse" if acute else "")
        return (letter.upper() if acute else letter) + THREAT_MARK[player], style

    def _cells(self) -> list[list[tuple[str, str, int | None]]]:
        """Rows top-down of (glyph, style, owner or None) per column."""
        pos = self.position
        last = None
        if pos.history:
            c = pos.history[-1]
            last = (c, pos.height(c) - 1)
        four = set(pos.winning_four())
        best = {(c, pos.height(c)) for c in self.marked}
        threats = threat_squares(pos) if self.show_threats else {}
        rules = {(c, r): (letter, style) for c, r, letter, style in self.why_marks}
        playable = pos.possible_squares()
        ghosts: dict[tuple[int, int], tuple[str, str]] = {}
        if self.preview:
            ghosts, ghost_four = self._ghosts()
            four |= ghost_four
        rows = []
        for r in range(HEIGHT - 1, -1, -1):
            row: list[tuple[str, str, int | None]] = []
            for c in range(WIDTH):
                owner = pos.cell(c, r)
                if owner is not None:
                    style, glyph = PLAYER_STYLE[owner], DISC[owner]
                    if (c, r) in four:
                        style, glyph = style + " on #1f6f3a", FOUR[owner]
                    elif (c, r) == last:
                        style, glyph = style + " on #3a3a4a", LAST[owner]
                    row.append((glyph, style, owner))
                    continue
                acute = bool(playable & square_bit(c, r))
                t = threats.get((c, r))
                if (c, r) in ghosts:
                    row.append((*ghosts[(c, r)], None))
                elif (c, r) in rules:  # (over a threat: the why view was asked for)
                    row.append((*rules[(c, r)], None))
                elif t is not None:
                    row.append((*self._threat_cell(c, r, t, acute), None))
                elif c == self.cursor and acute and not pos.is_over and not ghosts:
                    row.append((GHOST, PLAYER_DIM[pos.to_move], None))
                else:
                    row.append(("·", EMPTY_STYLE, None))
                if (c, r) in best:
                    glyph, style, _ = row[-1]
                    row[-1] = (glyph, style + BEST_SQUARE, None)
            rows.append(row)
        return rows

    def _marker_line(self) -> Text:
        """The line above the column names: the best move's marker over each best column,
        and its source (``exact`` or ``search``) beside them."""
        cw, width = self.cell_w, GUTTER + WIDTH * self.cell_w
        at = [GUTTER + i * cw + (cw - 1) // 2 for i, c in enumerate(self.order)
              if c in self.marked]
        line = [" "] * width
        for x in at:
            line[x] = BEST_MARK
        assert self.best is not None
        word = self.best.source
        start = max(at) + 2 if max(at) + 2 + len(word) <= width else min(at) - 1 - len(word)
        if start >= 0:
            line[start:start + len(word)] = word
        return Text("".join(line).rstrip(), style=BEST_STYLE)

    def render(self) -> Text:
        cw, order = self.cell_w, self.order
        out = Text(no_wrap=True, overflow="crop")

        def cell(text: str, style: str = "") -> None:
            out.append(text.center(cw - 1)[: cw - 1], style=style)
            out.append(" ")

        pad = " " * GUTTER
        lines = 3 + HEIGHT * (2 if self.big else 1)  # names, rows, numbers, values
        marked = self.marked
        if marked and self.size.height > lines:
            out.append_text(self._marker_line())
            out.append("\n")
        out.append(pad)
        for c in order:
            name = COLUMN_NAMES[c] + (BEST_MARK if c in marked and self.size.height <= lines
                                      else "")  # no room for the marker's line
            cell(name, "reverse bold" if c == self.cursor else "bold")
        out.append("\n")
        for i, cells in enumerate(self._cells()):
            row = [cells[c] for c in order]
            out.append(f"{HEIGHT - i:>{GUTTER - 1}} ", style="dim")
            for glyph, style, owner in row:
                cell(BIG[owner][0] if owner is not None and self.big else glyph, style)
            out.append("\n")
            if self.big:
                out.append(pad)
                for _glyph, style, owner in row:
                    if owner is not None:
                        cell(BIG[owner][1], style)
                    else:
                        out.append(" " * cw)
                out.append("\n")
        out.append(pad)
        for c in order:
            cell(str(c + 1), "reverse" if c == self.cursor else "dim")
        out.append("\n" + pad)
        pos = self.position
        for c in order:
            v = self.values[c] if c < len(self.values) else None
            if v is not None:
                text = v.short(pos.ply)
                if len(text) > cw - 1:  # W12r: cut, it would read as an exact W12
                    text = text[0] + text[-1]
                cell(text, score_style(v.sign(), v.band))
            elif self.solving and pos.can_play(c) and not pos.is_over:
                cell("…", "dim")
            else:
                out.append(" " * cw)
        return out
