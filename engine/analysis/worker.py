"""The analysis search's worker thread: runs the newest request, until there is none.

A :class:`Worker` shares its owner's condition (the
:class:`~c4tui.engine.analysis.controller.SearchController`'s lock): the owner hands it requests
and reads :attr:`Worker.idle` under that lock, and waits on the same condition for the
worker to become idle. A request handed over while another is pending replaces it (only
the newest search matters); the thread ends when it finds none, and the next request
starts a new one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from ..priority import lower_priority

R = TypeVar("R")


class Worker(Generic[R]):
    """One thread at a time running ``run(request)`` for the newest request."""

    def __init__(self, cond: threading.Condition, run: Callable[[R], None],
                 failed: Callable[[R, BaseException], None], nice: int = 0,
                 name: str = "c4-analysis") -> None:
        """``run`` is called without the lock; ``failed(request, error)`` when it raised
        (a bug: the owner reports it). ``nice``: the thread runs this much below the
        process's CPU priority (Linux; capped at 19)."""
        self._cond = cond
        self._run = run
        self._failed = failed
        self._nice = nice
        self._name = name
        self._thread: threading.Thread | None = None  # while there is work
        self._pending: R | None = None  # the next request
        self._running = False  # a request is being run

    # All methods but join() are called with the owner's lock held.
    def submit(self, request: R) -> None:
        """Run ``request`` next (instead of any pending one); starts the thread if none."""
        self._pending = request
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name=self._name, daemon=True)
            self._thread.start()
        self._cond.notify_all()

    def withdraw(self) -> R | None:
        """Take back the pending request, if any (it will not run)."""
        request, self._pending = self._pending, None
        return request

    @property
    def idle(self) -> bool:
        """No request pending or running."""
        return self._pending is None and not self._running

    def join(self, timeout: float) -> None:
        """Wait (without the lock) for the thread to end; RuntimeError if it does not."""
        with self._cond:
            t = self._thread
        if t is not None and t is not threading.current_thread():
            t.join(timeout)
            if t.is_alive():  # pragma: no cover - would be a kernel bug
                raise RuntimeError("analysis thread did not stop")

    def _work(self) -> None:
        if self._nice:  # the caller's niceness plus this step: never above the caller
            lower_priority(self._nice)
        while True:
            with self._cond:
                request = self._pending
                self._pending = None
                self._running = request is not None
                if request is None:
                    self._thread = None
                    self._cond.notify_all()
                    return
            try:
                self._run(request)
            except BaseException as e:  # pragma: no cover - a bug: the owner reports it
                self._failed(request, e)
            finally:
                with self._cond:
                    self._running = False
                    self._cond.notify_all()
