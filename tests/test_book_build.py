"""The book builder: exact scores, checkpoints, resume after interruption, workers.

Opening positions take the exact solver seconds each, so these tests build "subtree books":
every position with 34 discs below a 30-disc root (42 positions), solved by a small
pure-Python reference solver (exact minimax with memo) or by the engine's solver.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from c4tui.book import load, make_book, plies_mask
from c4tui.book.builder import BuildError, build_book
from c4tui.book.checkpoint import Checkpoint
from c4tui.book.enumeration import enumerate_positions
from c4tui.book.format import NO_SCORE, encode
from c4tui.engine.board.geometry import BOARD, BOTTOM, SIZE, WIDTH, column_bits
from c4tui.engine.board.position import Position, winning_squares
from waiting import children, wait_until

ROOT = "536651266724315115167475513262"
PLY = 34
HERE = Path(__file__).resolve().parent


class RefResult:
    def __init__(self, score: int, nodes: int) -> None:
        self.score, self.nodes = score, nodes


class RefSolver:
    """Exact minimax with a memo: slow, obviously right, fine for 8 empty squares."""

    def __init__(self, hash_mb: int, delay: float = 0.0, fail_after: int | None = None):
        self.memo: dict[tuple[int, int], int] = {}
        self.delay, self.fail_after, self.calls = delay, fail_after, 0

    def _neg(self, cur: int, mask: int, ply: int) -> int:
        if ply == SIZE:
            return 0
        hit = self.memo.get((cur, mask))
        if hit is not None:
            return hit
        playable = (mask + BOTTOM) & BOARD
        if winning_squares(cur, mask) & playable:
            best = (SIZE + 1 - ply) // 2
        else:
            best = -99
            while playable:
                move = playable & -playable
                playable ^= move
                best = max(best, -self._neg(cur ^ mask, mask | move, ply + 1))
        self.memo[(cur, mask)] = best
        return best

    def solve(self, pos: Position, need_move: bool = True) -> RefResult:
        self.calls += 1
        if self.fail_after is not None and self.calls > self.fail_after:
            raise KeyboardInterrupt  # as if Ctrl-C arrived in the middle of a block
        if self.delay:  # the work of a real solve: a build long enough to interrupt
            time.sleep(self.delay)
        n = len(self.memo)
        return RefResult(self._neg(pos.current, pos.mask, pos.ply), len(self.memo) - n + 1)


def ref_factory(hash_mb: int) -> RefSolver:
    return RefSolver(hash_mb)


def slow_ref_factory(hash_mb: int) -> RefSolver:
    return RefSolver(hash_mb, delay=0.15)


@pytest.fixture(scope="module")
def reference_book():
    e = enumerate_positions(PLY, ROOT)
    ref = RefSolver(1)
    scores = [ref.solve(Position.from_moves(m)).score for m in e.moves]
    return make_book(e.keys, scores, plies_mask([PLY]))


def _build(tmp_path, name="b.c4b", **kw):
    kw.setdefault("workers", 0)
    kw.setdefault("block_size", 4)
    kw.setdefault("solver_factory", ref_factory)
    return build_book(PLY, tmp_path / name, root=ROOT, progress=False, **kw)


def test_build_writes_exact_book(tmp_path, reference_book):
    rep = _build(tmp_path)
    assert rep.finished and not rep.interrupted and rep.solved == rep.total == 42
    book = load(tmp_path / "b.c4b")
    assert book.ply_list == (PLY,)
    assert np.array_equal(book.keys, reference_book.keys)
    assert np.array_equal(book.scores, reference_book.scores)
    assert set(book.scores.tolist()) - {0}  # not all draws: the comparison means something


def test_resume_after_limit_and_after_interrupt(tmp_path, reference_book):
    # 1) stop after two blocks (8 positions): nothing written but the checkpoint
    rep = _build(tmp_path, limit=8)
    assert not rep.finished and rep.solved == 8 and not (tmp_path / "b.c4b").exists()
    ck = Checkpoint.load(rep.checkpoint)
    assert ck.solved == 8 and np.all(ck.scores[:8] != NO_SCORE) and ck.seconds[:2].min() > 0

    # 2) "Ctrl-C" in the middle of the 3rd block of this run: the partial block is dropped
    def interrupting(hash_mb):
        return RefSolver(hash_mb, fail_after=10)

    rep = _build(tmp_path, solver_factory=interrupting)
    assert rep.interrupted and not rep.finished
    assert rep.solved_before == 8 and rep.solved == 16  # blocks 3 and 4, not the 5th
    ck = Checkpoint.load(rep.checkpoint)
    assert ck.pending_blocks()[0] == 4 and np.all(ck.scores[16:] == NO_SCORE)

    # 3) resume to the end: same book as one uninterrupted build
    rep = _build(tmp_path)
    assert rep.finished and rep.solved_before == 16 and rep.run_positions == 42 - 16
    assert encode(load(tmp_path / "b.c4b")) == encode(reference_book)


def test_checkpoint_of_another_build_is_refused(tmp_path):
    _build(tmp_path, limit=4)
    ck = tmp_path / "b.c4ck"
    with pytest.raises(BuildError, match="another build"):
        build_book(
            PLY - 1,
            tmp_path / "b.c4b",
            root=ROOT,
            workers=0,
            progress=False,
            checkpoint=ck,
            solver_factory=ref_factory,
        )
    ck.write_bytes(ck.read_bytes()[:-7])
    with pytest.raises(BuildError, match="corrupt|truncated"):
        _build(tmp_path)


def test_checkpoint_write_is_atomic(tmp_path, monkeypatch):
    _build(tmp_path, limit=4)
    ck_path = tmp_path / "b.c4ck"
    before = ck_path.read_bytes()

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    ck = Checkpoint.load(ck_path)
    ck.scores[:] = 0
    with pytest.raises(OSError):
        ck.save(ck_path)
    assert ck_path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.c4ck"]  # no temp file left


def test_worker_processes_and_sigterm_resume(tmp_path, reference_book):
    """A local Dask cluster of two worker processes; SIGTERM mid-build leaves a consistent
    checkpoint; the resumed build (in this process) finishes it. More Dask cases in
    tests/test_book_dask.py."""
    out = tmp_path / "w.c4b"
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "import test_book_build as t;"
        "from c4tui.book.builder import build_book;"
        "r = build_book(t.PLY, sys.argv[2], root=t.ROOT, workers=2, block_size=2,"
        " checkpoint_every=0.0, progress=False, solver_factory=t.slow_ref_factory);"
        "sys.exit(3 if r.interrupted else 0)"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(HERE), str(out)])
    ck_path = out.with_suffix(".c4ck")
    # the checkpoint is always readable (atomic writes); the process ending first fails
    wait_until(lambda: ck_path.exists() and Checkpoint.load(ck_path).solved >= 6, 120,
               "6 positions in the checkpoint", proc=proc)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 3
    ck = Checkpoint.load(ck_path)
    assert 6 <= ck.solved < 42 and not out.exists()
    done = ck.scores != NO_SCORE
    want = {
        k: s
        for k, s in zip(reference_book.keys.tolist(), reference_book.scores.tolist(), strict=True)
    }
    keys = enumerate_positions(PLY, ROOT).keys
    assert [want[k] for k in keys[done].tolist()] == ck.scores[done].tolist()

    rep = build_book(PLY, out, root=ROOT, workers=0, progress=False, solver_factory=ref_factory)
    assert rep.finished and rep.solved_before == ck.solved
    assert encode(load(out)) == encode(reference_book)


def test_engine_solver_builds_the_same_book(tmp_path, reference_book):
    """The real solver (the engine's, the default) in this process; on Dask clusters in
    tests/test_book_dask.py, which compares their books with this one's bytes."""
    rep = build_book(PLY, tmp_path / "e.c4b", root=ROOT, workers=0, block_size=8, hash_mb=4,
                     progress=False)
    assert rep.finished
    assert encode(load(tmp_path / "e.c4b")) == encode(reference_book)


def test_cli_build_info_verify(tmp_path, reference_book):
    from typer.testing import CliRunner

    from c4tui.cli import app

    runner = CliRunner()
    out = tmp_path / "c.c4b"
    r = runner.invoke(
        app,
        [
            "book",
            "build",
            "--plies",
            str(PLY),
            "--root",
            ROOT,
            "--workers",
            "0",
            "--out",
            str(out),
            "--no-progress",
            "--hash",
            "4",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "book written" in r.output
    r = runner.invoke(app, ["book", "info", str(out)])
    assert r.exit_code == 0 and "42" in r.output and reference_book.checksum_hex in r.output
    r = runner.invoke(app, ["book", "info", str(out.with_suffix(".c4ck"))])
    assert r.exit_code == 0 and "42/42" in r.output
    r = runner.invoke(app, ["book", "verify", str(out), "--sample", "10", "--seed", "1"])
    assert r.exit_code == 0 and "10 agree, 0 differ" in r.output, r.output
    first = enumerate_positions(PLY, ROOT).moves[0]
    want = reference_book.get(Position.from_moves(first))
    r = runner.invoke(app, ["book", "lookup", first, "--book-file", str(out)])
    assert r.exit_code == 0 and f"{want:+d}" in r.output, r.output
    r = runner.invoke(app, ["book", "lookup", ROOT, "--book-file", str(out)])
    assert r.exit_code == 2 and "not in" in r.output
    # a damaged book: one error line, exit code 1
    out.write_bytes(out.read_bytes()[:-1])
    r = runner.invoke(app, ["book", "info", str(out)])
    assert r.exit_code == 1 and "truncated" in r.output


def test_derive_earlier_plies(tmp_path, reference_book):
    """Plies 30-33 below the root follow from the 34-disc book; checked by the reference."""
    from c4tui.book import BookError
    from c4tui.book.derive import derive

    full = derive(reference_book, 30, ROOT)
    assert full.ply_list == (30, 31, 32, 33, 34)
    ref = RefSolver(1)
    checked = 0
    for ply in range(30, 34):
        for moves in enumerate_positions(ply, ROOT).moves:
            p = Position.from_moves(moves)
            assert full.get(p) == ref.solve(p).score, moves
            checked += 1
    assert checked > 10 and len(full) == len(reference_book) + checked
    # an unfinished book cannot be derived from
    partial = make_book(reference_book.keys[1:], reference_book.scores[1:], reference_book.plies)
    with pytest.raises(BookError, match="missing"):
        derive(partial, 30, ROOT)


def test_engine_falls_back_without_a_usable_book(tmp_path, monkeypatch, reference_book):
    """Corrupt or missing default book: the solver still gives exact scores (no book)."""
    from c4tui.book import load_default
    from c4tui.engine.solver.solver import Solver

    bad = tmp_path / "bad.c4b"
    bad.write_bytes(encode(reference_book)[:-1])
    pos = Position.from_moves(ROOT)
    want = RefSolver(1).solve(pos).score
    try:
        for target in (bad, tmp_path / "missing.c4b"):
            monkeypatch.setenv("C4TUI_BOOK", str(target))
            assert Solver(hash_mb=4, book=load_default(reload=True)).solve(pos).score == want
    finally:
        monkeypatch.delenv("C4TUI_BOOK", raising=False)
        load_default(reload=True)


def test_second_build_on_the_same_checkpoint_is_refused(tmp_path):
    from c4tui.book.builder import _exclusive

    with _exclusive(tmp_path / "b.c4ck"):
        with pytest.raises(BuildError, match="another build"):
            _build(tmp_path)
    assert _build(tmp_path).finished  # the lock is gone with its holder


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_killed_build_leaves_no_workers(tmp_path):
    """kill -9 of a build on a local Dask cluster: its worker processes (children of the
    build, spawned) end with it."""
    out = tmp_path / "k.c4b"
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "import test_book_build as t;"
        "from c4tui.book.builder import build_book;"
        "build_book(t.PLY, sys.argv[2], root=t.ROOT, workers=2, block_size=2,"
        " progress=False, solver_factory=t.slow_ref_factory)"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(HERE), str(out)])
    workers = wait_until(lambda: w if len(w := spawned_workers(proc.pid)) == 2 else None,
                         60, "two worker processes", proc=proc)
    proc.kill()
    proc.wait()

    def alive() -> list[int]:  # a zombie is dead (its parent, gone, cannot reap it)
        return [w for w in workers if _state(w) not in ("Z", "gone")]

    wait_until(lambda: not alive(), 20, "the workers to end with the build")


def spawned_workers(pid: int) -> set[int]:
    """The Dask worker processes that ``pid`` (a build on a local cluster) spawned."""
    return {k for k in children(pid) if "spawn_main" in _cmdline(k)}


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "gone"


_USES_BOOK = """
import sys, numpy as np
sys.path.insert(0, sys.argv[1])
import test_book_build as t
from c4tui.book import make_book
from c4tui.book.enumeration import enumerate_positions
from c4tui.engine.board.position import Position
from c4tui.engine.solver.solver import Solver

e = enumerate_positions(t.PLY, t.ROOT)
ref = t.RefSolver(1)
true = make_book(e.keys, [ref.solve(Position.from_moves(m)).score for m in e.moves],
                 1 << t.PLY)
false = make_book(true.keys, np.where(true.scores > 0, -1, 1), true.plies)
moves = [m for ply in (30, 31, 32) for m in enumerate_positions(ply, t.ROOT).moves]
truth = [ref.solve(Position.from_moves(m)).score for m in moves]
for name, book in (("true", true), ("false", false)):
    s = Solver(hash_mb=4, book=book)
    got = [s.solve(Position.from_moves(m)).score for m in moves]
    print(name, "same" if got == truth else "differs", flush=True)
"""


def test_engine_uses_the_book():
    """The solver answers from the book, also below the root: with the true book the scores
    are unchanged, with a book of false scores some change. Run in a subprocess so that a
    crash inside a kernel fails this test instead of killing the test run."""
    r = subprocess.run(
        [sys.executable, "-c", _USES_BOOK, str(HERE)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr.strip().splitlines()[:3]}"
    assert r.stdout.split() == ["true", "same", "false", "differs"]


def test_bench_book_compares_with_and_without(tmp_path, reference_book):
    """`c4tui bench --book-file`: positions within the book's plies, solved with and without it,
    every score checked against an independent one (the reference solver's)."""
    from c4tui.book import save
    from typer.testing import CliRunner

    from c4tui.cli import app

    book_path = tmp_path / "ref.c4b"
    save(reference_book, book_path)
    ref = RefSolver(1)
    e = enumerate_positions(PLY, ROOT)
    rows = [(m, reference_book.get(Position.from_moves(m))) for m in e.moves[:6]]
    shallower = [ROOT + e.moves[k][len(ROOT):len(ROOT) + 2] for k in (0, 20)]
    rows += [(m, ref.solve(Position.from_moves(m)).score) for m in shallower]
    rows.append((e.moves[0] + "1", 0))  # 35 discs: beyond the book's plies, left out
    (tmp_path / "pons").mkdir()
    (tmp_path / "pons" / "Small").write_text("".join(f"{m} {s}\n" for m, s in rows))
    args = ["bench", "--book-file", str(book_path), "--data", str(tmp_path / "pons"),
            "--set", "Small", "-t", "1", "--hash", "4"]
    r = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    row = next(ln for ln in r.output.splitlines() if "Small" in ln and "│" in ln)
    cells = [c.strip() for c in row.split("│") if c.strip()]
    assert cells[1] == "8"  # 6 + 2 positions within 34 discs
    assert cells[-1] == "0"  # no wrong score with or without the book
    assert "empty board: skipped" in r.output
    # The analyses by disc count: 2 positions with 32 discs and 6 with 34, none wrong.
    by_discs = {c[0]: c for c in ([x.strip() for x in ln.split("│") if x.strip()]
                                  for ln in r.output.splitlines() if ln.count("│") == 7)}
    assert by_discs["32"][1] == "2" and by_discs["34"][1] == "6", r.output
    assert by_discs["32"][-1] == by_discs["34"][-1] == "0"
    r = CliRunner().invoke(app, ["bench", "--book-file", str(tmp_path / "missing.c4b")])
    assert r.exit_code == 2 and "--book-file" in r.output and "Traceback" not in r.output


def test_solve_names_a_best_move_for_book_positions(reference_book):
    """A book hit at the root gives the score; the move must still achieve it (checked by
    the independent reference solver on the child)."""
    from c4tui.engine.solver.solver import Solver

    solver = Solver(hash_mb=4, book=reference_book)
    ref = RefSolver(1)
    for moves in enumerate_positions(PLY, ROOT).moves:
        pos = Position.from_moves(moves)
        r = solver.solve(pos)
        assert r.score == reference_book.get(pos)
        if pos.is_winning_move(r.best_move):
            continue
        child = pos.copy()
        child.play(r.best_move)
        assert -ref.solve(child).score == r.score, (moves, r)


def parent_floor(book, pos: Position) -> int | None:
    """The lower bound that ``pos``'s parents in ``book`` give its score (a parent: ``pos``
    less a top disc of the side that just moved, which scores at least minus ``pos``), or
    None when no parent is in the book. Computed from the book's public lookup, to choose
    positions; the solver's own floors are checked by its exact scores."""
    theirs = pos.current ^ pos.mask
    floors = []
    for col in range(WIDTH):
        if top := pos.mask & column_bits(col):
            top = 1 << (top.bit_length() - 1)
            if theirs & top and (s := book.lookup(theirs ^ top, pos.mask ^ top)) is not None:
                floors.append(-s)
    return max(floors, default=None)


@pytest.mark.parametrize("threads", [1, 2])
def test_analyze_of_book_positions_uses_parent_scores(reference_book, threads):
    """Analysing a book position solves its children (one ply past the book), each from a
    floor its book parents give (a parent q of a child scores at least minus the child);
    the floors must be sound and the column scores exact (checked by the independent
    reference solver), with one thread and with the children spread over two."""
    from c4tui.engine.solver.solver import Solver

    solver = Solver(hash_mb=4, book=reference_book, threads=threads)
    ref = RefSolver(1)
    raised = 0
    for moves in enumerate_positions(PLY, ROOT).moves:
        pos = Position.from_moves(moves)
        cols = solver.analyze(pos).scores
        for c in range(7):
            if not pos.can_play(c):
                assert cols[c] is None
                continue
            child = pos.copy()
            child.play(c)
            if pos.is_winning_move(c):
                continue
            exact = ref.solve(child).score if not child.is_over else 0
            assert cols[c] == -exact, (moves, c)
            floor = parent_floor(reference_book, child)
            assert floor is None or floor <= exact
            raised += floor is not None  # a book parent gives one
        assert max(s for s in cols if s is not None) == reference_book.get(pos)
    assert raised > 0  # children with a floor were analysed: the scores above cover them


def test_floor_book_builds_the_next_ply_exactly(tmp_path, reference_book):
    """``--floor-book``: a book of PLY discs bounds the PLY+1 positions from below; the
    book built with it must equal the reference solver's scores, and solve() must still
    name a move achieving the score when the score is the floor itself."""
    from c4tui.book import save
    from c4tui.engine.solver.solver import Solver

    floor_path = tmp_path / "floor.c4b"
    save(reference_book, floor_path)
    rep = build_book(PLY + 1, tmp_path / "next.c4b", root=ROOT, progress=False, workers=0,
                     block_size=8, floor_book=floor_path)
    assert rep.finished
    nxt = load(tmp_path / "next.c4b")
    ref = RefSolver(1)
    solver = Solver(hash_mb=4, book=reference_book)
    at_floor = 0
    for moves in enumerate_positions(PLY + 1, ROOT).moves:
        pos = Position.from_moves(moves)
        exact = ref.solve(pos).score
        assert nxt.get(pos) == exact, moves
        r = solver.solve(pos)
        assert r.score == exact
        at_floor += parent_floor(reference_book, pos) == exact
        if not pos.is_winning_move(r.best_move):
            child = pos.copy()
            child.play(r.best_move)
            assert -ref.solve(child).score == exact, (moves, r)
    assert at_floor > 0  # the floor-is-the-score path was exercised


def test_floor_book_must_stop_below_the_built_ply(tmp_path, reference_book):
    from c4tui.book import save

    save(reference_book, tmp_path / "floor.c4b")
    with pytest.raises(BuildError, match="floor book must stop below"):
        build_book(PLY, tmp_path / "x.c4b", root=ROOT, progress=False, workers=0,
                   floor_book=tmp_path / "floor.c4b")
    (tmp_path / "bad.c4b").write_bytes(b"junk")
    with pytest.raises(BuildError, match="--floor-book"):
        build_book(PLY + 1, tmp_path / "x.c4b", root=ROOT, progress=False, workers=0,
                   floor_book=tmp_path / "bad.c4b")


def test_analyze_one_ply_above_the_book_searches_nothing(reference_book):
    """Every child of a position one disc short of the book's plies is a book entry (or
    wins at once): the analysis answers from the book without searching a node (it used
    to look for a best move of each child, which an analysis does not need)."""
    from c4tui.engine.solver.solver import Solver

    solver = Solver(hash_mb=4, book=reference_book)
    ref = RefSolver(1)
    parents = sorted({m[:-1] for m in enumerate_positions(PLY, ROOT).moves})[:5]
    for moves in parents:
        pos = Position.from_moves(moves)
        res = solver.analyze(pos)
        assert res.nodes == 0, moves
        for c, s in enumerate(res.scores):
            if s is not None and not pos.is_winning_move(c):
                child = pos.copy()
                child.play(c)
                assert s == -ref.solve(child).score


def test_crosscheck_of_a_derived_book_checks_its_8_disc_entries(tmp_path, monkeypatch):
    """`c4tui book crosscheck` on a book with several plies compares only the entries with
    8 discs (the database's), and reports a disagreement with exit status 1. The database
    is replaced by a stand-in built from the same scores (bitbully-databases is a bench
    extra); one entry is flipped in it."""
    import types

    from c4tui.book import save
    from c4tui.book.crosscheck import _board
    from c4tui.book.keys import key_to_words
    from typer.testing import CliRunner

    from c4tui.cli import app

    e8 = enumerate_positions(8, "44444")
    e7 = enumerate_positions(7, "44444")
    keys = np.concatenate([e8.keys[:40], e7.keys[:10]])
    order = np.argsort(keys)
    scores = np.array([(i % 5) - 2 for i in range(50)], dtype=np.int8)
    book = make_book(keys[order], scores[order], plies_mask([7, 8]))
    save(book, tmp_path / "d.c4b")
    truth = {}
    for k, s in zip(book.keys.tolist(), book.scores.tolist(), strict=True):
        cur, mask = key_to_words(int(k))
        if bin(mask).count("1") == 8:
            truth[str(_board(cur, mask))] = (s > 0) - (s < 0)
    asked = []

    class FakeDB:
        def __init__(self, name):
            assert name == "8-ply"

        def get_book_value(self, board):
            asked.append(board)
            return truth[str(board)]

    monkeypatch.setitem(sys.modules, "bitbully_databases",
                        types.SimpleNamespace(BitBullyDatabases=FakeDB))
    r = CliRunner().invoke(app, ["book", "crosscheck", str(tmp_path / "d.c4b")])
    assert r.exit_code == 0, r.output
    assert "40 entries with 8 discs" in r.output and "40 agree, 0 differ" in r.output
    assert len(asked) == 40
    first = next(iter(truth))
    truth[first] = 1 - truth[first] if truth[first] != 1 else 0
    r = CliRunner().invoke(app, ["book", "crosscheck", str(tmp_path / "d.c4b")])
    assert r.exit_code == 1 and "MISMATCH" in r.output and "39 agree, 1 differ" in r.output


def test_shipped_book_agrees_with_the_independent_scores():
    """The shipped default book (plies 0-9) against positions.txt, scored by independent
    solvers: every position with at most 9 discs has the book's score, and with the book
    the solver gives every column score of those with at most 8 discs (children in the
    book) and of the empty board without searching a node."""
    from c4tui.book import default_path, load, load_default
    from c4tui.engine.solver.solver import Solver
    from testdata import load_positions

    book = load(default_path())
    assert book.ply_list == tuple(range(10)) and len(book) == 353_893
    in_use = load_default(reload=True)  # the books in use: this one and the 12-ply database
    assert in_use is not None and in_use.ply_list == (*range(10), 12)
    rows = [r for r in load_positions() if len(r[0]) <= 9]
    assert len(rows) >= 175
    solver = Solver(hash_mb=4, book=in_use)
    for moves, score, cols in rows:
        pos = Position.from_moves(moves)
        assert book.get(pos) == score == in_use.get(pos), moves
        if len(moves) <= 8:
            res = solver.analyze(pos)
            assert list(res.scores) == cols and res.nodes == 0, moves
    empty = solver.analyze(Position())
    assert list(empty.scores) == [-2, -1, 0, 1, 0, -1, -2] and empty.nodes == 0
