"""An external UGI engine as the workstation's analysis search (``c4tui --engine CMD``).

:class:`ExternalSearch` is a :class:`~c4tui.engine.seam.SearchLike`, as the built-in
``SearchController`` is (``start``, ``stop``, ``snapshot`` ...), and every call returns at
once. It drives the one UGI client, :class:`c4tui.ugi.engine.Engine`: a daemon driver
thread does its handshake (:meth:`~c4tui.ugi.engine.Engine.start`), then ``stop`` and
``go`` for the newest position asked for (positions the user skips through are never
searched); the client's reader thread hands each ``info`` record and the ``bestmove`` to
this search (an :class:`~c4tui.ugi.engine.EngineListener`), which keeps them in an
:class:`ExternalRun` (external_run.py). The UI only reads snapshots. UGI cannot pause,
step or show a search path: those calls do nothing, and the app says so.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import replace

from c4tui.engine.board.position import Position
from c4tui.engine.seam import (
    Limits,
    Listener,
    PathEntry,
    SearchOptions,
    SearchResult,
    SearchState,
    Snapshot,
)
from c4tui.ugi.engine import Engine, EngineGone, EngineListener, EngineStatus, Timeouts
from c4tui.ugi.info import Info

from .external_run import ExternalRun, waiting_snapshot

__all__ = ["EXTERNAL_NICE", "ExternalSearch"]

#: The external process runs this much below the app's CPU priority (the UI wins the
#: cores; capped at 19, never above the app's own).
EXTERNAL_NICE = 5

# A search ends when the engine says its score is final (ExternalRun.exhausted: full
# depth, or ``info string proven ...``): under ``go infinite`` an engine that answered
# from its book or solver waits for ``stop``, as UCI asks, and we send it at once. Nothing
# else ends one: a silence is shown as such (status line), never taken for an answer, since
# a shallow proof (``mate K`` before full depth) may still shrink and a quiet engine may be
# deep in an iteration.


class ExternalSearch(EngineListener):
    """An external engine process with the built-in search controller's interface."""

    def __init__(self, argv: Sequence[str], timeouts: Timeouts | None = None) -> None:
        #: the client; its lock guards this search's state too (its hooks run under it)
        self.engine = Engine(argv, nice=EXTERNAL_NICE, timeouts=timeouts or Timeouts(),
                             error_prefix="external engine", listener=self)
        self._cond = self.engine.lock
        # the newest search asked for: generation, position, limits, hash MB
        self._want: tuple[int, Position, Limits, int | None] | None = None
        self._gen = 0
        self._stop_gen = -1  # a stop asked for this generation
        self._run: ExternalRun | None = None
        self._run_gen = -1
        self._heard = time.monotonic()  # the running search's last info line

    @property
    def error(self) -> str:
        """Why the engine failed (``external engine NAME: why``), or "" while it works."""
        return self.engine.error

    def status(self) -> EngineStatus:
        """What the status line says about the engine."""
        return self.engine.status()

    def close(self) -> None:
        """Kill the engine (and whatever it started) at once; never waits."""
        self.engine.close()

    # ------------------------------------------------------------ the controller's API
    def open(self) -> None:
        """Start the process and the handshake in the background (returns at once)."""
        threading.Thread(target=self._drive, name="c4-external", daemon=True).start()

    def start(self, pos: Position, limits: Limits, options: SearchOptions | None = None, *,
              paused: bool = False) -> None:
        """Search ``pos`` within ``limits`` (none: ``go infinite``) with ``options``' hash
        size (the engine's own techniques: UGI has no switches for them); a running search
        is stopped first. ``paused`` is not possible over UGI and is ignored."""
        with self._cond:
            self._gen += 1
            mb = None if options is None else int(options.hash_mb)
            self._want = (self._gen, pos.copy(), limits, mb)
            self._cond.notify_all()

    def stop(self) -> None:
        """Send ``stop`` (the result so far is kept), or cancel a search not begun."""
        with self._cond:
            if self._want is not None and self._want[0] != self._run_gen:
                self._want = None  # never sent: nothing to stop
            self._stop_gen = self._gen
            self._cond.notify_all()

    def pause(self) -> None:
        """UGI has no pause: nothing happens (the app greys the key out)."""

    def resume(self) -> None:
        """UGI has no pause: nothing happens."""

    def step_iteration(self) -> bool:
        return False  # stepping needs the built-in search

    def step_nodes(self, n: int) -> bool:
        return False

    def set_node_limit(self, nodes: int | None) -> None:
        """The limit goes with the next ``start`` (a running ``go`` cannot change it)."""

    def listen(self, listener: Listener | None) -> None:
        """Nothing is reported: the app polls an external engine (its process may say
        something at any time)."""

    def path(self) -> tuple[PathEntry, ...]:
        return ()

    def snapshot(self) -> Snapshot:
        """The newest search asked for: running, ended, or still waiting to be sent."""
        with self._cond:
            if self._want is not None and self._want[0] != self._run_gen:
                return waiting_snapshot(SearchState.IDLE if self.engine.error
                                        else SearchState.SEARCHING)
            if self._run is None or self._run_gen != self._gen:
                return waiting_snapshot(SearchState.IDLE if self._want is None
                                        else SearchState.STOPPED)
            return self._run.snapshot()

    @property
    def state(self) -> SearchState:
        return self.snapshot().state

    @property
    def result(self) -> SearchResult | None:
        return self.snapshot().result

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the newest search ends (scripts and tests; not on a UI thread)."""
        end = None if timeout is None else time.monotonic() + timeout
        while self.snapshot().state.active:
            if end is not None and time.monotonic() > end:
                return False
            time.sleep(0.01)
        return True

    # ------------------------------------------------------------ the client's hooks
    def silence(self) -> float:
        """Seconds since the running search's engine last said anything (0.0: no search
        of the newest position runs)."""
        with self._cond:
            run = self._run
            if run is None or not run.active or self._run_gen != self._gen:
                return 0.0
            return time.monotonic() - self._heard

    def on_info(self, info: Info) -> str:
        self._heard = time.monotonic()
        return self._run.feed(info) if self._run is not None else ""

    def on_bestmove(self, move: str | None) -> str:
        return self._run.finish(move) if self._run is not None else ""

    def on_gone(self) -> None:
        if self._run is not None:
            self._run.finish(None, SearchState.STOPPED)

    # ------------------------------------------------------------------ the driver
    def _drive(self) -> None:
        try:
            with self._cond:
                want = self._want
            self.engine.start(new_game=True, hash_mb=want[3] if want is not None else None)
            while self._serve_one():
                pass
        except EngineGone as exc:
            self.engine.fail(str(exc))
        except Exception as exc:  # a bug here must not take the app down: say it
            self.engine.fail(f"{type(exc).__name__}: {exc}")

    def _serve_one(self) -> bool:
        """Wait for something to do and do it; False once quitting."""
        with self._cond:
            while True:
                if self.engine.closing:
                    return False
                run, want = self._run, self._want
                newer = want is not None and want[0] != self._run_gen
                stopping = run is not None and run.active
                if run is not None and stopping and (
                        newer or run.exhausted or self._stop_gen >= self._run_gen):
                    run.stop_sent = True
                    break
                if not stopping and want is not None and newer:
                    break
                self._cond.wait()  # every line read notifies (Engine.lock)
        if stopping:  # stop it (and keep its result) first
            assert run is not None
            # done when the search ended: its bestmove may cross our stop on the way
            self.engine.stop(done=lambda: not run.active)
            return True
        assert want is not None
        gen, pos, limits, hash_mb = want
        self.engine.set_hash(hash_mb)
        new = ExternalRun(pos, limits)
        with self._cond:
            self._run, self._run_gen = new, gen
            self._heard = time.monotonic()
        self.engine.go(pos, asked(limits))
        return True


def asked(limits: Limits) -> Limits:
    """What the engine is asked for: ``limits``, or ``go infinite`` when they have no
    bound (the analysis then runs until the user stops it)."""
    if limits.nodes is None and limits.depth is None and limits.time is None:
        return replace(limits, infinite=True)
    return limits
