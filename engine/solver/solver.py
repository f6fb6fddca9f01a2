"""The exact solver: Python API over the numba kernels.

>>> from c4tui.engine.board.position import Position
>>> Solver(hash_mb=16, book=None).solve(Position.from_moves("4453")).score  # doctest: +SKIP
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..board.bitboard import word
from ..board.geometry import IS_DEFAULT, SIZE, WIDTH, column_bits
from ..board.position import Position
from ..books.link import BookLike, book_args
from ..mem import address
from ..scores import win_score
from ..seam import MAX_THREADS, SearchAborted
from . import solver_kernel as K
from .solver_kernel import (
    BUSY_BITS,
    CTX_ABORT,
    CTX_BUSY,
    CTX_LIMIT,
    CTX_NODES,
    CTX_SIZE,
    SCRATCH_SIZE,
    solve_root,
)
from .tt import DEFAULT_SOLVER_MB, ENTRY_WORDS, TranspositionTable

#: No floor: below any score (``solve_root`` clamps to the static bound).
_NO_LO = -64
#: With several threads, the main thread first searches alone for this many nodes.
SOLO_NODES = 1 << 17
#: The first window of threads 0, 1, 2 ("is the score above this?"); the others' is 0.
#: The two helpers prove the neighbouring bounds while the main thread decides
#: win/draw/loss (the empty board's second window, > 1, is done meanwhile).
FIRST_WINDOWS = (0, 1, -1)


@dataclass(frozen=True)
class SolveResult:
    """Exact score of a position for the side to move, a best move (0-based column),
    nodes searched and microseconds of search."""

    score: int
    best_move: int
    nodes: int
    micros: int


@dataclass(frozen=True)
class ColumnScores:
    """Exact score of each column for the side to move (``None``: column full)."""

    scores: tuple[int | None, ...]
    nodes: int
    micros: int


@dataclass(frozen=True)
class SolveProgress:
    """Where a running solve stands (:meth:`Solver.progress`): nodes searched so far by
    all threads, and the bounds proven on the root's score with the window being searched
    ("is the score above ``testing``?"; all None before the first window or in an
    analysis, whose children are solved side by side)."""

    nodes: int
    lo: int | None = None
    hi: int | None = None
    testing: int | None = None


@dataclass(frozen=True)
class SolveStats:
    """What the last ``solve``/``analyze`` did, summed over its searches.

    ``thread_nodes``: nodes searched by each thread (index 0: the main thread).
    ``first_cut_rate``: share of cut nodes where the first move searched failed high
    (move-ordering quality). ``hit_rate``: table probes that found the position;
    ``overwrite_rate``: stores that evicted another position's entry. ``interior``: nodes
    that searched children, i.e. were not settled by a static bound, a forced loss or the
    table (what solvers that resolve such nodes in their parent, like Steininger's, count).
    """

    thread_nodes: tuple[int, ...]
    probes: int
    hits: int
    stores: int
    overwrites: int
    cuts: int
    first_cuts: int
    etc_cutoffs: int
    interior: int
    micros: int

    @property
    def nodes(self) -> int:
        return sum(self.thread_nodes)

    @property
    def hit_rate(self) -> float:
        return self.hits / self.probes if self.probes else 0.0

    @property
    def overwrite_rate(self) -> float:
        return self.overwrites / self.stores if self.stores else 0.0

    @property
    def first_cut_rate(self) -> float:
        return self.first_cuts / self.cuts if self.cuts else 0.0

    def thread_speeds(self) -> tuple[float, ...]:
        """Nodes per second of each thread."""
        sec = max(self.micros, 1) / 1e6
        return tuple(n / sec for n in self.thread_nodes)


_STAT_SLOTS = (K.CTX_PROBES, K.CTX_HITS, K.CTX_STORES, K.CTX_OVERWRITES, K.CTX_CUTS,
               K.CTX_FIRST_CUTS, K.CTX_ETC, K.CTX_INTERIOR)


def _padded(words: int) -> int:
    """``words`` int64 rounded up to whole 128-byte blocks, plus one block of gap."""
    return (words + 15) // 16 * 16 + 16


class Solver:
    """Exact solver with its own transposition table (kept between calls).

    ``book``: the books to probe (``c4tui.book.load_default()`` gives the books in use),
    ``None`` searches without a book. ``threads``: searching threads sharing the table and
    splitting the tree (ABDADA: a thread defers a move another thread is searching; see
    docs/solver.md, "Parallel search"); 1 (the default) is deterministic: the same position
    and table give the same nodes and best move. One solve at a time per solver; ``stop()``
    may be called from any thread. ``last_stats`` holds the :class:`SolveStats` of the last
    solve or analysis.
    """

    #: Touch every page of the table at allocation (:class:`TranspositionTable`). A
    #: subclass for a process that solves a few positions and ends sets it False: its
    #: searches fault in only the pages they reach (``c4tui solve``).
    PREFAULT: ClassVar[bool] = True

    def __init__(self, hash_mb: int = DEFAULT_SOLVER_MB, book: BookLike | None = None,
                 threads: int = 1) -> None:
        if not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads={threads!r}: must be between 1 and {MAX_THREADS}")
        self.table = TranspositionTable(hash_mb, self.PREFAULT)
        self.threads = threads
        # One scratch area and context block per thread; the table is shared.
        # Both are written at every node: rows of one array, padded to whole 128-byte
        # blocks (an adjacent-line prefetch pair), so that no two threads write the same
        # cache line (false sharing made two threads slower per node than one).
        self._scratch_mem = np.zeros((threads, _padded(SCRATCH_SIZE)), dtype=np.int64)
        self._ctx_mem = np.zeros((threads, _padded(CTX_SIZE)), dtype=np.int64)
        self._scratch = [self._scratch_mem[k, :SCRATCH_SIZE] for k in range(threads)]
        self._ctx = [self._ctx_mem[k, :CTX_SIZE] for k in range(threads)]
        # The children some thread is searching (see solver_kernel.negamax): one thread
        # needs none.
        self._busy = np.zeros(1 << BUSY_BITS if threads > 1 else 1, dtype=np.uint64)
        for k in range(threads):
            self._prime(k)
        self._lock = threading.Lock()
        self._acc = np.zeros(CTX_SIZE, dtype=np.int64)
        self._acc_threads = np.zeros(threads, dtype=np.int64)
        self.last_stats: SolveStats | None = None
        self._children = False  # an analysis runs (progress has no one window then)
        self._stopped = False
        self._book_args = book_args(book)
        self.book = book  # kept alive: the kernels read its arrays

    # ------------------------------------------------------------------ control
    def stop(self) -> None:
        """Abort the running solve (it raises :class:`SearchAborted`)."""
        self._stopped = True
        for ctx in self._ctx:
            ctx[CTX_ABORT] = 1

    def clear(self) -> None:
        """Empty the transposition table."""
        self.table.clear()

    def hashfull(self) -> int:
        """How full the table is, in permille (UCI's ``hashfull``: 0-1000), estimated from
        its first 65,536 words (keys are hashed, so a fair sample, as chess engines do)."""
        sample = self.table.words[: 1 << 16 : ENTRY_WORDS]  # an entry's first word
        return int(1000 * np.count_nonzero(sample) / len(sample))

    def progress(self) -> SolveProgress:
        """Where the running solve stands; may be called from any thread (the figures are
        read while the threads write them: a snapshot, not exact)."""
        nodes = int(self._acc_threads.sum()) + sum(int(c[CTX_NODES]) for c in self._ctx)
        ctx = self._ctx[0]
        lo, hi, test = (int(ctx[i]) for i in (K.CTX_LO, K.CTX_HI, K.CTX_TEST))
        if self._children or lo >= hi:  # no window yet (the context is zeroed)
            return SolveProgress(nodes)
        return SolveProgress(nodes, lo, hi, test)

    def _prime(self, k: int, first_window: int = 0) -> None:
        """Reset thread k's context block for a new search that begins with the window
        "is the score above ``first_window``?"."""
        ctx = self._ctx[k]
        ctx[:] = 0
        if self.threads > 1:
            ctx[CTX_BUSY] = address(self._busy)
            ctx[K.CTX_FIRST] = first_window
            # two threads rarely meet deep down: fewer marks, each a shared write
            ctx[K.CTX_DEFER] = K.DEFER_PLIES_FEW if self.threads <= 2 else K.DEFER_PLIES

    # ------------------------------------------------------------------ solving
    def _run(self, k: int, current: int, mask: int, ply: int, lo: int = _NO_LO,
             need_move: bool = True) -> tuple[int, int]:
        return solve_root(
            word(current),
            word(mask),
            ply,
            lo,
            need_move,
            self.table.addr,
            self.table.bits,
            address(self._scratch[k]),
            address(self._ctx[k]),
            *self._book_args,
        )

    def _solve_words(self, current: int, mask: int, ply: int, lo: int = _NO_LO,
                     need_move: bool = True) -> tuple[int, int, int]:
        for k in range(self.threads):
            self._prime(k, FIRST_WINDOWS[k] if k < len(FIRST_WINDOWS) else 0)
        self._busy[:] = 0  # (every mark is cleared when its search ends; a cheap safeguard)
        if self._stopped:  # stop() came between two searches of one analysis
            raise SearchAborted("search stopped")
        ctx0 = self._ctx[0]
        if self.threads > 1:
            # Most searches are small: the main thread first tries alone, where helper
            # threads would cost more to start and share the table with than they save.
            ctx0[CTX_LIMIT] = SOLO_NODES
        score, move = self._run(0, current, mask, ply, lo, need_move)
        done = 0 if not ctx0[CTX_ABORT] else -1
        if done < 0 and self.threads > 1 and not self._stopped:
            # Over the limit: search again with every thread; the table keeps what the
            # main thread found (an aborted node stores nothing, finished subtrees did).
            ctx0[CTX_LIMIT] = 0
            ctx0[CTX_ABORT] = 0
            if self._stopped:  # stop() came while the flag was being cleared
                ctx0[CTX_ABORT] = 1
            score, move, done = self._parallel(current, mask, ply, lo, need_move)
        nodes = sum(self._account(k) for k in range(self.threads))
        if done < 0 or self._stopped:
            # Entries written while unwinding are consistent (aborted nodes store nothing).
            raise SearchAborted("search stopped")
        return int(score), int(move), nodes

    def _parallel(self, current: int, mask: int, ply: int, lo: int,
                  need_move: bool) -> tuple[int, int, int]:
        """All threads on the shared table: (score, move, index of the answering thread or
        -1 if stopped)."""
        # Every thread solves the same root with the same windows on the shared table,
        # deferring the moves another thread is searching; the first to finish gives the
        # answer (every thread's answer is exact) and stops the others.
        results: list[tuple[int, int] | None] = [None] * self.threads
        first = threading.Lock()
        winner = [-1]

        def work(k: int) -> None:
            r = self._run(k, current, mask, ply, lo, need_move)
            if self._ctx[k][CTX_ABORT]:
                return
            with first:
                if winner[0] < 0:
                    winner[0] = k
                    results[k] = (int(r[0]), int(r[1]))
                    for j, ctx in enumerate(self._ctx):
                        if j != k:
                            ctx[CTX_ABORT] = 1

        self._on_all_threads(work)
        done = winner[0]
        result = results[done] if done >= 0 else None
        score, move = result if result is not None else (0, -1)
        return score, move, done

    def _on_all_threads(self, work) -> None:
        """Run ``work(k)`` for every thread index k: 0 here, the others on helper threads."""
        helpers = [threading.Thread(target=work, args=(k,), daemon=True)
                   for k in range(1, self.threads)]
        for t in helpers:
            t.start()
        work(0)
        for t in helpers:
            t.join()

    def _account(self, k: int) -> int:
        """Add thread k's counters to the call's statistics; its nodes."""
        ctx = self._ctx[k]
        self._acc_threads[k] += ctx[CTX_NODES]
        self._acc += ctx
        return int(ctx[CTX_NODES])

    def _begin(self) -> int:
        self._stopped = False
        self._acc[:] = 0
        self._acc_threads[:] = 0
        return time.perf_counter_ns()

    def _end(self, t0: int) -> int:
        micros = (time.perf_counter_ns() - t0) // 1000
        a = self._acc
        probes, hits, stores, overwrites, cuts, first_cuts, etc, interior = (
            int(a[i]) for i in _STAT_SLOTS)
        self.last_stats = SolveStats(
            tuple(int(n) for n in self._acc_threads), probes, hits, stores, overwrites, cuts,
            first_cuts, etc, interior, micros)
        return micros

    def solve(self, pos: Position, need_move: bool = True) -> SolveResult:
        """Exact score and a best move of ``pos`` (which must not be over).

        ``need_move=False``: only the score is wanted (the book builder); the move may then
        be -1 when the score equals the floor the book gives (see :meth:`analyze`).
        """
        _check_open(pos)
        floor = self._book_floor(pos)
        with self._lock:
            t0 = self._begin()
            try:
                score, move, nodes = self._solve_words(pos.current, pos.mask, pos.ply, floor,
                                                       need_move)
            finally:
                micros = self._end(t0)
        return SolveResult(score, move, nodes, micros)

    def analyze(self, pos: Position,
                on_score: Callable[[int, int], None] | None = None) -> ColumnScores:
        """Exact score of every column for the side to move.

        With several threads the children are solved side by side, one per thread (a
        thread left without a child helps another thread with its child). ``on_score``
        is called with ``(column, score)`` as each column's score is known (from a
        searching thread; it must return quickly): a caller that stops a long analysis
        keeps the columns solved until then.
        """
        _check_open(pos)
        scores: list[int | None] = [None] * WIDTH
        tasks: list[_Child] = []
        for col in range(WIDTH):
            if not pos.can_play(col):
                continue
            if pos.is_winning_move(col):
                score = win_score(pos.ply)
            else:
                child = pos.copy()
                child.play(col)
                if not child.is_over:
                    tasks.append(_Child(col, child, self._book_floor(child)))
                    continue
                score = 0  # the board filled up: a draw
            scores[col] = score
            if on_score is not None:
                on_score(col, score)
        with self._lock:
            t0 = self._begin()
            self._children = True
            try:
                if self.threads > 1 and len(tasks) > 1:
                    total = self._solve_children(tasks, on_score)
                else:
                    total = 0
                    for t in tasks:
                        try:
                            t.score, _, n = self._solve_words(t.pos.current, t.pos.mask,
                                                              t.pos.ply, t.lo, False)
                        except SearchAborted:
                            t.narrow(self._proven(0))
                            raise
                        total += n
                        if on_score is not None:
                            on_score(t.col, -t.score)
            except SearchAborted as exc:
                # a child's score s in [lo, hi] makes its column's -s in [-hi, -lo]
                exc.bounds = {t.col: (-t.proven[1], -t.proven[0]) for t in tasks
                              if t.score is None and t.proven is not None}
                raise
            finally:
                self._children = False
                micros = self._end(t0)
        for t in tasks:
            assert t.score is not None  # every child was solved, or SearchAborted was raised
            scores[t.col] = -t.score
        return ColumnScores(tuple(scores), total, micros)

    def _proven(self, k: int) -> tuple[int, int] | None:
        """The bounds thread k's interrupted solve had proven on its root's score (set by
        ``solve_root`` before each window; None: no window began)."""
        ctx = self._ctx[k]
        lo, hi = int(ctx[K.CTX_LO]), int(ctx[K.CTX_HI])
        return (lo, hi) if lo < hi else None

    def _book_floor(self, pos: Position) -> int:
        """A lower bound on ``pos``'s score from the book: a parent ``q`` (``pos`` less one
        top disc of the side that just moved) scores at least minus ``pos``'s score."""
        if self.book is None:
            return _NO_LO
        floor = _NO_LO
        theirs = pos.current ^ pos.mask
        for col in range(WIDTH):
            top = pos.mask & column_bits(col)
            if not top:
                continue
            top = 1 << (top.bit_length() - 1)
            if theirs & top:
                s = self.book.lookup(theirs ^ top, pos.mask ^ top)
                if s is not None:
                    floor = max(floor, -s)
        return floor

    def _solve_children(self, tasks: list[_Child],
                        on_score: Callable[[int, int], None] | None = None) -> int:
        """Solve ``tasks`` (an analysis's children) with one thread per child: nodes."""
        lock = threading.Lock()
        self._busy[:] = 0
        queue = list(tasks)
        working: list[_Child | None] = [None] * self.threads
        total = [0]

        def take(k: int) -> _Child | None:
            # Under ``lock``: the next child, else a child another thread is solving,
            # which this one then helps (the first to finish answers, as in _parallel).
            if self._stopped:
                return None
            window = 0
            if queue:
                task = queue.pop(0)
            else:
                busy = [t for t in working if t is not None and t.score is None]
                if not busy:
                    return None
                task = min(busy, key=working.count)  # the child with the fewest threads
                window = FIRST_WINDOWS[1]  # a helper: the neighbouring window first
            self._prime(k, window)
            ctx = self._ctx[k]
            if self._stopped:
                ctx[CTX_ABORT] = 1
            working[k] = task
            return task

        def work(k: int) -> None:
            ctx = self._ctx[k]
            while True:
                with lock:
                    task = take(k)
                if task is None:
                    return
                score, _ = self._run(k, task.pos.current, task.pos.mask, task.pos.ply, task.lo,
                                     False)
                with lock:
                    working[k] = None
                    total[0] += self._account(k)
                    if task.score is None and ctx[CTX_ABORT]:
                        task.narrow(self._proven(k))  # stopped: what it proved stands
                    if task.score is None and not ctx[CTX_ABORT]:
                        task.score = int(score)
                        if on_score is not None:
                            on_score(task.col, -task.score)
                        for j, t in enumerate(working):
                            if t is task:  # a helper on the same child: its work is done
                                self._ctx[j][CTX_ABORT] = 1

        self._on_all_threads(work)
        if self._stopped or any(t.score is None for t in tasks):
            raise SearchAborted("search stopped")
        return total[0]


