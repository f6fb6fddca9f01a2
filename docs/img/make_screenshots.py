"""Regenerate the user guide's screenshots (SVG) with the real engine.

    .venv/bin/python docs/img/make_screenshots.py [NAME ...]

Runs the app headless (Textual's pilot) and saves
docs/img/{main,threats,paused,play,preview,files,review,variations}.svg (names given:
only those, e.g. ``play``).
The numbers in them (nodes, speeds, times) are whatever this machine measured.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from c4tui.engine.position import Position
from c4tui.engine.seam import Limits

from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge.engine_view import EngineState
from c4tui.app.bridge.player import PlaySettings
from c4tui.gamefile import parse_game

OUT = Path(__file__).resolve().parent


async def wait_for(pilot, cond, timeout: float = 240.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise SystemExit("timed out waiting for the engine")
        await pilot.pause(0.1)


def ready(app: C4App) -> bool:
    return app.bridge.view(app.position).state is EngineState.READY


def snap(app: C4App):
    return app.bridge.view(app.position).snapshot


async def main_screen() -> None:
    app = C4App(Position.from_moves("177761776634"),
                settings=SearchSettings(limits=Limits(nodes=1_000_000)))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app))
        # walk through the game so that the evaluation graph fills in
        await pilot.press("home")
        for _ply in range(12):
            await pilot.press("down")
            await wait_for(pilot, lambda: app.evals.line(app.model.line)[app.model.ply]
                           is not None, 30)
        await wait_for(pilot, lambda: (s := snap(app)) is not None
                       and s.state in ("done", "node_limit"))
        await pilot.pause(1.0)
        app.state_changed()
        await pilot.pause()
        app.save_screenshot("main.svg", str(OUT))


async def threat_map() -> None:
    app = C4App(Position.from_moves("773777222545245661"), settings=SearchSettings(auto=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: ready(app))
        await wait_for(pilot, lambda: (v := app.bridge.view(app.position)).verdict is not None
                       and v.exact is not None and v.exact.best is not None)
        await pilot.press("t")
        app.state_changed()
        await pilot.pause()
        app.save_screenshot("threats.svg", str(OUT))


async def paused_search() -> None:
    # without the books, which answer this opening at once (nothing to pause)
    import os

    from c4tui.book import load_default

    os.environ["C4TUI_BOOK"] = "none"
    load_default(reload=True)
    app = C4App(Position.from_moves("4453"),
                settings=SearchSettings(auto=False, limits=Limits(nodes=50_000_000)))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: ready(app))
        for _ in range(12):
            await pilot.press("n")
            await pilot.pause(0.3)
        await wait_for(pilot, lambda: (s := snap(app)) is not None and s.state == "paused")
        app.bridge.step_nodes(20_000)
        await wait_for(pilot, lambda: bool(app.bridge.view(app.position).path))
        app.state_changed()
        await pilot.pause(0.3)
        app.save_screenshot("paused.svg", str(OUT))


async def play() -> None:
    # a game against the perfect engine (Black) with the hints hidden: the user (White)
    # has played 4 5 3, the engine answered each move
    app = C4App(Position(), settings=SearchSettings(auto=True, limits=Limits(nodes=1_000_000)),
                play=PlaySettings(side=1), hints=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: ready(app))
        for col in "453":
            plies = len(app.model.line)
            await pilot.press(col)
            await wait_for(pilot, lambda plies=plies: len(app.model.line) == plies + 2)
        await pilot.pause(0.5)
        app.state_changed()
        await pilot.pause()
        app.save_screenshot("play.svg", str(OUT))


async def preview() -> None:
    """A line previewed on the board, its move marked in the panel, and the graph."""
    moves = "177761776634"
    app = C4App(Position.from_moves(moves), settings=SearchSettings(auto=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: ready(app))
        # the graph: the exact value of every position of the game
        await pilot.press("home")
        for _ply in range(len(moves) + 1):
            await wait_for(pilot, lambda: app.evals.line(app.model.line)[app.model.ply]
                           is not None, 60)
            await pilot.press("down")
        await wait_for(pilot, lambda: (e := app.bridge.view(app.position).exact) is not None
                       and e.lines_done, 60)
        await pilot.press("v", *["full_stop"] * 6)
        app.state_changed()
        await pilot.pause(0.3)
        app.save_screenshot("preview.svg", str(OUT))


async def file_picker() -> None:
    """The picker of ``o`` on a few example games in a temporary data directory."""
    import datetime as dt
    import os
    import tempfile

    from c4tui.gamefile import Game, default_save_path, save_game

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = tmp
        os.environ["XDG_STATE_HOME"] = tmp  # the recent-files list: not the user's
        stamp = dt.datetime(2026, 11, 22, 21, 15)
        save_game(default_save_path(stamp), Position.from_moves("4453"))
        from c4tui.gamefile import data_dir

        games = data_dir()
        save_game(games / "club" / "ann-bob.c4g",
                  Game(Position.from_moves("4455667"), {"White": "Ann", "Black": "Bob"}))
        save_game(games / "opening-trap.c4g", Position.from_moves("44444427"))
        save_game(games / "endgame.txt", Position.from_moves("177761776634"))
        (games / "notes.md").write_text("not a game\n")
        app = C4App(Position.from_moves("4453"), engine=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("o")
            await pilot.pause(0.5)
            await pilot.press("down", "down", "down")
            await pilot.pause(0.3)
            app.save_screenshot("files.svg", str(OUT))


async def reviewed_game() -> None:
    # a 42-move draw with three blunders, reviewed (R), after Black's 11th move, b2??
    app = C4App(Position.from_moves("445367645113556617452263332164771431722527"),
                settings=SearchSettings(auto=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: ready(app))
        await pilot.press("R")
        await wait_for(pilot, lambda: (j := app.review.job) is not None
                       and j.result is not None)
        app.game_tree.goto(22)
        await pilot.press("g")  # and the analysis search of the position b2?? left
        await wait_for(pilot, lambda: (v := app.bridge.view(app.position)).exact is not None
                       and v.exact.best is not None and v.snapshot is not None
                       and v.snapshot.state in ("done", "node_limit"))
        app.state_changed()
        await pilot.pause(0.3)
        app.save_screenshot("review.svg", str(OUT))


GAME_WITH_VARIATIONS = """
1. d1 {the centre} d2 2. d3 (2. c1 {the other try} c2 (2... d3) 3. e1) 2... d4
3. e1 (3. c1 c2) e2 4. c1 *
"""


async def variations() -> None:
    game = parse_game(GAME_WITH_VARIATIONS)
    app = C4App(game.position, tree=game.tree, settings=SearchSettings(auto=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: ready(app))
        app.model.goto_path((0, 0, 1, 0))  # 2. c1 c2, inside the first variation
        app.position_changed()
        await wait_for(pilot, lambda: (v := app.bridge.view(app.position)).exact is not None
                       and v.exact.best is not None)
        app.state_changed()
        await pilot.pause()
        app.save_screenshot("variations.svg", str(OUT))


JOBS = {"main": main_screen, "threats": threat_map, "paused": paused_search, "play": play,
        "preview": preview, "files": file_picker, "review": reviewed_game,
        "variations": variations}

if __name__ == "__main__":
    for name in sys.argv[1:] or JOBS:
        asyncio.run(JOBS[name]())
        print("saved", name)
