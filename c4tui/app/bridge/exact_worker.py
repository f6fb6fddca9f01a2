"""The exact values of the viewed position's moves, from the perfect solver.

One daemon thread solves the most recently requested position, one at a time, and also
evaluates MILTON's threat-fill verdict for it (microseconds). When the viewed position is
solved, the thread *ponders*: it solves the positions after each of its moves, best moves
first, so that the move the user plays next shows its exact values at once (the 12- to
16-disc middle game, which no book covers, takes up to a few hundred milliseconds per
position). It ponders for ``PONDER_FIRST`` seconds first (the next move's values matter
most), then finds a perfect-play line behind each of the viewed position's values
(engine/pv.py), each within its own budget, then ponders on. A new request stops a ponder
or a line at once; the UI's tick aborts a solve that exceeds its time budget or whose
position is no longer viewed (``Solver.stop`` only sets a flag).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from c4tui.engine.board.geometry import CENTER_ORDER, WIDTH
from c4tui.engine.board.position import Position
from c4tui.engine.seam import SearchAborted, ThreatVerdict

from .engine_view import ExactEntry, ExactStatus, is_symmetric, line_ends
from .loader import Engine, lower_thread_priority
from .position_cache import PositionCache
from .settings import EXACT_BUDGET, LINE_BUDGET, PONDER_FIRST, RECENT_POSITIONS


@dataclass(frozen=True)
class _Job:
    """The running solve: its position's key, when it started, whether it ponders and, if
    so, the key of the wanted position whose child it is."""

    key: int
    started: float
    ponder: bool
    parent: int = 0
    lines: bool = False  #: finding the lines of the wanted position ``key``
    budget: float = 0.0  #: seconds; 0: the worker's budget


class ExactWorker:
    """Solves what :meth:`want` asks for; :meth:`entry` and :meth:`verdict` read results."""

    def __init__(self, engine: Engine, budget: float = EXACT_BUDGET,
                 on_done: Callable[[], None] | None = None, ponder: bool = True,
                 lines: bool = True, line_budget: float = LINE_BUDGET,
                 ponder_first: float = PONDER_FIRST,
                 cache_size: int = RECENT_POSITIONS) -> None:
        """``on_done`` is called (on a worker thread) after each finished solve of a
        wanted position, each of its columns solved before that, and each line found, and
        when any job begins (its budget needs :meth:`tick`);
        ``ponder``: solve the wanted position's children while idle; ``lines``: find a
        perfect-play line behind each of its values, each within ``line_budget`` seconds,
        once its children have been pondered for ``ponder_first`` seconds; ``cache_size``:
        the positions whose results are kept (the least recently used go)."""
        self._engine = engine
        self._on_done = on_done
        self._budget = budget
        self._ponder = ponder
        self._lines = lines
        self._line_budget = line_budget
        self._ponder_first = ponder_first
        # (key, until): the wanted position just solved, whose children come before its lines
        self._children_first: tuple[int, float] = (0, 0.0)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._quit = threading.Event()
        self._want: Position | None = None
        self._job: _Job | None = None
        self._entries: PositionCache[ExactEntry] = PositionCache(cache_size)
        self._verdicts: PositionCache[ThreatVerdict] = PositionCache(cache_size)
        self._given_up: set[int] = set()  # pondered children over the budget: not again

    def start(self) -> None:
        threading.Thread(target=self._loop, name="c4-exact", daemon=True).start()

    def shutdown(self) -> None:
        self._quit.set()
        self._wake.set()
        self._engine.solver.stop()

    def want(self, pos: Position | None) -> None:
        """Solve ``pos`` next (None: nothing, e.g. a finished game)."""
        with self._lock:
            self._want = None if pos is None or pos.is_over else pos.copy()
            job = self._job
            if job is not None and job.lines:
                if self._want is None or self._want.key() != job.key:
                    self._engine.solver.stop()  # lines yield at once too
            elif job is not None and job.ponder:
                if self._want is not None and self._want.key() == job.key:
                    # the user played the move being pondered: it is now the wanted solve
                    self._job = _Job(job.key, job.started, False, job.parent)
                    self._entries[job.key] = ExactEntry(ExactStatus.SOLVING)
                else:  # a ponder yields at once to any other request
                    self._engine.solver.stop()
        self._wake.set()

    def entry(self, pos: Position) -> ExactEntry | None:
        with self._lock:
            return self._entries.get(pos.key())

    def verdict(self, pos: Position) -> ThreatVerdict | None:
        with self._lock:
            return self._verdicts.get(pos.key())

    @property
    def busy(self) -> bool:
        """A solve (wanted, ponder or line) runs: :meth:`tick` must keep checking its
        budget."""
        with self._lock:
            return self._job is not None

    def _began(self) -> None:
        """A job has begun (worker thread): tell the UI, whose poll may be resting, so
        that its :meth:`tick` checks the budget."""
        if self._on_done is not None:
            self._on_done()

    def tick(self) -> None:
        """Abort the running solve if it is too slow or no longer wanted (UI thread)."""
        with self._lock:
            job, want = self._job, self._want
        if job is None:
            return
        late = time.monotonic() - job.started > (job.budget or self._budget)
        # a ponder solves a child of the wanted position (want() stops it on any other
        # request; this catches a request that came just before its solve began)
        expected = job.parent if job.ponder else job.key
        if late or want is None or want.key() != expected:
            self._engine.solver.stop()

    # ------------------------------------------------------------------ the thread
    def _loop(self) -> None:
        lower_thread_priority()
        from c4tui.engine.analysis.verdict import threat_verdict

        while not self._quit.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            with self._lock:
                pos = self._want
            if pos is None:
                continue
            key = pos.key()
            if self.verdict(pos) is None:
                verdict = threat_verdict(pos)
                with self._lock:
                    self._verdicts[key] = verdict
            with self._lock:
                entry = self._entries.get(key)
                find_lines = self._lines and entry is not None \
                    and entry.status is ExactStatus.DONE and not entry.lines_done
                first_key, until = self._children_first
                if find_lines and first_key == key and time.monotonic() < until \
                        and self._next_ponder(pos) is not None:
                    find_lines = False  # the children first, for a while
            if find_lines and entry is not None:
                self._find_lines(pos, entry)
                self._wake.set()  # next: the wanted position, or a ponder
                continue
            with self._lock:
                if key in self._entries:
                    self._entries.get(key)  # now the most recent
                    target, ponder = self._next_ponder(pos), True
                else:
                    target, ponder = pos, False
                if target is None:
                    continue  # all done: sleep until the next request
                tkey = target.key()
                if not ponder:
                    self._entries[tkey] = ExactEntry(ExactStatus.SOLVING)
                self._job = _Job(tkey, time.monotonic(), ponder, key)
            self._began()
            entry = self._solve(target)
            with self._lock:
                job, self._job = self._job, None
                wanted = self._want is not None and self._want.key() == tkey
                if entry is not None and (entry.status is ExactStatus.DONE or not job.ponder):
                    self._entries[tkey] = entry
                    if not job.ponder and entry.status is ExactStatus.DONE:
                        self._children_first = (tkey, time.monotonic() + self._ponder_first)
                elif not job.ponder:
                    self._entries.pop(tkey, None)  # solve it again if the user comes back
                elif time.monotonic() - job.started > self._budget:
                    if len(self._given_up) > RECENT_POSITIONS:
                        self._given_up.clear()
                    self._given_up.add(tkey)  # pondering it again would only cost time
            if entry is not None and wanted and self._on_done is not None:
                self._on_done()
            self._wake.set()  # next: the wanted position, or the next child to ponder

    def _find_lines(self, pos: Position, entry: ExactEntry) -> None:
        """A perfect-play line per column of the solved ``pos`` (best columns first), each
        published when found and cut at its budget (a correct beginning). A new request
        stops it; the lines that reach the game's end are kept for a return."""
        from c4tui.engine.pv import perfect_moves

        key = pos.key()
        lines = list(entry.lines) or [()] * WIDTH
        order = sorted((c for c in CENTER_ORDER if entry.scores[c] is not None),
                       key=lambda c: -(entry.scores[c] or 0))
        for col in order:
            if line_ends(pos, lines[col]):
                continue
            child = pos.copy()
            child.play(col)
            line = [col]
            with self._lock:
                if self._want is None or self._want.key() != key:
                    return  # a new request came before this line began
                self._job = _Job(key, time.monotonic(), False, key, lines=True,
                                 budget=self._line_budget)
            self._began()
            try:
                for move in perfect_moves(child, self._engine.solver):
                    line.append(move)
            except SearchAborted:
                with self._lock:
                    superseded = self._want is None or self._want.key() != key
                if superseded or self._quit.is_set():
                    with self._lock:
                        self._job = None
                    return
            except Exception:  # a bug in the solver: the moves found stand, the app goes on
                pass
            lines[col] = tuple(line)
            with self._lock:
                self._job = None
                entry = replace(entry, lines=tuple(lines))
                self._entries[key] = entry
            if self._on_done is not None:
                self._on_done()
        with self._lock:
            self._entries[key] = replace(entry, lines=tuple(lines), lines_done=True)
        if self._on_done is not None:
            self._on_done()

    def _next_ponder(self, pos: Position) -> Position | None:
        """The next child of the solved ``pos`` to solve while idle (under the lock)."""
        parent = self._entries.get(pos.key())
        if not self._ponder or parent is None or parent.status is not ExactStatus.DONE:
            return None
        known = {c: s for c, s in enumerate(parent.scores) if s is not None}
        # the moves the user is most likely to play (and to be shown) first
        order = sorted((c for c in CENTER_ORDER if c in known), key=lambda c: -known[c])
        for col in order:
            if pos.is_winning_move(col):
                continue
            child = pos.copy()
            child.play(col)
            ckey = child.key()
            if child.is_over or ckey in self._entries or ckey in self._given_up:
                continue
            return child
        return None

    def _solve(self, pos: Position) -> ExactEntry | None:
        """The entry for ``pos``; None if the solve was stopped for another request. The
        columns solved before the whole analysis are published as they come (while
        ``pos`` is the wanted solve) and kept if it is given up: exact is exact."""
        key = pos.key()
        found: list[int | None] = [None] * WIDTH
        mirror = is_symmetric(pos)  # a move's mirror image is worth the same

        def solved(col: int, score: int) -> None:  # on a solver thread
            found[col] = score
            if mirror:
                found[WIDTH - 1 - col] = score
            with self._lock:
                entry = self._entries.get(key)
                wanted = entry is not None and entry.status is ExactStatus.SOLVING
                if wanted:
                    self._entries[key] = ExactEntry(ExactStatus.SOLVING,
                                                    partial=tuple(found))
            if wanted and self._on_done is not None:
                self._on_done()

        try:
            res = self._engine.solver.analyze(pos, on_score=solved)
            return ExactEntry(ExactStatus.DONE, tuple(res.scores), res.nodes, res.micros)
        except SearchAborted as exc:
            with self._lock:
                superseded = self._want is None or self._want.key() != key
            if superseded or self._quit.is_set():
                return None
            return ExactEntry.given_up(found, len(pos.legal_moves()), self._budget,
                                       getattr(exc, "bounds", {}), mirror)
        except Exception as exc:  # a bug in the solver: say it, keep the app
            return ExactEntry.failed(exc, found)
