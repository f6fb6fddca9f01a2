"""``c4tui bench --book``: what the opening book buys, with and without it on the same positions.

Issue 5's acceptance: on the positions of Test_L1_R2 and Test_L1_R3 with at most as many
discs as the book holds, the mean time with the book is at least 20x lower than without;
and ``solve --analyze`` of the empty board and of any position within the book's plies
takes under a second of search. Both solvers check every score against the data.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..errors import fail
from ..options import given
from .sets import load_set

BOOK_SETS = ("Test_L1_R2", "Test_L1_R3")


def _load_book(book_arg: str):
    from c4tui import book as bookpkg

    path = Path(book_arg)
    if book_arg == "default":
        default = bookpkg.default_path()
        if default is None:
            fail("--book-file default: the default book is disabled (C4TUI_BOOK=none)")
        path = default
    if not path.is_file():
        fail(f"--book-file {book_arg}: no such book file")
    try:
        return bookpkg.load(path)
    except (bookpkg.BookError, OSError) as exc:
        fail(f"--book-file {book_arg}: {exc}")


def _positions(directory: Path, max_ply: int) -> list[tuple[str, int, list[int | None]]]:
    """Rows of positions.txt (beside the Pons sets) with at most ``max_ply`` discs."""
    from .analysis import read_positions

    path = directory.parent / "positions.txt"
    if not path.is_file():
        return []
    return [r for r in read_positions(path) if len(r[0]) <= max_ply]


def bench_book(console: Console, book_arg: str, sets: list[str], count: int,
               hash_mb: int | None, threads: int, directory: Path) -> None:
    """Solve the sets' positions within the book's plies with and without the book."""
    from c4tui.engine.board.position import Position
    from c4tui.engine.solver.solver import Solver

    bk = _load_book(book_arg)
    max_ply = bk.max_ply
    # Three solvers, each with its own table: the book answering a score (what
    # `c4tui solve` prints), the book with a best move as well (a book entry holds no move:
    # finding one searches the children, one disc past the book), and no book.
    size = given(hash_mb=hash_mb)  # None: the solver's default
    with_book = Solver(book=bk, threads=threads, **size)
    with_move = Solver(book=bk, threads=threads, **size)
    without = Solver(book=None, threads=threads, **size)
    hash_mb = without.table.size_bytes >> 20
    warm = Position.from_moves("2252576253462244111563365343671351441")
    for s in (with_book, with_move, without):
        s.solve(warm)  # load the kernels before timing
    console.print(f"book: {len(bk):,} positions with {'/'.join(map(str, bk.ply_list))} discs, "
                  f"checksum {bk.checksum_hex[:16]}", soft_wrap=True)

    table = Table(title=f"c4tui bench --book: positions with at most {max_ply} discs, "
                        f"{hash_mb} MB, {threads} thread(s), table kept across a set")
    for col in ("set", "n", "book ms", "book nodes", "book+move ms", "no book ms",
                "no book nodes", "time saved ×", "with move ×", "wrong"):
        table.add_column(col, justify="right", no_wrap=True)
    for name in sets:
        rows = [r for r in load_set(directory, name, 10**9) if len(r[0]) <= max_ply][:count]
        if not rows:
            console.print(f"{name}: no position with at most {max_ply} discs", style="yellow")
            continue
        for s in (with_book, with_move, without):
            s.clear()
        tb: list[float] = []
        tm: list[float] = []
        tn: list[float] = []
        nb: list[int] = []
        nn: list[int] = []
        wrong = 0
        for moves, expected in rows:
            pos = Position.from_moves(moves)
            r = with_book.solve(pos, need_move=False)
            tb.append(r.micros / 1e3)
            nb.append(r.nodes)
            wrong += r.score != expected
            r = with_move.solve(pos)
            tm.append(r.micros / 1e3)
            wrong += r.score != expected or not pos.can_play(r.best_move)
            r = without.solve(pos, need_move=False)
            tn.append(r.micros / 1e3)
            nn.append(r.nodes)
            wrong += r.score != expected
        mb, mm, mn = statistics.fmean(tb), statistics.fmean(tm), statistics.fmean(tn)
        table.add_row(name, str(len(rows)), f"{mb:.3f}", f"{statistics.fmean(nb):,.0f}",
                      f"{mm:.3f}", f"{mn:.3f}", f"{statistics.fmean(nn):,.0f}",
                      f"{mn / max(mb, 1e-6):,.0f}", f"{mn / max(mm, 1e-6):,.0f}", str(wrong))
        console.print(f"{name}: done", style="dim")
    console.print(table)

    # --analyze with the book: the empty board and every scored position within its plies.
    if min(bk.ply_list) <= 8:
        t0 = time.perf_counter()
        cs = with_book.analyze(Position())
        dt = time.perf_counter() - t0
        console.print(f"empty board, all seven columns with the book: {list(cs.scores)} in "
                      f"{dt * 1000:.1f} ms ({cs.nodes:,} nodes)")
    else:  # a subtree book (tests): the empty board would be a full search
        console.print("empty board: skipped (the book has no position with 8 discs or fewer)")
    # Every position within the book's plies: positions.txt (column scores checked) and
    # the sets' (the best column checked against the position's score), by disc count.
    checks: list[tuple[str, int, list[int | None] | None]] = [
        (m, sc, cols) for m, sc, cols in _positions(directory, max_ply)]
    for name in sets:
        checks += [(m, sc, None) for m, sc in load_set(directory, name, 10**9)
                   if len(m) <= max_ply]
    by_ply: dict[int, list[float]] = {}
    wrong_by: dict[int, int] = {}
    for moves, score, cols in checks:
        t0 = time.perf_counter()
        cs = with_book.analyze(Position.from_moves(moves))
        by_ply.setdefault(len(moves), []).append(time.perf_counter() - t0)
        best = max(x for x in cs.scores if x is not None)
        bad = best != score or (cols is not None and list(cs.scores) != cols)
        wrong_by[len(moves)] = wrong_by.get(len(moves), 0) + bad
    if by_ply:
        t = Table(title="solve --analyze with the book (positions.txt and the sets), "
                        "by discs on the board")
        for col in ("discs", "n", "mean ms", "max ms", "over 1 s", "wrong"):
            t.add_column(col, justify="right", no_wrap=True)
        for ply in sorted(by_ply):
            ts = by_ply[ply]
            t.add_row(str(ply), str(len(ts)), f"{1000 * statistics.fmean(ts):.1f}",
                      f"{1000 * max(ts):.1f}", str(sum(x > 1.0 for x in ts)),
                      str(wrong_by[ply]))
        console.print(t)
