"""Engines as hostile peers (issue 33, part 2), in ``c4tui match`` and the UGI client: what
an engine prints reaches stdout and stderr escaped and cut, its memory is bounded whatever
it floods us with, nothing it started outlives the match, and it never runs above the
caller's CPU priority. Also the ``go nodes`` bound (a node count, not a time) and the
match's own lines (issue 36: what the Elo is over, what the openings are).

The engines are tests/ugi_hostile.py (random movers that fork, flood, refuse, crash).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_util import assert_nothing_left, hostile, niceness, reported

from c4tui.ugi.limits import parse_go
from c4tui.ugi.protocol import UgiEngine


def raw(text: str) -> list[str]:
    """The characters of ``text`` a terminal could act on (line ends aside): those
    ``str.isprintable`` refuses (controls, ESC, bidi and other format characters)."""
    return [ch for ch in text if ch != "\n" and not ch.isprintable()]


#: The longest line a match prints with hostile engines (names cut to 30 characters,
#: reasons to 60, a refused option to 200, plus the words around them and the command).
MAX_LINE = 600
#: The target of docs/reliability.md: the match's peak RSS against a flooding engine.
MAX_RSS_MB = 200
PEAK_RSS = Path(__file__).with_name("peak_rss.py")


def openings(tmp_path: Path) -> Path:
    f = tmp_path / "openings.txt"
    f.write_text("44\n", encoding="utf-8")
    return f


def run_measured(args: list[str], tmp_path: Path, timeout: float = 240,
                 nice: int = 0) -> tuple[int, str, str, float]:
    """Run ``c4tui ARGS`` (at niceness ``nice``): (exit status, stdout, stderr, its peak
    RSS in MB, as tests/peak_rss.py measures it)."""
    out, err, rss = tmp_path / "stdout.txt", tmp_path / "stderr.txt", tmp_path / "rss.txt"
    with out.open("wb") as o, err.open("wb") as e:
        proc = subprocess.Popen(
            [sys.executable, str(PEAK_RSS), str(rss), sys.executable, "-m", "c4tui", *args],
            stdout=o, stderr=e, stdin=subprocess.DEVNULL, start_new_session=True,
            preexec_fn=(lambda: os.nice(nice)) if nice else None)
    try:
        code = proc.wait(timeout)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return (code, out.read_text("utf-8", "replace"), err.read_text("utf-8", "replace"),
            float(rss.read_text()))


def assert_shown(text: str) -> None:
    """No raw escape or control character, no line over :data:`MAX_LINE`."""
    found = raw(text)
    assert not found, f"raw characters reach the terminal: {found[:5]!r}"
    longest = max((len(x) for x in text.splitlines()), default=0)
    assert longest <= MAX_LINE, f"a line of {longest} characters"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_match_against_forking_flooding_engines_is_bounded_escaped_and_leaves_nothing(
        tmp_path):
    """Engine A forks a ``sleep``; engine B forks too, floods (an ``id name`` of 60,000
    characters, 5,000 new option names, ~ 100 MB of new first words and 60 KB info strings
    with escapes per game), plays junk in game 2 and crashes in game 3."""
    ra, rb = tmp_path / "a.txt", tmp_path / "b.txt"
    try:
        code, out, err, rss = run_measured(
            ["match", hostile(ra, "fork"), hostile(rb, "fork,flood,junk,stderr"),
             "--games", "4", "--openings", str(openings(tmp_path)), "--timeout", "30"],
            tmp_path)
    finally:
        assert_nothing_left([ra, rb])
    assert code == 0, err
    print(f"peak RSS {rss:.1f} MB")
    assert rss < MAX_RSS_MB, f"peak RSS {rss:.0f} MB"
    assert_shown(out)
    assert_shown(err)
    lines = out.splitlines()
    # the name as text the user can read, cut: the escapes written out, not acted on
    assert lines[0].startswith("A: hostile (20,000 nodes per move)  vs  B: hostile "
                               "\\x1b[2J\\x1b]0;pwned\\x…")
    games = [x for x in lines if x.startswith("game ")]
    assert len(games) == 4, out
    assert ", illegal move: B (hostile \\x1b[2J" in games[1]
    assert "lost: illegal move '\\x1b[2J\\x1b…' after 2 moves" in games[1]
    # the crash is seen as one at once, though its child holds its output open
    assert ", crash: B (hostile \\x1b[2J" in games[2] and "exited (code 3): hostile: " \
        "\\x1b[2J\\x1b]0;pwned\\x07" in games[2], games[2]
    assert len(reported(rb, "pid")) == 2  # B started again after its crash


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_match_ended_by_a_signal_leaves_no_process(tmp_path, signum):
    """``kill``, a closed terminal, Ctrl-C: the match ends its engines and what they
    started (a SIGTERM or SIGHUP killed the match alone, and the engines' children lived
    on), says why and exits with 128 + the signal."""
    ra, rb = tmp_path / "a.txt", tmp_path / "b.txt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "c4tui", "match", hostile(ra, "fork"), hostile(rb, "fork"),
         "--games", "100000", "--openings", str(openings(tmp_path)), "--adjudicate", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        while not proc.stdout.readline().startswith("game 2:"):  # playing, both engines up
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        assert_nothing_left([ra, rb])
    assert proc.returncode == 128 + signum, err
    why = "interrupted" if signum == signal.SIGINT else \
        f"ended by {signal.Signals(signum).name}"
    assert f" s ({why})" in out and "Traceback" not in err, (out[-500:], err)


def test_an_engine_refusing_an_option_is_one_escaped_bounded_line(tmp_path):
    """Issue 33, item 2: the engine's ``info string error`` was printed raw and whole (one
    stderr line of 60,101 bytes with live escapes)."""
    report = tmp_path / "a.txt"
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "c4tui", "match", hostile(report, "refuse,fork"), "",
             "--games", "2", "--openings", str(openings(tmp_path)), "--option-a", "Seed=3"],
            capture_output=True, text=True, timeout=120)
    finally:
        assert_nothing_left([report])
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1, proc.stderr[:300]
    assert proc.stderr.startswith(f"c4tui: match: engine A ({hostile(report, 'refuse,fork')}"
                                  "): error \\x1b[2J\\x1b]0;pwned\\x07\\x1b[31m\\u202eevil")
    assert proc.stderr.endswith("r…\n")
    assert_shown(proc.stderr)


@pytest.mark.skipif(not hasattr(os, "nice") or os.getpriority(os.PRIO_PROCESS, 0) > 10,
                    reason="needs a niceness of at most 10")
def test_match_engines_never_run_above_the_callers_priority(tmp_path):
    """Issue 33, item 11: under ``nice -n 10`` the engines ran at niceness 5."""
    ra, rb = tmp_path / "a.txt", tmp_path / "b.txt"
    try:
        code, out, err, _ = run_measured(
            ["match", hostile(ra, "fork"), hostile(rb, "fork"), "--games", "2",
             "--openings", str(openings(tmp_path)), "--adjudicate", "0"], tmp_path, nice=10)
    finally:
        assert_nothing_left([ra, rb])
    assert code == 0, err
    seen = niceness(ra) + niceness(rb)
    assert seen and min(seen) >= 10, seen  # the engines and the children they started


_NICE_PROBE = """
import sys, threading
from pathlib import Path
sys.path.insert(0, {tests!r})
from hostile_util import hostile
from c4tui.app.bridge.external_search import EXTERNAL_NICE
from c4tui.app.bridge.loader import lower_thread_priority
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits
from c4tui.ugi.engine import Engine

