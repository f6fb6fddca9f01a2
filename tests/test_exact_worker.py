"""The app's exact worker: solving the viewed position, pondering its children, yielding."""

from __future__ import annotations

import threading
import time

from c4tui.engine.board.position import Position
from c4tui.engine.seam import SearchAborted
from testdata import load_positions
from waiting import wait_until

from c4tui.app.bridge.engine_view import ExactStatus
from c4tui.app.bridge.exact_worker import ExactWorker
from c4tui.app.bridge.loader import Engine

BOUND = 10.0  # seconds: every wait below returns long before unless something hangs


class Aborted(SearchAborted):
    pass


class FakeSolver:
    """Answers every column 0 at once, except for positions in ``slow``, which run until
    stop() (as the real solver: a stop before the solve begins is forgotten)."""

    def __init__(self, slow: set[int] = frozenset()) -> None:
        self.slow = set(slow)
        self.calls: list[int] = []
        self.stopped = threading.Event()
        self.released = False
        self._woken = threading.Condition()  # stop() or release() while a slow solve runs

    def analyze(self, pos: Position, on_score=None):
        self.calls.append(pos.key())
        self.stopped.clear()
        if pos.key() in self.slow:
            with self._woken:
                self._woken.wait_for(lambda: self.stopped.is_set() or self.released)
            if self.stopped.is_set():
                raise Aborted
        from c4tui.engine.solver.solver import ColumnScores

        return ColumnScores(tuple(0 if pos.can_play(c) else None for c in range(7)), 1, 1)

    def stop(self) -> None:
        with self._woken:
            self.stopped.set()
            self._woken.notify_all()

    def release(self) -> None:
        """Let the slow solves finish (as if they took no longer)."""
        with self._woken:
            self.released = True
            self._woken.notify_all()


def worker(solver, **kw) -> ExactWorker:
    kw.setdefault("lines", False)  # the lines' own test turns them on
    w = ExactWorker(Engine(solver, None, None), **kw)  # type: ignore[arg-type]  # a fake solver
    w.start()
    return w


def children(pos: Position) -> list[Position]:
    out = []
    for c in pos.legal_moves():
        if not pos.is_winning_move(c):
            child = pos.copy()
            child.play(c)
            if not child.is_over:
                out.append(child)
    return out


def test_ponder_solves_every_child_exactly():
    """The children of the viewed position are solved while idle, with the real solver,
    and agree with a solve of their own (10 discs: the children's children are in the
    12-ply database, so this is quick once the kernels are loaded)."""
    from c4tui.book import load_default
    from c4tui.engine.solver.solver import Solver

    books = load_default()
    pos = Position.from_moves(next(m for m, _, _ in load_positions() if len(m) == 10))
    w = ExactWorker(Engine(Solver(16, book=books, threads=1), None, None),
                    lines=False)
    w.start()
    try:
        w.want(pos)
        kids = children(pos)
        wait_until(lambda: all(w.entry(k) is not None and w.entry(k).status is ExactStatus.DONE
                               for k in kids), 300, "the pondered children")
        check = Solver(16, book=books, threads=1)
        for k in kids:
            assert w.entry(k).scores == check.analyze(k).scores
    finally:
        w.shutdown()


def test_no_ponder_solves_only_the_wanted_position():
    solver = FakeSolver()
    w = worker(solver, ponder=False)
    try:
        pos = Position.from_moves("4453")
        w.want(pos)
        wait_until(lambda: w.entry(pos) is not None and w.entry(pos).status is ExactStatus.DONE,
                   BOUND, "the wanted position")
        # a window for a ponder that must not begin (the worker would begin it at once):
        # not a wait for an event
        time.sleep(0.2)
        assert solver.calls == [pos.key()]
    finally:
        w.shutdown()


def test_a_new_request_stops_a_ponder_at_once():
    pos = Position.from_moves("4453")
    kids = children(pos)
    solver = FakeSolver(slow={k.key() for k in kids})
    w = worker(solver)
    try:
        w.want(pos)
        wait_until(lambda: len(solver.calls) == 2, BOUND, "the first ponder")
        other = Position.from_moves("1111")
        w.want(other)
        wait_until(lambda: w.entry(other) is not None
                   and w.entry(other).status is ExactStatus.DONE, BOUND, "the new request")
        w.tick()  # the budget has not run out: nothing else stops here
    finally:
        w.shutdown()


