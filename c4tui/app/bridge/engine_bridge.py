"""The app's side of the engine seam: one object the UI talks to, on its own thread.

Every method returns at once. The work is done by the :class:`EngineLoader` (imports and
compiles in the background), the :class:`ExactWorker` (the solver's move values, given up
after a time budget), the engine's :class:`SearchController` (the live analysis search:
its ``start`` hands over to its own worker; :class:`LiveSearch`, ``bridge.search``, keeps
which position it belongs to and answers the search keys) and the :class:`ColumnAnalysis` (short
searches per column when the solver gives up). The UI reads :meth:`EngineBridge.view`
when ``on_update`` tells it something changed (the exact values, each iteration of the
search and each change of its state) and calls :meth:`tick` a few times a second to
advance the budget and the column searches. With ``--engine`` an :class:`ExternalSearch`
(a UGI process) takes the search's place (both are a ``SearchLike``); it cannot pause or
step, and ``bridge.search`` says so. :class:`BridgeLike` names what the app uses of it:
the seam a test's fake bridge (tests/fake_bridge.py) fills instead.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Protocol

from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, Score, SearchState, Snapshot

from .column_analysis import ColumnAnalysis
from .engine_view import EngineState, EngineView, ExactStatus
from .exact_worker import ExactWorker
from .live_search import LiveSearch
from .loader import Engine, EngineLoader
from .player import EnginePlayer, Reply
from .settings import SearchSettings

__all__ = ["BridgeFactory", "BridgeLike", "EngineBridge", "EngineState", "EngineView",
           "SearchSettings"]


class BridgeLike(Protocol):
    """What the app, its controllers and its drawing use of the engine's bridge: the
    :class:`EngineBridge`, or a test's scripted fake. Every call returns at once."""

    settings: SearchSettings
    #: the live analysis search of the viewed position, and the search keys' commands
    search: LiveSearch
    #: play mode's opponent
    player: EnginePlayer

    def start(self) -> None:
        """Begin loading the engine in the background."""

    def shutdown(self) -> None:
        """Stop every job without waiting for any."""

    @property
    def external(self) -> bool:
        """An external engine searches (``--engine``)."""

    @property
    def state(self) -> EngineState:
        """The engine's availability (loading, ready, failed, off)."""

    def set_position(self, pos: Position, *, force_search: bool = False,
                     analyse: bool = True) -> None:
        """The viewed position changed (``analyse`` False: neither solve nor search)."""

    def analyse(self) -> str:
        """Search the viewed position now; the message to show."""

    def take_note(self) -> str:
        """A warning from the engine's loading, once ("" when none)."""

    def why_no_engine(self) -> str:
        """Why there is no engine, in one line."""

    def require_engine(self) -> Engine:
        """The engine; :class:`EngineMissing` while it is not there."""

    def tick(self) -> bool:
        """The UI's poll; True while something may change that no update tells of."""

    def view(self, pos: Position) -> EngineView:
        """The engine's state as seen from the viewed position ``pos``."""


#: Builds the app's bridge from its settings, ``on_update`` and ``on_reply`` (see
#: :class:`EngineBridge`); ``C4App(bridge=...)`` takes one.
BridgeFactory = Callable[[SearchSettings, Callable[[], None], Callable[[Reply], None]],
                         BridgeLike]


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
        #: the live analysis search of the viewed position, and the search keys' commands
        self.search = LiveSearch(settings, lambda: self._engine, self.require_engine,
                                 lambda: self._loader.external,
                                 lambda: (self._viewed, self._analyse))
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
            self.search.key = None
        elif self.settings.auto or force_search:
            self.search.start(eng, pos)
        else:
            eng.search.stop()

    def analyse(self) -> str:
        """Search the viewed position now (also with auto-analysis off)."""
        eng = self.require_engine()
        if self._viewed.is_over:
            return "the game is over: nothing to search"
        ext = self._loader.external
        if ext is not None and ext.error:
            return ext.error  # it is not restarted: the status line keeps saying why
        self.set_position(self._viewed, force_search=True)
        return "analysing" if self.search.current(eng) is None else ""

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
        snap = self.search.current(eng)
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
        unseen = self.search.step_unseen
        stepped, self.search.step_unseen = unseen and not searching, unseen and searching
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
        snap = self.search.current(eng) if pos.key() == self._viewed.key() else None
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
