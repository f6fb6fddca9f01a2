"""The values under the board while the exact ones are not (all) there (issue 24, item 1).

Every column shows a value within a second or two of the engine being ready, whatever the
main search's node limit; an approximate value (``~``) never contradicts what is known
exactly, and the columns the solver solved before its budget ran out stay exact.
"""

from __future__ import annotations

import re
import threading
import time

import pytest
from c4tui.engine.board.geometry import WIDTH
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, Limits, Score, SearchAborted, SearchState
from pilot_util import LOAD_TIMEOUT, engine_ready, sync, until, wait_for
from waiting import wait_until

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.engine_view import EngineState, EngineView, ExactEntry, ExactStatus
from c4tui.app.bridge.exact_worker import ExactWorker
from c4tui.app.bridge.loader import Engine
from c4tui.app.bridge.settings import EXACT_BUDGET

pytestmark = pytest.mark.usefixtures("tmp_home")

#: What "at once" means for the first values (the quick pass takes a fraction of it).
FIRST_VALUES = 2.0
#: A value cell under the board: exact (``W3`` ``L17`` ``=`` ``W3r``) or approximate.
VALUE = re.compile(r"^(~[WL=]|[WL]\d+r?|[WL]r|=)$")
#: The exact values of 44's moves (without the books the solver needs about 9 s for them).
TRUTH = (-3, -3, -2, 1, -2, -3, -3)


