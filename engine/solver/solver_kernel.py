"""The exact solver's numba kernels: null-window negamax and the strong-solve driver.

Everything the recursion touches is a scalar or an address (see :mod:`.mem`): the
transposition table ``tt`` (``2**bits`` words, shared by every thread of a solve), a scratch
area for the move scores of each ply (8 ``int64`` per ply, one area per thread), and a small
context block ``ctx`` (one per thread), which carries the other two down the recursion:
``negamax`` takes the position, the window and ``ctx``, as Pons's takes a position and a
window. Its move ordering (``_score_moves``, ``_next_rank``: Pons's ``MoveSorter``) and its
static rules (``_static_window``: Pons's ``Position`` tests, with Allis's claimeven and odd
threats) are helpers of their own.

=====  =====================================================
ctx    meaning
=====  =====================================================
0      nodes searched (incremented at every node)
1      abort flag: the search unwinds at once when non-zero
2      table probes
3      table hits (an entry for the key was found)
4      table stores
5      stores that overwrote another position's entry
6      cut nodes (a move failed high) after searching moves
7      ... of which the first move searched failed high
8      enhanced transposition cutoffs (a child's entry refuted the node)
9      disc count of the root (it picks the near tier's plies)
10     interior nodes: nodes that searched children (not settled by a bound or the table)
11     node limit: the search aborts when the node count reaches it (0: no limit)
12     address of the busy table shared by the threads of a solve (0: one thread)
13     the root's score is known to be at least this (progress, set by ``solve_root``)
14     ... and at most this
15     the window being searched: is the score above this?
16     this thread's first window: is the score above this? (0 but in helpers 1 and 2)
17     address of the table (``solve_root`` puts slots 17-23 there for the recursion)
18     its size: ``2**bits`` words
19     address of this thread's scratch area
20-23  the opening book's probe arguments (see ``book_probe``; all 0: no book)
=====  =====================================================

Scores follow the solvers' convention (:mod:`.scores`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitboard import (
    COLUMN_MASKS,
    U0,
    U1,
    U_BOARD,
    U_EVEN_ROWS,
    U_ODD_ROWS,
    column_of,
    fold64,
    has_four,
    mirror_word,
    popcount,
    possible,
    winning_squares,
)
from ..board.geometry import (
    CENTER_ORDER,
    HEIGHT,
    SIZE,
    TWO_WORDS,
    WIDTH,
    ZUGZWANG_RULES,
    win_score,
)
from ..books.probe import BOOK_MISS, book_probe
from ..mem import load_i64, load_i64p, load_u64, store_i64, store_i64p, store_u64

# The table's functions and constants (the near tier's) are compiled into these kernels:
# numba's cache notices a change of this file only, so a change of tt.py must come with one
# here (a changed comment is enough) or an old cache keeps the old table layout
# (last: the near tier past 64 bits).
from .tt import EMPTY, OFFSET, entry_lower, entry_move, entry_upper, near_plies, tt_tier

if TWO_WORDS:
    from .tt_wide import tt_prefetch, tt_probe, tt_store
else:
    from .tt import tt_prefetch, tt_probe, tt_store

CTX_NODES = 0
CTX_ABORT = 1
CTX_PROBES = 2
CTX_HITS = 3
CTX_STORES = 4
CTX_OVERWRITES = 5
CTX_CUTS = 6
CTX_FIRST_CUTS = 7
CTX_ETC = 8
CTX_ROOT = 9
CTX_INTERIOR = 10
CTX_LIMIT = 11
CTX_BUSY = 12
CTX_LO = 13
CTX_HI = 14
CTX_TEST = 15
CTX_FIRST = 16
CTX_TT = 17
CTX_BITS = 18
CTX_SCRATCH = 19
CTX_BOOK = 20  # 20-23
CTX_DEFER = 24
CTX_SIZE = 25
#: A scratch slot's mark for a move deferred because another thread is searching it.
DEFERRED = -2
#: The busy table: ``2**BUSY_BITS`` words (128 KiB), each the key of a child some thread
#: is searching (0: free). Collisions only lose a deferral, never correctness.
BUSY_BITS = 14
#: Moves are deferred at nodes with fewer discs than this (ctx slot CTX_DEFER, set by the
#: Solver for its thread count): 30 on 7x6 for many threads (deeper, subtrees are too
#: small for two threads to meet in them often: 16 threads grew the tree alike with 30
#: and 36, more with 20 and 26), 26 for two (fewer marks, the same tree: docs/solver.md).
DEFER_PLIES = SIZE - 12
DEFER_PLIES_FEW = SIZE - 16
#: A thread looks at its node's entry again before a move only after this many nodes
#: below the node.
RECHECK_NODES = 1024
SCRATCH_PER_PLY = WIDTH + 1  # a move score per column, then CUT_SLOT
NO_BOUND = OFFSET - 1  # |bound| meaning "no bound known" (31; 63 past 60 squares)
CUT_SLOT = WIDTH  # scratch slot of each ply: the move that last failed high there

#: Below this many discs a node first probes its children's entries (enhanced
#: transposition cutoffs); deeper the probes cost more than they save.
ETC_PLIES = SIZE - 6  # 36 on 7x6
#: Mirror images share an entry below this many discs (deeper, symmetric pairs are rare
#: and the mirror costs time at every node).
MIRROR_PLIES = 14
#: int64 words of a thread's scratch area: the move scores of each ply.
SCRATCH_SIZE = (SIZE + 2) * SCRATCH_PER_PLY

_ORDER = np.array(CENTER_ORDER, dtype=np.int64)
_RANK = np.array([CENTER_ORDER.index(c) for c in range(WIDTH)], dtype=np.int64)
_COLS = COLUMN_MASKS


#: Score of a win with the disc played at ``ply``: the convention's one definition
#: (``geometry.win_score``, see :mod:`.scores`), compiled into the kernels.
_win_at = njit(inline="always", nogil=True, cache=True)(win_score)


@njit(inline="always", nogil=True, cache=True)
def _log2_work(n):
    w = 0
    while n > 1:
        n >>= 1
        w += 1
    return w


@njit(inline="always", nogil=True, cache=True)
def _table_key(cur, mask, moves):
    """(key, mirrored): the position's key, or its mirror image's when that is smaller."""
    key = cur + mask
    if moves < MIRROR_PLIES:
        mk = mirror_word(key)
        if mk < key:
            return mk, True
    return key, False


@njit(inline="always", nogil=True, cache=True)
def _move_score(cur, mask, mv, opp_threats):
    """How promising the move ``mv`` looks (see ``_useful_threats``)."""
    m2 = mask | mv
    return _useful_threats(winning_squares(cur | mv, m2), opp_threats)


@njit(inline="always", nogil=True, cache=True)
def _useful_threats(thr, opp_threats):
    """The number of threats ``thr`` (empty squares completing a four) the mover has after
    a move, not counting threats right above an opponent's threat, which can never be
    played out."""
    return popcount(thr & ~(opp_threats << U1))


@njit(inline="always", nogil=True, cache=True)
def _low_bit(x):
    """The lowest set bit of ``x`` (0 for 0)."""
    return x & (~x + U1)


@njit(inline="always", nogil=True, cache=True)
def _safe_moves(poss, opp_win):
    """The moves that do not lose at once: the block of the opponent's threat if it has one,
    else every move; in both cases none right under an opponent's threat (0: none left)."""
    forced = poss & opp_win
    if forced != U0:
        poss = forced
    return poss & ~(opp_win >> U1)


