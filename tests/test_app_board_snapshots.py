"""Snapshots of issue 27's board conveniences: the mirrored board, the best move marked,
the headers dialog, the tall graph with its scale, the search log scrolled back
(pytest-textual-snapshot; update with ``pytest --snapshot-update -k <test>``). Each in a
state that does not depend on timing: no engine, or auto-analysis off and exact values
only, or made-up records."""

from __future__ import annotations

import dataclasses

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, IterationReport, Score, SearchState, Snapshot
from fake_bridge import fake_bridge
from pilot_util import LOAD_TIMEOUT, until, wait_for
from test_app_navigator import fake_view

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.engine_view import EngineState
from c4tui.app.screens.headers import HeadersScreen
from c4tui.app.widgets import SearchLog

pytestmark = pytest.mark.usefixtures("tmp_home")

POSITION = "773777222545245661"  # White to move; c3 wins (tests/test_app_snapshots.py's)


def settled(app: C4App) -> bool:
    """The viewed position's exact values, their lines and the verdict are in."""
    view = app.bridge.view(app.position)
    exact = view.exact
    return view.state is EngineState.READY and exact is not None and exact.best is not None \
        and exact.lines_done and view.verdict is not None


def test_flipped_board_80x24(snap_compare):
    app = C4App(Position.from_moves("4453"), engine=False)
    assert snap_compare(app, terminal_size=(80, 24), press=["F", "left"])


def test_best_move_marked_80x24(snap_compare):
    # tests/data's: White to move, b1 wins (score 18: with White's 4th disc); the fake
    # bridge gives the data's values, no lines
    app = C4App(Position.from_moves("3643"), settings=SearchSettings(auto=False),
                bridge=fake_bridge())

    async def marked(pilot) -> None:
        await until(pilot, lambda: settled(app), "the exact values")
        await pilot.press("b")
        await until(pilot, lambda: app.main.board.marked != (), "the best move marked")
        app.state_changed()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=marked)


def test_headers_dialog_80x24(snap_compare):
    app = C4App(Position.from_moves("4453"), engine=False,
                headers={"Event": "Club night", "Date": "2024.05.??", "White": "Ann",
                         "Black": "Bob", "Annotator": "Zoe"})

    async def dialog(pilot) -> None:
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, HeadersScreen), "the dialog")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=dialog)


def test_wide_graph_160x50(snap_compare):
    """A game walked ply by ply on a wide terminal: the tall graph with its scale, every
    ply's exact value in it."""
    app = C4App(Position.from_moves(POSITION), settings=SearchSettings(auto=False))

    async def walked(pilot) -> None:
        await wait_for(pilot, lambda: settled(app), LOAD_TIMEOUT, "the exact values")
        await pilot.press("home")
        for _ in POSITION:
            await wait_for(pilot, lambda: settled(app), 60, f"ply {app.model.ply}'s values")
            await pilot.press("down")
        await wait_for(pilot, lambda: settled(app), 60, "the last ply's values")
        app.clear_notifications()
        app.state_changed()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(160, 50), run_before=walked)


#: Made-up iterations of a search of 4453 (White to move, Black ahead as in the made-up
#: exact values of ``fake_view``): depth, score, nodes, PV; 1.9M nodes in all.
ITERATIONS = ((1, -25, 5, (3,)), (2, 0, 21, (3, 3)), (3, -50, 64, (3, 3, 2)),
              (4, -25, 200, (3, 3, 2, 2)), (5, -75, 560, (3, 3, 2, 2, 4)),
              (6, -50, 1_500, (3, 3, 2, 2, 4, 4)), (7, -75, 3_900, (3, 3, 2, 2, 4, 4, 1)),
              (8, -50, 9_800, (3, 3, 2, 2, 4, 4, 1, 1)), (9, -100, 24_000, (2, 3, 3, 2, 4)),
              (10, -75, 61_000, (2, 3, 3, 2, 4, 4)), (11, -125, 150_000, (2, 3, 3, 2, 4, 2, 1)),
              (12, -100, 380_000, (2, 3, 3, 2, 4, 2, 1, 1)),
              (13, -150, 540_000, (2, 3, 3, 2, 4, 2, 1, 1, 4)),
              (14, -125, 760_000, (2, 3, 3, 2, 4, 2, 1, 1, 4, 4)))


def search_of(depths: int) -> Snapshot:
    """A finished search of the first ``depths`` of :data:`ITERATIONS` (1M nodes a second,
    aspiration windows around the last score)."""
    its, total, last = [], 0, 0
    for depth, score, nodes, pv in ITERATIONS[:depths]:
        total += nodes
        alpha, beta = (-10_000, 10_000) if depth == 1 else (last - 50, last + 50)
        its.append(IterationReport(
            depth=depth, alpha=alpha, beta=beta, fail_highs=int(score > last + 25),
            fail_lows=int(score < last - 25), score=Score(score, Band.HEURISTIC),
            best_move=pv[0], nodes=nodes, nps=1_000_000, tt_probes=nodes // 2,
            tt_hits=nodes // 4, hit_rate=0.5, tt_fill=total / 4_000_000,
            elapsed=nodes / 1e6, pv=pv, total_nodes=total))
        last = score
    it = its[-1]
    return Snapshot(state=SearchState.DONE, depth=it.depth, nodes=total, nps=1_000_000,
                    elapsed=total / 1e6, best_move=it.best_move, score=it.score,
                    iterations=tuple(its))


def test_search_log_scrolled_back_80x24(snap_compare, monkeypatch):
    """The log scrolled back three rows holds still when two more iterations come: its
    border then says five rows are below (made-up records, no engine)."""
    app = C4App(Position.from_moves("4453"), engine=False)
    view = dataclasses.replace(fake_view(), snapshot=search_of(12))
    monkeypatch.setattr(app.bridge, "view", lambda pos: view)

    async def scrolled(pilot) -> None:
        nonlocal view
        app.state_changed()
        await pilot.pause()
        log = app.query_one(SearchLog)
        log.focus()
        await pilot.press("up", "up", "up")
        assert log.border_subtitle == "↓ 3 more (end)"
        view = dataclasses.replace(view, snapshot=search_of(14))
        app.state_changed()
        await until(pilot, lambda: log.border_subtitle == "↓ 5 more (end)", "the rows held")

    assert snap_compare(app, terminal_size=(80, 24), run_before=scrolled)
