"""An external UGI engine as the workstation's analysis search (``c4tui --engine CMD``).

:class:`ExternalSearch` is a :class:`~c4tui.engine.seam.SearchLike`, as the built-in
``SearchController`` is (``start``, ``stop``, ``snapshot`` ...), and every call returns at
once. A daemon driver thread writes to the process (the ``ugi``/``isready`` handshake,
then ``stop``, ``position``, ``go`` for the newest position asked for: positions the user
skips through are never searched); the pipe's reader thread turns what the engine prints
into an :class:`ExternalRun` (external_io.py). The UI only reads snapshots. UGI cannot
pause, step or show a search path: those calls do nothing, and the app says so.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import replace

from c4tui.engine.position import Position
from c4tui.engine.seam import (
    Limits,
    Listener,
    PathEntry,
    SearchOptions,
    SearchResult,
    SearchState,
    Snapshot,
)
from c4tui.ugi.limits import format_go

from .external_io import EngineGone, ExternalStatus, UgiPipe
from .external_run import ExternalRun, waiting_snapshot
from .ugi_info import Info, position_command

__all__ = ["ExternalSearch", "ExternalStatus"]

#: Under ``go infinite``, a proven result (a mate score) as the engine's only word, then
#: this many seconds of silence, end the search as done: an engine that answered from its
#: book (ours does) waits for ``stop``, as UCI asks, and seemed to search for ever. (A
#: search that deepened to a proof goes on: a deeper one may find a shorter win.)
QUIET_AFTER_PROOF = 2.0


class ExternalSearch(UgiPipe):
    """An external engine process with the built-in search controller's interface."""

    def __init__(self, argv: Sequence[str], *, ugi_timeout: float = 10.0,
                 ready_timeout: float = 300.0, stop_timeout: float = 5.0) -> None:
        super().__init__(argv)
        self._timeouts = (ugi_timeout, ready_timeout, stop_timeout)
        self._hash_sent: int | None = None
        # the newest search asked for: generation, position, limits, hash MB
        self._want: tuple[int, Position, Limits, int | None] | None = None
        self._gen = 0
        self._stop_gen = -1  # a stop asked for this generation
        self._run: ExternalRun | None = None
        self._run_gen = -1
        self._heard = time.monotonic()  # the running search's last info line

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
                return waiting_snapshot(SearchState.IDLE if self.error
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

    # ------------------------------------------------------------ the pipe's hooks
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
            self.spawn()
            self._handshake()
            while self._serve_one():
                pass
        except EngineGone as exc:
            self.fail(str(exc))
        except Exception as exc:  # a bug here must not take the app down: say it
            self.fail(f"{type(exc).__name__}: {exc}")

    def _handshake(self) -> None:
        ugi_timeout, ready_timeout, _ = self._timeouts
        self.ask("ugi", "ugiok", ugi_timeout)
        with self._cond:
            want = self._want
        self._set_hash(want[3] if want is not None else None)
        self.send("uginewgame")
        self.ask("isready", "readyok", ready_timeout)
        with self._cond:
            self.ready = True
            self._cond.notify_all()

    def _serve_one(self) -> bool:
        """Wait for something to do and do it; False once quitting."""
        with self._cond:
            while True:
                if self._quit:
                    return False
                run, want = self._run, self._want
                newer = want is not None and want[0] != self._run_gen
                stopping = run is not None and run.active
                quiet = self._quiet_left(run) if stopping else None
                if run is not None and quiet == 0.0:
                    run.exhausted = True  # the proven answer is final: done, not stopped
                if run is not None and stopping and (
                        newer or run.exhausted or self._stop_gen >= self._run_gen):
                    run.stop_sent = True
                    break
                if not stopping and want is not None and newer:
                    break
                self._cond.wait(quiet)
        if stopping:  # stop it (and keep its result) first
            assert run is not None
            # done when the search ended: its bestmove may cross our stop on the way
            self.ask("stop", "bestmove", self._timeouts[2], done=lambda: not run.active)
            return True
        assert want is not None
        gen, pos, limits, hash_mb = want
        self._set_hash(hash_mb)
        new = ExternalRun(pos, limits)
        with self._cond:
            self._run, self._run_gen = new, gen
            self._heard = time.monotonic()
        self.send(position_command(pos))
        self.send(go_command(limits))
        return True

    def _quiet_left(self, run: ExternalRun | None) -> float | None:
        """Seconds until ``run`` (a ``go infinite``) is done by :data:`QUIET_AFTER_PROOF`,
        0.0 once it is; None unless its one iteration is a proven result (lock held)."""
        if run is None or len(run.iterations) != 1 or not run.iterations[0].score.proven:
            return None
        lim = run.limits
        if not lim.infinite and (lim.nodes, lim.depth, lim.time) != (None, None, None):
            return None  # the engine ends a limited search itself
        return max(0.0, QUIET_AFTER_PROOF - (time.monotonic() - self._heard))

    def _set_hash(self, mb: int | None) -> None:
        """``setoption name Hash`` when the engine has it and the size changed."""
        default = self.hash_default
        if mb is not None and default is not None and mb != (self._hash_sent or default):
            self.send(f"setoption name Hash value {mb}")
            self._hash_sent = mb


def go_command(limits: Limits) -> str:
    """The ``go`` that asks for ``limits``: ``go nodes 2000000``, or ``go infinite`` when
    they have no bound (the analysis then runs until the user stops it)."""
    if limits.nodes is None and limits.depth is None and limits.time is None:
        limits = replace(limits, infinite=True)
    return format_go(limits)
