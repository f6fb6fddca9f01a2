"""The c4tui engine: numba bitboard search behind a small typed seam.

This package knows nothing of the user interface. Its public API (docs/engine-api.md) is
the position (:mod:`c4tui.engine.board.position`), the seam's types (:mod:`c4tui.engine.seam`:
states, bands, scores, a search's limits and options, the search records, what a search
offers a front end; no numba), the exact solver (:mod:`c4tui.engine.solver.solver`), the analysis
search's controller (:mod:`c4tui.engine.analysis.controller`) and MILTON's threat verdict
(:mod:`c4tui.engine.analysis.verdict`).

The board size is read once, here, from ``C4TUI_SIZE`` (:mod:`c4tui.engine.board.geometry`),
before any kernel module is imported: numba's cache is kept per size.
"""

from .board.geometry import configure_numba_cache

configure_numba_cache()
