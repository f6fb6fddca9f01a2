"""Bitboard primitives and constants shared by the numba kernels (inlined into their callers).

A bitboard is a *word*: ``uint64`` on the boards of up to 64 bits (7x6: 49), a 128-bit
:class:`~.word128.Word128` on larger ones (``geometry.TWO_WORDS``). The kernels are written
once against the word's operators and the constants and helpers here (``word``, ``U0``,
``COLUMN_MASKS``, ``popcount``, ``fold64``, ``load_word``...), so a 7x6 kernel compiles to the
same code as before the 128-bit word existed. See :mod:`c4tui.engine.board.geometry` for the layout.
Shift counts stay ``uint64``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..mem import load_u64, store_u64
from . import geometry
from .geometry import BOARD, BOTTOM, EVEN_ROWS, H1, HEIGHT, ODD_ROWS, TWO_WORDS, WIDTH, column_bits

if TWO_WORDS:
    from .word128 import Word128, high64, low64, popcount128, widen

    def word(x: Any) -> Any:
        """A bitboard (``int`` or numpy integer) as the kernels' word."""
        return Word128(int(x))
else:
    def word(x: Any) -> Any:
        """A bitboard (``int`` or numpy integer) as the kernels' word."""
        return np.uint64(x)

#: ``uint64`` slots a word takes in a scratch buffer (``load_word``/``store_word``).
WORD_SLOTS = 2 if TWO_WORDS else 1
U0 = word(0)
U1 = word(1)
U_BOTTOM = word(BOTTOM)
U_BOARD = word(BOARD)
U_ODD_ROWS = word(ODD_ROWS)
U_EVEN_ROWS = word(EVEN_ROWS)
#: Each column's squares: an array of ``uint64`` (a tuple of words on the two-word sizes,
#: which numba indexes alike).
COLUMN_MASKS: Any = (tuple(word(column_bits(c)) for c in range(WIDTH)) if TWO_WORDS
                     else np.array([column_bits(c) for c in range(WIDTH)], dtype=np.uint64))
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S3 = np.uint64(3)
_SH = np.uint64(H1)
_SH2 = np.uint64(2 * H1)
_SH3 = np.uint64(3 * H1)
_SD = np.uint64(H1 - 1)
_SD2 = np.uint64(2 * (H1 - 1))
_SD3 = np.uint64(3 * (H1 - 1))
_SA = np.uint64(H1 + 1)
_SA2 = np.uint64(2 * (H1 + 1))
_SA3 = np.uint64(3 * (H1 + 1))
_COL_BITS = word((1 << HEIGHT) - 1)
_UH1 = np.uint64(H1)
_COL_FULL = word((1 << H1) - 1)
_FOLD = np.uint64(0x9E3779B97F4A7C15)

if TWO_WORDS:
    @njit(inline="always", nogil=True, cache=True)
    def popcount(x):
        """Number of set bits (LLVM's ``ctpop`` of the 128-bit word)."""
        return popcount128(x)

    @njit(inline="always", nogil=True, cache=True)
    def fold64(x):
        """A ``uint64`` hash of a word (the word itself on the one-word sizes)."""
        return low64(x) ^ (high64(x) * _FOLD)

    @njit(inline="always", nogil=True, cache=True)
    def load_word(buf, i):
        """The word in slots ``i`` and ``i + 1`` of the buffer at address ``buf``."""
        return widen(load_u64(buf, i)) | (widen(load_u64(buf, i + 1)) << np.uint64(64))

    @njit(inline="always", nogil=True, cache=True)
    def store_word(buf, i, x):
        """Store the word ``x`` at slots ``i`` and ``i + 1`` (see :func:`load_word`)."""
        store_u64(buf, i, low64(x))
        store_u64(buf, i + 1, high64(x))

    @njit(inline="always", nogil=True, cache=True)
    def mirror_word(x):
        """Mirror image (column c <-> column W-1-c) of a word."""
        r = U0
        for c in range(WIDTH):
            col = (x >> np.uint64(c * H1)) & _COL_FULL
            r |= col << np.uint64((WIDTH - 1 - c) * H1)
        return r
else:
    @njit(inline="always", nogil=True, cache=True)
    def popcount(x):
        """Number of set bits (LLVM compiles the loop to one ``popcnt``)."""
        n = 0
        while x:
            x &= x - U1
            n += 1
        return n

    @njit(inline="always", nogil=True, cache=True)
    def fold64(x):
        """A ``uint64`` hash of a word (the word itself on the one-word sizes)."""
        return x

    @njit(inline="always", nogil=True, cache=True)
    def load_word(buf, i):
        """The word in slot ``i`` of the buffer at address ``buf``."""
        return load_u64(buf, i)

    @njit(inline="always", nogil=True, cache=True)
    def store_word(buf, i, x):
        """Store the word ``x`` at slot ``i`` (see :func:`load_word`)."""
        store_u64(buf, i, x)

    #: The mirror image of a word, compiled from its one definition in :mod:`.geometry`.
    mirror_word = njit(inline="always", nogil=True, cache=True)(geometry.mirror_word)


@njit(inline="always", nogil=True, cache=True)
def winning_squares(p, mask):
    """Empty squares, playable or not, that complete a four for the stones ``p``."""
    r = (p << _S1) & (p << _S2) & (p << _S3)
    t = (p << _SH) & (p << _SH2)
    r |= t & (p << _SH3)
    r |= t & (p >> _SH)
    t = (p >> _SH) & (p >> _SH2)
    r |= t & (p << _SH)
    r |= t & (p >> _SH3)
    t = (p << _SD) & (p << _SD2)
    r |= t & (p << _SD3)
    r |= t & (p >> _SD)
    t = (p >> _SD) & (p >> _SD2)
    r |= t & (p << _SD)
    r |= t & (p >> _SD3)
    t = (p << _SA) & (p << _SA2)
    r |= t & (p << _SA3)
    r |= t & (p >> _SA)
    t = (p >> _SA) & (p >> _SA2)
    r |= t & (p << _SA)
    r |= t & (p >> _SA3)
    return r & (U_BOARD ^ mask)


@njit(inline="always", nogil=True, cache=True)
def has_four(p):
    """Whether the stones ``p`` contain four in a row."""
    m = p & (p >> _SH)
    if m & (m >> _SH2):
        return True
    m = p & (p >> _SD)
    if m & (m >> _SD2):
        return True
    m = p & (p >> _SA)
    if m & (m >> _SA2):
        return True
    m = p & (p >> _S1)
    return (m & (m >> _S2)) != U0


@njit(inline="always", nogil=True, cache=True)
def possible(mask):
    """The squares each non-full column would be filled at next."""
    return (mask + U_BOTTOM) & U_BOARD


@njit(inline="always", nogil=True, cache=True)
def column_of(move):
    """Column (0-6) of a single-bit move."""
    c = 0
    m = move >> _UH1
    while m:
        m >>= _UH1
        c += 1
    return c

