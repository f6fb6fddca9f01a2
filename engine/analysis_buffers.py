"""One iteration of MILTON's iterative deepening on the analysis kernel's buffers.

:class:`Deepening` owns what the kernel reads and writes (the control words it polls at
every node, the state array of raw addresses, the path and PV tables, tables 1 and 2,
cleared at each search, and table 3, the recognition table, kept between searches) and
runs one iteration with either driver: MILTON's aspiration windows (:meth:`aspiration`)
or MTD(f) (:meth:`mtdf`). :func:`report` is the one place an :class:`IterationReport` is
built. The thread, the commands and the published state are the
:class:`~c4tui.engine.controller.SearchController`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import analysis_kernel as K
from .analysis_eval import EG_WORDS, INF, WIN
from .analysis_tt import (
    MOVE_BITS,
    MOVE_SHIFT,
    ZOBRIST,
    new_buckets,
    new_table,
    table_entries,
    zobrist_index,
)
from .booklink import BookLike, book_args
from .geometry import CENTER_ORDER, column_bits
from .mem import address
from .position import Position, winning_move, winning_squares
from .seam import IterationReport, PathEntry, PvLine, Score, SearchOptions, SearchState, Source
from .search import classify

#: Entries of the recognition table (MILTON's table 3), which survives between searches.
REC_ENTRIES = 1 << 16


@dataclass
class Iteration:
    """What one driver (aspiration windows or MTD(f)) found in one iteration."""

    value: int
    alpha: int
    beta: int
    fail_highs: int = 0
    fail_lows: int = 0
    move: int = -1  #: -1: the PV table gave none
    pv: tuple[int, ...] = ()
    aborted: bool = False


class Deepening:
    """The kernel's buffers, and one iteration at a time on them (the worker's thread)."""

    def __init__(self) -> None:
        self.ctl = np.zeros(K.C_SIZE, dtype=np.int64)  #: the control words (K.C_*)
        self._st = np.zeros(K.S_SIZE, dtype=np.int64)
        self._path = np.zeros(K.MAX_PLY * 4, dtype=np.int64)
        self._pv = np.zeros(K.MAX_PLY * K.MAX_PLY, dtype=np.int64)
        self._pvlen = np.zeros(K.MAX_PLY, dtype=np.int64)
        self._kill = np.full(K.MAX_PLY * 2, -1, dtype=np.int64)
        self._order = np.zeros(K.MAX_PLY * K.ORDER_STRIDE, dtype=np.int64)
        self._eg = np.zeros(EG_WORDS, dtype=np.int64)
        self._rec = new_table(REC_ENTRIES)
        self._tt = np.zeros(4, dtype=np.uint64)  # tables 1 and 2, interleaved buckets
        self._book: BookLike | None = None  # kept alive: the kernel reads its arrays

    def prepare(self, opts: SearchOptions, cont: bool, book: BookLike | None) -> None:
        """Tables, control words and book of a search (``cont``: a continuation keeps the
        tables and the counts). Takes seconds for a large table: call it without a lock.
        The kernel waits paused until the controller writes its commands."""
        c = self.ctl
        counts = c[K.C_NODES], c[K.C_PROBES], c[K.C_HITS]
        if not cont:
            entries = table_entries(opts.hash_mb)
            if len(self._tt) != entries * 4:
                self._tt = np.zeros(4, dtype=np.uint64)  # free the old tables first
                self._tt = new_buckets(entries)
            else:
                self._tt.fill(0)
            self._kill.fill(-1)
        c.fill(0)
        c[K.C_CMD] = K.CMD_PAUSE  # until the commands are applied
        c[K.C_PAUSE_AT] = K.NEVER
        if cont:  # counts run on across the continuation
            c[K.C_NODES], c[K.C_PROBES], c[K.C_HITS] = counts
        st = self._st
        st[K.S_CTL] = address(c)
        st[K.S_PATH] = address(self._path)
        st[K.S_PV] = address(self._pv)
        st[K.S_PVLEN] = address(self._pvlen)
        st[K.S_T1] = address(self._tt)
        st[K.S_T2] = address(self._tt) + 16
        st[K.S_TMASK] = len(self._tt) // 4 - 1
        st[K.S_REC] = address(self._rec)
        st[K.S_RECMASK] = REC_ENTRIES - 1
        st[K.S_KILL] = address(self._kill)
        st[K.S_ORDER] = address(self._order)
        st[K.S_EG] = address(self._eg)
        st[K.S_FLAGS] = (
            (K.F_PVS if opts.pvs else 0)
            | (K.F_QUIES if opts.quiescence else 0)
            | (K.F_EXT if opts.extensions else 0)
            | (K.F_KILL if opts.killers else 0)
            | (K.F_RECOG if opts.recognition else 0)
            | (K.F_THREATS if opts.threat_ordering else 0)
        )
        st[K.S_EXACT] = 0
        st[K.S_EXCLUDE] = 0
        self._book = book
        st[K.S_BOOK:K.S_BOOK + 4] = book_args(book)

    # ------------------------------------------------------------ reading the kernel
    def nodes(self) -> int:
        return int(self.ctl[K.C_NODES])

    def paused_path(self) -> tuple[PathEntry, ...]:
        """The path the kernel published when it paused."""
        n = int(self.ctl[K.C_PATHLEN])
        p = self._path
        return tuple(
            PathEntry(i, int(p[4 * i]), int(p[4 * i + 1]), int(p[4 * i + 2]), int(p[4 * i + 3]))
            for i in range(min(n, K.MAX_PLY))
        )

    def pv_move(self) -> int:
        """The PV table's first move (-1: none)."""
        return int(self._pv[0]) if self._pvlen[0] > 0 else -1

    def abort_reason(self) -> SearchState:
        """Why the kernel unwound: a stop, or the node limit."""
        aborted = self.ctl[K.C_ABORT] == K.ABORT_STOP
        return SearchState.STOPPED if aborted else SearchState.NODE_LIMIT

    def fill(self) -> float:
        """Share of used slots in tables 1 and 2."""
        # estimated from the first 16K buckets (addresses are hashed, so a fair sample),
        # like chess engines' "hashfull": counting 16 MB after every iteration would cost
        # more than a shallow iteration
        sample = self._tt[: 4 * 16384]
        return np.count_nonzero(sample[1::2]) / (len(sample) // 2)

    # ------------------------------------------------------------ one iteration
    def aspiration(self, pos: Position, key: int, depth: int, exact: bool,
                   window: tuple[int, int]) -> Iteration:
        """One iteration with MILTON's aspiration windows: a window missed once is
        widened on its side, missed twice opened fully (the ID driver)."""
        self._st[K.S_EXACT] = 1 if exact else 0
        alpha, beta = window
        it = Iteration(0, alpha, beta)
        repeated = False
        while True:
            v = self._root(pos, key, 2 * depth, alpha, beta)
            if self.ctl[K.C_ABORT]:
                it.aborted = True
                break
            if v <= alpha and alpha > -INF:
                it.fail_lows += 1
                alpha, beta = (-INF, INF) if repeated else (-INF, v + 2)
                repeated = True
                continue
            if v >= beta and beta < INF:
                it.fail_highs += 1
                alpha, beta = (-INF, INF) if repeated else (v - 2, INF)
                repeated = True
                continue
            break
        it.value, it.alpha, it.beta = v, alpha, beta
        if not it.aborted and self._pvlen[0] > 0:
            it.move, it.pv = int(self._pv[0]), self._pv_line()
        return it

    def mtdf(self, pos: Position, key: int, depth: int, exact: bool, guess: int) -> Iteration:
        """One iteration of MTD(f): null-window searches from ``guess`` until the bounds
        meet."""
        self._st[K.S_EXACT] = 1 if exact else 0
        g = guess
        lower, upper = -INF, INF
        it = Iteration(g, lower, upper)
        while lower < upper:
            b = g + 1 if g == lower else g
            g = self._root(pos, key, 2 * depth, b - 1, b)
            if self.ctl[K.C_ABORT]:
                it.aborted = True
                break
            if g < b:
                upper = g
                it.fail_lows += 1
            else:
                lower = g
                it.fail_highs += 1
                if self._pvlen[0] > 0:
                    it.move, it.pv = int(self._pv[0]), self._pv_line()
        it.value, it.alpha, it.beta = g, lower, upper
        return it

    def extend_pv(self, pos: Position, key: int, pv: tuple[int, ...],
                  limit: int) -> tuple[int, ...]:
        """The PV table's line, continued by the hash moves of tables 1 and 2 (a table
        cutoff ends the PV table's line early; thesis 2.4, footnote 3)."""
        p = pos.copy()
        line = []
        tt = self._tt
        tmask = len(tt) // 4 - 1
        for i in range(limit):
            if p.is_over:
                break
            if i < len(pv):
                mv = pv[i]
            else:
                mv = -1
                idx = (key & tmask) * 4
                for j in (idx, idx + 2):  # table 1, then table 2
                    if int(tt[j]) == key:
                        mv = ((int(tt[j + 1]) >> MOVE_SHIFT) & ((1 << MOVE_BITS) - 1)) - 1
                        if mv >= 0:
                            break
            if mv < 0 or not p.can_play(mv):
                break
            key ^= int(ZOBRIST[zobrist_index(p.ply & 1, mv, p.height(mv))])
            p.play(mv)
            line.append(mv)
        return tuple(line)

    def exclude(self, moves: tuple[int, ...]) -> None:
        """Root moves the next root searches leave out (multi-PV's lines found so far)."""
        self._st[K.S_EXCLUDE] = sum(1 << c for c in moves)

    def _root(self, pos: Position, key: int, d2: int, alpha: int, beta: int) -> int:
        return int(K.search_root(address(self._st), pos.current, pos.mask, key, pos.ply, d2,
                                 alpha, beta))

    def _pv_line(self) -> tuple[int, ...]:
        n = int(self._pvlen[0])
        return tuple(int(x) for x in self._pv[:n])


def report(depth: int, alpha: int, beta: int, score: Score, best_move: int,
           pv: tuple[int, ...], value: int, *, fail_highs: int = 0, fail_lows: int = 0,
           nodes: int = 0, elapsed: float = 0.0, tt_probes: int = 0, tt_hits: int = 0,
           tt_fill: float = 0.0, total_nodes: int = 0, total_elapsed: float = 0.0,
           source: Source = Source.SEARCH, lines: tuple[PvLine, ...] = ()) -> IterationReport:
    """The one place an :class:`IterationReport` is built (an iteration, a win at once, a
    root in the books): rates derived here; ``lines`` empty: the best move's one line."""
    return IterationReport(
        depth=depth, alpha=int(alpha), beta=int(beta), fail_highs=fail_highs,
        fail_lows=fail_lows, score=score, best_move=best_move,
        nodes=nodes, nps=int(nodes / elapsed) if elapsed > 0 else 0, tt_probes=tt_probes,
        tt_hits=tt_hits, hit_rate=tt_hits / tt_probes if tt_probes else 0.0,
        tt_fill=tt_fill, elapsed=elapsed, pv=pv, value=int(value), total_nodes=total_nodes,
        total_elapsed=total_elapsed, source=source,
        lines=lines or (PvLine(best_move, score, pv, int(value)),))


def root_moves(pos: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(searched, lost)``: the root moves the kernel searches, and the rest, which lose
    at once (the kernel's own rule: the one move that blocks an acute threat, else every
    move that does not play under one; none under two threats or when every move does).
    The root must not be won at once (the controller answers that without a search)."""
    cur, mask = pos.current, pos.mask
    play = pos.possible_squares()  # Python ints: any size
    othr = winning_squares(cur ^ mask, mask)
    forced = othr & play
    if forced & (forced - 1):
        moves = 0
    else:
        moves = forced or play & ~(othr >> 1)
    legal = [c for c in CENTER_ORDER if play & column_bits(c)]
    searched = tuple(c for c in legal if moves & column_bits(c))
    return searched, tuple(c for c in legal if c not in searched)


def lost_value(pos: Position) -> int:
    """The internal value of a root move that loses at once (the opponent's four next)."""
    return -(WIN - (pos.ply + 2))


def lost_line(pos: Position, move: int, exact: bool) -> PvLine:
    """The line of a root move that loses at once: the move, then the opponent's four."""
    p = pos.copy()
    p.play(move)
    win = p.winning_move()
    value = lost_value(pos)
    return PvLine(move, classify(value, exact), (move,) if win is None
                  else (move, win), value)


def fallback_move(pos: Position) -> int:
    """A move when the search found none better: block an acute threat, else the centre."""
    legal = pos.legal_moves()
    block = winning_move(pos.current ^ pos.mask, pos.mask)  # where the opponent would win
    if block is not None:
        return block
    for c in CENTER_ORDER:
        if c in legal:
            return c
    return legal[0]
