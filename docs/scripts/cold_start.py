"""The workstation's cold start, as a user sees it: seconds from launch to the first frame,
to the compile's progress in the status line, to the first search iteration in the search
log and to the exact values under the board, on an empty numba cache.

Drives ``c4tui 2567355334757`` (13 discs: past the books, so the exact values need the
solver) in a tmux window of 120x40 and reads the screen every 0.2 s. Each run gets a new
empty cache directory (never the shared ``engine/__pycache__``)::

    .venv/bin/python docs/scripts/cold_start.py LABEL /tmp/cold-LABEL [PYTHONPATH]

``PYTHONPATH``: an older tree to time instead (``git archive REV c4tui engine book`` in a
directory, with ``c4tui/engine`` and ``c4tui/book`` linked to ``../engine`` and
``../book``). The status lines seen are kept in ``/tmp/cold-LABEL.log``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time

VENV_PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".venv",
                           "bin", "python")
POSITION = "2567355334757"
TIMEOUT = 1500.0


def main() -> None:
    label, cache = sys.argv[1], sys.argv[2]
    tree = sys.argv[3] if len(sys.argv) > 3 else ""
    shutil.rmtree(cache, ignore_errors=True)
    os.makedirs(cache)
    session = f"cold-{label}"
    env = f"NUMBA_CACHE_DIR={cache} " + (f"PYTHONPATH={tree} " if tree else "")
    command = f"cd /tmp && {env}{os.path.abspath(VENV_PYTHON)} -m c4tui {POSITION}"
    subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    t0 = time.monotonic()
    subprocess.run(["tmux", "new", "-d", "-s", session, "-x", "120", "-y", "40", command],
                   check=True)
    marks: dict[str, float] = {}
    last = None
    screen = ""
    with open(f"/tmp/cold-{label}.log", "w") as log:
        def mark(what: str) -> None:
            if what not in marks:
                marks[what] = time.monotonic() - t0
                log.write(f"MARK {what} {marks[what]:.1f}\n")

        while time.monotonic() - t0 < TIMEOUT:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                                    capture_output=True, text=True).stdout
            now = time.monotonic() - t0
            if "board" in screen:
                mark("first frame")
            status = next((s for s in screen.splitlines() if s.startswith(" ● ")), None)
            if status and "kernels" in status:
                mark("progress shown")
            if status and status != last:
                log.write(f"{now:7.1f} {status.strip()}\n")
                last = status
            if re.search(r"^│\s+\d+(-\d+)?\s+\[", screen, re.M):  # a row of the search log
                mark("first iteration")
            if re.search(r"\bexact\s+best", screen):  # the analysis panel's exact line
                mark("exact values")
            if "first iteration" in marks and "exact values" in marks:
                break
            time.sleep(0.2)  # the interval between two looks at the screen
        log.write(screen)
    subprocess.run(["tmux", "send-keys", "-t", session, "q"])
    subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    for what, t in marks.items():
        print(f"{label}: {what} {t:.1f} s")


if __name__ == "__main__":
    main()
