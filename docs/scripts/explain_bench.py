"""Measure c4tui explain on random 7x6 positions (docs/benchmarks.md, "Explanations").

``python docs/scripts/explain_bench.py N SEED [BUDGET]``: N random games stopped at a disc
count drawn from 8..40 (a game that ends earlier is played again). Prints the time of the
rules alone (the instances, the cover search: :func:`evaluate`) at the 50th, 99th
percentile and the maximum, in CPU seconds of the process (the machine is shared: its
wall clock measures the load), and with BUDGET (default 1 s) the share of the positions
of 20 discs or more that :func:`explain` proves, with its time.

``python docs/scripts/explain_bench.py trees K SEED [BUDGET]``: the same random positions
until K of them are proven with a tree (positions above the rules' leaves) within BUDGET:
the tree's size (median, maximum) as first found (the shallowest proof) and as
:func:`explain` gives it (made smaller in the budget's time left), and its time.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from c4tui.engine.explain import default_side, explain
from c4tui.engine.explain.evaluate import evaluate
from c4tui.engine.explain.proof import search

# The random positions are the soundness test's (tests/explain_probe.py): one helper, so the
# benchmark and the test draw the same positions from the same seed.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from explain_probe import random_position  # noqa: E402


def trees(k: int, seed: int, budget: float) -> None:
    """The trees of the first ``k`` random positions proven with one: first and smaller."""
    rng = random.Random(seed)
    first: list[int] = []
    smaller: list[int] = []
    spent: list[float] = []
    seen = 0
    while len(first) < k:
        pos = random_position(rng, rng.randint(8, 40))
        seen += 1
        cert = explain(pos, budget=budget)
        if not cert.tree:
            continue
        sides = (default_side(pos), 1 - default_side(pos))
        found = search(pos, sides, budget, smaller=False)
        if found is None or cert.checked is not True:
            print(f"{pos.digits()}: {cert.proves}, first search: {found is not None}, "
                  f"checked {cert.checked}")
            continue
        first.append(found[1].internal())
        smaller.append(cert.tree)
        spent.append(cert.seconds)
        if smaller[-1] < first[-1]:
            print(f"{pos.digits()}: {cert.proves}, tree {first[-1]} -> {cert.tree} "
                  f"({cert.seconds:.3f} s)")
    for name, got in (("first found", first), ("explain", smaller), ("seconds", spent)):
        got.sort()
        print(f"{name}: median {got[k // 2]:.3g}, max {got[-1]:.3g}, sum {sum(got):.3g}")
    print(f"{k} trees in {seen} positions, budget {budget:g} s")


def main() -> None:
    if sys.argv[1] == "trees":
        trees(int(sys.argv[2]), int(sys.argv[3]),
              float(sys.argv[4]) if len(sys.argv) > 4 else 1.0)
        return
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
