"""Perfect-play lines: the moves behind an exact score.

The solver's score already says how the game ends and when (``22 - k``: a win with the
winner's k-th own disc), so a move that keeps a position's exact score is a perfect move
that wins fastest or loses slowest. :func:`perfect_steps` plays such a move again and again
until the game ends: the winning move at once where there is one (the most central), else
the solver's best move (each solve names one; positions in the books are lookups, see
``solve_root``). It is the one perfect line of the engine, the app and the UGI engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice

from .board.geometry import SIZE
from .board.position import Position
from .solver.solver import Solver


def perfect_steps(pos: Position, solver: Solver,
                  solve_if: Callable[[Position], bool] | None = None
                  ) -> Iterator[tuple[int, int]]:
    """``(move, nodes)`` for each move (0-based column) of a perfect-play line from ``pos``
    to the game's end, one solve per move (``nodes``: that solve's; 0 for a win at once):
    stop iterating to stop paying. ``solve_if`` ends the line before a position that
    needs a solve and that it refuses (a book's reader: positions in the books; a clock:
    while there is time). ``solver.stop()`` from another thread ends it with
    :class:`~c4tui.engine.solver.solver.SearchAborted` (the moves yielded so far are a correct
    prefix)."""
    p = pos.copy()
    while not p.is_over:
        move, nodes = p.winning_move(), 0
        if move is None:
            if solve_if is not None and not solve_if(p):
                return
            r = solver.solve(p)
            move, nodes = r.best_move, r.nodes
        yield move, nodes
        p.play(move)


def perfect_moves(pos: Position, solver: Solver) -> Iterator[int]:
    """The moves of :func:`perfect_steps`' line from ``pos`` to the game's end."""
    return (move for move, _ in perfect_steps(pos, solver))


def perfect_line(pos: Position, solver: Solver, max_plies: int = SIZE) -> tuple[int, ...]:
    """At most ``max_plies`` moves of a perfect-play line from ``pos`` (empty if the game
    is over)."""
    return tuple(islice(perfect_moves(pos, solver), max_plies))
