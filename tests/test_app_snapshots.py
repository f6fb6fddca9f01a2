"""Snapshot tests of the main screen (pytest-textual-snapshot), kept few: they are slow.

Deterministic by construction: auto-analysis is off (no node counts or timings on screen),
and the position is late enough that the exact solver's values, which are exact and do not
depend on timing, arrive quickly. Update with ``pytest --snapshot-update``.
"""

from __future__ import annotations

import time

import pytest
from c4tui.engine.position import Position

from c4tui.app import C4App, SearchSettings
from c4tui.app.engine_view import EngineState

pytestmark = pytest.mark.usefixtures("tmp_home")

POSITION = "773777222545245661"  # White to move; c3 wins; both sides have threats


def analysed_app() -> tuple[C4App, object]:
    app = C4App(Position.from_moves(POSITION), settings=SearchSettings(auto=False))

    async def settle(pilot) -> None:
        end = time.monotonic() + 240  # cold numba cache: the kernels compile first
        while True:
            view = app.bridge.view(app.position)
            exact = view.exact
            if view.state is EngineState.READY and exact is not None \
                    and exact.best is not None and exact.lines_done \
                    and view.verdict is not None:
                break
            assert time.monotonic() < end, f"engine not ready: {view.state} {view.message}"
            await pilot.pause(0.1)
        await pilot.press("t")  # threat map on
        app.show()
        await pilot.pause()

    return app, settle


def test_main_screen_80x24(snap_compare):
    app, settle = analysed_app()
    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)


def test_main_screen_120x40(snap_compare):
    app, settle = analysed_app()
    assert snap_compare(app, terminal_size=(120, 40), run_before=settle)


def test_without_engine_80x24(snap_compare):
    app = C4App(Position.from_moves("4453"), engine=False)
    assert snap_compare(app, terminal_size=(80, 24), press=["left", "_"])
