"""Accuracy from exact values: lichess's formulas, fed with the solver's scores.

A position's exact score (the solvers' convention, :mod:`c4tui.engine.scores`) maps to a
win percentage for the side to move (:func:`win_percent`): a draw 50, a win 95-100 (the
faster the higher), a loss 0-5 (the slower the higher). A move's accuracy is lichess's
curve of the percentage it gave away (:func:`move_accuracy`); a side's game accuracy is
lichess's mean of a volatility-weighted mean and a harmonic mean over its moves
(:func:`game_accuracy`). Source: lichess's ``AccuracyPercent.scala`` (lila,
modules/analyse) and ``Maths.scala`` (lila, modules/common), described at
https://lichess.org/page/accuracy. One change: lichess adds a point to every move's
accuracy for the uncertainty of its engine's evaluations; exact values have none.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from c4tui.engine.scores import win_score

#: lichess's fit of a move's accuracy to the win percentage it lost.
CURVE_A = 103.1668100711649
CURVE_K = 0.04354415386753951
CURVE_B = -3.166924740191411
#: A win scores 95 + 5 * score / the fastest score (100 for the fastest win; 95 and a bit
#: for a win with the last disc); a loss is 100 minus the opponent's win.
WIN_FLOOR = 95.0


def win_percent(score: int) -> float:
    """The side to move's win percentage (0-100) of an exact ``score``."""
    if score == 0:
        return 50.0
    share = WIN_FLOOR + (100.0 - WIN_FLOOR) * abs(score) / win_score(0)
    return share if score > 0 else 100.0 - share


def accuracy_text(accuracy: float | None, decimals: int = 0) -> str:
    """``accuracy`` as a percentage rounded to ``decimals`` (``96%``, ``99.7%``; ``-``
    for None), but never up to 100: only a side that lost nothing shows 100."""
    if accuracy is None:
        return "-"
    text = f"{accuracy:.{decimals}f}"
    if accuracy < 100.0 and float(text) >= 100.0:
        text = f"{100.0 - 10.0 ** -decimals:.{decimals}f}"  # 99 or 99.9
    return f"{text}%"


def move_accuracy(before: float, after: float) -> float:
    """A move's accuracy (0-100) from the mover's win percentage before it (the best
    move's) and after it: ``103.1668 * exp(-0.04354 * (before - after)) - 3.1669``,
    clipped to 0..100; 100 when nothing was lost."""
    if after >= before:
        return 100.0
    raw = CURVE_A * math.exp(-CURVE_K * (before - after)) + CURVE_B
    return min(100.0, max(0.0, raw))


def game_accuracy(percents: Sequence[float]) -> tuple[float | None, float | None]:
    """White's and Black's accuracy over a game from the empty board, given White's win
    percentage of every position (the start, then after each move); None for a side
    without moves.

    Each move is weighted by the volatility around it: the population standard
    deviation, clipped to 0.5..12, of a window of ``len(moves) // 10`` positions (at
    least 2, at most 8) sliding along the game (the first moves share the first
    window). A side's accuracy is the mean of its moves' weighted mean and of their
    harmonic mean (each accuracy at least 1 there), so one blunder weighs heavily.
    """
    moves = len(percents) - 1
    size = min(max(moves // 10, 2), 8)
    first = list(percents[:size])
    windows = [first] * (min(size, len(percents)) - 2)
    windows += [list(percents[i:i + size]) for i in range(max(1, len(percents) - size + 1))]
    weights = [min(12.0, max(0.5, statistics.pstdev(w))) for w in windows]
    sides: tuple[list[tuple[float, float]], list[tuple[float, float]]] = ([], [])
    for i in range(moves):
        before, after = percents[i], percents[i + 1]
        if i % 2:  # Black's move: White's percentages seen from Black
            before, after = 100.0 - before, 100.0 - after
        sides[i % 2].append((move_accuracy(before, after), weights[i]))
    return _side(sides[0]), _side(sides[1])


def _side(moves: list[tuple[float, float]]) -> float | None:
    if not moves:
        return None
    weighted = sum(a * w for a, w in moves) / sum(w for _, w in moves)
    harmonic = len(moves) / sum(1.0 / max(1.0, a) for a, _ in moves)
    return (weighted + harmonic) / 2