def screen_text(app: C4App) -> str:
    """What the terminal shows, as plain text lines."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


def value_row(app: C4App) -> list[str]:
    """The seven cells of the row under the column numbers, as the screen shows them."""
    lines = screen_text(app).splitlines()
    numbers = next(i for i, line in enumerate(lines) if re.search(r"1\s+2\s+3\s+4\s+5\s+6\s+7",
                                                                   line))
    row = lines[numbers + 1]
    # the cells are centred under the numbers: cut the row at the numbers' positions
    cols = [lines[numbers].index(str(c + 1)) for c in range(WIDTH)]
    return [row[max(0, x - 2):x + 3].strip() for x in cols]


@pytest.mark.usefixtures("no_books")
@sync
async def test_every_column_has_a_value_at_once():
    # without the books the solver needs about 9 s for this position's moves (d wins,
    # every other move loses), past its budget; the search's limit keeps it going a minute
    app = C4App(Position.from_moves("44"),
                settings=SearchSettings(limits=Limits(nodes=300_000_000)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        ready = time.monotonic()
        await wait_for(pilot, lambda: all(VALUE.match(c) for c in value_row(app)),
                       FIRST_VALUES + 1.0, f"a value under every column: {value_row(app)}")
        assert time.monotonic() - ready < FIRST_VALUES + 1.0
        assert "no value yet" not in screen_text(app)
        row = value_row(app)
        assert row == row[::-1], row  # mirror-image moves: one value
        snap = app.bridge.view(app.position).snapshot
        assert snap is not None and snap.state is SearchState.SEARCHING  # still searching

        def settled() -> bool:
            entry = app.bridge.view(app.position).exact
            return entry is not None and entry.status in (ExactStatus.TOO_SLOW,
                                                          ExactStatus.DONE)

        # whatever the solver found within its budget (on a busy machine: maybe nothing)
        # is shown exact, never replaced by the searches' values
        await wait_for(pilot, settled, EXACT_BUDGET + 10, "the solver's budget")

        def shown() -> bool:  # the solver's values and bounds under their columns
            entry, row = app.bridge.view(app.position).exact, value_row(app)
            exact = entry.scores or entry.partial
            return all(row[c] == Score(s, Band.EXACT).short(2)
                       for c, s in enumerate(exact) if s is not None) \
                and all(row[c] == "Lr" for c, b in enumerate(entry.bounds)
                        if b is not None and b[1] < 0 and not (exact and exact[c] is not None))

        await until(pilot, shown, "the solver's values on the board")
        view = app.bridge.view(app.position)
        entry = view.exact
        exact = entry.scores or entry.partial
        row = value_row(app)
        for col, score in enumerate(exact):
            if score is not None:
                assert row[col] == Score(score, Band.EXACT).short(2), (col, row)
                assert score == TRUTH[col]
        # the columns it was solving: what it had proven by then (a loss: Lr)
        for col, b in enumerate(entry.bounds):
            if b is None or exact and exact[col] is not None:
                continue
            assert b[0] <= TRUTH[col] <= b[1], (col, b)
            if b[1] < 0:
                assert row[col] == "Lr", (col, row)
        assert all(VALUE.match(c) for c in row), row


def fake_view(app: C4App, **fields) -> EngineView:
    base = EngineView(EngineState.READY, app.settings, search_available=True,
                      solver_available=True)
    return EngineView(**{**base.__dict__, **fields})


@sync
async def test_approximate_values_agree_with_exact_ones():
    pos = Position.from_moves("44")
    app = C4App(pos, engine=False)
    heuristic = tuple(Score(v, Band.HEURISTIC) for v in (475, 475, -476, 0, 475, 475, 475))
    async with app.run_test(size=(80, 24)) as pilot:
        # a and b solved (lost) before the budget ran out, the others not: a's and b's
        # search said ~W, the solver's L stands
        partial = (-2, -3, None, None, None, None, None)
        views = [fake_view(app, exact=ExactEntry(ExactStatus.TOO_SLOW,
                                                 message="2 of 7 solved within 3 s",
                                                 partial=partial), columns=heuristic)]
        app.bridge.view = lambda _pos: views[0]
        app.state_changed()
        await pilot.pause()
        row = value_row(app)
        assert row[:2] == [Score(-2, Band.EXACT).short(2), Score(-3, Band.EXACT).short(2)]
        assert row[2:] == ["~L", "~=", "~W", "~W", "~W"]
        assert "exact   too slow: 2 of 7 solved within 3 s" in screen_text(app)  # whole
        # the position is known lost (its parent's solve): every move loses, in at most
        # as many moves as the position (L19r; cut on the board, where it would read L19)
        views[0] = fake_view(app, columns=heuristic, known=Score(-2, Band.EXACT))
        app.state_changed()
        await pilot.pause()
        assert value_row(app) == ["Lr"] * 7
        assert "col d   L19r" in screen_text(app)
        # bounds the solver proved before it gave up: a lost (at most L19), c at least a
        # draw, e at most a draw; g's ~W and b's ~W stand (nothing known of them)
        bounds = ((-20, -2), None, (0, 19), None, (-20, 0), None, None)
        views[0] = fake_view(app, exact=ExactEntry(ExactStatus.TOO_SLOW, message="x",
                                                   bounds=bounds), columns=heuristic)
        app.state_changed()
        await pilot.pause()
        assert value_row(app) == ["Lr", "~W", "~=", "~=", "~=", "~W", "~W"]
        # known drawn: a heuristic win becomes a draw, a loss stays
        views[0] = fake_view(app, columns=heuristic, known=Score(0, Band.EXACT))
        app.state_changed()
        await pilot.pause()
        assert value_row(app) == ["~=", "~=", "~L", "~=", "~=", "~=", "~="]
        # the cursor's line (column d) says the same as the board
        assert "col d   ~=" in screen_text(app)


class _Stopped(SearchAborted):
    def __init__(self) -> None:
        super().__init__()
        self.bounds = {1: (-20, -2)}  # b proven lost when it was stopped


class _SlowSolver:
    """Solves a and g at once, then nothing more until stopped (a long analysis)."""

    def __init__(self) -> None:
        self.stopped = threading.Event()
        self.book = None

    def analyze(self, pos, on_score=None):
        for col in (0, 6):
            on_score(col, -2)
        self.stopped.wait(30)
        raise _Stopped

    def stop(self) -> None:
        self.stopped.set()


def test_the_columns_solved_before_the_budget_are_kept():
    engine = Engine(_SlowSolver(), None, None)
    updates = []
    worker = ExactWorker(engine, budget=0.3, on_done=lambda: updates.append(1),
                         ponder=False, lines=False)
    worker.start()
    pos = Position.from_moves("44")
    worker.want(pos)
    expected = (-2, None, None, None, None, None, -2)
    e = wait_until(lambda: (e := worker.entry(pos)) is not None and e.partial == expected
                   and e, 30, "a and g solved", detail=lambda: str(worker.entry(pos)))
    assert e.status is ExactStatus.SOLVING and updates  # shown while it solves

    def ticked_out():  # the UI's ticks, until one stops the solve past its budget
        worker.tick()
        return (e := worker.entry(pos)).status is not ExactStatus.SOLVING and e

    e = wait_until(ticked_out, 30, "the budget to stop the solve")
    worker.shutdown()
    assert e.status is ExactStatus.TOO_SLOW
    assert e.partial == expected
    # 44 is symmetric: b's bound holds for f too
    assert e.bounds == (None, (-20, -2), None, None, None, (-20, -2), None)
    assert e.message == "2 of 7 solved within 0.3 s"
    view = EngineView(EngineState.READY, SearchSettings(), exact=e,
                      columns=(Score(475, Band.HEURISTIC),) * 7)
    assert [v.short(2) for v in view.values()] == ["L19", "L19r", "~W", "~W", "~W", "L19r",
                                                   "L19"]


def test_the_parent_solve_says_what_the_position_is_worth():
    """The value of ``44`` is its parent's value of d (negated), also when the parent's
    solve was given up after solving d: a bound for every move of ``44``."""
    from c4tui.app.bridge.engine_bridge import EngineBridge

    parent, pos = Position.from_moves("4"), Position.from_moves("44")
    entries = {parent.key(): ExactEntry(ExactStatus.TOO_SLOW, message="x",
                                        partial=(None, None, None, 2, None, None, None))}

    class Exact:
        def entry(self, p: Position) -> ExactEntry | None:
            return entries.get(p.key())

    assert EngineBridge._known(Exact(), pos, None) == Score(-2, Band.EXACT)
    assert EngineBridge._known(Exact(), Position.from_moves("43"), None) is None
