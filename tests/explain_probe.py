"""Run in a subprocess with ``C4TUI_SIZE`` set: random positions, each explained (with a
proof-search budget) and solved exactly; print one JSON object per position.

``python tests/explain_probe.py N SEED MIN_DISCS MAX_DISCS BUDGET``: N random games
stopped after a disc count drawn from [MIN_DISCS, MAX_DISCS] (a game that ends earlier is
played again), so positions where the side to move can win at once are included.
"""

from __future__ import annotations

import json
import random
import sys

from c4tui.engine.board import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.explain import check, explain
from c4tui.engine.solver.solver import Solver


def random_position(rng: random.Random, discs: int) -> Position:
    """A position of ``discs`` discs from random play, the game not over (at most the
    board's squares less one: a full board is over)."""
    discs = min(discs, geometry.SIZE - 1)
    while True:
        pos = Position()
        while pos.ply < discs and not pos.is_over:
            pos.play(rng.choice(pos.legal_moves()))
        if not pos.is_over and pos.ply == discs:
            return pos


def main() -> None:
    n, seed, lo, hi = (int(a) for a in sys.argv[1:5])
    budget = float(sys.argv[5])
    rng = random.Random(seed)
    solver = Solver(hash_mb=32, book=None, threads=1)
    for _ in range(n):
        pos = random_position(rng, rng.randint(lo, hi))
        cert = explain(pos, budget=budget)
        score = solver.solve(pos, need_move=False).score if cert.proves else None
        print(json.dumps({"moves": pos.digits(), "size": geometry.NAME, "ply": pos.ply,
                          "proves": cert.proves, "tree": cert.tree, "score": score,
                          "checked": cert.checked, "recheck": check(pos, cert),
                          "seconds": round(cert.seconds, 4)}), flush=True)


if __name__ == "__main__":
    main()
