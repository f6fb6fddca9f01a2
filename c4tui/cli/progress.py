"""Progress of a long exact solve on stderr, for ``c4tui solve``.

A solve that runs for more than a few seconds says, on stderr, how long it has run, the
nodes searched and the window being searched, so that a user can tell a long search from a
stuck one: on a terminal one line rewritten every second (erased when the solve ends),
which also says that Ctrl-C stops it; else a line every half minute (a log stays short).
This is the one warning of a long solve: it comes when a solve has run long, not from
counting the empty squares before it starts (that warned of hours before positions of
10x6 that took 0.4 s; issue 36).
"""

from __future__ import annotations

import sys
import time
from typing import Protocol, TextIO

from c4tui.units import human_count, human_time

#: Seconds of a solve before the first report: on a terminal, and otherwise.
FIRST_TTY = 2.0
FIRST_LOG = 10.0
#: Seconds between reports: on a terminal, and otherwise.
EVERY_TTY = 1.0
EVERY_LOG = 30.0
#: After the terminal's line: a long solve can be given up on.
STOP_HINT = " (Ctrl-C stops it)"


class _Progressing(Protocol):
    def progress(self):  # -> c4tui.engine.solver.solver.SolveProgress
        ...


class SolveReporter:
    """Call :meth:`tick` often while ``solver`` solves ``label``; :meth:`done` at the end."""

    def __init__(self, solver: _Progressing, label: str, stream: TextIO | None = None,
                 clock=time.monotonic) -> None:
        self.solver = solver
        self.label = label
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.clock = clock
        self.start = clock()
        self.next = self.start + (FIRST_TTY if self.tty else FIRST_LOG)
        self.shown = False

    def line(self) -> str:
        """The report: elapsed time, nodes, speed and the window."""
        p = self.solver.progress()
        sec = max(self.clock() - self.start, 1e-9)
        text = (f"c4tui: solving {self.label or 'the empty board'}: {human_time(sec)}, "
                f"{human_count(p.nodes)} nodes ({human_count(p.nodes / sec)}/s)")
        if p.testing is not None:
            text += f", score in [{p.lo}, {p.hi}], testing above {p.testing}"
        return text

    def tick(self) -> None:
        """Report if it is time to."""
        now = self.clock()
        if now < self.next:
            return
        self.next = now + (EVERY_TTY if self.tty else EVERY_LOG)
        if self.tty:  # someone is watching: say how to stop it
            self.stream.write("\r\x1b[K" + self.line() + STOP_HINT)
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        """Erase the terminal's report line (a log keeps its lines)."""
        if self.shown and self.tty:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
