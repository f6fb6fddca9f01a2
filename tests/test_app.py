"""Pilot tests of the workstation: playing, navigation, undo/redo, files, prompts."""

from __future__ import annotations

import pytest
from c4tui.engine.position import IllegalMoveError, Position
from pilot_util import sync

from c4tui.app import C4App
from c4tui.app.model import GameModel
from c4tui.app.widgets import BoardView
from c4tui.gamefile import load_game, save_game

pytestmark = pytest.mark.usefixtures("tmp_home")


def make_app(moves: str = "") -> C4App:
    return C4App(Position.from_moves(moves), engine=False)


# ---------------------------------------------------------------------------- model
def test_model_truncates_and_undoes():
    m = GameModel(Position.from_moves("4453"))
    m.goto(2)
    m.play(4)  # same as the line's next move: just follows it
    assert (m.line, m.ply) == ([3, 3, 4, 2], 3)
    m.play(0)  # a different move: truncates
    assert (m.line, m.ply) == ([3, 3, 4, 0], 4)
    assert m.undo() and (m.line, m.ply) == ([3, 3, 4, 2], 3)
    assert m.redo() and (m.line, m.ply) == ([3, 3, 4, 0], 4)
    assert not m.redo()
    with pytest.raises(IllegalMoveError, match="column d is full"):
        GameModel(Position.from_moves("444444")).play(3)


# ---------------------------------------------------------------------------- playing
@sync
async def test_play_with_digits_cursor_and_mouse():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("4", "4")
        assert app.model.line == [3, 3]
        await pilot.press("right", "enter")  # cursor follows the last move (d) -> e
        assert app.model.line == [3, 3, 4]
        board = app.query_one("#board", BoardView)
        # click column c: gutter 2 + cell 4 per column, inside the border and padding
        await pilot.click("#board", offset=(2 + 2 + 2 * 4 + 1, 5))
        assert app.model.line == [3, 3, 4, 2]
        assert board.position.digits() == "4453"
        text = str(board.render())  # players differ without colour: solid / hollow
        assert text.count("●") == 2 and text.count("○") == 1 and text.count("◎") == 1
        assert app.position.to_move == 0


@sync
async def test_illegal_moves_are_refused_with_a_message():
    app = make_app("444444")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("4")
        assert app.model.line == [3] * 6
        assert "column d is full" in app.last_error
    app = make_app("4455667")  # White has won
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")
        assert app.position.ply == 7
        assert "the game is over (White has won)" in app.last_error
        text = str(app.query_one("#analysis").render())
        assert "White has won" in text


# ---------------------------------------------------------------------------- navigation
@sync
async def test_navigation_truncation_and_undo_redo():
    app = make_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("up", "up")
        assert app.model.ply == 2 and app.position.digits() == "44"
        await pilot.press("home")
        assert app.model.ply == 0
        await pilot.press("end")
        assert app.model.ply == 4
        await pilot.press("home", "down")
        assert app.position.digits() == "4"
        await pilot.press("7")  # from an earlier ply: truncates the line
        assert app.model.line == [3, 6]
        await pilot.press("u")
        assert app.model.line == [3, 3, 4, 2] and app.model.ply == 1
        await pilot.press("ctrl+r")
        assert app.model.line == [3, 6]
        await pilot.press("ctrl+r")
        assert "nothing to redo" in app.last_error
        await pilot.press("backspace")
        assert app.model.line == [3]


@sync
async def test_move_list_shows_numbered_pairs_and_jumps():
    app = make_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        text = str(app.query_one("#moves").render())
        assert "1. d1 d2 2. e1 c1" in text
        await app.run_action("goto_ply(1)")
        await pilot.pause()
        assert app.position.digits() == "4"
        # click "e1" (third ply) in the move list: "start 1. d1 d2 2. e1"
        await pilot.click("#moves", offset=(len("start 1. d1 d2 2. ") + 1, 0))
        assert app.position.digits() == "445"


# ---------------------------------------------------------------------------- files
@sync
async def test_save_and_load_through_prompts(tmp_path):
    app = make_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        inp = app.screen.query_one("#prompt-input")
        inp.value = "mine.c4g"
        await pilot.press("enter")
        await pilot.pause()
        saved = tmp_path / "xdg" / "c4tui" / "mine.c4g"
        assert load_game(saved).position.digits() == "4453"
        await pilot.press("home", "1")  # change the game
        assert app.model.line == [0]
        await pilot.press("o")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "mine.c4g"
        await pilot.press("enter")
        await pilot.pause()
        assert app.model.line == [3, 3, 4, 2] and app.model.ply == 4
        await pilot.press("u")  # loading is undoable
        assert app.model.line == [0]


