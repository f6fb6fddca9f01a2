"""The best move on the board (key b): a marker over the best column(s) and their landing
squares highlighted, from the exact values when there are some, else the search's move,
labelled by its source; it follows the position, and play mode without hints hides it."""

from __future__ import annotations

import pytest
from c4tui.engine.board.geometry import HEIGHT
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, Score, SearchState, Snapshot
from fake_bridge import fake_bridge
from pilot_util import sync, until

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.engine_view import EngineState, EngineView, ExactEntry, ExactStatus
from c4tui.app.bridge.player import PlaySettings
from c4tui.app.render import best_move
from c4tui.app.widgets import BoardView
from c4tui.app.widgets.board import BEST_MARK, BEST_SQUARE, BestMove

pytestmark = pytest.mark.usefixtures("tmp_home")

GUTTER, CELL = 2, 4  #: the board's text: the row gutter, then 4 cells per column


def marked_columns(board: BoardView) -> list[int]:
    """The columns under the markers of the board's first line (none: no marker line)."""
    first = board.render().plain.splitlines()[0]
    return [(x - GUTTER) // CELL for x, ch in enumerate(first) if ch == BEST_MARK]


def landing_styles(board: BoardView, col: int) -> str:
    """The styles drawn at the square where a disc in ``col`` would land."""
    lines = board.render().split("\n")
    row = 2 + (HEIGHT - 1 - board.position.height(col))  # under the marker and the names
    x = GUTTER + board.order.index(col) * CELL + 1
    return " ".join(str(span.style) for span in lines[row].spans if span.start <= x < span.end)


def exact_best(app: C4App) -> tuple[int, ...] | None:
    exact = app.bridge.view(app.position).exact
    if exact is None or exact.best is None:
        return None
    return tuple(c for c, s in enumerate(exact.scores) if s == exact.best)


def test_best_move_comes_from_the_exact_values_else_the_search():
    pos = Position.from_moves("4453")
    view = EngineView(EngineState.READY, SearchSettings())
    assert best_move(view, pos) is None  # nothing known yet
    snap = Snapshot(state=SearchState.SEARCHING, depth=3, nodes=10, nps=10, elapsed=0.1,
                    best_move=5, score=Score(0, Band.HEURISTIC))
    view = EngineView(EngineState.READY, SearchSettings(), snapshot=snap)
    assert best_move(view, pos) == BestMove((5,), "search")
    exact = ExactEntry(ExactStatus.DONE, (-5, None, 2, 2, -1, 0, -3))
    view = EngineView(EngineState.READY, SearchSettings(), snapshot=snap, exact=exact)
    assert best_move(view, pos) == BestMove((2, 3), "exact")  # ties: both marked
    assert best_move(view, Position.from_moves("4455667")) is None  # the game is over


#: Two positions of tests/data, the second two moves after the first: the fake bridge's
#: exact values are the data's (the one between them has none: nothing marked there)
BEFORE, AFTER = "121", "12124"


@sync
async def test_best_move_marked_and_following_the_position():
    app = C4App(Position.from_moves(BEFORE), settings=SearchSettings(auto=False),
                bridge=fake_bridge())
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: exact_best(app) is not None, "the exact values")
        board = app.query_one(BoardView)
        assert marked_columns(board) == []  # off until b
        await pilot.press("b")
        best = exact_best(app)
        await until(pilot, lambda: board.marked == best, "the best columns marked")
        first = board.render().plain.splitlines()[0]
        assert marked_columns(board) == list(best) and "exact" in first
        # each landing square is drawn on the highlight's background, no other square
        for c in range(7):
            assert (BEST_SQUARE.strip() in landing_styles(board, c)) == (c in best), c
        await pilot.press(*AFTER[len(BEFORE):])  # another position: the marker follows
        await until(pilot, lambda: exact_best(app) is not None and board.marked
                    == exact_best(app), "the new position's best move")
        assert app.position.digits() == AFTER and exact_best(app) != best
        assert marked_columns(board) == list(exact_best(app) or ())
        await pilot.press("F")  # mirrored: the markers over the same columns, drawn mirrored
        drawn = [6 - c for c in marked_columns(board)]
        assert sorted(drawn) == sorted(exact_best(app) or ())
        await pilot.press("b")
        assert marked_columns(board) == [] and board.marked == ()


@sync
async def test_play_mode_without_hints_hides_the_best_move():
    # tests/data's, White (you) to move: the engine, Black, is not asked for a move
    app = C4App(Position.from_moves("5354"), play=PlaySettings(side=1), hints=False,
                bridge=fake_bridge())
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.query_one(BoardView)
        await pilot.press("b")
        assert board.show_best and "hints" in app.last_message
        await pilot.pause(0)
        assert board.best is None and marked_columns(board) == []
        await pilot.press("h")  # hints on: shown once the engine knows it
        await until(pilot, lambda: board.marked != (), "the best move")
        assert marked_columns(board) == list(board.marked)
