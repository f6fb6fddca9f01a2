"""``c4tui engine`` whose first exact solver is held before its table is made, until the
test releases it: an allocation that outlasts ``stop``'s grace on any machine.

A real 4 GB table takes seconds to allocate on a busy machine and well under the grace on
one with many zeroed pages at hand, so a test racing it could only skip when it lost. Here
the engine's own code runs unchanged; only the first :class:`Solver` that a search thread
(``ugi-search``, c4tui/ugi/jobs.py) makes waits: the analysis search's own small solver,
made when ``isready`` loads the engine, is not held.

``python tests/held_engine.py HELD RELEASE``: once the search thread is held, the file
HELD is created; the construction goes on (and makes the real table) when the file
RELEASE exists. Every other solver is made at once.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import c4tui.engine.solver.solver as solver_module

#: Seconds between two looks at the release file (the engine's side of the wait).
POLL = 0.01
#: The name of the thread a ``go`` searches in (c4tui/ugi/jobs.py's SearchJob).
SEARCH_THREAD = "ugi-search"


def hold_first_solver(held: Path, release: Path) -> None:
    """Make the first ``Solver(...)`` of a search thread wait for ``release`` after
    creating ``held``."""
    real = solver_module.Solver
    first = threading.Lock()

    class HeldSolver(real):  # type: ignore[misc,valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            if (threading.current_thread().name == SEARCH_THREAD
                    and first.acquire(blocking=False)):  # the first one only; kept
                held.touch()
                while not release.exists():
                    time.sleep(POLL)
            super().__init__(*args, **kwargs)

    solver_module.Solver = HeldSolver  # type: ignore[misc]


if __name__ == "__main__":
    hold_first_solver(Path(sys.argv[1]), Path(sys.argv[2]))
    from c4tui.ugi.protocol import main

    main()
