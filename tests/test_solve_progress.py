"""Progress of long exact solves on stderr (issue 24, item 3): the reporter's timing and
text, no warning from counting squares (issue 36), and a real `c4tui solve` on a terminal."""

from __future__ import annotations

import io
import os
import pty
import select
import signal
import subprocess
import sys
import time

import pytest
from c4tui.engine.solver.solver import SolveProgress

from c4tui.cli import progress as P


class _Solver:
    def __init__(self) -> None:
        self.now = SolveProgress(0)

    def progress(self) -> SolveProgress:
        return self.now


class _Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_log_gets_a_line_after_ten_seconds_then_every_half_minute() -> None:
    solver, clock, out = _Solver(), _Clock(), io.StringIO()
    rep = P.SolveReporter(solver, "4453", out, clock)
    clock.t += P.FIRST_LOG - 0.1
    rep.tick()
    assert out.getvalue() == ""  # a short solve says nothing
    solver.now = SolveProgress(25_000_000, -2, 5, 0)
    clock.t += 0.1
    rep.tick()
    assert out.getvalue() == ("c4tui: solving 4453: 10.0s, 25.0M nodes (2.5M/s), score in "
                              "[-2, 5], testing above 0\n")
    clock.t += P.EVERY_LOG - 1
    rep.tick()
    assert out.getvalue().count("\n") == 1
    clock.t += 1
    rep.tick()
    assert out.getvalue().count("\n") == 2
    rep.done()
    assert out.getvalue().count("\n") == 2  # a log keeps its lines


def test_a_terminal_gets_one_line_rewritten_and_erased_at_the_end() -> None:
    solver, clock, out = _Solver(), _Clock(), _Tty()
    rep = P.SolveReporter(solver, "", out, clock)
    clock.t += P.FIRST_TTY
    solver.now = SolveProgress(1234)  # an analysis: no one window
    rep.tick()
    assert out.getvalue() == ("\r\x1b[Kc4tui: solving the empty board: 2.0s, 1234 nodes "
                              "(617/s) (Ctrl-C stops it)")
    rep.done()
    assert out.getvalue().endswith("\r\x1b[K") and "\n" not in out.getvalue()


def test_a_quick_solve_of_a_large_board_is_not_warned_of(capsys, monkeypatch) -> None:
    """Bug (issue 36, item 11): a position with more empty squares than the empty 7x6
    board was warned of ("this may take hours") before it was solved, however quick it
    was (0.4 s on 10x6). The board's squares are made 80 here, as 10x8's are: a solve
    that ends in milliseconds says nothing on stderr."""
    from c4tui.engine.board import geometry

    from c4tui.cli import main

    monkeypatch.setattr(geometry, "SIZE", 80)
    with pytest.raises(SystemExit) as info:
        main(["solve", "--no-book", "223635123311156113747"])
    out = capsys.readouterr()
    assert (info.value.code, out.err) == (0, "")
    assert not hasattr(P, "reach_warning")


def test_a_long_solve_on_a_terminal_reports_progress() -> None:
    """The empty board without the books (about 10 s): within a few seconds stderr, a
    terminal, shows the elapsed time, the nodes and the window; Ctrl-C then stops it."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: c4tui solve on the pty
        env = dict(os.environ, C4TUI_THREADS="2")
        os.execve(sys.executable, [sys.executable, "-m", "c4tui", "solve", "--no-book", ""],
                  env)
    seen = b""
    deadline = time.monotonic() + 240  # a cold numba cache compiles first
    try:
        while b"testing above" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 1.0)
            if ready:
                try:
                    seen += os.read(fd, 4096)
                except OSError:
                    break
        text = seen.decode(errors="replace")
        assert "c4tui: solving the empty board: " in text, text
        assert " nodes (" in text and "score in [" in text, text
    finally:
        os.kill(pid, signal.SIGINT)
        end = time.monotonic() + 30
        while time.monotonic() < end and os.waitpid(pid, os.WNOHANG) == (0, 0):
            select.select([fd], [], [], 0.1)
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)


def test_a_quick_solve_says_nothing_more() -> None:
    r = subprocess.run([sys.executable, "-m", "c4tui", "solve", "--no-book", "4453"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout == "4453 -2\n"
    assert [x for x in r.stderr.splitlines() if "compiling" not in x] == []
