"""Waiting in tests on what happens (a condition, a line of output, a file, CPU time spent),
never for a fixed time: for threads and processes. Pilot tests wait with
``pilot_util.wait_for``/``until``, which let the app run between looks."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, TypeVar

T = TypeVar("T")

#: Seconds between two looks at a condition.
POLL = 0.01


def wait_until(predicate: Callable[[], T], timeout: float, what: str, *,
               proc: subprocess.Popen | None = None,
               detail: Callable[[], str] | None = None) -> T:
    """``predicate()``'s first true value, looked at every :data:`POLL` seconds.

    AssertionError naming ``what`` after ``timeout`` seconds, or as soon as ``proc`` (when
    given: the process that should make it true) has ended without it; ``detail()``, when
    given, is added to the error (what the process said, the screen)."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if proc is not None and proc.poll() is not None:
            why = f"the process ended (exit {proc.returncode}) before {what}"
        elif time.monotonic() > end:
            why = f"timed out waiting for {what} ({timeout} s)"
        else:
            time.sleep(POLL)  # the interval between looks: the wait is on ``predicate``
            continue
        raise AssertionError(why if detail is None else f"{why}\n{detail()}")


def read_line(stream: IO, timeout: float, what: str = "a line"):
    """The next line of ``stream`` (a pipe), or AssertionError naming ``what`` after
    ``timeout`` seconds (a plain ``readline()`` would hang the test with the child)."""
    box: list = []
    reader = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    assert box, f"timed out waiting for {what} ({timeout} s)"
    return box[0]


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (Linux /proc; 0 once it is
    gone): a process at work is seen by the CPU time it spends."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> set[int]:
    """The child processes of ``pid`` (Linux /proc; empty once it is gone)."""
    kids: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids |= {int(x) for x in (task / "children").read_text().split()}
        except OSError:
            continue  # a thread that ended meanwhile
    return kids
