"""Cross-check of an 8-ply book against the 8-ply database of ``bitbully-databases``.

That database (John Tromp's 8-ply results, as packaged by BitBully) stores, for positions
with 8 discs, the game-theoretic value for the first player: a stored ``0`` is a draw, a
stored ``-1`` a loss, and a position that is absent is a win. With 8 discs the first player
is the side to move, so the sign of our exact score must match. Only the win/draw/loss
outcome is compared (the database has no distances).

The package is a test/benchmark extra (``bitbully`` pulls it in); it is used for nothing else.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
from c4tui.engine.board.geometry import H1, HEIGHT, WIDTH
from c4tui.engine.board.position import Position
from c4tui.engine.books.negamax import book_negamax

from .format import Book
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


# ------------------------------------------------------------- the 12-ply database
def sample_indices(n: int, sample: int, seed: int) -> list[int]:
    """``min(sample, n)`` distinct indices of ``range(n)``, sorted, from ``seed``."""
    return sorted(random.Random(seed).sample(range(n), min(sample, n)))


def resolve_db12(db, indices, solve, progress=None, max_mismatches: int = 20) -> CrossCheck:
    """(a) Re-solve database entries: ``solve(pos)`` (our solver, no book) against the
    converted score of each entry ``indices`` of the 12-ply database ``db`` (a Book)."""
    from .keys import key_to_position

    res = CrossCheck()
    for j, i in enumerate(indices):
        key, theirs = int(db.keys[i]), int(db.scores[i])
        ours = solve(key_to_position(key))
        _count(res, key, ours, theirs, max_mismatches)
        if progress is not None:
            progress(j + 1, len(indices))
    return res


def minimax_value(pos: Position, db: Book, depth_left: int) -> int:
    """Exact score of ``pos`` by negamax (:func:`~c4tui.engine.books.negamax.book_negamax`)
    down to the database's discs, ``depth_left`` plies below; ``LookupError`` if a position
    it needs is not in the database (which leaves out exactly those won at once)."""
    bottom = pos.ply + depth_left

    def lookup(current: int, mask: int) -> int | None:
        return db.lookup(current, mask) if bin(mask).count("1") == bottom else None

    known = book_negamax(pos.current, pos.mask, lookup, depth_left)
    if known is None:
        raise LookupError(f"{pos.digits()}: a position {depth_left} plies below is not in "
                          "the 12-ply database")
    return known[0]


def minimax_book(book_keys, book_scores, db, indices, progress=None,
                 max_mismatches: int = 20) -> CrossCheck:
    """(b) Our book's entries ``indices`` (9 discs) against the score derived from the
    database three plies down by minimax."""
    from .keys import key_to_position

    res = CrossCheck()
    for j, i in enumerate(indices):
        key, ours = int(book_keys[i]), int(book_scores[i])
        pos = key_to_position(key)
        theirs = minimax_value(pos, db, 12 - pos.ply)
        _count(res, key, ours, theirs, max_mismatches)
        if progress is not None:
            progress(j + 1, len(indices))
    return res


def _count(res: CrossCheck, key: int, ours: int, theirs: int, max_mismatches: int) -> None:
    res.checked += 1
    res.by_outcome[("loss", "draw", "win")[(ours > 0) - (ours < 0) + 1]] += 1
    if ours == theirs:
        res.agree += 1
    elif len(res.mismatches) < max_mismatches:
        res.mismatches.append((key, ours, theirs))
