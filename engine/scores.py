"""The score convention of the perfect solvers, and its plain-language reading.

0 is a draw; a positive score means the side to move wins; if the winner completes the four
with its k-th own disc, the score is ``floor((W*H + 1) / 2) + 1 - k`` (``22 - k`` on 7x6,
so the empty board scores +1 there).
"""

from __future__ import annotations

from .geometry import HALF
from .geometry import win_score as win_score

FULL_COLUMN = -1000  #: the reference solver's marker for a column that cannot be played


def moves_to_end(score: int, ply: int) -> int:
    """Moves of the winner still to be played, counting the winning one (0 for a draw)."""
    if score > 0:
        return (HALF + 1 - score) - ply // 2
    if score < 0:
        return (HALF + 1 + score) - (ply + 1) // 2
    return 0


def describe(score: int | None, ply: int) -> str:
    """``"win in 3"`` / ``"draw"`` / ``"loss in 5"`` for the side to move at ``ply``.

    "in N" counts the winner's own moves, the winning one included.
    """
    if score is None:
        return "-"
    if score == 0:
        return "draw"
    n = moves_to_end(score, ply)
    return f"win in {n}" if score > 0 else f"loss in {n}"
