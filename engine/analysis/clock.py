"""The analysis search's clock: time searched (pauses excluded) and the time limit.

Pure Python, no lock of its own: the :class:`~c4tui.engine.analysis.controller.SearchController`
calls a :class:`Clock` under its lock; a :class:`TimeLimit` calls back from a timer thread
(the callback takes the controller's lock itself).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Clock:
    """Seconds a search has run, paused time excluded (``time.perf_counter``)."""

    def __init__(self) -> None:
        self._t0 = 0.0
        self._paused_total = 0.0
        self._paused_since: float | None = None
        self.final = 0.0  #: the time of the last search that ended (:meth:`stop`)

    def start(self, paused: bool, continuation: bool) -> None:
        """A new search (``continuation``: counting on from the last one's final time);
        ``paused``: it begins paused."""
        now = time.perf_counter()
        self._t0 = now - self.final if continuation else now
        self._paused_total = 0.0
        self._paused_since = now if paused else None

    def pause(self) -> None:
        """The search is paused from now (again: no change)."""
        if self._paused_since is None:
            self._paused_since = time.perf_counter()

    def resume(self) -> None:
        """The search runs again from now (not paused: no change)."""
        if self._paused_since is not None:
            self._paused_total += time.perf_counter() - self._paused_since
            self._paused_since = None

    def running(self) -> float:
        """The time so far of the search in progress."""
        now = time.perf_counter()
        t = now - self._t0 - self._paused_total
        if self._paused_since is not None:
            t -= now - self._paused_since
        return max(t, 0.0)

    def stop(self) -> None:
        """The search ended: its time is :attr:`final`."""
        self.resume()
        self.final = max(time.perf_counter() - self._t0 - self._paused_total, 0.0)


class TimeLimit:
    """``Limits.time``: one timer at a time that calls back when the time is up."""

    def __init__(self) -> None:
        self._timer: threading.Timer | None = None

    def start(self, seconds: float | None, time_up: Callable[[], None]) -> None:
        """Call ``time_up`` (from a timer thread) ``seconds`` from now, instead of the
        previous timer (None: no limit)."""
        self.cancel()
        if seconds is None:
            return
        self._timer = threading.Timer(seconds, time_up)
        self._timer.daemon = True
        self._timer.start()

    def cancel(self) -> None:
        """No call (the search ended first)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
