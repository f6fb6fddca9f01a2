"""MILTON's evaluation and interior-node recognition, as numba kernels.

Score scale (one set of constants, Slate's order of bands; thesis 2.4, 6.1, 6.2, fig. 6.2).
All values are from the side to move's point of view and *absolute*: they depend on the
disc count at which the game ends (or at which the leaf was evaluated), not on the distance
from the node, so a value means the same thing wherever the transposition table returns it.

=============== ====================================== ================
band            value                                   range
=============== ====================================== ================
real win        ``WIN - n``  (four made with disc n)   958 .. 993
recognized win  ``REC - n``  (proven, see below)       658 .. 693
heuristic win   ``HEUR + d`` (d discs at the leaf)      458 .. 500
heuristic draw  ``0``
losses          the negatives
=============== ====================================== ================

``WIN = 1000`` and ``HEUR = 458`` are MILTON's constants (a loss is ``-1000 + discs``; an
expected win ``458 + discs``). MILTON scores a recognized win ``699 - distance``; a distance
depends on where the node is, so we use the absolute ``REC - n`` with ``REC = 700`` instead.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Bitboard primitives are defined once, in .bitboard (re-exported here for the kernel).
from ..board.bitboard import (  # noqa: F401
    COLUMN_MASKS,
    U0,
    U1,
    U_BOARD,
    U_BOTTOM,
    WORD_SLOTS,
    load_word,
    popcount,
    store_word,
    winning_squares,
    word,
)
from ..board.geometry import HEIGHT, SIZE, WIDTH
from ..mem import load_i64, store_i64

WIN = 1000  #: real wins: WIN - (disc count when the four is made)
REC = 700  #: recognized wins: REC - (disc count when the four is made)
HEUR = 458  #: heuristic wins: HEUR + (disc count at the evaluated leaf)
INF = 10000  #: MILTON's full window [-10000, 10000]
#: Values above these thresholds are real / recognized results.
REAL_MIN = WIN - SIZE - 2
REC_MIN = REC - SIZE - 2

# Bitboard words (np.uint64 up to 64 bits, 128-bit words beyond: .bitboard); shift counts
# stay np.uint64.
_TOP_ROW = word(sum(1 << (c * (HEIGHT + 1) + HEIGHT - 1) for c in range(WIDTH)))
_COLS = COLUMN_MASKS  # bitboard's, defined once
_S1 = np.uint64(1)
#: The most free squares the recognizer's exact solve takes on (two columns of a tall
#: board would be too many move orders for a solve without a table); never binds up to a
#: height of 8 (7x6: at most 12).
EG_MAX_FREE = 16
_CAP_FREE = 2 * HEIGHT > EG_MAX_FREE


@njit(nogil=True, cache=True)
def threat_fill(cur, mask):
    """MILTON's threat-fill evaluation (thesis 6.1).

    Finds every threat of both players, forgets the rest of the board (columns without a
    threat count as full) and fills the threat columns alternately, the side to move first,
    each player choosing by priority: (1) an own acute threat (wins), (2) the opponent's
    acute threat (blocks), (3) a square under no threat, (4) a square under an own threat,
    first in columns with an odd number of free squares, (5) a square under an opponent's
    threat. Returns ``(outcome, plies)``: outcome +1 / 0 / -1 for the side to move, and the
    number of fill plies until the winning disc (0 for a draw).
    """
    me = winning_squares(cur, mask)
    you = winning_squares(cur ^ mask, mask)
    thr = me | you
    cols = U0
    for c in range(WIDTH):
        if thr & _COLS[c]:
            cols |= _COLS[c]
    m = mask
    side = 1  # +1 while the original side to move fills
    step = 0
    while True:
        step += 1
        play = (m + U_BOTTOM) & U_BOARD & cols
        if play == U0:
            return 0, 0
        if play & me:  # (1) own acute threat: the four is made
            return side, step
        sq = play & you  # (2) block the opponent's acute threat
        if sq == U0:
            under_me = play & (me >> _S1)
            under_you = play & (you >> _S1)
            sq = play & ~(under_me | under_you)  # (3) under no threat
            if sq == U0:
                sq = under_me & ~under_you  # (4) under an own threat
                if sq:
                    odd = U0
                    for c in range(WIDTH):
                        b = sq & _COLS[c]
                        if b and popcount(_COLS[c] & ~m) & 1:
                            odd = b
                            break
                    if odd:
                        sq = odd
                else:
                    sq = play  # (5) under an opponent's threat
        sq &= ~sq + U1  # one square: the lowest bit
        m |= sq
        me &= ~m
        you &= ~m
        me, you = you, me
        side = -side


@njit(nogil=True, cache=True)
def evaluate(cur, mask, n):
    """Heuristic value of a leaf: ``±(HEUR + n)`` for an expected win/loss, 0 for a draw."""
    outcome, _plies = threat_fill(cur, mask)
    if outcome > 0:
        return HEUR + n
    if outcome < 0:
        return -(HEUR + n)
    return 0


@njit(nogil=True, cache=True, inline="always")
def recognizable(mask):
    """MILTON's recognizer condition (thesis 6.2, listing 6.1) on the free columns.

    One free column, or exactly two free columns at least four apart (three columns between
    them), so that discs in one cannot make new horizontal or diagonal fours with the other.
    The caller also requires that neither side has an acute threat.
    """
    free = ~mask & _TOP_ROW
    if free == U0:
        return False
    low = free & (~free + U1)
    rest = free ^ low
    if rest == U0:
        return True
    if rest & (rest - U1):
        return False
    if _CAP_FREE and popcount(~mask & U_BOARD) > EG_MAX_FREE:
        return False
    # bit distance of two top squares = 7 * column distance
    return rest >= (low << np.uint64(4 * (HEIGHT + 1)))


@njit(nogil=True, cache=True, inline="always")
def _eg_node(cur, mask, n):
    """``(terminal, value, moves)`` of an endgame node (see :func:`endgame_value`)."""
    if n == SIZE:
        return True, 0, U0
    play = (mask + U_BOTTOM) & U_BOARD
    if winning_squares(cur, mask) & play:
        return True, WIN - (n + 1), U0
    ot = winning_squares(cur ^ mask, mask)
    forced = ot & play
    if forced & (forced - U1):
        return True, -(WIN - (n + 2)), U0
    if forced:
        return False, 0, forced
    moves = play & ~(ot >> _S1)
    if moves == U0:
        return True, -(WIN - (n + 2)), U0
    return False, 0, moves


# A frame of the endgame scratch buffer: three bitboard words (WORD_SLOTS slots each: one on
# up to 64 bits, two beyond), then best, alpha, beta and the disc count.
_F_CUR = 0
_F_MASK = WORD_SLOTS
_F_MOVES = 2 * WORD_SLOTS
_F_BEST = 3 * WORD_SLOTS
_F_ALPHA = _F_BEST + 1
_F_BETA = _F_BEST + 2
_F_N = _F_BEST + 3
#: int64 words per ply in the endgame scratch buffer (8 on 7x6: one spare)
EG_FRAME = 8 if WORD_SLOTS == 1 else _F_N + 1
EG_WORDS = EG_FRAME * (SIZE + 2)


@njit(nogil=True, cache=True)
def endgame_value(cur, mask, n, buf):
    """Exact value, in the real band (``±(WIN - n_end)`` or 0), of a recognizable endgame.

    MILTON evaluates recognized positions with the threat fill, whose outcome is exact there
    but whose win distance is only an upper bound; our scores must match the perfect solvers
    at full depth, so the one or two far-apart free columns (at most 12 squares, at most 924
    move orders) are solved exactly instead: negamax with alpha-beta, fastest win and
    slowest loss. Vertical threats that the fill would miss (a player stacking twice in one
    column while the opponent answers in the other) are handled because real discs are
    played. ``buf`` is the address of an ``int64[EG_WORDS]`` scratch stack: the search is
    iterative because numba cannot load a cached kernel that calls a recursive one.
    """
    term, v, moves = _eg_node(cur, mask, n)
    if term:
        return v
    sp = 0
    store_word(buf, _F_CUR, cur)
    store_word(buf, _F_MASK, mask)
    store_word(buf, _F_MOVES, moves)
    store_i64(buf, _F_BEST, -INF)
    store_i64(buf, _F_ALPHA, -INF)
    store_i64(buf, _F_BETA, INF)
    store_i64(buf, _F_N, n)
    ret = 0
    have_ret = False
    while True:
        f = sp * EG_FRAME
        moves = load_word(buf, f + _F_MOVES)
        if have_ret:
            have_ret = False
            v = -ret
            if v > load_i64(buf, f + _F_BEST):
                store_i64(buf, f + _F_BEST, v)
                if v > load_i64(buf, f + _F_ALPHA):
                    store_i64(buf, f + _F_ALPHA, v)
                    if v >= load_i64(buf, f + _F_BETA):
                        moves = U0
                        store_word(buf, f + _F_MOVES, moves)
        if moves == U0:
            ret = load_i64(buf, f + _F_BEST)
            if sp == 0:
                return ret
            have_ret = True
            sp -= 1
            continue
        mv = moves & (~moves + U1)
        store_word(buf, f + _F_MOVES, moves ^ mv)
        c = load_word(buf, f + _F_CUR)
        m = load_word(buf, f + _F_MASK)
        cn = load_i64(buf, f + _F_N) + 1
        ccur = c ^ m
        cmask = m | mv
        term, cv, cmoves = _eg_node(ccur, cmask, cn)
        if term:
            ret = cv
            have_ret = True
            continue
        alpha = load_i64(buf, f + _F_ALPHA)
        beta = load_i64(buf, f + _F_BETA)
        sp += 1
        g = sp * EG_FRAME
        store_word(buf, g + _F_CUR, ccur)
        store_word(buf, g + _F_MASK, cmask)
        store_word(buf, g + _F_MOVES, cmoves)
        store_i64(buf, g + _F_BEST, -INF)
        store_i64(buf, g + _F_ALPHA, -beta)
        store_i64(buf, g + _F_BETA, -alpha)
        store_i64(buf, g + _F_N, cn)
