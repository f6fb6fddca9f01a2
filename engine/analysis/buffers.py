"""The analysis kernel's buffers, and one root search on them.

:class:`Buffers` owns what the kernel reads and writes: the control words it polls at
every node (``ctl``: the controller writes the commands, the kernel the counts), the state
array of raw addresses, the path and PV tables, tables 1 and 2, cleared at each search,
and table 3, the recognition table, kept between searches. It runs one root search at a
time (:meth:`Buffers.root`) and reads what the kernel left (the PV, the counts, the path
of a pause). What is searched, in which windows and in what order is the search loop's
(engine/analysis/search.py); the thread and the commands are the controller's.
"""

from __future__ import annotations

import numpy as np

from ..board.position import Position
from ..books.link import BookLike, book_args
from ..mem import address
from ..seam import PathEntry, SearchOptions, SearchState
from . import kernel as K
from .eval import EG_WORDS
from .tt import (
    MOVE_BITS,
    MOVE_SHIFT,
    ZOBRIST,
    new_buckets,
    new_table,
    table_entries,
    zobrist_index,
)

#: Entries of the recognition table (MILTON's table 3), which survives between searches.
REC_ENTRIES = 1 << 16


class Buffers:
    """The kernel's buffers (used from the worker's thread; ``ctl`` from any)."""

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

    # ------------------------------------------------------------ one root search
    def set_exact(self, exact: bool) -> None:
        """Whether the next root searches reach the end of the game (a full-depth
        iteration: no evaluation at the horizon)."""
        self._st[K.S_EXACT] = 1 if exact else 0

    def root(self, pos: Position, key: int, depth: int, alpha: int, beta: int) -> int:
        """One root search of ``depth`` plies in the window ``(alpha, beta)``: its value
        (meaningless if :meth:`aborted`); the line is then :meth:`root_pv`."""
        return int(K.search_root(address(self._st), pos.current, pos.mask, key, pos.ply,
                                 2 * depth, alpha, beta))

    def aborted(self) -> bool:
        """The kernel unwound (a stop or the node limit): the last root search is void."""
        return bool(self.ctl[K.C_ABORT])

    def root_pv(self) -> tuple[int, ...]:
        """The PV table's line from the root (empty: it has none)."""
        n = int(self._pvlen[0])
        return tuple(int(x) for x in self._pv[:n])

    def counts(self) -> tuple[int, int, int]:
        """``(nodes, probes, hits)`` since the search began (a continuation's included)."""
        c = self.ctl
        return int(c[K.C_NODES]), int(c[K.C_PROBES]), int(c[K.C_HITS])

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
