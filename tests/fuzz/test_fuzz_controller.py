"""Random control sequences on the analysis search's ``SearchController``
(engine/analysis/controller.py).

Two properties, each over random sequences of start / pause / resume / step_iteration /
step_nodes / set_node_limit / stop / new position (every call runs under a timeout
guard, so a deadlock fails the test instead of hanging it):

* chaos: any sequence, any state: every call returns, the worker never raises, the
  snapshot stays consistent, ``close`` ends the worker;
* exactness: a search paused and stepped at random (by iterations and by node counts)
  and then resumed ends with exactly the result, node count and iterations of the same
  search run without interruption (both on fresh controllers: the recognition table
  survives between searches).
"""

from __future__ import annotations

import threading
from functools import cache, partial
from pathlib import Path

from c4tui.engine.analysis.controller import SearchController
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits, SearchOptions, SearchState
from fuzzkit import count, fuzz
from hypothesis import given
from hypothesis import strategies as st

#: Seconds any controller call may take (they return at once; wait() is given its own).
BOUND = 30.0
DATA = Path(__file__).resolve().parents[1] / "data" / "positions.txt"
#: Positions of 4 to 20 discs from the test data (moves, as digits).
POSITIONS = [ln.split()[0] for ln in DATA.read_text().splitlines()
             if 4 <= len(ln.split()[0]) <= 20][::25]


def call(fn, *args):
    """``fn(*args)`` in a thread, failing the test if it does not return within BOUND."""
    box: list = []
    err: list[BaseException] = []

    def run() -> None:
        try:
            box.append(fn(*args))
        except BaseException as exc:  # re-raised in the test's thread
            err.append(exc)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(BOUND)
    assert not t.is_alive(), f"{getattr(fn, '__name__', fn)}{args!r}: no return in {BOUND} s"
    if err:
        raise err[0]
    return box[0] if box else None


def options(depth: int | None, limit: int | None) -> tuple[Limits, SearchOptions]:
    """What ``start`` takes after the position: the limits and the options."""
    return Limits(nodes=limit, depth=depth), SearchOptions(hash_mb=1, use_book=False)


@cache
def reference(moves: str, depth: int | None, limit: int | None):
    """The uninterrupted search's result and iterations, on a fresh controller."""
    ctl = SearchController()
    try:
        ctl.start(Position.from_moves(moves), *options(depth, limit))
        assert call(ctl.wait, 120), "reference search did not end"
        assert ctl.error is None, ctl.error
        return ctl.result, _iterations(ctl)
    finally:
        call(ctl.close)


def _iterations(ctl: SearchController) -> list[tuple]:
    return [(r.depth, r.score, r.best_move, r.nodes, r.total_nodes, r.pv)
            for r in ctl.snapshot().iterations]


def _same(res, ref) -> bool:
    return (res.best_move, res.score, res.pv, res.nodes, res.depth, res.reason) == (
        ref.best_move, ref.score, ref.pv, ref.nodes, ref.depth, ref.reason)


STEP_OPS = st.one_of(
    st.just(("pause",)), st.just(("resume",)), st.just(("step_iteration",)),
    st.tuples(st.just("step_nodes"), st.integers(1, 40_000)),
    st.just(("snapshot",)), st.just(("path",)),
)


@fuzz(fast=30, long=10_000)
@given(st.sampled_from(POSITIONS), st.sampled_from([(12, None), (14, None), (None, 50_000),
                                                    (None, 200_000), (16, 100_000)]),
       st.booleans(), st.lists(STEP_OPS, max_size=14))
def test_paused_and_stepped_search_is_exact(moves, bounds, start_paused, ops):
    """Pause, step by iterations and nodes at random, resume: the same search, exactly."""
    count("controller: exactness sequences")
    count("controller: exactness calls", len(ops))
    depth, limit = bounds
    ref, ref_its = reference(moves, depth, limit)
    ctl = SearchController()
    try:
        call(lambda: ctl.start(Position.from_moves(moves), *options(depth, limit),
                             paused=start_paused))
        for op in ops:
            state = call(lambda: ctl.state)
            if not state.active:
                break  # ended: a step now would continue it one iteration deeper
            name = op[0]
            if name == "pause":
                call(ctl.pause)
                call(ctl.wait_paused, BOUND)
            elif name == "resume":
                call(ctl.resume)
            elif name in ("step_iteration", "step_nodes"):
                # only from a pause: a paused search cannot end by itself meanwhile
                call(ctl.pause)
                call(ctl.wait_paused, BOUND)
                if call(lambda: ctl.state) is not SearchState.PAUSED:
                    break
                count("controller: steps from a pause")
                if name == "step_iteration":
                    assert call(ctl.step_iteration)
                else:
                    assert call(ctl.step_nodes, op[1])
                call(ctl.wait_paused, BOUND)
            elif name == "snapshot":
                snap = call(ctl.snapshot)
                assert snap.nodes <= ref.nodes
            else:
                call(ctl.path)
        call(ctl.resume)
        assert call(ctl.wait, 120), "the search did not end after resume"
        assert ctl.error is None, ctl.error
        res = ctl.result
        assert res is not None and _same(res, ref), (res, ref)
        assert _iterations(ctl) == ref_its
    finally:
        call(ctl.close)


CHAOS_OPS = st.one_of(
    STEP_OPS,
    st.tuples(st.just("set_node_limit"), st.one_of(st.none(), st.integers(1, 200_000))),
    st.just(("stop",)), st.just(("wait",)),
    st.tuples(st.just("start"), st.sampled_from(POSITIONS),
              st.sampled_from([(8, None), (None, 20_000), (None, None), (16, 50_000)]),
              st.booleans()),
)


@fuzz(fast=30, long=10_000)
@given(st.lists(CHAOS_OPS, min_size=1, max_size=20))
def test_random_control_sequences_never_deadlock(ops):
    """Any sequence of commands: every call returns, no exception, consistent snapshots."""
    count("controller: chaos sequences")
    count("controller: chaos calls", len(ops))
    ctl = SearchController()
    try:
        for op in ops:
            name = op[0]
            if name == "start":
                _, moves, (depth, limit), paused = op
                call(partial(ctl.start, Position.from_moves(moves), *options(depth, limit),
                             paused=paused))
            elif name == "set_node_limit":
                call(ctl.set_node_limit, op[1])
            elif name == "step_nodes":
                call(ctl.step_nodes, op[1])
            elif name == "wait":
                call(ctl.wait, 0.05)
            elif name == "snapshot":
                snap = call(ctl.snapshot)
                assert isinstance(snap.state, SearchState) and snap.nodes >= 0
                assert (snap.result is not None) <= (not snap.state.active)
            else:
                call(getattr(ctl, name))
            assert ctl.error is None, ctl.error
        call(ctl.stop)
        assert call(ctl.wait, BOUND), "no end after stop"
        assert not call(lambda: ctl.state).active
        assert ctl.error is None, ctl.error
    finally:
        call(ctl.close)
