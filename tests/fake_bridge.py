"""A scripted stand-in for the app's engine bridge, for pilot tests whose subject is the UI.

``C4App(..., bridge=fake_bridge(...))`` builds a :class:`FakeBridge` instead of the real
:class:`~c4tui.app.bridge.engine_bridge.EngineBridge`: no engine loads, nothing is solved
or searched, no thread runs. What it answers is what the test scripted, and by default
only real numbers: the exact column values of a position in tests/data/positions.txt
(an independent solver's), a search whose iterations report those values, and the
threat verdict of the engine's own (microseconds) evaluation. A position that is not in the
data and not scripted stays "solving" and its search runs without an iteration: the panels
show waiting, never a made-up value.

Deterministic: every answer is there when the position is set (a search that is not
paused ends at once, each iteration told to the app through ``on_update`` as the real
search's thread does), so a test waits on the app's own redraw, never on the clock.

The search keys go through the real :class:`~c4tui.app.bridge.live_search.LiveSearch` (its
messages, its multi-PV steps, its node limit) on a scripted :class:`FakeSearch`; the
review (``R``) gets a fake engine record whose solver carries the real books, and runs
the real review worker (its own solver): its marks are real. Play mode's opponent finds no
move here: play tests use the real bridge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from c4tui.engine.board.geometry import WIDTH
from c4tui.engine.board.position import Position
from c4tui.engine.seam import (
    Band,
    IterationReport,
    Limits,
    Listener,
    PathEntry,
    PvLine,
    Score,
    SearchOptions,
    SearchResult,
    SearchState,
    Snapshot,
    ThreatVerdict,
)
from testdata import load_positions

from c4tui.app.bridge.engine_bridge import BridgeFactory, EngineMissing
from c4tui.app.bridge.engine_view import EngineState, EngineView, ExactEntry, ExactStatus
from c4tui.app.bridge.live_search import LiveSearch
from c4tui.app.bridge.loader import Engine
from c4tui.app.bridge.player import EnginePlayer, Reply
from c4tui.app.bridge.settings import SearchSettings

#: Nodes each scripted iteration reports, and its seconds: the fake's own bookkeeping (a
#: snapshot test shows them; no test asserts them as the engine's).
NODES_PER_ITERATION = 1000
SECONDS_PER_ITERATION = 0.01


@cache
def _data() -> dict[int, tuple[int | None, ...]]:
    """tests/data/positions.txt's column values by position key."""
    return {Position.from_moves(moves).key(): tuple(cols)
            for moves, _score, cols in load_positions()}


def data_scores(moves: str) -> tuple[int | None, ...]:
    """The exact column values (side to move's view, None: full) of the position after
    ``moves`` from tests/data/positions.txt; KeyError if the data does not have it."""
    return _data()[Position.from_moves(moves).key()]


def exact_entry(scores: Sequence[int | None]) -> ExactEntry:
    """A finished solve with these column values and no lines (none are coming)."""
    return ExactEntry(ExactStatus.DONE, scores=tuple(scores), lines_done=True)


