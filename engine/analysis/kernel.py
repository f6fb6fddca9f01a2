"""The analysis search kernel: MILTON's alpha-beta (thesis listings 2.6, 3.1, 4.1, 6.1).

One recursive negamax, fail-soft, with each technique behind a flag: principal-variation
search, quiescence at the horizon, fractional extensions, killer moves, interior-node
recognition; two-tier transposition table with Zobrist keys throughout.

Everything the recursion needs is reached through one ``int64`` state array (``st``) of raw
addresses and settings (``engine/mem.py``): no numpy array object crosses the recursion.

Control: at every node the kernel bumps the node counter in the control array ``ctl`` and
compares it with the pause target and the node limit, and reads the command word. On a
pause it publishes the current path (per ply: move, alpha, beta, move index; kept up to date
at every node anyway) and sleeps in ``sleep_us(2000)`` steps, GIL released, until resumed or
stopped; since nothing of the search state changes, a paused and resumed search is exactly
the uninterrupted one. Stop and the node limit set an abort code and the recursion unwinds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..board.bitboard import COLUMN_MASKS, U0, U1, possible, word
from ..board.geometry import CENTER_ORDER, HEIGHT, SIZE, SQUARE_VALUES, WIDTH, win_ply
from ..books.probe import BOOK_MISS, book_probe
from ..mem import load_i64, sleep_us, store_i64
from .eval import (
    INF,
    REC,
    WIN,
    endgame_value,
    evaluate,
    popcount,
    recognizable,
    winning_squares,
)
from .tt import (
    EXACT,
    LOWER,
    UPPER,
    Z_STRIDE,
    ZOBRIST,
    d_depth,
    d_exact,
    d_flag,
    d_move,
    d_value,
    pack,
    probe,
    rec_probe,
    rec_store,
    store_always,
    store_deeper,
)

# ---- control array (int64), shared with the Python controller
C_CMD = 0  #: 0 run, 1 pause, 2 stop
C_PAUSE_AT = 1  #: pause once the node counter reaches this value (NEVER: no target)
C_LIMIT = 2  #: abort (node limit) before counting node LIMIT + 1
C_NODES = 3  #: nodes searched so far (all iterations)
C_PAUSED = 4  #: 1 while the kernel waits in its pause loop
C_PATHLEN = 5  #: plies of the published path while paused
C_PROBES = 6  #: transposition-table probes
C_HITS = 7  #: probes that found the position in table 1 or 2
C_ABORT = 8  #: 0, or ABORT_STOP / ABORT_LIMIT once the search unwinds
C_PAUSES = 9  #: number of pauses the kernel has entered
C_SIZE = 16

NEVER = 1 << 62  #: no pause target / no node limit
CMD_RUN = 0
CMD_PAUSE = 1
CMD_STOP = 2
ABORT_STOP = 1
ABORT_LIMIT = 2

# ---- state array (int64): addresses and settings
S_CTL = 0
S_PATH = 1  #: int64[MAX_PLY * 4]: move, alpha, beta, index per ply
S_PV = 2  #: int64[MAX_PLY * MAX_PLY]: triangular principal-variation table (ply stride MAX_PLY)
S_PVLEN = 3  #: int64[MAX_PLY]
S_T1 = 4
S_T2 = 5
S_TMASK = 6
S_REC = 7
S_RECMASK = 8
S_KILL = 9  #: int64[MAX_PLY * 2]
S_ORDER = 10  #: int64[MAX_PLY * ORDER_STRIDE] ordering scratch
S_FLAGS = 11
S_EXACT = 12  #: 1 during a full-depth iteration
S_EG = 13  #: int64[EG_WORDS] scratch of the endgame recognizer
#: root moves not to search, one bit per column (multi-PV: the lines already found);
#: with any set, the root's result is not stored (Stockfish's rule for PV lines past the
#: first): it is not the root's value
S_EXCLUDE = 14
S_BOOK = 20  #: 20..23: the opening book's probe arguments (keys, scores, n, plies)
S_SIZE = 24

F_PVS = 1
F_QUIES = 2
F_EXT = 4
F_KILL = 8
F_RECOG = 16
F_THREATS = 32

#: Plies of the per-ply buffers (path, PV, killers, ordering): a node's distance from the
#: root is at most the empty squares, and the PV table reads one ply further (64 on 7x6).
MAX_PLY = max(64, SIZE + 2)
#: The move ordering's key: a move's score shifted left by COL_SHIFT bits, plus its column
#: (3 bits up to 8 columns: 7x6's ``s * 8 + c``).
COL_SHIFT = max(3, (WIDTH - 1).bit_length())
_COL_MUL = 1 << COL_SHIFT
_COL_FIELD = _COL_MUL - 1
#: int64 slots per ply of the ordering scratch (8 on 7x6)
ORDER_STRIDE = max(8, WIDTH)
#: Past 7 columns, ties in the ordering key go to the column nearer the centre: the middle
#: columns of a wide board have the same square values, and the key's column field made
#: the rightmost of them the search's move wherever the values were level (g on the empty
#: 10x10). Up to 7 columns the field is the column itself, as MILTON's 7x6 order always was.
CENTRAL_TIES = WIDTH > 7
#: The column's value in the key's field (larger wins a tie) and the field back to the column.
_TIE = np.zeros(WIDTH, dtype=np.int64)
for _i, _c in enumerate(CENTER_ORDER):
    _TIE[_c] = WIDTH - 1 - _i
_TIE_COL = np.argsort(_TIE).astype(np.int64)

_COLS = COLUMN_MASKS  # bitboard's, defined once
# The tables' data words are always np.uint64 (bitboards are words: .bitboard's U0, U1).
_Z64 = np.uint64(0)
_S1 = np.uint64(1)  # a shift count


def _order_values() -> np.ndarray:
    """MILTON's static ordering (thesis 5.1, fig. 5.1): fours through the square, doubled,
    plus one in the lower half of the board; indexed by bit (col * (HEIGHT + 1) + row)."""
    v = np.zeros(max(64, WIDTH * (HEIGHT + 1)), dtype=np.int64)
    for c in range(WIDTH):
        for r in range(HEIGHT):
            v[c * (HEIGHT + 1) + r] = 2 * SQUARE_VALUES[c][r] + (1 if r < HEIGHT // 2 else 0)
    return v


ORDER_VALUES = _order_values()


#: The ply of the disc that ends a game of a given score (the convention's inverse,
#: ``geometry.win_ply``), compiled into the kernels.
_win_ply = njit(nogil=True, cache=True, inline="always")(win_ply)


@njit(nogil=True, cache=True, inline="always")
def book_value(score, n):
    """Internal (real band) value of a book score in the solvers' convention at ``n`` discs."""
    if score == 0:
        return 0
    v = WIN - (_win_ply(score, n) + 1)  # the game ends with disc number win_ply + 1
    return v if score > 0 else -v


