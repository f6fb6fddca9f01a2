"""The pause/step commands as the analysis kernel sees them.

:class:`Gate` holds what the user asked a search (a :class:`~c4tui.engine.analysis.search_state.
Steering`, the pure state machine) and the node limit, writes them into the control words
the kernel polls at every node, and tells whether the search has actually paused: in the
kernel (it counts its pauses; the gate remembers the count it has seen) or in the loop
between iterations (:meth:`Gate.pause_point`). While the worker prepares a search the
control words still belong to the previous one, so the commands wait and are written when
the search begins (:meth:`Gate.attach`).

No lock of its own: the :class:`~c4tui.engine.analysis.controller.SearchController` calls every
method with its lock held (the condition given here), and keeps the clock in step with
what the methods return.
"""

from __future__ import annotations

import threading

import numpy as np

from . import kernel as K
from .search_state import Run, Steering

#: The kernel's command word for each state of the steering.
_CMD = {Run.GO: K.CMD_RUN, Run.PAUSE: K.CMD_PAUSE, Run.STOP: K.CMD_STOP}


def _kernel_nodes(nodes: int | None) -> int:
    """``Limits.nodes`` as the kernel's ``C_LIMIT`` word (the same limit; NEVER: none)."""
    return K.NEVER if nodes is None else nodes


class Gate:
    """The commands of one search at a time, and whether it is paused."""

    def __init__(self, ctl: np.ndarray, cond: threading.Condition) -> None:
        self._ctl = ctl  # the kernel's control words (K.C_*)
        self._cond = cond
        self.steer = Steering()  #: what was asked (engine/analysis/search_state.py)
        self.node_limit: int | None = None  #: Limits.nodes (set_node_limit)
        #: the worker is preparing the search: the control words are not yet its own
        self.setup = False
        self._pauses_seen = 0  # the kernel's pause count when it was last told to run
        self._loop_paused = False  # waiting in pause_point()

    # ------------------------------------------------------------ a search begins and ends
    def unwind(self) -> None:
        """The running search (being replaced) unwinds within a node."""
        self._ctl[K.C_CMD] = K.CMD_STOP

    def begin(self, paused: bool, continuation: bool) -> None:
        """A new search, being prepared (see :meth:`Steering.begin`)."""
        self.steer.begin(paused, continuation=continuation)
        self._loop_paused = False
        self._pauses_seen = 0
        self.setup = True

    def attach(self) -> None:
        """The search is prepared (worker thread): write the commands to the kernel."""
        c = self._ctl
        c[K.C_CMD] = _CMD[self.steer.run]
        c[K.C_PAUSE_AT] = self.steer.pause_at
        c[K.C_LIMIT] = K.NEVER if self.steer.nodes_lifted else _kernel_nodes(self.node_limit)
        self.setup = False

    def end(self) -> None:
        """The search ended."""
        self._loop_paused = False
        self.setup = False
        self._ctl[K.C_PAUSED] = 0

    # ------------------------------------------------------------ commands
    def pause(self) -> bool:
        """Pause where it is (the kernel at its next node); False if stopping."""
        if not self.steer.pause():
            return False
        if not self.setup:
            self._ctl[K.C_CMD] = K.CMD_PAUSE
            self._take_back_unseen_resume()
        return True

    def resume(self) -> bool:
        """Run to the end (or the limits); True if it runs (not stopping)."""
        went, restored = self.steer.resume()
        if restored and not self.setup:  # the steps are over: the limit holds again
            self._ctl[K.C_LIMIT] = _kernel_nodes(self.node_limit)
        if went:
            self._go()
        return went

    def step_iteration(self) -> bool:
        """Pause at the end of the current iteration; True if a paused search runs on."""
        paused = self.paused()
        self.steer.step_iteration(paused)
        went = paused and not self.steer.stopping
        if went:
            self._go()
        return went

    def step_nodes(self, n: int, base: int) -> bool:
        """Run ``n`` more nodes from ``base`` (the count shown), then pause; True if it
        runs (not stopping)."""
        self.steer.step_nodes(base + n)
        went = not self.steer.stopping
        if went:
            self._go()
        return went

    def set_node_limit(self, nodes: int | None) -> None:
        """A new node limit (None: none); not while steps lift it."""
        self.node_limit = nodes
        if not self.setup and not self.steer.nodes_lifted:
            self._ctl[K.C_LIMIT] = _kernel_nodes(nodes)
        self._cond.notify_all()

    def stop(self) -> None:
        """Stop for good (the kernel unwinds within a node, the loop at its pause point)."""
        self.steer.stop()
        self._ctl[K.C_CMD] = K.CMD_STOP
        self._cond.notify_all()

    # ------------------------------------------------------------ the search's side
    def pause_point(self) -> bool:
        """Between iterations (worker thread): wait while paused; False if the search must
        end (a stop or the node limit: the abort word says which)."""
        c = self._ctl
        while c[K.C_CMD] == K.CMD_PAUSE:
            self._loop_paused = True
            self._cond.wait(0.05)
        self._loop_paused = False
        if c[K.C_CMD] == K.CMD_STOP:
            c[K.C_ABORT] = K.ABORT_STOP
            return False
        if c[K.C_NODES] >= c[K.C_LIMIT]:
            c[K.C_ABORT] = K.ABORT_LIMIT
            return False
        return True

    def iteration_done(self) -> bool:
        """An iteration is complete: True if a step's pause begins now."""
        if not self.steer.iteration_done():
            return False
        self._ctl[K.C_CMD] = K.CMD_PAUSE
        return True

    # ------------------------------------------------------------ queries
    def nodes(self, base: int) -> int:
        """The kernel's node count (``base`` while preparing: the count to show)."""
        return base if self.setup else int(self._ctl[K.C_NODES])

    def kernel_paused(self) -> bool:
        """The kernel sleeps in its pause loop (a pause asked since it last ran)."""
        c = self._ctl
        return (not self.setup and c[K.C_PAUSED] == 1
                and c[K.C_PAUSES] != self._pauses_seen)

    def paused(self) -> bool:
        """Actually paused (while preparing: asked to be)."""
        if self.setup:
            return self.steer.run is Run.PAUSE
        return self._loop_paused or self.kernel_paused()

    def _take_back_unseen_resume(self) -> None:
        """After a pause: if the kernel has not yet seen the resume before it (it looks
        every 2 ms), it stays in the same pause loop and counts no new pause, so that pause
        is the one to show (otherwise wait_paused would wait forever). If it is just
        leaving the loop, it pauses again at its next node and counts that pause."""
        c = self._ctl
        if c[K.C_PAUSED] == 1 and c[K.C_PAUSES] == self._pauses_seen:
            self._pauses_seen = int(c[K.C_PAUSES]) - 1

    def _go(self) -> None:
        """The steering says GO: tell the kernel (while preparing: when it begins)."""
        if self.setup:
            return
        # Read the pause count before publishing the new target: a kernel that reaches a
        # near target (step_nodes(1)) between the two would otherwise count its pause into
        # the baseline, and the pause would never be seen.
        c = self._ctl
        self._pauses_seen = int(c[K.C_PAUSES])
        c[K.C_PAUSE_AT] = self.steer.pause_at
        c[K.C_CMD] = K.CMD_RUN
        self._loop_paused = False
        self._cond.notify_all()
