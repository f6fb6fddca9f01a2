"""MILTON's iterative-deepening analysis search, and a controller that runs it in a thread.

The search (Baier 2006, the MILTON thesis; see docs/analysis.md) deepens 1, 2, 3 ... plies
up to the number of empty squares, where its result is exact and in the perfect solvers'
score convention. Every technique is a switch in :class:`SearchOptions`. Each completed
iteration produces an :class:`IterationReport`; a :class:`SearchController` runs the search
in a background thread (the kernels release the GIL), can pause it exactly (the kernel
sleeps in place, using no CPU), step it by iterations or nodes, limit its nodes, and
offers a non-blocking :meth:`SearchController.snapshot` for a UI to poll.

Scores: for the ``"exact"`` band (the result of a full-depth iteration: the solvers' exact
score) and the ``"recognized"`` band (a proven win or loss before full depth, found by
search or by the recognizer; the distance is the best found so far and may shrink with
depth) ``score`` is in the solvers' convention (22 - k, see ``c4tui.engine.scores``).
For the ``"heuristic"`` band it is MILTON's evaluation value: ``±(458 + discs)`` for an
expected win/loss, 0 for an expected draw. ``value`` always holds the internal value (see
``engine/analysis_eval.py`` for the bands).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np

from . import analysis_kernel as K
from .analysis_eval import EG_WORDS, INF, REAL_MIN, REC, REC_MIN, WIN
from .analysis_tt import ZOBRIST, new_buckets, new_table, table_entries
from .geometry import CENTER_ORDER, H1, HEIGHT, SIZE, WIDTH
from .mem import address
from .position import Position

__all__ = [
    "SearchOptions",
    "IterationReport",
    "PathEntry",
    "SearchResult",
    "Snapshot",
    "SearchController",
    "run_search",
]

#: Entries of the recognition table (MILTON's table 3), which survives between searches.
REC_ENTRIES = 1 << 16
_NO_LIMIT = K.NEVER


@dataclass(frozen=True)
class SearchOptions:
    """One switch per technique, so that each can be compared (docs/analysis.md)."""

    max_depth: int | None = None  #: None: up to the number of empty squares (exact)
    node_limit: int | None = 1_000_000  #: MILTON's one million nodes; None: no limit
    pvs: bool = True  #: principal-variation search (False: plain alpha-beta)
    mtdf: bool = False  #: MTD(f) driver instead of aspiration windows
    aspiration: bool = True  #: MILTON's aspiration windows (False: full window)
    quiescence: bool = True  #: extend by two plies at the horizon under an acute threat
    extensions: bool = False  #: half a ply where only one move is sensible
    killers: bool = False  #: two killer moves per ply
    recognition: bool = True  #: interior-node recognition with its own table
    use_book: bool = True  #: probe the opening book in the search, if one is installed
    hash_mb: float = 16  #: tables 1 and 2 together
    threat_ordering: bool = False  #: order moves by the threats they create (not MILTON's)

    def __post_init__(self) -> None:
        if self.max_depth is not None and not 1 <= self.max_depth <= SIZE:
            raise ValueError(f"max_depth {self.max_depth}: expected 1-{SIZE} or None")
        if self.node_limit is not None and self.node_limit < 1:
            raise ValueError(f"node_limit {self.node_limit}: expected a positive count or None")
        if not 0.03 <= self.hash_mb <= 4096:
            raise ValueError(f"hash_mb {self.hash_mb}: expected 0.03-4096")


@dataclass(frozen=True)
class IterationReport:
    """One completed iteration (all its aspiration re-searches included)."""

    depth: int
    alpha: int  #: window of the last (successful) search of the iteration
    beta: int
    fail_highs: int  #: re-searches after a fail high (MTD(f): passes that failed high)
    fail_lows: int
    score: int  #: see the module docstring
    band: str  #: "exact", "recognized" or "heuristic"
    best_move: int  #: 0-based column
    nodes: int  #: nodes of this iteration
    nps: int
    tt_probes: int  #: this iteration
    tt_hits: int
    hit_rate: float
    tt_fill: float  #: share of used slots in tables 1 and 2
    elapsed: float  #: seconds of this iteration (paused time excluded)
    pv: tuple[int, ...]
    value: int = 0  #: internal value (engine/analysis_eval.py)
    total_nodes: int = 0  #: nodes since the start of the search
    total_elapsed: float = 0.0


@dataclass(frozen=True)
class PathEntry:
    """One ply of the path of a paused search: the node at distance ``ply`` from the root,
    its window, and the move it is searching (``-1`` at the node where it paused) with the
    move's index in that node's ordering."""

    ply: int
    move: int
    alpha: int
    beta: int
    index: int


@dataclass(frozen=True)
class SearchResult:
    """The answer of a finished search."""

    best_move: int  #: 0-based column
    score: int
    band: str
    pv: tuple[int, ...]
    nodes: int
    depth: int  #: depth of the last completed iteration (0: none completed)
    reason: str  #: "done", "stopped" or "node_limit"
    value: int = 0


@dataclass(frozen=True)
class Snapshot:
    """What a UI polls a few times a second."""

    state: str  #: idle, searching, paused, done, stopped, node_limit
    depth: int  #: iteration in progress (or last)
    nodes: int
    nps: int
    elapsed: float
    best_move: int | None
    score: int | None
    band: str | None
    iterations: tuple[IterationReport, ...] = field(default_factory=tuple)
    result: SearchResult | None = None
    value: int | None = None


# ------------------------------------------------------------------ score bands


def classify(value: int, exact_iteration: bool) -> tuple[int, str]:
    """``(score, band)`` of an internal root value (see the module docstring)."""
    a = abs(value)
    sign = 1 if value > 0 else -1
    if a >= REAL_MIN:
        n_end = WIN - a
    elif a >= REC_MIN:
        n_end = REC - a
    else:
        if exact_iteration:
            if value != 0:  # a full-depth search has no heuristic leaf
                raise AssertionError(f"full-depth value {value} is not exact")
            return 0, "exact"
        return value, "heuristic"
    score = sign * (SIZE // 2 + 1 - (n_end + 1) // 2)
    # Before full depth a proven result's distance is only the best found so far: a
    # quiescence-extended line can reach a slow win while a quicker one lies beyond the
    # horizon of a quiet line.
    return score, "exact" if exact_iteration else "recognized"


def _next_window(v: int) -> tuple[int, int]:
    """MILTON's aspiration window after an iteration of value ``v`` (thesis 3.4)."""
    if v == 0:
        return -2, 2
    if 0 < v < 600:
        return v, v + 2  # expected win: the next iteration should give v + 1
    if -600 < v < 0:
        return v - 2, v
    return v - 1, v + 1  # recognized or real: does not change with depth


