"""Multi-PV in the workstation: key ``m`` and the analysis panel's lines."""

from __future__ import annotations

import pytest
from c4tui.engine.analysis.controller import run_search
from c4tui.engine.board.geometry import COLUMN_NAMES
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits, SearchOptions
from fake_bridge import fake_bridge
from pilot_util import LOAD_TIMEOUT, engine_ready, screen_text, sync, until, wait_for
from textual.app import App, ComposeResult

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.engine_view import EngineState, EngineView
from c4tui.app.widgets import AnalysisPanel

pytestmark = pytest.mark.usefixtures("tmp_home")

#: 24 discs (tests/data): the search reaches full depth in a moment, its lines exact
LATE = "357332771543315157431465"


@sync
async def test_m_shows_the_three_best_lines_in_the_panel():
    pos = Position.from_moves(LATE)
    app = C4App(pos, bridge=fake_bridge())  # the lines' values: tests/data's
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        own = app.screen.query_one(AnalysisPanel).size.height  # the style sheet's
        await pilot.press("m")
        await until(pilot, lambda: app.settings.options.multipv == 2, "two lines asked for")
        await pilot.press("m")

        def three_lines():
            snap = app.bridge.view(app.position).snapshot
            return snap is not None and snap.result is not None and len(snap.lines) == 3

        await wait_for(pilot, three_lines, 60, "a finished search with 3 lines")
        await pilot.pause()
        snap = app.bridge.view(app.position).snapshot
        panel = screen_text(app)
        rows = app.screen.query_one(AnalysisPanel).render().plain.splitlines()
        assert [r[:3] for r in rows[3:6]] == ["1 d", "2 f", "3 g"]  # tests/data: 8, 7, 6
        for i, line in enumerate(snap.lines):
            first = pos.line_squares(line.pv)[0]
            assert f"{i + 1} {COLUMN_NAMES[line.move]}" in panel and first in panel
        assert app.settings.options.multipv == 3
        assert app.screen.query_one(AnalysisPanel).size.height == 7  # a row per line
        await pilot.press("m", "m")  # every move, then back to one line
        await until(pilot, lambda: app.settings.options.multipv == 1, "one line again")

        def one_line():
            snap = app.bridge.view(app.position).snapshot
            return snap is not None and snap.result is not None and len(snap.lines) == 1

        await wait_for(pilot, one_line, 60, "a finished search with one line")
        await pilot.pause()
        rows = app.screen.query_one(AnalysisPanel).render().plain.splitlines()
        assert rows[3].startswith("pv") and not any(r.startswith("2 ") for r in rows)
        await until(pilot, lambda: app.screen.query_one(AnalysisPanel).size.height == own,
                    "the panel's own height again (the graph below it)")


class PanelApp(App[None]):
    """The analysis panel alone, showing a finished multi-PV search."""

    def __init__(self, pos: Position, view: EngineView) -> None:
        super().__init__()
        self.pos, self.view = pos, view

    def compose(self) -> ComposeResult:
        yield AnalysisPanel()

    def on_mount(self) -> None:
        panel = self.query_one(AnalysisPanel)
        panel.position, panel.view, panel.cursor = self.pos, self.view, 6


def test_panel_with_three_lines_80x24(snap_compare):
    pos = Position.from_moves(LATE)
    ctl_opts = SearchOptions(use_book=False, multipv=3)
    from c4tui.engine.analysis.controller import SearchController

    ctl = SearchController()
    ctl.start(pos, Limits(nodes=None), ctl_opts)
    ctl.wait()
    snap = ctl.snapshot()
    ctl.close()
    assert run_search(pos, Limits(nodes=None), ctl_opts).lines == snap.lines
    view = EngineView(EngineState.READY, SearchSettings(options=SearchOptions(multipv=3)),
                      search_available=True, snapshot=snap)
    assert snap_compare(PanelApp(pos, view), terminal_size=(80, 12))
