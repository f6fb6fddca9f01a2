"""Run in a subprocess with ``C4TUI_SIZE`` set (tests/test_wide_layout.py): the app without
the engine, resized to each terminal size of the arguments (``80x24 100x30 ...``) in turn,
a column played by the cursor keys at each; prints one JSON line per terminal size with
what the user sees."""

from __future__ import annotations

import asyncio
import json
import sys

from c4tui.engine.board.position import Position
from pilot_util import screen_text

from c4tui.app import C4App
from c4tui.app.widgets import BoardView


def _whole(app: C4App, selector: str) -> bool:
    """The widget is shown and lies inside the screen, not cut."""
    w = app.query_one(selector)
    r, screen = w.region, app.screen.region
    return bool(w.display) and r.area > 0 and screen.contains_region(r)


async def main(sizes: list[tuple[int, int]]) -> None:
    app = C4App(Position.from_moves("12"), engine=False)
    async with app.run_test(size=sizes[0]) as pilot:
        for cols, rows in sizes:
            await pilot.resize_terminal(cols, rows)
            await pilot.pause()
            await pilot.pause()
            board = app.query_one("#board", BoardView)
            before = app.position.ply
            await pilot.press("right", "enter")  # the board's own keys: it has the focus
            await pilot.pause()
            moves, top = app.query_one("#moves-box").region, app.query_one("#top").region
            out = {
                "terminal": [cols, rows],
                "text": screen_text(app),
                "too_small": bool(app.query_one("#too-small").display),
                "board_whole": _whole(app, "#board"),
                "board_box": [board.region.width, board.region.height],
                "big": board.big,
                "side_width": app.query_one("#side").region.width,
                "moves_box": moves.height if moves.bottom <= top.bottom else 0,
                "log_whole": _whole(app, "#log"),
                "played": app.position.ply - before,
                "focused": getattr(app.focused, "id", None),
            }
            print(json.dumps(out), flush=True)


if __name__ == "__main__":
    asyncio.run(main([tuple(int(n) for n in a.split("x")) for a in sys.argv[1:]]))