def test_playing_the_pondered_move_turns_it_into_the_wanted_solve():
    pos = Position.from_moves("4453")
    first = children(pos)[0]
    solver = FakeSolver(slow={first.key()})
    done = []
    w = worker(solver, on_done=lambda: done.append(1))
    try:
        w.want(pos)
        wait_until(lambda: solver.calls[-1:] == [first.key()], BOUND,
                   "the ponder of the first child")
        w.want(first)
        assert w.entry(first).status is ExactStatus.SOLVING  # shown as being solved
        w.tick()  # its own position now: not stopped
        assert not solver.stopped.is_set()
        told = len(done)  # (the UI is told of every job begun and every column solved too)
        solver.release()
        wait_until(lambda: w.entry(first).status is ExactStatus.DONE, BOUND, "the move's values")
        assert solver.calls.count(first.key()) == 1  # not solved twice
        wait_until(lambda: len(done) > told, BOUND, "the UI told of the move's values")
    finally:
        w.shutdown()


def test_a_ponder_over_budget_is_given_up_not_recorded():
    pos = Position.from_moves("4453")
    kids = children(pos)
    solver = FakeSolver(slow={kids[0].key()})
    w = worker(solver, budget=0.05)
    try:
        w.want(pos)
        wait_until(lambda: solver.calls[-1:] == [kids[0].key()], BOUND, "the slow ponder")

        def ticked_out() -> bool:  # the UI's ticks, until one finds the ponder over budget
            w.tick()
            return solver.stopped.is_set()

        wait_until(ticked_out, BOUND, "the budget to stop the slow ponder")
        wait_until(lambda: all(w.entry(k) is not None for k in kids[1:]), BOUND,
                   "the other children")
        assert w.entry(kids[0]) is None  # not 'too slow': the user may still go there
        assert solver.calls.count(kids[0].key()) == 1  # and not pondered again
    finally:
        w.shutdown()


def test_entries_are_capped():
    solver = FakeSolver()
    w = ExactWorker(Engine(solver, None, None), ponder=False,  # type: ignore[arg-type]  # a fake solver
                    cache_size=5)
    w.start()
    try:
        positions = [Position.from_moves(m) for m in ("1", "2", "3", "4", "5", "6", "7", "11",
                                                      "22")]
        for pos in positions:
            w.want(pos)
            wait_until(lambda p=pos: w.entry(p) is not None
                       and w.entry(p).status is ExactStatus.DONE, BOUND, "a solve")
        assert sum(w.entry(p) is not None for p in positions) <= 5
        assert sum(w.verdict(p) is not None for p in positions) <= 5
        assert w.entry(positions[-1]) is not None and w.verdict(positions[-1]) is not None
        assert w.entry(positions[0]) is None  # the oldest dropped
        assert w.verdict(positions[0]) is None
    finally:
        w.shutdown()


class LineSolver(FakeSolver):
    """A FakeSolver that also answers the lines' solves (the first legal column), noting
    how many analyses came before the first of them."""

    def __init__(self) -> None:
        super().__init__()
        self.analyses_before_lines: int | None = None

    def solve(self, pos: Position, need_move: bool = True):
        from c4tui.engine.solver.solver import SolveResult

        if self.analyses_before_lines is None:
            self.analyses_before_lines = len(self.calls)
        return SolveResult(0, pos.legal_moves()[0], 1, 1)


def test_the_next_moves_are_pondered_before_the_lines_for_a_while():
    """The user's next move shows its values at once: the children come before the lines
    (for ``ponder_first`` seconds), and the lines still come."""
    pos = Position.from_moves("4453")
    for ponder_first, before in ((5.0, 1 + len(children(pos))), (0.0, 1)):
        solver = LineSolver()
        w = worker(solver, lines=True, ponder_first=ponder_first)
        try:
            w.want(pos)
            wait_until(lambda w=w: (e := w.entry(pos)) is not None and e.lines_done, BOUND,
                       "the lines")
            assert solver.analyses_before_lines == before, ponder_first
            assert all(len(w.entry(pos).line(c)) > 1 for c in range(7))
        finally:
            w.shutdown()
