"""Pilot tests of the workstation with an external UGI engine (``c4tui --engine CMD``):
our own ``c4tui engine`` as the external engine, a scripted engine whose every command is
logged, and deliberately broken ones (garbage, an exit at once, silence, no such file).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

import pilot_util
import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, Score, SearchOptions, SearchState
from pilot_util import sync, until
from waiting import wait_until

from c4tui import __version__
from c4tui.app import C4App, SearchSettings
from c4tui.app.bridge import settings as app_settings
from c4tui.app.bridge.engine_view import EngineState, ExactStatus

pytestmark = pytest.mark.usefixtures("tmp_home")

OWN_ENGINE = (sys.executable, "-m", "c4tui", "engine")
LOAD_TIMEOUT = 240.0  # a cold numba cache compiles every kernel first (ours and its)
PAST_BOOKS = "44624532265124"  # 14 discs: the search deepens to an exact win in 14
DEEP = "233752167"  # without the books, far from settled in any test's time
#: Seconds of silence after which the app used to take a lone proven score as final (the
#: rule is gone: a proven answer ends the search at once); a search ended sooner did not wait.
OLD_QUIET = 2.0


async def wait_for(pilot, cond, timeout: float, what: str) -> None:
    """pilot_util's wait, saying on a timeout what the status line shows."""
    await pilot_util.wait_for(pilot, cond, timeout, what,
                              detail=lambda: f"status: {status(pilot.app)}")


def snap(app: C4App):
    return app.bridge.view(app.position).snapshot


def status(app: C4App) -> str:
    return str(app.query_one("#status").render())


def render(app: C4App, selector: str) -> str:
    return str(app.query_one(selector).render())


def engine_ready(app: C4App) -> bool:
    return app.bridge.view(app.position).state is EngineState.READY


def external_process(app: C4App) -> subprocess.Popen:
    ext = app.bridge._loader.external
    assert ext is not None and ext.engine._proc is not None
    return ext.engine._proc


def assert_killed(proc: subprocess.Popen) -> None:
    """The app killed its engine when it quit (at once: well within a second)."""
    try:
        proc.wait(1.0)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("the external engine outlived the app") from None


# ------------------------------------------------------------------ our own engine


@sync
async def test_own_engine_fills_the_log_up_to_the_exact_result():
    app = C4App(Position.from_moves(PAST_BOOKS),
                settings=SearchSettings(engine_cmd=OWN_ENGINE))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: (s := snap(app)) is not None and s.state == "done",
                       LOAD_TIMEOUT, "the external search to reach full depth")
        s = snap(app)
        depths = [it.depth for it in s.iterations]
        assert len(depths) >= 5 and depths == sorted(set(depths))
        last = s.iterations[-1]
        assert last.score.band is Band.EXACT and last.depth == 28 and last.seldepth >= 28
        assert s.best_move in (0, 1) and s.result.pv[0] == s.best_move  # a2 and b5 win in 14
        assert s.result.reason is SearchState.DONE  # stopped by us: nothing deeper to find
        await until(pilot, lambda: "White wins in 14" in render(app, "#analysis")
                    and "W14" in render(app, "#log") and "done" in status(app),
                    "the result on the screen")
        log = render(app, "#log")
        assert app.query_one("#log").row_count >= 3 and "W14" in log
        analysis = render(app, "#analysis")
        assert "White wins in 14" in analysis and "pv      " in analysis
        line = status(app)
        assert f"c4tui {__version__}" in line and "done" in line and "limit ∞" in line
        # stepping needs our own search: greyed out, and a key press says so
        bindings = app.screen.active_bindings
        assert not bindings["n"].enabled and bindings["space"].binding.description == "stop"
        await pilot.press("n")
        assert "not available with an external engine" in app.last_message
        await pilot.press("N")
        assert "not available with an external engine" in app.last_message
        assert len(app.screen_stack) == 1  # no node-count prompt
        proc = external_process(app)
        await pilot.press("q")
    assert_killed(proc)


