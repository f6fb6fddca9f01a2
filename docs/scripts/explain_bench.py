"""Measure c4tui explain on random 7x6 positions (docs/benchmarks.md, "Explanations").

``python docs/scripts/explain_bench.py N SEED [BUDGET]``: N random games stopped at a disc
count drawn from 8..40 (a game that ends earlier is played again). Prints the time of the
rules alone (the instances, the cover search: :func:`evaluate`) at the 50th, 99th
percentile and the maximum, in CPU seconds of the process (the machine is shared: its
wall clock measures the load), and with BUDGET (default 1 s) the share of the positions
of 20 discs or more that :func:`explain` proves, with its time.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from c4tui.engine.explain import explain
from c4tui.engine.explain.evaluate import evaluate

# The random positions are the soundness test's (tests/explain_probe.py): one helper, so the
# benchmark and the test draw the same positions from the same seed.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from explain_probe import random_position  # noqa: E402


def main() -> None:
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    budget = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    rng = random.Random(seed)
    positions = [random_position(rng, rng.randint(8, 40)) for _ in range(n)]
    times: list[float] = []
    black: list[float] = []  # White to move: Black's rules (the others: White's odd threat)
    for pos in positions:
        # CPU time of this process: on the shared machine the wall clock measures the load
        t = time.process_time()
        evaluate(pos.current, pos.mask, 1 - pos.to_move)
        times.append(time.process_time() - t)
        if pos.to_move == 0:
            black.append(times[-1])
    for name, got in ((f"all {n} positions", times), (f"{len(black)} with White to move",
                                                       black)):
        got.sort()
        ms = [1000 * got[int(q * (len(got) - 1))] for q in (0.5, 0.99, 1.0)]
        print(f"rules alone, {name}: p50 {ms[0]:.1f} ms, p99 {ms[1]:.1f} ms, "
              f"max {ms[2]:.1f} ms")
    late = [p for p in positions if p.ply >= 20]
    proven, spent = 0, []
    for pos in late:
        cert = explain(pos, budget=budget)
        proven += cert.proves is not None
        spent.append(cert.seconds)
    spent.sort()
    print(f"explain --budget {budget:g}, {len(late)} positions of 20+ discs: {proven} proven "
          f"({100 * proven / max(1, len(late)):.0f}%), median {spent[len(spent) // 2]:.2f} s")


if __name__ == "__main__":
    main()
