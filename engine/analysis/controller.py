"""The search controller: requests and state of the analysis search.

:class:`SearchController` takes the commands of a front end (start, pause, resume, steps,
stop) and keeps what a :meth:`SearchController.snapshot` shows; every method returns at
once. The search itself is MILTON's iterative deepening (engine/analysis/search.py's
:func:`~c4tui.engine.analysis.search.iterative_deepening`), run by a
:class:`~c4tui.engine.analysis.worker.Worker` thread (the kernels release the GIL) within a
:class:`~c4tui.engine.seam.Limits`, with the techniques of a
:class:`~c4tui.engine.seam.SearchOptions`. A search pauses exactly (the kernel sleeps in
place, using no CPU) and steps by iterations or nodes (:mod:`c4tui.engine.analysis.search_state`
holds that state machine); its time is a :class:`~c4tui.engine.analysis.clock.Clock`, its time
limit a :class:`~c4tui.engine.analysis.clock.TimeLimit`. A listener is called after each iteration
and state change. It is a :class:`~c4tui.engine.seam.SearchLike`. :func:`run_search` runs
one search to its end for scripts.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass

from ..board.geometry import IS_DEFAULT, SIZE, WIDTH
from ..board.position import Position
from ..books.link import BookLike
from ..seam import (
    IterationReport,
    Limits,
    Listener,
    PathEntry,
    SearchOptions,
    SearchResult,
    SearchState,
    Snapshot,
    check_node_limit,
)
from ..solver.solver import warmup_position
from . import kernel as K
from .buffers import Buffers
from .clock import Clock, TimeLimit
from .gate import Gate
from .search import BookRoots, SearchRun, iterative_deepening
from .search_state import Run
from .worker import Worker

__all__ = ["SearchController", "run_search"]

@dataclass(frozen=True)
class _Request:
    """A search for the worker: ``cont`` continues the last one (tables and iterations
    kept) one iteration deeper."""

    pos: Position
    limits: Limits
    opts: SearchOptions
    gen: int
    cont: bool = False

    @property
    def max_depth(self) -> int:
        """The deepest iteration: ``limits.depth``, at most the empty squares."""
        empties = SIZE - self.pos.ply
        return empties if self.limits.depth is None else min(self.limits.depth, empties)


class SearchController:
    """Runs analysis searches in a worker thread; every method returns promptly.

    :meth:`start` only hands the position to the worker (which stops the previous search,
    allocates the tables and loads the book), so a UI may call it from its own thread.
    Commands that arrive while the worker prepares apply to the new search once it runs.

    The kernel's buffers are a :class:`Buffers` (engine/analysis/buffers.py), the search
    loop engine/analysis/search.py's, the pause/step commands a :class:`Gate`
    (engine/analysis/gate.py, around engine/analysis/search_state.py's state machine), the
    thread a :class:`Worker` (engine/analysis/worker.py), the time a :class:`Clock`
    (engine/analysis/clock.py).
    """

    def __init__(self, nice: int = 0, book: BookLike | None = None) -> None:
        """``nice``: run the worker this much below the process's CPU priority (Linux;
        capped at 19; a UI keeps the cores it needs), whichever thread calls :meth:`start`.
        ``book``: the books the searches probe when their options say ``use_book``
        (``c4tui.book.load_default()``)."""
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._buf = Buffers()
        self._worker: Worker[_Request] = Worker(self._cond, self._run, self._failed, nice)
        self._gen = 0  # number of the newest search; older ones publish nothing
        self._last: _Request | None = None  # the newest search (for a continuation)
        self._gate = Gate(self._buf.ctl, self._cond)  # pause, steps, stop, node limit
        self._nodes_base = 0  # nodes shown while preparing (a continuation keeps its count)
        self._state = SearchState.IDLE
        self._iterations: list[IterationReport] = []
        self._result: SearchResult | None = None
        self._depth = 0
        self._clock = Clock()
        self._time_limit = TimeLimit()
        self._error: BaseException | None = None
        self._listener: Listener | None = None
        self._books = book  # what the searches probe when their options use a book
        self._roots = BookRoots()  # answers roots that are in the books

    # -------------------------------------------------------------- commands
    def start(self, pos: Position, limits: Limits, options: SearchOptions | None = None, *,
              paused: bool = False) -> None:
        """Search ``pos`` within ``limits`` (the running search, if any, is stopped);
        returns at once. ``options``: the techniques and table size (None: the defaults).

        ``paused``: prepare the search but wait for :meth:`resume` or a step.
        """
        if pos.is_over:
            raise ValueError("start: the game is over, there is nothing to search")
        with self._cond:
            self._gen += 1
            self._last = _Request(pos.copy(), limits, options or SearchOptions(), self._gen)
            self._gate.unwind()
            self._gate.node_limit = limits.nodes
            self._publish_start(paused, keep=False)
            self._start_timer(limits.time, self._gen)
            self._worker.submit(self._last)

    def pause(self) -> None:
        """Pause the search where it is (inside the kernel, at the next node)."""
        with self._cond:
            if self._state is SearchState.SEARCHING and self._gate.pause():
                self._clock.pause()

    def resume(self) -> None:
        """Continue a paused search to its end (or its limits)."""
        with self._cond:
            if self._state.active and self._gate.resume():
                self._clock.resume()

    def step_iteration(self) -> bool:
        """Run to the end of the next iteration (the current one if paused inside it),
        then pause. A search that was stopped or reached its node limit continues one
        iteration deeper, with its tables (stepping ignores the node limit until
        :meth:`resume`). False if there is nothing to step (no search, or it is done)."""
        with self._cond:
            if self._state.active:
                if self._gate.step_iteration():
                    self._clock.resume()
                ok = True
            else:
                ok = self._continue_locked(step_iteration=True, pause_at=K.NEVER)
        return ok

    def step_nodes(self, n: int) -> bool:
        """Run ``n`` more nodes, then pause (counting continues across iterations); a
        stopped search continues as in :meth:`step_iteration`. False if nothing to step."""
        if n < 1:
            raise ValueError(f"step nodes {n}: expected a positive count")
        with self._cond:
            if self._state.active:
                if self._gate.step_nodes(n, self._gate.nodes(self._nodes_base)):
                    self._clock.resume()
                ok = True
            else:
                res = self._result
                ok = res is not None and self._continue_locked(
                    step_iteration=False, pause_at=res.nodes + n)
        return ok

    def set_node_limit(self, nodes: int | None) -> None:
        """Change the node limit (``Limits.nodes``) of the running search (None:
        unlimited)."""
        check_node_limit(nodes)
        with self._cond:
            self._gate.set_node_limit(nodes)

    def stop(self) -> None:
        """Ask the search to stop; returns at once (the worker ends it within milliseconds)."""
        with self._cond:
            self._gate.stop()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the search and wait for the worker to end."""
        with self._cond:
            if self._worker.withdraw() is not None and self._gate.setup:  # never began
                self._finish(self._gen, SearchState.STOPPED, None)
            self._gate.stop()
        self._worker.join(timeout)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the search ends; False on timeout. Not for the UI thread."""
        with self._cond:
            return self._cond.wait_for(lambda: self._worker.idle, timeout)

    def wait_paused(self, timeout: float | None = None) -> bool:
        """Block until the search is actually paused, or has ended; False on timeout."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                if not self._state.active or self._gate.paused():
                    return True
            if end is not None and time.monotonic() >= end:
                return False
            time.sleep(0.001)

    def listen(self, listener: Listener | None) -> None:
        """Call ``listener`` from the search's thread after each iteration and each change
        of state it makes (an end, a step's pause): a UI need not poll for them. Commands
        (pause, resume ...) are not reported back to their caller. It must return at once
        and not call back into the controller. None: no more calls."""
        self._listener = listener

    # ------------------------------------------------------------ queries
    @property
    def state(self) -> SearchState:
        return self.snapshot().state

    def snapshot(self) -> Snapshot:
        """A consistent view of the search; never waits for the search."""
        with self._lock:
            state = self._state
            if state.active:
                paused = self._gate.steer.run is Run.PAUSE or self._gate.paused()
                state = SearchState.PAUSED if paused else SearchState.SEARCHING
                if paused:
                    self._clock.pause()
            res = self._result
            nodes = self._gate.nodes(self._nodes_base)
            if res is not None:  # a root answered without the kernel reports its own count
                nodes = res.nodes
            elapsed = self._active()
            its = tuple(self._iterations)
            last = its[-1] if its else None
            top = res if res is not None else last
            return Snapshot(
                state=state,
                depth=self._depth,
                nodes=nodes,
                nps=int(nodes / elapsed) if elapsed > 0 else 0,
                elapsed=elapsed,
                best_move=top.best_move if top else None,
                score=top.score if top else None,
                iterations=its,
                result=res,
                value=top.value if top else None,
                preparing=self._gate.setup and state.active,
                lines=top.lines if top else (),
            )

    def path(self) -> tuple[PathEntry, ...]:
        """The search path while the kernel is paused (empty otherwise)."""
        with self._lock:
            if not self._state.active or not self._gate.kernel_paused():
                return ()
            return self._buf.paused_path()

    @property
    def result(self) -> SearchResult | None:
        with self._lock:
            return self._result

    @property
    def error(self) -> BaseException | None:
        """An exception raised in the search thread (a bug), if any."""
        return self._error

    # ------------------------------------------------------------ internals
    def _changed(self) -> None:
        """Tell the listener (never with the lock held: it may take a snapshot)."""
        listener = self._listener
        if listener is not None:
            listener()

    def _start_timer(self, seconds: float | None, gen: int) -> None:
        """``Limits.time``: stop search ``gen`` that many seconds from now."""

        def time_up() -> None:
            with self._cond:
                if gen == self._gen:
                    self._gate.stop()

        self._time_limit.start(seconds, time_up)

    def _publish_start(self, paused: bool, keep: bool) -> None:
        """Reset what a snapshot shows for a new search (``keep``: a continuation)."""
        if keep:
            self._nodes_base = self._result.nodes if self._result is not None else 0
        else:
            self._nodes_base = 0
            self._iterations = []
        self._clock.start(paused, continuation=keep)
        self._gate.begin(paused, continuation=keep)
        self._result = None
        self._depth = len(self._iterations) + 1
        self._error = None
        self._state = SearchState.SEARCHING

    def _continue_locked(self, step_iteration: bool, pause_at: int) -> bool:
        last = self._last
        if last is None or self._state not in (SearchState.STOPPED, SearchState.NODE_LIMIT):
            return False
        if self._iterations and self._iterations[-1].depth >= last.max_depth:
            return False
        self._gen += 1
        self._last = dataclasses.replace(last, gen=self._gen, cont=True)
        self._publish_start(False, keep=True)
        if step_iteration:
            self._gate.steer.step_iteration(paused=False)
        else:
            self._gate.steer.step_nodes(pause_at)
        self._worker.submit(self._last)
        return True

    def _failed(self, req: _Request, e: BaseException) -> None:
        """The search raised (a bug, worker thread): reported by :attr:`error`."""
        self._error = e
        with self._lock:
            self._finish(req.gen, SearchState.STOPPED, None)
        self._changed()

    def _run(self, req: _Request) -> None:
        """Prepare and run one search (worker thread)."""
        # Tables, control words and book, without the lock: a large table takes seconds
        # to allocate.
        book = self._books if req.opts.use_book else None
        self._buf.prepare(req.opts, req.cont, book)
        with self._cond:
            if req.gen != self._gen:  # superseded while preparing
                return
            self._gate.attach()
            done = tuple(self._iterations) if req.cont else ()
        run = SearchRun(req.pos, req.opts, req.max_depth, self._buf, book, self._roots, done)
        iterative_deepening(run, _Host(self, req.gen))

    def _active(self) -> float:
        """Seconds searched (lock held): the running search's, or the last one's."""
        if not self._state.active and self._result is not None:
            return self._clock.final
        if self._state is SearchState.IDLE:
            return 0.0
        return self._clock.running()

    def _elapsed(self) -> float:
        with self._lock:
            return self._active()

    def _pause_point(self, gen: int, depth: int) -> bool:
        """Before iteration ``depth`` of search ``gen`` (worker thread): wait while paused;
        False if the search must end (stop or limit)."""
        with self._cond:
            if gen == self._gen:
                self._depth = depth  # the iteration about to run (or paused before)
            return self._gate.pause_point()

    # ------------------------------------------------------------ what the search tells
    def _publish(self, gen: int, rep: IterationReport) -> bool:
        """Add an iteration's report; False if search ``gen`` was superseded (the new
        search publishes)."""
        with self._lock:
            if gen != self._gen:
                return False
            self._iterations.append(rep)
            if self._gate.iteration_done():  # step_iteration(): pause after this one
                self._clock.pause()
        self._changed()
        return True

    def _end(self, gen: int, res: SearchResult, alone: IterationReport | None) -> None:
        """Search ``gen`` ended with ``res`` (``alone``: answered by that one report)."""
        with self._lock:
            if alone is not None and gen == self._gen:
                self._iterations = [alone]
            self._finish(gen, res.reason, res)
        self._changed()

    def _finish(self, gen: int, state: SearchState, res: SearchResult | None) -> None:
        """End search ``gen`` (lock held); nothing happens if a newer one was started."""
        if gen != self._gen:
            return
        self._clock.stop()
        self._result = res
        self._state = state
        self._gate.end()
        self._depth = self._iterations[-1].depth if self._iterations else 0
        self._time_limit.cancel()
        self._cond.notify_all()


