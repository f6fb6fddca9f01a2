"""The board's box on the screen and the terminal the layout needs for it: the cells'
width, the row gutter, the box of a small or big board, and the one line that stands for
the panels when the terminal is too small (the main screen fits the board with these)."""

from __future__ import annotations

from c4tui.engine.board.geometry import HEIGHT, NAME, WIDTH

#: Columns of one cell of the small board (the big board's are 6).
CELL_W = 4


def gutter(height: int = HEIGHT) -> int:
    """The row labels' gutter: the row number and a space (two digits from 10 rows on)."""
    return len(str(height)) + 1


GUTTER = gutter()
#: Columns played by a digit key (1-9); wider boards reach the others with the cursor.
KEY_COLUMNS = min(WIDTH, 9)


def board_box(big: bool, width: int = WIDTH, height: int = HEIGHT) -> tuple[int, int]:
    """(width, height) of the board's box: its border and padding, the row gutter and the
    cells; the labels, numbers and values lines. 34 x 11 on 7x6 (48 x 17 big). ``width``
    and ``height``: another board's (the board of this process by default)."""
    cell_w, lines = (6, 2) if big else (CELL_W, 1)
    return 4 + gutter(height) + width * cell_w, 5 + height * lines


#: The board's row in app.tcss (``#top``): small, big and wide (the tall evaluation graph
#: with its scale). A taller board makes it taller.
TOP, BIG_TOP, WIDE_TOP = 14, 20, 26
#: What the layout keeps beside and below the board's row: the side column's 38 columns
#: (the analysis box's lines), the lower panels' 8 lines with the status line and the
#: keys (7x6's layout at 80x24).
SIDE_COLUMNS, LOWER_LINES = 38, 10
#: The smallest terminal of all (7x6's).
MIN_TERMINAL = (80, 24)


def terminal_needed(big: bool = False, width: int = WIDTH,
                    height: int = HEIGHT) -> tuple[int, int]:
    """The smallest terminal the app's layout fits with this board (or a ``width`` x
    ``height`` one) as 7x6's fits 80x24: the board whole, the side column and the lower
    panels as large as there. 80x24 up to 9 columns and 9 rows; 10x10 needs 85x25.
    ``big``: with the big board (6-column, 2-line cells)."""
    w, h = board_box(big, width, height)
    return (max(MIN_TERMINAL[0], w + SIDE_COLUMNS),
            max(MIN_TERMINAL[1], max(h, BIG_TOP if big else TOP) + LOWER_LINES))


def too_small_text(width: int, height: int) -> str | None:
    """The one line the app shows instead of its panels when the terminal is too small
    for this board (``None``: it fits): ``the 10x10 board needs a terminal of at least
    85x25; this one is 80x24``."""
    need_w, need_h = terminal_needed()
    if width >= need_w and height >= need_h:
        return None
    return (f"the {NAME} board needs a terminal of at least {need_w}x{need_h}; "
            f"this one is {width}x{height}")
