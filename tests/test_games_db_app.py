"""The opening explorer in the app (key E, screens/explorer.py): its rows, walking in and
back, the games through a position, no database, and its snapshot with exact values."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from pilot_util import LOAD_TIMEOUT, screen_text, sync, until, wait_for
from test_app_faults import burst, settle
from textual.app import App
from textual.widgets import DataTable

from c4tui.app import C4App, SearchSettings
from c4tui.app.screens.explorer import ExplorerLinks, ExplorerScreen, PositionGamesScreen
from c4tui.db import connect, default_path, import_paths

pytestmark = pytest.mark.usefixtures("tmp_home")

# through 45 (or its mirror image 43): 4 (White won), 6 twice (Black won), 3 twice
GAMES = "4545454\n4453\n4435\n43232323\n45656565\n453\n4352\n"


def _database(tmp_path) -> None:
    source = tmp_path / "games.txt"
    source.write_text(GAMES)
    conn = connect(default_path(), create=True)  # the user data directory's (tmp_home)
    import_paths(conn, [source])
    conn.close()


def _rows(app) -> list[tuple[str, ...]]:
    table = app.screen.query_one(DataTable)
    return [tuple(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]


@sync
async def test_explorer_walks_in_and_back(tmp_path):
    _database(tmp_path)
    app = C4App(settings=SearchSettings(auto=False), engine=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, ExplorerScreen), "the explorer")
        assert _rows(app) == [("4", "7", "14%", "0%", "29%", "")]
        assert "the empty board: 7 games, White 14% draw 0% Black 29%" in screen_text(app)
        await pilot.press("enter")  # walks into 4: the board follows
        await until(pilot, lambda: app.position.digits() == "4", "the move played")
        # 4 is symmetric: 3 and 5 are one move (5 games), listed under 3
        assert [r[:2] for r in _rows(app)] == [("3=5", "5"), ("4", "2")]
        await pilot.press("enter")
        await until(pilot, lambda: app.position.digits() == "43", "the second move")
        # 43 is 45's mirror image: 45's 6 (Black won twice) is 43's 2, and so on
        assert [r[:5] for r in _rows(app)] == [("2", "2", "0%", "0%", "100%"),
                                             ("5", "2", "0%", "0%", "0%"),
                                             ("4", "1", "100%", "0%", "0%")]
        await pilot.press("backspace")
        await until(pilot, lambda: app.position.digits() == "4", "a ply back")
        assert len(_rows(app)) == 2
        await pilot.press("enter", "g")  # 43 again, then its games
        await until(pilot, lambda: isinstance(app.screen, PositionGamesScreen), "the games")
        assert "Games through 43 (or its mirror image)" in screen_text(app)
        assert app.screen.query_one(DataTable).row_count == 5
        await pilot.press("enter")  # the first stored game through 43 (or 45): 4545454
        await until(pilot, lambda: app.screen is app.main, "both dialogs closed")
        assert app.model.full_position().digits() == "4545454"


@sync
async def test_enters_in_a_burst_play_only_moves_of_the_games(tmp_path):
    """Six enters at once (a held key): each was the row of the position it was pressed
    in, 4 on the empty board; played as they came, 444444 then 'column d is full'."""
    _database(tmp_path)
    lines = GAMES.split()
    lines += ["".join(str(8 - int(c)) for c in line) for line in lines]  # mirror images
    app = C4App(settings=SearchSettings(auto=False), engine=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, ExplorerScreen), "the explorer")
        burst(app, *["enter"] * 6)
        await settle(pilot, app)
        await until(pilot, lambda: app.position.ply > 0, "a move played")
        played = app.position.digits()
        assert any(line.startswith(played) for line in lines), played
        assert isinstance(app.screen, ExplorerScreen) and app.screen.shown is not None
        assert app.screen.shown.digits() == played


@sync
async def test_exact_values_that_arrive_later_are_shown_whole(tmp_path):
    """The table is drawn before the solver has the values; when they come, the column
    widens (it stayed as wide as its title: '-2 Bl')."""
    _database(tmp_path)
    pos = Position.from_moves("45")
    known: list[tuple[int | None, ...] | None] = [None]
    links = ExplorerLinks(position=lambda: pos, exact=lambda _pos: known[0],
                          play=lambda col: None, back=lambda: None,
                          open_game=lambda game: None)
    app = App[None]()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.push_screen(ExplorerScreen(links))
        await until(pilot, lambda: _rows(app), "the rows")
        known[0] = (1, 2, -2, 0, 0, -3, -3)  # c4tui solve --analyze 45
        await until(pilot, lambda: _rows(app)[0][5], "the exact values")
        await pilot.pause()
        text = screen_text(app)
        assert "-2 (Black wins in 19)" in text and "-3 (Black wins in 18)" in text


@sync
async def test_explorer_without_database():
    app = C4App(settings=SearchSettings(auto=False), engine=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, ExplorerScreen), "the explorer")
        await until(pilot, lambda: "c4tui db import" in screen_text(app), "why")
        assert "no games database" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ExplorerScreen), "closed")


def test_explorer_snapshot(snap_compare, tmp_path):
    """The explorer over 45 with the exact values of the analysis panel (the books')."""
    _database(tmp_path)
    app = C4App(Position.from_moves("45"), settings=SearchSettings(auto=False))

    async def open_explorer(pilot) -> None:
        def solved() -> bool:
            exact = app.bridge.view(app.position).exact
            return exact is not None and bool(exact.scores)

        await wait_for(pilot, solved, LOAD_TIMEOUT, "the exact values",
                       detail=lambda: app.bridge.view(app.position).message)
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, ExplorerScreen)
                    and _rows(app)[0][5] != "", "the explorer with exact values")

    assert snap_compare(app, terminal_size=(100, 30), run_before=open_explorer)
