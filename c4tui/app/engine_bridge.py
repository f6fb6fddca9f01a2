"""The app's side of the engine seam: loading, exact column values, the live search.

Nothing here runs on the UI thread except short, non-blocking calls: the UI *requests* work
(``set_position``, ``pause`` ...) and *polls* :meth:`EngineBridge.view` a few times a second.
Three background threads do the rest:

* the loader imports the numba modules and loads or compiles the kernels;
* the exact worker runs :meth:`Solver.analyze` for the viewed position, and the UI tick
  aborts it with :meth:`Solver.stop` when it exceeds its time budget or the position changes;
* the search worker owns the :class:`SearchController` and executes the UI's commands
  (start, pause, step ...) in order, so a slow ``stop`` never blocks a key press.

So at most two engine jobs run at once, one per core. If the engine modules are missing
(or fail to load), the bridge says so in ``state``/``message`` and the app keeps working
as a board without analysis.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from c4tui.engine.position import Position

Spawn = Callable[[Callable[[], None], str], Any]

#: Engine states shown in the status line.
NOT_AVAILABLE = "engine not available"
LOADING = "loading engine"
COMPILING = "compiling"
READY = "ready"
FAILED = "engine failed"


@dataclass
class SearchSettings:
    """User-adjustable options of the analysis search and the exact solver."""

    auto: bool = True  #: start a search on every new position
    node_limit: int = 2_000_000
    hash_mb: int = 16
    exact_budget: float = 3.0  #: seconds the exact solver may take before values go heuristic
    solver_hash_mb: int = 64


@dataclass(frozen=True)
class ExactEntry:
    """Exact column values of one position, or why there are none."""

    status: str  #: "solving", "done", "too slow", "error"
    scores: tuple[int | None, ...] | None = None
    nodes: int = 0
    micros: int = 0
    message: str = ""

    @property
    def best(self) -> int | None:
        vals = [s for s in self.scores or () if s is not None]
        return max(vals) if vals else None


@dataclass(frozen=True)
class EngineView:
    """Everything the UI draws about the engine, captured at one instant."""

    state: str
    message: str = ""
    search_available: bool = False
    solver_available: bool = False
    snapshot: Any = None  #: c4tui.engine.search.Snapshot or None
    path: tuple = ()  #: PathEntry tuple while paused
    search_key: int | None = None  #: key of the position the snapshot belongs to
    search_ply: int = 0
    exact: ExactEntry | None = None  #: for the viewed position
    #: heuristic column values from short analysis searches of each child position:
    #: column -> (score, band), the score from the viewed position's side to move
    columns: dict[int, tuple[int, str]] = field(default_factory=dict)
    columns_done: bool = False
    #: MILTON's threat-fill verdict: (outcome for the side to move +1/0/-1, fill plies)
    verdict: tuple[int, int] | None = None
    settings: SearchSettings = field(default_factory=SearchSettings)


def _default_spawn(fn: Callable[[], None], name: str) -> threading.Thread:
    t = threading.Thread(target=fn, name=name, daemon=True)
    t.start()
    return t


def _lower_thread_priority(nice: int = 5) -> None:
    """Give the calling thread (and threads it creates, which inherit it on Linux) a
    lower CPU priority, so the UI thread wins the cores when the engine uses them all."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
    except (AttributeError, OSError):
        pass  # not Linux, or not permitted: the engine just runs at normal priority


