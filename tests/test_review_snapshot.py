"""Snapshot of a reviewed game (key R) with an inaccuracy: ``g2?!`` in the move list and
the analysis panel, each side's accuracy on the status line.

Deterministic: auto-analysis off, a position whose exact values and lines come at once,
the review's toast cleared before the picture (it would depend on the time taken).
"""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from pilot_util import LOAD_TIMEOUT, until, wait_for

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.engine_view import EngineState

pytestmark = pytest.mark.usefixtures("tmp_home")


def test_review_inaccuracy_80x24(snap_compare):
    """1. d1 d2 2. c1?? c2?? 3. b1 g1 4. g2?! (a1 and e1 win at once) reviewed."""
    app = C4App(Position.from_moves("4433277"), settings=SearchSettings(auto=False))

    async def reviewed(pilot) -> None:
        await wait_for(pilot, lambda: app.bridge.view(app.position).state is EngineState.READY,
                       LOAD_TIMEOUT, "the engine")
        await pilot.press("R")
        await wait_for(pilot, lambda: (job := app.review.job) is not None
                       and job.result is not None, 60, "the review")
        await wait_for(pilot, lambda: (e := app.bridge.view(app.position).exact) is not None
                       and e.lines_done and app.bridge.view(app.position).verdict is not None,
                       60, "the exact values, lines and verdict")
        app.state_changed()
        await until(pilot, lambda: "accuracy" in str(app.query_one("#status").render()),
                    "the accuracy on the status line")
        app.clear_notifications()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=reviewed)
