"""Cross-check of an 8-ply book against the 8-ply database of ``bitbully-databases``.

That database (John Tromp's 8-ply results, as packaged by BitBully) stores, for positions
with 8 discs, the game-theoretic value for the first player: a stored ``0`` is a draw, a
stored ``-1`` a loss, and a position that is absent is a win. With 8 discs the first player
is the side to move, so the sign of our exact score must match. Only the win/draw/loss
outcome is compared (the database has no distances).

The package is a test/benchmark extra (``bitbully`` pulls it in); it is used for nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from c4tui.engine.geometry import H1, HEIGHT, WIDTH

from .keys import key_to_words


@dataclass
class CrossCheck:
    """Outcome of a cross-check: counts and the first disagreements."""

    checked: int = 0
    agree: int = 0
    by_outcome: dict[str, int] = field(default_factory=lambda: {"win": 0, "draw": 0, "loss": 0})
    mismatches: list[tuple[int, int, int]] = field(default_factory=list)  # key, ours, theirs

    @property
    def ok(self) -> bool:
        return self.checked > 0 and self.agree == self.checked


def _board(current: int, mask: int) -> list[list[int]]:
    """BitBully's board matrix: row 0 at the top, 1 = first player, 2 = second player.

    Only for positions with an even number of discs (first player to move).
    """
    board = [[0] * WIDTH for _ in range(HEIGHT)]
    for c in range(WIDTH):
        for r in range(HEIGHT):
            bit = 1 << (c * H1 + r)
            if mask & bit:
                board[HEIGHT - 1 - r][c] = 1 if current & bit else 2
    return board


def crosscheck_8ply(keys: np.ndarray, scores: np.ndarray, max_mismatches: int = 20) -> CrossCheck:
    """Compare the outcome of each (key, score) with the bitbully 8-ply database.

    Raises ``ImportError`` with a one-line hint if ``bitbully-databases`` is not installed.
    """
    try:
        import bitbully_databases as bbd
    except ImportError:
        raise ImportError(
            "bitbully-databases is not installed (pip install bitbully-databases)"
        ) from None
    db = bbd.BitBullyDatabases("8-ply")
    res = CrossCheck()
    for key, score in zip(keys.tolist(), scores.tolist(), strict=True):
        current, mask = key_to_words(int(key))
        if bin(mask).count("1") != 8:
            raise ValueError(f"key {key:#x}: not an 8-disc position")
        theirs = db.get_book_value(_board(current, mask))
        ours = (score > 0) - (score < 0)
        res.checked += 1
        res.by_outcome[("loss", "draw", "win")[ours + 1]] += 1
        if ours == theirs:
            res.agree += 1
        elif len(res.mismatches) < max_mismatches:
            res.mismatches.append((int(key), int(score), int(theirs)))
    return res
