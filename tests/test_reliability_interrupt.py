"""Ctrl-C stops ``c4tui solve`` at once (issue 23, item 9; docs/reliability.md).

The real command in a child process, SIGINT sent once it is observably at work: the
search of the empty board (about 10 s) after a first position's line is out, or the
compile of the kernels on a cold numba cache. Before the fix the solve ran in the main
thread, where Python sees the signal only when the kernel returns: the whole 10 s.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from waiting import cpu_seconds, read_line, wait_until

ROOT = Path(__file__).resolve().parents[1]
C4TUI = str(Path(sys.executable).with_name("c4tui"))
#: A position solved in milliseconds: its line on stdout says the solver is built.
QUICK = "44534445"
#: From SIGINT to the process's end (measured 0.3 s; generous for 2 shared cores).
EXIT_BOUND = 2.5
#: A cold numba cache compiles the kernels before the first line (a minute or more).
LOAD_BOUND = 900.0
#: CPU seconds the child must spend after the event: it is then surely in the work.
BUSY_CPU = 0.3

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="reads the child's CPU time from /proc")


def _wait_busy(proc: subprocess.Popen, seconds: float, timeout: float = 60.0) -> None:
    """Wait until ``proc`` has spent ``seconds`` more CPU time (it is working), bounded."""
    start = cpu_seconds(proc.pid)
    wait_until(lambda: cpu_seconds(proc.pid) - start >= seconds, timeout,
               f"the child to work for {seconds} s of CPU", proc=proc)


def _interrupt(proc: subprocess.Popen) -> tuple[float, str, str]:
    """SIGINT ``proc``; the seconds to its end, and the rest of its stdout and stderr."""
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return time.monotonic() - t0, out, err


def _start(args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen([C4TUI, "solve", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, **(env or {})})


def test_ctrl_c_stops_a_running_solve():
    """The empty board's search (about 10 s) ends within a second or two of Ctrl-C, with
    exit status 130 and one line on stderr; the line solved before stays on stdout."""
    proc = _start(["--no-book", QUICK, ""])
    try:
        first = read_line(proc.stdout, LOAD_BOUND, "the first position's line")
        assert first.split()[0] == QUICK
        _wait_busy(proc, BUSY_CPU)  # the empty board is being searched
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    seconds, out, err = _interrupt(proc)
    assert proc.returncode == 130, (out, err)
    assert seconds < EXIT_BOUND, f"{seconds:.2f} s from Ctrl-C to the exit"
    assert out == ""  # the empty board was not answered
    said = [x for x in err.splitlines() if "compiling the engine" not in x]  # a cold cache
    assert said == ["c4tui: solve: interrupted"]


def test_ctrl_c_while_the_kernels_compile(tmp_path):
    """On a cold numba cache (the compile takes a minute) Ctrl-C ends the process at
    once, with the same line and status."""
    proc = _start(["--no-book", ""], env={"NUMBA_CACHE_DIR": str(tmp_path)})
    try:
        note = read_line(proc.stderr, 60, "the compile's note")
        assert "compiling the engine" in note
        _wait_busy(proc, BUSY_CPU)  # compiling
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    seconds, out, err = _interrupt(proc)
    assert proc.returncode == 130, (out, err)
    assert seconds < EXIT_BOUND, f"{seconds:.2f} s from Ctrl-C to the exit"
    assert out == ""
    assert err.splitlines() == ["c4tui: solve: interrupted"]
