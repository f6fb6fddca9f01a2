"""Pilot tests of the lines behind the columns, previews and the graph as a navigator.

Most use the app without the engine and a made-up :class:`EngineView` (the bridge's
``view`` replaced), so that what is drawn is known exactly; the last one runs the real
engine to check that the exact worker finds the lines the panel shows.
"""

from __future__ import annotations

import re

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, PathEntry, Score
from pilot_util import sync
from test_app_engine import LOAD_TIMEOUT, engine_ready, wait_for

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.engine_view import EngineState, EngineView, ExactEntry, ExactStatus
from c4tui.app.widgets import AnalysisPanel, BoardView, EvalGraph, SearchPath
from c4tui.report.text import pv_text

pytestmark = pytest.mark.usefixtures("tmp_home")

MOVES = "4453"  # White to move
#: made-up values and lines (legal, not perfect: the panel draws what it is given)
SCORES = (-3, -3, -1, -2, -1, -1, -1)
LINES = ((0, 0), (1,), (2, 2, 3), (3, 3, 3, 4), (4, 4), (5, 6), (6, 5))
PATH = (PathEntry(0, 5, -1, 1, 0), PathEntry(1, 5, -1, 1, 2), PathEntry(2, -1, -1, 1, 0))


def fake_view(path: tuple[PathEntry, ...] = ()) -> EngineView:
    exact = ExactEntry(ExactStatus.DONE, SCORES, lines=LINES, lines_done=True)
    return EngineView(EngineState.READY, SearchSettings(), search_available=True,
                      solver_available=True, exact=exact, path=path)


def faked(moves: str = MOVES, path: tuple[PathEntry, ...] = ()) -> C4App:
    app = C4App(Position.from_moves(moves), engine=False)
    app.bridge.view = lambda pos: fake_view(path)  # type: ignore[method-assign]  # a fake engine view
    return app


def ghosts(app: C4App) -> list[str]:
    """The numbered ghost discs on the board, in the line's order."""
    found = re.findall(r"[●○◆◇](\d+)", str(app.query_one(BoardView).render()))
    return sorted(found, key=int)


def panel_row(app: C4App, label: str) -> str:
    text = str(app.query_one(AnalysisPanel).render())
    return next(r for r in text.splitlines() if r.startswith(label))


# ------------------------------------------------------------------ the cursor's line
@sync
async def test_the_cursor_column_shows_its_line():
    app = faked()
    async with app.run_test(size=(80, 24)) as pilot:
        app.state_changed()
        await pilot.pause()
        pos = app.position
        d, e, a = (Score(SCORES[c], Band.EXACT).short(4) for c in (3, 4, 0))
        assert panel_row(app, "col d") == f"col d   {d} {pv_text(pos, LINES[3])}"
        await pilot.press("right")  # the cursor moves: its line follows at once
        await pilot.pause()
        assert panel_row(app, "col e") == f"col e   {e} {pv_text(pos, LINES[4])}"
        await pilot.hover("#board", offset=(2 + 2 + 0 * 4 + 1, 5))  # the mouse too
        await pilot.pause()
        assert panel_row(app, "col a") == f"col a   {a} a1 a2"
        assert app.model.line == [3, 3, 4, 2]  # nothing was played


# ------------------------------------------------------------------ previews with keys
@sync
async def test_preview_keys_show_ghosts_and_leave_the_game():
    app = faked()
    async with app.run_test(size=(80, 24)) as pilot:
        app.state_changed()
        await pilot.press("v")  # the cursor column's line (d): its first move
        assert ghosts(app) == ["1"]
        await pilot.press("full_stop", "full_stop", "full_stop", "full_stop")
        assert ghosts(app) == ["1", "2", "3", "4"]  # and no further than the line
        board = app.query_one(BoardView)
        text = str(board.render())
        assert "●1" in text and "○2" in text  # the owners read without colour
        assert board.border_subtitle.startswith("preview col d: 4… e2")
        await pilot.press("comma")
        assert ghosts(app) == ["1", "2", "3"]
        assert app.model.line == [3, 3, 4, 2] and app.position.digits() == MOVES
        assert board.position.digits() == MOVES
        await pilot.press("escape")
        assert ghosts(app) == [] and not board.border_subtitle
        await pilot.press("v", "up")  # moving in the game ends a preview
        assert app.position.ply == 3 and ghosts(app) == [] and app.preview.current is None
        await pilot.press("comma")
        assert "nothing previewed" in app.last_error


