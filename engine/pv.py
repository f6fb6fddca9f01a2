"""Perfect-play lines: the moves behind an exact score.

The solver's score already says how the game ends and when (``22 - k``: a win with the
winner's k-th own disc), so a move that keeps a position's exact score is a perfect move
that wins fastest or loses slowest. :func:`perfect_moves` plays such a move again and again
until the game ends: the solver's best move (each solve also names one; positions in the
books are lookups, see ``solve_root``), or the winning move at once where there is one.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from .geometry import CENTER_ORDER, SIZE
from .position import Position
from .solver import Solver


def perfect_moves(pos: Position, solver: Solver) -> Iterator[int]:
    """The moves (0-based columns) of a perfect-play line from ``pos`` to the game's end,
    one solve per move: stop iterating to stop paying. ``solver.stop()`` from another
    thread ends it with :class:`~c4tui.engine.seam.SearchAborted` (the moves yielded so
    far are a correct prefix)."""
    p = pos.copy()
    while not p.is_over:
        win = next((c for c in CENTER_ORDER if p.can_play(c) and p.is_winning_move(c)), None)
        move = win if win is not None else solver.solve(p).best_move
        yield move
        p.play(move)


def perfect_line(pos: Position, solver: Solver, max_plies: int = SIZE) -> tuple[int, ...]:
    """At most ``max_plies`` moves of a perfect-play line from ``pos`` (empty if the game
    is over)."""
    return tuple(islice(perfect_moves(pos, solver), max_plies))
