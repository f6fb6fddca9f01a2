"""Positions as other tools write them: connect4.gamesolver.org links (``?pos=``, 1-based
digits) and 0-based strings (``0:3342``, BitBully's and Steininger's c4's), read wherever
a position is read (Position.parse: solve, analyze, review, the app's command line and its
``e`` prompt) and written by ``L``."""

from __future__ import annotations

import json

import pytest
from c4tui.engine.board.position import IllegalMoveError, Position
from pilot_util import sync, until
from typer.testing import CliRunner

from c4tui.app import C4App
from c4tui.cli import app as cli
from c4tui.cli.open import resolve_target

pytestmark = pytest.mark.usefixtures("tmp_home")
runner = CliRunner()
LINK = "https://connect4.gamesolver.org/?pos=4453"


@pytest.mark.parametrize("text", [
    LINK, "connect4.gamesolver.org/en/?pos=4453&lang=en", "?pos=4453", "0:3342", " 0:3342 ",
    "http://localhost:8000/solve?pos=4453",
])
def test_links_and_zero_based_read_as_the_digits(text):
    assert Position.parse(text).digits() == "4453"


def test_writers_round_trip():
    pos = Position.from_moves("4453")
    assert pos.link() == LINK and pos.zero_based() == "0:3342"
    assert Position.parse(pos.link()) == pos == Position.parse(pos.zero_based())
    assert Position.parse("0:").ply == 0 and Position.parse("?pos=").ply == 0


@pytest.mark.parametrize(("text", "error"), [
    ("https://connect4.gamesolver.org/?pos=4458",
     "link 'https://connect4.gamesolver.org/?pos=4458': character 4 '8': not a column "
     "(expected 1-7)"),
    ("https://connect4.gamesolver.org/?pos=1111111",
     "link 'https://connect4.gamesolver.org/?pos=1111111': move 7 (a): column a is full"),
    ("https://connect4.gamesolver.org/",
     "link 'https://connect4.gamesolver.org/': no ?pos= with the moves"),
    ("https://connect4.gamesolver.org/?pos=4&pos=5", "2 pos= fields, expected one"),
    ("0:37", "0-based '0:37': character 2 '7': not a column (expected 0-6)"),
    ("0:0000000", "0-based '0:0000000': move 7 (a): column a is full"),
])
def test_bad_links_and_zero_based_say_which_and_why(text, error):
    with pytest.raises(IllegalMoveError) as info:
        Position.parse(text)
    assert error in str(info.value) and "\n" not in str(info.value)


def test_solve_reads_links_and_zero_based():
    r = runner.invoke(cli, ["solve", LINK, "0:3342", "4453"])
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == ["4453 -2"] * 3


def test_solve_bad_link_is_one_line_and_the_others_go_on():
    r = runner.invoke(cli, ["solve", LINK + "8", "0:3342"])
    assert r.exit_code == 2
    assert r.stdout.splitlines() == ["4453 -2"]
    assert r.stderr.strip().splitlines() == [
        "c4tui: argument 1: link 'https://connect4.gamesolver.org/?pos=44538': character 5 '8': "
        "not a column (expected 1-7)"]


def test_analyze_reads_a_link_and_a_zero_based_string():
    for text in (LINK, "0:3342"):
        r = runner.invoke(cli, ["analyze", "--nodes", "10k", "--json", text])
        assert r.exit_code == 0, r.output
        result = json.loads(r.stdout.splitlines()[-1])
        assert result["type"] == "result" and result["best_move"] == 6  # 4453's 6, exact
    r = runner.invoke(cli, ["analyze", "0:9"])
    assert r.exit_code == 2 and r.stderr.strip() == (
        "c4tui: analyze: 0-based '0:9': character 1 '9': not a column (expected 0-6)")


def test_review_reads_a_link_and_says_a_bad_one_in_one_line():
    r = runner.invoke(cli, ["review", "--json", "0:3342"])
    assert r.exit_code == 0, r.output
    assert '"moves"' in r.stdout
    r = runner.invoke(cli, ["review", "https://connect4.gamesolver.org/?pos=4x"])
    assert r.exit_code == 2
    assert r.stderr.strip() == ("c4tui: review: link 'https://connect4.gamesolver.org/?pos=4x'"
                                ": character 2 'x': not a column (expected 1-7)")


def test_the_command_line_opens_a_link():
    assert resolve_target([LINK]).position.digits() == "4453"
    assert resolve_target(["0:3342"]).position.digits() == "4453"
    with pytest.raises(ValueError, match=r"^link '.*\?pos=9': character 1 '9'"):
        resolve_target(["https://connect4.gamesolver.org/?pos=9"])  # not "no such file"


@sync
async def test_the_prompt_reads_a_link_and_l_copies_one():
    app = C4App(Position(), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for text, digits in ((LINK, "4453"), ("0:33", "44")):
            await pilot.press("e")
            await until(pilot, lambda: app.screen.query("#prompt-input"), "the prompt")
            app.screen.query_one("#prompt-input").value = text
            await pilot.press("enter")
            await until(pilot, lambda d=digits: app.position.digits() == d, "the position")
        await pilot.press("e")
        await until(pilot, lambda: app.screen.query("#prompt-input"), "the prompt")
        app.screen.query_one("#prompt-input").value = "?pos=48"
        await pilot.press("enter")
        await until(pilot, lambda: app.last_error, "the error")
        assert app.last_error == ("moves: link '?pos=48': character 2 '8': not a column "
                                  "(expected 1-7)")
        assert app.position.digits() == "44"
        await pilot.press("L")
        assert app.clipboard == "https://connect4.gamesolver.org/?pos=44"
        assert app.last_message == ("copied https://connect4.gamesolver.org/?pos=44 "
                                    "(0-based: 0:33)")


@sync
async def test_the_open_picker_reads_a_link_typed_in_its_box():
    app = C4App(Position(), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for text in (LINK, "?pos=48"):
            await pilot.press("o")
            await until(pilot, lambda: app.screen.query("#picker-input"), "the picker")
            app.screen.query_one("#picker-input").value = text
            app.screen.query_one("#picker-input").focus()
            await pilot.press("enter")
            await until(pilot, lambda: not app.screen.query("#picker-input"), "picker closed")
        assert app.position.digits() == "4453"
        assert app.last_error == ("open: link '?pos=48': character 2 '8': not a column "
                                  "(expected 1-7)")
