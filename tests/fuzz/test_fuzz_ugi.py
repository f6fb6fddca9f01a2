"""Fuzzing the UGI engine (c4tui/ugi/): random command sequences into the protocol handler
in-process, and random bytes into a few real ``c4tui engine`` processes.

Wanted: every command answered without an internal error (the handler turns a bug into
``info string error: <cmd>: SomeError: ...``, which this test treats as a failure), one
line per answer, no hang (each command returns within a generous bound), the state kept
after a refused command, and exactly one ``bestmove`` per ``go`` that was not refused
because a search was running.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading

from c4tui.engine.board.position import Position
from fuzzkit import count, fuzz
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_moves import algebraic, games

from c4tui.ugi.fen import to_fen
from c4tui.ugi.protocol import UgiEngine

#: What the handler prints when a command raised: a bug, never a user's mistake.
INTERNAL = re.compile(r"error: \w+: [A-Z]\w*(Error|Exception|Interrupt)\b|Traceback")
#: Seconds any one command may take (a go starts a thread and returns; stop waits for it).
BOUND = 60.0

small_int = st.one_of(st.integers(-3, 50), st.sampled_from([10**30, -(10**30)]))
word = st.one_of(st.sampled_from(["depth", "nodes", "movetime", "p1time", "p2time", "p1inc",
                                  "p2inc", "infinite", "moves", "fen", "startpos", "name",
                                  "value", "x", "", "1_0", "１", "nan", "d1", "Z9"]),
                 st.text(max_size=6), small_int.map(str))


@st.composite
def position_command(draw: st.DrawFn) -> str:
    cols = draw(games(30))
    pos = Position.from_moves([c + 1 for c in cols])
    tail = algebraic(cols, False, draw(st.booleans()), " ")
    kind = draw(st.sampled_from(["startpos", "fen", "fen-moves", "broken"]))
    if kind == "startpos":
        return f"position startpos moves {tail}" if tail else "position startpos"
    if kind == "fen":
        return f"position fen {to_fen(pos)}"
    if kind == "fen-moves":
        extra = draw(st.lists(word, max_size=3))
        return f"position fen {to_fen(pos)} moves {' '.join(extra)}"
    fen = list(to_fen(pos))
    if fen:
        i = draw(st.integers(0, len(fen) - 1))
        fen[i] = draw(st.sampled_from(list("xo1789/ X") + ["", "//"]))
    return "position fen " + "".join(fen)


@st.composite
def go_command(draw: st.DrawFn) -> str:
    words = ["go"]
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(["depth", "nodes", "movetime", "p1time", "p2time",
                                    "p1inc", "infinite", "bogus"]))
        words.append(key)
        if key == "nodes":
            words.append(draw(st.one_of(st.integers(1, 3000).map(str), word)))
        elif key == "depth":
            words.append(draw(st.one_of(st.integers(1, 6).map(str), word)))
        elif key != "infinite":
            words.append(draw(st.one_of(st.integers(0, 40).map(str), word)))
    return " ".join(words)


setoption = st.builds(
    lambda name, value: f"setoption name {name} value {value}",
    st.sampled_from(["Hash", "Threads", "Exact", "OwnBook", "hash", "Bogus", "Hash Size", ""]),
    st.one_of(st.sampled_from(["1", "2", "true", "false", "0", "-1", "99999", "TRUE", "",
                               "1.5", "4097", "65"]), word))

command = st.one_of(
    st.sampled_from(["ugi", "isready", "uginewgame", "stop", "query gameover",
                     "query p1turn", "query result", "query", "query bogus", "setoption",
                     "position", "go infinite", "go nodes 500", "go depth 3",
                     "go movetime 20"]),
    position_command(), go_command(), setoption,
    st.lists(word, max_size=4).map(" ".join),
    st.text(max_size=30),
)


def _call(fn, *args) -> object:
    """Run ``fn(*args)`` in a thread; fail if it does not return within BOUND seconds."""
    box: list[object] = []
    t = threading.Thread(target=lambda: box.append(fn(*args)), daemon=True)
    t.start()
    t.join(BOUND)
    assert not t.is_alive(), f"{fn.__name__}{args!r} did not return within {BOUND} s"
    return box[0] if box else None


def _snapshot(engine: UgiEngine) -> tuple:
    pos = engine.position
    return (None if pos is None else tuple(pos.history), dict(engine.options))


@fuzz(fast=25, long=10_000)
@given(st.lists(command, min_size=1, max_size=10), st.booleans())
def test_random_command_sequences(commands, exact):
    """Random sequences of UGI commands into the handler."""
    count("ugi: command sequences")
    count("ugi: commands", len(commands))
    out: list[str] = []
    lock = threading.Lock()

    def emit(line: str) -> None:
        with lock:
            out.append(line)

    engine = UgiEngine(emit)
    engine.handle("setoption name Hash value 1")
    if exact:
        engine.handle("setoption name Exact value true")
    goes = 0
    try:
        for line in commands:
            before = _snapshot(engine)
            n = len(out)
            keep = _call(engine.handle, line)
            with lock:
                new = out[n:]
            errors = [ln for ln in new if ln.startswith("info string error")]
            if line.split()[:1] == ["go"] and not any("a search is running" in e
                                                      for e in errors):
                goes += 1  # this go answers one bestmove (now, or when its search ends)
            if errors and line.split()[:1] in (["position"], ["setoption"]):
                assert _snapshot(engine) == before, (line, errors)  # state unchanged
            if keep is False:
                break  # quit
        _call(engine.handle, "stop")
        if engine.job is not None:
            _call(engine.job.stop)
    finally:
        _call(engine.shutdown)
    with lock:
        lines = list(out)
    for ln in lines:
        assert "\n" not in ln and "\r" not in ln, ln
        assert not INTERNAL.search(ln), (commands, ln)
    bestmoves = [ln for ln in lines if ln.startswith("bestmove")]
    assert len(bestmoves) == goes, (commands, lines)
    for ln in bestmoves:
        assert re.fullmatch(r"bestmove ([a-g][1-6]|0000)", ln), ln


# ---------------------------------------------------------------- real processes
def _engine(data: bytes) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "c4tui", "engine"], input=data,
                          capture_output=True, timeout=120)


@fuzz(fast=3, long=40)
@given(st.lists(st.one_of(st.binary(max_size=40),
                          st.sampled_from([b"ugi\n", b"isready\n", b"position startpos\n",
                                           b"go nodes 100\n", b"\xff\xfe\n", b"\x00\n",
                                           b"stop\n", b"\r\n", b"quit\n"])),
                max_size=12))
def test_real_engine_process(chunks):
    """Random bytes (invalid UTF-8, NULs, CR) then quit: the process answers and ends."""
    count("ugi: real processes")
    r = _engine(b"".join(chunks) + b"\nstop\nquit\n")
    err = r.stderr.decode(errors="replace")
    assert r.returncode == 0 and "Traceback" not in err, err
    for ln in r.stdout.decode(errors="replace").splitlines():
        assert not INTERNAL.search(ln), ln
