"""The workstation's widgets: board, move list, analysis, evaluation graph, search log.

Widgets only draw what they are given (a Position, a list of moves, an EngineView); the
app decides what to give them. All text is built with Rich so it renders the same in a
real terminal, in snapshots and in screenshots.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.geometry import COLUMN_NAMES, HEIGHT, WIDTH, square_bit
from c4tui.engine.position import PLAYER_NAMES, Position

from .analysis import ColumnValue

# Each player has its own glyphs, so the board reads without colour too (NO_COLOR,
# monochrome terminals, tmux capture-pane): White's discs are solid, Black's hollow.
DISC = ("●", "○")
LAST = ("◉", "◎")  # the last move played
FOUR = ("◆", "◇")  # a disc of the winning four
BIG = (("▄▄▄", "▀▀▀"), ("╭─╮", "╰─╯"))  # 2-line discs of the large board
GHOST = "◌"
PLAYER_STYLE = ("bold #f2c230", "bold #e5484d")  # White (first player) yellow, Black red
PLAYER_DIM = ("#8a7530", "#8a3a3c")
CELL_W = 4


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
    """The 7x6 board with labels, cursor, last move, winning four, threats and values."""

    cursor: reactive[int] = reactive(3)
    show_threats: reactive[bool] = reactive(False)

    @dataclass
    class ColumnClicked(Message):
        """A click on a column (0-based)."""

        col: int

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.position = Position()
        self.values: list[ColumnValue | None] = [None] * WIDTH

    def set_state(self, pos: Position, values: list[ColumnValue | None]) -> None:
        self.position = pos
        self.values = values
        self.refresh()

    big: reactive[bool] = reactive(False)  #: 6-column, 2-line cells for large terminals

    @property
    def cell_w(self) -> int:
        return 6 if self.big else CELL_W

    # layout: a 2-column row gutter, then cell_w columns per board column
    def _col_at(self, x: int) -> int | None:
        col = (x - 2) // self.cell_w
        return col if 0 <= col < WIDTH and x >= 2 else None

    def on_click(self, event: events.Click) -> None:
        col = self._col_at(event.x - self.gutter.left)
        if col is not None:
            self.cursor = col
            self.post_message(self.ColumnClicked(col))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        col = self._col_at(event.x - self.gutter.left)
        if col is not None and col != self.cursor:
            self.cursor = col

    def _cells(self) -> list[list[tuple[str, str, int | None]]]:
        """Rows top-down of (glyph, style, owner or None) per column."""
        pos = self.position
        mover = pos.to_move
        last = None
        if pos.history:
            c = pos.history[-1]
            last = (c, pos.height(c) - 1)
        four = set(pos.winning_four())
        threats = threat_squares(pos) if self.show_threats else {}
        playable = pos.playable_squares()
        rows = []
        for r in range(HEIGHT - 1, -1, -1):
            row = []
            for c in range(WIDTH):
                owner = pos.cell(c, r)
                if owner is not None:
                    style = PLAYER_STYLE[owner]
                    glyph = DISC[owner]
                    if (c, r) in four:
                        style += " on #1f6f3a"
                        glyph = FOUR[owner]
                    elif (c, r) == last:
                        style += " on #3a3a4a"
                        glyph = LAST[owner]
                    row.append((glyph, style, owner))
                    continue
                t = threats.get((c, r))
                acute = bool(playable & square_bit(c, r))
                if t is not None:
                    letter = "o" if r % 2 == 0 else "e"  # row 1 is odd
                    if acute:
                        letter = letter.upper()
                    if t[0] and t[1]:
                        style = "bold magenta"
                        letter = "x" if not acute else "X"
                    else:
                        style = PLAYER_STYLE[0 if t[0] else 1]
                    if acute:
                        style += " reverse"
                    row.append((letter, style, None))
                elif c == self.cursor and acute and not pos.is_over:
                    row.append((GHOST, PLAYER_DIM[mover], None))
                else:
                    row.append(("·", "#555555", None))
            rows.append(row)
        return rows

    def render(self) -> Text:
        cw = self.cell_w
        out = Text(no_wrap=True, overflow="crop")

        def cell(text: str, style: str = "") -> None:
            out.append(text.center(cw - 1)[: cw - 1], style=style)
            out.append(" ")

        out.append("  ")
        for c in range(WIDTH):
            cell(COLUMN_NAMES[c], "reverse bold" if c == self.cursor else "bold")
        out.append("\n")
        for i, row in enumerate(self._cells()):
            r = HEIGHT - 1 - i
            out.append(f"{r + 1} ", style="dim")
            for glyph, style, owner in row:
                cell(BIG[owner][0] if owner is not None and self.big else glyph, style)
            out.append("\n")
            if self.big:
                out.append("  ")
                for _glyph, style, owner in row:
                    if owner is not None:
                        cell(BIG[owner][1], style)
                    else:
                        out.append(" " * cw)
                out.append("\n")
        out.append("  ")
        for c in range(WIDTH):
            cell(str(c + 1), "reverse" if c == self.cursor else "dim")
        out.append("\n  ")
        for c in range(WIDTH):
            v = self.values[c] if c < len(self.values) else None
            if v is None:
                out.append(" " * cw)
            else:
                cell(v.short, v.style)
        return out


class MoveList(Widget):
    """Numbered move pairs in algebraic notation, the viewed ply highlighted, clickable.

    Wrapped to the widget's width; when the game is longer than the widget, the lines
    around the viewed ply are shown (so the current move is always in view).
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.line: list[int] = []
        self.ply = 0

    def show(self, line: list[int], ply: int) -> None:
        self.line, self.ply = list(line), ply
        self.refresh()

    def _tokens(self) -> list[tuple[str, str, int | None]]:
        """(text, style, ply to jump to) per token; ply 0 is the start."""
        toks: list[tuple[str, str, int | None]] = []
        toks.append(("start", "reverse bold" if self.ply == 0 else "", 0))
        pos = Position()
        for i, col in enumerate(self.line):
            row = pos.height(col)
            pos.play(col)
            if i % 2 == 0:
                toks.append((f"{i // 2 + 1}.", "dim", None))
            style = "reverse bold" if i + 1 == self.ply else ("" if i < self.ply else "dim")
            toks.append((f"{COLUMN_NAMES[col]}{row + 1}", style, i + 1))
        return toks

    def render(self) -> Text:
        width = max(8, self.size.width)
        height = max(1, self.size.height)
        if not self.line:
            return Text("no moves yet: press 1-7, or ←/→ and enter", style="dim")
        lines: list[list[tuple[str, str, int | None]]] = [[]]
        used = 0
        current_line = 0
        for tok in self._tokens():
            need = len(tok[0]) + (1 if lines[-1] else 0)
            if lines[-1] and used + need > width:
                lines.append([])
                used, need = 0, len(tok[0])
            lines[-1].append(tok)
            used += need
            if tok[2] == self.ply:
                current_line = len(lines) - 1
        # a window of `height` lines that contains the current one, as low as possible
        first = max(0, min(current_line - height + 1 + (height > 2), len(lines) - height))
        first = min(first, current_line)
        out = Text(no_wrap=True, overflow="crop")
        for n, toks in enumerate(lines[first : first + height]):
            if n:
                out.append("\n")
            for k, (text, style, ply) in enumerate(toks):
                if k:
                    out.append(" ")
                st = Style.parse(style) if style else Style()
                if ply is not None:
                    st += Style.from_meta({"@click": f"app.goto_ply({ply})"})
                out.append(text, style=st)
        return out


