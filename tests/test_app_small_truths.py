"""Issue 36, part 2: what the app says at 80x24 is true.

The status line after a step of N nodes (the real engine: the step is the subject), the
threat panel's verdict labelled as MILTON's heuristic, the cuts of an 80x24 terminal and
the play dialog's Enter (a fake engine view where the engine is not the subject).
"""

from __future__ import annotations

import dataclasses

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits, SearchOptions, SearchState
from pilot_util import (
    LOAD_TIMEOUT,
    engine_ready,
    fake_view,
    panel_text,
    screen_text,
    sync,
    until,
    wait_for,
)
from textual.app import App

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.player import PlaySettings
from c4tui.app.widgets import PlaySetupScreen
from c4tui.units import Strength

pytestmark = pytest.mark.usefixtures("tmp_home")


def status(app: C4App) -> str:
    return str(app.query_one("#status").render())


# ------------------------------------------------------------------ a step of N nodes
@sync
async def test_a_step_of_n_nodes_ends_paused_on_the_status_line():
    """Bug: after ``N`` the status line said "● searching" with the numbers of the moment
    the step began, while the search sat paused: a node step pauses inside the kernel,
    which tells no listener, and nothing else (the solver is done: its books) redrew."""
    # the search without its books (B), the exact values from them: at once, then idle
    app = C4App(Position.from_moves("4444"),
                settings=SearchSettings(options=SearchOptions(use_book=False),
                                        limits=Limits(nodes=200_000_000)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")

        def snap():
            return app.bridge.view(app.position).snapshot

        # deep in an iteration: a step of 5,000 nodes then ends inside it (an iteration's
        # end tells the listener, which redraws)
        await wait_for(pilot, lambda: (s := snap()) is not None and s.nodes > 2_000_000, 30,
                       "the search's first 2M nodes")
        await pilot.press("space")
        await wait_for(pilot, lambda: snap().state is SearchState.PAUSED, 10, "the pause")
        before = snap().nodes
        await pilot.press("N")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "5000"
        await pilot.press("enter")
        await wait_for(pilot, lambda: snap().state is SearchState.PAUSED
                       and snap().nodes >= before + 5000, 10, "the step's pause")
        nodes = snap().nodes
        await until(pilot, lambda: status(app).startswith(" ● paused")
                    and f"{nodes:,} nodes" in status(app),
                    "the step's pause on the status line", 3)
        assert "/s" not in status(app)  # no speed: nothing runs


# ------------------------------------------------------------------ the play dialog
class _DialogHost(App[None]):
    """The play dialog alone (no engine: the dialog is the subject); ``result`` is what
    it returned, ``...`` while it is open."""

    def __init__(self) -> None:
        super().__init__()
        self.result: object = ...

    def on_mount(self) -> None:
        def done(choice: object) -> None:
            self.result = choice

        self.push_screen(PlaySetupScreen(side=1, strength="2k"), done)


@pytest.mark.parametrize("keys, vary", [
    (("tab",), False),  # the vary box focused: enter starts, as the footer says
    (("tab", "space"), True),  # space ticks it; enter starts
    (("tab", "tab"), False),  # the hints box
    (("shift+tab",), False),  # the side: enter starts, with the side shown
])
@sync
async def test_enter_starts_the_play_dialog_from_every_field(keys, vary):
    """Bug: Tab to "vary" then Enter ticked the box instead of starting."""
    app = _DialogHost()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, PlaySetupScreen), "the dialog")
        await pilot.press(*keys)
        await pilot.press("enter")
        await until(pilot, lambda: app.result is not ..., "the dialog to start")
        settings, hide_hints = app.result
        assert settings == PlaySettings(1, Strength.of_nodes(2000), vary) and hide_hints