@njit(inline="always", nogil=True, cache=True)
def _above(g):
    """The squares above the lowest square of ``g`` in each column."""
    up = (g << U1) & U_BOARD
    for _ in range(HEIGHT - 2):  # unrolled: HEIGHT is a compile-time constant
        up |= (up << U1) & U_BOARD
    return up


@njit(inline="always", nogil=True, cache=True)
def _white_odd(free, black_thr, odd):
    """The free odd-row squares White gets under Black's claimeven before Black wins: not
    those above Black's lowest even-row threat of their column, which Black takes (and
    wins with) first. The next squares ``odd`` of the columns of odd height do not count
    as Black's: the pairing may give them to White."""
    return free & U_ODD_ROWS & ~_above(black_thr & U_EVEN_ROWS & ~odd)


@njit(inline="always", nogil=True, cache=True)
def _claimeven_white(white, black, free, odd, wodd):
    """Upper bound on the score of White, to move, from Black's claimeven (NO_BOUND: none).

    ``odd``: the next squares of the columns of odd height (all in even rows). Black answers
    every move in the same column, so it gets every free even-row square and White every
    free odd-row one (``wodd``: those White gets before Black wins, see ``_white_odd``);
    with two odd-height columns Black answers a move in one of them in the other (White
    gets one of their next squares, of its choice), with four it pairs them up.
    No four for White: at most a draw (0); a four for Black whatever White chose: -1.
    """
    w = white | wodd
    a = _low_bit(odd)  # the squares White may choose from: none, a and b, or four
    b = odd ^ a
    if odd == U0:
        if has_four(w):
            return NO_BOUND
    elif (b & (b - U1)) == U0:  # two (White to move: an even number of odd heights)
        if has_four(w | a) or has_four(w | b):
            return NO_BOUND
    else:
        s1 = _low_bit(b)
        s2 = _low_bit(b ^ s1)
        s3 = b ^ s1 ^ s2
        if (s3 & (s3 - U1)) != U0 or not _pairing(w, a, s1, s2, s3):
            return NO_BOUND
        return 0  # (Black's win is not worked out for four columns)
    feven = free & U_EVEN_ROWS
    if has_four(black | (feven ^ a)) and (b == U0 or has_four(black | (feven ^ b))):
        return -1
    return 0


