"""The sequential probability ratio test on game pairs (GSPRT, pentanomial).

The test is fishtest's and fastchess's: the outcomes of game pairs (an opening played
with each colour: 0, 0.5, 1, 1.5 or 2 points, the pentanomial counts) are the samples;
H0 says the Elo difference is ``elo0``, H1 that it is ``elo1`` (logistic Elo, elo.py). The
log-likelihood ratio is the generalized one (GSPRT): for each hypothesis the outcome
distribution of greatest likelihood whose mean score is that hypothesis's score ``s``,

    p_i = p̂_i / (1 + λ (a_i - s)),   λ such that Σ p̂_i (a_i - s) / (1 + λ (a_i - s)) = 0

(``p̂`` the observed frequencies, ``a_i`` the outcomes' scores; Lagrange's condition for
the maximum), and ``LLR = N Σ p̂_i log(p1_i / p0_i)``. Sources: M. Van den Bergh,
"A quick derivation of the loglikelihood ratio for SPRT with draw modeling" and
"Generalized SPRT" notes (hardy.uhasselt.be/Fishtest), implemented in fishtest's
``stat_util.py`` (``LLR_logistic``, ``MLE_expected``). As there, an outcome never seen
counts as 0.001 of a sample, so that the estimate stays inside the simplex.

The test stops when the LLR leaves Wald's bounds: below ``log(β / (1 - α))`` H0 is
accepted, above ``log((1 - β) / α)`` H1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .elo import elo_to_score, outcome_scores

#: The count given to an outcome never seen (fishtest's regularisation).
UNSEEN = 1e-3
#: Bisection steps for λ: the interval shrinks below a double's resolution.
STEPS = 200
#: The hypotheses' Elo bound: beyond it a score rounds to 0 or 1 (or 10^x overflows), and
#: the MLE's λ interval divides by zero.
MAX_ELO = 2000.0


def mle_distribution(pdf: Sequence[float], scores: Sequence[float], s: float) -> list[float]:
    """The outcome distribution of greatest likelihood for the observed frequencies
    ``pdf`` (all > 0) whose mean score is ``s`` (0 < s < 1)."""
    diffs = [a - s for a in scores]
    # 1 + λ d_i > 0 for every outcome: λ in (-1 / max d, -1 / min d)
    lo, hi = -1.0 / max(diffs), -1.0 / min(diffs)

    def slope(lam: float) -> float:  # decreasing in λ
        return sum(p * d / (1.0 + lam * d) for p, d in zip(pdf, diffs, strict=True))

    for _ in range(STEPS):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if slope(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2
    probs = [p / (1.0 + lam * d) for p, d in zip(pdf, diffs, strict=True)]
    total = sum(probs)
    return [p / total for p in probs]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for outcome
    ``counts`` (5 pentanomial, or 3 trinomial; worst outcome first). 0 without samples."""
    if sum(counts) == 0:
        return 0.0
    regular = [max(float(c), UNSEEN) for c in counts]
    n = sum(regular)
    pdf = [c / n for c in regular]
    scores = outcome_scores(len(counts))
    p0 = mle_distribution(pdf, scores, elo_to_score(elo0))
    p1 = mle_distribution(pdf, scores, elo_to_score(elo1))
    return n * sum(p * math.log(b / a) for p, a, b in zip(pdf, p0, p1, strict=True))


@dataclass(frozen=True)
class Sprt:
    """The test's hypotheses (Elo) and error rates."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not all(-MAX_ELO <= e <= MAX_ELO for e in (self.elo0, self.elo1)):  # nan too
            raise ValueError(f"--sprt {self.elo0:g} {self.elo1:g}: out of range "
                             f"({-MAX_ELO:g} to {MAX_ELO:g} Elo)")
        if not self.elo0 < self.elo1:
            raise ValueError(f"--sprt {self.elo0:g} {self.elo1:g}: ELO0 must be below ELO1")
        for name, x in (("--alpha", self.alpha), ("--beta", self.beta)):
            if not 0.0 < x < 0.5:
                raise ValueError(f"{name} {x:g}: out of range (between 0 and 0.5)")

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR: log(β / (1 - α))."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR: log((1 - β) / α)."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        """The LLR of these pentanomial (or trinomial) counts."""
        return llr(counts, self.elo0, self.elo1)

    def verdict(self, value: float) -> str | None:
        """``"H0"`` or ``"H1"`` once the LLR ``value`` crossed a bound, else None."""
        if value <= self.lower:
            return "H0"
        if value >= self.upper:
            return "H1"
        return None