@sync
async def test_own_engine_book_draw_is_done_at_once_and_said_to_be_the_books():
    """Bug: ``c4tui engine`` said its books' draw as a bare ``score cp 0`` (depth 9) and
    then waited for ``stop``: the app searched for ever, the 0 shown as a heuristic one."""
    app = C4App(Position.from_moves("3"), settings=SearchSettings(engine_cmd=OWN_ENGINE))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: (s := snap(app)) is not None and s.state == "done",
                       LOAD_TIMEOUT, "the external search to end")
        s = snap(app)
        (it,) = s.iterations
        assert (it.score, it.proof, s.result.reason) == (Score(0, Band.EXACT), "book",
                                                          SearchState.DONE)
        assert s.elapsed < OLD_QUIET, s.elapsed  # at once, not after a silence
        await until(pilot, lambda: "book best d · draw" in render(app, "#analysis")
                    and "from the books" in status(app), "the books' draw on the screen")
        await pilot.press("q")


@pytest.mark.usefixtures("no_books")
@sync
async def test_own_engine_space_stops_and_keeps_the_result_and_a_node_limit_applies():
    app = C4App(Position.from_moves(DEEP), settings=SearchSettings(engine_cmd=OWN_ENGINE))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: (s := snap(app)) is not None and len(s.iterations) >= 3,
                       LOAD_TIMEOUT, "three iterations")
        assert snap(app).state is SearchState.SEARCHING
        await pilot.press("space")
        await wait_for(pilot, lambda: snap(app).state == "stopped", 10, "stop")
        kept = snap(app)
        assert kept.result is not None and kept.result.best_move in app.position.legal_moves()
        await pilot.pause(0.5)  # a window for iterations that must not come: not a wait
        assert snap(app).iterations == kept.iterations  # nothing after the stop
        assert "stopped" in status(app) and "best" in render(app, "#analysis")
        await pilot.press("space")
        assert app.last_message == "no search is running: g analyses"
        # a node limit: the next search is "go nodes N" and ends at it
        await pilot.press("l")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "30k"
        await pilot.press("enter")
        await pilot.press("g")
        await wait_for(pilot, lambda: snap(app).state == "node_limit", 30, "the node limit")
        assert 0 < snap(app).nodes <= 30_000
        await until(pilot, lambda: "node limit reached" in status(app), "the status line's limit")
        assert "node limit reached" in status(app) and "limit 30.0k" in status(app)
        # a move: a new search of the new position; the exact row is still ours
        await pilot.press("5")
        assert app.position.digits() == DEEP + "5"
        await wait_for(pilot, lambda: (s := snap(app)) is not None and s.state == "node_limit"
                       and s.iterations, 30, "the new position's search")
        await wait_for(pilot, lambda: (e := app.bridge.view(app.position).exact) is not None
                       and e.status is not ExactStatus.SOLVING, 30, "the solver")


# ------------------------------------------------------------------ a scripted engine

SCRIPTED = '''
import sys
log = open(sys.argv[1], "a", buffering=1)
for line in sys.stdin:
    log.write(line)
    w = line.split()
    if not w:
        continue
    out = {
        "ugi": "id name scripted 1\\noption name Hash type spin default 16 min 1 max 64\\nugiok",
        "isready": "readyok",
        "stop": "bestmove d3",
    }.get(w[0])
    if w[0] == "go":
        out = ("info depth 1 seldepth 1 score cp 20 nodes 100 nps 1000 time 100 pv d3\\n"
               "info depth two\\n"
               "info depth 2 seldepth 4 score mate 3 nodes 300 nps 1500 hashfull 250 "
               "time 200 pv d3 d4 d5 d6\\n"
               "ready to rumble")
        if "nodes" in w:
            out += "\\nbestmove d3"
    if out:
        print(out, flush=True)
'''


def write(tmp_path, name: str, text: str) -> tuple[str, ...]:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return (sys.executable, str(path))


