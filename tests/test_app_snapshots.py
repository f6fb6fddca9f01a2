"""Snapshot tests of the main screen (pytest-textual-snapshot), kept few: they are slow.

Deterministic by construction: auto-analysis is off (no node counts or timings on screen),
and the position is late enough that the exact solver's values, which are exact and do not
depend on timing, arrive quickly. Update with ``pytest --snapshot-update``.
"""

from __future__ import annotations

import time

import pytest
from c4tui.engine.board.position import Position
from fake_bridge import fake_bridge
from pilot_util import LOAD_TIMEOUT, until, wait_for

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.engine_view import EngineState

pytestmark = pytest.mark.usefixtures("tmp_home")

POSITION = "773777222545245661"  # White to move; c3 wins; both sides have threats
DATA_POSITION = "5354"  # tests/data's: the fake bridge knows its values


def analysed_app() -> tuple[C4App, object]:
    app = C4App(Position.from_moves(POSITION), settings=SearchSettings(auto=False))

    async def settle(pilot) -> None:
        def analysed() -> bool:
            view = app.bridge.view(app.position)
            exact = view.exact
            return view.state is EngineState.READY and exact is not None \
                and exact.best is not None and exact.lines_done and view.verdict is not None

        await wait_for(pilot, analysed, LOAD_TIMEOUT, "the exact values, lines and verdict",
                       detail=lambda: app.bridge.view(app.position).message)
        await pilot.press("t")  # threat map on
        app.state_changed()
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


# ----------------------------------------------------------- the analysis-board features
# One snapshot per feature of issue 17, each in a state that does not depend on timing.

TREE = """[Event "Snapshot"]
[White "Ann"]
[Black "Bob"]

1. d1 {the centre} d2 2. e1 (2. c1 c2 3. d3 {a side line}) 2... c1 3. f1 g1 *
"""


def test_variations_80x24(snap_compare):
    from c4tui.gamefile import parse_game

    game = parse_game(TREE)
    app = C4App(game.position, engine=False, headers=game.headers, tree=game.tree)
    # up to 2. e1, then into the side line's first move with ] (next alternative)
    assert snap_compare(app, terminal_size=(80, 24), press=["up", "up", "up", "]"])


def test_preview_80x24(snap_compare):
    """A line previewed as ghost discs (no engine: the line is the one the test gives)."""
    from c4tui.app.controllers import Preview

    app = C4App(Position.from_moves("4453"), engine=False)

    async def preview(pilot) -> None:
        app.preview.set(Preview((5, 2, 5, 1, 5), 4, "col f"))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=preview)


def _games(monkeypatch) -> None:
    """Three games in a data directory at a fixed path (its path is on the screen)."""
    import os
    import shutil
    from pathlib import Path

    base = Path("/tmp/c4tui-snapshot-data")
    shutil.rmtree(base, ignore_errors=True)
    games = base / "c4tui"
    games.mkdir(parents=True)
    for i, (name, moves, white) in enumerate([("opening.c4g", "4453", "Ann"),
                                               ("endgame.c4g", POSITION, "Bob"),
                                               ("notes.txt", "44", "?")]):
        (games / name).write_text(f'[White "{white}"]\n[Black "?"]\n\n{moves}\n')
        stamp = 1_795_000_000 + 3600 * i  # fixed times: the list shows them
        os.utime(games / name, (stamp, stamp))
    monkeypatch.setenv("XDG_DATA_HOME", str(base))
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def test_file_picker_80x24(snap_compare, monkeypatch):
    _games(monkeypatch)
    app = C4App(Position(), engine=False)
    assert snap_compare(app, terminal_size=(80, 24), press=["o", "down"])


def test_games_list_80x24(snap_compare, monkeypatch):
    _games(monkeypatch)
    app = C4App(Position(), engine=False)

    async def listed(pilot) -> None:
        await pilot.press("G")
        await until(pilot, lambda: app.screen.query("#games-table")  # read in a thread
                    and app.screen.query_one("#games-table").row_count == 3, "the games list")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=listed)


def test_review_80x24(snap_compare):
    """A 42-move draw reviewed (R): marks in the move list, the graph filled, the viewed
    move's mark and better move in the panel."""
    app = C4App(Position.from_moves("445367645113556617452263332164771431722527"),
                settings=SearchSettings(auto=False))

    async def reviewed(pilot) -> None:
        await wait_for(pilot, lambda: app.bridge.view(app.position).state is EngineState.READY,
                       LOAD_TIMEOUT, "the engine")
        await pilot.press("R")
        await wait_for(pilot, lambda: (job := app.review.job) is not None
                       and job.result is not None, 60, "the review")
        app.game_tree.goto(22)
        await wait_for(pilot, lambda: (e := app.bridge.view(app.position).exact) is not None
                       and e.lines_done and app.bridge.view(app.position).verdict is not None,
                       60, "the exact values, lines and verdict")
        app.state_changed()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=reviewed)


def test_play_dialog_80x24(snap_compare):
    """p: the engine's side, strength and hints (the dialog needs a loaded engine: the
    fake bridge's, with tests/data's values of the position)."""
    app = C4App(Position.from_moves(DATA_POSITION), settings=SearchSettings(auto=False),
                bridge=fake_bridge())

    async def dialog(pilot) -> None:
        await until(pilot, lambda: (v := app.bridge.view(app.position)).state
                    is EngineState.READY and v.exact is not None and v.exact.lines_done
                    and v.verdict is not None, "the exact values and verdict")
        await pilot.press("p")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=dialog)


def test_paused_search_path_120x40(snap_compare):
    """The search path of a paused search, its moves numbered as the move list numbers
    them, down to the (here) row inside its panel (made-up path: no engine)."""
    from c4tui.engine.seam import PathEntry
    from test_app_navigator import faked

    moves = (1, 4, 4, 1, 2, 4, 3, 5, 4, 0, 4, 0, 3)  # legal, the game goes on
    path = tuple(PathEntry(i, c, -1, 1, i % 3) for i, c in enumerate(moves))
    app = faked("4453", (*path, PathEntry(len(moves), -1, -1, 1, 0)))

    async def show(pilot) -> None:
        app.state_changed()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 40), run_before=show)
