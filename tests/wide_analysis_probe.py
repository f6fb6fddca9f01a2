"""Run in a subprocess with ``C4TUI_SIZE`` set: the analysis search's kernels on the given
positions, one JSON line per request read from stdin (JSON: ``{"kind": ..., "moves": ...}``,
0-based columns as a list):

- ``search``: a full-depth search in each variant (multi-PV over every column first): each
  line's column and exact score, the best move, the band and depth of the last iteration;
- ``fill``: MILTON's threat fill (``threat_fill``) of the position;
- ``eg``: the recognizer's condition and, if it holds, its exact endgame value.

tests/test_wide_analysis.py compares the answers with the brute force.
"""

from __future__ import annotations

import dataclasses
import json
import sys

import numpy as np
from c4tui.engine.analysis.controller import SearchController
from c4tui.engine.analysis.eval import EG_WORDS, endgame_value, recognizable, threat_fill
from c4tui.engine.board import geometry
from c4tui.engine.board.bitboard import word
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits, SearchOptions

NO_BOOK = SearchOptions(use_book=False)
VARIANTS = {
    "multipv": {"multipv": geometry.WIDTH},
    "mtdf": {"mtdf": True},
    "no-recognition": {"recognition": False},
    "killers": {"killers": True, "extensions": True, "threat_ordering": False},
}


def search(ctl: SearchController, pos: Position) -> dict:
    out = {}
    for name, change in VARIANTS.items():
        ctl.start(pos, Limits(nodes=None), dataclasses.replace(NO_BOOK, **change))
        assert ctl.wait(600)
        res = ctl.result
        assert res is not None and ctl.error is None
        its = ctl.snapshot().iterations
        out[name] = {
            "reason": str(res.reason), "best": res.best_move, "band": str(res.score.band),
            "score": res.score.value, "depth": its[-1].depth if its else 0,
            "lines": [[line.move, line.score.value, str(line.score.band)]
                      for line in res.lines],
            "pv": list(res.pv),
        }
    return out


def main() -> None:
    buf = np.zeros(EG_WORDS, dtype=np.int64)
    ctl = SearchController()
    for line in sys.stdin:
        req = json.loads(line)
        pos = Position.from_moves([c + 1 for c in req["moves"]])
        cur, mask = word(pos.current), word(pos.mask)
        row: dict = {"kind": req["kind"], "moves": req["moves"],
                     "size": [geometry.WIDTH, geometry.HEIGHT]}
        if req["kind"] == "search":
            row.update(search(ctl, pos))
        elif req["kind"] == "fill":
            outcome, plies = threat_fill(cur, mask)
            row.update(outcome=int(outcome), plies=int(plies))
        else:
            rec = bool(recognizable(mask))
            row["recognizable"] = rec
            if rec:
                row["value"] = int(endgame_value(cur, mask, pos.ply, buf.ctypes.data))
        print(json.dumps(row), flush=True)
    ctl.close()


if __name__ == "__main__":
    main()
