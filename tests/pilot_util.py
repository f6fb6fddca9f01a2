"""Helpers for Textual pilot tests."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable

#: How long a pilot test waits for the engine to load: a cold numba cache compiles every
#: kernel first.
LOAD_TIMEOUT = 240.0


def sync(fn):
    """Run an async pilot test with asyncio (no async pytest plugin needed)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return asyncio.run(fn(*args, **kwargs))

    return wrapper


def screen_text(app) -> str:
    """What the terminal shows (every layer: toasts, the help panel), as plain text lines."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


def panel_text(app, title: str) -> str:
    """The words inside the bordered panel titled ``title`` as drawn (its lines joined by
    spaces: a wrapped line reads whole); "" when no such panel is on the screen."""
    lines = screen_text(app).splitlines()
    top = next((i for i, x in enumerate(lines) if f"─ {title} " in x), None)
    if top is None:
        return ""
    left = lines[top].index(f"─ {title} ") - 1
    right = lines[top].index("╮", left)
    rows = []
    for x in lines[top + 1:]:
        if x[left] == "╰":
            break
        rows.append(x[left + 1:right].strip())
    return " ".join(" ".join(rows).split())


def fake_view(app, **fields) -> None:
    """The app's engine view, made up from ``fields`` (an ``EngineView``'s): for pilots
    whose subject is a panel's drawing of a given view, not the engine."""
    from c4tui.app.bridge.engine_view import EngineState, EngineView

    view = EngineView(EngineState.READY, app.settings, search_available=True,
                      solver_available=True, **fields)
    app.bridge.view = lambda pos: view


async def wait_for(pilot, cond: Callable[[], object], timeout: float, what: str,
                   detail: Callable[[], str] | None = None) -> None:
    """Let the app run until ``cond()`` holds; AssertionError naming ``what`` after
    ``timeout`` seconds, with ``detail()`` when given (what the status line says)."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            why = f"timed out waiting for {what}"
            raise AssertionError(why if detail is None else f"{why}; {detail()}")
        await pilot.pause(0.05)


async def until(pilot, cond: Callable[[], object], what: str, seconds: float = 10.0) -> None:
    """:func:`wait_for` with a bound for work that is quick (a worker reading a file, a
    dialog closing)."""
    await wait_for(pilot, cond, seconds, what)


def searched(app) -> bool:
    """The viewed position's search has ended and its exact values are in (with the fake
    bridge, tests/fake_bridge.py, both are there once the position is set)."""
    from c4tui.app.bridge.engine_view import ExactStatus

    view = app.bridge.view(app.position)
    snap, exact = view.snapshot, view.exact
    return snap is not None and not snap.state.active and exact is not None \
        and exact.status is ExactStatus.DONE


def engine_ready(app) -> bool:
    """The built-in engine has loaded and its search can run (a failed load fails the
    test with the engine's message)."""
    from c4tui.app.bridge.engine_view import EngineState

    view = app.bridge.view(app.position)
    assert view.state not in (EngineState.FAILED, EngineState.NOT_AVAILABLE), view.message
    return view.state is EngineState.READY and view.search_available
