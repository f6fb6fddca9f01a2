"""The c4tui engine: numba bitboard search behind a small Python API.

This package knows nothing of the user interface. Its public API is the position
(:mod:`c4tui.engine.position`), the exact solver (:mod:`c4tui.engine.solver`) and the
analysis search with its controller (:mod:`c4tui.engine.search`).
"""
