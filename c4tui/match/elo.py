"""Elo from a match score: the logistic model, and a 95% interval from the pair counts.

A score ``s`` (points per game, 0-1) means an Elo difference of ``-400 log10(1/s - 1)``
(the logistic model of cutechess, fastchess and fishtest's "logistic Elo"). The interval
is the normal approximation around the mean score: ``s ± 1.96 σ/√N`` with σ the standard
deviation of one game pair's score (pentanomial: the pair is the unit, so the correlation
of an opening's two games is counted), or of one game's (trinomial) when no pair is
complete, each end turned into Elo. While every sample is alike (one game, or every
pair won) there is no variance to go by: the interval is unbounded.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The normal distribution's two-sided 95% quantile.
Z95 = 1.959963984540054


def elo_to_score(elo: float) -> float:
    """The expected score (0-1) of a side ``elo`` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """The Elo difference of an expected score (±inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: 0.5 is 0, not -0


def outcome_scores(n: int) -> tuple[float, ...]:
    """The scores of ``n`` outcomes spread evenly over 0-1: 3 (loss, draw, win) or 5 (a
    pair's 0, 0.5, 1, 1.5, 2 points, halved)."""
    return tuple(i / (n - 1) for i in range(n))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference and its 95% interval (``lo`` to ``hi``; inf where unbounded)."""

    elo: float
    lo: float
    hi: float
    score: float  #: the mean score per game, 0-1

    def text(self) -> str:
        """``+35.2 (95%: -5.1 to +76.3)``."""
        return f"{_signed(self.elo)} (95%: {_signed(self.lo)} to {_signed(self.hi)})"


def _signed(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x + 0.0:+.1f}"  # + 0.0: no "-0.0"


def estimate(counts: Sequence[int]) -> EloEstimate | None:
    """The Elo estimate of outcome ``counts`` (3 trinomial or 5 pentanomial, worst first);
    None without any outcome."""
    n = sum(counts)
    if n == 0:
        return None
    scores = outcome_scores(len(counts))
    mean = sum(c * a for c, a in zip(counts, scores, strict=True)) / n
    var = sum(c * (a - mean) ** 2 for c, a in zip(counts, scores, strict=True)) / n
    if var == 0.0:  # every sample alike (one game, or all won): nothing bounds it yet
        return EloEstimate(score_to_elo(mean), -math.inf, math.inf, mean)
    half = Z95 * math.sqrt(var / n)
    return EloEstimate(score_to_elo(mean), score_to_elo(max(0.0, mean - half)),
                       score_to_elo(min(1.0, mean + half)), mean)
