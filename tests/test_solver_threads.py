"""The exact solver on several threads (one shared table, moves another thread is searching
deferred: ABDADA), its statistics, the default thread count and the ``--threads`` /
``--verbose-stats`` options."""

from __future__ import annotations

import random
import threading

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.seam import SearchAborted
from c4tui.engine.solver.solver import Solver
from testdata import load_pons, load_positions, sample
from typer.testing import CliRunner

from c4tui.cli import app

runner = CliRunner()


def _pons(name: str, n: int, seed: int) -> list[tuple[str, int]]:
    return sample(load_pons(name), n, seed)


POSITIONS = load_positions()


def test_two_threads_exact_scores_and_columns() -> None:
    solver = Solver(hash_mb=32, book=None, threads=2)
    rows = random.Random(11).sample([r for r in POSITIONS if len(r[0]) >= 14], 40)
    for moves, score, cols in rows:
        pos = Position.from_moves(moves)
        res = solver.solve(pos)
        assert res.score == score, moves
        analysis = solver.analyze(pos)
        assert list(analysis.scores) == cols, moves
        assert analysis.scores[res.best_move] == score, moves  # a best move


@pytest.mark.parametrize("name,n", [("Test_L2_R2", 40), ("Test_L1_R2", 4), ("Test_L2_R1", 40)])
def test_two_threads_pons_sets(name: str, n: int) -> None:
    solver = Solver(hash_mb=64, book=None, threads=2)
    wrong = [(m, s, r.score) for m, s in _pons(name, n, 5)
             if (r := solver.solve(Position.from_moves(m))).score != s]
    assert wrong == []


@pytest.mark.parametrize("threads", [16, 64])
def test_many_threads_exact_scores(threads: int) -> None:
    """More threads than cores (2 here): every score and column score stays exact."""
    solver = Solver(hash_mb=32, book=None, threads=threads)
    rows = [(m, s) for m, s in _pons("Test_L2_R2", 30, 21) + _pons("Test_L1_R2", 4, 22)
            + _pons("Test_L3_R1", 30, 23)]
    wrong = [(m, s, r.score) for m, s in rows
             if (r := solver.solve(Position.from_moves(m))).score != s]
    assert wrong == []
    for moves, _, cols in random.Random(24).sample([r for r in POSITIONS if len(r[0]) >= 14],
                                                   8):
        assert list(solver.analyze(Position.from_moves(moves)).scores) == cols, moves


def test_the_tree_does_not_grow_with_threads() -> None:
    """16 threads on this 2-core machine search at most twice the nodes of one thread, and
    share the work (the busiest thread searches well under the total): the guard of
    issue 22 that holds on any machine (docs/solver.md, "Parallel search")."""
    rows = load_pons("Test_L1_R2")[:30]  # (the old Lazy SMP: 5.8x here)
    nodes = {}
    busiest = 0
    for threads in (1, 16):
        solver = Solver(hash_mb=64, book=None, threads=threads)
        total = 0
        for moves, score in rows:
            r = solver.solve(Position.from_moves(moves))
            assert r.score == score, moves
            total += r.nodes
            if threads > 1:
                busiest += max(solver.last_stats.thread_nodes)
        nodes[threads] = total
    assert nodes[16] <= 2 * nodes[1], nodes
    assert busiest < 0.75 * nodes[16], (busiest, nodes)


def test_hammered_shared_table_gives_no_wrong_result() -> None:
    """Four threads on a tiny table: entries are evicted and rewritten by other threads
    all the time, yet no solve may come out wrong."""
    solver = Solver(hash_mb=1, book=None, threads=4)
    rows = random.Random(12).sample([r for r in POSITIONS if len(r[0]) >= 12], 120)
    rows += _pons("Test_L2_R2", 30, 13)
    helped = 0
    overwrites = 0
    wrong = []
    for moves, score, *_ in rows:
        res = solver.solve(Position.from_moves(moves))
        st = solver.last_stats
        assert st is not None and st.nodes == res.nodes
        helped += sum(1 for n in st.thread_nodes[1:] if n > 0)
        overwrites += st.overwrites
        if res.score != score:
            wrong.append((moves, score, res.score))
    assert wrong == []
    assert helped > 0 and overwrites > 0  # the helpers ran and the table was under pressure


