"""Node counts of the exact solver on fixed sets (1 thread, no book, deterministic).

Used to measure each solver change by the size of its tree, which does not depend on the
machine's load (times do): ``python docs/scripts/solver_nodes.py [--sets a,b] [--hash MB]``.
Every score is checked: Pons sets against their published scores, 8-disc positions against
the shipped book.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from c4tui.book import load
from c4tui.book.enumeration import enumerate_positions
from c4tui.engine.board.position import Position
from c4tui.engine.solver.solver import Solver

ROOT = Path(__file__).resolve().parents[2]


def pons(name: str, n: int) -> list[tuple[str, int | None]]:
    rows = (ROOT / "tests" / "data" / "pons" / name).read_text().split("\n")
    return [(r.split()[0], int(r.split()[1])) for r in rows[:n] if r.strip()]


def eight_ply(indices: list[int]) -> list[tuple[str, int | None]]:
    enum = enumerate_positions(8)
    book = load(ROOT / "book" / "c4tui-9ply.c4b")
    return [(enum.moves[i], book.get(Position.from_moves(enum.moves[i]))) for i in indices]


SETS = {
    "L2_R2": lambda: pons("Test_L2_R2", 200),
    "L1_R2": lambda: pons("Test_L1_R2", 30),
    "8ply10": lambda: eight_ply(list(range(10000, 10010))),
    "8ply40": lambda: eight_ply([7 + 1942 * k for k in range(40)]),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--hash", type=int, default=64)
    args = ap.parse_args()
    total = 0
    warm = pons("Test_L2_R2", 1)[0][0]  # compile (or load) the kernels before timing
    Solver(hash_mb=1, book=None).solve(Position.from_moves(warm))
    for name in args.sets.split(","):
        rows = SETS[name]()
        solver = Solver(hash_mb=args.hash, book=None, threads=1)
        nodes = wrong = checked = 0
        t0 = time.perf_counter()
        for moves, want in rows:
            r = solver.solve(Position.from_moves(moves))
            nodes += r.nodes
            if want is not None:
                checked += 1
                if r.score != want:
                    wrong += 1
                    print(f"  WRONG {moves}: {r.score} != {want}")
        dt = time.perf_counter() - t0
        total += nodes
        print(f"{name:8s} {len(rows):4d} pos  nodes {nodes:>12,d}  mean {nodes / len(rows):>12,.0f}"
              f"  checked {checked} wrong {wrong}  {dt:7.1f} s", flush=True)
    print(f"total nodes {total:,d}")


if __name__ == "__main__":
    main()
