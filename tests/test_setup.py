"""Position setup (key S, screens/setup.py): a grid checked for a game that reaches it, a
typed position (moves, link, 0-based, FEN), and the new game it becomes."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from pilot_util import sync, until

from c4tui.app import C4App
from c4tui.app.screens.setup import SetupScreen, describe, read_grid, read_text
from c4tui.app.widgets.setup_grid import EMPTY_GRID, Grid, SetupGrid, grid_of
from c4tui.ugi.fen import FenError

pytestmark = pytest.mark.usefixtures("tmp_home")


def grid(*columns: str) -> Grid:
    """Columns bottom first, ``x`` White, ``o`` Black (missing columns are empty)."""
    cols = [[{"x": 0, "o": 1}[ch] for ch in c] for c in columns]
    cols += [[]] * (7 - len(cols))
    return tuple(tuple(c + [None] * (6 - len(c))) for c in cols)


def test_a_reachable_grid_gets_a_move_order_that_makes_it():
    g = grid("", "", "o", "xo", "x")  # c1 o, d1 x d2 o, e1 x: 4453's discs
    pos = read_grid(g)
    assert grid_of(pos) == g and pos.ply == 4 and pos.to_move == 0


@pytest.mark.parametrize(("g", "why"), [
    (grid("", "", "", "xx"), "2 x discs and 0 o discs"),  # too many of one colour
    (grid("", "", "", "ooo", "x"), "1 x discs and 3 o discs"),
    (grid("x", "", "", "o", "", "", "x"), ""),  # reachable: the control case
    (grid("xxxx", "ooo", "o"), "no game reaches this board (a four must be completed by the "
     "last move"),  # four already, and Black moved last
    (grid("xxxxo", "ooo", "x"), "four must be completed by the last move"),  # four, then on
    (grid("xxxx", "oooo"), "both players have four in a row"),
    (grid("ox"), "no game reaches this board (the discs cannot be taken back"),
])
def test_grids_no_game_reaches_say_why(g, why):
    if not why:
        assert read_grid(g).ply == 3
        return
    with pytest.raises(FenError) as info:
        read_grid(g)
    assert why in str(info.value) and not str(info.value).startswith("fen")


def test_a_floating_disc_is_named():
    g = list(EMPTY_GRID)
    g[3] = (None, 0, None, None, None, None)
    with pytest.raises(FenError, match="the disc on d2 floats above the empty square d1"):
        read_grid(tuple(g))


def test_the_empty_board_is_a_game_of_no_moves():
    # it said 'a game: (none)' under 'ok', as if no game reached it
    assert describe(Position()) == "ok: 0 discs, White to move; a game: no moves"


def test_a_four_made_by_the_last_move_is_a_finished_game():
    pos = read_grid(grid("xxxx", "ooo"[:3]))
    assert pos.winner == 0 and pos.history[-1] == 0 and pos.ply == 7


@pytest.mark.parametrize("text", ["4453", "d1 d2 e1 c1", "0:3342",
                                  "https://connect4.gamesolver.org/?pos=4453",
                                  "7/7/7/7/3o3/2oxx2 x", "7/7/7/7/3o3/2oxx2"])
def test_typed_positions(text):
    assert grid_of(read_text(text)) == grid_of(Position.from_moves("4453"))


@pytest.mark.parametrize(("text", "why"), [
    ("4458", "character 4 '8': not a column"),
    ("7/7/7/7/7/3xx2 o", "fen: 2 x discs and 0 o discs"),
    ("7/7/7/7/7/3x3 x", "fen side to move x"),
])
def test_typed_positions_that_are_not(text, why):
    with pytest.raises(ValueError, match=why):
        read_text(text)


@sync
async def test_setup_screen_clicks_types_and_sets_up_a_new_game():
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("S")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup screen")
        screen = app.screen
        assert screen.check_line == "ok: 4 discs, White to move; a game: 4453"
        # d3 gets a Black disc by keys: 3 o discs, 2 x: unreachable, said at once
        await pilot.press("up", "up", "o")
        await until(pilot, lambda: screen.check_line.startswith("not reachable"), "the check")
        assert "2 x discs and 3 o discs" in screen.check_line
        await pilot.press("enter")  # refused: the dialog stays, the game is unchanged
        assert app.screen is screen and app.position.digits() == "4453"
        # a click on d3 cycles it to empty (Black -> empty), then on g1: a White disc
        board = screen.query_one(SetupGrid)
        await pilot.click(SetupGrid, offset=(2 + 3 * 3 + 1, 3))
        assert board.grid[3][2] is None
        await until(pilot, lambda: screen.check_line.startswith("ok: 4 discs"), "the check")
        await pilot.click(SetupGrid, offset=(2 + 3 * 6 + 1, 5))
        await until(pilot, lambda: screen.check_line.startswith("ok: 5 discs, Black to move"),
                    "the check")
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, SetupScreen), "the dialog closed")
        assert grid_of(app.position) == board.grid and app.position.ply == 5
        assert app.last_message.startswith("set up: ")
        # typed: a link, shown on the grid, then set up with its own move order
        await pilot.press("S")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup screen")
        screen = app.screen
        screen.query_one("#setup-input").value = "https://connect4.gamesolver.org/?pos=444"
        screen.query_one("#setup-input").focus()
        await pilot.press("enter")
        await until(pilot, lambda: "a game: 444" in screen.check_line, "the typed position")
        await pilot.press("enter")
        await until(pilot, lambda: app.position.digits() == "444", "the new game")
        await pilot.press("u")  # the setup is one undoable edit
        await until(pilot, lambda: app.position.ply == 5, "the game before")


@sync
async def test_setup_screen_a_bad_text_is_one_line_and_escape_keeps_the_game():
    app = C4App(Position.from_moves("44"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("S")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup screen")
        screen = app.screen
        screen.query_one("#setup-input").value = "7/7/7/7/7/xxxx3"
        screen.query_one("#setup-input").focus()
        await pilot.press("enter")
        await until(pilot, lambda: screen.check_line.startswith("not a position"), "the error")
        assert screen.check_line == ("not a position: fen: 4 x discs and 0 o discs (x moves "
                                     "first, so it has as many discs as o or one more)")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, SetupScreen), "the dialog closed")
        assert app.position.digits() == "44"


def test_setup_screen_80x24(snap_compare):
    app = C4App(Position.from_moves("4453"), engine=False)
    assert snap_compare(app, terminal_size=(80, 24), press=["S", "up", "up", "o"])