def nice(tid):
    return int(Path(f"/proc/self/task/{{tid}}/stat").read_text().rsplit(")", 1)[1].split()[16])

engine = Engine(hostile(Path({report!r}), "fork").split(), nice=EXTERNAL_NICE)
engine.start()
engine.play(Position(), Limits(nodes=None))
engine.close()
got = []
def lowered():
    for _ in range(2):  # a lowered thread's second call must not lower it again
        lower_thread_priority()
        got.append(nice(threading.get_native_id()))
t = threading.Thread(target=lowered)
t.start()
t.join()
print(nice(threading.get_native_id()), *got)
"""


@pytest.mark.parametrize("caller, engine", [(10, 15), (19, 19)])
def test_the_apps_external_engine_and_threads_run_a_step_below_the_caller(
        tmp_path, caller, engine):
    """The external engine (``--engine``), the processes it starts, and the app's engine
    threads: the caller's niceness plus 5, at most 19 (they were set to 5)."""
    if os.getpriority(os.PRIO_PROCESS, 0) > caller:
        pytest.skip(f"needs a niceness of at most {caller}")
    report = tmp_path / "r.txt"
    probe = _NICE_PROBE.format(tests=str(Path(__file__).parent), report=str(report))
    try:
        proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              timeout=60, preexec_fn=lambda: os.nice(caller))
    finally:
        assert_nothing_left([report])
    assert proc.returncode == 0, proc.stderr
    assert [int(x) for x in proc.stdout.split()] == [caller, engine, engine]
    assert niceness(report) == [engine, engine]  # the engine, and the child it started


