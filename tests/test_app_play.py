"""Play mode: the engine answers the user's moves (perfect or at a node limit), the hints
hide, take-back removes two plies, leaving or taking back mid-think cancels, the CLI's
--play options."""

from __future__ import annotations

import queue
import random

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.levels import best_among_ties
from c4tui.engine.solver.solver import Solver
from pilot_util import sync, until
from test_app_engine import LOAD_TIMEOUT, engine_ready, wait_for

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.loader import Engine
from c4tui.app.bridge.player import EnginePlayer, PlaySettings
from c4tui.app.controllers import Preview
from c4tui.app.widgets import BoardView, PlaySetupScreen
from c4tui.cli import main
from c4tui.report.text import human_count
from c4tui.units import Strength, UnitError, parse_strength

pytestmark = pytest.mark.usefixtures("tmp_home")

# 16 discs, White to move and wins (b, c or g), no four in sight: solved in milliseconds
MIDGAME = "1725427335341174"


def exact_scores(pos: Position) -> tuple[int | None, ...]:
    """The solver's values of each column, from a solver of the test's own."""
    return Solver(hash_mb=16, book=None).analyze(pos).scores


def replies(app: C4App, plies: int):
    return lambda: len(app.model.line) == plies and not app.bridge.player.thinking()


# ---------------------------------------------------------------------------- no engine
def test_strength_values():
    assert parse_strength(" Perfect ", "--strength") == Strength(level=10)
    assert parse_strength("10k", "--strength") == Strength.of_nodes(10_000)
    with pytest.raises(UnitError, match="'strong' is neither perfect, a level"):
        parse_strength("strong", "--strength")
    with pytest.raises(UnitError, match="out of range"):
        parse_strength("0", "--strength")


@pytest.mark.parametrize("argv, message", [
    (["--play", "red"], "--play 'red': not a side (white or black)"),
    (["--play", "white", "--strength", "strong"], "--strength 'strong': neither perfect, a level"),
    (["--play", "black", "--strength", "1e13"], "out of range"),
    (["--strength", "10k"], "need --play white or --play black"),
    (["--play", "white", "--no-engine"], "no engine to play against"),
])
def test_bad_play_options_are_one_line_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2 and message in err and err.count("\n") == 1


def test_play_options_reach_the_app(monkeypatch):
    seen = []
    monkeypatch.setattr(C4App, "run",
                        lambda self: seen.append((self.play.settings, self.play.hints)))
    with pytest.raises(SystemExit) as info:
        main(["44", "--play", "Black", "--strength", "100k", "--vary"])
    assert info.value.code in (0, None)
    assert seen == [(PlaySettings(side=1, strength=Strength.of_nodes(100_000), vary=True), False)]
    main_args = ["--play", "white", "--hints"]
    with pytest.raises(SystemExit):
        main(main_args)
    assert seen[-1] == (PlaySettings(side=0), True)


