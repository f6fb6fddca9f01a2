"""The engine's clock: :meth:`EngineBridge.tick` a few times a second while it works.

The bridge needs its tick for what no thread tells of: the solver's time budget, the
column searches' next step, and the analysis search's progress (the search publishes an
iteration report but calls no one; this tick is the fallback that shows a long iteration
as it runs). While something runs each tick asks for a redraw (``on_busy``, which posts
a coalescing ``EngineUpdated``), and once more after it stops; after a second with
nothing running the ticker rests until :meth:`wake` (a key, a message, an update), so an
idle app wakes no one.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.timer import Timer

#: Seconds between two ticks while the engine works.
TICK_EVERY = 0.25
#: Ticks in a row with nothing running, after which the ticker rests until woken.
IDLE_TICKS = 4


class EngineTicker:
    """``busy``: tick the engine, True while something runs; ``on_busy``: redraw."""

    def __init__(self, busy: Callable[[], bool], on_busy: Callable[[], None]) -> None:
        self._busy = busy
        self._on_busy = on_busy
        self._timer: Timer | None = None
        self._idle = 0  # ticks in a row that found nothing running
        self._was_busy = False

    def start(self, timer: Timer) -> None:
        """Tick with ``timer`` (an interval of :data:`TICK_EVERY` calling :meth:`tick`)."""
        self._timer = timer

    def tick(self) -> None:
        busy = self._busy()
        if busy or self._was_busy:  # its progress, and the state once it has stopped
            self._on_busy()
        self._was_busy = busy
        self._idle = 0 if busy else self._idle + 1
        if self._idle >= IDLE_TICKS and self._timer is not None:
            self._timer.pause()

    def wake(self) -> None:
        """Tick again (a no-op while ticking): what follows may have started a search or
        a solve."""
        self._idle = 0
        if self._timer is not None:
            self._timer.resume()
