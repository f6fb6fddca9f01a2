"""Board geometry, defined once for every part of the engine.

Bitboard layout (Pascal Pons's): column ``c`` (0-6, left to right) occupies bits
``c*7 .. c*7+5``, bottom row first; bit ``c*7+6`` is a sentinel row that is always
empty, so that shifts used by the four-in-a-row tests never wrap into the next column.

Every constant exists both as a Python ``int`` (for the pure-Python position) and, where
the numba kernels need it, as ``np.uint64`` (mixing int64 and uint64 in numba silently
produces float64).
"""

from __future__ import annotations

import numpy as np

WIDTH = 7
HEIGHT = 6
H1 = HEIGHT + 1  # bits per column, including the sentinel
SIZE = WIDTH * HEIGHT  # 42 squares

#: Score convention of the perfect solvers: a win with the k-th own disc scores 22 - k.
MAX_SCORE = (SIZE + 1) // 2 - 3  # 18: earliest possible win for the side to move
MIN_SCORE = -(SIZE // 2) + 3  # -18

COLUMN_NAMES = "abcdefg"


def bottom_bit(col: int) -> int:
    """Bit of the lowest square of column ``col``."""
    return 1 << (col * H1)


def top_bit(col: int) -> int:
    """Bit of the highest playable square of column ``col``."""
    return 1 << (col * H1 + HEIGHT - 1)


def column_bits(col: int) -> int:
    """All playable squares of column ``col``."""
    return ((1 << HEIGHT) - 1) << (col * H1)


def square_bit(col: int, row: int) -> int:
    """Bit of the square in column ``col`` (0-6) and row ``row`` (0-5, bottom first)."""
    return 1 << (col * H1 + row)


BOTTOM = sum(bottom_bit(c) for c in range(WIDTH))
BOARD = BOTTOM * ((1 << HEIGHT) - 1)
#: Squares in odd rows (rows 1, 3, 5 counted from 1 at the bottom) and even rows.
ODD_ROWS = BOTTOM * 0b010101
EVEN_ROWS = BOTTOM * 0b101010

#: Column order from the centre outwards: the usual first guess for move ordering.
CENTER_ORDER = tuple(WIDTH // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(WIDTH))

# numba-friendly copies
U_BOTTOM = np.uint64(BOTTOM)
U_BOARD = np.uint64(BOARD)
U_ODD_ROWS = np.uint64(ODD_ROWS)
U_EVEN_ROWS = np.uint64(EVEN_ROWS)
COLUMN_MASKS = np.array([column_bits(c) for c in range(WIDTH)], dtype=np.uint64)


def _square_values() -> list[list[int]]:
    """Number of possible fours through each square: MILTON's static square values."""
    vals = [[0] * HEIGHT for _ in range(WIDTH)]
    for c in range(WIDTH):
        for r in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                for start in range(-3, 1):
                    ok = True
                    for k in range(4):
                        cc, rr = c + (start + k) * dc, r + (start + k) * dr
                        if not (0 <= cc < WIDTH and 0 <= rr < HEIGHT):
                            ok = False
                            break
                    if ok:
                        vals[c][r] += 1
    return vals


#: ``SQUARE_VALUES[col][row]``: 3 4 5 7 5 4 3 on the bottom row, 5 8 11 13 11 8 5 in the middle.
SQUARE_VALUES = _square_values()
