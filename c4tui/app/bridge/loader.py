"""Loading the engine in the background: the board is usable at once, the engine follows.

The loader thread imports the numba modules and loads the kernels from numba's cache. On
a cold cache it first compiles them in child processes (``c4tui.engine.warmup``'s
``ParallelCompile``: the solver's and the analysis kernels at once on two cores): numba
holds the GIL for long stretches while compiling, which would freeze the UI, and a child
can be killed the moment the user quits (quitting never waits for a compile). Meanwhile
the status line counts the kernels and estimates the time left.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from c4tui.engine.priority import lower_priority
from c4tui.engine.seam import SearchLike, default_threads
from c4tui.ugi.engine import Timeouts

from . import settings as app_settings
from .engine_view import EngineState
from .external_search import ExternalSearch
from .settings import SOLVER_HASH_MB

if TYPE_CHECKING:
    from c4tui.engine.analysis.controller import SearchController
    from c4tui.engine.solver.solver import Solver
    from c4tui.engine.warmup import ParallelCompile

#: The analysis search and the exact solver run at a lower CPU priority than the UI.
ENGINE_NICE = 5
#: Seconds between two updates of the compile's progress.
PROGRESS_EVERY = 0.5


def lower_thread_priority(nice: int = ENGINE_NICE) -> None:
    """Give the calling thread (and threads it creates, which inherit it on Linux) a
    lower CPU priority, so the UI thread wins the cores when the engine uses them all:
    the app's own niceness plus ``nice``, capped at 19 (never above what the user gave
    the app, e.g. under ``nice -n 19 c4tui``)."""
    lower_priority(nice)  # not Linux, or not permitted: the priority it has


@dataclass(frozen=True)
class Engine:
    """The loaded engine: the exact solver and two analysis searches (the viewed position,
    the columns' short searches). ``search`` is an external UGI engine with ``--engine``;
    the solver and the column searches are always ours. A stopped solve raises
    ``c4tui.engine.seam.SearchAborted``."""

    solver: Solver
    search: SearchLike
    columns: SearchController


class EngineLoader:
    """Loads the engine in a daemon thread; ``state``/``message`` say how far it is."""

    def __init__(self, on_ready: Callable[[Engine], None],
                 external: Sequence[str] = ()) -> None:
        """``external``: an external engine's command, started with the loading."""
        self._on_ready = on_ready
        self.external = ExternalSearch(external, Timeouts(
            ugi=app_settings.EXTERNAL_UGI_TIMEOUT, ready=app_settings.EXTERNAL_READY_TIMEOUT,
            stop=app_settings.EXTERNAL_STOP_TIMEOUT)) if external else None
        self._lock = threading.Lock()
        self.state = EngineState.LOADING
        self.message = ""
        #: a warning to say once when the engine is ready ("" when none)
        self.note = ""
        self._compile: ParallelCompile | None = None
        self._quit = threading.Event()

    def start(self) -> None:
        if self.external is not None:  # its handshake runs while our kernels load
            self.external.open()
        threading.Thread(target=self._load, name="c4-engine-loader", daemon=True).start()

    def shutdown(self) -> None:
        """Stop loading: kill a compiling child process (and an external engine) at once."""
        self._quit.set()
        if self.external is not None:
            self.external.close()
        with self._lock:
            compiling = self._compile
        if compiling is not None:
            compiling.kill()

    def _set(self, state: EngineState, message: str = "") -> None:
        with self._lock:
            self.state, self.message = state, message

    def _compile_in_children(self, warmup) -> None:
        """Fill numba's cache from child processes (the parent then only loads it),
        saying how far they are every :data:`PROGRESS_EVERY` seconds."""
        headline = warmup.headline()
        compiling = warmup.ParallelCompile(warmup.stage_names())
        with self._lock:
            if self._quit.is_set():
                return
            self._compile = compiling
        self._set(EngineState.COMPILING, f"{headline}: 0/{compiling.total} kernels")
        compiling.start()
        if self._quit.is_set():  # a shutdown between the two: nothing may outlive it
            compiling.kill()
        while not compiling.wait(PROGRESS_EVERY):
            self._set(EngineState.COMPILING, f"{headline}: {compiling.progress().describe()}")
        if self._quit.is_set():
            compiling.kill()  # a child started as the shutdown read self._compile

    def _load(self) -> None:
        lower_thread_priority()
        try:
            from c4tui.engine import warmup

            if not warmup.is_compiled():
                self._compile_in_children(warmup)
            if self._quit.is_set():
                return
            self._set(EngineState.LOADING)
            warmup.warmup()  # loads from numba's cache (compiles whatever is missing)
            from c4tui.engine.analysis.controller import SearchController
            from c4tui.engine.analysis.verdict import threat_verdict
            from c4tui.engine.board.position import Position
            from c4tui.engine.solver.solver import Solver

            threat_verdict(Position())  # load its kernel here, not on first use
            from c4tui.book import load_default

            def converting(done: int, total: int) -> None:
                self._set(EngineState.LOADING,
                          f"first use: converting the 12-ply database ({done}/{total})")

            # ours and the 12-ply database (converted on first use), or None (one warning)
            books = load_default(progress=converting)
            solver = Solver(hash_mb=SOLVER_HASH_MB, book=books, threads=default_threads())
            engine = Engine(solver,
                            self.external or SearchController(ENGINE_NICE, book=books),
                            SearchController(ENGINE_NICE, book=books))
        except Exception as exc:  # any failure: say it, keep the board usable
            self._set(EngineState.FAILED, f"{type(exc).__name__}: {exc}".splitlines()[0])
            return
        from c4tui.book import db12

        self.note = db12.unwritable_note()  # said once by the app
        if not self._quit.is_set():
            self._on_ready(engine)
            self._set(EngineState.READY)
