"""The fake engine bridge (tests/fake_bridge.py) tells the app what the real one would: a
state change and each search iteration redraw it, its values are tests/data's, and a
position it does not know shows no value at all."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.seam import SearchState
from fake_bridge import FakeBridge, data_scores, fake_bridge
from pilot_util import searched, sync, until

from c4tui.app import C4App
from c4tui.app.bridge.engine_view import EngineState, ExactStatus

pytestmark = pytest.mark.usefixtures("tmp_home")


def status(app: C4App) -> str:
    return str(app.query_one("#status").render())


@sync
async def test_loading_then_ready_redraws_the_app():
    app = C4App(Position.from_moves("5354"), bridge=fake_bridge(state=EngineState.LOADING))
    async with app.run_test(size=(80, 24)) as pilot:
        bridge = app.bridge
        assert isinstance(bridge, FakeBridge)
        await until(pilot, lambda: bridge.started, "the app to start the bridge")
        await until(pilot, lambda: "loading engine" in status(app), "loading on the status line")
        await pilot.press("n")
        assert app.last_error == "search: the engine is not ready yet (loading engine)"
        bridge.become(EngineState.READY)  # nothing else redraws: the bridge's update does
        await until(pilot, lambda: searched(app) and "loading" not in status(app),
                    "the search's end drawn")
        view = bridge.view(app.position)
        assert view.exact is not None and view.exact.scores == data_scores("5354")
        assert view.snapshot is not None and view.snapshot.state is SearchState.DONE
        assert len(view.snapshot.iterations) == 3  # each told to the app as it came


@sync
async def test_a_failed_engine_says_why():
    app = C4App(Position.from_moves("4"),
                bridge=fake_bridge(state=EngineState.FAILED, message="no numba here"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("R")
        assert app.last_error == "review: the engine failed (no numba here)"


@sync
async def test_an_unknown_position_has_no_values():
    app = C4App(Position.from_moves("4453"), bridge=fake_bridge())  # not in tests/data
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.bridge.view(app.position)
        assert view.exact is not None and view.exact.status is ExactStatus.SOLVING
        assert view.snapshot is not None and view.snapshot.state is SearchState.SEARCHING
        assert view.snapshot.iterations == () and view.values() == (None,) * 7
        await pilot.press("space")  # the search keys still answer as the real ones
        assert app.last_message == "paused"
