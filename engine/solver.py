"""The exact solver: Python API over the numba kernels.

>>> from c4tui.engine.position import Position
>>> Solver(hash_mb=16, book=None).solve(Position.from_moves("4453")).score  # doctest: +SKIP
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

import numpy as np

from .geometry import SIZE, WIDTH
from .mem import address
from .position import Position
from .scores import win_score
from .solver_kernel import CTX_ABORT, CTX_NODES, CTX_SIZE, SCRATCH_PER_PLY, solve_root
from .tt import TranspositionTable


class SearchAborted(RuntimeError):
    """Raised by a solve that was stopped from another thread."""


@dataclass(frozen=True)
class SolveResult:
    """Exact score of a position for the side to move, a best move (0-based column),
    nodes searched and microseconds of search."""

    score: int
    best_move: int
    nodes: int
    micros: int


@dataclass(frozen=True)
class ColumnScores:
    """Exact score of each column for the side to move (``None``: column full)."""

    scores: tuple[int | None, ...]
    nodes: int
    micros: int

    def best(self) -> int | None:
        """Best score over the playable columns."""
        vals = [s for s in self.scores if s is not None]
        return max(vals) if vals else None


class Solver:
    """Exact solver with its own transposition table (kept between calls).

    ``book``: ``"default"`` loads the shipped opening book if there is one, ``None``
    searches without a book. One solve at a time per solver; ``stop()`` may be called
    from any thread.
    """

    def __init__(self, hash_mb: int = 64, book: object = "default") -> None:
        self.table = TranspositionTable(hash_mb)
        self._scratch = np.zeros((SIZE + 2) * SCRATCH_PER_PLY, dtype=np.int64)
        self._ctx = np.zeros(CTX_SIZE, dtype=np.int64)
        self._lock = threading.Lock()
        from .booklink import book_args, resolve_book

        self.book = resolve_book(book)  # kept alive: the kernels read its arrays
        self._book_args = book_args(self.book)

    # ------------------------------------------------------------------ control
    def stop(self) -> None:
        """Abort the running solve (it raises :class:`SearchAborted`)."""
        self._ctx[CTX_ABORT] = 1

    def clear(self) -> None:
        """Empty the transposition table."""
        self.table.clear()

    # ------------------------------------------------------------------ solving
    def _solve_words(self, current: int, mask: int, ply: int) -> tuple[int, int, int]:
        ctx = self._ctx
        ctx[CTX_NODES] = 0
        score, move = solve_root(
            np.uint64(current),
            np.uint64(mask),
            ply,
            self.table.addr,
            self.table.bits,
            address(self._scratch),
            address(ctx),
            *self._book_args,
        )
        nodes = int(ctx[CTX_NODES])
        if ctx[CTX_ABORT]:
            # Entries written while unwinding are consistent (aborted nodes store
            # nothing), but drop the flag for the next call.
            ctx[CTX_ABORT] = 0
            raise SearchAborted("search stopped")
        return int(score), int(move), nodes

    def solve(self, pos: Position) -> SolveResult:
        """Exact score and a best move of ``pos`` (which must not be over)."""
        _check_open(pos)
        with self._lock:
            self._ctx[CTX_ABORT] = 0
            t0 = time.perf_counter_ns()
            score, move, nodes = self._solve_words(pos.current, pos.mask, pos.ply)
            micros = (time.perf_counter_ns() - t0) // 1000
        return SolveResult(score, move, nodes, micros)

    def analyze(self, pos: Position) -> ColumnScores:
        """Exact score of every column for the side to move."""
        _check_open(pos)
        scores: list[int | None] = []
        total = 0
        with self._lock:
            self._ctx[CTX_ABORT] = 0
            t0 = time.perf_counter_ns()
            for col in range(WIDTH):
                if not pos.can_play(col):
                    scores.append(None)
                elif pos.is_winning_move(col):
                    scores.append(win_score(pos.ply))
                else:
                    child = pos.copy()
                    child.play(col)
                    if child.is_over:  # the board filled up: a draw
                        scores.append(0)
                        continue
                    s, _, n = self._solve_words(child.current, child.mask, child.ply)
                    scores.append(-s)
                    total += n
            micros = (time.perf_counter_ns() - t0) // 1000
        return ColumnScores(tuple(scores), total, micros)


def _check_open(pos: Position) -> None:
    if pos.winner is not None:
        raise ValueError("the game is already won")
    if pos.is_draw:
        raise ValueError("the board is full")


def _warmup() -> None:
    """Run the kernels once (loads them from numba's cache or compiles them)."""
    Solver(hash_mb=1, book=None).solve(Position.from_moves("2252576253462244111563365343671351441"))
