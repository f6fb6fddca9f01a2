"""The fuzzers' shared settings and case counts (docs/reliability.md).

Two sizes of run, one code path:

* ``make test`` (the default): a small, deterministic share (``derandomize=True``, a few
  dozen cases per surface), so every run tries the same cases and stays fast;
* ``make fuzz`` (``C4TUI_FUZZ_LONG=1``): at least 10,000 cases per surface, random
  (a new sample each run; a failure prints the example and how to reproduce it).

Each surface counts the cases it really ran (:func:`count`); the counts are printed at
the end of the session and written as JSON to ``$C4TUI_FUZZ_REPORT`` when that is set.
"""

from __future__ import annotations

import os
from collections import Counter

from hypothesis import HealthCheck, settings

LONG = os.environ.get("C4TUI_FUZZ_LONG", "") not in ("", "0")
CASES: Counter[str] = Counter()
#: Measured figures (name -> values), e.g. the seconds each quit took.
FIGURES: dict[str, list[float]] = {}


def fuzz(fast: int, long: int = 10_000):
    """Hypothesis settings: ``fast`` cases in ``make test``, ``long`` in ``make fuzz``."""
    return settings(
        max_examples=long if LONG else fast,
        derandomize=not LONG,
        deadline=None,  # "no hang" is checked with explicit, generous timeouts instead
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.filter_too_much,
                               HealthCheck.function_scoped_fixture],
        print_blob=True,
    )


def count(surface: str, n: int = 1) -> None:
    """Record ``n`` cases tried on ``surface``."""
    CASES[surface] += n


def record(name: str, value: float) -> None:
    """Record a measured figure (printed as count, min, max at the end of the session)."""
    FIGURES.setdefault(name, []).append(value)