@sync
async def test_scripted_engine_gets_the_commands_and_its_junk_is_a_note(tmp_path):
    log = tmp_path / "commands.txt"
    cmd = (*write(tmp_path, "scripted.py", SCRIPTED), str(log))
    app = C4App(Position.from_moves("44"),
                settings=SearchSettings(engine_cmd=cmd, options=SearchOptions(hash_mb=32)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: (s := snap(app)) is not None and len(s.iterations) == 2,
                       LOAD_TIMEOUT, "two iterations")
        await until(pilot, lambda: "d2/4" in status(app) and "W3r" in render(app, "#log"),
                    "the two iterations on the screen")
        s = snap(app)
        assert s.state is SearchState.SEARCHING and s.best_move == 3
        assert s.iterations[1].score.short(2) == "W3r"  # mate 3: White wins with its 3rd move
        line = status(app)
        assert "scripted 1" in line and "d2/4" in line
        assert "ignored unexpected output 'ready to rumble'" in line or \
            "info depth 'two' is not a number" in line
        assert "\n" not in line
        assert "W3r" in render(app, "#log") and "d3 d4 d5 d6" in render(app, "#log")
        await pilot.press("space")
        await wait_for(pilot, lambda: snap(app).state == "stopped", 5, "stop")
        assert snap(app).result.best_move == 3 and len(snap(app).iterations) == 2
        await pilot.press("g")  # analyse again: go infinite
        await wait_for(pilot, lambda: snap(app).state == "searching" and snap(app).iterations,
                       10, "the new search")
        # a node limit set during a "go infinite" starts it again as "go nodes N"
        await pilot.press("l")
        await pilot.pause()
        app.screen.query_one("#prompt-input").value = "5000"
        await pilot.press("enter")
        await wait_for(pilot, lambda: snap(app).state == "node_limit", 10, "go nodes")
        proc = external_process(app)
        await pilot.press("q")
    assert_killed(proc)
    sent = log.read_text().splitlines()
    assert sent[0] == "ugi" and sent.count("setoption name Hash value 32") == 1
    assert sent.index("isready") < sent.index("position startpos moves d1 d2")
    assert sent.index("setoption name Hash value 32") < sent.index("go infinite")
    searches = [x for x in sent if x.split()[0] in ("go", "stop")]
    assert searches == ["go infinite", "stop", "go infinite", "stop", "go nodes 5000"]


# ------------------------------------------------------------------ a book answer

#: An engine that answers from its book: its lines, then it waits for ``stop`` (UCI's
#: ``go infinite``), saying nothing more. Its lines (split by ";"): a score ("cp 0", an
#: iteration at depth 6, 7, ...), or a whole line after "info " ("string proven book").
BOOK = '''
import sys
log = open(sys.argv[1], "a", buffering=1)
items = sys.argv[2].split(";")
for line in sys.stdin:
    log.write(line)
    w = line.split()
    out = {"ugi": "id name booky\\nugiok", "isready": "readyok", "stop": "bestmove f1"}.get(
        w[0] if w else "")
    if w[:1] == ["go"]:
        out = "\\n".join(
            "info " + item if item.split()[0] in ("string", "depth") else
            f"info depth {6 + i} score {item} nodes {25 + i} time 8 pv f1 g1"
            for i, item in enumerate(items))
    if out:
        print(out, flush=True)
'''
PROVEN = "string proven"
FULL_DRAW = "depth 38 score cp 0 nodes 25 time 8 pv f1 g1"  # 4453: 38 empty squares


@pytest.mark.parametrize("items, where, words", [
    # a proof the engine announces, or its depth gives: final, the search ends at once
    (f"{PROVEN} book;mate -18", "book", "Black wins in 18"),
    (f"{PROVEN} book;cp 0", "book", "draw"),
    (f"{PROVEN} solved;cp 0", "solved", "draw"),
    (FULL_DRAW, "engine", "draw"),  # an engine that searched to the end of the game
    # a value it may still improve: searching as far as the app knows, or silent
    ("mate -18", "", "Black wins in 18 (recognized)"),  # a shallow proof may shrink
    ("cp 0", "", "level (0)"),  # a heuristic 0 is not a draw
    ("cp -400;mate -18", "", "Black wins in 18 (recognized)"),
    (f"{PROVEN} guess;cp 0", "", "level (0)"),  # a source we do not know: no proof
])
@sync
async def test_a_proven_answer_ends_the_search_at_once_and_names_its_source(
        tmp_path, monkeypatch, items, where, words):
    """Bug: an answer from the engine's book left the status line at "● searching" for
    ever while the engine waited for "stop" (as UCI asks); then a rule ended a lone proven
    score after 2 s of silence, and a book draw (``cp 0``) never. Now the engine says that
    its answer is proven (``c4tui engine`` does: docs/protocol.md) and the app stops it at
    once, naming who proved it; anything else is searching until the user stops it."""
    from c4tui.app.widgets import status_line

    monkeypatch.setattr(status_line, "SILENT", 0.6)
    log = tmp_path / "commands.txt"
    cmd = (*write(tmp_path, "booky.py", BOOK), str(log), items)
    app = C4App(Position.from_moves("4453"), settings=SearchSettings(engine_cmd=cmd))
    says = " ● done" if where else " ● engine silent"
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: status(app).startswith(says), 30, says)
        line = status(app)
        assert "searching" not in line and "/s" not in line, line
        await until(pilot, lambda: words in render(app, "#analysis"), words)
        analysis = render(app, "#analysis")
        if where:
            s = snap(app)
            assert s.result.best_move == 5 and s.result.reason is SearchState.DONE  # f1
            assert s.elapsed < OLD_QUIET, s.elapsed  # at once, not after a silence
            assert "stop" in log.read_text().split()  # its answer taken: the go ended
            assert f"{where} best f · {words}" in analysis, analysis
            assert ("from the books" in line) is (where == "book"), line
            assert "(recognized)" not in analysis
        else:
            if items == "mate -18":  # the old rule ended a lone proof after 2 s of silence
                await pilot.pause(OLD_QUIET + 0.5)  # a window for an end that must not come
            assert snap(app).state is SearchState.SEARCHING  # as far as the app knows
            assert "stop" not in log.read_text().split()
            assert "draw" not in analysis, analysis
        await pilot.press("q")