@dataclass(frozen=True)
class SearchScript:
    """What the fake search of one position reports: ``depth`` iterations, each with the
    column values ``scores`` (exact: take them from tests/data) as its lines, best first;
    ``pv``: the best line's moves after the first (0-based), if known."""

    scores: tuple[int | None, ...]
    depth: int = 3
    pv: tuple[int, ...] = ()

    def lines(self, multipv: int) -> tuple[PvLine, ...]:
        """The ``multipv`` best columns (ties: the one nearer the centre first)."""
        order = sorted((c for c in range(WIDTH) if self.scores[c] is not None),
                       key=lambda c: (-cast(int, self.scores[c]), abs(c - WIDTH // 2)))
        return tuple(PvLine(c, Score(cast(int, self.scores[c]), Band.EXACT),
                            (c, *self.pv) if i == 0 else (c,))
                     for i, c in enumerate(order[:max(1, multipv)]))

    def iteration(self, depth: int, multipv: int, total_nodes: int) -> IterationReport:
        """The report of iteration ``depth``."""
        lines = self.lines(multipv)
        best = lines[0]
        return IterationReport(
            depth=depth, alpha=-64, beta=64, fail_highs=0, fail_lows=0, score=best.score,
            best_move=best.move, nodes=NODES_PER_ITERATION,
            nps=int(NODES_PER_ITERATION / SECONDS_PER_ITERATION), tt_probes=0, tt_hits=0,
            hit_rate=0.0, tt_fill=0.0, elapsed=SECONDS_PER_ITERATION, pv=best.pv,
            total_nodes=total_nodes, total_elapsed=depth * SECONDS_PER_ITERATION,
            lines=lines)


class FakeSearch:
    """A ``SearchLike`` whose iterations are scripted per position: a search that is not
    paused runs them all at once (each told to the listener); a paused one steps them. A
    position without a script searches without ever finishing an iteration."""

    def __init__(self, scripts: Callable[[Position], SearchScript | None]) -> None:
        self._scripts = scripts
        self._listener: Listener | None = None
        self._script: SearchScript | None = None
        self._multipv = 1
        self._node_limit: int | None = None
        self._done: list[IterationReport] = []
        self._extra_nodes = 0
        self._state = SearchState.IDLE
        #: every position searched, in order (what a test can check was asked for)
        self.started: list[Position] = []

    # ------------------------------------------------------------------ SearchLike
    def start(self, pos: Position, limits: Limits, options: SearchOptions | None = None,
              *, paused: bool = False) -> None:
        """Search ``pos``: at once to the end, or (``paused``) ready to step."""
        self.started.append(pos.copy())
        self._script = self._scripts(pos)
        self._multipv = (options or SearchOptions()).multipv
        self._node_limit = limits.nodes
        self._done, self._extra_nodes = [], 0
        self._state = SearchState.PAUSED if paused else SearchState.SEARCHING
        self._tell()
        if not paused:
            self.resume()

    def pause(self) -> None:
        if self._state is SearchState.SEARCHING:
            self._state = SearchState.PAUSED
            self._tell()

    def resume(self) -> None:
        """Every iteration left, each told; a position without a script keeps searching."""
        if not self._state.active:
            return
        self._state = SearchState.SEARCHING
        while self._state is SearchState.SEARCHING and self._script is not None:
            self._next()

    def step_iteration(self) -> bool:
        if not self._state.active or self._script is None:
            return False
        self._state = SearchState.PAUSED
        self._next()
        return True

    def step_nodes(self, n: int) -> bool:
        """``n`` more nodes within the iteration in progress, then paused."""
        if not self._state.active:
            return False
        self._extra_nodes += n
        # as the real kernel's node step, which pauses inside an iteration and tells no
        # listener: the bridge's tick finds the pause (LiveSearch.step_unseen)
        self._state = SearchState.PAUSED
        return True

    def set_node_limit(self, nodes: int | None) -> None:
        self._node_limit = nodes

    def stop(self) -> None:
        if self._state.active:
            self._state = SearchState.STOPPED
            self._tell()

    def snapshot(self) -> Snapshot:
        last = self._done[-1] if self._done else None
        nodes = self._nodes()
        result = None
        if last is not None and not self._state.active:
            result = SearchResult(last.best_move, last.score, last.pv, nodes, last.depth,
                                  self._state, lines=last.lines)
        return Snapshot(
            state=self._state, depth=len(self._done) + (1 if self._state.active else 0),
            nodes=nodes, nps=last.nps if last else 0,
            elapsed=len(self._done) * SECONDS_PER_ITERATION,
            best_move=last.best_move if last else None, score=last.score if last else None,
            iterations=tuple(self._done), result=result,
            lines=last.lines if last else ())

    def path(self) -> tuple[PathEntry, ...]:
        return ()

    @property
    def state(self) -> SearchState:
        return self._state

    @property
    def result(self) -> SearchResult | None:
        return self.snapshot().result

    def wait(self, timeout: float | None = None) -> bool:
        return not self._state.active

    def listen(self, listener: Listener | None) -> None:
        self._listener = listener

    # ------------------------------------------------------------------ the script
    def _nodes(self) -> int:
        return len(self._done) * NODES_PER_ITERATION + self._extra_nodes

    def _next(self) -> None:
        """The next iteration; the end after the last one (or at the node limit)."""
        script = self._script
        assert script is not None
        depth = len(self._done) + 1
        self._done.append(script.iteration(depth, self._multipv,
                                           self._nodes() + NODES_PER_ITERATION))
        if depth >= script.depth:
            self._state = SearchState.DONE
        elif self._node_limit is not None and self._nodes() >= self._node_limit:
            self._state = SearchState.NODE_LIMIT
        self._tell()

    def _tell(self) -> None:
        if self._listener is not None:
            self._listener()


@dataclass(frozen=True)
class FakeSolver:
    """The part of the solver the app reads through ``require_engine``: the review (R)
    hands its books to the review worker, which solves with its own solver."""

    book: Any


class FakeBridge:
    """:class:`~c4tui.app.bridge.engine_bridge.BridgeLike`, scripted (see the module's
    docstring). ``exact``: column values per move string (default: tests/data's);
    ``searches``: search scripts per move string (default: tests/data's values, ``depth``
    iterations); ``verdicts``: threat verdicts per move string (default: the engine's own
    evaluation); ``state``/``message``: the engine's state (:meth:`become` changes it);
    ``note``: a loading warning said once when ready."""

    def __init__(self, settings: SearchSettings, on_update: Callable[[], None],
                 on_reply: Callable[[Reply], None], *,
                 state: EngineState = EngineState.READY, message: str = "",
                 exact: Mapping[str, ExactEntry | Sequence[int | None]] | None = None,
                 searches: Mapping[str, SearchScript] | None = None,
                 verdicts: Mapping[str, ThreatVerdict | None] | None = None,
                 depth: int = 3, note: str = "") -> None:
        self.settings = settings
        self._on_update = on_update
        self._state, self._message, self._note = state, message, note
        self._exact = {Position.from_moves(m).key(): e if isinstance(e, ExactEntry)
                       else exact_entry(e) for m, e in (exact or {}).items()}
        self._searches = {Position.from_moves(m).key(): s for m, s in (searches or {}).items()}
        self._verdicts = {Position.from_moves(m).key(): v for m, v in (verdicts or {}).items()}
        self._depth = depth
        self._viewed = Position()
        self._analyse = True
        self.engine_search = FakeSearch(self._script)
        self.engine_search.listen(on_update)
        self._engine: Engine | None = None
        self.started = False
        self.search = LiveSearch(settings, self._ready_engine, self.require_engine,
                                 lambda: None, lambda: (self._viewed, self._analyse))
        #: play mode's opponent: never given an engine here (play tests use the real one)
        self.player = EnginePlayer(lambda: None, on_reply)

    # ------------------------------------------------------------------ the script
    def _script(self, pos: Position) -> SearchScript | None:
        script = self._searches.get(pos.key())
        if script is not None:
            return script
        scores = self._scores(pos)
        return None if scores is None else SearchScript(scores, self._depth)

    def _scores(self, pos: Position) -> tuple[int | None, ...] | None:
        entry = self.exact(pos)
        return entry.scores if entry is not None and entry.scores else None

    def exact(self, pos: Position) -> ExactEntry | None:
        """The scripted (or tests/data's) solve of ``pos``; None: not known here."""
        entry = self._exact.get(pos.key())
        if entry is None:
            scores = _data().get(pos.key())
            entry = None if scores is None else exact_entry(scores)
        return entry

    def verdict(self, pos: Position) -> ThreatVerdict | None:
        """The scripted verdict, else the engine's own evaluation (as the exact worker
        gives it, for a position it analyses)."""
        if pos.key() in self._verdicts:
            return self._verdicts[pos.key()]
        if not self._analyse:
            return None
        from c4tui.engine.analysis.verdict import threat_verdict

        return threat_verdict(pos)

    def become(self, state: EngineState, message: str = "") -> None:
        """The engine's state changes (loading → ready, or failed): the app is told, and a
        ready engine takes on the viewed position."""
        self._state, self._message = state, message
        if state is EngineState.READY:
            self.set_position(self._viewed, analyse=self._analyse)
        self._on_update()

    def _ready_engine(self) -> Engine | None:
        if self._state is not EngineState.READY:
            return None
        if self._engine is None:
            from c4tui.book import load_default

            self._engine = Engine(solver=cast(Any, FakeSolver(load_default())),
                                  search=self.engine_search, columns=cast(Any, None))
        return self._engine

    # ------------------------------------------------------------------ BridgeLike
    def start(self) -> None:
        self.started = True

    def shutdown(self) -> None:
        self.engine_search.stop()
        self.player.shutdown()

    @property
    def external(self) -> bool:
        return False

    @property
    def state(self) -> EngineState:
        return self._state

    def set_position(self, pos: Position, *, force_search: bool = False,
                     analyse: bool = True) -> None:
        """As the real bridge: search the viewed position if auto (or forced)."""
        self._viewed, self._analyse = pos.copy(), analyse
        eng = self._ready_engine()
        if eng is None:
            return
        if pos.is_over or not analyse:
            self.engine_search.stop()
            self.search.key = None
        elif self.settings.auto or force_search:
            self.search.start(eng, pos)
        else:
            self.engine_search.stop()
        self._on_update()  # the exact values are "ready" at once

    def analyse(self) -> str:
        eng = self.require_engine()
        if self._viewed.is_over:
            return "the game is over: nothing to search"
        self.set_position(self._viewed, force_search=True)
        return "analysing" if self.search.current(eng) is None else ""

    def take_note(self) -> str:
        if self._state is not EngineState.READY:
            return ""
        note, self._note = self._note, ""
        return note

    def why_no_engine(self) -> str:
        if self._state is EngineState.NOT_AVAILABLE:
            return "the engine is off (--no-engine)"
        if self._state is EngineState.FAILED:
            return f"the engine failed ({self._message})"
        return f"the engine is not ready yet ({self._state.value})"

    def require_engine(self) -> Engine:
        eng = self._ready_engine()
        if eng is None:
            raise EngineMissing(self.why_no_engine())
        return eng

    def tick(self) -> bool:
        """True while the fake search runs (a position without a script) or pauses with
        a step not yet drawn, as the real bridge's tick."""
        self.player.tick()
        eng = self._ready_engine()
        if eng is None:
            return self._state.waiting
        snap = self.search.current(eng)
        searching = snap is not None and snap.state is SearchState.SEARCHING
        unseen = self.search.step_unseen
        stepped, self.search.step_unseen = unseen and not searching, unseen and searching
        return searching or stepped

    def view(self, pos: Position) -> EngineView:
        settings = dataclasses.replace(self.settings)
        eng = self._ready_engine()
        if eng is None:
            return EngineView(self._state, settings, self._message)
        snap = self.search.current(eng) if pos.key() == self._viewed.key() else None
        entry = self.exact(pos)
        if entry is None and pos.key() == self._viewed.key() and self._analyse \
                and not pos.is_over:
            entry = ExactEntry(ExactStatus.SOLVING)
        return EngineView(
            state=self._state, settings=settings, message=self._message,
            search_available=True, solver_available=True, snapshot=snap,
            exact=entry, verdict=self.verdict(pos), known=self._known(pos))

    def _known(self, pos: Position) -> Score | None:
        """``pos``'s exact value from its parent's values, as the real bridge knows it."""
        if not pos.history:
            return None
        parent = pos.copy()
        col = parent.undo()
        entry = self.exact(parent)
        score = entry.scores[col] if entry is not None and col < len(entry.scores) else None
        return None if score is None else Score(-score, Band.EXACT)


def fake_bridge(**script: Any) -> BridgeFactory:
    """A factory for ``C4App(bridge=...)`` that builds a :class:`FakeBridge` with
    ``script`` (its keyword arguments)."""

    def make(settings: SearchSettings, on_update: Callable[[], None],
             on_reply: Callable[[Reply], None]) -> FakeBridge:
        return FakeBridge(settings, on_update, on_reply, **script)

    return make