@dataclass
class _Child:
    """One child position of an analysis, its book floor and (once solved) its score."""

    col: int
    pos: Position
    lo: int
    score: int | None = None
    #: when stopped unsolved: the bounds its threads had proven, (at least, at most)
    proven: tuple[int, int] | None = None

    def narrow(self, bounds: tuple[int, int] | None) -> None:
        """Keep the tighter of the bounds known and ``bounds`` (both proven)."""
        if bounds is None:
            return
        if self.proven is not None:
            bounds = (max(bounds[0], self.proven[0]), min(bounds[1], self.proven[1]))
        self.proven = bounds


def _check_open(pos: Position) -> None:
    if pos.winner is not None:
        raise ValueError("the game is already won")
    if pos.is_draw:
        raise ValueError("the board is full")


def _warmup() -> None:
    """Run the kernels once (loads them from numba's cache or compiles them)."""
    Solver(hash_mb=1, book=None).solve(warmup_position())


def warmup_position() -> Position:
    """A position with a few empty squares left, quick to solve on the process's size."""
    if IS_DEFAULT:
        return Position.from_moves("2252576253462244111563365343671351441")
    # A fixed pseudo-random game that avoids completing a four, stopped 6 squares short.
    rng = random.Random(SIZE)
    while True:
        pos = Position()
        while pos.ply < SIZE - 6:
            moves = [c for c in pos.legal_moves() if not pos.is_winning_move(c)]
            if not moves:
                break
            pos.play(rng.choice(moves))
        if pos.ply == SIZE - 6 and not pos.is_over:
            return pos
