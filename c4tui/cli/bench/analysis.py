"""Measurements of the analysis search: move accuracy and MILTON's self-play experiment.

``c4tui bench --accuracy`` prints the share of positions of ``tests/data/positions.txt``
where the chosen move is one of the exactly best (:func:`accuracy`); ``c4tui selfplay``
plays the self-play experiment (:func:`selfplay`); ``python -m
c4tui.cli.bench.analysis speed`` compares node rates with the exact solver.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from c4tui.engine.analysis.controller import SearchController
from c4tui.engine.board.geometry import WIDTH
from c4tui.engine.board.position import MOVE_CHARS, Position
from c4tui.engine.books.link import BookLike
from c4tui.engine.levels import best_among_ties
from c4tui.engine.seam import Limits, SearchOptions

DEFAULT_POSITIONS = Path(__file__).resolve().parents[3] / "tests" / "data" / "positions.txt"


@dataclass(frozen=True)
class AccuracyResult:
    correct: int
    total: int
    nodes: int
    seconds: float
    misses: tuple[str, ...]  #: move strings of the positions answered wrongly

    @property
    def share(self) -> float:
        return self.correct / self.total if self.total else 0.0


def read_positions(path: Path) -> list[tuple[str, int, list[int | None]]]:
    """``(moves, score, column scores)`` rows of a positions file (``x``: full column)."""
    rows = []
    for i, line in enumerate(path.read_text().splitlines()):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 2 + WIDTH:
            raise ValueError(f"{path}:{i + 1}: expected moves, score and {WIDTH} column scores")
        cols = [None if x == "x" else int(x) for x in parts[2:]]
        rows.append((parts[0], int(parts[1]), cols))
    return rows


def accuracy(limits: Limits, opts: SearchOptions, path: Path = DEFAULT_POSITIONS,
             sample: int = 1, progress: Callable[[int, int, int], None] | None = None,
             book: BookLike | None = None) -> AccuracyResult:
    """Share of positions (every ``sample``-th) where the search within ``limits`` picks
    an exactly best move (with ``book``, if ``opts.use_book``)."""
    rows = read_positions(path)[::sample]
    ctl = SearchController(book=book)
    correct = nodes = 0
    misses = []
    t0 = time.perf_counter()
    for i, (moves, _score, cols) in enumerate(rows):
        pos = Position.from_moves(moves)
        ctl.start(pos, limits, opts)
        ctl.wait()
        res = ctl.result
        assert res is not None
        nodes += res.nodes
        if res.best_move in best_among_ties(cols):
            correct += 1
        else:
            misses.append(moves)
        if progress:
            progress(i + 1, len(rows), correct)
    ctl.close()
    return AccuracyResult(correct, len(rows), nodes, time.perf_counter() - t0, tuple(misses))


def openings() -> list[str]:
    """MILTON's 49 two-ply openings: 1. a1 a2, 1. a1 b1, ... 1. g1 g2 (as digit strings:
    ``MOVE_CHARS``, so A, B... from the tenth column on)."""
    return [a + b for a in MOVE_CHARS for b in MOVE_CHARS]


def play_game(start: str, white: SearchController, black: SearchController, limits: Limits,
              opts_white: SearchOptions, opts_black: SearchOptions,
              on_end: Callable[[Position], None] | None = None) -> int:
    """Play one game from ``start``, each move a search within ``limits``; returns 0 White
    won, 1 Black won, -1 draw. ``on_end`` gets the final position (e.g. to store the game)."""
    pos = Position.from_moves(start)
    while not pos.is_over:
        ctl, opts = (white, opts_white) if pos.to_move == 0 else (black, opts_black)
        ctl.start(pos, limits, opts)
        ctl.wait()
        res = ctl.result
        assert res is not None
        pos.play(res.best_move)
    if on_end is not None:
        on_end(pos)
    return -1 if pos.winner is None else pos.winner


def selfplay(limits: Limits, opts_a: SearchOptions, opts_b: SearchOptions,
             starts: Iterable[str] | None = None,
             progress: Callable[[int, int, int, int], None] | None = None,
             book: BookLike | None = None,
             on_game: Callable[[Position, bool], None] | None = None) -> tuple[int, int, int]:
    """MILTON's self-play test (thesis 3.1): each opening twice, colours swapped, every
    move a search within ``limits``; each side probes ``book`` if its options say
    ``use_book``. ``on_game(final position, A played White)`` after each game.

    Returns ``(wins, losses, draws)`` of option set A.
    """
    a, b = SearchController(book=book), SearchController(book=book)
    w = lo = d = 0
    for start in starts if starts is not None else openings():
        for a_white in (True, False):
            end = None if on_game is None else (lambda p, w=a_white: on_game(p, w))
            if a_white:
                r = play_game(start, a, b, limits, opts_a, opts_b, end)
            else:
                r = play_game(start, b, a, limits, opts_b, opts_a, end)
            if r == -1:
                d += 1
            elif (r == 0) == a_white:
                w += 1
            else:
                lo += 1
            if progress:
                progress(w, lo, d, 0)
    a.close()
    b.close()
    return w, lo, d


def speed(path: Path, count: int) -> str:
    """Exact solver against the analysis search to full depth on the same positions."""
    from c4tui.engine.analysis.controller import run_search
    from c4tui.engine.solver.solver import Solver

    rows = [line.split() for line in path.read_text().splitlines() if line.strip()][:count]
    positions = [Position.from_moves(r[0]) for r in rows]
    solver = Solver(hash_mb=16, book=None)
    solver.solve(positions[0])  # load the kernels
    no_book = SearchOptions(use_book=False)
    run_search(positions[0], Limits(depth=2), no_book)
    t0 = time.perf_counter()
    sn = sum(solver.solve(p).nodes for p in positions)
    ts = time.perf_counter() - t0
    ctl = SearchController()
    t0 = time.perf_counter()
    an = 0
    for p, r in zip(positions, rows, strict=True):
        res = run_search(p, Limits(nodes=None), no_book, ctl)
        if res.score.value != int(r[1]):
            raise AssertionError(f"{r[0]}: analysis score {res.score.value}, expected {r[1]}")
        an += res.nodes
    ta = time.perf_counter() - t0
    return (f"solver {sn:,} nodes {ts:.2f} s {sn / ts / 1e6:.2f} M/s | analysis {an:,} nodes "
            f"{ta:.2f} s {an / ta / 1e6:.2f} M/s | nodes/s ratio {(an / ta) / (sn / ts):.2f}, "
            f"node ratio {an / sn:.1f}")


def _main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m c4tui.cli.bench.analysis")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sp = sub.add_parser("speed", help="nodes/s against the exact solver (full depth)")
    sp.add_argument("--file", type=Path,
                    default=DEFAULT_POSITIONS.parent / "pons" / "Test_L2_R2")
    sp.add_argument("--count", type=int, default=50)
    args = ap.parse_args(argv)
    print(speed(args.file, args.count))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