class _Host:
    """What search ``gen`` tells the controller, and asks it (engine/analysis/search.py's
    :class:`~c4tui.engine.analysis.search.Host`)."""

    def __init__(self, controller: SearchController, gen: int) -> None:
        self._c = controller
        self._gen = gen

    def pause_point(self, depth: int) -> bool:
        return self._c._pause_point(self._gen, depth)

    def elapsed(self) -> float:
        return self._c._elapsed()

    def publish(self, rep: IterationReport) -> bool:
        return self._c._publish(self._gen, rep)

    def end(self, result: SearchResult, alone: IterationReport | None = None) -> None:
        self._c._end(self._gen, result, alone)


def run_search(pos: Position, limits: Limits, options: SearchOptions | None = None,
               controller: SearchController | None = None,
               book: BookLike | None = None) -> SearchResult:
    """Search ``pos`` within ``limits`` to the end, in this thread's time (a convenience
    for scripts); ``book`` is for a controller made here."""
    ctl = controller or SearchController(book=book)
    ctl.start(pos, limits, options)
    ctl.wait()
    if ctl.error is not None:
        raise ctl.error
    res = ctl.result
    assert res is not None
    return res


def _warmup() -> None:
    """Load (or compile) every analysis kernel: called by ``c4tui.engine.warmup``."""
    from ..board.bitboard import word
    from .eval import threat_fill

    threat_fill(word(0), word(0))
    ctl = SearchController()
    # an opening (evaluation, quiescence, tables) and an endgame (recognizer, exact mode)
    if IS_DEFAULT:
        positions = [Position.from_moves(m)
                     for m in ("4453", "5252153716735222535361161417246636774")]
    else:
        positions = [Position.from_moves([WIDTH // 2 + 1] * 2), warmup_position()]
    for pos in positions:
        ctl.start(pos, Limits(nodes=2_000), SearchOptions(use_book=True))
        ctl.wait()

    ctl.close()

