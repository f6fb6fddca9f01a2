"""Run in a subprocess with ``C4TUI_SIZE`` set (4x10 or 9x6 by the tests): drive the app
without the engine at a given terminal size and print what a user sees as JSON."""

from __future__ import annotations

import asyncio
import json
import sys

from c4tui.engine.board.geometry import WIDTH

from c4tui.app import C4App
from c4tui.app.widgets import BoardView


async def main(cols: int, rows: int) -> None:
    app = C4App(None, engine=False)
    out: dict = {}
    async with app.run_test(size=(cols, rows), notifications=True) as pilot:
        await pilot.press("1", "1", "9" if WIDTH >= 9 else "2")
        await pilot.press("right", "enter")
        board = app.query_one("#board", BoardView)
        # click the last column: gutter + cells, inside the border and padding
        gutter = 2 if WIDTH < 10 else 3
        await pilot.click("#board", offset=(2 + gutter + (WIDTH - 1) * 4 + 1, 5))
        await pilot.pause()
        out["line"] = app.model.line
        out["board"] = str(board.render())
        out["box"] = [board.size.width, board.size.height]
        out["notes"] = [str(t.render()) for t in app.screen.query("Toast")]  # on the screen
        moves, top = app.query_one("#moves-box").region, app.query_one("#top").region
        out["moves_box"] = moves.height if moves.bottom <= top.bottom else 0  # 0: cut
        await pilot.press("L")  # gamesolver.org's links are of 7x6 games
        out["link"] = [app.clipboard, app.last_error]
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
