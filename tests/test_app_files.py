"""Pilot tests of files like a desktop app: the picker of o and s, replacing a file, the
recent files (O) and the games list (G). Every test has its own data and state directory."""

from __future__ import annotations

import os

import pytest
from c4tui.engine.board.position import Position
from pilot_util import screen_text, sync, until

from c4tui import gamefile, recent
from c4tui.app import C4App
from c4tui.app.screens import (
    ConfirmScreen,
    FilePickerScreen,
    GamesScreen,
    RecentFilesScreen,
)
from c4tui.app.widgets.file_tree import GameFileTree
from c4tui.gamefile import Game, load_game, save_game

pytestmark = pytest.mark.usefixtures("tmp_home")


def make_app(moves: str = "4453") -> C4App:
    return C4App(Position.from_moves(moves), engine=False)



async def open_picker(app: C4App, pilot, key: str) -> GameFileTree:
    await pilot.press(key)
    await until(pilot, lambda: isinstance(app.screen, FilePickerScreen), "the picker")
    tree = app.screen.query_one(GameFileTree)
    await until(pilot, lambda: tree.root.children or not tree.path.is_dir(), "the tree")
    return tree


async def type_path(app: C4App, pilot, text: str) -> None:
    """Type ``text`` into the picker's path box (replacing what is there) and press enter."""
    box = app.screen.query_one("#picker-input")
    box.focus()
    box.value = text
    await pilot.press("enter")
    await pilot.pause()


def tree_names(tree: GameFileTree) -> list[str]:
    return [str(node.label) for node in tree.root.children]


@pytest.fixture
def games(tmp_path):
    """The data directory with two games, a corrupt one, a non-game and a folder."""
    d = gamefile.data_dir()
    save_game(d / "alpha.c4g", Game(Position.from_moves("4455667"), {"White": "Ann"}))
    save_game(d / "sub" / "beta.c4g", Position.from_moves("17"))
    (d / "broken.c4g").write_text("1. d1 d2 2. e2 *\n")
    (d / "notes.md").write_text("not a game\n")
    (d / ".alpha.c4g.1234.tmp").write_text("4\n")  # a save's temporary file: hidden
    return d


# ---------------------------------------------------------------------------- open
@sync
async def test_open_by_typing_a_path(games, tmp_path):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        tree = await open_picker(app, pilot, "o")
        assert tree.path == games  # no current file yet: the data directory
        # folders first; hidden files left out; other files listed (dim)
        assert tree_names(tree) == ["sub", "alpha.c4g", "broken.c4g", "notes.md"]
        await type_path(app, pilot, "sub")  # a folder: the tree goes there
        assert isinstance(app.screen, FilePickerScreen) and tree.path == games / "sub"
        await type_path(app, pilot, "beta.c4g")  # relative to the folder shown
        assert not isinstance(app.screen, FilePickerScreen)
        assert app.model.line == [0, 6] and "loaded" in app.last_message
        assert app.files.current_file == games / "sub" / "beta.c4g"
        # ~ expands, as in the old prompt
        save_game(tmp_path / "home" / "h.c4g", Position.from_moves("7"))
        await open_picker(app, pilot, "o")
        await type_path(app, pilot, "~/h.c4g")
        assert app.model.line == [6]


@sync
async def test_open_from_the_tree_with_keys_and_mouse(games):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        tree = await open_picker(app, pilot, "o")
        assert app.focused is tree
        await pilot.press("down", "down")  # sub, alpha.c4g: the path box follows
        assert app.screen.query_one("#picker-input").value == "alpha.c4g"
        await pilot.press("enter")
        await pilot.pause()
        assert app.model.line == [3, 3, 4, 4, 5, 5, 6]
        assert app.model.headers["White"] == "Ann"

        tree = await open_picker(app, pilot, "o")
        # the rows: sub, alpha.c4g, broken.c4g, notes.md (inside the tree's border)
        await pilot.click(tree, offset=(4, 1 + 1))  # one click only highlights
        await pilot.pause()
        assert isinstance(app.screen, FilePickerScreen)
        assert app.screen.query_one("#picker-input").value == "alpha.c4g"
        await pilot.click(tree, offset=(4, 1 + 0))  # a folder opens on one click
        await until(pilot, lambda: len(tree.root.children[0].children) == 1, "sub's files")
        # rows now: sub, beta.c4g, alpha.c4g, ...: a double click opens beta
        await pilot.double_click(tree, offset=(6, 1 + 1))
        await pilot.pause()
        assert not isinstance(app.screen, FilePickerScreen)
        assert app.model.line == [0, 6]
        # the next picker starts in the folder of the current file
        tree = await open_picker(app, pilot, "o")
        assert tree.path == games / "sub"
        await until(pilot, lambda: tree.cursor_node is not None, "the cursor")
        assert tree.cursor_node.data.path.name == "beta.c4g"  # on the current file
        assert app.screen.query_one("#picker-input").value == "beta.c4g"
        box = app.screen.query_one("#picker-input")
        box.focus()
        box.value = "beta.c4gx"
        await pilot.press("end", "backspace")  # in the path box: deletes a character
        assert box.value == "beta.c4g" and tree.path == games / "sub"
        tree.focus()
        await pilot.press("backspace")  # in the tree: up one folder
        await until(pilot, lambda: tree.path == games, "the parent folder")
        await pilot.click("#picker-up")
        await until(pilot, lambda: tree.path == games.parent, "the parent's parent")


