"""Pilot tests of the workstation with the real engine: exact values, pause/step, node limit.

The engine compiles (or loads) its kernels in a background thread first; each test waits
for that, so the first test also measures nothing but correctness.
"""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits
from pilot_util import LOAD_TIMEOUT, engine_ready, sync, until, wait_for

from c4tui.app import C4App, SearchSettings

pytestmark = pytest.mark.usefixtures("tmp_home")



def snap(app: C4App):
    return app.bridge.view(app.position).snapshot


@sync
async def test_exact_values_and_verdict():
    # Black to move can win at once in f (f1 completes c1 d1 e1 f1? no: f2 row) - the
    # solver's values are checked against the position's immediate win.
    pos = Position.from_moves("44536555533")
    win_col = next(c for c in pos.legal_moves() if pos.is_winning_move(c))
    app = C4App(pos, settings=SearchSettings(auto=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await wait_for(
            pilot,
            lambda: (e := app.bridge.view(app.position).exact) is not None
            and e.best is not None,
            60, "exact values",
        )
        await until(pilot, lambda: "Black wins in 1" in str(app.query_one("#analysis").render()),
                    "the win in the analysis")
        exact = app.bridge.view(app.position).exact
        assert exact.scores[win_col] == max(s for s in exact.scores if s is not None)
        board = str(app.query_one("#board").render())
        assert "W1" in board
        analysis = str(app.query_one("#analysis").render())
        assert "Black wins in 1" in analysis
        await pilot.press("t")
        await wait_for(pilot, lambda: app.bridge.view(app.position).verdict is not None, 10,
                       "the threat-fill verdict")
        await until(pilot, lambda: "acute" in str(app.query_one("#threat-info").render()),
                    "the verdict on the screen")
        info = str(app.query_one("#threat-info").render())
        assert "heuristic, no new threats → Black wins: acute" in info


# 9 discs: a draw the search does not settle in 50M nodes without the books (with them,
# the search answers its root from the books at once: nothing to pause or step)
DEEP = "233752167"


@pytest.mark.usefixtures("no_books")
@sync
async def test_pause_step_and_path():
    # past the opening book, which would decide a shallower position at once
    app = C4App(Position.from_moves(DEEP),
                settings=SearchSettings(auto=False, limits=Limits(nodes=50_000_000)))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        assert snap(app) is None  # auto-analysis off: nothing runs
        await pilot.press("n")  # step one iteration: starts a paused search
        await wait_for(pilot, lambda: (s := snap(app)) is not None and s.state == "paused"
                       and len(s.iterations) >= 1, 30, "the first iteration")
        first = len(snap(app).iterations)
        await pilot.press("n")
        await wait_for(pilot, lambda: len(snap(app).iterations) == first + 1
                       and snap(app).state == "paused", 30, "one more iteration")
        nodes = snap(app).nodes
        await pilot.press("N")  # step N nodes
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "5000"
        await pilot.press("enter")
        await wait_for(pilot, lambda: snap(app).nodes >= nodes + 5000
                       and snap(app).state == "paused", 30, "5000 more nodes")
        assert snap(app).nodes < nodes + 5000 + 1000  # pauses right after the count
        await wait_for(pilot, lambda: app.query_one("#path").display, 5, "the path panel")
        path = app.bridge.view(app.position).path
        assert path and path[0].ply == 0 and app.query_one("#path").row_count == len(path)
        assert "paused" in str(app.query_one("#status").render())
        log_rows = app.query_one("#log").row_count
        assert log_rows == len(snap(app).iterations) + 1  # completed ones + the paused one
        await pilot.press("space")  # resume
        await wait_for(pilot, lambda: snap(app).state == "searching"
                       or snap(app).state == "done", 5, "resume")
        await pilot.press("space")  # pause again
        await wait_for(pilot, lambda: snap(app).state == "paused", 5, "pause")
        await pilot.press("x")  # stop
        await wait_for(pilot, lambda: snap(app).state == "stopped", 5, "stop")


@pytest.mark.usefixtures("no_books")
@sync
async def test_node_limit_and_live_updates():
    app = C4App(Position.from_moves(DEEP), settings=SearchSettings(auto=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await pilot.press("l")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "30k"
        await pilot.press("enter")
        await pilot.press("g")  # analyse now, with the new limit
        await wait_for(pilot, lambda: (s := snap(app)) is not None and s.state == "node_limit",
                       30, "the node limit")
        s = snap(app)
        assert 30_000 <= s.nodes < 40_000
        assert s.iterations and s.best_move in app.position.legal_moves()
        await until(pilot, lambda: "node limit reached" in str(app.query_one("#status").render()),
                    "the status line's node limit")
        verdict = str(app.query_one("#analysis").render())
        assert "ahead" in verdict or "level" in verdict or "wins" in verdict
        # a new position starts a new search automatically
        await pilot.press("1")
        assert app.position.digits() == DEEP + "1"
        await wait_for(pilot, lambda: app.bridge.view(app.position).snapshot is not None,
                       10, "the new search")


@pytest.mark.usefixtures("no_books")
@sync
async def test_step_after_the_node_limit_goes_one_iteration_deeper():
    """Bug: n after a stopped or finished search ran many iterations from scratch and
    threw the deeper result away; the pending row showed the finished depth."""
    app = C4App(Position.from_moves(DEEP), settings=SearchSettings(auto=True,
                                                                   limits=Limits(nodes=30_000)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await wait_for(pilot, lambda: (s := snap(app)) is not None and s.state == "node_limit",
                       30, "the node limit")
        before = snap(app)
        done = len(before.iterations)
        await pilot.press("n")
        await wait_for(pilot, lambda: snap(app).state == "paused"
                       and len(snap(app).iterations) == done + 1, 60, "one more iteration")
        after = snap(app)
        assert after.iterations[:done] == before.iterations  # nothing thrown away
        assert after.nodes > before.nodes
        app.state_changed()
        await pilot.pause()
        rows = str(app.query_one("#log").render()).splitlines()
        assert rows[-1].split()[:2] == [str(done + 2), "paused"]  # the next depth
        await pilot.pause(0.6)  # a window for an iteration that must not come: not a wait
        assert len(snap(app).iterations) == done + 1  # and it stays paused


@pytest.mark.usefixtures("no_books")
@sync
async def test_heuristic_column_values_when_the_solver_gives_up():
    """Past the solver's 3 s budget each column gets a short search of its own (one disc
    and no books: the solver needs far more than 3 s)."""
    app = C4App(Position.from_moves("4"), settings=SearchSettings(auto=True,
                                                                  limits=Limits(nodes=30_000)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        legal = app.position.legal_moves()
        await wait_for(pilot, lambda: sum(v is not None for v in
                                          app.bridge.view(app.position).columns) == len(legal),
                       60, "a value per column")
        view = app.bridge.view(app.position)
        values = view.columns
        assert all(v.band == "heuristic" or v.proven for v in values if v is not None)
        for col in legal:  # the line behind each value: the column, then its search's PV
            line = view.line(col)
            # A column the solver bounded before giving up (likelier on a busy machine)
            # shows only its move: its search's line may disagree with the bound.
            assert line[:1] == (col,)
            lo, hi = view._bounds(col)
            bounded = view._partial(col) is not None or hi < 0 or lo > 0
            assert len(line) > 1 or bounded, (col, line, values[col])
            p = app.position.copy()
            for c in line:
                p.play(c)  # legal
        app.state_changed()
        await pilot.pause()
        board = str(app.query_one("#board").render())
        assert board.count("~") >= 1  # heuristic values read "~W" "~L" "~="


@sync
async def test_an_answer_without_a_book_is_not_called_books():
    """Bug (issue 24): a root where every move loses at once (17 discs, past the books)
    was answered without a lookup, yet the panel said "books best e" and the status line
    "from the books"."""
    app = C4App(Position.from_moves("44444433333355555"), settings=SearchSettings(auto=True))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await wait_for(pilot, lambda: (s := snap(app)) is not None and s.result is not None,
                       60, "the answer")
        app.state_changed()
        await until(pilot, lambda: "exact best e" in str(app.query_one("#analysis").render()),
                    "the answer on the screen")
        analysis = str(app.query_one("#analysis").render())
        status = str(app.query_one("#status").render())
        assert "exact best e" in analysis and "book" not in analysis, analysis
        assert "every move loses at once" in status and "book" not in status, status
