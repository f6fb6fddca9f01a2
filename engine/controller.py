"""The search controller: MILTON's iterative deepening in a background thread.

:class:`SearchController` runs the analysis search of :mod:`c4tui.engine.search` in a
worker thread (the kernels release the GIL) within a :class:`~c4tui.engine.seam.Limits`,
with the techniques of a :class:`~c4tui.engine.seam.SearchOptions`; it can pause it
exactly (the kernel sleeps in place, using no CPU), step it by iterations or nodes
(:mod:`c4tui.engine.search_state` holds that state machine), answers a root that is in
the books from them, offers a non-blocking :meth:`SearchController.snapshot` for a UI to
poll and calls a listener after each iteration and state change. It is a
:class:`~c4tui.engine.seam.SearchLike`. :func:`run_search` runs one search to its end for
scripts.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from dataclasses import dataclass

from . import analysis_kernel as K
from .analysis_eval import INF, WIN
from .analysis_tt import zobrist_key
from .book_line import BookAnswer, book_answer
from .booklink import BookLike
from .deepening import Deepening, Iteration, fallback_move, lost_line, report, root_moves
from .geometry import CENTER_ORDER, IS_DEFAULT, SIZE, WIDTH
from .position import Position
from .priority import lower_priority
from .scores import win_score
from .seam import (
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
    Source,
    check_node_limit,
)
from .search import aspiration_window, classify
from .search_state import Run, Steering
from .solver import Solver, warmup_position

__all__ = ["SearchController", "run_search"]

#: The kernel's command word for each state of the steering.
_CMD = {Run.GO: K.CMD_RUN, Run.PAUSE: K.CMD_PAUSE, Run.STOP: K.CMD_STOP}


def _kernel_nodes(nodes: int | None) -> int:
    """``Limits.nodes`` as the kernel's ``C_LIMIT`` word (the same limit; NEVER: none)."""
    return K.NEVER if nodes is None else nodes


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

    The kernel's buffers and the iterations' drivers are a :class:`Deepening`
    (engine/deepening.py); the pause/step state a :class:`Steering`
    (engine/search_state.py).
    """

    def __init__(self, nice: int = 0, book: BookLike | None = None) -> None:
        """``nice``: run the worker this much below the process's CPU priority (Linux;
        capped at 19; a UI keeps the cores it needs), whichever thread calls :meth:`start`.
        ``book``: the books the searches probe when their options say ``use_book``
        (``c4tui.book.load_default()``)."""
        self._nice = nice
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._deep = Deepening()
        self._ctl = self._deep.ctl  # the kernel's control words (the same array)
        self._thread: threading.Thread | None = None  # the worker, while it has work
        self._request: _Request | None = None  # the next search for the worker
        self._running = False  # the worker is preparing or running a search
        self._gen = 0  # number of the newest search; older ones publish nothing
        self._last: _Request | None = None  # the newest search (for a continuation)
        # Until the worker has prepared the newest search, the control array still belongs
        # to the previous one: the steering waits and is written when the search begins.
        self._setup = False
        self._steer = Steering()
        self._nodes: int | None = None  # the node limit (Limits.nodes, set_node_limit)
        self._nodes_base = 0  # nodes shown while preparing (a continuation keeps its count)
        self._state = SearchState.IDLE
        self._iterations: list[IterationReport] = []
        self._result: SearchResult | None = None
        self._depth = 0
        self._driver_paused = False
        self._t0 = 0.0
        self._paused_total = 0.0
        self._paused_since: float | None = None
        self._error: BaseException | None = None
        self._final_elapsed = 0.0
        self._pauses_seen = 0
        self._timer: threading.Timer | None = None  # Limits.time
        self._listener: Listener | None = None
        self._books = book  # what the searches probe when their options use a book
        self._book: BookLike | None = None  # this search's
        self._exact: Solver | None = None  # answers roots that are in the books

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
            self._request = self._last = _Request(pos.copy(), limits,
                                                  options or SearchOptions(), self._gen)
            self._ctl[K.C_CMD] = K.CMD_STOP  # the running search unwinds within a node
            self._nodes = limits.nodes
            self._publish_start(paused, keep=False)
            self._start_timer(limits.time, self._gen)
            self._ensure_worker()

    def pause(self) -> None:
        """Pause the search where it is (inside the kernel, at the next node)."""
        with self._cond:
            if self._state is not SearchState.SEARCHING or not self._steer.pause():
                return
            if not self._setup:
                self._ctl[K.C_CMD] = K.CMD_PAUSE
                self._take_back_unseen_resume()
            self._mark_paused()

    def resume(self) -> None:
        """Continue a paused search to its end (or its limits)."""
        with self._cond:
            if not self._state.active:
                return
            went, restored = self._steer.resume()
            if restored and not self._setup:  # the steps are over: the limit holds again
                self._ctl[K.C_LIMIT] = _kernel_nodes(self._nodes)
            if went:
                self._go()

    def step_iteration(self) -> bool:
        """Run to the end of the next iteration (the current one if paused inside it),
        then pause. A search that was stopped or reached its node limit continues one
        iteration deeper, with its tables (stepping ignores the node limit until
        :meth:`resume`). False if there is nothing to step (no search, or it is done)."""
        with self._cond:
            if self._state.active:
                paused = self._is_paused_locked()
                self._steer.step_iteration(paused)
                if paused and not self._steer.stopping:
                    self._go()
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
                base = self._nodes_base if self._setup else int(self._ctl[K.C_NODES])
                self._steer.step_nodes(base + n)
                if not self._steer.stopping:
                    self._go()
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
            self._nodes = nodes
            if not self._setup and not self._steer.nodes_lifted:
                self._ctl[K.C_LIMIT] = _kernel_nodes(nodes)
            self._cond.notify_all()

    def stop(self) -> None:
        """Ask the search to stop; returns at once (the worker ends it within milliseconds)."""
        with self._cond:
            self._steer.stop()
            self._ctl[K.C_CMD] = K.CMD_STOP
            self._cond.notify_all()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the search and wait for the worker to end."""
        with self._cond:
            if self._request is not None:  # never began: it ends here
                self._request = None
                if self._setup:
                    self._finish(self._gen, SearchState.STOPPED, None)
            self._steer.stop()
            self._ctl[K.C_CMD] = K.CMD_STOP
            self._cond.notify_all()
            t = self._thread
        if t is not None and t is not threading.current_thread():
            t.join(timeout)
            if t.is_alive():  # pragma: no cover - would be a kernel bug
                raise RuntimeError("analysis thread did not stop")

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the search ends; False on timeout. Not for the UI thread."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self._request is None and not self._running, timeout)

    def wait_paused(self, timeout: float | None = None) -> bool:
        """Block until the search is actually paused, or has ended; False on timeout."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                if not self._state.active or self._is_paused_locked():
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
                paused = self._steer.run is Run.PAUSE or self._is_paused_locked()
                state = SearchState.PAUSED if paused else SearchState.SEARCHING
                if paused:
                    self._mark_paused()
            res = self._result
            nodes = self._nodes_base if self._setup else int(self._ctl[K.C_NODES])
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
                preparing=self._setup and state.active,
                lines=top.lines if top else (),
            )

    def path(self) -> tuple[PathEntry, ...]:
        """The search path while the kernel is paused (empty otherwise)."""
        with self._lock:
            if not self._state.active or not self._kernel_paused():
                return ()
            return self._deep.paused_path()

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
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if seconds is None:
            return

        def time_up() -> None:
            with self._cond:
                if gen != self._gen:
                    return
                self._steer.stop()
                self._ctl[K.C_CMD] = K.CMD_STOP
                self._cond.notify_all()

        self._timer = threading.Timer(seconds, time_up)
        self._timer.daemon = True
        self._timer.start()

    def _publish_start(self, paused: bool, keep: bool) -> None:
        """Reset what a snapshot shows for a new search (``keep``: a continuation)."""
        now = time.perf_counter()
        if keep:
            self._t0 = now - self._final_elapsed
            self._nodes_base = self._result.nodes if self._result is not None else 0
        else:
            self._t0 = now
            self._nodes_base = 0
            self._iterations = []
        self._steer.begin(paused, continuation=keep)
        self._result = None
        self._depth = len(self._iterations) + 1
        self._driver_paused = False
        self._paused_total = 0.0
        self._paused_since = now if paused else None
        self._pauses_seen = 0
        self._error = None
        self._setup = True
        self._state = SearchState.SEARCHING

    def _continue_locked(self, step_iteration: bool, pause_at: int) -> bool:
        last = self._last
        if last is None or self._state not in (SearchState.STOPPED, SearchState.NODE_LIMIT):
            return False
        if self._iterations and self._iterations[-1].depth >= last.max_depth:
            return False
        self._gen += 1
        self._request = self._last = dataclasses.replace(last, gen=self._gen, cont=True)
        self._publish_start(False, keep=True)
        if step_iteration:
            self._steer.step_iteration(paused=False)
        else:
            self._steer.step_nodes(pause_at)
        self._ensure_worker()
        return True

    def _ensure_worker(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="c4-analysis", daemon=True)
            self._thread.start()
        self._cond.notify_all()

    def _work(self) -> None:
        """The worker: run the newest request, until there is none."""
        if self._nice:  # the caller's niceness plus this step: never above the caller
            lower_priority(self._nice)
        while True:
            with self._cond:
                req = self._request
                self._request = None
                self._running = req is not None
                if req is None:
                    self._thread = None
                    self._cond.notify_all()
                    return
            try:
                self._run(req)
            except BaseException as e:  # pragma: no cover - a bug: reported by .error
                self._error = e
                with self._lock:
                    self._finish(req.gen, SearchState.STOPPED, None)
                self._changed()
            finally:
                with self._cond:
                    self._running = False
                    self._cond.notify_all()

    def _run(self, req: _Request) -> None:
        self._prepare(req)
        with self._cond:
            if req.gen != self._gen:  # superseded while preparing
                return
            c = self._ctl
            c[K.C_CMD] = _CMD[self._steer.run]
            c[K.C_PAUSE_AT] = self._steer.pause_at
            c[K.C_LIMIT] = K.NEVER if self._steer.nodes_lifted else _kernel_nodes(self._nodes)
            self._setup = False
        self._search(req)

    def _prepare(self, req: _Request) -> None:
        """Tables, control words and book of a search (worker thread, without the lock:
        a large table takes seconds to allocate)."""
        self._book = self._books if req.opts.use_book else None
        self._deep.prepare(req.opts, req.cont, self._book)

    def _kernel_paused(self) -> bool:
        return (not self._setup and self._ctl[K.C_PAUSED] == 1
                and self._ctl[K.C_PAUSES] != self._pauses_seen)

    def _is_paused_locked(self) -> bool:
        if self._setup:
            return self._steer.run is Run.PAUSE
        return self._driver_paused or self._kernel_paused()

    def _mark_paused(self) -> None:
        if self._paused_since is None:
            self._paused_since = time.perf_counter()

    def _unmark_paused(self) -> None:
        if self._paused_since is not None:
            self._paused_total += time.perf_counter() - self._paused_since
            self._paused_since = None

    def _active(self) -> float:
        if not self._state.active and self._result is not None:
            return self._final_elapsed
        if self._state is SearchState.IDLE:
            return 0.0
        now = time.perf_counter()
        t = now - self._t0 - self._paused_total
        if self._paused_since is not None:
            t -= now - self._paused_since
        return max(t, 0.0)

    def _take_back_unseen_resume(self) -> None:
        """After a pause: if the kernel has not yet seen the resume before it (it looks
        every 2 ms), it stays in the same pause loop and counts no new pause, so that pause
        is the one to show (otherwise wait_paused would wait forever). If it is just
        leaving the loop, it pauses again at its next node and counts that pause."""
        c = self._ctl
        if c[K.C_PAUSED] == 1 and c[K.C_PAUSES] == self._pauses_seen:
            self._pauses_seen = int(c[K.C_PAUSES]) - 1

    def _go(self) -> None:
        """The steering says GO (lock held): no longer paused; tell the kernel."""
        self._unmark_paused()
        if self._setup:
            return  # written to the kernel when the search begins
        # Read the pause count before publishing the new target: a kernel that reaches a
        # near target (step_nodes(1)) between the two would otherwise count its pause into
        # the baseline, and the pause would never be seen.
        self._pauses_seen = int(self._ctl[K.C_PAUSES])
        self._ctl[K.C_PAUSE_AT] = self._steer.pause_at
        self._ctl[K.C_CMD] = K.CMD_RUN
        self._driver_paused = False
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

    # ------------------------------------------------------------ the search (worker)
    def _answer_alone(self, gen: int, rep: IterationReport) -> None:
        """End search ``gen`` with one report and no iterations (a win at once, the
        books): its result is the report's."""
        with self._lock:
            if gen == self._gen:
                self._iterations = [rep]
            self._finish(gen, SearchState.DONE, SearchResult(
                rep.best_move, rep.score, rep.pv, rep.nodes, rep.depth,
                SearchState.DONE, rep.value, rep.source, rep.lines))
        self._changed()

    def _answer_at_once(self, pos: Position, gen: int) -> bool:
        """A win at once needs no search: one exact report. False if there is none."""
        c = pos.winning_move()
        if c is None:
            return False
        self._answer_alone(gen, report(
            1, -INF, INF, Score(win_score(pos.ply), Band.EXACT), c, (c,),
            WIN - pos.ply - 1, source=Source.EXACT))
        return True

    def _answer_from_book(self, pos: Position, gen: int, book: BookLike) -> bool:
        """A root in the books is answered from them: exact score, move and line (one
        report, no iterations; its source EXACT if no lookup was needed: every move loses
        at once). False if the root is in no book."""
        if self._exact is None or self._exact.book is not book:
            self._exact = Solver(hash_mb=16, book=book)  # finds the moves (1 thread)
        t0 = time.perf_counter()
        ans = book_answer(pos, book, self._exact)
        if ans is None:
            return False
        lines = self._book_lines(pos, book, ans) if self._last and \
            self._last.opts.multipv > 1 else ()
        dt = time.perf_counter() - t0
        self._answer_alone(gen, report(
            len(ans.pv), -INF, INF, Score(ans.score, Band.EXACT), ans.best_move, ans.pv,
            int(K.book_value(ans.score, pos.ply)), nodes=ans.nodes, elapsed=dt,
            total_nodes=ans.nodes, total_elapsed=dt, source=ans.source, lines=lines))
        return True

    def _book_lines(self, pos: Position, book: BookLike, ans: BookAnswer
                    ) -> tuple[PvLine, ...]:
        """A book root's multi-PV lines: every column's exact score (the solver with the
        books: lookups), each line the child's book answer; best first."""
        assert self._exact is not None and self._last is not None
        scores = self._exact.analyze(pos).scores
        lines = []
        for col in CENTER_ORDER:
            score = scores[col]
            if score is None:
                continue
            pv: tuple[int, ...] = (col,)
            if col == ans.best_move:
                pv = ans.pv
            else:
                child = pos.copy()
                child.play(col)
                sub = None if child.is_over else book_answer(child, book, self._exact)
                pv = (col, *sub.pv) if sub is not None else (col,)
            lines.append(PvLine(col, Score(score, Band.EXACT), pv,
                                int(K.book_value(score, pos.ply))))
        lines.sort(key=lambda line: (line.move != ans.best_move, -line.score.value))
        return tuple(lines[:self._last.opts.multipv])

    def _search(self, req: _Request) -> None:
        """The iterative-deepening driver (worker thread)."""
        pos, opts, gen = req.pos, req.opts, req.gen
        if self._answer_at_once(pos, gen):
            return
        if self._book is not None and self._answer_from_book(pos, gen, self._book):
            return
        key = zobrist_key(pos.stones(0), pos.stones(1))  # (analysis_tt's: any size)
        empties = SIZE - pos.ply
        deep, ctl = self._deep, self._ctl
        reason = SearchState.DONE
        with self._lock:
            done = list(self._iterations) if req.cont else []
        # the root value of each iteration, for each line (the first: the single PV's)
        history: list[dict[int, int]] = [{} for _ in range(opts.multipv)]
        for rep in done:
            for i, line in enumerate(rep.lines[:opts.multipv]):
                history[i][rep.depth] = line.value
        best_move = done[-1].best_move if done else -1
        for depth in range(len(done) + 1, req.max_depth + 1):
            with self._lock:
                if gen == self._gen:
                    self._depth = depth  # the iteration about to run (or paused before)
            if not self._between_iterations():
                reason = deep.abort_reason()
                break
            exact = depth >= empties
            n0, p0, h0 = int(ctl[K.C_NODES]), int(ctl[K.C_PROBES]), int(ctl[K.C_HITS])
            with self._lock:
                t0 = self._active()
            found = self._lines(pos, key, depth, exact, opts, history, best_move)
            if found is None:
                reason = deep.abort_reason()
                break
            first, lines = found
            best = lines[0]
            best_move = best.move
            for i, line in enumerate(lines):
                history[i][depth] = line.value
            with self._lock:
                el = self._active()
            nodes, probes = int(ctl[K.C_NODES]), int(ctl[K.C_PROBES]) - p0
            rep = report(depth, first.alpha, first.beta, best.score, best.move, best.pv,
                         best.value, fail_highs=first.fail_highs,
                         fail_lows=first.fail_lows, nodes=nodes - n0, elapsed=el - t0,
                         tt_probes=probes, tt_hits=int(ctl[K.C_HITS]) - h0,
                         tt_fill=deep.fill(), total_nodes=nodes, total_elapsed=el,
                         lines=tuple(lines))
            if not self._publish(gen, rep):
                return
        self._end(pos, gen, reason)

    def _lines(self, pos: Position, key: int, depth: int, exact: bool, opts: SearchOptions,
               history: list[dict[int, int]], best_move: int
               ) -> tuple[Iteration, list[PvLine]] | None:
        """One iteration's lines, best first, and the first root search (its window and
        re-searches are the report's); None if the search was stopped or reached its limit.

        Multi-PV as chess engines do it (Stockfish): for each line the root is searched
        again without the moves of the lines already found, with an aspiration window
        around that line's last value; then the lines are sorted by value. The moves that
        lose at once (the kernel never searches them) fill the lines left."""
        deep = self._deep
        searched, lost = root_moves(pos)
        want = min(opts.multipv, len(searched) + len(lost))
        first: Iteration | None = None
        lines: list[PvLine] = []
        for i in range(max(1, min(want, len(searched)))):
            taken = tuple(line.move for line in lines)
            if opts.multipv > 1:
                deep.exclude(taken)
            values = history[i]
            if opts.mtdf:
                it = deep.mtdf(pos, key, depth, exact, values.get(depth - 1, 0))
            else:
                window = (aspiration_window(values, depth, opts.window_parity)
                          if opts.aspiration else (-INF, INF))
                it = deep.aspiration(pos, key, depth, exact, window)
            if it.aborted:
                deep.exclude(())
                return None
            if it.move < 0 or it.move in taken:  # lost at once, or nothing better known
                left = [c for c in searched + lost if c not in taken]
                it.move = best_move if i == 0 and best_move >= 0 else (
                    left[0] if i else fallback_move(pos))
                it.pv = (it.move,)
            first = first or it
            pv = deep.extend_pv(pos, key, it.pv, max(depth, len(it.pv)))
            lines.append(PvLine(it.move, classify(it.value, exact), pv, it.value))
        deep.exclude(())
        assert first is not None
        for c in lost:
            if len(lines) >= want:
                break
            if all(line.move != c for line in lines):
                lines.append(lost_line(pos, c, exact))
        lines.sort(key=lambda line: -line.value)  # stable: ties keep the search's order
        return first, lines

    def _publish(self, gen: int, rep: IterationReport) -> bool:
        """Add an iteration's report; False if search ``gen`` was superseded (the new
        search publishes)."""
        with self._lock:
            if gen != self._gen:
                return False
            self._iterations.append(rep)
            if self._steer.iteration_done():  # step_iteration(): pause after this one
                self._ctl[K.C_CMD] = K.CMD_PAUSE
                self._mark_paused()
        self._changed()
        return True

    def _end(self, pos: Position, gen: int, reason: SearchState) -> None:
        """The result: the last iteration's, or (none completed) the PV table's move."""
        ctl = self._ctl
        with self._lock:
            its = self._iterations
            if its:
                last = its[-1]
                res = SearchResult(last.best_move, last.score, last.pv,
                                   int(ctl[K.C_NODES]), last.depth, reason, last.value,
                                   lines=last.lines)
            else:
                mv = self._deep.pv_move()
                mv = mv if mv >= 0 else fallback_move(pos)
                res = SearchResult(mv, Score(0, Band.HEURISTIC), (mv,), int(ctl[K.C_NODES]), 0,
                                   reason, 0)
            self._finish(gen, reason, res)
        self._changed()

    def _finish(self, gen: int, state: SearchState, res: SearchResult | None) -> None:
        """End search ``gen`` (lock held); nothing happens if a newer one was started."""
        if gen != self._gen:
            return
        self._unmark_paused()
        self._final_elapsed = max(time.perf_counter() - self._t0 - self._paused_total, 0.0)
        self._result = res
        self._state = state
        self._driver_paused = False
        self._setup = False
        self._depth = self._iterations[-1].depth if self._iterations else 0
        self._ctl[K.C_PAUSED] = 0
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._cond.notify_all()


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
    from .analysis_eval import threat_fill
    from .bitboard import word

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