@njit(inline="always", nogil=True, cache=True)
def _claimeven_black(black, white, free, odd, bthr, poss):
    """(lower bound on the score of Black, to move, from claimeven; Black's first move).

    With one or three odd-height columns (next squares ``odd``) Black plays in one of them,
    leaving White to move with none or two (see ``_claimeven_white``). With one, Black may
    instead play on an odd row of an even-height column (``poss``: the next squares),
    leaving two to pair. ``bthr``: Black's threats (see ``_white_odd``).
    (-NO_BOUND, 0): none.
    """
    w = white | _white_odd(free, bthr, odd)
    c = _low_bit(odd)
    rest = odd ^ c
    o1 = U0  # the squares White may then choose from: none, or o1 and o2
    o2 = U0
    black_move = U0
    if rest == U0:
        if has_four(w):
            # Black may instead play on an odd row of an even-height column s: White to
            # move then has two columns of odd height, which Black pairs.
            r = poss & U_ODD_ROWS
            while r != U0:
                sq = _low_bit(r)
                r ^= sq
                up = sq << U1
                w2 = white | _white_odd(free ^ sq, bthr, odd | up)
                if not has_four(w2 | c) and not has_four(w2 | up):
                    black_move = sq
                    o1, o2 = c, up
                    break
            if black_move == U0:
                return -NO_BOUND, U0
            c = black_move
    else:
        x2 = _low_bit(rest)
        x3 = rest ^ x2
        if x3 == U0 or (x3 & (x3 - U1)) != U0:  # not exactly three
            return -NO_BOUND, U0
        t1 = has_four(w | c)
        t2 = has_four(w | x2)
        t3 = has_four(w | x3)
        if not t2 and not t3:
            o1, o2 = x2, x3
        elif not t1 and not t3:
            c, o1, o2 = x2, c, x3
        elif not t1 and not t2:
            c, o1, o2 = x3, c, x2
        else:
            return -NO_BOUND, U0
    feven = free & U_EVEN_ROWS
    bl = black | black_move  # (its square is on an odd row: not in feven)
    if has_four(bl | (feven ^ o1)) and (o2 == U0 or has_four(bl | (feven ^ o2))):
        return 1, c
    return 0, c


@njit(inline="always", nogil=True, cache=True)
def _black_claims_no_four(bset, rest):
    """Black to move, White following up: no four for Black in its squares ``bset``, also
    with the one square it may take of the pair ``rest`` (two odd-height columns' next
    squares, which White pairs up), if any."""
    if rest == U0:
        return True
    a = _low_bit(rest)
    b = rest ^ a
    if (b & (b - U1)) != U0:
        return False
    return not has_four(bset | a) and not has_four(bset | b)


@njit(inline="always", nogil=True, cache=True)
def _oddthreat(white_thr, black, free, odd, white_to_move):
    """White's odd threat (Allis: control of zugzwang). Returns White's first move (a
    single bit; any non-zero word when Black is to move), or 0 if the rule does not apply.

    White has a threat t on an odd row of column c. Once Black is to move with c of odd
    height and every other column of even height, White answers every move in the same
    column: it gets every odd-row square of c (t among them, so Black never gets a square
    of c above t) and every even-row square elsewhere (and wins at its lowest even-row
    threat of a column before Black gets a square above it). With two more columns of odd
    height White pairs them (a move in one is answered in the other), so Black gets one
    of their next squares, of its choice. If none of Black's choices gives it a four,
    Black never wins and White takes t: a White win. White to move first sets up that
    parity: it plays in c if c has an even height, else in one of the other columns of
    odd height.
    """
    cand = white_thr & U_ODD_ROWS
    while cand != U0:
        t = _low_bit(cand)  # the lowest odd threat of its column
        col = _COLS[column_of(t)]
        cand &= ~col
        # Black's squares before White wins: none of c above t, and elsewhere none above
        # White's lowest even-row threat of a column (the pairs' squares are not sure)
        sure = _above(white_thr & U_EVEN_ROWS & ~odd & ~col)
        bset = (black | (free & U_EVEN_ROWS & col & (t - U1))
                | (free & U_ODD_ROWS & ~col & ~sure))
        if has_four(bset):
            continue
        rest = odd & ~col
        if not white_to_move:
            if (odd & col) != U0 and _black_claims_no_four(bset, rest):
                return U1
        elif (odd & col) == U0:
            if _black_claims_no_four(bset, rest):
                return _low_bit(free & col)
        else:
            r = rest
            while r != U0:
                x = _low_bit(r)
                r ^= x
                if _black_claims_no_four(bset, rest ^ x):
                    return x
    return U0


