"""One thread against two on the same positions: nodes, wall time and critical path.

``python docs/scripts/solver_threads.py L2_R2 L1_R2 8ply10`` (sets of solver_nodes.py).
Each position is solved by a one-thread and a two-thread solver (64 MB tables, each kept
across the set). The critical path is the one-thread nodes divided by the busiest thread's
nodes with two threads: the speed-up two free cores would give, whatever the machine's
load during the run. Scores of both must agree (and with the set's, where known).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from c4tui.engine.board.position import Position  # noqa: E402
from c4tui.engine.solver.solver import Solver  # noqa: E402
from solver_nodes import SETS  # noqa: E402


def main() -> None:
    names = sys.argv[1:] or ["L2_R2", "L1_R2", "8ply10"]
    warm = Position.from_moves(SETS["L2_R2"]()[0][0])
    Solver(1, book=None).solve(warm)  # load the kernels before timing
    Solver(1, book=None, threads=2).solve(warm)
    for name in names:
        one = Solver(64, book=None, threads=1)
        two = Solver(64, book=None, threads=2)
        n1 = n2 = 0
        t1 = t2 = 0.0
        for moves, want in SETS[name]():
            pos = Position.from_moves(moves)
            t = time.perf_counter()
            r1 = one.solve(pos)
            t1 += time.perf_counter() - t
            t = time.perf_counter()
            r2 = two.solve(pos)
            t2 += time.perf_counter() - t
            n1 += r1.nodes
            n2 += max(two.last_stats.thread_nodes)
            if r1.score != r2.score or (want is not None and r1.score != want):
                raise SystemExit(f"{moves}: 1 thread {r1.score}, 2 threads {r2.score}, "
                                 f"expected {want}")
        print(f"{name}: 1 thread {n1:,} nodes {t1:.1f} s; 2 threads: busiest thread "
              f"{n2:,} nodes {t2:.1f} s; critical path x{n1 / n2:.2f}, "
              f"wall x{t1 / t2:.2f}", flush=True)


if __name__ == "__main__":
    main()
