"""Hostile input at the app (issue 23): key bursts at every dialog, tiny terminals.

A burst is sent the way the terminal driver sends keys: every event posted to the app
before any is handled (``pilot.press`` waits for each key, so it never makes one). Each
test checks what the user sees afterwards: the app still runs, the main screen is back,
and the answer was taken once.
"""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from pilot_util import sync, until
from textual import events
from textual.command import CommandList, CommandPalette
from textual.screen import ModalScreen

from c4tui import gamefile
from c4tui.app import C4App
from c4tui.app.screens import (
    ConfirmScreen,
    FilePickerScreen,
    GamesScreen,
    OnceModalScreen,
    RecentFilesScreen,
)
from c4tui.app.widgets import BoardView, PromptScreen
from c4tui.gamefile import Game, save_game

pytestmark = pytest.mark.usefixtures("tmp_home")

KEY_CHARS = {"enter": "\r", "escape": "\x1b", "space": " "}


def burst(app: C4App, *keys: str) -> None:
    """Post ``keys`` to the app at once, as a paste or a held key arrives."""
    for key in keys:
        app.post_message(events.Key(key, KEY_CHARS.get(key, key if len(key) == 1 else None)))


async def settle(pilot, app: C4App) -> None:
    """Let the burst and what it started run to the end."""
    for _ in range(3):
        await pilot.pause()



def on_main_screen(app: C4App) -> bool:
    return app.is_running and len(app.screen_stack) == 1 and app.screen.query(BoardView)


# ------------------------------------------------------------------ prompts: two enters
@pytest.mark.parametrize("enters", [2, 3])
@pytest.mark.parametrize("key, text, check", [
    ("e", "4444", lambda app: app.model.line == [3, 3, 3, 3]),
    ("semicolon", "a fine move", lambda app: app.model.node.comment == "a fine move"),
    ("l", "2M", lambda app: app.settings.limits.nodes == 2_000_000),
    ("H", "32", lambda app: app.settings.options.hash_mb == 32),
], ids=["enter-moves", "comment", "node-limit", "hash-size"])
@sync
async def test_enters_in_a_burst_answer_a_prompt_once(key, text, check, enters):
    """Two Enters in one burst popped the prompt, then the main screen under it
    (ScreenStackError: the app died)."""
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key)
        await until(pilot, lambda: isinstance(app.screen, PromptScreen), "the prompt")
        app.screen.query_one("#prompt-input").value = text
        burst(app, *["enter"] * enters)
        await settle(pilot, app)
        assert on_main_screen(app)
        assert check(app), (app.model.line, app.settings)
        assert not app.last_error
        board = app.query_one(BoardView)
        cursor = board.cursor
        await pilot.press("right")  # the keys reach the board again
        assert board.cursor == (cursor + 1) % 7


@sync
async def test_pasted_lines_without_bracketed_paste_take_the_first_line():
    """``44⏎5⏎`` pasted at the moves prompt: the first line is the answer; what follows
    (typed into the prompt before it closed) is dropped, not played on the board."""
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen), "the prompt")
        app.screen.query_one("#prompt-input").value = ""
        burst(app, "4", "4", "enter", "5", "enter", "enter")
        await settle(pilot, app)
        assert on_main_screen(app)
        assert app.model.line == [3, 3]


@sync
async def test_enter_then_escape_in_a_burst():
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen), "the prompt")
        app.screen.query_one("#prompt-input").value = "3M"
        burst(app, "enter", "escape", "escape")
        await settle(pilot, app)
        assert on_main_screen(app) and app.settings.limits.nodes == 3_000_000


# ------------------------------------------------------------------ the other dialogs
@pytest.fixture
def a_game():
    path = gamefile.data_dir() / "alpha.c4g"
    save_game(path, Game(Position.from_moves("4455667"), {"White": "Ann"}))
    return path


@pytest.mark.parametrize("keys", [("enter", "enter"), ("enter", "escape"),
                                  ("escape", "escape", "enter")])
@sync
async def test_file_picker_burst(a_game, keys):
    app = C4App(Position.from_moves("4453"), engine=False)
    app.files.current_file = a_game  # the tree's cursor starts on it
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, FilePickerScreen), "the picker")
        tree = app.screen.query_one("#picker-tree")
        await until(pilot, lambda: tree.cursor_node is not None
                    and tree.cursor_node.data.path == a_game, "the cursor on the file")
        burst(app, *keys)
        await settle(pilot, app)
        assert on_main_screen(app)
        # enter then escape: the tree's selection arrives after the escape's cancel (a
        # message against a binding), so either answer may win; but only one does
        loaded = app.model.line == [3, 3, 4, 4, 5, 5, 6]
        assert loaded or app.model.line == [3, 3, 4, 2]
        assert loaded == (keys == ("enter", "enter")) or keys == ("enter", "escape")
        assert not app.last_error
        if loaded:  # loaded once: one undo gives the game before it
            await pilot.press("u")
            assert app.model.line == [3, 3, 4, 2]


@pytest.mark.parametrize("key, screen", [("G", GamesScreen), ("O", RecentFilesScreen)],
                         ids=["games-list", "recent-files"])