@njit(inline="always", nogil=True, cache=True)
def _pairing(w, s0, s1, s2, s3):
    """Whether Black can pair the four odd-height columns (next squares s0..s3) so that
    White, taking one square of each pair, never gets a four with the squares ``w``."""
    p01 = not has_four(w | s0 | s1)
    p02 = not has_four(w | s0 | s2)
    p03 = not has_four(w | s0 | s3)
    p12 = not has_four(w | s1 | s2)
    p13 = not has_four(w | s1 | s3)
    p23 = not has_four(w | s2 | s3)
    return ((p02 and p03 and p12 and p13)  # pairs {0,1} {2,3}
            or (p01 and p03 and p12 and p23)  # pairs {0,2} {1,3}
            or (p01 and p02 and p13 and p23))  # pairs {0,3} {1,2}


_BUSY_MIX = np.uint64(0x9E3779B97F4A7C15)
_Z64 = np.uint64(0)


@njit(inline="always", nogil=True, cache=True)
def _busy_slot(key):
    """Index of the busy table's word for a key folded to 64 bits (``fold64``)."""
    return np.int64((key * _BUSY_MIX) >> np.uint64(64 - BUSY_BITS))


@njit(inline="always", nogil=True, cache=True)
def _count(ctx, slot):
    """One more in the counter ``slot`` of the context block."""
    store_i64p(ctx, slot, load_i64p(ctx, slot) + 1)


@njit(inline="always", nogil=True, cache=True)
def _enter(ctx):
    """Count a node: its number in the search, or 0 when the search unwinds (aborted, or
    the node limit reached here)."""
    nodes = load_i64p(ctx, CTX_NODES) + 1
    store_i64p(ctx, CTX_NODES, nodes)
    if nodes == load_i64p(ctx, CTX_LIMIT):
        store_i64(ctx, CTX_ABORT, 1)
    if load_i64(ctx, CTX_ABORT) != 0:
        return 0
    return nodes


@njit(inline="always", nogil=True, cache=True)
def _static_window(cur, mask, moves, alpha, beta, poss, opp_win, scratch):
    """The window ``(alpha, beta)`` narrowed by what the position shows without a search
    (Pons's ``Position`` rules, and Allis's): threats to parry, the fastest win or loss
    still possible, fours no longer possible, claimeven and odd threats.

    ``alpha >= beta`` on return settles the node: its score (a bound) is then ``alpha``.
    A rule that settles it by a move of the side to move writes that move's column in the
    ply's CUT_SLOT of ``scratch``."""
    forced = poss & opp_win
    if (forced & (forced - U1)) != U0:
        lost = -_win_at(moves + 1)  # two threats to parry: lost
        return lost, lost
    if _safe_moves(poss, opp_win) == U0:
        lost = -_win_at(moves + 1)
        return lost, lost
    if moves >= SIZE - 2:
        return 0, 0

    lo = -_win_at(moves + 3)  # the opponent cannot win with its next move
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha, alpha
    hi = _win_at(moves + 2)  # we cannot win with this move
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta, beta

    # A side that cannot complete any four any more cannot win: the score is bounded by 0.
    free = U_BOARD ^ mask
    if beta > 0 and not has_four(cur | free):
        beta = 0
        if alpha >= beta:
            return beta, beta
    if alpha < 0 and not has_four((cur ^ mask) | free):
        alpha = 0
        if alpha >= beta:
            return alpha, alpha

    # Claimeven (Allis): Black answering in the same column bounds both sides' scores.
    # (Only with an even HEIGHT, a compile-time constant: numba drops the dead branch.)
    odd = poss & U_EVEN_ROWS  # next squares of the columns of odd height
    if not ZUGZWANG_RULES:
        pass
    elif moves & 1 == 0:
        if beta > -1:
            ub = _claimeven_white(cur, cur ^ mask, free, odd, _white_odd(free, opp_win, odd))
            if ub < beta:
                beta = ub
                if alpha >= beta:
                    return beta, beta
        # White's odd threat (zugzwang control the other way round): a White win.
        if alpha < 1:
            first = _oddthreat(winning_squares(cur, mask), cur ^ mask, free, odd, True)
            if first != U0:
                alpha = 1
                if alpha >= beta:
                    store_i64p(scratch, moves * SCRATCH_PER_PLY + CUT_SLOT, column_of(first))
                    return alpha, alpha
    else:
        if beta > -1 and _oddthreat(opp_win, cur, free, odd, False) != U0:
            beta = -1  # White's odd threat: Black loses
            if alpha >= beta:
                return beta, beta
        if alpha < 1:
            lb, c = _claimeven_black(cur, cur ^ mask, free, odd, winning_squares(cur, mask),
                                     poss)
            if lb > alpha:
                alpha = lb
                if alpha >= beta:
                    store_i64p(scratch, moves * SCRATCH_PER_PLY + CUT_SLOT, column_of(c))
                    return alpha, alpha
    return alpha, beta