@sync
async def test_hints_key_and_the_play_dialog_without_engine():
    app = C4App(Position.from_moves("44"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        assert "exact   hidden" in str(app.query_one("#analysis").render())
        assert "evaluations hidden" in str(app.query_one("#graph").render())
        assert "hidden: h shows" in str(app.query_one("#log").render())
        app.preview.set(Preview((2, 3), 2, "col c"))  # an engine line would give it away
        assert app.preview.current is None and not app.query_one(BoardView).preview
        assert "hints are hidden" in app.last_error
        await pilot.press("h")
        app.preview.set(Preview((2, 3), 2, "col c"))
        assert app.query_one(BoardView).preview
        assert "hidden" not in str(app.query_one("#analysis").render())
        await pilot.press("p")  # no engine: nothing to play against
        assert app.play.settings is None and "no engine to play against" in app.last_error


# ---------------------------------------------------------------------------- with engine
def test_perfect_play_varies_among_the_best_moves_only():
    """``vary``: a random pick among the equally good moves (b, c, g here); without it
    always the one nearest the centre."""
    pos = Position.from_moves(MIDGAME)
    best = best_among_ties(exact_scores(pos))
    assert len(best) > 1
    engine = Engine(Solver(hash_mb=16, book=None), None, None)
    answers: queue.Queue = queue.Queue()
    player = EnginePlayer(lambda: engine, answers.put, rng=random.Random(1))
    try:
        seen: dict[bool, set[int]] = {False: set(), True: set()}
        for vary in (False, True):
            for _ in range(12):
                player.think(pos, PlaySettings(side=0, vary=vary))
                reply = answers.get(timeout=30)
                assert player.current(reply) and reply.key == pos.key()
                seen[vary].add(reply.col)
        assert seen[False] == {best[0]}
        assert seen[True] <= set(best) and len(seen[True]) > 1
    finally:
        player.shutdown()


@sync
async def test_perfect_play_hints_and_take_back():
    pos = Position.from_moves(MIDGAME)
    app = C4App(pos, settings=SearchSettings(auto=False),
                play=PlaySettings(side=pos.to_move), hints=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        # the engine is to move when the mode starts: it moves
        await wait_for(pilot, replies(app, len(MIDGAME) + 1), 60, "the engine's move")
        col = app.model.line[-1]
        assert col in best_among_ties(exact_scores(pos))
        await until(pilot, lambda: "your move (Black)" in str(app.query_one("#status").render()),
                    "the user's turn on the status line")
        status = str(app.query_one("#status").render())
        assert "engine played" in status and "your move (Black)" in status
        board = app.query_one("#board", BoardView)
        assert board.values == () and "exact   hidden" in str(app.query_one("#analysis").render())
        await pilot.press("h")  # hints: the exact values of the user's moves show
        await wait_for(pilot, lambda: len(board.values) == 7, 30, "the move values")
        assert "hints shown" in app.last_message
        await pilot.press("h")
        assert board.values == ()
        # the user's move is answered with a best move
        before = app.position.copy()
        user = best_among_ties(exact_scores(before))[0]  # the game goes on
        before.play(user)
        await pilot.press(str(user + 1))
        await wait_for(pilot, replies(app, len(MIDGAME) + 3), 60, "the reply")
        assert app.model.line[-1] in best_among_ties(exact_scores(before))
        # take-back: the engine's reply and the user's move go together
        await pilot.press("backspace")
        assert app.model.line == [int(c) - 1 for c in MIDGAME] + [col]
        assert app.position.to_move != app.play.settings.side and not app.bridge.player.thinking()
        await pilot.press("u")  # u too, in play mode: back to Black's last move of MIDGAME
        assert "".join(str(c + 1) for c in app.model.line) == MIDGAME[:-1]
        assert not app.bridge.player.thinking()
        # the same move again: the engine answers the same way (deterministic)
        await pilot.press(MIDGAME[-1])
        await wait_for(pilot, replies(app, len(MIDGAME) + 1), 60, "the engine's move again")
        assert app.model.line[-1] == col


@sync
async def test_node_limit_dialog_and_cancel():
    app = C4App(Position.from_moves("44"), settings=SearchSettings(auto=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "the engine")
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PlaySetupScreen)
        assert app.screen.query_one("#play-black").value  # White to move: the user's
        app.screen.query_one("#play-strength").value = "lots"
        await pilot.press("enter")
        assert "'lots' is neither perfect" in str(app.screen.query_one("#play-error").render())
        app.screen.query_one("#play-strength").value = "2k"
        await pilot.click("#play-vary")  # the mouse works too (vary: perfect play only)
        await pilot.click("#play-start")
        assert app.play.settings == PlaySettings(1, Strength.of_nodes(2000), vary=True)
        assert not app.play.hints
        await pilot.press("5")
        await wait_for(pilot, replies(app, 4), 60, "the engine's move")
        reply = app.play.last
        assert reply is not None and 0 < reply.nodes <= 2000
        assert app.model.line[-1] in Position.from_moves("445").legal_moves()
        await until(pilot, lambda: f"({human_count(reply.nodes)} nodes)"
                    in str(app.query_one("#status").render()), "the reply's nodes shown")
        status = str(app.query_one("#status").render())
        assert f"({human_count(reply.nodes)} nodes)" in status and "2k nodes" not in status

        # a node limit that takes far longer than the test: leaving the mode cancels it
        app.play.start(PlaySettings(side=1, strength=Strength.of_nodes(10**9)))
        await pilot.press("3")
        await until(pilot, lambda: "engine thinking…" in str(app.query_one("#status").render()),
                    "engine thinking… on the status line")
        assert app.bridge.player.thinking()
        assert "engine thinking…" in str(app.query_one("#status").render())
        plies = len(app.model.line)
        await pilot.press("1")  # the engine's turn: the user's key is refused
        assert "the engine is thinking" in app.last_error and len(app.model.line) == plies
        await pilot.press("p")  # leave play mode mid-think
        assert app.play.settings is None and not app.bridge.player.thinking() and app.play.hints
        search = app.bridge.player._search
        await wait_for(pilot, lambda: not search.state.active, 5, "the search to stop")
        await pilot.pause(0.3)  # a window for a late move that must not come: not a wait
        assert len(app.model.line) == plies  # no late move

        # Black to move: the engine starts at once; take-back mid-think removes the
        # user's move only, and cancels
        app.play.start(PlaySettings(side=1, strength=Strength.of_nodes(10**9)))
        await until(pilot, app.bridge.player.thinking, "the engine to think")
        await pilot.press("backspace")
        assert len(app.model.line) == plies - 1 and not app.bridge.player.thinking()
        await wait_for(pilot, lambda: not search.state.active, 5, "the search to stop")
