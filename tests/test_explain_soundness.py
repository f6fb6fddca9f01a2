"""explain against the exact solver on random positions (slow: a subprocess per board
size, each compiling the solver for its size on a cold cache).

A certificate claiming more than the exact value is a bug; so is one the independent
checker refuses. By default 300 positions of 7x6 (8 to 40 discs) and 150 of each of 5x4
and 7x4 (Allis's small board): 5x4's kernels are compiled for tests/test_sizes.py anyway,
and each further size costs a cold compile of 40 s in a clean clone's run.
``C4TUI_TEST_EXPLAIN_SIZES=all`` adds 6x4 and 6x6; ``C4TUI_TEST_EXPLAIN=N`` runs N per
size (docs/benchmarks.md, "Explanations", has the 10,000-position run).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = Path(__file__).with_name("explain_probe.py")
SIZES = [("7x6", 8, 40, 300), ("5x4", 4, 18, 150), ("7x4", 4, 24, 150)]
if os.environ.get("C4TUI_TEST_EXPLAIN_SIZES") == "all":
    SIZES += [("6x4", 4, 20, 150), ("6x6", 14, 30, 150)]


def _wrong(row: dict) -> bool:
    """Whether a probe's row claims more than its exact score allows."""
    if row["proves"] is None:
        return False
    white = row["score"] if row["ply"] % 2 == 0 else -row["score"]
    return {"black at least draws": white > 0, "black wins": white >= 0,
            "white wins": white <= 0, "white at least draws": white < 0}[row["proves"]]


@pytest.mark.parametrize(("size", "lo", "hi", "n"), SIZES)
def test_no_certificate_contradicts_the_solver(size, lo, hi, n):
    n = int(os.environ.get("C4TUI_TEST_EXPLAIN", n))
    env = {**os.environ, "C4TUI_SIZE": size}
    got = subprocess.run([sys.executable, str(PROBE), str(n), "35", str(lo), str(hi), "0.1"],
                         capture_output=True, text=True, env=env, timeout=3600)
    assert got.returncode == 0, got.stderr[-2000:]
    rows = [json.loads(line) for line in got.stdout.splitlines()]
    assert len(rows) == n and all(r["size"] == size for r in rows)
    wrong = [r for r in rows if _wrong(r)]
    refused = [r for r in rows if r["checked"] is False or not r["recheck"]]
    assert not wrong, wrong[:5]
    assert not refused, refused[:5]
    assert sum(r["proves"] is not None for r in rows) >= n // 5  # it does prove things
