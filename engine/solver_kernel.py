"""The exact solver's numba kernels: null-window negamax and the strong-solve driver.

Everything the recursion touches is a scalar or an address (see :mod:`.mem`): the
transposition table ``tt`` (``2**bits`` words), a scratch area for the move scores of each
ply (8 ``int64`` per ply), and a small context block ``ctx``:

====  =====================================================
ctx   meaning
====  =====================================================
0     nodes searched (incremented at every node)
1     abort flag: the search unwinds at once when non-zero
====  =====================================================

Scores follow the solvers' convention (:mod:`.scores`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bitboard import U0, U1, column_of, popcount, possible, winning_squares
from .book_probe import BOOK_MISS, book_probe
from .geometry import CENTER_ORDER, COLUMN_MASKS, SIZE, WIDTH
from .mem import load_i64, store_i64
from .tt import entry_lower, entry_move, entry_upper, tt_probe, tt_store

CTX_NODES = 0
CTX_ABORT = 1
CTX_SIZE = 8
SCRATCH_PER_PLY = 8
NO_BOUND = 31  # |bound| meaning "no bound known"
CUT_SLOT = 7  # scratch slot of each ply: the move that last failed high there

_ORDER = np.array(CENTER_ORDER, dtype=np.int64)
_RANK = np.array([CENTER_ORDER.index(c) for c in range(WIDTH)], dtype=np.int64)
_COLS = COLUMN_MASKS


@njit(inline="always", nogil=True, cache=True)
def _log2_work(n):
    w = 0
    while n > 1:
        n >>= 1
        w += 1
    return w


@njit(nogil=True, cache=True)
def negamax(cur, mask, moves, alpha, beta, tt, bits, scratch, ctx, bk, bs, bn, bp):
    """Score of the position within ``(alpha, beta)``, fail-hard, side to move cannot win now.

    The caller guarantees that the side to move has no winning move. ``bk, bs, bn, bp``
    are the opening book's probe arguments (all 0: no book).
    """
    nodes = load_i64(ctx, CTX_NODES) + 1
    store_i64(ctx, CTX_NODES, nodes)

    poss = possible(mask)
    opp_win = winning_squares(cur ^ mask, mask)
    forced = poss & opp_win
    if forced != U0:
        if (forced & (forced - U1)) != U0:
            return -((SIZE - moves) // 2)  # two threats to parry: lost
        poss = forced
    nonlosing = poss & ~(opp_win >> U1)  # never play under an opponent's threat
    if nonlosing == U0:
        return -((SIZE - moves) // 2)
    if moves >= SIZE - 2:
        return 0

    lo = -((SIZE - 2 - moves) // 2)  # the opponent cannot win with its next move
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha
    hi = (SIZE - 1 - moves) // 2  # we cannot win with this move
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta

    if bp != 0:
        b = book_probe(bk, bs, bn, bp, cur, mask, moves)
        if b != BOOK_MISS:
            return b

    key = cur + mask
    hmove = -1
    e = tt_probe(tt, bits, key)
    if e != U0:
        elo = entry_lower(e)
        if elo > alpha:
            alpha = elo
            if alpha >= beta:
                return alpha
        ehi = entry_upper(e)
        if ehi < beta:
            beta = ehi
            if alpha >= beta:
                return beta
        hmove = entry_move(e)

    # Move scores (threats created), one slot per column in centre order; -1 = not a move.
    base = moves * SCRATCH_PER_PLY
    for i in range(WIDTH):
        mv = nonlosing & _COLS[_ORDER[i]]
        if mv != U0:
            store_i64(scratch, base + i, popcount(winning_squares(cur | mv, mask)))
        else:
            store_i64(scratch, base + i, -1)
    if hmove >= 0 and (nonlosing & _COLS[hmove]) == U0:
        hmove = -1

    alpha0 = alpha
    best = -1
    opp = cur ^ mask
    while True:
        if hmove >= 0:
            c = hmove
            store_i64(scratch, base + _RANK[c], -1)
            hmove = -1
        else:
            pick = -1
            pick_score = -1
            for i in range(WIDTH):
                s = load_i64(scratch, base + i)
                if s > pick_score:
                    pick_score = s
                    pick = i
            if pick < 0:
                break
            store_i64(scratch, base + pick, -1)
            c = _ORDER[pick]
        mv = nonlosing & _COLS[c]
        score = -negamax(
            opp, mask | mv, moves + 1, -beta, -alpha, tt, bits, scratch, ctx, bk, bs, bn, bp
        )
        if load_i64(ctx, CTX_ABORT) != 0:
            return 0  # results of an aborted search are never stored
        if score >= beta:
            store_i64(scratch, base + CUT_SLOT, c)
            work = _log2_work(load_i64(ctx, CTX_NODES) - nodes)
            tt_store(tt, bits, key, score, NO_BOUND, c, work)
            return score
        if score > alpha:
            alpha = score
            best = c

    work = _log2_work(load_i64(ctx, CTX_NODES) - nodes)
    if alpha > alpha0:
        tt_store(tt, bits, key, alpha, alpha, best, work)
    else:
        tt_store(tt, bits, key, -NO_BOUND, alpha, -1, work)
    return alpha


@njit(inline="always", nogil=True, cache=True)
def _half_toward_zero(x):
    # C-style x / 2 (truncates toward zero), as in the reference solvers' driver.
    return -((-x) // 2) if x < 0 else x // 2


@njit(nogil=True, cache=True)
def solve_root(cur, mask, moves, tt, bits, scratch, ctx, bk, bs, bn, bp):
    """Exact score and a best move (column) of a position that is not over.

    Narrows the score with null-window searches, bisecting the interval but biased
    towards zero and towards the closest win (which is cheaper to prove).
    """
    poss = possible(mask)
    win = winning_squares(cur, mask) & poss
    if win != U0:
        return (SIZE + 1 - moves) // 2, column_of(win & (~win + U1))
    lo = -((SIZE - moves) // 2)
    hi = (SIZE + 1 - moves) // 2
    best = -1
    key = cur + mask
    while lo < hi:
        med = lo + (hi - lo) // 2
        if med <= 0 and _half_toward_zero(lo) < med:
            med = _half_toward_zero(lo)
        elif med >= 0 and hi // 2 > med:
            med = hi // 2
        store_i64(scratch, moves * SCRATCH_PER_PLY + CUT_SLOT, -1)
        r = negamax(cur, mask, moves, med, med + 1, tt, bits, scratch, ctx, bk, bs, bn, bp)
        if load_i64(ctx, CTX_ABORT) != 0:
            return 0, -1
        if r <= med:
            hi = r
        else:
            lo = r
            # The move that failed high proves the new bound. A cutoff straight from the
            # table proves it with the entry's move; one from the static bound names none.
            best = load_i64(scratch, moves * SCRATCH_PER_PLY + CUT_SLOT)
            if best < 0:
                e = tt_probe(tt, bits, key)
                if e != U0 and entry_lower(e) > med:
                    best = entry_move(e)
    if best < 0:
        # The score is the static bound (every move that does not lose at once is as
        # good as any other) or a forced loss: take a move that does not lose at once.
        opp_win = winning_squares(cur ^ mask, mask)
        cand = poss & ~(opp_win >> U1)
        forced = poss & opp_win
        if forced != U0:
            cand = forced
        if cand == U0:
            cand = poss
        best = column_of(cand & (~cand + U1))
    return lo, best