# ------------------------------------------------------------------ broken engines

GARBAGE = '''
import sys
print("\\x1b[31mWELCOME\\x00 to garbage", flush=True)
for line in sys.stdin:
    print("%%% " + line.strip()[::-1], flush=True)
'''
EXITS = '''
import sys
print("fatal: cannot open the network file", file=sys.stderr)
sys.exit(3)
'''
SILENT = '''
import sys
for line in sys.stdin:
    pass
'''


@pytest.mark.parametrize("name, script, says", [
    ("garbage", GARBAGE, "no ugiok within 1 s after ugi (it printed '%%% igu')"),
    ("exits", EXITS, "exited (code 3): fatal: cannot open the network file"),
    ("silent", SILENT, "no ugiok within 1 s after ugi"),
    ("missing", None, "cannot start it: No such file or directory"),
])
@sync
async def test_a_broken_engine_is_one_status_line_and_the_app_works_on(
        tmp_path, monkeypatch, name, script, says):
    monkeypatch.setattr(app_settings, "EXTERNAL_UGI_TIMEOUT", 1.0)
    cmd = write(tmp_path, f"{name}.py", script) if script else (str(tmp_path / "nothing"),)
    app = C4App(Position.from_moves("4453"), settings=SearchSettings(engine_cmd=cmd))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.bridge.view(app.position).external.failed,
                       30, "the failure")
        await wait_for(pilot, lambda: engine_ready(app), LOAD_TIMEOUT, "our engine")
        await until(pilot, lambda: status(app).startswith(" ● external engine"),
                    "the failure on the status line")
        line = status(app)
        assert "\n" not in line and line.startswith(" ● external engine")
        assert says in app.bridge.view(app.position).external.message
        assert "external engine failed" in render(app, "#analysis")
        # the board, the moves and the exact values work as without an external engine
        await pilot.press("3")
        assert app.position.digits() == "44533"
        await wait_for(pilot, lambda: (e := app.bridge.view(app.position).exact) is not None
                       and e.status is ExactStatus.DONE, 30, "exact values")
        await pilot.press("g")
        assert says in app.last_message
        await pilot.press("space")
        assert app.last_message == "no search is running"
        await pilot.press("u")
        assert app.position.digits() == "4453"
        started = time.monotonic()
        await pilot.press("q")
    assert time.monotonic() - started < 1.0


# ------------------------------------------------------------------ the controller alone

