"""c4tui match's statistics: Elo and its interval, the SPRT's LLR and bounds, the tally.

The LLR is checked against values derived here independently: the log-likelihood of the
counts maximised by a plain compass search over the distributions with the hypothesis's
mean score (no Lagrange multiplier, no bisection), then the ratio of the two maxima."""

from __future__ import annotations

import math
import random

import pytest

from c4tui.match.elo import elo_to_score, estimate, score_to_elo
from c4tui.match.sprt import UNSEEN, Sprt, llr
from c4tui.match.tally import Tally


# ---------------------------------------------------------------- an independent LLR
def _max_loglik(counts: list[float], s: float) -> float:
    """max Σ n_i log p_i over distributions p on the scores i/(k-1) with mean ``s``, by a
    compass search along directions that keep the sum and the mean (second differences)."""
    k = len(counts)
    a = [i / (k - 1) for i in range(k)]
    # an interior start with mean s: the uniform distribution pulled towards one end
    t = abs(2 * s - 1)
    end = k - 1 if s > 0.5 else 0
    p = [(1 - t) / k + (t if i == end else 0.0) for i in range(k)]
    assert abs(sum(x * y for x, y in zip(p, a, strict=True)) - s) < 1e-12
    dirs = []
    for j in range(k - 2):
        d = [0.0] * k
        d[j], d[j + 1], d[j + 2] = 1.0, -2.0, 1.0
        dirs.append(d)

    def f(q: list[float]) -> float:
        if min(q) <= 0:
            return -math.inf
        return sum(n * math.log(x) for n, x in zip(counts, q, strict=True))

    best, step = f(p), 0.05
    while step > 1e-13:
        moved = False
        for d in dirs:
            for sign in (1.0, -1.0):
                q = [x + sign * step * y for x, y in zip(p, d, strict=True)]
                v = f(q)
                if v > best:
                    p, best, moved = q, v, True
        if not moved:
            step /= 2
    return best


def _reference_llr(counts: list[int], elo0: float, elo1: float) -> float:
    regular = [max(float(c), UNSEEN) for c in counts]  # fishtest's count for an unseen outcome
    return (_max_loglik(regular, elo_to_score(elo1))
            - _max_loglik(regular, elo_to_score(elo0)))


@pytest.mark.parametrize("counts, elo0, elo1", [
    ([100, 400, 900, 400, 100], 0, 10),       # balanced: H0 favoured
    ([50, 300, 900, 500, 150], 0, 10),        # A ahead: H1 favoured
    ([3, 10, 25, 14, 6], -5, 5),
    ([0, 2, 7, 3, 0], 0, 50),                 # outcomes never seen
    ([120, 80, 200], 0, 20),                  # trinomial: losses, draws, wins
    ([30, 10, 5], -50, 0),
])
def test_llr_matches_a_direct_maximisation_of_the_likelihood(counts, elo0, elo1):
    assert llr(counts, elo0, elo1) == pytest.approx(_reference_llr(counts, elo0, elo1),
                                                    abs=1e-6, rel=1e-7)


def test_llr_signs_and_no_samples():
    assert llr([0, 0, 0, 0, 0], 0, 10) == 0.0
    assert llr([50, 300, 900, 500, 150], 0, 10) > 0 > llr([150, 500, 900, 300, 50], 0, 10)


def test_wald_bounds():
    t = Sprt(0, 10)
    assert t.lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944438979)
    assert t.upper == pytest.approx(math.log(0.95 / 0.05)) == pytest.approx(2.944438979)
    t = Sprt(-3, 1, alpha=0.1, beta=0.02)
    assert t.lower == pytest.approx(math.log(0.02 / 0.9))
    assert t.upper == pytest.approx(math.log(0.98 / 0.1))
    assert t.verdict(t.lower) == "H0" and t.verdict(t.upper) == "H1"
    assert t.verdict(0.0) is None