@pytest.mark.parametrize("keys", [("escape", "escape"), ("enter", "enter"),
                                  ("enter", "enter", "escape")])
@sync
async def test_list_dialog_burst(a_game, key, screen, keys):
    from c4tui import recent

    recent.add_recent(a_game)
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key)
        await until(pilot, lambda: isinstance(app.screen, screen)
                    and app.screen.query_one("DataTable").row_count == 1, "the list")
        burst(app, *keys)
        await settle(pilot, app)
        assert on_main_screen(app)
        loaded = app.model.line == [3, 3, 4, 4, 5, 5, 6]
        assert loaded or app.model.line == [3, 3, 4, 2]
        if "escape" not in keys:
            assert loaded
        elif keys[0] == "escape":
            assert not loaded  # (enter then escape: the escape may win, see above)


@pytest.mark.parametrize("keys", [("y", "enter"), ("n", "y", "enter"),
                                  ("enter", "enter", "enter"), ("escape", "escape")])
@sync
async def test_replace_question_burst(a_game, keys):
    """The "exists. Replace it?" question: the first answer counts, once."""
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.files.save_file(a_game)
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        burst(app, *keys)
        await settle(pilot, app)
        assert on_main_screen(app)
        replaced = keys[0] == "y"
        assert gamefile.load_game(a_game).position.digits() == ("4453" if replaced
                                                                else "4455667")


def test_every_dialog_of_the_app_is_dismissed_once():
    """A new dialog must derive from OnceModalScreen, or a burst can kill the app."""
    import c4tui.app.main  # noqa: F401  # imports every dialog

    def subclasses(cls: type) -> set[type]:
        out = set(cls.__subclasses__())
        for sub in list(out):
            out |= subclasses(sub)
        return out

    ours = {c for c in subclasses(ModalScreen) if c.__module__.startswith("c4tui.")}
    assert ours and all(issubclass(c, OnceModalScreen) for c in ours), ours


@pytest.mark.parametrize("keys", [("enter", "enter"), ("down", "enter", "enter"),
                                  ("enter", "escape", "enter")])
@sync
async def test_command_palette_burst_runs_the_command_once(keys):
    """Two Enters in the palette ran the command twice, then popped the main screen."""
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        auto = app.settings.auto
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        await pilot.press(*"auto")
        commands = app.screen.query_one(CommandList)
        await until(pilot, lambda: commands.option_count == 1, "the one command")
        burst(app, *keys)
        await settle(pilot, app)
        assert on_main_screen(app)
        ran = app.settings.auto is not auto
        if ran:
            assert app.last_message == f"auto-analysis {'on' if not auto else 'off'}"
        else:  # not twice (back to where it was): only an escape may cancel it
            assert "auto-analysis" not in app.last_message and "escape" in keys


# ------------------------------------------------------------------ a 3-row terminal
@pytest.mark.parametrize("keys", [
    ("pageup",), ("pagedown",), ("down", "pageup", "pagedown"),
    ("q", "pageup", "pagedown", "down", "up", "ctrl+end", "ctrl+home"),
])
@sync
async def test_command_palette_in_a_3_row_terminal(keys):
    """PageUp in the palette with no room for its list: ``KeyError: 0`` inside Textual's
    OptionList, and the app died."""
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 3)) as pilot:
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        for key in keys:
            await pilot.press(key)
        await settle(pilot, app)
        assert app.is_running and isinstance(app.screen, CommandPalette)
        await pilot.resize_terminal(80, 24)  # room again: the list pages as usual
        await pilot.press("pagedown", "pageup")
        assert app.screen.query_one(CommandList).highlighted is not None
        await pilot.press("escape")
        await settle(pilot, app)
        assert on_main_screen(app)


@pytest.mark.parametrize("size", [(80, 3), (80, 1), (10, 2)])
@sync
async def test_tiny_terminals_survive_the_dialogs(size, a_game):
    """Every dialog opened, paged and answered in a terminal too small to show it."""
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=size) as pilot:
        for key in ["e", "l", "H", "semicolon", "o", "s", "O", "G", "ctrl+p",
                    "question_mark"]:
            await pilot.press(key)
            await pilot.pause()
            await pilot.press("pageup", "pagedown", "down", "end", "home", "tab")
            await pilot.press("escape")
            await settle(pilot, app)
            assert app.is_running


@sync
async def test_tab_in_a_burst_moves_on_before_the_next_keys():
    """The headers dialog (``i``), typed fast: ``Ann⇥Bob`` puts Ann in one field and Bob in
    the next (Textual's tab binding ran after the keys behind it: both went in one)."""
    from c4tui.app.screens.headers import HeadersScreen

    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, HeadersScreen), "the headers")
        app.screen.query_one("#header-4").focus()  # White
        await pilot.pause()
        burst(app, "A", "n", "n", "tab", "B", "o", "b", "shift+tab", "shift+tab", "R")
        await settle(pilot, app)
        fields = {i: app.screen.query_one(f"#header-{i}").value for i in (3, 4, 5)}
        assert fields == {3: "R", 4: "Ann", 5: "Bob"}  # Round, White, Black
