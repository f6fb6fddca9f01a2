"""Groups (the fours that can still be completed) and square names, on the bitboard layout.

A *group* is a line of four squares (horizontal, vertical or diagonal), written as a mask of
four bits in :mod:`c4tui.engine.board.geometry`'s layout. For the side that argues (the
*controller* of zugzwang) the *problems* are the opponent's groups: the ones in which the
controller has no disc yet, so the opponent could still complete them. Allis's rules are
ways of being sure that every problem stays incomplete.

Rows are named as players name them: row 1 is the bottom. Allis's *odd* squares are those of
rows 1, 3, 5, ... (geometry's ``ODD_ROWS``), his *even* squares those of rows 2, 4, 6, ...
"""

from __future__ import annotations

from ..board.geometry import BOARD, BOTTOM, COLUMN_NAMES, H1, HEIGHT, WIDTH, column_bits


def _all_groups() -> tuple[int, ...]:
    out = []
    for c in range(WIDTH):
        for r in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= cc < WIDTH and 0 <= rr < HEIGHT for cc, rr in cells):
                    out.append(sum(1 << (cc * H1 + rr) for cc, rr in cells))
    return tuple(out)


#: Every four of the board (69 on 7x6).
ALL_GROUPS = _all_groups()
#: Each four's bit indices, lowest first.
GROUP_BITS: dict[int, tuple[int, ...]] = {
    g: tuple(b for b in range(g.bit_length()) if g >> b & 1) for g in ALL_GROUPS}
#: Squares one above each square's (with the geometry's sentinel row, never wraps).
TOP_ROW = BOTTOM << (HEIGHT - 1)
COLUMN_MASKS = tuple(column_bits(c) for c in range(WIDTH))


def bits(mask: int) -> list[int]:
    """The bit indices of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def col_of(bit: int) -> int:
    """The column (0-based) of a bit index."""
    return bit // H1


def row_of(bit: int) -> int:
    """The row (0-based: 0 is Allis's row 1) of a bit index."""
    return bit % H1


def square_of(bit: int) -> str:
    """``"d1"`` for a bit index."""
    return f"{COLUMN_NAMES[bit // H1]}{bit % H1 + 1}"


def squares_named(mask: int) -> list[str]:
    """The squares of a mask as names, in (column, row) order."""
    return [square_of(b) for b in bits(mask)]


def group_name(group: int) -> str:
    """A group as Allis writes it: its first and last square, ``"a1-d4"``."""
    b = bits(group)
    return f"{square_of(b[0])}-{square_of(b[-1])}"


def is_vertical(group: int) -> bool:
    """Whether all four squares of ``group`` are in one column."""
    b = bits(group)
    return col_of(b[0]) == col_of(b[-1])


def problems(own: int, opponent: int) -> list[int]:
    """The opponent's groups: every four without a disc of the controller (``own``).

    A four already full of the opponent's discs is included (nothing refutes it: the game is
    over and the controller has lost).
    """
    del opponent  # a group the opponent has started is as much a problem as an empty one
    return [g for g in ALL_GROUPS if not g & own]


def empty_squares(mask: int) -> int:
    """The empty squares of the board."""
    return BOARD & ~mask


def playable_squares(mask: int) -> int:
    """The square each non-full column is filled at next."""
    return (mask + BOTTOM) & BOARD