@njit(inline="always", nogil=True, cache=True)
def _entry_window(e, alpha, beta):
    """The window narrowed by the table entry ``e`` (not empty) of the node; settled as
    in ``_static_window`` (``alpha >= beta``: the score is ``alpha``)."""
    elo = entry_lower(e)
    if elo > alpha:
        alpha = elo
        if alpha >= beta:
            return alpha, alpha
    ehi = entry_upper(e)
    if ehi < beta:
        beta = ehi
        if alpha >= beta:
            return beta, beta
    return alpha, beta


@njit(inline="always", nogil=True, cache=True)
def _children_entries(opp, mask, moves, nonlosing, alpha, beta, t1, b1):
    """Enhanced transposition cutoffs: what the children's entries (tier ``t1, b1``) prove
    before any of them is searched, as ``(column, score, bound, skipped, skip_value)``:

    * ``column >= 0``: that move's entry proves ``score >= beta``: the move refutes the
      node (the first such move in centre order);
    * else every move is worth at most ``bound`` (``NO_BOUND`` unless every child has an
      entry), and the moves ``skipped`` are proved to fail low (at most ``alpha``): the best
      of them is worth ``skip_value``.
    """
    for i in range(WIDTH):  # start loading the children's buckets together
        mv = nonlosing & _COLS[_ORDER[i]]
        if mv != U0:
            ck, _ = _table_key(opp, mask | mv, moves + 1)
            tt_prefetch(t1, b1, ck)
    ub = -NO_BOUND  # the best any move can be worth, from the children's lower bounds
    skipped = U0
    skip_value = -NO_BOUND
    for i in range(WIDTH):
        mv = nonlosing & _COLS[_ORDER[i]]
        if mv != U0:
            ck, _ = _table_key(opp, mask | mv, moves + 1)
            ce = tt_probe(t1, b1, ck)
            if ce == EMPTY:
                ub = NO_BOUND
            else:
                cub = -entry_lower(ce)  # the most this move can be worth
                ub = max(ub, cub)
                if cub <= alpha:
                    # This move's entry already proves it fails low: not searched.
                    skipped |= mv
                    skip_value = max(skip_value, cub)
            if ce != EMPTY and -entry_upper(ce) >= beta:
                return _ORDER[i], -entry_upper(ce), ub, skipped, skip_value
    return -1, 0, ub, skipped, skip_value


@njit(inline="always", nogil=True, cache=True)
def _score_moves(cur, mask, nonlosing, opp_win, scratch, base):
    """The move sorter (Pons's ``MoveSorter``): each move's score in the ply's slots of
    ``scratch`` from ``base``, one per column in centre order (-1: not a move), the number
    of useful threats it makes (``_useful_threats``).

    Returns the rank of a move that wins after next whatever the reply (two threats to
    parry, or every reply right under one of our threats), -1 if none: such a move is the
    best any move can do, and settles the node without a call, prefetch or probe."""
    for i in range(WIDTH):
        mv = nonlosing & _COLS[_ORDER[i]]
        if mv != U0:
            m2 = mask | mv
            thr = winning_squares(cur | mv, m2)
            p2 = possible(m2)
            now = thr & p2
            if (now & (now - U1)) != U0 or _safe_moves(p2, thr) == U0:
                return i
            store_i64p(scratch, base + i, _useful_threats(thr, opp_win))
        else:
            store_i64p(scratch, base + i, -1)
    return -1


@njit(inline="always", nogil=True, cache=True)
def _next_rank(scratch, base, second_pass):
    """The rank of the next move to search (-1: none left): the best scored one, or in the
    second pass the first deferred one."""
    bi = -1
    if second_pass:
        for i in range(WIDTH):
            if load_i64p(scratch, base + i) == DEFERRED:
                return i
        return bi
    best = -1
    for i in range(WIDTH):
        s = load_i64p(scratch, base + i)
        if s > best:
            best = s
            bi = i
    return bi


