"""Memory regression tests of issue 16 (docs/reliability.md: memory over an hour).

Counts, not timings: what a long session used to pile up must return to its baseline.
"""

from __future__ import annotations

import gc

import pytest
from c4tui.engine.board.position import Position
from pilot_util import sync
from textual._styles_cache import StylesCache
from textual.widget import Widget

from c4tui.app import C4App
from c4tui.app.bridge.engine_view import EngineState, EngineView, ExactEntry, ExactStatus
from c4tui.app.bridge.eval_history import EvalHistory
from c4tui.app.bridge.position_cache import PositionCache
from c4tui.app.bridge.settings import RECENT_POSITIONS, SearchSettings
from c4tui.app.textual_leaks import forget_removed_widgets

pytestmark = pytest.mark.usefixtures("tmp_home")


def orphan_style_caches() -> int:
    """Line caches whose widget is gone: only Textual's memo keeps them alive. Counted by
    ownership, not as a total: other tests' apps may still be collected meanwhile."""
    gc.collect()
    objects = gc.get_objects()
    owned = {id(o._styles_cache) for o in objects if isinstance(o, Widget)}
    return sum(1 for o in objects if isinstance(o, StylesCache) and id(o) not in owned)


@sync
async def test_prompts_opened_and_closed_leave_no_widgets_behind():
    """Textual's Footer kept every key it replaced (14 per prompt in this app, about
    300 KiB): the key bar must free them. And Textual's style cache kept the line caches
    of the removed widgets (the prompt's, the toasts'): the app's periodic clearing
    must free those."""
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:

        async def prompt(key: str) -> None:
            await pilot.press(key)
            await pilot.pause()
            assert len(app.screen_stack) == 2
            await pilot.press("escape")
            await pilot.pause()
            assert len(app.screen_stack) == 1

        await prompt("e")  # warm up: first-use caches
        forget_removed_widgets()
        gc.collect()
        # by identity, not by count: other tests' apps may still be collected meanwhile
        before = {id(o) for o in gc.get_objects() if isinstance(o, Widget)}
        for key in "elel":
            await prompt(key)
        gc.collect()
        kept = [o for o in gc.get_objects() if isinstance(o, Widget)
                and id(o) not in before and not o.is_attached]
        # with Textual's Footer: 4 prompts x 14 keys; the last prompt's input may still be
        # referenced for a moment (its cursor blink), so a few are allowed, not a growth
        assert len(kept) <= 3, kept[:5]
        assert orphan_style_caches() > 3 * 4  # the prompts' widgets, kept by Textual
        forget_removed_widgets()
        assert orphan_style_caches() <= 3  # as above: the last prompt's, for a moment


def test_recent_keeps_the_most_recently_used():
    r: PositionCache[int] = PositionCache(3)
    for k in range(4):
        r[k] = k
    assert 0 not in r and len(r) == 3
    assert r.get(1) == 1  # used: now the most recent
    r[9] = 9
    assert 2 not in r and 1 in r
    assert r.setdefault(9, 0) == 9 and r.setdefault(7, 5) == 5 and 3 not in r


def test_the_graph_keeps_the_recent_positions_only():
    """The per-position caches grew with every position visited in a long session."""
    evals = EvalHistory()
    view = EngineView(EngineState.READY, SearchSettings(),
                      exact=ExactEntry(ExactStatus.DONE, (0,) * 7))
    first = Position.from_moves("1")
    evals.record(first, view)
    assert evals.line([0]) == (None, 0.0)
    others = {p.key(): p for p in (Position.from_moves(f"{a}{b}{c}{d}")
                                   for a in "1234567" for b in "1234567"
                                   for c in "1234567" for d in "1234567")}
    for p in list(others.values())[:RECENT_POSITIONS]:  # as many others, all different
        evals.record(p, view)
    assert evals.line([0]) == (None, None)  # the oldest went
    evals.record(Position(), view)
    assert evals.line([]) == (0.0,)
