"""Engine versus engine in the app (key V, controllers/play.py): two of our engines at
their own node limits play a game to its end, as a game of the move list; V pauses and
resumes, p stops; the user's moves wait while they play; a snapshot of a finished game."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from pilot_util import LOAD_TIMEOUT, engine_ready, screen_text, sync, until, wait_for

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.engine_view import EngineState
from c4tui.app.bridge.player import PlaySettings
from c4tui.app.controllers.play import versus_settings
from c4tui.app.widgets import PromptScreen
from c4tui.units import Strength, UnitError

pytestmark = pytest.mark.usefixtures("tmp_home")


def status(app: C4App) -> str:
    return str(app.query_one("#status").render())


def test_versus_strengths():
    assert versus_settings("1k 10k") == (PlaySettings(0, Strength.of_nodes(1000)),
                                           PlaySettings(1, Strength.of_nodes(10_000)))
    assert versus_settings(" perfect ") == (PlaySettings(0), PlaySettings(1))
    with pytest.raises(UnitError, match="not two strengths"):
        versus_settings("1k 2k 3k")
    with pytest.raises(UnitError, match="'fast' is neither perfect, a level"):
        versus_settings("1k fast")


@sync
async def test_versus_without_an_engine_says_so():
    app = C4App(Position(), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("V")
        assert app.play.versus is None and "no engine to play" in app.last_error


@sync
async def test_versus_on_a_finished_game_says_it_is_over():
    app = C4App(Position.from_moves("4455667"), engine=False)  # White's four on row 1
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("V")
        assert app.play.versus is None
        assert app.last_error == "versus: the game is over (White has won)"
        assert not isinstance(app.screen, PromptScreen)  # no strengths asked for


@sync
async def test_the_prompt_shows_its_whole_question():
    # the question is longer than the dialog is wide: it wraps instead of losing its end
    app = C4App(Position(), settings=SearchSettings(auto=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await pilot.press("V")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen), "the prompt")
        await pilot.pause()
        box = app.screen.query_one("#prompt").content_region  # the dialog's inside
        rows = screen_text(app).splitlines()[box.y:box.bottom]
        shown = " ".join(" ".join(row[box.x:box.right] for row in rows).split())
        assert "(levels 1-10, or nodes: 3 7, 10k 1M):" in shown


async def start_versus(pilot, app: C4App, strengths: str) -> None:
    await pilot.press("V")
    await until(pilot, lambda: isinstance(app.screen, PromptScreen), "the prompt")
    app.screen.query_one("#prompt-input").value = strengths
    await pilot.press("enter")
    await until(pilot, lambda: app.play.versus is not None, "engine vs engine")


@sync
async def test_two_engines_play_a_game_to_the_end_and_pause_works():
    start = "4444"  # a few moves in: the books do not answer the search (use_book off)
    app = C4App(Position.from_moves(start), settings=SearchSettings(auto=False))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        # slow engines first (a move takes a while): time to pause after two moves
        await start_versus(pilot, app, "3M 3M")
        assert app.play.versus == (PlaySettings(0, Strength.of_nodes(3_000_000)),
                                   PlaySettings(1, Strength.of_nodes(3_000_000)))
        await until(pilot, lambda: len(app.model.line) >= len(start) + 2, "two engine moves",
                    60)
        # pause: the engines stop; the game stays as it is, however long one waits for it
        await pilot.press("V")
        assert app.play.paused and "paused: V resumes" in status(app), (
            status(app), app.model.line, type(app.screen).__name__)
        await until(pilot, lambda: not app.bridge.player.thinking(), "the engine stopped")
        paused_at = list(app.model.line)
        await pilot.press("1")  # paused: the user may play a move, the engines go on from it
        await until(pilot, lambda: len(app.model.line) == len(paused_at) + 1
                    or app.position.is_over, "the user's move")
        paused_at = list(app.model.line)
        assert app.model.line == paused_at and not app.bridge.player.thinking()
        await pilot.press("V")  # resume
        assert not app.play.paused
        await until(pilot, lambda: len(app.model.line) > len(paused_at), "the next move", 60)
        await pilot.press("p")  # stopped; then fast engines play the game to its end
        assert app.play.versus is None
        while app.position.is_over:  # (the slow engines may have ended it meanwhile)
            await pilot.press("backspace")
        paused_at = list(app.model.line)
        await start_versus(pilot, app, "2k 500")
        assert app.play.versus == (PlaySettings(0, Strength.of_nodes(2000)),
                                   PlaySettings(1, Strength.of_nodes(500)))
        await wait_for(pilot, lambda: app.position.is_over, 120, "the end of the game",
                       detail=lambda: status(app))
        assert app.model.line[:len(paused_at)] == paused_at
        assert len(app.model.line) > len(paused_at)
        final = Position.from_moves([c + 1 for c in app.model.line])  # a legal game
        assert final.is_over and final == app.position
        await until(pilot, lambda: "game over" in status(app), "the result")
        await pilot.press("1")  # over: the move is refused by the game itself
        assert app.model.line == list(final.history)
        await pilot.press("p")  # stop: analysis again
        assert app.play.versus is None and app.last_message == "engine vs engine stopped"


@sync
async def test_the_user_cannot_move_while_the_engines_play_and_p_stops_them():
    app = C4App(Position.from_moves("44"), settings=SearchSettings(auto=False))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        slow = Strength.of_nodes(200_000_000)
        app.play.start_versus(PlaySettings(0, slow), PlaySettings(1, slow))
        await until(pilot, lambda: app.bridge.player.thinking(), "the engine thinking")
        await pilot.press("3")
        assert "the engines are playing" in app.last_error and app.model.line == [3, 3]
        await pilot.press("p")
        await until(pilot, lambda: not app.bridge.player.thinking(), "the engine stopped")
        assert app.play.versus is None and app.model.line == [3, 3]


def test_versus_game_over_80x24(snap_compare):
    """A game two of our engines played from 4444 (10k nodes against 1k: the analysis
    search, one thread, so the same moves each run) to its end: the board with the winning
    four, the move list's last moves, the status line's result. The start's exact values
    are in first, so that the graph's points do not depend on when they came."""
    app = C4App(Position.from_moves("4444"), settings=SearchSettings(auto=False))

    async def played(pilot) -> None:
        await wait_for(pilot, lambda: (v := app.bridge.view(app.position)).state
                       is EngineState.READY and v.exact is not None and v.exact.lines_done
                       and v.verdict is not None, LOAD_TIMEOUT, "the start's exact values")
        await start_versus(pilot, app, "10k 1k")
        await wait_for(pilot, lambda: app.position.is_over, 60, "the end of the game",
                       detail=lambda: status(app))
        await until(pilot, lambda: "game over" in status(app), "the result")
        app.clear_notifications()  # (toasts leave on a timer)
        app.state_changed()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=played)
