"""What the user asked a running analysis search to do: the pause/step state machine.

Pure Python (no numba, no threads): :class:`Steering` holds the command of one search and
its transitions; :class:`~c4tui.engine.analysis.gate.Gate` calls them under the controller's lock
and copies the result into the control words the kernel polls at every node (while the
worker still prepares a search, the steering simply waits: it is written to the kernel
when the search begins). Whether the kernel has actually reached a pause is the gate's
business (it watches the kernel's pause counter); the steering says only what was asked.

States (:class:`Run`) and transitions::

    GO ──pause()──► PAUSE ──resume() / step_*()──► GO
    GO ──(a step's iteration ends: iteration_done())──► PAUSE
    GO, PAUSE ──stop()──► STOP          (final: no pause, resume or step undoes it)

``GO`` runs up to ``pause_at`` nodes (a node step: the kernel pauses there by itself).
"""

from __future__ import annotations

from enum import Enum

#: No node target: the kernel's ``NEVER`` (engine/analysis/kernel.py), restated here so
#: that this module needs no numba; tests/test_search_state.py checks they agree.
NEVER = 1 << 62


class Run(str, Enum):
    """The command of a search (the kernel's ``CMD_RUN``, ``CMD_PAUSE``, ``CMD_STOP``)."""

    GO = "go"
    PAUSE = "pause"
    STOP = "stop"


class Steering:
    """The pause/step state of one search; every transition is a method."""

    def __init__(self) -> None:
        self.run = Run.GO
        self.pause_at = NEVER  #: GO: the kernel pauses when its node count reaches this
        #: step_iteration(): pause once the current iteration is complete
        self.pause_after_iteration = False
        #: stepping past the node limit (a search that reached it goes on when stepped):
        #: the limit holds again from resume()
        self.nodes_lifted = False

    def begin(self, paused: bool, continuation: bool = False) -> None:
        """A new search (``continuation``: one iteration deeper after a stop or the node
        limit, with the limit lifted until :meth:`resume`)."""
        self.run = Run.PAUSE if paused else Run.GO
        self.pause_at = NEVER
        self.pause_after_iteration = False
        self.nodes_lifted = continuation

    @property
    def stopping(self) -> bool:
        return self.run is Run.STOP

    def pause(self) -> bool:
        """Pause where it is; False if stopping (nothing changes)."""
        if self.stopping:
            return False
        self.run = Run.PAUSE
        return True

    def go(self, pause_at: int = NEVER) -> bool:
        """Run on, up to ``pause_at`` nodes; False if stopping (nothing changes)."""
        if self.stopping:
            return False
        self.run = Run.GO
        self.pause_at = pause_at
        return True

    def resume(self) -> tuple[bool, bool]:
        """Run to the end (or the limits): ``(went, limit_restored)``, the second True when
        the node limit lifted for the steps holds again."""
        self.pause_after_iteration = False
        restored, self.nodes_lifted = self.nodes_lifted, False
        return self.go(), restored

    def step_iteration(self, paused: bool) -> None:
        """Pause at the end of the current iteration (``paused``: go on to it first)."""
        self.pause_after_iteration = True
        if paused:
            self.go()

    def step_nodes(self, target: int) -> None:
        """Run until the node count reaches ``target``, then pause."""
        self.pause_after_iteration = False
        self.go(target)

    def stop(self) -> None:
        """Stop for good (the search unwinds within a node)."""
        self.run = Run.STOP

    def iteration_done(self) -> bool:
        """An iteration is complete: True if the search must pause now (a step's)."""
        if not self.pause_after_iteration:
            return False
        self.pause_after_iteration = False
        if self.run is not Run.GO:
            return False
        self.run = Run.PAUSE
        return True
