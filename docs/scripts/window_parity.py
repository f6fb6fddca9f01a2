"""Re-searches and nodes of MILTON's aspiration windows with and without the same-parity
centre (``SearchOptions.window_parity``), on the shared test positions.

    .venv/bin/python docs/scripts/window_parity.py [--nodes 200000] [--every 25]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from c4tui.engine.analysis.controller import SearchController
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits, SearchOptions

DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "positions.txt"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--every", type=int, default=25, help="take every n-th position")
    args = ap.parse_args()
    lines = [ln.split()[0] for ln in DATA.read_text().splitlines() if ln.strip()]
    moves = [m for m in lines[:: args.every] if not Position.from_moves(m).is_over]
    ctl = SearchController()
    for parity in (False, True):
        re = nodes = iters = 0
        for m in moves:
            ctl.start(Position.from_moves(m), Limits(nodes=args.nodes),
                      SearchOptions(use_book=False, window_parity=parity))
            ctl.wait()
            its = ctl.snapshot().iterations
            re += sum(it.fail_highs + it.fail_lows for it in its)
            iters += len(its)
            nodes += ctl.result.nodes
        print(f"window_parity={parity!s:5}  positions {len(moves)}  iterations {iters}  "
              f"re-searches {re}  nodes {nodes:,}")
    ctl.close()


if __name__ == "__main__":
    main()
