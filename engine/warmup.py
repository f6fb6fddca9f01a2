"""Loading (or, on a cold cache, compiling) the numba kernels ahead of use."""

from __future__ import annotations

import importlib
import os

# Modules whose kernels a full warm-up loads, with the function that exercises them.
_WARMUPS = (
    ("c4tui.engine.solver", "_warmup"),
    ("c4tui.engine.controller", "_warmup"),
)


def _dispatchers(solver_only: bool):
    from . import solver_kernel

    kernels = [solver_kernel.solve_root, solver_kernel.negamax, solver_kernel._move_for_score]
    if not solver_only:
        from . import analysis_kernel

        kernels.append(analysis_kernel.ab)
    return kernels


def is_compiled(solver_only: bool = False) -> bool:
    """Whether numba's cache already holds the engine's kernels (a warm start).

    ``solver_only``: just the exact solver's (what ``c4tui solve`` loads).
    """
    for disp in _dispatchers(solver_only):
        cache = getattr(disp, "_cache", None)
        index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
        if index is None or not os.path.exists(index):
            return False
    return True


def warmup(solver_only: bool = False) -> None:
    """Load or compile the engine's kernels by running each once on a tiny position.

    ``solver_only``: just the exact solver's (what ``c4tui solve`` needs).
    """
    for module, func in _WARMUPS[:1] if solver_only else _WARMUPS:
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        fn = getattr(mod, func, None)
        if fn is not None:
            fn()
