"""The peer of the benchmarks: BitBully, a C++ perfect solver from PyPI (``bitbully``).

An optional extra (:data:`INSTALL` says how to get it), never a runtime dependency:
without it the benchmarks measure c4tui alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from rich.console import Console

P = TypeVar("P")
#: How to install BitBully, as README.md and docs/benchmarks.md say it.
INSTALL = "pip install 'c4tui[bench]', or make bench in a checkout"
#: BitBully solves the 7x6 board only (c4tui bench refuses it on another size).
BITBULLY_WIDTH = 7


def optional_peer(console: Console, make: Callable[[], P]) -> P | None:
    """``make()``, or None with one line if BitBully is not installed."""
    try:
        return make()
    except ImportError:
        console.print(f"BitBully is not installed ({INSTALL}): measuring c4tui alone",
                      style="yellow", markup=False)
        return None


class BitBullySolver:
    """BitBully without its opening book: one score per position (``c4tui bench``)."""

    def __init__(self) -> None:
        import bitbully

        self._bb = bitbully
        self.agent = bitbully.BitBully(opening_book=None)
        self.version = getattr(bitbully, "__version__", "")

    def solve(self, moves: str) -> tuple[int, int, float]:
        """``(score, nodes, seconds)`` of the position after ``moves`` (digits 1-7)."""
        board = self._bb.Board.from_moves([int(c) - 1 for c in moves])
        self.agent.reset_node_counter()
        t0 = time.perf_counter()
        score = self.agent.null_window(board)
        dt = time.perf_counter() - t0
        return int(score), int(self.agent.get_node_counter()), dt

    def reset(self) -> None:
        self.agent.reset_transposition_table()


class BitBullyAnalysis:
    """BitBully with its 12-ply database: every column's score (``bench --latency``)."""

    def __init__(self) -> None:
        import bitbully

        self._bb = bitbully
        self.agent = bitbully.BitBully(opening_book="12-ply-dist")

    def analyze(self, moves: str) -> list[int | None]:
        """The score of each column (None: full) after ``moves`` (digits 1-7)."""
        board = self._bb.Board.from_moves([int(c) - 1 for c in moves])
        got = self.agent.score_all_moves(board)
        return [got.get(c) for c in range(BITBULLY_WIDTH)]