@sync
async def test_preview_of_a_full_column_says_why():
    app = faked("444444")
    app.bridge.view = lambda pos: EngineView(EngineState.READY, SearchSettings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("v")  # the cursor is on d, which is full
        assert "column d is full" in app.last_error and app.preview.current is None
        await pilot.press("right", "v")
        assert "column e has no value yet" in app.last_error


# ------------------------------------------------------------------ previews with the mouse
@sync
async def test_hovering_a_line_previews_it_and_leaving_ends_it():
    app = faked()
    async with app.run_test(size=(80, 24)) as pilot:
        app.state_changed()
        await pilot.pause()
        panel = app.query_one(AnalysisPanel)
        # the cursor line's third move (d5): its span says where it is drawn
        span = next(s for s in panel._spans if s.source == "col d" and s.upto == 3)
        await pilot.hover(panel, offset=(span.x0, span.row))
        await pilot.pause()
        assert ghosts(app) == ["1", "2", "3"] and app.preview.current.hover
        assert "reverse" in str(panel.render().spans)  # the hovered move is marked
        await pilot.hover("#board", offset=(2, 2))  # the mouse leaves the line
        await pilot.pause()
        assert ghosts(app) == [] and app.preview.current is None
        await pilot.click(panel, offset=(span.x0, span.row))  # a click pins it
        await pilot.hover("#board", offset=(2, 2))
        await pilot.pause()
        assert ghosts(app) == ["1", "2", "3"]
        await pilot.press("escape")
        assert ghosts(app) == []
        assert app.model.line == [3, 3, 4, 2]


@sync
async def test_the_search_path_previews_by_row_and_with_z():
    app = faked(path=PATH)
    async with app.run_test(size=(120, 40)) as pilot:
        app.state_changed()
        await pilot.pause()
        path = app.query_one(SearchPath)
        assert path.display
        # inside the border: the header, then one row per ply
        await pilot.hover(path, offset=(2, 2))  # the first row: f1
        await pilot.pause()
        assert ghosts(app) == ["1"] and app.preview.current.source == "path"
        await pilot.hover(path, offset=(2, 4))  # "(here)": the whole path, f1 f2
        await pilot.pause()
        assert ghosts(app) == ["1", "2"]
        await pilot.hover("#board", offset=(2, 2))
        await pilot.pause()
        assert ghosts(app) == []
        await pilot.press("z", "comma")
        assert ghosts(app) == ["1"]
    app = faked()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("z")
        assert "no search path" in app.last_error


# ------------------------------------------------------------------ the graph
@sync
async def test_the_graph_is_a_chart_and_a_navigator(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = C4App(Position.from_moves("44536"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.no_color
        graph = app.query_one(EvalGraph)
        app.evals.line = lambda moves: (0.0, 0.2, -0.9, None, 0.0, 0.6)
        app.evals.exact_line = lambda moves: (True, False, True, False, False, True)
        app.state_changed()
        await pilot.pause()
        rows = str(graph.render()).splitlines()
        assert len(rows) == 3  # White above, the zero axis, Black below
        top, axis, bottom = (r[:7] for r in rows)
        assert top[0] == "W" and axis[0] == "0" and bottom[0] == "B"  # the legend
        # ply 0 exact draw, 1 a search's lean to White, 2 an exact Black win, 3 not
        # evaluated, 4 a level search value, 5 viewed (the last ply): an exact White win
        assert axis[1:] == "=──·~┼"
        assert top[2] == "░" and bottom[2] == " "  # a lean: shaded, above
        assert top[3] == " " and bottom[3] not in " ░"  # exact: a block, below
        assert top[6] not in " ░│" and bottom[6] == "│"  # the viewed ply's line
        # a click on a ply views it
        await pilot.click(graph, offset=(1 + 2, 1))
        assert app.model.ply == 2
        # the focused graph moves with the arrows, home and end
        graph.focus()
        await pilot.press("right")
        assert app.model.ply == 3
        await pilot.press("home")
        assert app.model.ply == 0
        await pilot.press("end")
        assert app.model.ply == 5
        await pilot.press("left", "left")
        assert app.model.ply == 3
        assert app.query_one(BoardView).cursor == 3  # the board's cursor did not move
        app.query_one(BoardView).focus()
        await pilot.press("left")  # the board again: the arrows move the cursor
        assert app.model.ply == 3 and app.query_one(BoardView).cursor == 2


# ------------------------------------------------------------------ the real engine
#: 24 discs: the solver answers in milliseconds, every line reaches the game's end
LATE = "357332771543315157431465"


@sync
async def test_the_exact_worker_finds_the_lines_shown():
    app = C4App(Position.from_moves(LATE), settings=SearchSettings(auto=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await wait_for(pilot, lambda: (e := app.bridge.view(app.position).exact) is not None
                       and e.lines_done, 60, "the lines")
        view = app.bridge.view(app.position)
        pos = app.position
        for col in pos.legal_moves():
            line = view.line(col)
            assert line[0] == col
            p = pos.copy()
            for c in line:
                p.play(c)  # legal
            assert p.is_over  # a whole line
        app.state_changed()
        await pilot.pause()
        col = app.query_one(BoardView).cursor
        row = panel_row(app, "col ")
        assert pv_text(pos, view.line(col)).split()[0] in row
        await pilot.press("v")
        assert ghosts(app) == ["1"]
