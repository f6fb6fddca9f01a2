"""``c4tui engine`` through its pipes: the UGI commands, limits, stop, queries, bad input.

Every test drives a real engine process (tests/ugi_client.py) with a timeout on each wait.
"""

from __future__ import annotations

import re
import sys
import time

import pytest
from c4tui.engine.board.position import Position
from testdata import load_positions, sample
from ugi_client import UgiProcess, start_engine

from c4tui.ugi.fen import to_fen

INFO = re.compile(
    r"^info depth (\d+) seldepth (\d+) score (cp -?\d+|mate -?\d+) nodes (\d+) nps (\d+) "
    r"hashfull (\d+) time (\d+)( pv( [a-g][1-6])+)?$"
)
SQUARE = re.compile(r"^[a-g][1-6]$")
#: 14 discs, past the books: the analysis search deepens iteration by iteration.
MIDGAME = "24464572743613"
MIDGAME_MOVES = Position.from_moves(MIDGAME).algebraic()
DRAWN_GAME = ("e1 d1 g1 a1 b1 e2 f1 f2 b2 b3 f3 a2 b4 g2 a3 b5 f4 f5 b6 a4 e3 g3 d2 c1 g4 g5 "
              "a5 e4 g6 f6 c2 a6 e5 c3 e6 c4 c5 c6 d3 d4 d5 d6")


@pytest.fixture
def engine():
    eng = start_engine()
    yield eng
    eng.__exit__()


@pytest.fixture(scope="module")
def _one_engine():
    """One engine process for the tests of bad input (each case used to start its own:
    a second of Python, numba and the books per case); it must outlive all of them."""
    eng = start_engine()
    yield eng
    eng.__exit__()


@pytest.fixture
def shared_engine(_one_engine):
    """The module's engine for a test that sets its own position first. A case that
    killed it fails, and so do the next ones: the engine did not go on."""
    assert _one_engine.proc.poll() is None, f"the engine ended\n{_one_engine.tail()}"
    return _one_engine


def parse_info(line: str) -> dict[str, object]:
    m = INFO.match(line)
    assert m, f"malformed info line: {line!r}"
    return {"depth": int(m[1]), "seldepth": int(m[2]), "score": m[3], "nodes": int(m[4]),
            "hashfull": int(m[6]), "time": int(m[7]),
            "pv": m[8].split()[1:] if m[8] else []}


def legal_square(moves: str, square: str) -> bool:
    pos = Position.from_algebraic(moves)
    return square in {f"{'abcdefg'[c]}{pos.height(c) + 1}" for c in pos.legal_moves()}


def errors(lines: list[str]) -> list[str]:
    return [x for x in lines if x.startswith("info string error:")]


# ------------------------------------------------------------------ handshake, options


def test_handshake_lists_id_and_options():
    with UgiProcess() as eng:
        lines = eng.ask("ugi", "ugiok", timeout=60)
        assert lines[0].startswith("id name c4tui")
        assert lines[1].startswith("id author ")
        options = {m[1]: m[2] for m in (re.match(r"option name (\S+) type (.*)$", x)
                                        for x in lines if x.startswith("option"))}
        assert options == {
            "Hash": "spin default 16 min 1 max 4096",
            "Threads": "spin default 1 min 1 max 64",
            "Exact": "check default false",
            "OwnBook": "check default true",
            "Level": "spin default 0 min 0 max 10",
            "MultiPV": "spin default 1 min 1 max 7",
        }
        assert lines[-1] == "ugiok"
        eng.ask("isready", "readyok", timeout=900)
        assert eng.close() == 0
        assert "Traceback" not in eng.stderr


def test_the_cli_command_is_the_same_engine():
    with UgiProcess((sys.executable, "-m", "c4tui", "engine")) as eng:
        assert eng.ask("ugi", "ugiok", timeout=60)[0].startswith("id name c4tui")
        eng.send("position startpos moves d1 d2 d3")
        assert eng.query("p1turn") == "false"
        assert eng.close() == 0


def test_setoption_names_ignore_case_and_values_are_checked(engine):
    engine.send("setoption name hash value 32")
    engine.send("setoption name THREADS value 2")
    engine.send("setoption name exact value TRUE")
    assert errors(engine.ask("isready", "readyok")) == []
    # the command line's one form: "<option> <value>: <reason>"
    for bad, says in [("setoption name Hash value 0",
                       "option Hash 0: out of range (1 to 4,096 MB)"),
                      ("setoption name Hash value lots", "option Hash 'lots': not a whole number"),
                      ("setoption name Exact value maybe",
                       "option Exact 'maybe': not true or false"),
                      ("setoption name Colour value red", "unknown option"),
                      ("setoption Hash 3", "expected 'setoption name")]:
        engine.send(bad)
        got = errors(engine.ask("isready", "readyok"))
        assert len(got) == 1 and says in got[0], (bad, got)
    # the good values hold: an exact search with two threads, mate score and a legal move
    engine.send("position startpos moves " + MIDGAME_MOVES)
    move, infos = engine.bestmove("go", timeout=120)
    assert legal_square(MIDGAME_MOVES, move)
    assert parse_info(infos[-1])["score"].startswith("mate")


