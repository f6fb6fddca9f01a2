"""The game's headers (key i): edited, checked, kept with the game, saved in its file,
undone with u, left unchanged by escape."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from pilot_util import screen_text, sync, until
from textual.widgets import Input

from c4tui.app import C4App
from c4tui.app.screens.headers import HeadersScreen, date_error, name_error
from c4tui.gamefile import load_game

pytestmark = pytest.mark.usefixtures("tmp_home")


def test_dates_and_names_are_checked():
    for good in ("2024.05.17", "2024.??.??", "????.??.??", "2024.02.29", "2024.05.??"):
        assert date_error(good) is None, good
    assert "YYYY.MM.DD" in str(date_error("17/05/2024"))
    assert date_error("2024.13.01") == "month 13 is not 01-12"
    assert date_error("2024.01.32") == "day 32 is not 01-31"
    assert date_error("2023.02.29") == "2023.02.29 is not a day of the calendar"
    assert name_error("Annotator", {"Event"}) is None
    assert name_error("Result", set()) == "Result is set from the game itself"
    assert name_error("Event", {"Event"}) == "Event is listed above: edit it there"
    assert name_error("9lives", set()) is not None


async def open_headers(pilot, app) -> HeadersScreen:
    await pilot.press("i")
    await until(pilot, lambda: isinstance(app.screen, HeadersScreen), "the headers dialog")
    screen = app.screen
    assert isinstance(screen, HeadersScreen)
    return screen


def field(screen: HeadersScreen, name: str) -> Input:
    return screen.query_one(f"#header-{screen.names.index(name)}", Input)


@sync
async def test_headers_edited_saved_and_undone(tmp_path):
    app = C4App(Position.from_moves("4453"), engine=False, headers={"Event": "Club night",
                                                                   "Annotator": "Zoe"})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_headers(pilot, app)
        text = screen_text(app)
        for shown in ("Event", "Site", "Date", "White", "Black", "Annotator", "Result"):
            assert shown in text
        assert field(screen, "Event").value == "Club night"
        field(screen, "White").value = "Ann"
        field(screen, "Black").value = "Bob"
        field(screen, "Date").value = "2024.13.01"
        field(screen, "Date").focus()
        await pilot.press("enter")  # refused: one line says why, the dialog stays
        await until(pilot, lambda: "month 13 is not 01-12" in screen_text(app), "the error")
        assert app.screen is screen and app.model.headers.get("White") is None
        field(screen, "Date").value = "2024.05.??"
        screen.query_one("#header-new-name", Input).value = "Round"  # listed already
        await pilot.press("enter")
        await until(pilot, lambda: "Round is listed above" in screen_text(app), "the error")
        screen.query_one("#header-new-name", Input).value = "Opening"
        screen.query_one("#header-new-value", Input).value = "centre"
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, HeadersScreen), "the dialog closed")
        assert app.model.headers == {"Event": "Club night", "Date": "2024.05.??",
                                     "White": "Ann", "Black": "Bob", "Annotator": "Zoe",
                                     "Opening": "centre"}
        assert app.files.unsaved  # (quitting would ask)
        path = tmp_path / "game.c4g"
        assert app.files.save_file(path)
        text = path.read_text()
        for line in ('[White "Ann"]', '[Black "Bob"]', '[Date "2024.05.??"]',
                     '[Event "Club night"]', '[Opening "centre"]', '[Result "*"]'):
            assert line in text
        assert load_game(path).headers["White"] == "Ann"
        await pilot.press("u")  # the edit is undoable
        assert app.model.headers == {"Event": "Club night", "Annotator": "Zoe"}


@sync
async def test_escape_leaves_the_headers_as_they_were():
    app = C4App(Position.from_moves("4453"), engine=False, headers={"White": "Ann"})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_headers(pilot, app)
        field(screen, "White").value = "Someone else"
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HeadersScreen), "the dialog closed")
        assert app.model.headers == {"White": "Ann"} and not app.files.unsaved
        await pilot.press("4")  # the keys are the board's again
        assert app.model.line == [3, 3, 4, 2, 3]


@sync
async def test_many_headers_scroll_inside_the_dialog_at_80x24():
    many = {f"Extra{i}": f"value {i}" for i in range(12)}
    app = C4App(Position.from_moves("4453"), engine=False, headers=many)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_headers(pilot, app)
        box = screen.query_one("#headers").region
        assert box.y >= 0 and box.bottom <= 24  # the help line stays on the screen
        assert "escape: cancel" in screen_text(app)
        last = field(screen, "Extra11")
        last.focus()
        await until(pilot, lambda: "value 11" in screen_text(app), "the last field in view")
        last.value = "changed"
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, HeadersScreen), "the dialog closed")
        assert app.model.headers["Extra11"] == "changed" and len(app.model.headers) == 12
