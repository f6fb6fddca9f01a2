"""Negamax over known scores: a position's exact score from the books, without a search.

A book stores the exact scores of every position with its disc counts, except those whose
side to move can win at once (their score needs no book). A position a few discs short of
a book is scored from it by negamax: the best over its moves of minus the child's score.
This is that negamax, once, for every reader of the books: the engine's book answers
(:mod:`.book_line`), the command line's Python reader and the book's derivation and
cross-check (package ``c4tui.book``, which passes its lookups in). Pure Python, no numba:
``c4tui solve`` answers from the books before it loads the kernels.
"""

from __future__ import annotations

from collections.abc import Callable

from ..board.geometry import CENTER_ORDER, SIZE, bottom_bit, column_bits, win_score
from ..board.position import winning_move

#: ``lookup(current, mask)``: a position's exact score (side to move) if known, else None.
Lookup = Callable[[int, int], "int | None"]


def book_negamax(current: int, mask: int, lookup: Lookup,
                 depth: int) -> tuple[int, int | None] | None:
    """The exact score of the position (``current``, ``mask``) for the side to move, and
    its best move, from known scores at most ``depth`` plies below it; ``None`` if a
    position it needs is unknown.

    A side that can win at once scores :func:`~.geometry.win_score` (its move: the most
    central winning column); a full board is a draw; a position ``lookup`` knows scores
    that (no move: a book names none); any other takes the best over its moves of minus
    its child's score, the most central best move on a tie.
    """
    ply = bin(mask).count("1")
    win = winning_move(current, mask)
    if win is not None:
        return win_score(ply), win
    if ply >= SIZE:
        return 0, None
    known = lookup(current, mask)
    if known is not None:
        return known, None
    if depth <= 0:
        return None
    best: tuple[int, int | None] | None = None
    for col in CENTER_ORDER:
        move = (mask + bottom_bit(col)) & column_bits(col)
        if not move:
            continue
        child = book_negamax(current ^ mask, mask | move, lookup, depth - 1)
        if child is None:
            return None
        if best is None or -child[0] > best[0]:
            best = (-child[0], col)
    return best