# ------------------------------------------------------------------ positions and queries


def test_queries_follow_the_position(engine):
    engine.send("position startpos")
    assert (engine.query("p1turn"), engine.query("gameover"), engine.query("result")) == (
        "true", "false", "none")
    engine.send("position startpos moves d1")
    assert engine.query("p1turn") == "false"
    engine.send("position startpos moves d1 c1 d2 c2 d3 c3 d4")
    assert (engine.query("gameover"), engine.query("result")) == ("true", "p1win")
    engine.send("position startpos moves a1 d1 b1 d2 a2 d3 b2 d4")
    assert (engine.query("gameover"), engine.query("result")) == ("true", "p2win")
    engine.send("position startpos moves " + DRAWN_GAME)
    assert (engine.query("gameover"), engine.query("result")) == ("true", "draw")
    engine.send("position fen 7/7/7/7/7/3x3 o moves d2 c1")
    assert engine.query("p1turn") == "false"
    engine.send("position fen 7/7/x6/x6/xo5/xo1o3 o")
    assert engine.query("result") == "p1win"
    assert errors(engine.lines) == []


def test_fen_and_moves_give_the_same_search(engine):
    """A position given as a FEN (written by to_fen) searches exactly like its moves."""
    pos = Position.from_moves(MIDGAME)
    engine.send(f"position fen {to_fen(pos)}")
    fen_move, fen_infos = engine.bestmove("go depth 6")
    engine.send("position startpos moves " + MIDGAME_MOVES)
    move, infos = engine.bestmove("go depth 6")
    strip = [re.sub(r" nps \d+| time \d+", "", x) for x in infos]
    assert [re.sub(r" nps \d+| time \d+", "", x) for x in fen_infos] == strip
    assert fen_move == move
    assert errors(engine.lines) == []


# ------------------------------------------------------------------ go and its limits


def test_go_depth_reports_every_iteration(engine):
    engine.send("position startpos moves " + MIDGAME_MOVES)
    move, infos = engine.bestmove("go depth 7")
    depths = [parse_info(x)["depth"] for x in infos]
    assert depths == list(range(1, 8))
    last = parse_info(infos[-1])
    assert last["pv"][0] == move and legal_square(MIDGAME_MOVES, move)
    assert last["seldepth"] >= last["depth"]
    assert last["nodes"] > 0


def test_go_nodes_keeps_to_the_node_limit(engine):
    engine.send("position startpos moves " + MIDGAME_MOVES)
    small = [parse_info(x)["nodes"] for x in engine.bestmove("go nodes 3000")[1]]
    large = [parse_info(x)["nodes"] for x in engine.bestmove("go nodes 300000")[1]]
    assert small and max(small) <= 3000
    assert max(large) <= 300000 and len(large) > len(small)


@pytest.mark.parametrize("go", ["go movetime 400", "go p1time 4000 p2time 4000 p1inc 100"])
def test_timed_go_answers_in_time(engine, go):
    engine.send("setoption name OwnBook value false")  # so that the search cannot finish
    engine.send("position startpos moves d1 d2")
    t0 = time.monotonic()
    move, infos = engine.bestmove(go, timeout=10)
    took = time.monotonic() - t0
    assert 0.2 < took < 2.0, took  # the budgets: 370 ms, and 4000 / 12 + 75 = 408 ms
    assert legal_square("d1 d2", move)
    assert infos and parse_info(infos[-1])["depth"] < 40  # the clock ended it, not the end


def test_infinite_waits_for_stop_and_answers_isready_and_query_meanwhile(engine):
    engine.send("position startpos moves " + MIDGAME_MOVES)
    engine.send("go infinite")
    assert not any(x.startswith("bestmove") for x in engine.quiet(0.5))
    t0 = time.monotonic()
    engine.ask("isready", "readyok", timeout=2)
    assert engine.query("p1turn", timeout=2) == "true"
    assert time.monotonic() - t0 < 1.0  # at once, with room for a loaded machine
    t0 = time.monotonic()
    lines = engine.ask("stop", "bestmove", timeout=2)
    assert time.monotonic() - t0 < 1.0
    assert legal_square(MIDGAME_MOVES, lines[-1].split()[1])
    assert engine.quiet(0.3) == []  # exactly one bestmove
    engine.send("stop")  # nothing to stop: no answer, no error
    assert engine.quiet(0.3) == []