_SEARCH_PROBE = """
import time
from pathlib import Path
from c4tui.engine.analysis.controller import SearchController
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits

def nice(tid):
    return int(Path(f"/proc/self/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()[16])

ctl = SearchController(5)
ctl.start(Position.from_moves("4453"), Limits(nodes=10**9))
end = time.monotonic() + 120
while not ctl.snapshot().nodes and time.monotonic() < end:  # its worker at work
    time.sleep(0.01)
import threading
worker = next(t for t in threading.enumerate() if t.name == "c4-analysis")  # analysis/worker.py
print(nice(worker.native_id))
ctl.stop()
"""


@pytest.mark.parametrize("caller, engine", [(10, 15), (19, 19)])
def test_the_analysis_search_worker_runs_a_step_below_the_caller(caller, engine):
    """engine/analysis/controller.py's worker (the app's analysis search): it was set to 5."""
    if os.getpriority(os.PRIO_PROCESS, 0) > caller:
        pytest.skip(f"needs a niceness of at most {caller}")
    proc = subprocess.run([sys.executable, "-c", _SEARCH_PROBE], capture_output=True,
                          text=True, timeout=300, preexec_fn=lambda: os.nice(caller))
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) == engine


def test_go_nodes_is_bounded_as_a_node_count():
    """Issue 33, item 12: ``go nodes 40000000000`` was refused against the time bound."""
    assert parse_go(["nodes", "40000000000"]).nodes == 40_000_000_000
    assert parse_go(["nodes", str(10**12)]).nodes == 10**12
    lines: list[str] = []
    engine = UgiEngine(lines.append)
    for nodes in ("0", str(10**13), "9" * 30):
        engine.handle(f"go nodes {nodes}")
    # each refused go still answers (a move of none), as the protocol says
    assert lines == [x for n in ("0", str(10**13), "9" * 30) for x in (
        f"info string error: go: nodes {n}: expected 1 to 1,000,000,000,000", "bestmove 0000")]
    with pytest.raises(ValueError, match="movetime 31536000001: expected at most "
                                         "31,536,000,000 ms"):
        parse_go(["movetime", "31536000001"])


def test_the_heading_says_what_the_book_openings_are(tmp_path):
    """Issue 36: ``101 openings drawn 4-disc book positions`` read wrong."""
    proc = subprocess.run([sys.executable, "-m", "c4tui", "match",
                           f"{sys.executable} {Path(__file__).with_name('ugi_random.py')}",
                           f"{sys.executable} {Path(__file__).with_name('ugi_random.py')}",
                           "--games", "2", "--opening-plies", "2", "--adjudicate", "0"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[1] == (
        "2 games, 6 openings (the book's 2-disc positions that are draws with perfect "
        "play), 1 at once, adjudication off")
