"""Bitboard primitives shared by the numba kernels (inlined into their callers).

All values are ``uint64``; see :mod:`c4tui.engine.geometry` for the layout.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import geometry
from .geometry import BOARD, BOTTOM, H1, HEIGHT

U0 = np.uint64(0)
U1 = np.uint64(1)
UBOTTOM = np.uint64(BOTTOM)
UBOARD = np.uint64(BOARD)
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
_COL_BITS = np.uint64((1 << HEIGHT) - 1)
_UH1 = np.uint64(H1)


@njit(inline="always", nogil=True, cache=True)
def popcount(x):
    """Number of set bits (LLVM compiles the loop to one ``popcnt``)."""
    n = 0
    while x:
        x &= x - U1
        n += 1
    return n


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
    return r & (UBOARD ^ mask)


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
    return (mask + UBOTTOM) & UBOARD


@njit(inline="always", nogil=True, cache=True)
def column_of(move):
    """Column (0-6) of a single-bit move."""
    c = 0
    m = move >> _UH1
    while m:
        m >>= _UH1
        c += 1
    return c


#: The mirror image of a word, compiled from its one definition in :mod:`.geometry`.
mirror_word = njit(inline="always", nogil=True, cache=True)(geometry.mirror_word)
