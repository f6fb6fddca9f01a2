"""The app's side of the engine seam: one object the UI talks to, on its own thread.

Every method returns at once. The work is done by the :class:`EngineLoader` (imports and
compiles in the background), the :class:`ExactWorker` (the solver's move values, given up
after a time budget), the engine's :class:`SearchController` (the live analysis search:
its ``start`` hands over to its own worker) and the :class:`ColumnAnalysis` (short
searches per column when the solver gives up). The UI reads :meth:`EngineBridge.view`
when ``on_update`` tells it something changed (the exact values, each iteration of the
search and each change of its state) and calls :meth:`tick` a few times a second to
advance the budget and the column searches. With ``--engine`` an :class:`ExternalSearch`
(a UGI process) takes the search's place (both are a ``SearchLike``); it cannot pause or
step, and the bridge says so.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable

from c4tui.engine.geometry import WIDTH
from c4tui.engine.position import Position
from c4tui.engine.seam import (
    SLOW_HASH_MB,
    Band,
    Limits,
    Score,
    SearchState,
    Snapshot,
)

from .column_analysis import ColumnAnalysis
from .engine_view import EngineState, EngineView, ExactStatus
from .exact_worker import ExactWorker
from .loader import Engine, EngineLoader
from .play import EnginePlayer, Reply
from .settings import SearchSettings

__all__ = ["EngineBridge", "EngineState", "EngineView", "SearchSettings"]

#: The numbers of lines key ``m`` steps through (the last: every move).
MULTIPV_STEPS = (1, 2, 3, WIDTH)
#: What pausing and stepping answer with an external engine (UGI has neither).
NOT_WITH_EXTERNAL = "not available with an external engine"


class EngineBridge:
    """Owns the engine's jobs for the app; answers with plain records and short messages."""

    def __init__(self, settings: SearchSettings, enable: bool = True,
                 on_update: Callable[[], None] | None = None,
                 on_reply: Callable[[Reply], None] | None = None) -> None:
        """``on_update``: called from a worker thread when exact values are ready, and
        from the search's thread after each iteration and change of its state;
        ``on_reply``: from the play thread when the engine has found its move."""
        self.settings = settings
        self._on_update = on_update
        self._enable = enable
        self._lock = threading.Lock()
        self._loader = EngineLoader(self._ready, settings.engine_cmd)
        self._engine: Engine | None = None
        self._exact: ExactWorker | None = None
        self._columns: ColumnAnalysis | None = None
        self._viewed: Position = Position()
        self._analyse = True  # the viewed position is to be analysed (see set_position)
        self._search_key: int | None = None  # the position the search belongs to
        #: a step was asked for and its pause not yet drawn: a node step pauses inside the
        #: kernel, which tells no listener, so the tick that finds the pause redraws
        self._step_unseen = False
        #: play mode's opponent: its own solver and search, on the loaded engine
        self.player = EnginePlayer(lambda: self._engine, on_reply or (lambda _reply: None))

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Begin loading the engine in the background (returns at once)."""
        if self._enable:
            self._loader.start()

    def _ready(self, engine: Engine) -> None:
        """Loader thread: the engine is there; solve and search the viewed position."""
        exact = ExactWorker(engine, on_done=self._on_update)
        engine.search.listen(self._on_update)
        with self._lock:
            self._engine, self._exact = engine, exact
            self._columns = ColumnAnalysis(engine, self.settings)
            pos, analyse = self._viewed.copy(), self._analyse
        exact.start()
        self.set_position(pos, analyse=analyse)

    def shutdown(self) -> None:
        """Stop every job without waiting for any (the threads are daemons)."""
        self._loader.shutdown()
        self.player.shutdown()
        eng, exact = self._engine, self._exact
        if exact is not None:
            exact.shutdown()
        if eng is not None:
            eng.search.stop()
            eng.columns.stop()

    @property
    def external(self) -> bool:
        """An external engine searches (``--engine``): no pause, no steps, no path."""
        return self._loader.external is not None

    @property
    def state(self) -> EngineState:
        if not self._enable:
            return EngineState.NOT_AVAILABLE
        return self._loader.state

    # ---------------------------------------------------------------- requests
    def set_position(self, pos: Position, *, force_search: bool = False,
                     analyse: bool = True) -> None:
        """The viewed position changed: solve it and (if auto or forced) search it.
        ``analyse`` False: neither (play mode, while the engine finds its move there)."""
        with self._lock:
            self._viewed, self._analyse = pos.copy(), analyse
            eng, exact = self._engine, self._exact
        if eng is None or exact is None:
            return
        exact.want(pos if analyse else None)
        if pos.is_over or not analyse:
            eng.search.stop()
            self._search_key = None
        elif self.settings.auto or force_search:
            self._start(eng, pos)
        else:
            eng.search.stop()

    def _start(self, eng: Engine, pos: Position, paused: bool = False) -> None:
        s = self.settings
        eng.search.start(pos, s.search_limits(self.external), s.options, paused=paused)
        self._search_key = pos.key()

    def _current(self, eng: Engine) -> Snapshot | None:
        """The search's snapshot if it belongs to the viewed position."""
        if self._search_key != self._viewed.key():
            return None
        return eng.search.snapshot()

    def analyse(self) -> str:
        """Search the viewed position now (also with auto-analysis off)."""
        eng = self.require_engine()
        if self._viewed.is_over:
            return "the game is over: nothing to search"
        ext = self._loader.external
        if ext is not None and ext.error:
            return ext.error  # it is not restarted: the status line keeps saying why
        self.set_position(self._viewed, force_search=True)
        return "analysing" if self._current(eng) is None else ""

    def toggle_pause(self) -> str:
        """Pause or resume; the message says what happened."""
        eng = self.require_engine()
        if self.external:
            return f"pause: {NOT_WITH_EXTERNAL} (space stops it)"
        snap = self._current(eng)
        if snap is None or not snap.state.active:
            return self.idle_hint(snap)
        if snap.state is SearchState.PAUSED:
            eng.search.resume()
            return "resumed"
        eng.search.pause()
        return "paused"

    def stop(self) -> str:
        eng = self.require_engine()
        snap = self._current(eng)
        if snap is None or not snap.state.active:
            return self.idle_hint(snap)
        eng.search.stop()
        return "stopped"

    def idle_hint(self, snap: Snapshot | None) -> str:
        """What the search keys can do while no search of the viewed position runs
        (``snap``: its ended search, if any): only what is true now, so that the key it
        names does not answer "nothing to do"."""
        if self._viewed.is_over:
            return "the game is over: nothing to search"
        if snap is not None and snap.state is SearchState.DONE and snap.result is not None:
            return f"the search is done (depth {snap.result.depth}): g searches again"
        ext = self._loader.external
        if ext is not None:  # it cannot step; a broken one is not started again by g
            return "no search is running" if ext.error else "no search is running: g analyses"
        return "no search is running: g analyses, n steps one iteration"

    def step_iteration(self) -> str:
        """One more iteration of the viewed position's search (a stopped one continues
        one iteration deeper; with none, a paused search starts and steps)."""
        return self._step(None)

    def step_nodes(self, n: int) -> str:
        return self._step(n)

    def _step(self, n: int | None) -> str:
        eng = self.require_engine()
        if self.external:
            return f"stepping: {NOT_WITH_EXTERNAL}"
        pos = self._viewed
        if pos.is_over:
            return "the game is over: nothing to search"
        snap = self._current(eng)
        if snap is None:
            self._start(eng, pos, paused=True)
        ok = eng.search.step_iteration() if n is None else eng.search.step_nodes(n)
        self._step_unseen = ok
        if not ok and snap is not None and snap.result is not None:
            return f"the search is done (depth {snap.result.depth}): nothing to step; " \
                "g searches again"
        what = "one iteration" if n is None else f"{n:,} nodes"
        return f"stepping {what}"

    def set_node_limit(self, n: int) -> None:
        """A new ``Limits.nodes`` for the running search and the next ones."""
        self.settings.limits = dataclasses.replace(self.settings.limits or Limits(), nodes=n)
        eng = self._engine
        if eng is None:
            return
        eng.search.set_node_limit(n)
        snap = self._current(eng)
        if self.settings.auto and snap is not None and (
                snap.state is SearchState.NODE_LIMIT
                or self.external and snap.state.active):  # a running go cannot change
            self._start(eng, self._viewed)  # the old limit stopped it: go on

    def toggle_book(self) -> str:
        """The books on or off for the analysis search (a new search now, if auto); the
        exact values keep them."""
        if self.external:
            return f"books: {NOT_WITH_EXTERNAL} (its own options say)"
        s = self.settings
        s.options = dataclasses.replace(s.options, use_book=not s.options.use_book)
        eng = self._engine
        again = ""
        if eng is not None and self._analyse and not self._viewed.is_over:
            if s.auto:
                self._start(eng, self._viewed)
            elif self._current(eng) is not None:
                # a search with the old setting is not continued by n: n and g start anew
                eng.search.stop()
                self._search_key = None
                again = ": g analyses, n steps"
        if s.options.use_book:
            return f"books on for the analysis search{again}"
        return f"books off for the analysis search, not the exact values{again}"

    def cycle_multipv(self) -> str:
        """The next number of lines for the analysis search (1, 2, 3, every move, 1 ...);
        a new search now, if auto."""
        if self.external:
            return f"multi-PV: {NOT_WITH_EXTERNAL}"
        s = self.settings
        multipv = next((k for k in MULTIPV_STEPS if k > s.options.multipv), 1)
        s.options = dataclasses.replace(s.options, multipv=multipv)
        eng = self._engine
        if eng is not None and s.auto and self._analyse and not self._viewed.is_over:
            self._start(eng, self._viewed)
        if multipv == 1:
            return "multi-PV off: the best line"
        return "multi-PV: every move's line" if multipv == WIDTH \
            else f"multi-PV: the {multipv} best lines"

    def set_hash(self, mb: int) -> str:
        """New tables for the next search (and a new search now, if auto)."""
        self.settings.options = dataclasses.replace(self.settings.options, hash_mb=mb)
        eng = self._engine
        if eng is not None and self.settings.auto and not self._viewed.is_over:
            self._start(eng, self._viewed)
        if mb >= SLOW_HASH_MB:
            return f"hash {mb} MB: allocating the tables takes a few seconds"
        return f"hash {mb} MB"

    def take_note(self) -> str:
        """A warning from the engine's loading, once ("" after that, or when none)."""
        if self.state is not EngineState.READY:
            return ""
        note, self._loader.note = self._loader.note, ""
        return note

    def why_no_engine(self) -> str:
        """Why there is no engine, in one line: switched off, still loading, or failed."""
        state = self.state
        if state is EngineState.NOT_AVAILABLE:
            return "the engine is off (--no-engine)"
        if state is EngineState.FAILED:
            return f"the engine failed ({self._loader.message})"
        return f"the engine is not ready yet ({state.value})"

    def require_engine(self) -> Engine:
        """The engine; :class:`EngineMissing` (:meth:`why_no_engine`) while it is not
        there."""
        eng = self._engine
        if eng is None:
            raise EngineMissing(self.why_no_engine())
        return eng

    # ------------------------------------------------------------------ polling
    def tick(self) -> bool:
        """Called by the UI a few times a second: the solver's budget, column searches.
        True while something may change that no ``on_update`` tells of (the engine loads,
        a search runs, the solver or the column searches work, the engine thinks of its
        move, an external engine runs): False lets the UI stop polling until its next
        request or update."""
        self.player.tick()
        eng, exact, columns = self._engine, self._exact, self._columns
        if eng is None or exact is None or columns is None:
            return self.state.waiting or self.player.thinking()
        exact.tick()
        pos = self._viewed
        snap = self._current(eng)
        entry = exact.entry(pos)
        ended = snap is not None and snap.state in (SearchState.DONE, SearchState.NODE_LIMIT)
        gave_up = entry is not None and entry.status in (ExactStatus.TOO_SLOW,
                                                          ExactStatus.ERROR)
        # approximate values from the moment the solver is on the position (a solve
        # within the tick's quarter second, the usual case with the books, needs none)
        wanted = self._analyse and entry is not None and entry.status is not ExactStatus.DONE
        solved = [c for c, s in enumerate(entry.partial) if s is not None] if entry else []
        working = columns.tick(pos, wanted, deep=ended and gave_up, solved=solved)
        searching = snap is not None and snap.state is SearchState.SEARCHING
        # the pause a step ended in, found now: one redraw shows it (else the status line
        # said "searching", with the numbers of the moment the step began, until a key)
        stepped, self._step_unseen = self._step_unseen and not searching, \
            self._step_unseen and searching
        # an external engine's process may say something or die at any time
        return (working or searching or stepped or exact.busy or self.player.thinking()
                or self.external)

    def view(self, pos: Position) -> EngineView:
        """The engine's state as seen from the viewed position ``pos``."""
        eng, exact, columns = self._engine, self._exact, self._columns
        settings = dataclasses.replace(self.settings)
        ext = self._loader.external
        external = ext.status() if ext is not None else None
        if eng is None or exact is None or columns is None:
            return EngineView(self.state, settings, self._loader.message, external=external)
        snap = self._current(eng) if pos.key() == self._viewed.key() else None
        if external is not None and external.failed and snap is not None \
                and not snap.iterations:
            snap = None  # a dead engine's empty search: the panels say why instead
        path = eng.search.path() if snap is not None and snap.state is SearchState.PAUSED \
            else ()
        return EngineView(
            state=self.state, settings=settings, message=self._loader.message,
            search_available=True, solver_available=True, snapshot=snap, path=path,
            exact=exact.entry(pos), columns=columns.values(pos),
            column_lines=columns.lines(pos), verdict=exact.verdict(pos),
            known=self._known(exact, pos, snap), external=external,
            silent=ext.silence() if ext is not None and snap is not None else 0.0,
        )

    @staticmethod
    def _known(exact: ExactWorker, pos: Position, snap: Snapshot | None) -> Score | None:
        """``pos``'s own exact value without its analysis: its parent's solve gave it, or
        the search proved it (a recognised win or loss: the sign is exact)."""
        if pos.history:  # (a position set up without its moves has no parent to ask)
            parent = pos.copy()
            col = parent.undo()
            entry = exact.entry(parent)
            # a whole solve's, or the columns solved before it was given up
            scores = () if entry is None else entry.scores or entry.partial
            score = scores[col] if col < len(scores) else None
            if score is not None:
                return Score(-score, Band.EXACT)
        pov = snap.score if snap is not None else None
        return pov if pov is not None and pov.proven else None


class EngineMissing(RuntimeError):
    """A search command while the engine is not (yet) there; the message says why."""
