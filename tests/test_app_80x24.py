"""What a user at 80x24 sees (issue 24, item 9): nothing important cut, nothing covered,
every row reachable from the keyboard. The screen's text is read as the terminal shows it."""

from __future__ import annotations

import dataclasses
import io

import pytest
from c4tui.engine.board.position import Position
from pilot_util import screen_text, sync, until
from rich.console import Console
from test_app import _iteration, _snapshot
from textual.widgets import HelpPanel
from textual.widgets._key_panel import BindingsTable

from c4tui.app import C4App
from c4tui.app.bridge.engine_view import EngineState, EngineView, ExactEntry, ExactStatus
from c4tui.app.widgets import AnalysisPanel, SearchLog, StatusLine

pytestmark = pytest.mark.usefixtures("tmp_home")


def quiet_app(moves: str = "4453") -> C4App:
    app = C4App(Position.from_moves(moves), engine=False)
    return app


def row(app: C4App, start: str) -> str:
    """The screen's line whose panel text begins with ``start``."""
    return next(line for line in screen_text(app).splitlines() if f"│ {start}" in line)


@sync
async def test_the_exact_verdict_is_never_cut():
    app = quiet_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        # six best moves of seven: "best a b c e f g · White wins in 18" did not fit
        exact = ExactEntry(ExactStatus.DONE, scores=(3, 3, 3, -1, 3, 3, 3))
        app.query_one(AnalysisPanel).view = EngineView(EngineState.READY, app.settings,
                                                       solver_available=True, exact=exact)
        await pilot.pause()
        line = row(app, "exact")
        assert "White wins in 17" in line and "…" not in line, line
        assert "best abcefg ·" in line


@sync
async def test_long_search_log_moves_end_in_an_ellipsis_and_the_log_scrolls_by_keys():
    app = quiet_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(SearchLog)
        long = (2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 0, 0, 1, 1)
        its = [dataclasses.replace(_iteration(d, 470 + d), pv=long) for d in range(1, 13)]
        log.snapshot = _snapshot(its)
        await pilot.pause()
        rows = [line for line in screen_text(app).splitlines() if "[-∞,∞]" in line]
        assert rows and all(r.rstrip(" │").endswith("…") for r in rows), rows
        assert all(not r.rstrip(" │").endswith(("c", "d", "e")) for r in rows)
        first = [line.split()[1] for line in screen_text(app).splitlines()
                 if "[-∞,∞]" in line]
        assert "1" not in first  # the earliest rows are above the panel
        log.focus()
        await pilot.press("home")
        shown = [line.split()[1] for line in screen_text(app).splitlines()
                 if "[-∞,∞]" in line]
        assert shown[0] == "1" and "more (end)" in screen_text(app)
        await pilot.press("end")
        assert [line.split()[1] for line in screen_text(app).splitlines()
                if "[-∞,∞]" in line] == first
        assert app.position.ply == 4  # the keys scrolled the log, not the game


@sync
async def test_the_key_panel_covers_without_squeezing_and_says_quit_once():
    app = quiet_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        # the panel lists the board's keys, the screen's, then the app's (quit among
        # them, below the fold at 24 rows): read it whole
        table = app.screen.query_one(HelpPanel).query_one(BindingsTable)
        console = Console(width=60, record=True, file=io.StringIO())
        console.print(table.render_bindings_table())
        keys = console.export_text()
        assert "Quit the app" not in keys and "^q q quit" in keys
        # the panels keep their width under it: the log's header is whole
        assert "window   re score  nodes" in text
        assert app.query_one(AnalysisPanel).size.width > 40


@sync
async def test_a_message_does_not_cover_the_status_line():
    app = quiet_app("4453")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("n")  # an error toast
        await until(pilot, lambda: (ts := list(app.screen.query("Toast")))
                    and all(t.region.area for t in ts), "the error toast laid out")
        toasts = list(app.screen.query("Toast"))
        status = app.query_one(StatusLine).region
        for toast in toasts:
            assert toast.region.bottom <= status.y, (toast.region, status)


@sync
async def test_the_play_mode_status_line_fits():
    from c4tui.app.bridge.player import PlaySettings
    from c4tui.units import Strength

    app = C4App(Position.from_moves("4453"), engine=False,
                play=PlaySettings(side=1, strength=Strength.of_nodes(100_000)), hints=False)
    async with app.run_test(size=(80, 24)) as pilot:
        its = [_iteration(d, 470 + d) for d in range(1, 13)]
        app.query_one(StatusLine).view = EngineView(
            EngineState.READY, app.settings, search_available=True,
            snapshot=_snapshot(its, state="done"))
        await pilot.pause()
        status = screen_text(app).splitlines()[-2]
        assert "your move (White) · engine 100k nodes · hints off (h)  ● done" in status
        assert "…" not in status, status
        await pilot.press("up")
        status = screen_text(app).splitlines()[-2]
        assert "viewing 2. e1: end returns · hints off (h)" in status and "…" not in status


@sync
async def test_recent_files_show_missing_whole_beside_a_long_folder(tmp_path):
    from c4tui import gamefile, recent

    deep = tmp_path / ("a-folder-with-a-rather-long-name-" * 3) / "games"
    gone = deep / "gone.c4g"
    gamefile.save_game(gone, Position.from_moves("4"))
    recent.add_recent(gone)
    gone.unlink()
    app = quiet_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("O")
        await pilot.pause()
        line = next(x for x in screen_text(app).splitlines() if "gone.c4g" in x)
        assert "missing" in line and "…a-folder-with-a-rather-long-name-/games " in line, line


@sync
async def test_the_threat_verdict_comes_first_and_whole():
    from c4tui.engine.seam import ThreatVerdict

    from c4tui.app.widgets import ThreatPanel
    from c4tui.report.text import milton_verdict

    app = quiet_app("2162465655266426154514")  # long threat lists on both sides
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        panel = app.query_one(ThreatPanel)
        verdict = ThreatVerdict(1, 12)
        panel.verdict = verdict
        await pilot.pause()
        words = milton_verdict(app.position, verdict)
        assert len(words) > panel.size.width  # two lines
        shown = " ".join(line.split("│")[-2].strip() for line in screen_text(app).splitlines()
                         if line.count("│") >= 2 and line.startswith("│"))
        assert f"heuristic, no new threats → {words}" in " ".join(shown.split()), shown
