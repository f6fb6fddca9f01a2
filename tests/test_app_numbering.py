"""One numbering wherever the user reads it (issue 24, item 8): moves are named as the
move list writes them (``3. c2``, ``2… e2``), counts have their plural right."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.seam import PathEntry
from pilot_util import screen_text, sync

from c4tui import gamefile
from c4tui.app import C4App
from c4tui.app.controllers import Preview
from c4tui.app.widgets import MoveList, SearchPath
from c4tui.report.text import move_name, plural

pytestmark = pytest.mark.usefixtures("tmp_home")


def test_move_names_are_the_move_lists():
    pos = Position.from_moves("44533")
    assert [move_name(pos, ply) for ply in range(5)] == ["1. d1", "1… d2", "2. e1", "2… c1",
                                                         "3. c2"]
    assert plural(1, "move") == "1 move" and plural(2, "move") == "2 moves"


@sync
async def test_the_comment_prompt_names_the_move_as_the_move_list_does():
    app = C4App(Position.from_moves("44533"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "3. c2" in str(app.query_one(MoveList).render())
        await pilot.press("semicolon")
        await pilot.pause()
        assert "Comment on 3. c2 (empty: none):" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("up")
        await pilot.press("semicolon")
        await pilot.pause()
        assert "Comment on 2… c1 (empty: none):" in screen_text(app)


@sync
async def test_a_one_move_game_is_one_move(tmp_path):
    path = tmp_path / "one.c4g"
    gamefile.save_game(path, Position.from_moves("4"))
    app = C4App(Position(), engine=False)
    async with app.run_test(size=(80, 24)):
        assert app.files.load_file(path)
        assert "(1 move)" in app.last_message


@sync
async def test_the_search_path_and_the_preview_number_moves_as_the_move_list():
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.query_one(SearchPath)
        panel.display = True
        panel.position = app.position.copy()
        panel.path = (PathEntry(0, 2, -5, 5, 1), PathEntry(1, 4, -5, 5, 0),
                      PathEntry(2, -1, -5, 5, -1))
        await pilot.pause()
        rows = str(panel.render()).splitlines()
        assert rows[1].split()[:2] == ["3.", "c2"] and rows[2].split()[:2] == ["3…", "e2"]
        assert rows[3].split()[0] == "(here)" and "-1" not in rows[3]
        app.preview.set(Preview((2, 4), 2, "path"))
        assert app.query_one("#board").border_subtitle.startswith("preview path: 3… e2")
