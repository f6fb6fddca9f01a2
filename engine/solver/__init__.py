"""The exact solver: :class:`~c4tui.engine.solver.solver.Solver`, its numba kernel and its
transposition table (one word per entry, two on boards above 64 bits)."""
