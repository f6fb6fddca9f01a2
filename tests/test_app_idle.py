"""An idle app wakes no one: the engine poll rests once nothing runs (issue 24, item 10).

The poll's wake-ups are counted at the bridge's ``tick``, which the 4 Hz timer calls.
"""

from __future__ import annotations

import time

import pytest
from c4tui.engine.board.position import Position
from pilot_util import LOAD_TIMEOUT, sync, wait_for

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.engine_view import EngineState, ExactStatus

pytestmark = pytest.mark.usefixtures("tmp_home")



def count_ticks(app: C4App) -> list[float]:
    """The times of the bridge's ticks from now on (one per poll), after the time now."""
    ticks: list[float] = [time.monotonic()]
    tick = app.bridge.tick

    def counted():
        ticks.append(time.monotonic())
        return tick()

    app.bridge.tick = counted
    return ticks


def settled(app: C4App) -> bool:
    """The search is done and the solver has nothing left to do for the position."""
    view = app.bridge.view(app.position)
    assert view.state not in (EngineState.FAILED, EngineState.NOT_AVAILABLE), view.message
    exact = view.exact
    return (view.state is EngineState.READY and view.snapshot is not None
            and not view.snapshot.state.active and exact is not None
            and exact.status is ExactStatus.DONE and exact.lines_done
            and app.bridge._exact is not None and app.bridge._exact._job is None)


async def rests(pilot, ticks: list[float], timeout: float) -> None:
    """Wait until a whole second has passed without a poll."""
    await wait_for(pilot, lambda: time.monotonic() - ticks[-1] > 1.0,
                   timeout, "the poll to rest")


@sync
async def test_the_poll_rests_after_the_search_and_wakes_for_a_request():
    app = C4App(Position.from_moves("4453"), settings=SearchSettings())
    async with app.run_test(size=(80, 24)) as pilot:
        ticks = count_ticks(app)
        await wait_for(pilot, lambda: settled(app), LOAD_TIMEOUT, "the search and solver")
        await rests(pilot, ticks, 10)  # before the fix: 4 polls a second, for ever
        before = len(ticks)
        await pilot.pause(2.0)  # a measurement window, not a synchronisation
        assert len(ticks) == before, "the idle app polled the engine"
        # a request wakes the poll: the search of the new position shows as it runs
        await pilot.press("3")
        await wait_for(pilot, lambda: len(ticks) > before, 5, "the poll to wake")
        await wait_for(pilot, lambda: settled(app), 60, "the new position's search")
        await rests(pilot, ticks, 10)


@sync
async def test_without_the_engine_nothing_polls():
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        ticks = count_ticks(app)
        await rests(pilot, ticks, 5)
        before = len(ticks)
        await pilot.pause(1.0)  # a measurement window
        assert len(ticks) == before