@njit(inline="always", nogil=True, cache=True)
def _claim(busy, child_key):
    """ABDADA: mark the child ``child_key`` as searched by this thread; its slot in the
    busy table, or -1 if another thread is searching it (the move is then deferred)."""
    fk = fold64(child_key)
    slot = _busy_slot(fk)
    if load_u64(busy, slot) == fk:
        return np.int64(-1)
    store_u64(busy, slot, fk)
    return slot


@njit(nogil=True, cache=True)
def negamax(cur, mask, moves, alpha, beta, ctx):
    """Score of the position (side to move cannot win now) searched in ``(alpha, beta)``.

    A result ``r <= alpha`` is an upper bound of the score (fail-soft: often below alpha),
    ``r >= beta`` a lower bound, anything between exact. The caller guarantees that the
    side to move has no winning move. The table, the scratch area and the book come from
    the context block ``ctx`` (``solve_root`` puts them there).
    """
    nodes = _enter(ctx)
    if nodes == 0:
        return 0  # unwinding: the caller stores nothing
    # The table entry is needed after the threat tests: start loading it now.
    key, mirrored = _table_key(cur, mask, moves)
    near = near_plies(load_i64p(ctx, CTX_ROOT))
    tt = load_i64p(ctx, CTX_TT)
    bits = load_i64p(ctx, CTX_BITS)
    scratch = load_i64p(ctx, CTX_SCRATCH)
    t0, b0 = tt_tier(tt, bits, moves, near)
    tt_prefetch(t0, b0, key)

    poss = possible(mask)
    opp_win = winning_squares(cur ^ mask, mask)
    alpha, beta = _static_window(cur, mask, moves, alpha, beta, poss, opp_win, scratch)
    if alpha >= beta:
        return alpha
    nonlosing = _safe_moves(poss, opp_win)
    hi = _win_at(moves + 2)  # (the static window's bound: we cannot win with this move)

    bp = load_i64p(ctx, CTX_BOOK + 3)
    if bp != 0:
        b = book_probe(load_i64p(ctx, CTX_BOOK), load_i64p(ctx, CTX_BOOK + 1),
                       load_i64p(ctx, CTX_BOOK + 2), bp, cur, mask, moves)
        if b != BOOK_MISS:
            return b

    hmove = -1
    _count(ctx, CTX_PROBES)
    e = tt_probe(t0, b0, key)
    if e != EMPTY:
        _count(ctx, CTX_HITS)
        alpha, beta = _entry_window(e, alpha, beta)
        if alpha >= beta:
            return alpha
        hmove = entry_move(e)
        if hmove >= 0 and mirrored:
            hmove = WIDTH - 1 - hmove

    opp = cur ^ mask
    skip_value = -NO_BOUND
    base = moves * SCRATCH_PER_PLY
    if moves < ETC_PLIES:
        t1, b1 = tt_tier(tt, bits, moves + 1, near)
        c, s, ub, skipped, skip_value = _children_entries(opp, mask, moves, nonlosing, alpha,
                                                          beta, t1, b1)
        if c >= 0:  # a child's entry refutes the node
            _count(ctx, CTX_ETC)
            tt_store(t0, b0, key, s, NO_BOUND, WIDTH - 1 - c if mirrored else c, 0)
            store_i64p(scratch, base + CUT_SLOT, c)
            return s
        if ub <= alpha:  # every child's entry proves that its move fails low
            _count(ctx, CTX_ETC)
            tt_store(t0, b0, key, -NO_BOUND, ub, -1, 0)
            return ub
        nonlosing ^= skipped

    i = _score_moves(cur, mask, nonlosing, opp_win, scratch, base)
    if i >= 0:  # a move wins after next
        c = _ORDER[i]
        store_i64p(scratch, base + CUT_SLOT, c)
        _store(t0, b0, ctx, key, hi, NO_BOUND, WIDTH - 1 - c if mirrored else c, 0)
        return hi
    if hmove >= 0 and (nonlosing & _COLS[hmove]) == U0:
        hmove = -1
    # No move wins after next (every child's reply then parries our threats), so no move
    # is worth more than hi - 1: each child would only show this by its own bound.
    if beta > hi - 1:
        beta = hi - 1
        if alpha >= beta:
            _store(t0, b0, ctx, key, -NO_BOUND, max(beta, skip_value), -1, 0)
            return max(beta, skip_value)

    _count(ctx, CTX_INTERIOR)
    alpha0 = alpha
    best = -1
    value = skip_value
    first = True
    # Several threads: moves another thread is searching are deferred (ABDADA, see
    # docs/solver.md, "Parallel search"); ``busy`` is the shared table of those children.
    busy = load_i64p(ctx, CTX_BUSY)
    shared = busy != 0 and moves < load_i64p(ctx, CTX_DEFER)
    defer = shared
    deferred = False
    while True:
        slot = np.int64(-1)
        ck = U0
        if hmove >= 0:
            c = hmove
            store_i64p(scratch, base + _RANK[c], -1)
            hmove = -1
        else:
            # The second pass (once no move is left): the moves other threads were
            # searching, now searched here too (their results may be in the table by now).
            bi = _next_rank(scratch, base, deferred and not defer)
            if bi < 0:
                if deferred and defer:
                    defer = False
                    continue
                break
            store_i64p(scratch, base + bi, -1)
            c = _ORDER[bi]
        mv = nonlosing & _COLS[c]
        if shared and not first and load_i64p(ctx, CTX_NODES) - nodes >= RECHECK_NODES:
            # Another thread may have decided this node meanwhile: its entry proves a
            # cutoff, and this thread's other moves would be wasted work. (Only after
            # a large subtree: the entry is out of the caches by then anyway, and after
            # a small one the other thread has rarely had the time.)
            e = tt_probe(t0, b0, key)
            if e != EMPTY:
                if entry_lower(e) >= beta:
                    return entry_lower(e)
                if alpha == alpha0 and entry_upper(e) <= alpha:
                    return entry_upper(e)
        if defer and not first:
            # A move whose child another thread is searching is put off until the other
            # moves are done; the child is marked while this thread searches it. Never
            # the first move: the likely cutoff, searched by every thread that comes here
            # (so the others' work starts only once it has failed).
            ck, _ = _table_key(opp, mask | mv, moves + 1)
            slot = _claim(busy, ck)
            if slot < 0:
                store_i64p(scratch, base + bi, DEFERRED)
                deferred = True
                continue
        score = -negamax(opp, mask | mv, moves + 1, -beta, -alpha, ctx)
        if slot >= 0 and load_u64(busy, slot) == fold64(ck):  # (unless another key took it)
            store_u64(busy, slot, _Z64)
        if load_i64(ctx, CTX_ABORT) != 0:
            return 0  # results of an aborted search are never stored
        if score >= beta:
            store_i64p(scratch, base + CUT_SLOT, c)
            _count(ctx, CTX_CUTS)
            if first:
                _count(ctx, CTX_FIRST_CUTS)
            work = _log2_work(load_i64p(ctx, CTX_NODES) - nodes)
            _store(t0, b0, ctx, key, score, NO_BOUND, WIDTH - 1 - c if mirrored else c, work)
            return score
        first = False
        value = max(value, score)
        if score > alpha:
            alpha = score
            best = c

    work = _log2_work(load_i64p(ctx, CTX_NODES) - nodes)
    if alpha > alpha0:
        _store(t0, b0, ctx, key, alpha, alpha, WIDTH - 1 - best if mirrored else best, work)
        return alpha
    # Every move failed low (fail-soft): the best of the children's bounds bounds the node,
    # often below alpha, which saves the driver a window and later visits a search.
    _store(t0, b0, ctx, key, -NO_BOUND, value, -1, work)
    return value


