"""The pause/step state machine on its own (engine/analysis/search_state.py: no kernel, no
thread)."""

from __future__ import annotations

from c4tui.engine.analysis import kernel as analysis_kernel
from c4tui.engine.analysis.search_state import NEVER, Run, Steering


def test_never_is_the_kernels():
    assert NEVER == analysis_kernel.NEVER


def test_a_new_search_runs_or_waits_paused():
    s = Steering()
    s.begin(paused=False)
    assert (s.run, s.pause_at, s.pause_after_iteration, s.nodes_lifted) == (
        Run.GO, NEVER, False, False)
    s.begin(paused=True)
    assert s.run is Run.PAUSE


def test_pause_and_resume():
    s = Steering()
    s.begin(paused=False)
    assert s.pause() and s.run is Run.PAUSE
    assert s.resume() == (True, False) and s.run is Run.GO and s.pause_at == NEVER


def test_step_nodes_runs_to_a_target_and_resume_clears_it():
    s = Steering()
    s.begin(paused=True)
    s.step_nodes(5_000)
    assert s.run is Run.GO and s.pause_at == 5_000 and not s.pause_after_iteration
    s.resume()
    assert s.pause_at == NEVER


def test_step_iteration_pauses_after_the_iteration_only_once():
    s = Steering()
    s.begin(paused=True)
    s.step_iteration(paused=True)
    assert s.run is Run.GO and s.pause_after_iteration
    assert s.iteration_done() and s.run is Run.PAUSE
    assert not s.iteration_done()  # the next iteration does not pause again by itself
    # stepped while running: it keeps running to the end of the iteration
    s.resume()
    s.step_iteration(paused=False)
    assert s.run is Run.GO and s.iteration_done() and s.run is Run.PAUSE


def test_resume_forgets_a_pending_step():
    s = Steering()
    s.begin(paused=False)
    s.step_iteration(paused=False)
    s.resume()
    assert not s.iteration_done() and s.run is Run.GO


def test_a_stop_is_final():
    s = Steering()
    s.begin(paused=False)
    s.stop()
    assert not s.pause() and s.run is Run.STOP
    assert s.resume() == (False, False) and s.run is Run.STOP
    s.step_nodes(10)
    s.step_iteration(paused=True)
    assert s.run is Run.STOP and s.pause_at == NEVER
    assert not s.iteration_done() and s.run is Run.STOP
    s.begin(paused=False)  # only a new search runs again
    assert s.run is Run.GO


def test_a_continuation_lifts_the_node_limit_until_resume():
    s = Steering()
    s.begin(paused=False, continuation=True)
    assert s.nodes_lifted
    s.pause()
    assert s.resume() == (True, True) and not s.nodes_lifted
    assert s.resume() == (True, False)