@sync
async def test_bad_files_change_nothing(tmp_path):
    bad = tmp_path / "bad.c4g"
    bad.write_text("1. d1 d2 2. e2 *\n")  # e2: a disc in column e lands on e1
    app = make_app("4453")
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.load_file(bad)
        assert "bad.c4g: line 1: move 3 'e2': a disc in column e lands on e1" in app.last_error
        assert not app.load_file(tmp_path / "nope.c4g")
        assert "no such file" in app.last_error
        assert app.model.line == [3, 3, 4, 2]
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("escape")  # cancelling changes nothing either
        await pilot.pause()
        assert app.model.line == [3, 3, 4, 2]


@sync
async def test_save_failure_leaves_old_file(tmp_path):
    target = tmp_path / "g.c4g"
    save_game(target, Position.from_moves("1"))
    app = make_app("4453")
    async with app.run_test(size=(80, 24)):
        assert not app.save_file(tmp_path)  # a directory
        assert "is a directory" in app.last_error
        assert not app.save_file(target)  # exists: asks first, keeps the old file
        assert "already exists" in app.last_error
        assert load_game(target).position.digits() == "1"
        assert app.save_file(target, overwrite=True)  # the user said yes
        assert load_game(target).position.digits() == "4453"


@sync
async def test_enter_moves_and_copy():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "d1 d2 e9"
        await pilot.press("enter")
        await pilot.pause()
        assert "moves: move 3 'e9': not a square" in app.last_error
        assert app.model.line == []
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "1. d1 d2 2. e1"
        await pilot.press("enter")
        await pilot.pause()
        assert app.position.digits() == "445"
        await pilot.press("c")
        assert app.clipboard == "445"


@sync
async def test_threat_map_toggle():
    # White threatens c1/g1 after d1 e1 f1 (odd, acute); Black has none
    app = make_app("41516")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        info = str(app.query_one("#threat-info").render())
        assert "White c1 odd ACUTE, g1 odd ACUTE" in info
        assert "Black none" in info
        board = str(app.query_one("#board").render())
        assert board.count("O") == 2  # the two acute odd threats on row 1
        await pilot.press("t")
        assert not app.query_one("#threat-info").display


@sync
async def test_node_limit_and_hash_prompts_validate():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "lots"
        await pilot.press("enter")
        await pilot.pause()
        assert "node limit: 'lots' is not a number" in app.last_error
        await pilot.press("l")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "500k"
        await pilot.press("enter")
        await pilot.pause()
        assert app.settings.node_limit == 500_000
        await pilot.press("H")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "100000"
        await pilot.press("enter")
        await pilot.pause()
        assert "hash size: 100000 is out of range" in app.last_error


@sync
async def test_command_palette_lists_actions():
    app = make_app()
    async with app.run_test(size=(80, 24)):
        titles = {c.title for c in app.get_system_commands(app.screen)}
        for t in ("Undo", "Redo", "Threats", "Pause", "Step", "Step N nodes", "Node limit",
                  "Hash size", "Open", "Save", "Enter moves", "Copy", "Auto"):
            assert t in titles, t


@sync
async def test_engine_not_available_state():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "engine not available" in str(app.query_one("#status").render())
        await pilot.press("space")
        assert "analysis search is not available" in app.last_error


# ---------------------------------------------------------------------------- command line
def test_open_targets(tmp_path, monkeypatch):
    from c4tui.cli.open import resolve_target

    monkeypatch.chdir(tmp_path)
    assert resolve_target([])[0].digits() == ""
    assert resolve_target(["4453"])[0].digits() == "4453"
    assert resolve_target(["d1", "d2", "e1"])[0].digits() == "445"
    save_game(tmp_path / "g.c4g", Position.from_moves("4453"))
    pos, headers = resolve_target(["g.c4g"])
    assert pos.digits() == "4453" and headers["Result"] == "*"
    with pytest.raises(ValueError, match="nope.c4g: no such file"):
        resolve_target(["nope.c4g"])
    with pytest.raises(ValueError, match="neither a file nor a move sequence: character 4"):
        resolve_target(["4458"])


def test_open_command_reports_bad_input(tmp_path, capsys):
    from c4tui.cli import main

    (tmp_path / "bad.c4g").write_text("[Result \"1-0\"]\n4453\n")
    for argv, expected in (
        ([str(tmp_path / "bad.c4g")], "Result header '1-0' does not match the moves"),
        (["4444444"], "column d is full"),
        (["--nodes", "lots"], "--nodes: 'lots' is not a number"),
    ):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert expected in err and err.count("\n") == 1, err
