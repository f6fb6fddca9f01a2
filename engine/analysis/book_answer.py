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

from ..board.position import Position
from ..books.link import BookLike
from ..books.negamax import book_negamax
from ..pv import perfect_steps
from ..seam import Source
from ..solver.solver import Solver


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


def book_answer(pos: Position, book: BookLike, solver: Solver) -> BookAnswer | None:
    """The books' answer for ``pos``, or ``None`` if neither ``pos`` nor all of its
    children are in the books (a child where the opponent wins at once counts as known).

    ``solver`` must use the same book (it finds the moves). Deterministic: the solver's
    single-thread search and the book give the same move for the same position.
    """
    hits = 0

    def lookup(current: int, mask: int) -> int | None:
        nonlocal hits
        score = book.lookup(current, mask)
        hits += score is not None
        return score

    # the root, or every child (11 discs: one ply above the database)
    known = book_negamax(pos.current, pos.mask, lookup, depth=1)
    if known is None:
        return None
    score, first = known
    line: list[int] = []
    p = pos.copy()
    if first is not None:
        line.append(first)
        p.play(first)

    def in_books(q: Position) -> bool:
        return book.lookup(q.current, q.mask) is not None

    nodes = 0
    for move, n in perfect_steps(p, solver, solve_if=in_books):
        line.append(move)
        nodes += n
    if not line:
        return None
    return BookAnswer(score, line[0], tuple(line), nodes,
                      Source.BOOK if hits else Source.EXACT)
