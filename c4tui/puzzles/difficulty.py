"""How hard a puzzle is: three measures and the 1-10 rating made of them.

* ``length``: the win's length, the mover's moves to the four with perfect play (longer
  wins are harder to see; a draw counts as the longest);
* ``decoys``: how many other moves look at least as good as the keeping one to a shallow
  search (MILTON's analysis search, :data:`SHALLOW_NODES` nodes after each move, no book):
  a move the shallow search ranks low is hard to find;
* ``nodes``: the exact solver's nodes for the position's column scores (a big tree is a
  deep, tactical position).

The rating adds one step per band of each: ``1 + min(3, (length - 1) // 3) +
min(3, decoys) + min(3, max(0, digits(nodes) - 3))`` (a draw's length counts 3 bands),
so 1 is a short win every search finds at once and 10 a long one that a shallow search
ranks last, in a large tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits, SearchOptions

if TYPE_CHECKING:
    from c4tui.engine.analysis.controller import SearchController

SHALLOW_NODES = 2_000  #: the shallow search's node limit after each move
_SHALLOW = SearchOptions(use_book=False, hash_mb=1)


def rating(length: int, decoys: int, nodes: int, draw: bool = False) -> int:
    """The 1-10 difficulty of the module docstring."""
    by_length = 3 if draw else min(3, max(0, length - 1) // 3)
    by_nodes = min(3, max(0, len(str(max(1, nodes))) - 3))
    return 1 + by_length + min(3, decoys) + by_nodes


class ShallowJudge:
    """Counts the decoys of a keeping move with one analysis search, reused (its tables
    are allocated once)."""

    def __init__(self, nodes: int = SHALLOW_NODES) -> None:
        from c4tui.engine.analysis.controller import SearchController

        self._ctl: SearchController = SearchController()
        self._limits = Limits(nodes=nodes)

    def values(self, pos: Position) -> dict[int, int]:
        """The shallow search's value of each legal move for the side to move."""
        out = {}
        for col in pos.legal_moves():
            child = pos.copy()
            child.play(col)
            if child.is_over:
                out[col] = 10**6  # a win at once: every search finds it
                continue
            self._ctl.start(child, self._limits, _SHALLOW)
            self._ctl.wait()
            res = self._ctl.result
            out[col] = -res.value if res is not None else 0
        return out

    def decoys(self, pos: Position, keep: int) -> int:
        """Other moves the shallow search values at least as high as ``keep``."""
        vals = self.values(pos)
        return sum(1 for col, v in vals.items() if col != keep and v >= vals[keep])

    def close(self) -> None:
        """Stop and join the search's worker."""
        self._ctl.close()
