"""Opening-book lookup from inside the numba kernels.

The book (:class:`c4tui.book.format.Book`) is two C-contiguous arrays, sorted canonical
keys (``uint64``) and exact scores (``int8``). The kernels receive their addresses and
call :func:`book_probe` at any node; it costs one shift and test when the node's disc count
is not in the book, and a mirror plus a binary search (17 steps for an 8-ply book) when it is.

Call from a kernel::

    s = book_probe(keys_addr, scores_addr, n, plies, current, mask, ply)
    if s != BOOK_MISS:
        return s        # exact score of the position (perfect solvers' convention)

From Python, get the four book arguments with ``book.probe_args()`` (keep the Book object
alive while a kernel uses them), or ``NO_BOOK_ARGS = (0, 0, 0, 0)`` for no book: with
``plies == 0`` every probe misses at once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitboard import mirror_word
from ..board.geometry import TWO_WORDS
from ..mem import load_i8, load_u64

#: Returned when the position is not in the book (never a score: scores lie in -18..18).
BOOK_MISS = -128


@njit(nogil=True, cache=True)
def _book_probe(keys_addr, scores_addr, n, plies, current, mask, ply):
    """Exact score of the position (``current``, ``mask``, ``ply``) or :data:`BOOK_MISS`.

    Arguments: ``keys_addr``/``scores_addr`` the data addresses of the book's sorted
    canonical keys (``uint64``) and scores (``int8``), ``n`` the number of entries, ``plies``
    the bit mask of the disc counts the book covers (bit p: positions with p discs),
    ``current``/``mask`` the position words (``uint64``), ``ply`` its disc count.
    The key is normalised by mirror image (``min(key, mirror)``) before the binary search.
    Positions in which the side to move can win at once, or that are won, are not in a book.
    """
    if ply < 0 or ply > 62 or (plies >> ply) & 1 == 0 or n <= 0:
        return BOOK_MISS
    key = np.uint64(current) + np.uint64(mask)
    mk = mirror_word(key)
    if mk < key:
        key = mk
    lo = 0
    hi = n - 1
    while lo <= hi:
        mid = (lo + hi) >> 1
        k = load_u64(keys_addr, mid)
        if k < key:
            lo = mid + 1
        elif k > key:
            hi = mid - 1
        else:
            return np.int64(load_i8(scores_addr, mid))
    return BOOK_MISS


@njit(nogil=True, cache=True)
def _no_book(keys_addr, scores_addr, n, plies, current, mask, ply):
    """The boards past 64 bits have no book (a book's keys are ``uint64``): always a miss."""
    return BOOK_MISS


#: The probe the kernels compile (see ``_book_probe``).
book_probe = _no_book if TWO_WORDS else _book_probe
