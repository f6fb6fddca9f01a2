"""The exact values of the viewed position's moves, from the perfect solver.

One daemon thread solves the most recently requested position, one at a time, and also
evaluates MILTON's threat-fill verdict for it (microseconds). The UI's tick aborts a solve
that exceeds its time budget or whose position is no longer viewed (``Solver.stop`` only
sets a flag).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from c4tui.engine.position import Position
from c4tui.engine.seam import ThreatVerdict

from .engine_view import ExactEntry, ExactStatus
from .loader import Engine, lower_thread_priority
from .settings import EXACT_BUDGET


class ExactWorker:
    """Solves what :meth:`want` asks for; :meth:`entry` and :meth:`verdict` read results."""

    def __init__(self, engine: Engine, budget: float = EXACT_BUDGET,
                 on_done: Callable[[], None] | None = None) -> None:
        """``on_done`` is called (on the worker thread) after each finished solve."""
        self._engine = engine
        self._on_done = on_done
        self._budget = budget
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._quit = threading.Event()
        self._want: Position | None = None
        self._job: tuple[int, float] | None = None  # (key, start time) of the running solve
        self._entries: dict[int, ExactEntry] = {}
        self._verdicts: dict[int, ThreatVerdict] = {}

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
        self._wake.set()

    def entry(self, pos: Position) -> ExactEntry | None:
        with self._lock:
            return self._entries.get(pos.key())

    def verdict(self, pos: Position) -> ThreatVerdict | None:
        with self._lock:
            return self._verdicts.get(pos.key())

    def tick(self) -> None:
        """Abort the running solve if it is too slow or no longer wanted (UI thread)."""
        with self._lock:
            job, want = self._job, self._want
        if job is None:
            return
        key, started = job
        if want is None or want.key() != key or time.monotonic() - started > self._budget:
            self._engine.solver.stop()

    def _loop(self) -> None:
        lower_thread_priority()
        from c4tui.engine.verdict import threat_verdict

        while not self._quit.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            with self._lock:
                pos = self._want
            if pos is None:
                continue
            key = pos.key()
            verdict = threat_verdict(pos)
            with self._lock:
                self._verdicts[key] = verdict
                if key in self._entries:
                    continue
                self._entries[key] = ExactEntry(ExactStatus.SOLVING)
                self._job = (key, time.monotonic())
            entry = self._solve(pos)
            with self._lock:
                self._job = None
                if entry is None:
                    self._entries.pop(key, None)  # solve it again if the user comes back
                else:
                    self._entries[key] = entry
            if entry is not None and self._on_done is not None:
                self._on_done()
            self._wake.set()  # the wanted position may have changed meanwhile

    def _solve(self, pos: Position) -> ExactEntry | None:
        try:
            res = self._engine.solver.analyze(pos)
            return ExactEntry(ExactStatus.DONE, tuple(res.scores), res.nodes, res.micros)
        except self._engine.aborted:
            with self._lock:
                superseded = self._want is None or self._want.key() != pos.key()
            if superseded or self._quit.is_set():
                return None
            return ExactEntry(ExactStatus.TOO_SLOW,
                              message=f"not solved within {self._budget:g} s")
        except Exception as exc:  # a bug in the solver: say it, keep the app
            return ExactEntry(ExactStatus.ERROR, message=str(exc).splitlines()[0]
                              if str(exc) else type(exc).__name__)
