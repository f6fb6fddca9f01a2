"""How far from the end the exact solver answers quickly, on one board size.

``C4TUI_SIZE=8x8 python docs/scripts/wide_endgames.py [--empties 12,16,20,24] [-n 10]
[--threads N] [--hash MB]`` solves ``n`` random positions (random games without a
blunder, see ``random_position``)
with each number of empty squares and prints, per number, the median and the largest
time, the median nodes and the speed. The positions come from a fixed seed, so two runs
(two versions, two machines) solve the same ones. The kernels are loaded first (their
compilation, once per size, is not counted).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from c4tui.engine.board import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.solver.solver import Solver


def random_position(rng: random.Random, empties: int) -> Position:
    """A position with ``empties`` empty squares from a random game in which neither side
    blunders: no move completes a four or lets the opponent complete one at once (random
    games without that rule end early or leave a win at once: trivial to solve)."""
    while True:
        pos = Position()
        while pos.ply < geometry.SIZE - empties:
            safe = []
            for c in range(geometry.WIDTH):
                if not pos.can_play(c) or pos.is_winning_move(c):
                    continue
                child = pos.copy()
                child.play(c)
                if not child.can_win_next():
                    safe.append(c)
            if not safe:
                break
            pos.play(rng.choice(safe))
        if pos.ply == geometry.SIZE - empties and not pos.can_win_next():
            return pos


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--empties", default="12,16,20,24")
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash", type=int, default=256, help="table (MB)")
    args = ap.parse_args()
    solver = Solver(book=None, threads=args.threads, hash_mb=args.hash)
    rng = random.Random(2811)
    solver.solve(random_position(rng, 10))  # load the kernels
    print(f"{geometry.NAME}, {args.threads} thread(s), {args.hash} MB, {args.n} random "
          "positions per row (seed 2811)")
    print(f"{'empty':>5} {'median s':>9} {'max s':>8} {'median nodes':>13} {'M nodes/s':>9}")
    for empties in (int(e) for e in args.empties.split(",")):
        times, nodes = [], []
        for _ in range(args.n):
            pos = random_position(rng, empties)
            solver.clear()
            t0 = time.perf_counter()
            r = solver.solve(pos)
            times.append(time.perf_counter() - t0)
            nodes.append(r.nodes)
        speed = sum(nodes) / max(sum(times), 1e-9) / 1e6
        print(f"{empties:>5} {statistics.median(times):>9.3f} {max(times):>8.3f} "
              f"{statistics.median(nodes):>13,.0f} {speed:>9.2f}", flush=True)


if __name__ == "__main__":
    main()
