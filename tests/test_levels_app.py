"""Levels in play mode: the engine's thread plays a level's seeded moves, the play dialog
takes a level, the status line names it, and --strength takes one too."""

from __future__ import annotations

import queue
import random

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.solver.solver import Solver
from pilot_util import LOAD_TIMEOUT, engine_ready, sync, until, wait_for
from testdata import load_positions, sample

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.loader import Engine
from c4tui.app.bridge.player import EnginePlayer, PlaySettings
from c4tui.app.widgets import PlaySetupScreen
from c4tui.cli import main
from c4tui.units import Strength

pytestmark = pytest.mark.usefixtures("tmp_home")

#: Positions past the books that the solver scores in milliseconds (20-30 discs).
POSITIONS = [Position.from_moves(m) for m, _, _ in sample(
    [r for r in load_positions() if 20 <= len(r[0]) <= 30], 8, seed=5)]


def _moves(seed: int, level: int) -> list[int]:
    """The engine's replies at ``level`` in :data:`POSITIONS`, from a player seeded so."""
    engine = Engine(Solver(hash_mb=16, book=None), None, None)
    answers: queue.Queue = queue.Queue()
    player = EnginePlayer(lambda: engine, answers.put, rng=random.Random(seed))
    cols = []
    try:
        for pos in POSITIONS:
            player.think(pos, PlaySettings(side=pos.to_move, strength=Strength(level=level)))
            reply = answers.get(timeout=60)
            assert reply.error == "" and reply.col is not None, reply
            assert pos.can_play(reply.col)
            cols.append(reply.col)
    finally:
        player.shutdown()
    return cols


def test_a_level_plays_legal_moves_replayed_by_its_seed():
    first = _moves(3, level=2)
    assert _moves(3, level=2) == first
    assert any(_moves(seed, level=2) != first for seed in (4, 5, 6))


@sync
async def test_play_dialog_takes_a_level_and_the_status_line_names_it():
    app = C4App(Position.from_moves("44"), settings=SearchSettings(auto=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, PlaySetupScreen), "the dialog")
        app.screen.query_one("#play-strength").value = "level 11"
        await pilot.press("enter")
        assert "level 11 is out of range (1 to 10)" in \
            str(app.screen.query_one("#play-error").render())
        app.screen.query_one("#play-strength").value = "5"
        await pilot.press("enter")
        await until(pilot, lambda: app.play.settings is not None, "play mode")
        assert app.play.settings == PlaySettings(side=1, strength=Strength(level=5))
        status = app.query_one("#status")
        await until(pilot, lambda: "engine level 5" in str(status.render()),
                    "the level on the status line")
        await pilot.press("5")
        await wait_for(pilot, lambda: len(app.model.line) == 4
                       and not app.bridge.player.thinking(), 60, "the engine's move")
        assert app.model.line[-1] in Position.from_moves("445").legal_moves()
        # the dialog proposes the last strength as it was typed
        await pilot.press("p")  # leaves play mode
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, PlaySetupScreen), "the dialog")
        assert app.screen.query_one("#play-strength").value == "5"


def test_strength_option_takes_a_level(monkeypatch):
    seen = []
    monkeypatch.setattr(C4App, "run", lambda self: seen.append(self.play.settings))
    for word in ("3", "L3", "level 3"):
        with pytest.raises(SystemExit) as info:
            main(["44", "--play", "black", "--strength", word])
        assert info.value.code in (0, None)
    assert seen == [PlaySettings(side=1, strength=Strength(level=3))] * 3


def test_play_at_a_level_80x24(snap_compare):
    """Play mode at level 5, the user to move: the status line names the level."""
    app = C4App(Position.from_moves("44"), settings=SearchSettings(auto=False),
                play=PlaySettings(side=1, strength=Strength(level=5)), hints=False)

    async def ready(pilot) -> None:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await until(pilot, lambda: "engine level 5" in str(app.query_one("#status").render()),
                    "the level on the status line")

    assert snap_compare(app, terminal_size=(80, 24), run_before=ready)
