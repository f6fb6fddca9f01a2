"""A work unit of the book builder solved, and the errors of a build: what the builder
(:mod:`.builder`, this process) and the cluster (:mod:`.cluster`, Dask workers) share.

A unit is a block of positions given by their move sequences; a worker solves it with a
solver made by a picklable factory (``factory(hash_mb)``), kept across its units.
"""

from __future__ import annotations

from collections.abc import Callable

from .format import decode

SolverFactory = Callable[[int], object]


class BuildError(RuntimeError):
    """A build that cannot go on (bad checkpoint, failing worker); one-line message."""


class SchedulerError(BuildError):
    """The ``scheduler`` address is malformed or nothing answers there; one line."""


def default_solver(hash_mb: int):
    """The exact solver used by the builder: no book (the book is what we are building)."""
    from c4tui.engine.solver.solver import Solver

    return Solver(hash_mb=hash_mb, book=None)


def floor_solver(book_data: bytes, hash_mb: int):
    """The builder's solver given a book of shallower positions (``--floor-book``, its
    encoded bytes: a worker on another machine needs no copy of the file): each built
    position's parents in that book give it a floor (see ``Solver.solve``). The book holds
    no position with as many discs as the built ones, so it never answers one."""
    from c4tui.engine.solver.solver import Solver

    return Solver(hash_mb=hash_mb, book=decode(book_data, "--floor-book"))


def solve_moves(solver, moves: list[str]) -> tuple[list[int], int]:
    """Exact scores of the positions given by their move sequences, and the nodes searched."""
    from c4tui.engine.board.position import Position

    scores = []
    nodes = 0
    for m in moves:
        res = solver.solve(Position.from_moves(m), need_move=False)
        scores.append(int(res.score))
        nodes += int(res.nodes)
    return scores, nodes