def test_two_solvers_hammering_each_other_in_parallel() -> None:
    """Two multi-threaded solvers run at once in Python threads (the GIL is released)."""
    rows = random.Random(14).sample([r for r in POSITIONS if len(r[0]) >= 16], 60)
    wrong: list[tuple[str, int, int]] = []

    def run(part: list) -> None:
        s = Solver(hash_mb=1, book=None, threads=2)
        for moves, score, *_ in part:
            got = s.solve(Position.from_moves(moves)).score
            if got != score:
                wrong.append((moves, score, got))

    ts = [threading.Thread(target=run, args=(rows[i::2],)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert wrong == []


def test_one_thread_is_deterministic() -> None:
    pos = Position.from_moves(_pons("Test_L1_R2", 1, 15)[0][0])
    a = Solver(hash_mb=16, book=None, threads=1).solve(pos)
    b = Solver(hash_mb=16, book=None, threads=1).solve(pos)
    assert (a.score, a.best_move, a.nodes) == (b.score, b.best_move, b.nodes)


def test_statistics_are_consistent() -> None:
    s = Solver(hash_mb=16, book=None)
    res = s.solve(Position.from_moves("444333"))
    st = s.last_stats
    assert st.nodes == res.nodes == st.thread_nodes[0]
    assert 0 < st.hits <= st.probes and st.overwrites <= st.stores
    assert 0 < st.first_cuts <= st.cuts
    assert 0.5 < st.first_cut_rate <= 1.0  # move ordering finds the cutoff first mostly
    assert len(st.thread_speeds()) == 1 and st.thread_speeds()[0] > 0


def test_stop_with_two_threads() -> None:
    s = Solver(hash_mb=16, book=None, threads=2)
    timer = threading.Timer(0.2, s.stop)
    timer.start()
    with pytest.raises(SearchAborted):
        s.solve(Position.from_moves("4453"))
    timer.join()
    moves, score = _pons("Test_L2_R2", 1, 16)[0]
    assert s.solve(Position.from_moves(moves)).score == score


def test_stop_an_analysis_with_children_on_two_threads() -> None:
    s = Solver(hash_mb=16, book=None, threads=2)
    timer = threading.Timer(0.2, s.stop)
    timer.start()
    with pytest.raises(SearchAborted):
        s.analyze(Position())
    timer.join()
    moves, _, cols = next(r for r in POSITIONS if len(r[0]) == 12)
    assert list(s.analyze(Position.from_moves(moves)).scores) == cols


@pytest.mark.parametrize("threads", [0, -1, 65, 2.5])
def test_absurd_thread_counts_are_refused(threads) -> None:
    with pytest.raises(ValueError, match="threads"):
        Solver(hash_mb=1, book=None, threads=threads)


def test_cli_solve_threads_and_stats() -> None:
    moves, score = _pons("Test_L2_R2", 1, 17)[0]
    r = runner.invoke(app, ["solve", moves, "--no-book", "--threads", "2", "--stats"])
    assert r.exit_code == 0, r.output
    fields = r.stdout.split()  # a cold numba cache adds a note on stderr
    assert len(fields) == 4 and fields[0] == moves and int(fields[1]) == score
    assert int(fields[2]) > 0 and int(fields[3]) >= 0


def test_cli_verbose_stats_and_bad_threads() -> None:
    moves, _ = _pons("Test_L2_R2", 1, 18)[0]
    r = runner.invoke(app, ["solve", moves, "--no-book", "-t", "1", "--verbose-stats"])
    assert r.exit_code == 0, r.output
    text = _all_output(r)
    assert "first-move cutoffs" in text and "hits" in text
    r = runner.invoke(app, ["solve", moves, "--threads", "0"])
    assert r.exit_code != 0 and "--threads 0" in _all_output(r)


def _all_output(r) -> str:
    try:
        return r.output + r.stderr
    except ValueError:  # stderr mixed into output
        return r.output


@pytest.mark.parametrize("threads", [1, 2])
def test_mirrored_entries_give_best_moves_of_the_right_side(threads: int) -> None:
    """Below 14 discs a position and its mirror image share table entries (the stored best
    move is mirrored); the best move reported must be a best move of each of them."""
    solver = Solver(hash_mb=16, book=None, threads=threads)
    rows = random.Random(19).sample([r for r in POSITIONS if 11 <= len(r[0]) < 14], 4)
    for moves, score, cols in rows:
        for pos, expected in ((Position.from_moves(moves), cols),
                              (Position.from_moves(moves).mirror(), cols[::-1])):
            res = solver.solve(pos)
            assert res.score == score
            assert expected[res.best_move] == score, (pos.digits(), res.best_move)


@pytest.mark.parametrize(("size", "compiled_before", "said"), [
    ("7x6", False, "c4tui: first start: compiling the engine (later runs load it"),
    ("7x6", True, "c4tui: compiling the engine (later runs load it"),
    ("5x4", True, "c4tui: compiling for 5x4 (later runs load it"),
])
def test_solve_says_what_a_cold_start_compiles(tmp_path, size, compiled_before, said) -> None:
    """A cold numba cache: `c4tui solve` says at once that it compiles, in the app's words
    ("first start" only when nothing was ever compiled here, a new size named). The process
    is then killed: the compile itself is the cold-start tests' subject (half a minute)."""
    import json
    import os
    import signal
    import subprocess
    import sys

    cache = tmp_path / "c4tui-cache"  # the compile history ("ever compiled here")
    cache.mkdir()
    if compiled_before:
        (cache / "compile-times.json").write_text(json.dumps({"7x6": {"negamax": 30.0}}))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), C4TUI_BOOK="none",
               C4TUI_CACHE_DIR=str(cache), C4TUI_SIZE=size)
    proc = subprocess.Popen([sys.executable, "-m", "c4tui", "solve", "44"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()  # the first thing it says, before any compiling
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    assert first.startswith(said), first


def test_solve_says_nothing_of_compiling_when_warm() -> None:
    import os
    import subprocess
    import sys

    moves = "2252576253462244111563365343671351441"
    cmd = [sys.executable, "-m", "c4tui", "solve", moves]
    warm = dict(os.environ, C4TUI_BOOK="none")
    # the first run fills the run's shared cache if no test did yet; the second loads it
    runs = [subprocess.run(cmd, env=warm, capture_output=True, text=True, timeout=600)
            for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
        assert r.stdout.split() == [moves, "-1"]
    assert "compiling" not in runs[1].stderr


def test_default_threads_follow_the_usable_cores_or_the_environment(monkeypatch) -> None:
    from c4tui.engine.seam import MAX_THREADS, THREADS_ENV, default_threads, usable_cores

    monkeypatch.delenv(THREADS_ENV, raising=False)
    assert default_threads() == usable_cores() >= 1
    monkeypatch.setenv(THREADS_ENV, "3")
    assert default_threads() == 3
    for bad in ("0", str(MAX_THREADS + 1), "abc", "2.5", "9" * 5000):
        monkeypatch.setenv(THREADS_ENV, bad)
        with pytest.raises(ValueError, match=THREADS_ENV):
            default_threads()


def test_a_bad_threads_environment_is_one_line_before_any_command() -> None:
    import os
    import subprocess
    import sys

    env = dict(os.environ, C4TUI_THREADS="lots")
    r = subprocess.run([sys.executable, "-m", "c4tui", "solve", "4453"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "c4tui: C4TUI_THREADS='lots': expected a thread count from 1 to 64\n"


def test_scaling_thread_counts() -> None:
    from c4tui.cli.bench.scaling import thread_counts

    assert thread_counts(1) == [1, 2]
    assert thread_counts(2) == [1, 2, 4]
    assert thread_counts(3) == [1, 2, 4, 6]
    assert thread_counts(64) == [1, 2, 4, 8, 16, 32, 64]
    assert thread_counts(2, 16) == [1, 2, 4, 8, 16]
    assert thread_counts(2, 1) == [1]


def test_bench_scaling_on_a_set() -> None:
    """`c4tui bench --scaling` on three positions: one row per thread count (1, 2, 4 on
    two cores), growth and speed-up against one thread, and the closing line."""
    from c4tui.engine.seam import usable_cores

    from c4tui.cli.bench.scaling import thread_counts

    r = runner.invoke(app, ["bench", "--scaling", "--set", "Test_L1_R2", "-n", "3"])
    assert r.exit_code == 0, r.output
    rows = [line.split() for line in r.stdout.splitlines()
            if line.split() and line.split()[0].isdigit() and "x" in line]
    assert [int(row[0]) for row in rows] == thread_counts(usable_cores())
    assert rows[0][3:5] == ["1.00x", "1.00x"]
    assert "worst growth" in r.stdout and "best speed-up" in r.stdout
    r = runner.invoke(app, ["bench", "--scaling", "--set", "no-such-set"])
    assert r.exit_code == 2 and "--set no-such-set" in _all_output(r)
