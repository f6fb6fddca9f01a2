"""The live analysis search of the viewed position, and the keys that drive it.

The engine's ``SearchController`` (or, with ``--engine``, an :class:`ExternalSearch`,
which cannot pause or step: the answer says so) searches the position the bridge views;
the search keys start, pause, step and stop it, and the settings it searches with (the
node limit, the books, multi-PV, the hash) restart it when they change. One of the
bridge's jobs, beside the :class:`ExactWorker` and the :class:`ColumnAnalysis`: every
method returns at once with the message to show.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from c4tui.engine.board.geometry import WIDTH
from c4tui.engine.board.position import Position
from c4tui.engine.seam import SLOW_HASH_MB, Limits, SearchState, Snapshot

from .external_search import ExternalSearch
from .loader import Engine
from .settings import SearchSettings

#: The numbers of lines key ``m`` steps through (the last: every move).
MULTIPV_STEPS = (1, 2, 3, WIDTH)
#: What pausing and stepping answer with an external engine (UGI has neither).
NOT_WITH_EXTERNAL = "not available with an external engine"


class LiveSearch:
    """The search of the viewed position: which position it belongs to, and its keys."""

    def __init__(self, settings: SearchSettings, engine: Callable[[], Engine | None],
                 require: Callable[[], Engine],
                 external: Callable[[], ExternalSearch | None],
                 viewed: Callable[[], tuple[Position, bool]]) -> None:
        """``engine``: the loaded engine or None; ``require``: it, or ``EngineMissing``
        saying why not; ``external``: the external engine, if any; ``viewed``: the
        bridge's viewed position and whether it is to be analysed."""
        self.settings = settings
        self._engine, self._require, self._external = engine, require, external
        self._viewed_now = viewed
        self.key: int | None = None  #: the position the search belongs to
        #: a step was asked for and its pause not yet drawn: a node step pauses inside the
        #: kernel, which tells no listener, so the tick that finds the pause redraws
        self.step_unseen = False

    @property
    def viewed(self) -> Position:
        return self._viewed_now()[0]

    @property
    def analysing(self) -> bool:
        return self._viewed_now()[1]

    @property
    def external(self) -> bool:
        return self._external() is not None

    def start(self, eng: Engine, pos: Position, paused: bool = False) -> None:
        """Search ``pos`` with the settings (``paused``: ready to step)."""
        s = self.settings
        eng.search.start(pos, s.search_limits(self.external), s.options, paused=paused)
        self.key = pos.key()

    def current(self, eng: Engine) -> Snapshot | None:
        """The search's snapshot if it belongs to the viewed position."""
        if self.key != self.viewed.key():
            return None
        return eng.search.snapshot()

    def toggle_pause(self) -> str:
        """Pause or resume; the message says what happened."""
        eng = self._require()
        if self.external:
            return f"pause: {NOT_WITH_EXTERNAL} (space stops it)"
        snap = self.current(eng)
        if snap is None or not snap.state.active:
            return self.idle_hint(snap)
        if snap.state is SearchState.PAUSED:
            eng.search.resume()
            return "resumed"
        eng.search.pause()
        return "paused"

    def stop(self) -> str:
        eng = self._require()
        snap = self.current(eng)
        if snap is None or not snap.state.active:
            return self.idle_hint(snap)
        eng.search.stop()
        return "stopped"

    def idle_hint(self, snap: Snapshot | None) -> str:
        """What the search keys can do while no search of the viewed position runs
        (``snap``: its ended search, if any): only what is true now, so that the key it
        names does not answer "nothing to do"."""
        if self.viewed.is_over:
            return "the game is over: nothing to search"
        if snap is not None and snap.state is SearchState.DONE and snap.result is not None:
            return f"the search is done (depth {snap.result.depth}): g searches again"
        ext = self._external()
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
        eng = self._require()
        if self.external:
            return f"stepping: {NOT_WITH_EXTERNAL}"
        pos = self.viewed
        if pos.is_over:
            return "the game is over: nothing to search"
        snap = self.current(eng)
        if snap is None:
            self.start(eng, pos, paused=True)
        ok = eng.search.step_iteration() if n is None else eng.search.step_nodes(n)
        self.step_unseen = ok
        if not ok and snap is not None and snap.result is not None:
            return f"the search is done (depth {snap.result.depth}): nothing to step; " \
                "g searches again"
        what = "one iteration" if n is None else f"{n:,} nodes"
        return f"stepping {what}"

    def set_node_limit(self, n: int) -> None:
        """A new ``Limits.nodes`` for the running search and the next ones."""
        self.settings.limits = dataclasses.replace(self.settings.limits or Limits(), nodes=n)
        eng = self._engine()
        if eng is None:
            return
        eng.search.set_node_limit(n)
        snap = self.current(eng)
        if self.settings.auto and snap is not None and (
                snap.state is SearchState.NODE_LIMIT
                or self.external and snap.state.active):  # a running go cannot change
            self.start(eng, self.viewed)  # the old limit stopped it: go on

    def toggle_book(self) -> str:
        """The books on or off for the analysis search (a new search now, if auto); the
        exact values keep them."""
        if self.external:
            return f"books: {NOT_WITH_EXTERNAL} (its own options say)"
        s = self.settings
        s.options = dataclasses.replace(s.options, use_book=not s.options.use_book)
        eng = self._engine()
        again = ""
        if eng is not None and self.analysing and not self.viewed.is_over:
            if s.auto:
                self.start(eng, self.viewed)
            elif self.current(eng) is not None:
                # a search with the old setting is not continued by n: n and g start anew
                eng.search.stop()
                self.key = None
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
        eng = self._engine()
        if eng is not None and s.auto and self.analysing and not self.viewed.is_over:
            self.start(eng, self.viewed)
        if multipv == 1:
            return "multi-PV off: the best line"
        return "multi-PV: every move's line" if multipv == WIDTH \
            else f"multi-PV: the {multipv} best lines"

    def set_hash(self, mb: int) -> str:
        """New tables for the next search (and a new search now, if auto)."""
        self.settings.options = dataclasses.replace(self.settings.options, hash_mb=mb)
        eng = self._engine()
        if eng is not None and self.settings.auto and not self.viewed.is_over:
            self.start(eng, self.viewed)
        if mb >= SLOW_HASH_MB:
            return f"hash {mb} MB: allocating the tables takes a few seconds"
        return f"hash {mb} MB"