@njit(inline="always", nogil=True, cache=True)
def _store(tt, bits, ctx, key, lower, upper, move, work):
    _count(ctx, CTX_STORES)
    if tt_store(tt, bits, key, lower, upper, move, work) != 0:
        _count(ctx, CTX_OVERWRITES)


@njit(nogil=True, cache=True)
def solve_root(cur, mask, moves, lo0, need_move, tt, bits, scratch, ctx, bk, bs, bn, bp):
    """Exact score and a best move (column) of a position that is not over.

    Narrows the score with null-window searches: first win/draw/loss (the window at 0),
    then one score at a time outward from 0. Most opening and middle-game positions score
    close to 0, where this needs the fewest windows (the empty board: two), and each
    window re-uses the bounds the previous ones left in the table.

    ``lo0 <= score`` is known to the caller (a floor from a parent's book score); no
    window below it is searched. When the score turns out to be the floor, no search
    proved a move for it: the move is then found by ``_move_for_score``
    if ``need_move``, else it is -1 (an analysis or the book builder needs scores only).
    ``tt, bits``: the table; ``scratch``: the thread's scratch area; ``bk, bs, bn, bp``:
    the opening book's probe arguments (all 0: no book). The search finds them in ``ctx``.
    """
    poss = possible(mask)
    win = winning_squares(cur, mask) & poss
    if win != U0:
        return _win_at(moves), column_of(_low_bit(win))
    store_i64p(ctx, CTX_ROOT, moves)
    store_i64p(ctx, CTX_TT, tt)
    store_i64p(ctx, CTX_BITS, bits)
    store_i64p(ctx, CTX_SCRATCH, scratch)
    store_i64p(ctx, CTX_BOOK, bk)
    store_i64p(ctx, CTX_BOOK + 1, bs)
    store_i64p(ctx, CTX_BOOK + 2, bn)
    store_i64p(ctx, CTX_BOOK + 3, bp)
    if bp != 0:
        b = book_probe(bk, bs, bn, bp, cur, mask, moves)
        if b != BOOK_MISS:  # the book stores no move: one is searched for if needed
            return b, _move_for_score(cur, mask, moves, b, ctx) if need_move else -1
    lo = -_win_at(moves + 1)
    hi = _win_at(moves)
    hinted_lo = lo0 > lo
    lo = max(lo, lo0)
    best = -1
    key, mirrored = _table_key(cur, mask, moves)
    # Every thread searches the same windows, so that their trees are one tree; but the
    # first two helpers begin with the windows next to the first (+1, -1), which the
    # driver often needs next: the empty board's second window is searched meanwhile.
    med = load_i64p(ctx, CTX_FIRST)
    floor_first = hinted_lo
    while lo < hi:
        if lo >= 0 or floor_first:
            # A win (or at least a draw): is it worth more than lo? A floor is tested
            # first whatever its sign: it is often the score (a parent's best move).
            med = lo
            floor_first = False
        elif hi <= 0:
            med = hi - 1  # a loss (or at most a draw): is it worth less than hi?
        med = min(max(med, lo), hi - 1)
        store_i64(ctx, CTX_LO, lo)  # for a progress report from another thread
        store_i64(ctx, CTX_HI, hi)
        store_i64(ctx, CTX_TEST, med)
        store_i64p(scratch, moves * SCRATCH_PER_PLY + CUT_SLOT, -1)
        r = negamax(cur, mask, moves, med, med + 1, ctx)
        if load_i64(ctx, CTX_ABORT) != 0:
            return 0, -1
        if r <= med:
            hi = r
        else:
            lo = r
            # The move that failed high proves the new bound. A cutoff straight from the
            # table proves it with the entry's move; one from the static bound names none.
            best = load_i64p(scratch, moves * SCRATCH_PER_PLY + CUT_SLOT)
            if best < 0:
                tr, br = tt_tier(tt, bits, moves, near_plies(moves))
                e = tt_probe(tr, br, key)
                if e != EMPTY and entry_lower(e) > med:
                    best = entry_move(e)
                    if best >= 0 and mirrored:
                        best = WIDTH - 1 - best
    if best < 0 and hinted_lo:  # the score is the floor: no search named a move
        return lo, _move_for_score(cur, mask, moves, lo, ctx) if need_move else -1
    if best < 0:
        # The score is the static bound (every move that does not lose at once is as
        # good as any other) or a forced loss: take a move that does not lose at once.
        cand = _safe_moves(poss, winning_squares(cur ^ mask, mask))
        if cand == U0:
            cand = poss
        best = column_of(_low_bit(cand))
    return lo, best