@sync
async def test_open_errors_are_one_line_and_change_nothing(games):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_picker(app, pilot, "o")
        await type_path(app, pilot, "broken.c4g")
        assert not isinstance(app.screen, FilePickerScreen)
        for name, message in (
            ("broken.c4g", "broken.c4g: line 1: move 3 'e2': a disc in column e lands on e1"),
            ("nope.c4g", "nope.c4g: no such file"),
            ("notes.md", "notes.md: line 1: move 1 'not': not a square"),
        ):
            if name != "broken.c4g":
                assert not app.files.load_file(games / name)
            assert message in app.last_error and "\n" not in app.last_error
            assert app.model.line == [3, 3, 4, 2]
        (games / "locked.c4g").write_text("4\n")
        os.chmod(games / "locked.c4g", 0)
        if not os.access(games / "locked.c4g", os.R_OK):  # root reads anything
            assert not app.files.load_file(games / "locked.c4g")
            assert "locked.c4g: permission denied" in app.last_error
        await open_picker(app, pilot, "o")
        await type_path(app, pilot, "")  # nothing typed: the picker stays
        assert isinstance(app.screen, FilePickerScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, FilePickerScreen)
        assert app.model.line == [3, 3, 4, 2]
        assert app.files.load_file(games / "sub") is False  # a folder (from a recent file, say)
        assert "sub: is a directory, not a game file" in app.last_error
        assert recent.load_recent().files == []  # nothing was opened


# ---------------------------------------------------------------------------- save
@sync
async def test_save_new_file_and_cancel(games):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_picker(app, pilot, "s")
        box = app.screen.query_one("#picker-input")
        assert app.focused is box and box.value.startswith("game-")  # a fresh name
        await pilot.press("escape")
        await pilot.pause()
        assert sorted(p.name for p in games.iterdir() if p.name.startswith("game-")) == []
        await open_picker(app, pilot, "s")
        await type_path(app, pilot, "new/mine.c4g")  # missing folders are made
        saved = games / "new" / "mine.c4g"
        assert load_game(saved).position.digits() == "4453"
        assert app.files.current_file == saved and recent.load_recent().files == [saved]
        # the next save starts beside it, with its name
        tree = await open_picker(app, pilot, "s")
        assert tree.path == games / "new"
        assert app.screen.query_one("#picker-input").value == "mine.c4g"


@sync
async def test_save_over_an_existing_file_asks_first(games):
    before = (games / "alpha.c4g").read_bytes()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_picker(app, pilot, "s")
        await type_path(app, pilot, "alpha.c4g")
        for answer in ("n", "escape", "enter"):  # no (enter: the focused button is No)
            assert isinstance(app.screen, ConfirmScreen)
            assert "alpha.c4g exists. Replace it?" in screen_text(app)
            await pilot.press(answer)
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmScreen)
            assert (games / "alpha.c4g").read_bytes() == before
            assert "not saved" in app.last_message
            app.last_message = ""
            assert not app.files.save_file(games / "alpha.c4g")  # asks again
            await pilot.pause()
        await pilot.press("escape")
        await open_picker(app, pilot, "s")
        await type_path(app, pilot, "alpha.c4g")
        await pilot.press("y")
        await pilot.pause()
        assert load_game(games / "alpha.c4g").position.digits() == "4453"
        assert not [p for p in games.iterdir() if p.name.endswith(".tmp") and
                    "1234" not in p.name]  # no temporary file left
        # the mouse: pick the file in the tree, save, then the Yes button
        app.model.play(0)
        tree = await open_picker(app, pilot, "s")
        await pilot.click(tree, offset=(4, 1 + 1))  # alpha.c4g
        await pilot.click("#picker-ok")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.click("#confirm-yes")
        await pilot.pause()
        assert load_game(games / "alpha.c4g").position.digits() == "44531"


@sync
async def test_save_errors_are_one_line(games, tmp_path):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_picker(app, pilot, "s")
        await type_path(app, pilot, "alpha.c4g/x.c4g")  # a file where a folder should be
        assert "alpha.c4g is a file, not a directory" in app.last_error
        assert "\n" not in app.last_error
        await open_picker(app, pilot, "s")
        await type_path(app, pilot, "~nobody_here_at_all/x.c4g")
        assert "cannot expand '~nobody_here_at_all'" in app.last_error


