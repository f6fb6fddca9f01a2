"""``c4tui review DIR --summary`` stopped by Ctrl-C: the games done are summed up, exit 130.

The real command in a child process, without the books (the empty board then takes the
solver seconds), SIGINT sent once it is observably at work: the bad file's line is out
(the folder's first file) and the child spends CPU time on the deep game.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import cpu_seconds, read_line, wait_until

C4TUI = str(Path(sys.executable).with_name("c4tui"))
#: A cold numba cache compiles the kernels before the first game (a minute or more).
LOAD_BOUND = 900.0

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="reads the child's CPU time from /proc")


def test_ctrl_c_prints_the_games_done(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / "a_bad.c4g").write_text("1. d1 d2 2. d3 d4 3. d5 d6 4. d7\n")
    (games / "b_quick.c4g").write_text('[White "Ann"]\n\n1. d1 d2 2. c1 c2 3. b1 g1 4. g2 *\n')
    (games / "c_deep.c4g").write_text("1. d1 *\n")  # the empty board: seconds unbooked
    proc = subprocess.Popen(
        [C4TUI, "review", str(games), "--summary", "--threads", "1", "--no-book"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "C4TUI_BOOK": "none"})
    try:
        line = read_line(proc.stderr, LOAD_BOUND, "the bad file's line")
        assert line.startswith("c4tui: review: ") and line.rstrip().endswith(": skipped")
        start = cpu_seconds(proc.pid)
        wait_until(lambda: cpu_seconds(proc.pid) - start >= 0.5, 60,
                   "the child at work on the games", proc=proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    lines = out.splitlines()
    assert re.fullmatch(r"Interrupted: [01] of 3 game files reviewed, 1 skipped\.", lines[0])
    if lines[0].startswith("Interrupted: 1"):  # the quick game was done: it is counted
        assert lines[2].split()[:2] == ["Ann", "1"]
    assert "Traceback" not in err