@njit(nogil=True, cache=True)
def _move_for_score(cur, mask, moves, score, ctx):
    """A move that achieves ``score``, the position's known exact score (from the book,
    which stores scores, not moves, or from a floor that no search improved on).

    Each candidate (in move-order) is tested with one null-window search of its child,
    "is the child worth at most -score?"; the first that passes is a best move. Children
    inside the book's plies answer from the book at once.
    """
    poss = possible(mask)
    opp_win = winning_squares(cur ^ mask, mask)
    cand = _safe_moves(poss, opp_win)
    if cand == U0:  # lost at once whatever is played
        return column_of(_low_bit(poss))
    if (cand & (cand - U1)) == U0:
        return column_of(cand)
    first = -1
    while cand != U0:
        bi = -1
        bsc = -1
        for i in range(WIDTH):
            mv = cand & _COLS[_ORDER[i]]
            if mv != U0:
                sc = _move_score(cur, mask, mv, opp_win)
                if sc > bsc:
                    bsc = sc
                    bi = i
        c = _ORDER[bi]
        mv = cand & _COLS[c]
        cand ^= mv
        if first < 0:
            first = c
        if moves + 1 >= SIZE:
            return c
        r = negamax(cur ^ mask, mask | mv, moves + 1, -score, -score + 1, ctx)
        if load_i64(ctx, CTX_ABORT) != 0:
            return -1
        if r <= -score:
            return c
    return first  # not reached with a consistent book
