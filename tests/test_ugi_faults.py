"""``c4tui engine`` under a large table: time limits, ``quit`` and stale output (issue 23,
item 10; docs/protocol.md, docs/reliability.md).

With ``Exact`` on, the solver's table (up to 4 GB: seconds to allocate and touch) is made
at ``isready``; a ``go`` that comes without it still answers within its time, ``quit``
ends the process within a second, and a search that runs on past its ``bestmove`` (it
was allocating) prints nothing after it. Before the fix the table was made by the first
``go``: ``go movetime 100`` answered after 2 s (1 GB) to 7 s (4 GB), ``quit`` waited
for the allocation, and a late ``info string exact solve cut short`` of the stopped
search came after the next search's ``bestmove``.

Every test drives a real engine process over pipes (tests/ugi_client.py). The bounds
are generous for two shared cores and still well below the times before the fix.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ugi_client import LOAD_TIMEOUT, UgiProcess
from waiting import wait_until

ENGINE = (str(Path(sys.executable).with_name("c4tui")), "engine")
#: ``go movetime 100`` must answer within this (measured 0.08-0.1 s).
MOVE_BOUND = 1.0
#: ``quit`` must end the process within this (measured 0.02-0.3 s; 0.4 s by design).
QUIT_BOUND = 1.5
#: A table this large takes seconds to allocate: longer than stop's 0.5 s grace.
LARGE_HASH = 4096
#: The engine whose first solver waits for the test (tests/held_engine.py), and the table
#: it then makes: the hold, not the size, outlasts the grace.
HELD_ENGINE = (sys.executable, str(Path(__file__).with_name("held_engine.py")))
HASH_AFTER_HOLD = 64


def _engine(hash_mb: int, isready: bool, cmd: tuple[str, ...] = ENGINE) -> UgiProcess:
    """An engine playing exactly without books (the empty board is seconds of solving),
    its kernels loaded; the table of ``hash_mb`` made at ``isready`` if ``isready``."""
    eng = UgiProcess(cmd)
    eng.ask("ugi", "ugiok", timeout=60)
    eng.ask("isready", "readyok", timeout=LOAD_TIMEOUT)  # the kernels (a cold cache compiles)
    eng.send("setoption name Exact value true")
    eng.send("setoption name OwnBook value false")
    eng.send(f"setoption name Hash value {hash_mb}")
    if isready:
        eng.ask("isready", "readyok", timeout=120)  # the table is made now
    eng.send("position startpos")
    return eng


def _timed(eng: UgiProcess, go: str) -> tuple[float, str, list[str]]:
    t0 = time.monotonic()
    move, infos = eng.bestmove(go, timeout=60)
    return time.monotonic() - t0, move, infos


def _quit(eng: UgiProcess) -> float:
    """Send ``quit``; the seconds until the process has ended (exit status 0)."""
    t0 = time.monotonic()
    eng.send("quit")
    assert eng.proc.wait(30) == 0
    return time.monotonic() - t0


def test_isready_makes_the_table_and_go_keeps_its_time():
    with _engine(LARGE_HASH, isready=True) as eng:
        took, move, infos = _timed(eng, "go movetime 100")
        assert took < MOVE_BOUND, f"go movetime 100 answered after {took:.2f} s"
        assert move == "d1"
        assert any("cut short" in x for x in infos)  # the clock ended the solve
        assert _quit(eng) < QUIT_BOUND
        assert eng.stderr == ""


def test_go_keeps_its_time_while_the_table_is_made_and_quit_does_not_wait():
    """No isready after Hash: the go allocates 4 GB, and still answers in time; quit
    during that allocation (and during an isready waiting for it) ends at once."""
    with _engine(LARGE_HASH, isready=False) as eng:
        took, move, _ = _timed(eng, "go movetime 100")
        assert took < MOVE_BOUND, f"go movetime 100 answered after {took:.2f} s"
        assert move in {f"{c}1" for c in "abcdefg"}
        eng.send("isready")  # waits for the table that is still being made
        took = _quit(eng)
        assert took < QUIT_BOUND, f"quit took {took:.2f} s"
        rest = []
        while (line := eng.read(10)) is not None:
            rest.append(line)
        assert not [x for x in rest if "error" in x], rest
        assert eng.stderr == ""


def test_a_search_stopped_while_the_table_is_made_prints_nothing_later(tmp_path):
    """``stop`` misses its grace (the table's allocation cannot be cut short): the old
    search's thread runs on, and nothing of it comes after its ``bestmove``. The next
    search is MILTON's (Exact off), which never says "cut short": such a line is stale.

    The allocation is held by tests/held_engine.py until this test releases it, so that
    it outlasts the grace on any machine (a real 4 GB table raced it: on a machine with
    zeroed pages at hand it was made within the grace and the test skipped)."""
    held, release = tmp_path / "held", tmp_path / "release"
    with _engine(HASH_AFTER_HOLD, isready=False, cmd=(*HELD_ENGINE, str(held), str(release))
                 ) as eng:
        eng.send("go infinite")
        wait_until(held.exists, 60, "the search to begin making its table", proc=eng.proc,
                   detail=eng.tail)
        t0 = time.monotonic()
        first = eng.ask("stop", "bestmove", timeout=10)
        assert time.monotonic() - t0 < QUIT_BOUND  # the grace is 0.5 s
        assert first == [first[-1]], first  # answered by stop, without a word of the search
        eng.send("setoption name Exact value false")
        eng.send("setoption name Hash value 1")
        took, _, _ = _timed(eng, "go movetime 100")  # the old search still holds the engine
        release.touch()  # the table is made now, and the old search runs on to its end
        later = eng.ask("isready", "readyok", timeout=120)  # ready: the old search is over
        later += eng.quiet(1.0)  # the old search's last words would come now
        assert not [x for x in eng.lines if "cut short" in x]
        assert later == ["readyok"], later
        assert took < MOVE_BOUND, f"go movetime 100 answered after {took:.2f} s"
        assert eng.close(timeout=10) == 0
        assert eng.stderr == ""
