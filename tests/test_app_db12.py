"""The app's exact row through the middle game: with the 12-ply database, every position
with up to 12 discs shows exact values (W/L/=), never the short searches' ``~`` values.

How fast they appear is measured by ``docs/scripts/exact_row_latency.py`` (a benchmark,
docs/benchmarks.md), not here.
"""

from __future__ import annotations

import time

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, Score
from pilot_util import sync, until
from test_app_engine import LOAD_TIMEOUT, engine_ready, wait_for
from testdata import load_positions

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.engine_view import ExactStatus

pytestmark = pytest.mark.usefixtures("tmp_home")

ROWS = load_positions()


def exact_done(app: C4App):
    e = app.bridge.view(app.position).exact
    return e if e is not None and e.status is ExactStatus.DONE else None


def board_row(app: C4App) -> str:
    return str(app.query_one("#board").render())


def shows_exact(app: C4App) -> bool:
    """The board's value row shows the exact values (their best among them), no ``~``."""
    row, entry = board_row(app), exact_done(app)
    return entry is not None and "~" not in row \
        and Score(entry.best, Band.EXACT).short(app.position.ply) in row


@sync
async def test_exact_row_is_exact_up_to_12_discs():
    """Start on an 11-disc position, then play into 12 discs: both get exact values that
    agree with the independent scores, and the board shows them without ``~``."""
    moves, _, cols = next(r for r in ROWS if len(r[0]) == 11
                          and sum(s is not None for s in r[2]) == 7)
    pos = Position.from_moves(moves)
    app = C4App(pos, settings=SearchSettings(auto=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await wait_for(pilot, lambda: exact_done(app) is not None, 30, "exact values")
        assert list(exact_done(app).scores) == cols
        assert exact_done(app).nodes < 3000  # lookups in the database (without: 10^4-10^6)
        await until(pilot, lambda: shows_exact(app), "the exact values on the board")
        # play every column that does not end the game, one after another (undo between)
        for c in range(7):
            if pos.is_winning_move(c):
                continue
            t0 = time.monotonic()
            await pilot.press(str(c + 1))
            assert app.position.ply == 12
            await wait_for(pilot, lambda: exact_done(app) is not None, 30,
                           f"exact values after {c + 1}")
            took = time.monotonic() - t0
            entry = exact_done(app)
            # the child's best column is the child's score: minus the parent's column value
            assert entry.best == -cols[c], (c, entry.scores, cols)
            assert took < 10  # generous: a hang, not a speed target
            await until(pilot, lambda: shows_exact(app), "the exact values on the board")
            await pilot.press("u")  # take the move back
            assert app.position.ply == 11