LOGGING = '''
import os, sys, time
log = open(sys.argv[1], "a", buffering=1)
gate = os.path.join(os.path.dirname(sys.argv[1]), "handshake.go")  # made by the test
mode = sys.argv[2]
for line in sys.stdin:
    log.write(line)
    w = line.split()
    if w[:1] == ["ugi"]:
        while not os.path.exists(gate):  # positions asked for meanwhile pile up
            time.sleep(0.01)
        print("id name logging\\nugiok", flush=True)
    elif w[:1] == ["isready"]:
        print("readyok", flush=True)
    elif w[:1] == ["go"]:
        print("info depth 1 score cp 7 nodes 50 time 1 pv a1", flush=True)
        if mode == "crash":
            print("Traceback: the engine fell over", file=sys.stderr, flush=True)
            sys.exit(9)
    elif w[:1] == ["stop"] and mode != "hang":
        print("bestmove a1", flush=True)
'''


def external(tmp_path, mode: str, held: bool = False, **timeouts: float):
    """The logging engine's ExternalSearch and log; ``held``: it answers ``ugi`` only once
    the test makes the file handshake.go."""
    from c4tui.app.bridge.external_search import ExternalSearch
    from c4tui.ugi.engine import Timeouts

    log = tmp_path / "commands.txt"
    cmd = (*write(tmp_path, "logging.py", LOGGING), str(log), mode)
    if not held:
        (tmp_path / "handshake.go").touch()
    return ExternalSearch(cmd, Timeouts(**timeouts)), log


def options(nodes: int | None = None):
    """What ExternalSearch.start takes: the limits (None: go infinite) and the options."""
    from c4tui.engine.seam import Limits, SearchOptions

    return Limits(nodes=nodes), SearchOptions()


def test_positions_skipped_through_are_never_searched(tmp_path):
    ext, log = external(tmp_path, "ok", held=True)
    ext.open()
    for moves in ("4", "44", "445"):  # while the handshake runs
        ext.start(Position.from_moves(moves), *options())
    (tmp_path / "handshake.go").touch()  # the engine answers 'ugi' only now
    wait_until(lambda: ext.snapshot().iterations, 10, "the search")
    ext.start(Position.from_moves("4455"), *options(1000))
    wait_until(lambda: ext.snapshot().iterations, 10, "the next search")
    ext.close()
    sent = [x for x in log.read_text().splitlines() if x.split()[0] in ("position", "go",
                                                                        "stop")]
    assert sent == ["position startpos moves d1 d2 e1", "go infinite", "stop",
                    "position startpos moves d1 d2 e1 e2", "go nodes 1000"]


def test_a_crash_during_a_search_keeps_its_result_and_says_why(tmp_path):
    ext, _ = external(tmp_path, "crash")
    ext.open()
    ext.start(Position.from_moves("44"), *options())
    wait_until(lambda: ext.status().failed, 10, "the crash")
    status = ext.status()
    assert status.message == ("external engine logging: exited (code 9): "
                              "Traceback: the engine fell over")
    snap = ext.snapshot()
    assert snap.state is SearchState.STOPPED and snap.result.best_move == 0
    assert [it.score for it in snap.iterations] == [Score(7, Band.HEURISTIC)]


def test_an_engine_that_does_not_answer_stop_is_killed(tmp_path):
    ext, _ = external(tmp_path, "hang", stop=0.5)
    ext.open()
    ext.start(Position.from_moves("44"), *options())
    wait_until(lambda: ext.snapshot().iterations, 10, "the search")
    proc = ext.engine._proc
    started = time.monotonic()
    ext.stop()  # returns at once
    assert time.monotonic() - started < 0.1
    wait_until(lambda: ext.status().failed, 5, "the timeout")
    assert "no bestmove within 0.5 s after stop" in ext.status().message
    assert_killed(proc)
    assert ext.snapshot().iterations  # the result so far stays


@pytest.mark.parametrize("text, says", [
    ("'unclosed", "No closing quotation"), ("", "the command is empty"),
    ("/no/such/engine --x", "'/no/such/engine' is not a command that can be run"),
])
def test_the_engine_option_says_what_is_wrong(text, says, capsys):
    from c4tui.cli.open import external_command

    with pytest.raises(SystemExit):
        external_command(text)
    assert says in capsys.readouterr().err


def test_the_engine_option_splits_like_a_shell():
    from c4tui.cli.open import external_command

    assert external_command(f"{sys.executable} -m 'c4tui' engine") == (
        sys.executable, "-m", "c4tui", "engine")
    assert external_command(None) == ()