def test_stop_cuts_a_long_exact_solve_short(engine):
    engine.send("setoption name OwnBook value false")
    engine.send("setoption name Exact value true")
    engine.send("position startpos")  # the empty board without the books: seconds of solving
    engine.send("go infinite")
    engine.quiet(0.3)
    t0 = time.monotonic()
    lines = engine.ask("stop", "bestmove", timeout=3)
    assert time.monotonic() - t0 < 1.5
    assert legal_square("", lines[-1].split()[1])
    assert any("cut short" in x for x in lines)


@pytest.mark.parametrize(("moves", "score", "columns"), [
    (m, s, c) for m, s, c in sample(
        [r for r in load_positions() if 16 <= len(r[0]) <= 30], 6, seed=14)
])
def test_exact_play_is_perfect(moves, score, columns):
    """Exact true: the mate distance of BitBully's score, and a move of the best score."""
    with start_engine({"Exact": "true"}) as eng:
        pos = Position.from_moves(moves)
        eng.send("position startpos moves " + pos.algebraic())
        move, infos = eng.bestmove("go", timeout=120)
        info = parse_info(infos[-1])
        ply = pos.ply
        if score == 0:
            assert info["score"] == "cp 0"
        else:
            # the winner ends with its (22 - |score|)-th disc; own discs so far
            own = ply // 2 if score > 0 else (ply + 1) // 2
            k = 22 - abs(score) - own
            assert info["score"] == f"mate {k if score > 0 else -k}"
        col = "abcdefg".index(move[0])
        assert columns[col] == score, (move, columns)
        assert info["pv"][0] == move and info["depth"] == 42 - ply


def proofs_and_lines(infos: list[str]) -> list[tuple[str | None, str]]:
    """Each score line with the ``info string proven ...`` right before it (or None)."""
    out, proof = [], None
    for line in infos:
        if line.startswith("info string "):
            proof = line.removeprefix("info string ")
        else:
            out.append((proof, line))
            proof = None
    return out


@pytest.mark.parametrize("exact, moves, proof, score", [
    (False, "c1", "proven book", "cp 0"),  # a book draw: was a bare cp 0 at depth 9
    (False, "", "proven book", "mate 21"),  # a book win: was mate 21 at depth 10
    (True, "c1", "proven solved", "cp 0"),  # the exact solver's draw
    (False, "d1 c1 d2 c2 d3 c3", "proven solved", "mate 1"),  # a win at once
])
def test_a_proven_answer_says_so(engine, exact, moves, proof, score):
    """UCI has no draw score: a proven answer's line is announced by ``info string proven
    book|solved`` and reports the whole game as its depth, so that a client can tell a
    proven draw from a heuristic 0 and end a ``go infinite`` at once."""
    engine.send(f"setoption name Exact value {str(exact).lower()}")
    engine.ask("isready", "readyok", timeout=60)
    engine.send("position startpos" + (f" moves {moves}" if moves else ""))
    _, infos = engine.bestmove("go depth 3")
    ((said, line),) = proofs_and_lines(infos)
    info = parse_info(line)
    empties = 42 - len(moves.split())
    assert (said, info["score"], info["depth"]) == (proof, score, empties)
    assert info["seldepth"] == empties


def test_only_the_final_iteration_of_a_search_is_proven(engine):
    """The analysis search deepening to the end (past the books): its heuristic and
    recognized iterations say nothing, the full-depth one is proven (solved)."""
    moves = Position.from_moves("44624532265124").algebraic()  # 28 empty squares
    engine.send("position startpos moves " + moves)
    _, infos = engine.bestmove("go")
    lines = proofs_and_lines(infos)
    assert [said for said, _ in lines[:-1]] == [None] * (len(lines) - 1)
    said, last = lines[-1]
    assert said == "proven solved" and parse_info(last)["depth"] == 28
    assert parse_info(last)["score"] == "mate 14"


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(("command", "says"), [
    ("fly", "unknown command 'fly'"),
    ("position startpos moves d2", "move 1 'd2': a disc in column d lands on d1"),
    ("position startpos moves d1 h1", "move 2 'h1': not a square (expected a1-g6)"),
    ("position startpos moves d1 d2 d3 d4 d5 d6 d7", "not a square"),
    ("position startpos moves a1 d1 b1 d2 a2 d3 b2 d4 c1", "the game is over"),
    ("position fen 7/7/7/7/7/8 x", "'8' is neither a disc"),
    ("position fen 7/7/7/7/7/3x3 x", "side to move x"),
    ("position fen", "fen: empty"),
    ("position middle", "expected startpos or fen"),
    ("position startpos d1", "unexpected 'd1' after startpos"),
    ("query colour", "query: expected gameover, p1turn or result"),
    ("\xff\xfe", "unknown command"),
])
def test_bad_input_is_one_error_line_and_keeps_the_position(shared_engine, command, says):
    """One engine takes every case in turn: each leaves it answering, its position kept."""
    engine = shared_engine
    engine.send("position startpos moves d1")
    engine.send(command)
    got = engine.ask("isready", "readyok")
    assert errors(got) == [x for x in got if x.startswith("info")]
    assert len(errors(got)) == 1 and says in errors(got)[0], got
    assert engine.query("p1turn") == "false"  # still the position after d1
    engine.send("position startpos moves d1 d2")  # and the engine goes on
    assert engine.query("p1turn") == "true"
    assert "Traceback" not in engine.stderr


