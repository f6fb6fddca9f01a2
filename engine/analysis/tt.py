"""Transposition tables of the analysis search (thesis 4.2, 4.3, listing 4.1).

Zobrist keys: fixed 64-bit random numbers (a White and a Black disc on each square: 84 on
7x6), XORed incrementally as discs are played; the whole 64-bit key is stored and
compared (verified keys), the low bits are the address. The keys stay 64-bit on the boards
past 64 bits too (only the table of random numbers grows: ``Z_STRIDE``).

MILTON's tables 1 and 2 are addressed by the same bits; here they are interleaved as a
two-slot bucket (32 bytes, inside one cache line): slot 1 is table 1, always replaced;
slot 2 is table 2, replaced only with an equal or greater depth. On a probe the entry of
table 1 wins when both match (MILTON found that best). Kernels take the address of slot 1
(table 1) and of slot 2 (table 2, 16 bytes further); the bucket stride is 4 words. Table 3, the
recognition table, holds exact values of recognized endgames and survives between
searches; it is the only one not cleared before each move.

Entry layout: two ``uint64`` words, the key and the data word:
bits 0-15 value + 32768, 16-23 depth in half plies, 24-25 flag, 26-28 move + 1 (26-29 from
8 columns on, 26-30 from 16: ``MOVE_BITS``), then the "exact mode" bit (29 on 7x6; stored
during a full-depth iteration, whose values are all exact).
Kernels reach the tables through raw addresses (``engine/mem.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.geometry import H1, KEY_BITS, WIDTH
from ..mem import load_u64, store_u64

EXACT = 1
LOWER = 2  #: the value is a lower bound (fail high)
UPPER = 3  #: the value is an upper bound (fail low)

ENTRY_BYTES = 16
#: Bits of the move + 1 (3 up to 7 columns), from bit MOVE_SHIFT.
MOVE_BITS = WIDTH.bit_length()
MOVE_SHIFT = 26
EXACT_MODE_BIT = np.uint64(1 << (MOVE_SHIFT + MOVE_BITS))  # bit 29 on 7x6

_M16 = np.uint64(0xFFFF)
_M8 = np.uint64(0xFF)
_M3 = np.uint64(3)
_M7 = np.uint64((1 << MOVE_BITS) - 1)


#: ``ZOBRIST``'s stride between the two players: 64 up to 64 bits (7x6's table as it always
#: was), the board's bits beyond.
Z_STRIDE = max(64, KEY_BITS)


def _zobrist() -> np.ndarray:
    """``ZOBRIST[player * Z_STRIDE + bit]``: the random number of a disc of ``player`` on
    ``bit`` (``zobrist_index``)."""
    rng = np.random.default_rng(0x4D494C544F4E)  # fixed: searches are deterministic
    z = np.zeros(2 * Z_STRIDE, dtype=np.uint64)
    for c in range(WIDTH):
        for r in range(H1 - 1):
            for p in range(2):
                z[p * Z_STRIDE + c * H1 + r] = rng.integers(1, 2**64 - 1, dtype=np.uint64)
    return z


ZOBRIST = _zobrist()


def zobrist_index(player: int, col: int, row: int) -> int:
    """Index in ``ZOBRIST`` of a disc of ``player`` (0: White, the first to move) on the
    square (``col``, ``row``)."""
    return player * Z_STRIDE + col * H1 + row


def zobrist_key(white: int, black: int) -> int:
    """Zobrist key of a position given the bitboards of White's and Black's discs."""
    k = 0
    for bit in range(KEY_BITS):
        if white >> bit & 1:
            k ^= int(ZOBRIST[bit])
        if black >> bit & 1:
            k ^= int(ZOBRIST[Z_STRIDE + bit])
    return k


def table_entries(hash_mb: float) -> int:
    """Buckets (a power of two) so that tables 1 and 2 together fit ``hash_mb``."""
    total = int(hash_mb * (1 << 20)) // (2 * ENTRY_BYTES)
    n = 1
    while n * 2 <= total:
        n *= 2
    return max(n, 1024)


def new_table(entries: int) -> np.ndarray:
    """A zeroed recognition table: ``entries`` rows of (key, data)."""
    return np.zeros(entries * 2, dtype=np.uint64)


def new_buckets(entries: int) -> np.ndarray:
    """Zeroed tables 1 and 2: ``entries`` buckets of (key1, data1, key2, data2)."""
    return np.zeros(entries * 4, dtype=np.uint64)


@njit(nogil=True, cache=True, inline="always")
def pack(value, depth2, flag, move, exact_mode):
    d = depth2
    if d < 0:
        d = 0
    if d > 255:
        d = 255
    w = (np.uint64(value + 32768) & _M16) | (np.uint64(d) << np.uint64(16)) | \
        (np.uint64(flag) << np.uint64(24)) | (np.uint64(move + 1) << np.uint64(26))
    if exact_mode:
        w |= EXACT_MODE_BIT
    return w


@njit(nogil=True, cache=True, inline="always")
def d_value(w):
    return np.int64(w & _M16) - 32768


@njit(nogil=True, cache=True, inline="always")
def d_depth(w):
    return np.int64((w >> np.uint64(16)) & _M8)


@njit(nogil=True, cache=True, inline="always")
def d_flag(w):
    return np.int64((w >> np.uint64(24)) & _M3)


@njit(nogil=True, cache=True, inline="always")
def d_move(w):
    return np.int64((w >> np.uint64(26)) & _M7) - 1


@njit(nogil=True, cache=True, inline="always")
def d_exact(w):
    return (w & EXACT_MODE_BIT) != np.uint64(0)


@njit(nogil=True, cache=True, inline="always")
def probe(t, tmask, key):
    """Data word of ``key`` in table 1 or 2 at address ``t`` (0 if absent)."""
    i = np.int64(key & tmask) * 4
    if load_u64(t, i) == key:
        return load_u64(t, i + 1)
    return np.uint64(0)


@njit(nogil=True, cache=True, inline="always")
def store_always(t, tmask, key, data):
    """Table 1: always replace."""
    i = np.int64(key & tmask) * 4
    store_u64(t, i, key)
    store_u64(t, i + 1, data)


@njit(nogil=True, cache=True, inline="always")
def store_deeper(t, tmask, key, data):
    """Table 2: replace only an entry of smaller depth (or the same position)."""
    i = np.int64(key & tmask) * 4
    old = load_u64(t, i + 1)
    if load_u64(t, i) == key or old == np.uint64(0) or d_depth(data) >= d_depth(old):
        store_u64(t, i, key)
        store_u64(t, i + 1, data)


@njit(nogil=True, cache=True, inline="always")
def rec_probe(t, tmask, key):
    """Recognition table: ``(found, value)``; values are exact, real band."""
    i = np.int64(key & tmask) * 2
    if load_u64(t, i) == key:
        return True, np.int64(load_u64(t, i + 1) & _M16) - 32768
    return False, 0


@njit(nogil=True, cache=True, inline="always")
def rec_store(t, tmask, key, value):
    i = np.int64(key & tmask) * 2
    store_u64(t, i, key)
    store_u64(t, i + 1, np.uint64(value + 32768) & _M16)

