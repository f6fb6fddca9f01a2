"""The workstation with a hostile external engine (``c4tui --engine CMD``, issue 33 part 2):
what the engine says reaches the screen escaped, and when the app closes, nothing the
engine started is left running, after analysis and after engine versus engine (``V``).

The engine is tests/ugi_hostile.py: a random mover that starts ``sleep 97`` in its
process group and leaves it running when it exits, and floods its output.
"""

from __future__ import annotations

import os
import pty
import signal
import sys
import threading
from pathlib import Path

import pytest
from c4tui.engine.board.position import Position
from hostile_util import alive, assert_nothing_left, hostile, reported
from pilot_util import LOAD_TIMEOUT, engine_ready, screen_text, sync, until, wait_for
from test_match_hostile import raw
from test_versus import start_versus
from waiting import wait_until

from c4tui.app import C4App, SearchSettings

pytestmark = [pytest.mark.usefixtures("tmp_home"),
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")]


def status(app: C4App) -> str:
    return str(app.query_one("#status").render())


@sync
async def test_analysis_and_versus_with_a_forking_flooding_engine(tmp_path):
    report = tmp_path / "engine.txt"
    app = C4App(Position.from_moves("44"),
                settings=SearchSettings(engine_cmd=tuple(hostile(report, "fork,flood")
                                                         .split())))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: "nice" in (report.read_text() if report.exists()
                                                     else ""),
                           LOAD_TIMEOUT, "the engine's first search")
            # its name (60,000 characters of escapes) and its notes, as text, cut
            await until(pilot, lambda: "hostile \\x1b[2J" in status(app), "its name",
                        seconds=30)
            assert not raw(screen_text(app)), raw(screen_text(app))[:5]
            assert len(app.bridge.view(app.position).external.name) <= 30
            await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "our engine")
            await start_versus(pilot, app, "1k 1k")  # our engine plays; it analyses
            await until(pilot, lambda: len(app.model.line) >= 4, "two engine moves", 60)
            assert not raw(screen_text(app))
            await pilot.press("q")
    finally:
        assert_nothing_left([report])
    assert len(reported(report, "child")) == 1


@sync
async def test_an_engine_that_exited_leaves_no_child_when_the_app_closes(tmp_path):
    """The engine exits on its own, its child lives on in its process group (and holds
    its output open): the group was killed only while its leader lived (issue 33,
    item 3)."""
    report = tmp_path / "engine.txt"
    app = C4App(Position.from_moves("44"),
                settings=SearchSettings(engine_cmd=tuple(hostile(report, "fork,exit")
                                                         .split())))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: reported(report, "pid")
                           and not alive(reported(report, "pid")[0]), LOAD_TIMEOUT,
                           "the engine to exit")
            await pilot.press("q")
    finally:
        assert_nothing_left([report])


@pytest.mark.parametrize("how", ["quit", "hangup"])
def test_the_app_process_leaves_no_engine_process(tmp_path, how):
    """The real app in a terminal with the forking engine, ended with q or by a hangup
    (the terminal closed: SIGHUP)."""
    report = tmp_path / "engine.txt"
    pid, fd = pty.fork()
    if pid == 0:  # the child: the app on the pty
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30",
               "XDG_DATA_HOME": str(tmp_path)}
        os.execve(sys.executable, [sys.executable, "-m", "c4tui", "44", "--engine",
                                   hostile(report, "fork")], env)

    def drain() -> None:  # the terminal's reader: the app must never block on writing
        try:
            while os.read(fd, 65536):
                pass
        except OSError:
            pass

    threading.Thread(target=drain, daemon=True).start()
    try:
        wait_until(lambda: "nice" in (report.read_text() if report.exists() else ""),
                   LOAD_TIMEOUT, "the engine's first search")
        if how == "quit":
            os.write(fd, b"q")
        else:
            os.kill(pid, signal.SIGHUP)
        wait_until(lambda: os.waitpid(pid, os.WNOHANG)[0], 30, "the app to end")
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        assert_nothing_left([report])
        os.close(fd)
