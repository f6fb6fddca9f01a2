"""Answers from the books for a position that is in one: exact score, best move, line.

The analysis search asks here before it searches a root: a root in a book (0-9 or 12 discs
with the default books), or whose children all are (11 discs), needs no heuristic at all.
A child where the opponent wins at once counts as known, so a root where every move loses
at once is answered here too, at any disc count: then no book was used, and the answer
says so (``Source.EXACT``).
The book stores scores, not moves; the exact solver finds a move that keeps the score
(children inside the books are lookups, the 13-disc children of a 12-disc root a small
search under the book's floor), and the line goes on while its positions stay in the books.
"""

from __future__ import annotations

from dataclasses import dataclass

from .booklink import BookLike
from .geometry import CENTER_ORDER, SIZE
from .position import Position
from .scores import win_score
from .seam import Source
from .solver import Solver


@dataclass(frozen=True)
class BookAnswer:
    """A root answered from the books: score (side to move), best move (0-based column),
    the line that keeps the score while its positions are in the books, solver nodes, and
    ``source``: BOOK if a lookup answered, EXACT if every move loses at once."""

    score: int
    best_move: int
    pv: tuple[int, ...]
    nodes: int
    source: Source


def _winning_move(pos: Position) -> int | None:
    for c in CENTER_ORDER:
        if pos.can_play(c) and pos.is_winning_move(c):
            return c
    return None


def book_answer(pos: Position, book: BookLike, solver: Solver) -> BookAnswer | None:
    """The books' answer for ``pos``, or ``None`` if neither ``pos`` nor all of its
    children are in the books (a child where the opponent wins at once counts as known).

    ``solver`` must use the same book (it finds the moves). Deterministic: the solver's
    single-thread search and the book give the same move for the same position.
    """
    score = book.lookup(pos.current, pos.mask)
    looked_up = score is not None  # a lookup answered: else the opponent wins at once
    first: int | None = None
    if score is None:
        # every child known: the root is one ply above the books (11 discs: the database)
        best: int | None = None
        for c in CENTER_ORDER:
            if not pos.can_play(c):
                continue
            child = pos.copy()
            child.play(c)
            if _winning_move(child) is not None:
                s = win_score(child.ply)
            else:
                s = book.lookup(child.current, child.mask)
                if s is None:
                    return None
                looked_up = True
            if best is None or -s > best:
                best, first = -s, c
        if best is None:
            return None
        score = best
    line: list[int] = []
    nodes = 0
    p = pos.copy()
    if first is not None:
        line.append(first)
        p.play(first)
    while len(line) < SIZE and not p.is_over:
        win = _winning_move(p)
        if win is not None:
            line.append(win)
            break
        if book.lookup(p.current, p.mask) is None:
            break
        r = solver.solve(p)
        nodes += r.nodes
        if r.best_move < 0:
            break
        line.append(r.best_move)
        p.play(r.best_move)
    if not line:
        return None
    return BookAnswer(score, line[0], tuple(line), nodes,
                      Source.BOOK if looked_up else Source.EXACT)
