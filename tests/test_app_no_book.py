"""The analysis search without the books, to watch it in the opening (issue 24, item 11):
``--no-book`` and the key ``B``; the exact values keep the books."""

from __future__ import annotations

import io
import re

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Source
from pilot_util import LOAD_TIMEOUT, sync, until, wait_for

from c4tui.app import C4App
from c4tui.app.bridge.engine_view import EngineState, ExactStatus
from c4tui.cli import main

pytestmark = pytest.mark.usefixtures("tmp_home")



def screen_text(app: C4App) -> str:
    """What the terminal shows, as plain text lines."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


def keys_panel_text(app: C4App) -> str:
    """The keys panel's whole table (it scrolls) at its width, its spaces squeezed."""
    from rich.console import Console

    panel = app.screen.query_one("KeyPanel")
    console = Console(width=panel.content_size.width, record=True, file=io.StringIO())
    console.print(panel.query_one("BindingsTable").render())
    return " ".join(console.export_text().split())


def test_no_book_reaches_the_app(monkeypatch):
    seen = []
    monkeypatch.setattr(C4App, "run", lambda self: seen.append(self.settings.options.use_book))
    for argv, book in ((["44", "--no-book"], False), (["44"], True),
                       (["open", "44", "--no-book"], False)):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code in (0, None)
        assert seen[-1] is book


def log_depths(app: C4App) -> list[str]:
    """The first cell of the search log's rows (``book``, a depth, ``5-33``)."""
    lines = screen_text(app).splitlines()
    top = next(i for i, line in enumerate(lines) if "search log" in line)
    rows = []
    for line in lines[top + 2:]:
        if not line.startswith("│"):
            break
        if line.strip("│ "):
            rows.append(line.strip("│ ").split(" ")[0])
    return rows


@sync
async def test_b_turns_the_books_off_for_the_search_only():
    app = C4App(Position.from_moves("44"))  # in the books: a `book` row, exact at once
    async with app.run_test(size=(80, 24)) as pilot:
        def view():
            return app.bridge.view(app.position)

        def answered_by(source: Source) -> bool:
            snap = view().snapshot
            return snap is not None and bool(snap.iterations) \
                and snap.iterations[-1].source is source

        await wait_for(pilot, lambda: view().state is EngineState.READY
                       and answered_by(Source.BOOK), LOAD_TIMEOUT, "the books' answer")
        await until(pilot, lambda: log_depths(app) == ["book"], "the books' row in the log")
        assert log_depths(app) == ["book"]
        assert "no book" not in screen_text(app)
        await pilot.press("B")
        # the search runs again without them: iterations, watched row by row
        await wait_for(pilot, lambda: answered_by(Source.SEARCH)
                       and len(view().snapshot.iterations) >= 3, 30, "the search's rows")
        await until(pilot, lambda: "no book" in screen_text(app) and "book" not in log_depths(app),
                    "no book on the screen")
        text = screen_text(app)
        status = text.splitlines()[-2]
        assert re.match(r" ● \w+.*  no book  d\d+", status), status
        assert "book" not in log_depths(app)
        assert all(re.fullmatch(r"\d+(-\d+)?", d) for d in log_depths(app)), log_depths(app)
        assert "books off for the analysis search, not the exact values" in app.last_message
        # the exact values still come from the books: d wins, the rest lose
        entry = view().exact
        assert entry is not None and entry.status is ExactStatus.DONE
        assert "exact   best d · White wins" in text
        await pilot.press("question_mark")
        await until(pilot, lambda: "B books" in keys_panel_text(app), "the keys panel")
        assert "B books for the search on/off" in keys_panel_text(app)
        await pilot.press("question_mark")
        await pilot.press("B")
        await wait_for(pilot, lambda: answered_by(Source.BOOK), 30, "the books again")
        await until(pilot, lambda: log_depths(app) == ["book"], "the books' row again")
        assert "no book" not in screen_text(app)
        assert log_depths(app) == ["book"]
