"""Pilot tests of the game review (key R): the graph fills, the moves get their marks,
the analysis panel names the better move; a changed game cancels the review.

The first test runs the whole engine; the others use the fake bridge (tests/fake_bridge.py):
the review itself is the real review worker with its own solver (the books the fake
engine record carries), so its marks and accuracies are real."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position
from fake_bridge import fake_bridge
from pilot_util import sync, until
from test_app_engine import LOAD_TIMEOUT, engine_ready, wait_for

from c4tui.app import C4App, SearchSettings
from c4tui.review.game import BLUNDER, INACCURACY

pytestmark = pytest.mark.usefixtures("tmp_home")


def review_done(app: C4App) -> bool:
    job = app.review.job
    assert job is None or not job.error, job.error
    return job is not None and job.result is not None


@sync
async def test_review_fills_the_graph_and_marks_the_moves():
    # 1. c1?? (only d1 wins) d1 2. d2 d3; the unfinished game's last position is solved too
    app = C4App(Position.from_moves("3444"), settings=SearchSettings(auto=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        # nothing known of the game's earlier positions yet (the viewed one: the exact worker)
        assert app.evals.line(app.model.line)[:4] == (None,) * 4
        await pilot.press("R")
        await wait_for(pilot, lambda: review_done(app), 60, "the review")
        await until(pilot, lambda: "c1??" in str(app.query_one("#moves").render()),
                    "the marks in the move list")
        result = app.review.job.result
        white = f"{result.accuracy(0):.0f}%"
        assert app.last_message == (f"review done: White {white} 1?? 0? 0?! · Black 100% "
                                    "0?? 0? 0?! · from the start: White wins in 21")
        # the accuracy stays on the status line while the game is the one reviewed
        await until(pilot, lambda: f"accuracy White {white} Black 100%"
                    in str(app.query_one("#status").render()), "the accuracy")
        values = app.evals.line(app.model.line)
        assert None not in values and len(values) == 5
        assert values[0] > 0 and values[1] == 0  # White wins at the start; c1 draws
        moves = str(app.query_one("#moves").render())
        assert "c1??" in moves and "d1" in moves
        marks = app.query_one("#moves").marks
        assert marks == {m.ply + 1: m.mark for m in result.plies if m.mark}
        assert marks[1] == BLUNDER
        await pilot.press("home", "down")  # view the position after 1. c1??
        await until(pilot, lambda: "c1?? better d1" in str(app.query_one("#analysis").render()),
                    "the mark in the analysis panel")
        panel = str(app.query_one("#analysis").render())
        assert "c1?? better d1" in panel
        # R again reviews again (a new review of the same game, same marks)
        await pilot.press("R")
        await wait_for(pilot, lambda: review_done(app) and app.review.job.serial == 2, 60,
                       "the second review")
        assert app.query_one("#moves").marks == marks


@sync
async def test_review_without_moves_or_engine():
    app = C4App(Position(), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        palette = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert palette["Review game"] == "key: R"
        await pilot.press("R")
        assert app.last_error == "review: no moves to review"
        await pilot.press("4")
        await pilot.press("R")
        assert app.last_error == "review: the engine is off (--no-engine)"
    app = C4App(Position.from_moves("4"), engine=False, hints=False)  # play mode's
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("R")
        assert app.last_error == "review: the hints are hidden (h shows them)"


# 9 discs: without the books each position takes the solver a while
DEEP = "233752167"


@pytest.mark.usefixtures("no_books")
@sync
async def test_a_changed_game_cancels_the_review():
    app = C4App(Position.from_moves(DEEP), settings=SearchSettings(auto=False),
                bridge=fake_bridge())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await pilot.press("R")
        await until(pilot, lambda: "review " in str(app.query_one("#status").render()),
                    "the review on the status line")
        job = app.review.job
        assert job.running and job.result is None
        assert f"review {job.done}/10" in str(app.query_one("#status").render())
        await pilot.press("up", "up")  # walking through the game does not cancel it
        await pilot.pause(0.1)  # a window for a cancel that must not come: not a wait
        assert app.review.job.running and not app.review.job.cancelled
        await pilot.press("backspace")  # take back the last move: another game
        await until(pilot, lambda: app.last_message.startswith("review cancelled"),
                    "the review's cancel")
        assert app.last_message.startswith("review cancelled: the game changed")
        await wait_for(pilot, lambda: not app.review.job.running, 10, "the review to stop")
        job = app.review.job
        assert job.cancelled and job.result is None and not job.error
        assert "review" not in str(app.query_one("#status").render())


@sync
async def test_review_shows_inaccuracies_and_accuracy():
    # 4. g2?!: a1 and e1 win at once, g2 wins a move later; what the user sees of it
    app = C4App(Position.from_moves("4433277"), settings=SearchSettings(auto=False),
                bridge=fake_bridge())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await pilot.press("R")
        await wait_for(pilot, lambda: review_done(app), 60, "the review")
        await until(pilot, lambda: "g2?!" in str(app.query_one("#moves").render()),
                    "the ?! mark in the move list")
        result = app.review.job.result
        assert app.query_one("#moves").marks[7] == INACCURACY
        white, black = (f"{result.accuracy(p):.0f}%" for p in (0, 1))
        assert app.last_message.startswith(f"review done: White {white} 1?? 0? 1?! · "
                                           f"Black {black} 1?? 0? 0?!")
        await until(pilot, lambda: f"accuracy White {white} Black {black}"
                    in str(app.query_one("#status").render()), "the accuracy")
        await until(pilot, lambda: "g2?! better a1 e1" in str(app.query_one("#analysis")
                                                              .render()),
                    "the inaccuracy in the analysis panel")
        await pilot.press("backspace")  # another game: its accuracy is not the review's
        await until(pilot, lambda: "accuracy" not in str(app.query_one("#status").render()),
                    "the accuracy gone")


@sync
@pytest.mark.parametrize("n, mark", [(15, INACCURACY), (16, "")])
async def test_the_app_reviews_with_its_inaccuracy_option(n, mark):
    # 36433: 3. c3 keeps the win 15 moves slower (c4tui --inaccuracy N, as c4tui review)
    app = C4App(Position.from_moves("36433"), settings=SearchSettings(auto=False),
                inaccuracy=n, bridge=fake_bridge())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await pilot.press("R")
        await wait_for(pilot, lambda: review_done(app), 60, "the review")
        await until(pilot, lambda: app.query_one("#moves").marks.get(5, "") == mark
                    and "?" in str(app.query_one("#moves").render()), f"mark {mark!r}")
        assert ("3. c3?!" in str(app.query_one("#moves").render())) == bool(mark)


def test_the_app_refuses_an_absurd_inaccuracy():
    from typer.testing import CliRunner

    from c4tui.cli import app as cli

    res = CliRunner().invoke(cli, ["open", "--inaccuracy", "0", "--no-engine"])
    assert res.exit_code == 2 and "--inaccuracy 0" in res.output and "1 to 42" in res.output


@sync
async def test_an_imperfect_accuracy_is_not_shown_as_100():
    # level 3 against level 7 (V): Black won, two of its moves slower wins (g1, b1): 99.7
    game = "44134357433572237777324421221155551166"
    app = C4App(Position.from_moves(game), settings=SearchSettings(auto=False),
                bridge=fake_bridge())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await pilot.press("R")
        await wait_for(pilot, lambda: review_done(app), 60, "the review")
        assert 99.5 <= app.review.job.result.accuracy(1) < 100
        assert " · Black 99% 0?? 0? 0?! · " in app.last_message
        await until(pilot, lambda: "accuracy White 29% Black 99%"
                    in str(app.query_one("#status").render()), "the accuracy")