# ------------------------------------------------------------------ the threat panel
@pytest.mark.parametrize("exact, says", [
    ("black", "exact differs: Black wins in 13"),  # the fill's draw, a proven loss
    ("draw", ""),  # agreeing: nothing more
    (None, ""),  # not known
])
@sync
async def test_the_threat_verdict_is_a_labelled_heuristic_never_the_result(exact, says):
    """Bug: "draw: the threats cancel out" above "White none / Black f4 even", in a
    position Black wins in 13 (the fill's draw stated as the result, with a false
    reason)."""
    from c4tui.engine.seam import Band, Score, ThreatVerdict

    from c4tui.app.bridge.engine_view import ExactEntry, ExactStatus

    pos = Position.from_moves("44533622771155")  # White to move; Black wins in 13
    lost = next(v for v in range(-1, -30, -1)
                if Score(v, Band.EXACT).words(pos) == "Black wins in 13")
    value = {"black": lost, "draw": 0, None: None}[exact]
    entry = None if value is None else ExactEntry(ExactStatus.DONE, (value,) * 7)
    app = C4App(pos, engine=False)
    fake_view(app, exact=entry, verdict=ThreatVerdict(0, 0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await until(pilot, lambda: "heuristic, no new threats → draw"
                    in panel_text(app, "threats"), "the verdict")
        shown = panel_text(app, "threats")
        assert "heuristic, no new threats → draw: no four when the board fills" in shown
        assert "cancel out" not in shown
        assert ("exact differs" in shown) == bool(says) and says in shown, shown
        assert "White none" in shown and "Black f4 even" in shown  # its own list


# ------------------------------------------------------------------ 80x24: nothing cut
def _search(state: str = "searching", lines: int = 1, **fields):
    """A made-up search of 4444: twelve iterations, ``lines`` root moves in the last."""
    from c4tui.engine.seam import Band, PvLine, Score
    from test_app_board_snapshots import search_of

    snap = search_of(12)
    order = (4, 2, 5, 1, 6, 0, 3)  # e c f b g a d
    pv = tuple(PvLine(c, Score(-40 * i, Band.HEURISTIC), (c, 3, c)) for i, c in
               enumerate(order[:lines]))
    return dataclasses.replace(snap, state=SearchState(state), lines=pv, **fields)


@pytest.mark.parametrize("review, state", [
    ("", "searching"),
    ("accuracy White 100% Black 100%", "searching"),
    ("accuracy White 100% Black 100%", "paused"),
])
@sync
async def test_the_status_line_keeps_its_end_at_80_columns(review, state):
    """Bug: with "no book" or a review's accuracy shown the line lost its end
    (``limit 2.0M hash 16M au…``): its least missed parts now give way first."""
    from c4tui.app.widgets import StatusLine

    app = C4App(Position.from_moves("4444"), engine=False,
                settings=SearchSettings(options=SearchOptions(use_book=False),
                                        limits=Limits(nodes=200_000_000)))
    fake_view(app, snapshot=_search(state, nodes=6_262_833, nps=2_500_000, elapsed=9.9))
    async with app.run_test(size=(80, 24)) as pilot:
        app.state_changed()
        app.query_one(StatusLine).review = review
        await pilot.pause()
        line = screen_text(app).splitlines()[-2].rstrip()
        assert "…" not in line and line.endswith("limit 200M" if review else
                                                 "limit 200M hash 16M auto on"), line
        assert f" ● {state}" in line and "no book" in line and "d12" in line
        assert ("6,262,833 nodes" if state == "paused" else "6.3M nodes") in line
        assert ("White 100% Black 100%" in line) == bool(review)


@sync
async def test_every_moves_line_is_there_at_80x24():
    """Bug: multi-PV's "every move" showed 5 of 7 lines at 80x24, with no sign that 2
    were missing, and lost the cursor column's line."""
    app = C4App(Position.from_moves("4444"), engine=False)
    fake_view(app, snapshot=_search("done", lines=7))
    async with app.run_test(size=(80, 24)) as pilot:
        app.state_changed()
        await pilot.pause()
        shown = screen_text(app).splitlines()
        panel = [x.split("││")[1].strip(" │") for x in shown[1:9]]
        assert [x[:3] for x in panel[3:6]] == ["1 e", "2 c", "3 f"], panel
        assert panel[6].split() == ["+4", "more", "b", "-120", "g", "-160", "a", "-200",
                                    "d", "-240"], panel
        assert panel[7].startswith("col d"), panel


@sync
async def test_the_log_keeps_its_numbers_beside_the_threats_at_80x24():
    """Bug: with the threat panel on, the log dropped window, re, n/s, hit and fill at
    80x24; its compact form keeps every number, and the last row's window, time and PV
    on a line of their own."""
    app = C4App(Position.from_moves("4444"), engine=False)
    fake_view(app, snapshot=_search("done"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        app.state_changed()
        await pilot.pause()
        log = panel_text(app, "search log")
        assert log.startswith("d re score nodes n/s hit fill "), log
        # iteration 11 re-searched after a fail low; 12 did not (made-up numbers)
        assert "11 0/1 -125 150k 1.0M 50% 6% 12 0/0 -100 380k 1.0M 50% 16%" in log, log
        assert "└ [-175,-75] 380ms c1 d5 d6 c2" in log, log
        assert "heuristic, no new threats" in panel_text(app, "threats")


@sync
async def test_a_message_keeps_a_link_whole_at_80x24():
    """Bug: messages were cut at 80x24: half the screen wide, a link (``L``) or a path
    was folded in the middle, and what was read or copied from the screen was wrong."""
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        link = "https://connect4.gamesolver.org/?pos=4453"
        app.say(f"copied {link} (0-based: 0:3342)")
        await until(pilot, lambda: (ts := list(app.screen.query("Toast")))
                    and all(t.region.area for t in ts), "the message laid out")
        await pilot.pause()
        assert any(link in line for line in screen_text(app).splitlines()), \
            screen_text(app)


@sync
async def test_every_moves_lines_follow_a_larger_terminal():
    """The rows the box gives the lines follow the terminal: at 120x40 all seven whole."""
    app = C4App(Position.from_moves("4444"), engine=False)
    fake_view(app, snapshot=_search("done", lines=7))
    async with app.run_test(size=(80, 24)) as pilot:
        app.state_changed()
        await pilot.pause()
        fake_view(app, snapshot=_search("done", lines=7, nodes=2_000_000))  # an update, laid out
        app.state_changed()
        await pilot.pause()
        assert "+4 more" in screen_text(app)
        await pilot.resize_terminal(120, 40)
        await until(pilot, lambda: "7 d" in screen_text(app), "the seventh line whole")
        text = screen_text(app)
        assert "more" not in text and "col d" in text, text