def _compile_in_subprocess(timeout: float = 1800.0) -> bool:
    """Compile the kernels into numba's cache in a child process.

    numba holds the GIL for long stretches while compiling, which would make the UI
    stutter; a child process compiles without touching our GIL, and this process then
    only loads the cached machine code. False if the child failed (the caller's in-process
    warm-up then compiles instead).
    """
    try:
        done = subprocess.run(
            [sys.executable, "-c", "from c4tui.engine import warmup; warmup.warmup()"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


class EngineBridge:
    """Owns the solver and the search controller; thread-safe; never blocks its caller."""

    def __init__(
        self,
        settings: SearchSettings | None = None,
        spawn: Spawn = _default_spawn,
        enable: bool = True,
    ) -> None:
        self.settings = settings or SearchSettings()
        self._spawn = spawn
        self._lock = threading.Lock()
        self._state = LOADING if enable else NOT_AVAILABLE
        self._message = "" if enable else "engine disabled"
        self._shutdown = threading.Event()
        self._enable = enable
        # exact solver
        self._solver: Any = None
        self._aborted_type: type[BaseException] | None = None
        self._exact: dict[int, ExactEntry] = {}
        self._exact_want: Position | None = None
        self._exact_job: tuple[int, float] | None = None  # (key, start time)
        self._exact_wake = threading.Event()
        # analysis search
        self._search_mod: Any = None
        self._ctl: Any = None
        self._commands: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._snapshot: Any = None
        self._path: tuple = ()
        self._search_key: int | None = None
        self._search_ply = 0
        self._wanted: Position | None = None
        self._started = False
        self._colctl: Any = None
        self._columns: dict[int, dict[int, tuple[int, str]]] = {}
        self._columns_done: set[int] = set()
        self._threat_fill: Any = None
        self._verdicts: dict[int, tuple[int, int]] = {}
        self._root_reason: dict[int, str] = {}

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Begin loading the engine in the background (returns at once)."""
        if self._enable:
            self._spawn(self._load, "engine-loader")

    def _set_state(self, state: str, message: str = "") -> None:
        with self._lock:
            self._state, self._message = state, message

    def _load(self) -> None:
        """Loader thread: import and warm the kernels, then start the workers."""
        _lower_thread_priority()
        has_solver = _module_exists("c4tui.engine.solver")
        has_search = _module_exists("c4tui.engine.search")
        if not has_solver and not has_search:
            self._set_state(NOT_AVAILABLE, "the engine modules are not installed")
            return
        try:
            if _module_exists("c4tui.engine.warmup"):
                warmup = importlib.import_module("c4tui.engine.warmup")
                if not warmup.is_compiled():
                    self._set_state(COMPILING, "first start: compiling kernels")
                    _compile_in_subprocess()
                self._set_state(LOADING)
                warmup.warmup()  # loads from numba's cache (compiles whatever is missing)
            if has_solver:
                solver_mod = importlib.import_module("c4tui.engine.solver")
                self._solver = solver_mod.Solver(hash_mb=self.settings.solver_hash_mb)
                self._aborted_type = solver_mod.SearchAborted
            if has_search:
                self._search_mod = importlib.import_module("c4tui.engine.search")
                self._ctl = self._search_mod.SearchController()
                self._colctl = self._search_mod.SearchController()
                if _module_exists("c4tui.engine.analysis_eval"):
                    ev = importlib.import_module("c4tui.engine.analysis_eval")
                    self._threat_fill = getattr(ev, "threat_fill", None)
                    if self._threat_fill is not None:  # load it here, not on first use
                        import numpy as np

                        self._threat_fill(np.uint64(0), np.uint64(0))
        except Exception as exc:  # any failure: say it, keep the board usable
            self._set_state(FAILED, f"{type(exc).__name__}: {exc}".splitlines()[0])
            return
        missing = [n for n, ok in (("solver", has_solver), ("search", has_search)) if not ok]
        self._set_state(READY, f"{' and '.join(missing)} not available yet" if missing else "")
        if self._solver is not None or self._threat_fill is not None:
            self._spawn(self._exact_loop, "engine-exact")
        if self._ctl is not None:
            self._spawn(self._search_loop, "engine-search")
        self._exact_wake.set()

    def shutdown(self) -> None:
        """Stop every job; the threads exit soon after (they are daemons)."""
        self._shutdown.set()
        self._exact_wake.set()
        self._commands.put(("quit", None))
        if self._solver is not None:
            self._solver.stop()

    # ---------------------------------------------------------------- requests
    def set_position(self, pos: Position, *, force_search: bool = False) -> None:
        """The viewed position changed: solve it and (if auto) search it."""
        with self._lock:
            self._exact_want = None if pos.is_over else pos.copy()
            self._wanted = pos.copy()
        self._exact_wake.set()
        if self.settings.auto or force_search:
            self.command("start", pos.copy())
        else:
            self.command("stop")

    def command(self, name: str, arg: Any = None) -> None:
        """Queue a search command: start, stop, pause, resume, toggle, step_iteration,
        step_nodes, node_limit, hash."""
        self._commands.put((name, arg))

    # ------------------------------------------------------------------ polling
    def tick(self) -> None:
        """Called by the UI a few times a second: enforce the exact solver's budget."""
        solver = self._solver
        with self._lock:
            job = self._exact_job
            want = self._exact_want
        if solver is None or job is None:
            return
        key, started = job
        superseded = want is None or want.key() != key
        if superseded or time.monotonic() - started > self.settings.exact_budget:
            solver.stop()  # just sets a flag; the worker raises SearchAborted

    def view(self, pos: Position) -> EngineView:
        """The engine's state as seen from the viewed position ``pos``."""
        ctl = self._ctl
        snapshot = path = None
        if ctl is not None:
            try:
                snapshot = ctl.snapshot()
                if snapshot is not None and snapshot.state == "paused":
                    path = ctl.path()
            except Exception:  # a racing controller must never crash the UI
                snapshot = self._snapshot
        with self._lock:
            if snapshot is not None:
                self._snapshot = snapshot
            return EngineView(
                state=self._state,
                message=self._message,
                search_available=ctl is not None,
                solver_available=self._solver is not None,
                snapshot=self._snapshot if self._search_key is not None else None,
                path=tuple(path or ()),
                search_key=self._search_key,
                search_ply=self._search_ply,
                exact=self._exact.get(pos.key()),
                columns=dict(self._columns.get(pos.key(), {})),
                columns_done=pos.key() in self._columns_done,
                verdict=self._verdicts.get(pos.key()),
                settings=replace(self.settings),
            )

    def exact_for(self, pos: Position) -> ExactEntry | None:
        """Cached exact values of ``pos``, if solved."""
        with self._lock:
            return self._exact.get(pos.key())

    # ------------------------------------------------------------------ workers
    def _exact_loop(self) -> None:
        """Exact worker: solve the most recently requested position, one at a time."""
        _lower_thread_priority()
        solver = self._solver
        while not self._shutdown.is_set():
            self._exact_wake.wait(0.5)
            self._exact_wake.clear()
            with self._lock:
                pos = self._exact_want
            if pos is not None and self._threat_fill is not None:
                self._compute_verdict(pos)
            with self._lock:
                if solver is None or pos is None or pos.key() in self._exact:
                    continue
                key = pos.key()
                self._exact[key] = ExactEntry("solving")
                self._exact_job = (key, time.monotonic())
            try:
                res = solver.analyze(pos)
                entry = ExactEntry("done", tuple(res.scores), res.nodes, res.micros)
            except Exception as exc:
                aborted = self._aborted_type is not None and isinstance(exc, self._aborted_type)
                with self._lock:
                    superseded = self._exact_want is None or self._exact_want.key() != key
                if aborted and superseded:
                    entry = None  # solve it again if the user comes back
                elif aborted:
                    entry = ExactEntry(
                        "too slow", message=f"not solved within {self.settings.exact_budget:g} s"
                    )
                else:
                    entry = ExactEntry("error", message=str(exc).splitlines()[0] if str(exc) else
                                       type(exc).__name__)
            with self._lock:
                self._exact_job = None
                if entry is None:
                    self._exact.pop(key, None)
                else:
                    self._exact[key] = entry
            self._exact_wake.set()  # the wanted position may have changed meanwhile

    def _compute_verdict(self, pos: Position) -> None:
        """MILTON's threat-fill evaluation of ``pos`` (microseconds, worker thread only)."""
        key = pos.key()
        with self._lock:
            if key in self._verdicts:
                return
        try:
            import numpy as np

            outcome, plies = self._threat_fill(np.uint64(pos.current), np.uint64(pos.mask))
            value = (int(outcome), int(plies))
        except Exception:
            return
        with self._lock:
            self._verdicts[key] = value

    def _options(self) -> Any:
        s = self.settings
        return self._search_mod.SearchOptions(node_limit=s.node_limit, hash_mb=s.hash_mb)

    def _search_loop(self) -> None:
        """Search worker: run the UI's commands against the controller, in order."""
        _lower_thread_priority()  # the controller's search threads inherit it
        ctl = self._ctl
        while True:
            try:
                name, arg = self._commands.get(timeout=0.2)
            except queue.Empty:
                try:
                    self._column_searches()
                except Exception as exc:
                    self._set_state(READY, f"column search: {exc}".splitlines()[0])
                continue
            if name == "quit" or self._shutdown.is_set():
                for c in (ctl, self._colctl):
                    try:
                        c.close()
                    except Exception:
                        pass
                return
            try:
                self._run_command(ctl, name, arg)
            except Exception as exc:
                self._set_state(READY, f"search: {exc}".splitlines()[0])

    def _column_searches(self) -> None:
        """When the root search has ended and the exact solver gave up, search each child
        position briefly for a heuristic value per column (one job at a time, abandoned
        as soon as a command arrives)."""
        with self._lock:
            pos = self._wanted
            key = self._search_key
        if pos is None or key is None or pos.key() != key or key in self._columns_done:
            return
        snap = self._ctl.snapshot()
        if snap is None or snap.state not in ("done", "node_limit"):
            return
        with self._lock:
            exact = self._exact.get(key)
        if self._solver is not None and (exact is None or exact.status in ("solving", "done")):
            return
        limit = max(20_000, min(self.settings.node_limit // 7, 500_000))
        opts = self._search_mod.SearchOptions(node_limit=limit, hash_mb=self.settings.hash_mb)
        for col in pos.legal_moves():
            with self._lock:
                if col in self._columns.get(key, {}):
                    continue
            if pos.is_winning_move(col):
                value = (self._win_now(pos), "exact")
            else:
                child = pos.copy()
                child.play(col)
                if child.is_over:
                    value = (0, "exact")
                else:
                    self._colctl.start(child, opts)
                    while not self._colctl.wait(0.02):
                        if not self._commands.empty() or self._shutdown.is_set():
                            self._colctl.stop()
                            self._colctl.wait(1.0)
                            return
                    res = self._colctl.snapshot()
                    if res.score is None:
                        return
                    value = (-int(res.score), str(res.band))
            with self._lock:
                self._columns.setdefault(key, {})[col] = value
        with self._lock:
            self._columns_done.add(key)

    @staticmethod
    def _win_now(pos: Position) -> int:
        from c4tui.engine.scores import win_score

        return win_score(pos.ply)

    def _run_command(self, ctl: Any, name: str, arg: Any) -> None:
        if name == "start":
            if not self._commands.empty():
                # a newer command is queued (fast navigation): skip this position
                nxt = self._commands.queue[0][0]
                if nxt in ("start", "stop"):
                    return
            pos: Position = arg
            ctl.stop()
            if pos.is_over:
                with self._lock:
                    self._search_key, self._snapshot, self._path = None, None, ()
                return
            ctl.start(pos, self._options())
            with self._lock:
                self._search_key, self._search_ply = pos.key(), pos.ply
                self._snapshot = None
        elif name == "stop":
            ctl.stop()
        elif name == "pause":
            ctl.pause()
        elif name == "resume":
            ctl.resume()
        elif name == "toggle":
            snap = ctl.snapshot()
            if snap is not None and snap.state == "paused":
                ctl.resume()
            elif snap is not None and snap.state == "searching":
                ctl.pause()
        elif name in ("step_iteration", "step_nodes"):
            snap = ctl.snapshot()
            with self._lock:
                pos = self._wanted
                current = self._search_key
            if pos is None or pos.is_over:
                return
            if snap is None or snap.state not in ("searching", "paused") or (
                current != pos.key()
            ):
                # nothing to step: start a search of the viewed position, paused at once
                ctl.start(pos, self._options())
                ctl.pause()
                with self._lock:
                    self._search_key, self._search_ply = pos.key(), pos.ply
                ctl.wait_paused(1.0)
            if name == "step_iteration":
                ctl.step_iteration()
            else:
                ctl.step_nodes(int(arg))
        elif name == "node_limit":
            self.settings.node_limit = int(arg)
            ctl.set_node_limit(int(arg))
        elif name == "hash":
            self.settings.hash_mb = int(arg)  # takes effect at the next start
