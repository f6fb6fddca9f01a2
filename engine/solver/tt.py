"""Transposition table of the exact solver: one 64-bit word per entry, verified keys.

Entry layout (``uint64``; on 7x6, where a move takes 3 bits and a bound 6; a bound takes 7
on the boards of more than 60 squares, whose bounds reach 31)::

    bits  0-5   lower bound + 32      (0 only in an empty slot)
    bits  6-11  upper bound + 32
    bits 12-14  best move + 1         (0: none; MOVE_BITS wide, 4 from 8 columns on)
    bits 15-19  log2 of the work done (nodes) below the entry, for replacement
    bits 20-63  check: the part of the key the index does not give

Keys are the unique ``current + mask`` of ``KEY_BITS = WIDTH * (HEIGHT + 1)`` bits (49 on
7x6; the solver passes the smaller of a position's key and its mirror image's, so that
mirror images share entries). The index comes from a bijective mix of the key
(multiplication by an odd constant modulo 2**KEY_BITS): its top ``bits - 1`` bits pick a
bucket of two adjacent words (one cache line) and the remaining ``KEY_BITS + 1 - bits`` bits
are stored as the check (so a table has at least ``KEY_BITS + 1 - 64 + CHECK_SHIFT`` bits:
larger boards need a larger minimum table, see ``MIN_BITS``). Bucket and check together
determine the key, so a hit is never false, and a whole entry is one aligned word, so a
table shared between threads never shows a torn entry. Every entry is a sound pair of
bounds for its key whoever wrote it, so a lost race loses information, never correctness.

The first word of a bucket keeps the entry that cost most work (log2 of the nodes below it),
the second takes everything else (always replaced): expensive results near the root survive
while the many cheap entries deep in the tree still find a place.

Two tiers: positions with ``NEAR_PLIES`` discs or more (at most 18 empty squares; 22 in a
search from a middle-game root: small subtrees, but most of the nodes and probes) have
their own table of ``2**NEAR_BITS`` entries (1 MiB) after the main one. It stays in the
processor's caches, where a probe of the main table (tens of MB) mostly waits for memory:
the solver visits about 20% more nodes but at about 1.6x the speed (docs/solver.md, "The
near tier"). The main table keeps the entries of the costly positions above. Each tier
indexes and checks keys with its own size, so each is an ordinary table and a hit is still
never false, whichever tier a key went to in an earlier search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.geometry import HALF, KEY_BITS, SIZE, TWO_WORDS, WIDTH
from ..mem import address, load_u64, prefetch, store_u64

MOVE_BITS = WIDTH.bit_length()  # best move + 1: 3 bits up to 7 columns
#: Bits of each bound: 6 (-32 .. 31), or 7 on the boards whose bounds may reach 31 (from
#: 61 squares: 8x8's bounds reach 32, 9x9's 41); ``HALF`` is the largest (a win with the
#: first disc, the static bounds' limit).
BOUND_BITS = 6 if HALF < 31 else 7
#: A bound is stored plus OFFSET; OFFSET - 1 is the solver's "no bound" (NO_BOUND).
OFFSET = 1 << (BOUND_BITS - 1)
CHECK_SHIFT = 2 * BOUND_BITS + MOVE_BITS + 5  # 20 on 7x6
_M64 = (1 << 64) - 1  # (the two-word sizes' keys have their own constants, tt_wide.py)
_MIX = np.uint64(0x9E3779B97F4A7C15 & ((1 << KEY_BITS) - 1) & _M64 | 1)
_KEY_MASK = np.uint64(((1 << KEY_BITS) - 1) & _M64)
#: An empty entry (what a probe returns for a miss).
EMPTY = np.uint64(0)
_B6 = np.uint64((1 << BOUND_BITS) - 1)
_S6 = np.uint64(BOUND_BITS)
_S12 = np.uint64(2 * BOUND_BITS)
_S15 = np.uint64(2 * BOUND_BITS + MOVE_BITS)
_S20 = np.uint64(CHECK_SHIFT)
_B3 = np.uint64((1 << MOVE_BITS) - 1)
_B5 = np.uint64(31)
#: ``uint64`` words of an entry: 1, or 2 on the boards past 64 bits, whose keys need a
#: longer check (:mod:`.tt_wide`).
ENTRY_WORDS = 2 if TWO_WORDS else 1
#: The smallest table: the check (KEY_BITS + 1 - bits bits) must fit above CHECK_SHIFT
#: (and in the second word of a two-word entry).
MIN_BITS = max(10, KEY_BITS + 1 - 64 * ENTRY_WORDS + CHECK_SHIFT)
MAX_BITS = 32
#: The solver's table when none is asked for (MB).
DEFAULT_SOLVER_MB = 64
#: The near tier's size: 2**NEAR_BITS entries, 1 MiB (2 MiB and more fell out of this
#: machine's caches and were slower; 2**16 entries of two words past 64 bits). 0: no near
#: tier, on the boards whose keys need a larger minimum table than that (MIN_BITS; past 64
#: bits, keys of more than 108 bits), which would not stay in the caches.
NEAR_BITS = ((16 if KEY_BITS + 1 - 16 <= 128 - CHECK_SHIFT else 0) if TWO_WORDS
             else 17 if MIN_BITS <= 17 else 0)
#: Positions with at least this many discs use the near tier (24 on 7x6) in a search from
#: a root with fewer than MIDGAME_ROOT discs: with 22 the empty board's tree grew more
#: than its speed; with 28 the middle game gained less.
NEAR_PLIES = SIZE - 18
#: From a root with MIDGAME_ROOT discs or more (12 on 7x6: what the exact row solves past
#: the 12-ply database), the tree is small enough for the near tier to take every position
#: with at least NEAR_PLIES_MIDGAME discs (20 on 7x6; 12% faster there than 24).
MIDGAME_ROOT = SIZE - 30
NEAR_PLIES_MIDGAME = SIZE - 22


@njit(inline="always", nogil=True, cache=True)
def near_plies(root):
    """The disc count from which positions use the near tier, in a search from a root with
    ``root`` discs."""
    return NEAR_PLIES_MIDGAME if root >= MIDGAME_ROOT else NEAR_PLIES


@njit(inline="always", nogil=True, cache=True)
def tt_tier(tt, bits, moves, near):
    """(address, bits) of the tier of positions with ``moves`` discs, ``near`` the disc
    count from which the near tier is used (:func:`near_plies`): the near table right
    after the main one, or the main table (also for tables too small to have a near tier)."""
    if NEAR_BITS > 0 and moves >= near and bits > NEAR_BITS:
        return tt + (np.int64(8 * ENTRY_WORDS) << bits), np.int64(NEAR_BITS)
    return tt, np.int64(bits)


@njit(inline="always", nogil=True, cache=True)
def tt_slot(key, bits):
    """(index of the bucket's first word, check) of a key for a table of ``2**bits`` words."""
    h = (key * _MIX) & _KEY_MASK
    shift = np.uint64(KEY_BITS - bits + 1)
    return np.int64(h >> shift) * 2, h & ((np.uint64(1) << shift) - np.uint64(1))


@njit(inline="always", nogil=True, cache=True)
def tt_probe(tt, bits, key):
    """The entry word stored for ``key``, or 0."""
    idx, check = tt_slot(key, bits)
    e = load_u64(tt, idx)
    if e != EMPTY and (e >> _S20) == check:
        return e
    e = load_u64(tt, idx + 1)
    if e != EMPTY and (e >> _S20) == check:
        return e
    return EMPTY


@njit(inline="always", nogil=True, cache=True)
def tt_prefetch(tt, bits, key):
    """Start loading the bucket of ``key`` into the cache (a probe follows later)."""
    idx, _ = tt_slot(key, bits)
    prefetch(tt, idx)


@njit(inline="always", nogil=True, cache=True)
def entry_lower(e):
    """Lower bound of a (non-empty) entry."""
    return np.int64(e & _B6) - OFFSET


@njit(inline="always", nogil=True, cache=True)
def entry_upper(e):
    """Upper bound of a (non-empty) entry."""
    return np.int64((e >> _S6) & _B6) - OFFSET


@njit(inline="always", nogil=True, cache=True)
def entry_move(e):
    """Best move column of an entry, or -1."""
    return np.int64((e >> _S12) & _B3) - 1


@njit(inline="always", nogil=True, cache=True)
def entry_work(e):
    """log2 of the nodes searched below the entry."""
    return np.int64((e >> _S15) & _B5)


@njit(inline="always", nogil=True, cache=True)
def _merge(e, lower, upper, move, work):
    # Bounds known for the same key combine: the best move belongs to the strongest lower
    # bound, so keep the old one when the old bound is stronger or the new store brings
    # no move (a fail-low).
    olo = entry_lower(e)
    ohi = entry_upper(e)
    if olo > lower or move < 0:
        om = entry_move(e)
        if om >= 0:
            move = om
    lower = max(lower, olo)
    upper = min(upper, ohi)
    ow = entry_work(e)
    work = max(work, ow)
    return lower, upper, move, work


@njit(inline="always", nogil=True, cache=True)
def _word(lower, upper, move, work, check):
    work = min(work, 31)
    return (
        np.uint64(lower + OFFSET)
        | (np.uint64(upper + OFFSET) << _S6)
        | (np.uint64(move + 1) << _S12)
        | (np.uint64(work) << _S15)
        | (check << _S20)
    )


@njit(inline="always", nogil=True, cache=True)
def tt_store(tt, bits, key, lower, upper, move, work):
    """Store bounds for ``key``, merged with the bounds already known for it.

    Returns 1 when another key's entry was overwritten, else 0 (for statistics).
    """
    idx, check = tt_slot(key, bits)
    e0 = load_u64(tt, idx)
    if e0 != EMPTY and (e0 >> _S20) == check:
        lower, upper, move, work = _merge(e0, lower, upper, move, work)
        store_u64(tt, idx, _word(lower, upper, move, work, check))
        return 0
    e1 = load_u64(tt, idx + 1)
    if e1 != EMPTY and (e1 >> _S20) == check:
        lower, upper, move, work = _merge(e1, lower, upper, move, work)
        if e0 != EMPTY and entry_work(e0) > work:
            store_u64(tt, idx + 1, _word(lower, upper, move, work, check))
        else:  # promote it to the work-preferred word, the old one moves down
            store_u64(tt, idx + 1, e0)
            store_u64(tt, idx, _word(lower, upper, move, work, check))
        return 0
    w = _word(lower, upper, move, work, check)
    if e0 == EMPTY:
        store_u64(tt, idx, w)
        return 0
    if entry_work(e0) <= work:
        store_u64(tt, idx + 1, e0)
        store_u64(tt, idx, w)
    else:
        store_u64(tt, idx + 1, w)
    return 1 if e1 != EMPTY else 0


def bits_for_mb(mb: int) -> int:
    """Largest table of ``2**bits`` entries (8 bytes, 16 past 64 bits) that fits in ``mb``
    MiB (never less than ``MIN_BITS``)."""
    if mb < 1:
        raise ValueError(f"hash size {mb} MB: must be at least 1 MB")
    entries = mb * (1 << 20) // (8 * ENTRY_WORDS)
    bits = max(MIN_BITS, entries.bit_length() - 1)  # buckets of two entries: bits >= 2
    if bits > MAX_BITS:
        raise ValueError(f"hash size {mb} MB: at most "
                         f"{(1 << MAX_BITS) * 8 * ENTRY_WORDS >> 20} MB")
    return bits


class TranspositionTable:
    """The table's memory (the main table, then the near tier if the main one is larger);
    kernels take its address and the main table's ``bits``."""

    def __init__(self, hash_mb: int = DEFAULT_SOLVER_MB, prefault: bool = True) -> None:
        """``prefault``: touch every page now; False leaves them to the first probes."""
        self.bits = bits_for_mb(hash_mb)
        near = 1 << NEAR_BITS if 0 < NEAR_BITS < self.bits else 0
        # np.zeros of a large array is mapped zero pages: nothing is written yet.
        self.words = np.zeros(((1 << self.bits) + near) * ENTRY_WORDS, dtype=np.uint64)
        if prefault:
            # Touch every page now (8-16 ms for 64 MB, up to 0.14 s when the machine hands
            # out fresh pages slowly): the kernel hands out zeroed pages on first use, and
            # the first searches on a new table spent up to 0.1 s in those page faults,
            # scattered over their random probes (the exact row's first positions). A
            # process that solves a few positions and ends (``c4tui solve``) pays only for
            # the pages its searches touch instead: a few for a small tree.
            self.words.fill(0)
        self.addr = address(self.words)

    @property
    def size_bytes(self) -> int:
        """Memory used."""
        return self.words.nbytes

    def clear(self) -> None:
        """Forget every entry."""
        self.words[:] = 0
