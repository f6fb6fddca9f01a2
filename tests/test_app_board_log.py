"""The search log scrolls (keys while focused, the mouse wheel) and, like a terminal, new
rows keep it at the bottom unless the user scrolled back: then its rows stay put."""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, IterationReport, Score, SearchState, Snapshot
from pilot_util import sync, until
from textual import events
from textual.app import App, ComposeResult

from c4tui.app.widgets import SearchLog

ROWS = 5  #: iteration rows the log shows (its height less the header)


def iteration(depth: int) -> IterationReport:
    return IterationReport(depth=depth, alpha=-10000, beta=10000, fail_highs=0, fail_lows=0,
                           score=Score(depth, Band.HEURISTIC), best_move=3, nodes=1000,
                           nps=100_000, tt_probes=10, tt_hits=5, hit_rate=0.5, tt_fill=0.25,
                           elapsed=0.01, pv=(3, 3))


def snapshot(depths: int) -> Snapshot:
    """A finished search of ``depths`` iterations (one row each)."""
    its = tuple(iteration(d) for d in range(1, depths + 1))
    return Snapshot(state=SearchState.DONE, depth=depths, nodes=1000 * depths, nps=100_000,
                    elapsed=0.01 * depths, best_move=3, score=Score(depths, Band.HEURISTIC),
                    iterations=its)


class LogApp(App[None]):
    CSS = f"SearchLog {{ height: {ROWS + 1}; }}"

    def compose(self) -> ComposeResult:
        yield SearchLog(id="log")


async def wheel(pilot, log: SearchLog, up: bool) -> None:
    """One notch of the mouse wheel over the log, sent as the terminal sends it."""
    x, y = log.region.x + 4, log.region.y + 2
    kind = events.MouseScrollUp if up else events.MouseScrollDown
    pilot.app.post_message(kind(None, x, y, 0, -1 if up else 1, 0, False, False, False,
                                screen_x=x, screen_y=y))
    await pilot.pause()


def depths_shown(log: SearchLog) -> list[int]:
    """The depth of each iteration row on screen."""
    return [int(line.split()[0]) for line in log.render().plain.splitlines()[1:]]


@sync
async def test_log_scrolls_and_sticks_to_the_bottom():
    app = LogApp()
    async with app.run_test(size=(80, 12)) as pilot:
        log = app.query_one(SearchLog)
        log.position, log.snapshot = Position(), snapshot(8)
        await pilot.pause()
        assert depths_shown(log) == [4, 5, 6, 7, 8]
        log.snapshot = snapshot(9)  # at the bottom: the new row shows
        await pilot.pause()
        assert depths_shown(log) == [5, 6, 7, 8, 9]
        log.focus()
        await pilot.press("up", "up")
        assert depths_shown(log) == [3, 4, 5, 6, 7] and log.border_subtitle == "↓ 2 more (end)"
        log.snapshot = snapshot(11)  # scrolled back: the rows shown stay put
        await pilot.pause()
        assert depths_shown(log) == [3, 4, 5, 6, 7] and log.border_subtitle == "↓ 4 more (end)"
        await pilot.press("home")
        assert depths_shown(log) == [1, 2, 3, 4, 5]
        await pilot.press("pagedown")
        assert depths_shown(log) == [6, 7, 8, 9, 10]
        await pilot.press("end")
        assert depths_shown(log) == [7, 8, 9, 10, 11] and log.border_subtitle == ""
        log.snapshot = snapshot(12)  # back at the bottom: it follows again
        await pilot.pause()
        assert depths_shown(log) == [8, 9, 10, 11, 12]


@sync
async def test_mouse_wheel_scrolls_the_log():
    app = LogApp()
    async with app.run_test(size=(80, 12)) as pilot:
        log = app.query_one(SearchLog)
        log.position, log.snapshot = Position(), snapshot(8)
        await pilot.pause()
        for _ in range(3):
            await wheel(pilot, log, up=True)
        await until(pilot, lambda: depths_shown(log) == [1, 2, 3, 4, 5], "scrolled back 3")
        await wheel(pilot, log, up=True)  # no further than the first row
        await pilot.pause()
        assert depths_shown(log) == [1, 2, 3, 4, 5]
        await wheel(pilot, log, up=False)
        await until(pilot, lambda: depths_shown(log) == [2, 3, 4, 5, 6], "forward one row")
        log.position = Position.from_moves("4")  # another position's search: from its end
        log.snapshot = snapshot(8)
        await pilot.pause()
        assert depths_shown(log) == [4, 5, 6, 7, 8]
