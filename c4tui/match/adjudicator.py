"""Adjudication: a game ends with its exact result once few squares are empty.

With at most ``empty`` empty squares (default :data:`DEFAULT_EMPTY`) the exact solver
scores the position in milliseconds, and the game ends with that result, as perfect play
from there would end it (the record says "adjudicated" and the score). The books are not
used: every opening position is decided in theory, but engines under test do not play
perfectly from move 5, so only the endgame, where they do, is cut short.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from c4tui.engine.board.geometry import SIZE
from c4tui.engine.board.position import PLAYER_NAMES, Position

if TYPE_CHECKING:
    from c4tui.engine.solver.solver import Solver

#: Adjudicate at or below this many empty squares (a solve of a few milliseconds).
DEFAULT_EMPTY = 12
#: More would make a solve take seconds to minutes on the match's cores.
MAX_EMPTY = 20
#: The adjudicator's table: small, the positions are small.
TABLE_MB = 16


class Adjudicator:
    """The exact solver's verdict on late positions (one solver, shared by the match's
    games under a lock)."""

    def __init__(self, empty: int = DEFAULT_EMPTY) -> None:
        if not 0 <= empty <= MAX_EMPTY:
            raise ValueError(f"--adjudicate {empty}: out of range (0 to {MAX_EMPTY})")
        self.empty = empty
        self._solver: Solver | None = None
        self._lock = threading.Lock()

    def verdict(self, pos: Position) -> tuple[int | None, str] | None:
        """None while the game goes on; else the winner (0 White, 1 Black, None: a draw)
        and why, in words."""
        empty = SIZE - pos.ply
        if self.empty == 0 or empty > self.empty or pos.is_over:
            return None
        with self._lock:
            if self._solver is None:
                from c4tui.engine.solver.solver import Solver  # the kernels: only when needed

                self._solver = Solver(TABLE_MB, book=None, threads=1)
            score = self._solver.solve(pos, need_move=False).score
        if score == 0:
            return None, f"exact solver, {empty} empty squares: a draw"
        winner = pos.to_move if score > 0 else 1 - pos.to_move
        return winner, f"exact solver, {empty} empty squares: {PLAYER_NAMES[winner]} wins"
