"""Scores read from the books in Python (book/answer.py), and ``c4tui solve`` answering the
positions they decide before it loads numba."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from c4tui.book import load_default
from c4tui.book.answer import BookReader
from c4tui.engine.board.position import Position
from testdata import load_positions


@pytest.fixture(scope="module")
def reader() -> BookReader:
    assert load_default() is not None  # converts the 12-ply database on a fresh machine
    return BookReader()


def test_the_books_agree_with_the_independent_scores(reader):
    """Every position of positions.txt up to 12 discs is scored from the books, each
    column up to 11 discs, and all agree with the independent solvers' scores."""
    scored = columns = 0
    for moves, score, cols in load_positions():
        pos = Position.from_moves(moves)
        s, cs = reader.score(pos), reader.column_scores(pos)
        if pos.ply <= 12:
            assert s is not None, moves
        if pos.ply <= 11:
            assert cs is not None, moves
        if s is not None:
            scored += 1
            assert s == score, moves
        if cs is not None:
            columns += 1
            assert list(cs) == cols, moves
    assert scored >= 250 and columns >= 225


def test_what_the_books_leave_open(reader, monkeypatch):
    assert reader.score(Position.from_moves("4453624453624")) is None  # 13 discs
    assert reader.column_scores(Position.from_moves("445362445362")) is None  # children: 13
    early = Position.from_moves("4444")  # 4 discs: in our book, as the kernels read it
    assert reader.score(early) == load_default().get(early) is not None
    over = Position.from_moves("1212121")
    assert reader.score(over) is None and reader.column_scores(over) is None
    # without the database, 10-12 discs are left to the solver; our book still answers
    monkeypatch.setenv("C4TUI_DB12", "none")
    alone = BookReader()
    assert alone.score(Position.from_moves("133316733755")) is None  # 12 discs
    assert alone.score(Position.from_moves("11621637651")) is None  # 11 discs
    assert alone.score(Position.from_moves("445362445")) == reader.score(
        Position.from_moves("445362445"))


def test_a_damaged_book_answers_nothing(tmp_path, monkeypatch):
    """The reader never warns: it leaves a damaged book to the solver's loader."""
    bad = tmp_path / "bad.c4b"
    bad.write_bytes(b"C4BK" + bytes(100))
    monkeypatch.setenv("C4TUI_BOOK", str(bad))
    assert BookReader().score(Position.from_moves("4453")) is None
    monkeypatch.setenv("C4TUI_BOOK", "none")
    assert BookReader().score(Position.from_moves("4453")) is None


def _solve(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``c4tui solve ARGS`` in a new process; its last stdout line lists the numba modules
    loaded."""
    code = ("import sys\nfrom c4tui.cli.main import main\n"
            f"try:\n    main({['solve', *args]!r})\n"
            "except SystemExit as e:\n    code = e.code\n"
            "print(sorted(m for m in sys.modules if m == 'numba'))\nsys.exit(code)\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def test_solve_answers_book_positions_without_loading_numba():
    rows = [r for r in load_positions() if len(r[0]) <= 11][::25]  # 3 to 11 discs
    r = _solve(["-a", *(m for m, _, _ in rows)])
    assert r.returncode == 0, r.stderr
    *lines, loaded = r.stdout.splitlines()
    assert loaded == "[]", r.stdout  # the kernels were never needed
    assert len(lines) == len(rows) >= 9
    for line, (moves, _, cols) in zip(lines, rows, strict=True):
        assert line == " ".join([moves, *("-1000" if c is None else str(c) for c in cols)])


def test_solve_searches_what_the_books_leave_open():
    # 12 discs scored from the database, then a 13-disc position: the solver is loaded
    r = _solve(["--stats", "133316733755", "6272366777744"])
    assert r.returncode == 0, r.stderr
    first, second, loaded = r.stdout.splitlines()
    assert first.split()[:3] == ["133316733755", "-4", "0"]  # 0 nodes: from the books
    assert second.split()[:2] == ["6272366777744", "-2"] and int(second.split()[2]) > 0
    assert loaded == "['numba']"


def test_solve_with_a_damaged_book_warns_and_searches(tmp_path):
    bad = tmp_path / "bad.c4b"
    bad.write_bytes(b"C4BK" + bytes(100))
    r = _solve(["44536244536"], {"C4TUI_BOOK": str(bad)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "44536244536 -13"
    warnings = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(warnings) == 1 and "opening book unusable" in warnings[0], r.stderr
