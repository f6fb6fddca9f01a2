"""Run in a subprocess with ``C4TUI_SIZE`` set: solve the positions given on stdin (digit
strings, one a line; an empty line is the empty board) and print one JSON line per
position: the score, the best move, the column scores and the board size the engine saw."""

from __future__ import annotations

import json
import sys

from c4tui.engine.board import geometry
from c4tui.engine.board.position import Position
from c4tui.engine.solver.solver import Solver


def main() -> None:
    analyze = "--analyze" in sys.argv
    solver = Solver(hash_mb=16, book=None, threads=1)
    for line in sys.stdin:
        pos = Position.from_moves(line.strip())
        r = solver.solve(pos)
        row = {"moves": line.strip(), "size": [geometry.WIDTH, geometry.HEIGHT],
               "score": r.score, "move": r.best_move}
        if analyze:
            row["columns"] = list(solver.analyze(pos).scores)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
