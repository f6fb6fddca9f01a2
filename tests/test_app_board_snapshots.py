"""Snapshots of issue 27's board conveniences: the mirrored board, the best move marked,
the headers dialog, the tall graph with its scale (pytest-textual-snapshot; update with
``pytest --snapshot-update -k <test>``). Each in a state that does not depend on timing:
no engine, or auto-analysis off and exact values only."""

from __future__ import annotations

import pytest
from c4tui.engine.position import Position
from pilot_util import LOAD_TIMEOUT, until, wait_for

from c4tui.app import C4App, SearchSettings
from c4tui.app.engine_view import EngineState
from c4tui.app.screens.headers import HeadersScreen

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
    app = C4App(Position.from_moves(POSITION), settings=SearchSettings(auto=False))

    async def marked(pilot) -> None:
        await wait_for(pilot, lambda: settled(app), LOAD_TIMEOUT, "the exact values")
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