SPARK = "▁▂▃▄▅▆▇█"


class EvalGraph(Widget):
    """One row per game ply: bar height is the size of the advantage, colour the side.

    Values are in [-1, 1] from White's point of view (None: unknown). The viewed ply is
    underlined.
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.values: list[float | None] = []
        self.ply = 0

    def show(self, values: list[float | None], ply: int) -> None:
        self.values, self.ply = values, ply
        self.refresh()

    def render(self) -> Text:
        width = max(1, self.size.width)
        vals = self.values
        # show the plies around the viewed one when the game is longer than the widget
        start = 0 if len(vals) <= width else max(0, min(self.ply - width // 2, len(vals) - width))
        out = Text(no_wrap=True, overflow="crop")
        for i, v in enumerate(vals[start : start + width], start=start):
            if v is None:
                ch, style = "·", "#555555"
            elif abs(v) < 1e-9:
                ch, style = "▁", "#9a9a9a"
            else:
                ch = SPARK[min(len(SPARK) - 1, int(abs(v) * (len(SPARK) - 1) + 0.5))]
                style = PLAYER_STYLE[0 if v > 0 else 1]
            if i == self.ply:
                style += " underline reverse"
            out.append(ch, style=style)
        if not vals:
            out.append("no evaluations yet", style="dim")
        return out


def player_text(player: int) -> Text:
    return Text.assemble((DISC[player] + " ", PLAYER_STYLE[player]), PLAYER_NAMES[player])