@pytest.mark.parametrize("args, message", [
    ((10, 0), "--sprt 10 0: ELO0 must be below ELO1"),
    ((0, 10, 0.0), "--alpha 0: out of range (between 0 and 0.5)"),
    ((0, 10, 0.05, 0.7), "--beta 0.7: out of range (between 0 and 0.5)"),
    # a score of 1 (or an overflow) at the ends: the LLR divided by zero in a worker thread
    ((0, math.inf), "--sprt 0 inf: out of range (-2000 to 2000 Elo)"),
    ((-5000, 0), "--sprt -5000 0: out of range (-2000 to 2000 Elo)"),
    ((math.nan, 5), "--sprt nan 5: out of range (-2000 to 2000 Elo)"),
])
def test_bad_sprt_parameters_are_one_line(args, message):
    with pytest.raises(ValueError, match=f"^{message.replace('(', '[(]').replace(')', '[)]')}$"):
        Sprt(*args)


# ---------------------------------------------------------------- Elo
def test_elo_of_known_scores():
    assert score_to_elo(0.5) == 0.0
    assert score_to_elo(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf
    for elo in (-300, -20, 0, 35, 400):
        assert score_to_elo(elo_to_score(elo)) == pytest.approx(elo)


def test_elo_interval_from_trinomial_and_pentanomial_counts():
    # 30 wins, 40 draws, 30 losses: score 0.5, per-game variance 0.15 (0.3 x 0.25 twice)
    est = estimate([30, 40, 30])
    half = 1.959964 * math.sqrt(0.15 / 100)
    assert est.elo == 0.0
    assert est.lo == pytest.approx(score_to_elo(0.5 - half), abs=1e-3)
    assert est.hi == pytest.approx(score_to_elo(0.5 + half), abs=1e-3)
    assert est.text() == f"+0.0 (95%: {score_to_elo(0.5 - half):+.1f} to " \
                         f"{score_to_elo(0.5 + half):+.1f})"
    # pairs: 10 at 1.5 points, 10 at 1: mean pair score 0.625, variance 0.015625
    est = estimate([0, 0, 10, 10, 0])
    half = 1.959964 * math.sqrt(0.015625 / 20)
    assert est.score == 0.625
    assert est.lo == pytest.approx(score_to_elo(0.625 - half), abs=1e-3)
    assert estimate([0, 0, 0]) is None
    alike = estimate([0, 0, 0, 3, 0])  # no variance yet: no bound
    assert (alike.elo, alike.lo, alike.hi) == (score_to_elo(0.75), -math.inf, math.inf)


def test_tally_counts_pairs_whatever_order_games_end_in():
    t = Tally()
    # pair 1 ends first (concurrency), pair 0's games around it
    for pair, points in ((0, 1.0), (1, 0.5), (1, 0.0), (2, 1.0), (0, 0.5), (2, 1.0)):
        t.add(pair, points)
    assert (t.wins, t.draws, t.losses) == (3, 2, 1)
    assert t.pairs == [0, 1, 0, 1, 1]  # 0.5, 1.5 and 2 points
    assert t.counts() == t.pairs and t.score == pytest.approx(4 / 6)
    t = Tally()
    t.add(0, 1.0)
    assert t.counts() == [0, 0, 1] and t.pairs == [0] * 5  # no complete pair: per game


# ---------------------------------------------------------------- seeded simulated matches
def _simulate(rng: random.Random, elo: float, test: Sprt, draw: float = 0.3,
              max_pairs: int = 20_000) -> str | None:
    """Pairs of games of a side ``elo`` stronger (each game: win, draw or loss with
    the model's score and draw rate) until the test decides; its verdict."""
    s = elo_to_score(elo)
    win, loss = s - draw / 2, 1 - s - draw / 2
    tally = Tally()
    for pair in range(max_pairs):
        for _ in range(2):
            r = rng.random()
            tally.add(pair, 1.0 if r < win else 0.0 if r < win + loss else 0.5)
        verdict = test.verdict(test.llr(tally.pairs))
        if verdict is not None:
            return verdict
    return None


def test_simulated_equal_engines_mostly_accept_h0():
    test = Sprt(0, 40)
    verdicts = [_simulate(random.Random(seed), 0.0, test) for seed in range(20)]
    assert verdicts.count("H0") >= 17, verdicts  # 95% expected


def test_simulated_strong_against_weak_accepts_h1():
    test = Sprt(0, 40)
    verdicts = [_simulate(random.Random(100 + seed), 150.0, test) for seed in range(20)]
    assert verdicts.count("H1") >= 19, verdicts
