"""MILTON's iterative-deepening analysis search, and a controller that runs it in a thread.

The search (Baier 2006, the MILTON thesis; see docs/analysis.md) deepens 1, 2, 3 ... plies
up to the number of empty squares, where its result is exact and in the perfect solvers'
score convention. Every technique is a switch in :class:`SearchOptions`; what bounds a
search is a :class:`~c4tui.engine.seam.Limits`. Each completed iteration produces an
:class:`IterationReport`; the controller that runs it in a thread is
:class:`c4tui.engine.controller.SearchController`. This module holds the score bands and
MILTON's aspiration windows.

The options, the records the search publishes and their types (:class:`SearchOptions`,
:class:`SearchState`, :class:`Band`, :class:`Score`, :class:`IterationReport`,
:class:`Snapshot`, :class:`SearchResult`) live in :mod:`c4tui.engine.seam` (re-exported
here). Each record carries one :class:`Score`; for the EXACT band (a full-depth
iteration) and the RECOGNIZED band (a proven win or loss before full depth; the distance is
the best found so far and may shrink with depth) its value is in the solvers' convention
(22 - k, see ``c4tui.engine.scores``), for the HEURISTIC band MILTON's evaluation value:
``±(458 + discs)`` for an expected win/loss, 0 for an expected draw. A record's ``value``
holds the internal value (see ``engine/analysis_eval.py`` for the bands).
"""

from __future__ import annotations

from .analysis_eval import INF, REAL_MIN, REC, REC_MIN, WIN
from .geometry import win_score
from .seam import (
    Band,
    IterationReport,
    PathEntry,
    Score,
    SearchOptions,
    SearchResult,
    SearchState,
    Snapshot,
)

__all__ = [
    "Band",
    "Score",
    "SearchState",
    "SearchOptions",
    "IterationReport",
    "PathEntry",
    "SearchResult",
    "Snapshot",
]

# ------------------------------------------------------------------ score bands


def classify(value: int, exact_iteration: bool) -> Score:
    """The :class:`Score` of an internal root value (see the module docstring)."""
    a = abs(value)
    sign = 1 if value > 0 else -1
    if a >= REAL_MIN:
        n_end = WIN - a
    elif a >= REC_MIN:
        n_end = REC - a
    else:
        if exact_iteration:
            if value != 0:  # a full-depth search has no heuristic leaf
                raise AssertionError(f"full-depth value {value} is not exact")
            return Score(0, Band.EXACT)
        return Score(value, Band.HEURISTIC)
    score = sign * win_score(n_end - 1)  # the winning disc was played at ply n_end - 1
    # Before full depth a proven result's distance is only the best found so far: a
    # quiescence-extended line can reach a slow win while a quicker one lies beyond the
    # horizon of a quiet line.
    return Score(score, Band.EXACT if exact_iteration else Band.RECOGNIZED)


def _next_window(v: int, steps: int = 1) -> tuple[int, int]:
    """MILTON's aspiration window ``steps`` iterations after one of value ``v`` (thesis
    3.4): an expected win ``458 + discs`` gains a disc per ply, a proven result stays."""
    if v == 0:
        return -2, 2
    if 0 < v < 600:
        return v + steps - 1, v + steps + 1  # steps 1: the next iteration should give v + 1
    if -600 < v < 0:
        return v - steps - 1, v - steps + 1
    return v - 1, v + 1  # recognized or real: does not change with depth


def aspiration_window(values: dict[int, int], depth: int, parity: bool) -> tuple[int, int]:
    """The aspiration window of iteration ``depth`` from the root values of the earlier
    ones. With ``parity``, a heuristic value is predicted from the iteration two plies
    back: the side that moves last at the horizon alternates, and so, often, does the
    sign of the evaluation (the odd/even effect), which made every window miss."""
    last = values.get(depth - 1)
    if last is None:
        return -INF, INF
    same = values.get(depth - 2)
    if parity and same is not None and abs(last) < REC_MIN and abs(same) < REC_MIN:
        return _next_window(same, 2)
    return _next_window(last)
