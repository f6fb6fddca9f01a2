"""The board mirrored (key F): column g drawn on the left; the column keys keep their
columns, the cursor keys and clicks follow what is drawn."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from pilot_util import sync, until

from c4tui.app import C4App
from c4tui.app.widgets import BoardView

pytestmark = pytest.mark.usefixtures("tmp_home")

#: Inside the board's border and padding: the row gutter (2), then 4 cells per column.
GUTTER, CELL = 2 + 2, 4


def drawn_lines(board: BoardView) -> list[str]:
    return [line.rstrip() for line in board.render().plain.splitlines()]


@sync
async def test_flip_mirrors_the_drawing_and_keys_keep_their_columns():
    app = C4App(Position.from_moves("11"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.query_one("#board", BoardView)
        before = drawn_lines(board)
        assert before[0].split() == list("abcdefg")
        await pilot.press("F")
        assert board.flipped and app.last_message.startswith("board mirrored")
        lines = drawn_lines(board)
        assert lines[0].split() == list("gfedcba")
        assert lines[-2].split() == list("7654321")  # the column numbers follow
        # a1 (White) and a2 (Black) are drawn at the right-hand end of their rows now
        assert lines[-3].endswith("●") and lines[-4].endswith("◎")
        await pilot.press("1")  # still column a, drawn on the right
        assert app.model.line == [0, 0, 0]
        assert drawn_lines(board)[-5].endswith("◉")  # a3, the last move, on the right
        await pilot.press("F")
        assert drawn_lines(board)[-5].split()[1] == "◉"  # back on the left


@sync
async def test_flipped_cursor_keys_and_clicks_follow_the_drawing():
    app = C4App(Position(), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.query_one("#board", BoardView)
        await pilot.press("F")
        assert board.cursor == 3  # d, in the middle either way
        await pilot.press("left")  # towards e, drawn left of d now
        assert board.cursor == 4
        await pilot.press("enter")
        assert app.model.line == [4]
        # the first drawn column is g: a click there plays g
        await pilot.click("#board", offset=(GUTTER + 1, 5))
        await until(pilot, lambda: app.model.line == [4, 6], "the click's move")
        # the third drawn column is e
        await pilot.click("#board", offset=(GUTTER + 2 * CELL + 1, 5))
        await until(pilot, lambda: app.model.line == [4, 6, 4], "the second click's move")
        assert board.cursor == 4
        await pilot.press("right", "right", "right", "right", "right")  # e -> d c b a, then g
        assert board.cursor == 6