@njit(nogil=True, cache=True)
def _control(ctl, nodes):
    """Handle a stop or pause request at a node; True if the search must unwind."""
    paused = False
    while True:
        cmd = load_i64(ctl, C_CMD)
        if cmd == CMD_STOP:
            store_i64(ctl, C_PAUSED, 0)
            store_i64(ctl, C_ABORT, ABORT_STOP)
            return True
        if nodes > load_i64(ctl, C_LIMIT):  # limit lowered while paused
            store_i64(ctl, C_PAUSED, 0)
            store_i64(ctl, C_ABORT, ABORT_LIMIT)
            return True
        if cmd == CMD_RUN and nodes < load_i64(ctl, C_PAUSE_AT):
            if paused:
                store_i64(ctl, C_PAUSED, 0)
            return False
        if not paused:
            paused = True
            store_i64(ctl, C_PAUSED, 1)
            # the controller compares this count with its value at the last resume, so a
            # stale PAUSED flag right after a resume is never taken for a new pause
            store_i64(ctl, C_PAUSES, load_i64(ctl, C_PAUSES) + 1)
        sleep_us(2000)


@njit(nogil=True, cache=True)
def ab(st, cur, mask, key, n, d2, alpha, beta, sply):
    """Fail-soft negamax value of (cur, mask) with ``n`` discs, ``d2`` half plies to go.

    ``sply`` is the distance from the root (0 at the root: the tables then only give the
    hash move, MILTON's rule, and the caller reads the best move from the PV table).
    """
    ctl = load_i64(st, S_CTL)
    path = load_i64(st, S_PATH)
    pvl = load_i64(st, S_PVLEN)
    store_i64(pvl, sply, 0)
    b = sply * 4
    store_i64(path, b, -1)
    store_i64(path, b + 1, alpha)
    store_i64(path, b + 2, beta)
    store_i64(path, b + 3, -1)
    nodes = load_i64(ctl, C_NODES) + 1
    if nodes > load_i64(ctl, C_LIMIT):
        store_i64(ctl, C_ABORT, ABORT_LIMIT)
        return 0
    store_i64(ctl, C_NODES, nodes)
    if load_i64(ctl, C_CMD) != CMD_RUN or nodes >= load_i64(ctl, C_PAUSE_AT):
        store_i64(ctl, C_PATHLEN, sply + 1)
        if _control(ctl, nodes):
            return 0

    if n == SIZE:
        return 0
    flags = load_i64(st, S_FLAGS)
    if d2 <= 0 and not (flags & F_QUIES) and sply > 0:
        return evaluate(cur, mask, n)
    play = possible(mask)
    if winning_squares(cur, mask) & play:
        return WIN - (n + 1)  # own acute threat: the four is made next move
    opp = cur ^ mask
    othr = winning_squares(opp, mask)
    forced = othr & play
    if forced & (forced - U1):
        return -(WIN - (n + 2))  # two acute threats: lost whatever we play

    # opening book (thesis 4.4, listing 4.2): exact scores of the positions it holds
    bplies = load_i64(st, S_BOOK + 3)
    if sply > 0 and bplies != 0:
        bs = book_probe(load_i64(st, S_BOOK), load_i64(st, S_BOOK + 1),
                        load_i64(st, S_BOOK + 2), bplies, cur, mask, n)
        if bs != BOOK_MISS:
            return book_value(bs, n)

    exact_mode = load_i64(st, S_EXACT) != 0
    hmove = -1
    tmask = np.uint64(load_i64(st, S_TMASK))
    w2 = probe(load_i64(st, S_T2), tmask, key)
    w1 = probe(load_i64(st, S_T1), tmask, key)
    store_i64(ctl, C_PROBES, load_i64(ctl, C_PROBES) + 1)
    if w1 != _Z64 or w2 != _Z64:
        store_i64(ctl, C_HITS, load_i64(ctl, C_HITS) + 1)
    for k in range(2):
        w = w2 if k == 0 else w1  # table 1 last: it wins
        if w == _Z64:
            continue
        mv = d_move(w)
        if mv >= 0:
            hmove = mv
        # at the root the tables only give the hash move (thesis 4.2, footnote)
        if sply > 0 and d_depth(w) >= d2 and (d_exact(w) or not exact_mode):
            v = d_value(w)
            f = d_flag(w)
            if f == EXACT:
                return v
            if f == LOWER:
                if v >= beta:
                    return v
                if v > alpha:
                    alpha = v
            elif f == UPPER:
                if v <= alpha:
                    return v
                if v < beta:
                    beta = v
    if alpha >= beta:
        return alpha

    # interior-node recognition (thesis 6.2): exact, cached in table 3
    if sply > 0 and (flags & F_RECOG) and forced == U0 and recognizable(mask):
        rt = load_i64(st, S_REC)
        rmask = np.uint64(load_i64(st, S_RECMASK))
        found, v = rec_probe(rt, rmask, key)
        if not found:
            v = endgame_value(cur, mask, n, load_i64(st, S_EG))
            rec_store(rt, rmask, key, v)
        if not exact_mode and v != 0:
            # Slate's bands: a recognized result ranks below a real one
            if v > 0:
                v = REC - (WIN - v)
            else:
                v = -(REC - (WIN + v))
        return v

    quies = False
    if d2 <= 0:
        if forced == U0:
            return evaluate(cur, mask, n)
        d2 += 4  # quiescence (listing 3.1): the opponent threatens, two more plies
        quies = True

    if forced:
        moves = forced
    else:
        moves = play & ~(othr >> _S1)  # never play under an opponent's threat
        if moves == U0:
            return -(WIN - (n + 2))
    nmoves = popcount(moves)
    store_d2 = d2
    if nmoves == 1 and (flags & F_EXT) and not quies:
        d2 += 1  # fractional extension: half a ply where only one move is sensible
    exclude = 0
    if sply == 0:
        exclude = load_i64(st, S_EXCLUDE)
        if exclude != 0:  # after the extension: a line's depth is the first line's
            for c in range(WIDTH):
                if (exclude >> c) & 1:
                    moves &= ~_COLS[c]

    # ordering: hash move, killers, static square values
    order = load_i64(st, S_ORDER)
    ob = sply * ORDER_STRIDE
    kill = load_i64(st, S_KILL)
    k1 = -1
    k2 = -1
    if flags & F_KILL:
        k1 = load_i64(kill, sply * 2)
        k2 = load_i64(kill, sply * 2 + 1)
    cnt = 0
    for c in range(WIDTH):
        if moves & _COLS[c]:
            if c == hmove:
                s = 1 << 20
            elif c == k1:
                s = 1 << 19
            elif c == k2:
                s = 1 << 18
            else:
                s = ORDER_VALUES[c * (HEIGHT + 1) + popcount(mask & _COLS[c])]
                if flags & F_THREATS:
                    # threats the move creates (thesis ch. 7 suggests favouring moves that
                    # build threes): beyond MILTON, a switch so that it can be compared
                    mv = moves & _COLS[c]
                    s += 32 * popcount(winning_squares(cur | mv, mask | mv))
            e = s * _COL_MUL + (_TIE[c] if CENTRAL_TIES else c)
            j = cnt
            while j > 0 and load_i64(order, ob + j - 1) < e:
                store_i64(order, ob + j, load_i64(order, ob + j - 1))
                j -= 1
            store_i64(order, ob + j, e)
            cnt += 1

    pvs = (flags & F_PVS) != 0
    best = -INF
    bestmove = -1
    orig_alpha = alpha
    color = np.int64(n & 1) * Z_STRIDE
    pv = load_i64(st, S_PV)
    for i in range(cnt):
        col = load_i64(order, ob + i) & _COL_FIELD
        if CENTRAL_TIES:
            col = _TIE_COL[col]
        mv = play & _COLS[col]
        store_i64(path, b, col)
        store_i64(path, b + 3, i)
        bit = col * (HEIGHT + 1) + popcount(mask & _COLS[col])
        ckey = key ^ ZOBRIST[color + bit]
        if i == 0 or not pvs:
            v = -ab(st, opp, mask | mv, ckey, n + 1, d2 - 2, -beta, -alpha, sply + 1)
        else:
            v = -ab(st, opp, mask | mv, ckey, n + 1, d2 - 2, -alpha - 1, -alpha, sply + 1)
            if load_i64(ctl, C_ABORT) != 0:
                return 0
            if v > alpha and v < beta:
                v = -ab(st, opp, mask | mv, ckey, n + 1, d2 - 2, -beta, -alpha, sply + 1)
        if load_i64(ctl, C_ABORT) != 0:
            return 0
        if v > best:
            best = v
            bestmove = col
            if v > alpha:
                alpha = v
                # principal variation: this move, then the child's
                base = sply * MAX_PLY
                store_i64(pv, base, col)
                cl = load_i64(pvl, sply + 1)
                for j in range(cl):
                    store_i64(pv, base + 1 + j, load_i64(pv, base + MAX_PLY + j))
                store_i64(pvl, sply, cl + 1)
                if alpha >= beta:
                    if (flags & F_KILL) and col != hmove and col != k1:
                        store_i64(kill, sply * 2 + 1, k1)
                        store_i64(kill, sply * 2, col)
                    break

    if best >= beta:
        flag = LOWER
        smove = bestmove
    elif best > orig_alpha:
        flag = EXACT
        smove = bestmove
    else:
        flag = UPPER
        smove = hmove
    if exclude != 0:
        return best
    data = pack(best, store_d2, flag, smove, exact_mode)
    tmask = np.uint64(load_i64(st, S_TMASK))
    store_always(load_i64(st, S_T1), tmask, key, data)
    store_deeper(load_i64(st, S_T2), tmask, key, data)
    return best


def search_root(st, cur, mask, key, n, d2, alpha, beta):
    """One root search with window (alpha, beta); the best move is ``pv[0]`` if any.

    Plain Python on purpose: numba cannot load from its cache a kernel that calls a
    recursive kernel (the recursive symbol stays unresolved), so Python calls ``ab``.
    """
    return ab(st, word(cur), word(mask), np.uint64(key), n, d2, alpha, beta, 0)