def _zkey(pos: Position) -> int:
    k = 0
    for ply, col, row in pos.moves_iter():
        k ^= int(ZOBRIST[(ply & 1) * 64 + col * H1 + row])
    return k


def _load_book() -> object | None:
    """The default opening book, or None (no book built, disabled or unusable)."""
    try:
        from c4tui.book import load_default
    except Exception:  # pragma: no cover - the book package is part of the project
        return None
    try:
        return load_default()
    except Exception:
        return None


# ------------------------------------------------------------------ controller


class SearchController:
    """Runs analysis searches in a background thread; every method returns promptly.

    The controller owns the kernel buffers: the control array the kernel polls at every
    node, the path and PV tables, tables 1 and 2 (cleared at each start) and table 3 (the
    recognition table, kept between searches).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._ctl = np.zeros(K.C_SIZE, dtype=np.int64)
        self._st = np.zeros(K.S_SIZE, dtype=np.int64)
        self._path = np.zeros(K.MAX_PLY * 4, dtype=np.int64)
        self._pv = np.zeros(K.MAX_PLY * K.MAX_PLY, dtype=np.int64)
        self._pvlen = np.zeros(K.MAX_PLY, dtype=np.int64)
        self._kill = np.full(K.MAX_PLY * 2, -1, dtype=np.int64)
        self._order = np.zeros(K.MAX_PLY * 8, dtype=np.int64)
        self._eg = np.zeros(EG_WORDS, dtype=np.int64)
        self._rec = new_table(REC_ENTRIES)
        self._tt: np.ndarray | None = None  # tables 1 and 2, interleaved buckets
        self._thread: threading.Thread | None = None
        self._state = "idle"
        self._iterations: list[IterationReport] = []
        self._result: SearchResult | None = None
        self._depth = 0
        self._step_iteration = False
        self._driver_paused = False
        self._pause_requested = False
        self._t0 = 0.0
        self._paused_total = 0.0
        self._paused_since: float | None = None
        self._error: BaseException | None = None
        self._pos: Position | None = None
        self._final_elapsed = 0.0
        self._pauses_seen = 0
        self._book: object | None = None  # kept alive: the kernel reads its arrays

    # -------------------------------------------------------------- commands
    def start(self, pos: Position, opts: SearchOptions | None = None) -> None:
        """Start searching ``pos`` (any running search is stopped first)."""
        opts = opts or SearchOptions()
        if pos.is_over:
            raise ValueError("start: the game is over, there is nothing to search")
        self.close()
        entries = table_entries(opts.hash_mb)
        if self._tt is None or len(self._tt) != entries * 4:
            self._tt = new_buckets(entries)
        else:
            self._tt.fill(0)
        self._kill.fill(-1)
        c = self._ctl
        c.fill(0)
        c[K.C_PAUSE_AT] = K.NEVER
        c[K.C_LIMIT] = opts.node_limit if opts.node_limit is not None else _NO_LIMIT
        st = self._st
        st[K.S_CTL] = address(c)
        st[K.S_PATH] = address(self._path)
        st[K.S_PV] = address(self._pv)
        st[K.S_PVLEN] = address(self._pvlen)
        st[K.S_T1] = address(self._tt)
        st[K.S_T2] = address(self._tt) + 16
        st[K.S_TMASK] = entries - 1
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
        self._book = _load_book() if opts.use_book else None
        args = self._book.probe_args() if self._book is not None else (0, 0, 0, 0)
        st[K.S_BOOK:K.S_BOOK + 4] = args
        with self._lock:
            self._pos = pos.copy()
            self._iterations = []
            self._result = None
            self._depth = 0
            self._step_iteration = False
            self._driver_paused = False
            self._pause_requested = False
            self._paused_total = 0.0
            self._paused_since = None
            self._pauses_seen = 0
            self._error = None
            self._state = "searching"
            self._t0 = time.perf_counter()
        self._thread = threading.Thread(
            target=self._run, args=(self._pos, opts), name="c4-analysis", daemon=True
        )
        self._thread.start()

    def pause(self) -> None:
        """Pause the search where it is (inside the kernel, at the next node)."""
        with self._cond:
            if self._state != "searching":
                return
            self._pause_requested = True
            self._ctl[K.C_CMD] = K.CMD_PAUSE
            self._mark_paused()

    def resume(self) -> None:
        """Continue a paused search to its end (or its limits)."""
        with self._cond:
            if self._state not in ("searching", "paused"):
                return
            self._step_iteration = False
            self._go()

    def step_iteration(self) -> None:
        """Run to the end of the next iteration (the current one if paused inside it),
        then pause."""
        with self._cond:
            if self._state not in ("searching", "paused"):
                return
            self._step_iteration = True
            if self._is_paused_locked():
                self._go()

    def step_nodes(self, n: int) -> None:
        """Run ``n`` more nodes, then pause (counting continues across iterations)."""
        if n < 1:
            raise ValueError(f"step_nodes {n}: expected a positive count")
        with self._cond:
            if self._state not in ("searching", "paused"):
                return
            self._step_iteration = False
            self._go(int(self._ctl[K.C_NODES]) + n)

    def set_node_limit(self, n: int | None) -> None:
        """Change the node limit of the running search (None: unlimited)."""
        if n is not None and n < 1:
            raise ValueError(f"node limit {n}: expected a positive count or None")
        self._ctl[K.C_LIMIT] = _NO_LIMIT if n is None else n
        with self._cond:
            self._cond.notify_all()

    def stop(self) -> None:
        """Ask the search to stop; returns at once (the thread ends within milliseconds)."""
        with self._cond:
            self._ctl[K.C_CMD] = K.CMD_STOP
            self._cond.notify_all()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the search and join its thread."""
        self.stop()
        t = self._thread
        if t is not None:
            t.join(timeout)
            if t.is_alive():  # pragma: no cover - would be a kernel bug
                raise RuntimeError("analysis thread did not stop")
        self._thread = None

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the search ends; False on timeout. Not for the UI thread."""
        t = self._thread
        if t is None:
            return True
        t.join(timeout)
        return not t.is_alive()

    def wait_paused(self, timeout: float | None = None) -> bool:
        """Block until the search is actually paused, or has ended; False on timeout."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                if self._state not in ("searching", "paused") or self._is_paused_locked():
                    return True
            if end is not None and time.monotonic() >= end:
                return False
            time.sleep(0.001)

    # ------------------------------------------------------------ queries
    @property
    def state(self) -> str:
        return self.snapshot().state

    def snapshot(self) -> Snapshot:
        """A consistent view of the search; never waits for the search."""
        with self._lock:
            state = self._state
            if state in ("searching", "paused"):
                state = "paused" if (self._pause_requested or self._is_paused_locked()) \
                    else "searching"
                if state == "paused":
                    self._mark_paused()
            nodes = int(self._ctl[K.C_NODES])
            elapsed = self._active()
            its = tuple(self._iterations)
            last = its[-1] if its else None
            res = self._result
            return Snapshot(
                state=state,
                depth=self._depth,
                nodes=nodes,
                nps=int(nodes / elapsed) if elapsed > 0 else 0,
                elapsed=elapsed,
                best_move=res.best_move if res else (last.best_move if last else None),
                score=res.score if res else (last.score if last else None),
                band=res.band if res else (last.band if last else None),
                iterations=its,
                result=res,
                value=res.value if res else (last.value if last else None),
            )

    def path(self) -> tuple[PathEntry, ...]:
        """The search path while the kernel is paused (empty otherwise)."""
        with self._lock:
            if self._state not in ("searching", "paused") or not self._kernel_paused():
                return ()
            n = int(self._ctl[K.C_PATHLEN])
            p = self._path
            return tuple(
                PathEntry(i, int(p[4 * i]), int(p[4 * i + 1]), int(p[4 * i + 2]),
                          int(p[4 * i + 3]))
                for i in range(min(n, K.MAX_PLY))
            )

    @property
    def result(self) -> SearchResult | None:
        with self._lock:
            return self._result

    @property
    def error(self) -> BaseException | None:
        """An exception raised in the search thread (a bug), if any."""
        return self._error

    # ------------------------------------------------------------ internals
    def _kernel_paused(self) -> bool:
        return self._ctl[K.C_PAUSED] == 1 and self._ctl[K.C_PAUSES] != self._pauses_seen

    def _is_paused_locked(self) -> bool:
        return self._driver_paused or self._kernel_paused()

    def _mark_paused(self) -> None:
        if self._paused_since is None:
            self._paused_since = time.perf_counter()

    def _unmark_paused(self) -> None:
        if self._paused_since is not None:
            self._paused_total += time.perf_counter() - self._paused_since
            self._paused_since = None

    def _active(self) -> float:
        if self._state not in ("searching", "paused") and self._result is not None:
            return self._final_elapsed
        now = time.perf_counter()
        t = now - self._t0 - self._paused_total
        if self._paused_since is not None:
            t -= now - self._paused_since
        return max(t, 0.0)

    def _go(self, pause_at: int = K.NEVER) -> None:
        # Read the pause count before publishing the new target: a kernel that reaches a
        # near target (step_nodes(1)) between the two would otherwise count its pause into
        # the baseline, and the pause would never be seen.
        self._pauses_seen = int(self._ctl[K.C_PAUSES])
        self._ctl[K.C_PAUSE_AT] = pause_at
        self._pause_requested = False
        self._ctl[K.C_CMD] = K.CMD_RUN
        self._driver_paused = False
        self._unmark_paused()
        self._cond.notify_all()

    def _between_iterations(self) -> bool:
        """Pause point of the driver; False if the search must end (stop or limit)."""
        with self._cond:
            while self._ctl[K.C_CMD] == K.CMD_PAUSE:
                self._driver_paused = True
                self._cond.wait(0.05)
            self._driver_paused = False
            if self._ctl[K.C_CMD] == K.CMD_STOP:
                self._ctl[K.C_ABORT] = K.ABORT_STOP
                return False
            if self._ctl[K.C_NODES] >= self._ctl[K.C_LIMIT]:
                self._ctl[K.C_ABORT] = K.ABORT_LIMIT
                return False
            return True

    def _root(self, pos: Position, key: int, d2: int, alpha: int, beta: int) -> int:
        return int(K.search_root(address(self._st), pos.current, pos.mask, key, pos.ply, d2,
                                 alpha, beta))

    def _pv_line(self) -> tuple[int, ...]:
        n = int(self._pvlen[0])
        return tuple(int(x) for x in self._pv[:n])

    def _extend_pv(self, pos: Position, key: int, pv: tuple[int, ...],
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
                        mv = ((int(tt[j + 1]) >> 26) & 7) - 1
                        if mv >= 0:
                            break
            if mv < 0 or not p.can_play(mv):
                break
            key ^= int(ZOBRIST[(p.ply & 1) * 64 + mv * H1 + p.height(mv)])
            p.play(mv)
            line.append(mv)
        return tuple(line)

    def _run(self, pos: Position, opts: SearchOptions) -> None:
        try:
            self._search(pos, opts)
        except BaseException as e:  # pragma: no cover - reported, never swallowed silently
            self._error = e
            with self._lock:
                self._finish(pos, "stopped", None)
            raise

    def _search(self, pos: Position, opts: SearchOptions) -> None:
        legal = pos.legal_moves()
        empties = SIZE - pos.ply
        # a win at once needs no search
        for c in legal:
            if pos.is_winning_move(c):
                with self._lock:
                    self._finish(pos, "done", SearchResult(
                        c, (SIZE + 1 - pos.ply) // 2, "exact", (c,), 0, 1, "done",
                        WIN - pos.ply - 1))
                return
        key = _zkey(pos)
        max_depth = empties if opts.max_depth is None else min(opts.max_depth, empties)
        ctl = self._ctl
        last_v = 0
        reason = "done"
        window = (-INF, INF)
        best_move = -1
        for depth in range(1, max_depth + 1):
            if not self._between_iterations():
                reason = "stopped" if ctl[K.C_ABORT] == K.ABORT_STOP else "node_limit"
                break
            with self._lock:
                self._depth = depth
            exact = depth >= empties
            self._st[K.S_EXACT] = 1 if exact else 0
            d2 = 2 * depth
            n0, p0, h0 = int(ctl[K.C_NODES]), int(ctl[K.C_PROBES]), int(ctl[K.C_HITS])
            with self._lock:
                t0 = self._active()
            fh = fl = 0
            it_move = -1
            it_pv: tuple[int, ...] = ()
            aborted = False
            if opts.mtdf:
                g = last_v
                lower, upper = -INF, INF
                while lower < upper:
                    b = g + 1 if g == lower else g
                    g = self._root(pos, key, d2, b - 1, b)
                    if ctl[K.C_ABORT]:
                        aborted = True
                        break
                    if g < b:
                        upper = g
                        fl += 1
                    else:
                        lower = g
                        fh += 1
                        if self._pvlen[0] > 0:
                            it_move = int(self._pv[0])
                            it_pv = self._pv_line()
                v, alpha, beta = g, lower, upper
            else:
                alpha, beta = window if opts.aspiration else (-INF, INF)
                repeated = False
                while True:
                    v = self._root(pos, key, d2, alpha, beta)
                    if ctl[K.C_ABORT]:
                        aborted = True
                        break
                    if v <= alpha and alpha > -INF:
                        fl += 1
                        if repeated:
                            alpha, beta = -INF, INF
                        else:
                            repeated = True
                            alpha, beta = -INF, v + 2
                        continue
                    if v >= beta and beta < INF:
                        fh += 1
                        if repeated:
                            alpha, beta = -INF, INF
                        else:
                            repeated = True
                            alpha, beta = v - 2, INF
                        continue
                    break
                if not aborted and self._pvlen[0] > 0:
                    it_move = int(self._pv[0])
                    it_pv = self._pv_line()
            if aborted:
                reason = "stopped" if ctl[K.C_ABORT] == K.ABORT_STOP else "node_limit"
                break
            if it_move < 0:  # lost at once whatever we play, or nothing better known
                it_move = best_move if best_move >= 0 else _fallback_move(pos)
                it_pv = (it_move,)
            it_pv = self._extend_pv(pos, key, it_pv, max(depth, len(it_pv)))
            best_move = it_move
            last_v = v
            window = _next_window(v)
            score, band = classify(v, exact)
            with self._lock:
                el = self._active()
            nodes = int(ctl[K.C_NODES])
            probes = int(ctl[K.C_PROBES]) - p0
            hits = int(ctl[K.C_HITS]) - h0
            it_nodes = nodes - n0
            dt = el - t0
            rep = IterationReport(
                depth=depth, alpha=int(alpha), beta=int(beta), fail_highs=fh, fail_lows=fl,
                score=score, band=band, best_move=best_move, nodes=it_nodes,
                nps=int(it_nodes / dt) if dt > 0 else 0, tt_probes=probes, tt_hits=hits,
                hit_rate=hits / probes if probes else 0.0, tt_fill=self._fill(),
                elapsed=dt, pv=it_pv, value=int(v), total_nodes=nodes, total_elapsed=el,
            )
            with self._lock:
                self._iterations.append(rep)
                if self._step_iteration:  # step_iteration(): pause after this one
                    self._step_iteration = False
                    if self._ctl[K.C_CMD] == K.CMD_RUN:
                        self._ctl[K.C_CMD] = K.CMD_PAUSE
                        self._pause_requested = True
                        self._mark_paused()
        with self._lock:
            its = self._iterations
            if its:
                last = its[-1]
                res = SearchResult(last.best_move, last.score, last.band, last.pv,
                                   int(ctl[K.C_NODES]), last.depth, reason, last.value)
            else:
                mv = int(self._pv[0]) if self._pvlen[0] > 0 else _fallback_move(pos)
                res = SearchResult(mv, 0, "heuristic", (mv,), int(ctl[K.C_NODES]), 0,
                                   reason, 0)
            self._finish(pos, reason, res)

    def _finish(self, pos: Position, state: str, res: SearchResult | None) -> None:
        self._unmark_paused()
        self._final_elapsed = max(time.perf_counter() - self._t0 - self._paused_total, 0.0)
        self._result = res
        self._state = state
        self._driver_paused = False
        self._ctl[K.C_PAUSED] = 0

    def _fill(self) -> float:
        # estimated from the first 16K buckets (addresses are hashed, so a fair sample),
        # like chess engines' "hashfull": counting 16 MB after every iteration would cost
        # more than a shallow iteration
        sample = self._tt[: 4 * 16384]
        return np.count_nonzero(sample[1::2]) / (len(sample) // 2)


def _fallback_move(pos: Position) -> int:
    """A move when the search found none better: block an acute threat, else the centre."""
    legal = pos.legal_moves()
    q = pos.copy()
    q.current ^= q.mask  # the opponent's view: where would they win?
    for c in legal:
        if q.is_winning_move(c):
            return c
    for c in CENTER_ORDER:
        if c in legal:
            return c
    return legal[0]


def run_search(pos: Position, opts: SearchOptions | None = None,
               controller: SearchController | None = None) -> SearchResult:
    """Search ``pos`` to the end in this thread's time (a convenience for scripts)."""
    ctl = controller or SearchController()
    ctl.start(pos, opts)
    ctl.wait()
    if ctl.error is not None:
        raise ctl.error
    res = ctl.result
    assert res is not None
    return res


def _warmup() -> None:
    """Load (or compile) every analysis kernel: called by ``c4tui.engine.warmup``."""
    import numpy as _np

    from .analysis_eval import threat_fill

    threat_fill(_np.uint64(0), _np.uint64(0))
    ctl = SearchController()
    # an opening (evaluation, quiescence, tables) and an endgame (recognizer, exact mode)
    for moves in ("4453", "5252153716735222535361161417246636774"):
        ctl.start(Position.from_moves(moves), SearchOptions(node_limit=2_000, use_book=True))
        ctl.wait()
    ctl.close()


assert HEIGHT == 6 and WIDTH == 7