@pytest.mark.parametrize(("setup", "go", "says"), [
    ("", "go depth 3", "no position yet"),
    ("position startpos moves d1 c1 d2 c2 d3 c3 d4", "go depth 3", "the game is over"),
    ("position startpos", "go depth 0", "depth 0"),
    ("position startpos", "go nodes many", "not a whole number"),
    ("position startpos", "go wtime 100", "unknown limit 'wtime'"),
    ("position startpos", "go depth", "needs a number"),
])
def test_a_go_that_cannot_search_answers_the_null_move(engine, setup, go, says):
    if setup:
        engine.send(setup)
    lines = engine.ask(go, "bestmove")
    assert lines[-1] == "bestmove 0000"
    assert len(errors(lines)) == 1 and says in errors(lines)[0]


def test_a_second_go_during_a_search_is_refused(engine):
    engine.send("position startpos moves " + MIDGAME_MOVES)
    engine.send("go infinite")
    engine.send("go depth 2")
    engine.send("setoption name Hash value 1")
    got = engine.ask("isready", "readyok")
    assert [e.split(":")[1].strip() for e in errors(got)] == ["go", "setoption Hash"]
    engine.ask("stop", "bestmove")
    assert engine.quiet(0.3) == []


# ------------------------------------------------------------------ the end


def test_end_of_input_during_a_search_exits_cleanly():
    eng = start_engine()
    eng.send("position startpos moves " + MIDGAME_MOVES)
    eng.send("go infinite")
    eng.quiet(0.2)
    eng.proc.stdin.close()
    assert eng.proc.wait(5) == 0
    assert eng.expect("bestmove")  # the search still answered
    assert eng.stderr == ""


def test_quit_exits_cleanly(engine):
    engine.send("position startpos moves " + MIDGAME_MOVES)
    engine.send("go depth 30")
    assert engine.close(timeout=5) == 0
    assert "Traceback" not in engine.stderr and "Fatal" not in engine.stderr



def test_a_storm_of_random_commands_neither_breaks_nor_hangs_the_engine():
    """300 lines drawn from the protocol's words, good and bad, sent without waiting
    (searches start and stop in between): the engine answers isready afterwards, every go
    got at most one bestmove, and stderr stays empty."""
    import random

    rng = random.Random(14)
    commands = ["ugi", "isready", "uginewgame", "position", "go", "stop", "query",
                "setoption", "bogus", "\xff"]
    words = ["startpos", "fen", "moves", "stop", "gameover", "p1turn", "result", "name",
             "value", "Hash", "Exact", "OwnBook", "Threads", "true", "false", "depth",
             "nodes", "movetime", "infinite", "p1time", "d1", "d2", "a1", "g7", "3", "-1",
             "0", "7/7/7/7/7/3x3", "o", "x", "\xff"]
    with start_engine({"Hash": "1"}) as eng:
        gos = 0
        for _ in range(300):
            if rng.random() < 0.2:  # a good position, so that searches run
                line = "position startpos moves d1 " + rng.choice(["", "d2", "c1 c2"])
            elif rng.random() < 0.2:
                line = rng.choice(["go depth 8", "go nodes 5000", "go infinite",
                                   "go movetime 50", "setoption name Exact value true",
                                   "setoption name Exact value false"])
            else:
                line = " ".join([rng.choice(commands)]
                                + [rng.choice(words) for _ in range(rng.randint(0, 5))])
            gos += line.startswith("go")
            eng.send(line)
        eng.send("stop")
        eng.ask("isready", "readyok", timeout=30)
        eng.send("stop")
        eng.quiet(1.0)
        answers = [x for x in eng.lines if x.startswith("bestmove")]
        assert len(answers) <= gos
        assert any(x != "bestmove 0000" for x in answers)  # searches did run
        assert eng.close() == 0
        assert eng.stderr == ""
