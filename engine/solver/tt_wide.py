"""The exact solver's table on the boards past 64 bits: two-word entries.

A key of up to 128 bits leaves more check bits than the 44 above an entry's data
(:mod:`.tt`), so each entry takes two ``uint64`` words::

    word 0   the data (bits 0 .. CHECK_SHIFT-1, as in tt.py), then the check's low part
    word 1   the check's high part, XOR word 0

A bucket is two entries (32 bytes), the work-preferred one first, as in tt.py. The key is
mixed by multiplication with an odd constant modulo ``2**KEY_BITS`` (a bijection), its top
``bits - 1`` bits pick the bucket and the rest is the check, so bucket and check together
determine the key and one thread never sees a false hit. Threads write the two words with
two stores: a reader may meet word 0 of one store and word 1 of another. Word 1 holds the
check XOR word 0, so such a torn entry passes its check only if the two stores' words
happen to agree in all 64 bits of that XOR (a chance of about 2**-64 per torn read, which
itself needs two threads in the same bucket at the same instant).

Only the two-word sizes compile these kernels; :mod:`.solver_kernel` picks them there.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitboard import U1, word
from ..board.geometry import KEY_BITS
from ..board.word128 import low64
from ..mem import load_u64, prefetch, store_u64
from .tt import CHECK_SHIFT, EMPTY, _merge, _word, entry_work

_MIX = word(0x9E3779B97F4A7C15F39CC0605CEDC835 & ((1 << KEY_BITS) - 1) | 1)
_KEY_MASK = word((1 << KEY_BITS) - 1)
_LOW_BITS = 64 - CHECK_SHIFT  # the check's bits in word 0
_S_LOW = np.uint64(_LOW_BITS)
_S20 = np.uint64(CHECK_SHIFT)
_LOW_MASK = np.uint64((1 << _LOW_BITS) - 1)


@njit(inline="always", nogil=True, cache=True)
def tt_slot(key, bits):
    """(index of the bucket's first word, check's low part, check's high part) of a key for
    a table of ``2**bits`` entries."""
    h = (key * _MIX) & _KEY_MASK
    shift = np.uint64(KEY_BITS - bits + 1)
    check = h & ((U1 << shift) - U1)
    return (np.int64(low64(h >> shift)) * 4, low64(check) & _LOW_MASK,
            low64(check >> _S_LOW))


@njit(inline="always", nogil=True, cache=True)
def _matches(e, f, lo, hi):
    return e != EMPTY and (e >> _S20) == lo and (f ^ e) == hi


@njit(inline="always", nogil=True, cache=True)
def tt_probe(tt, bits, key):
    """The entry's data word stored for ``key`` (see :func:`.tt.entry_lower`), or 0."""
    idx, lo, hi = tt_slot(key, bits)
    e = load_u64(tt, idx)
    if _matches(e, load_u64(tt, idx + 1), lo, hi):
        return e
    e = load_u64(tt, idx + 2)
    if _matches(e, load_u64(tt, idx + 3), lo, hi):
        return e
    return EMPTY


@njit(inline="always", nogil=True, cache=True)
def tt_prefetch(tt, bits, key):
    """Start loading the bucket of ``key`` into the cache (a probe follows later)."""
    idx, _, _ = tt_slot(key, bits)
    prefetch(tt, idx)


@njit(inline="always", nogil=True, cache=True)
def _put(tt, i, w, hi):
    store_u64(tt, i, w)
    store_u64(tt, i + 1, w ^ hi)


@njit(inline="always", nogil=True, cache=True)
def tt_store(tt, bits, key, lower, upper, move, work):
    """Store bounds for ``key``, merged with the bounds already known for it (as
    :func:`.tt.tt_store`). Returns 1 when another key's entry was overwritten, else 0."""
    idx, lo, hi = tt_slot(key, bits)
    e0 = load_u64(tt, idx)
    f0 = load_u64(tt, idx + 1)
    if _matches(e0, f0, lo, hi):
        lower, upper, move, work = _merge(e0, lower, upper, move, work)
        _put(tt, idx, _word(lower, upper, move, work, lo), hi)
        return 0
    e1 = load_u64(tt, idx + 2)
    f1 = load_u64(tt, idx + 3)
    if _matches(e1, f1, lo, hi):
        lower, upper, move, work = _merge(e1, lower, upper, move, work)
        if e0 != EMPTY and entry_work(e0) > work:
            _put(tt, idx + 2, _word(lower, upper, move, work, lo), hi)
        else:  # promote it to the work-preferred entry, the old one moves down
            store_u64(tt, idx + 2, e0)
            store_u64(tt, idx + 3, f0)
            _put(tt, idx, _word(lower, upper, move, work, lo), hi)
        return 0
    w = _word(lower, upper, move, work, lo)
    if e0 == EMPTY:
        _put(tt, idx, w, hi)
        return 0
    if entry_work(e0) <= work:
        store_u64(tt, idx + 2, e0)
        store_u64(tt, idx + 3, f0)
        _put(tt, idx, w, hi)
    else:
        _put(tt, idx + 2, w, hi)
    return 1 if e1 != EMPTY else 0

