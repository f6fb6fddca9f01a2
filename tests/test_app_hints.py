"""Every hint is true in the state it is shown in (issue 24, item 5): a key a message names
does something there, and a switched-off engine is said to be off, not broken."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from fake_bridge import fake_bridge
from pilot_util import screen_text, searched, sync, until

from c4tui.app import C4App, SearchSettings

pytestmark = pytest.mark.usefixtures("tmp_home")

#: tests/data's (the fake bridge's values and its search's)
POSITION = "5354"


@sync
async def test_a_finished_search_names_no_key_that_then_does_nothing():
    app = C4App(Position.from_moves(POSITION), settings=SearchSettings(), bridge=fake_bridge())
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: searched(app), "the search")
        await pilot.press("space")
        hint = app.last_message
        assert hint.startswith("the search is done (depth "), hint
        assert "n steps" not in hint and "g searches again" in hint
        await pilot.press("n")
        assert "nothing to step; g searches again" in app.last_message
        await pilot.press("x")
        assert app.last_message == hint


@sync
async def test_hidden_hints_refuse_the_search_keys():
    app = C4App(Position.from_moves(POSITION), settings=SearchSettings(), hints=False,
                bridge=fake_bridge())
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: searched(app), "the search")
        for key in ("space", "n", "N", "x", "g"):
            app.last_error = ""
            await pilot.press(key)
            assert app.last_error == "search: the hints are hidden (h shows them)", key


@sync
async def test_no_engine_is_off_not_broken():
    app = C4App(Position.from_moves("4"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "engine off (--no-engine)" in str(app.query_one("#status").render())
        await pilot.press("n")
        assert app.last_error == "search: the engine is off (--no-engine)"
        await pilot.press("R")
        assert app.last_error == "review: the engine is off (--no-engine)"
        await pilot.press("p")
        assert app.last_error == "play: the engine is off (--no-engine): no engine to " \
                                 "play against"
        await pilot.press("v")
        assert app.last_error == "preview: the engine is off (--no-engine)"
        text = screen_text(app)
        assert "not available" not in text and "yet" not in text, text