# ---------------------------------------------------------------------------- recent files
@sync
async def test_recent_files_open_and_missing(games):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("O")
        await pilot.pause()
        assert isinstance(app.screen, RecentFilesScreen)
        assert "no recent files yet" in str(app.screen.query_one("#recent-help").render())
        await pilot.press("escape")
        assert app.files.load_file(games / "sub" / "beta.c4g")
        assert app.files.load_file(games / "alpha.c4g")
        app.files.save_file(games / "gone.c4g")
        (games / "gone.c4g").unlink()
        await pilot.press("O")
        await pilot.pause()
        table = app.screen.query_one("#recent-table")
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        assert [r[0] for r in rows] == ["gone.c4g", "alpha.c4g", "beta.c4g"]
        assert rows[0][1] == "missing" and rows[1][1] == ""
        await pilot.press("down", "down", "enter")  # beta
        await pilot.pause()
        assert app.model.line == [0, 6]
        assert recent.load_recent().files[0] == games / "sub" / "beta.c4g"
        await pilot.press("O")
        await pilot.pause()
        await pilot.press("down", "enter")  # gone.c4g (now second): one line, no crash
        await pilot.pause()
        assert "gone.c4g: no such file" in app.last_error
        assert app.model.line == [0, 6]


@sync
async def test_corrupt_recent_store_warns_once_and_is_replaced(games):
    store = recent.store_path()
    store.parent.mkdir(parents=True)
    store.write_text("{ this is not json")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("O")
        await pilot.pause()
        assert isinstance(app.screen, RecentFilesScreen)
        assert "not a recent-files list, ignored" in app.last_warning
        assert "\n" not in app.last_warning
        await pilot.press("escape")
        app.last_warning = ""
        assert app.files.load_file(games / "alpha.c4g")  # loading works; the list starts anew
        assert "ignored" in app.last_warning
        app.last_warning = ""
        assert app.files.load_file(games / "alpha.c4g")
        assert app.last_warning == ""
        assert recent.load_recent().files == [games / "alpha.c4g"]


# ---------------------------------------------------------------------------- games list
@sync
async def test_games_list_newest_first(games):
    for age, name in enumerate(["sub/beta.c4g", "broken.c4g", "alpha.c4g"]):
        t = 1_700_000_000 - age * 60
        os.utime(games / name, (t, t))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("G")
        await pilot.pause()
        assert isinstance(app.screen, GamesScreen)
        table = app.screen.query_one("#games-table")
        await until(pilot, lambda: table.row_count == 3, "the games")
        rows = [table.get_row_at(i) for i in range(3)]
        assert [r[0] for r in rows] == ["sub/beta.c4g", "broken.c4g", "alpha.c4g"]
        assert rows[2][2:] == ["Ann", "?", "1-0", "7"] and rows[1][4] == "unreadable"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, GamesScreen) and app.model.line == [3, 3, 4, 2]
        await pilot.press("G")
        await until(pilot, lambda: app.screen.query_one("#games-table").row_count == 3,
                    "the games")
        table = app.screen.query_one("#games-table")
        await pilot.click(table, offset=(3, 1 + 2))  # alpha.c4g (under the header): selects
        await pilot.pause()
        assert isinstance(app.screen, GamesScreen) and table.cursor_row == 2
        await pilot.click(table, offset=(3, 1 + 2))  # a click on the selected row opens it
        await pilot.pause()
        assert app.model.headers["White"] == "Ann" and app.files.current_file == games / "alpha.c4g"


# ---------------------------------------------------------------------------- command line
def test_a_file_opened_on_the_command_line_is_current_and_recent(games, monkeypatch):
    from c4tui.cli import main

    started = []
    monkeypatch.setattr(C4App, "run", lambda self: started.append(self))
    monkeypatch.chdir(games)
    with pytest.raises(SystemExit) as info:
        main(["sub/beta.c4g", "--no-engine"])
    assert info.value.code == 0
    (app,) = started
    assert app.model.line == [0, 6] and app.files.current_file == games / "sub" / "beta.c4g"
    assert recent.load_recent().files == [games / "sub" / "beta.c4g"]
    with pytest.raises(SystemExit):
        main(["4453", "--no-engine"])  # moves: no file
    assert started[1].files.current_file is None and len(recent.load_recent().files) == 1


@sync
async def test_picker_in_a_symlinked_folder(tmp_path, monkeypatch):
    """The tree lists resolved paths; the path box still gets the name, not /real/..."""
    real = tmp_path / "real"
    save_game(real / "c4tui" / "g.c4g", Position.from_moves("4"))
    (tmp_path / "link").symlink_to(real)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "link"))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_picker(app, pilot, "o")
        await pilot.press("down")
        assert app.screen.query_one("#picker-input").value == "g.c4g"
        await pilot.press("enter")
        await pilot.pause()
        assert app.model.line == [3]
