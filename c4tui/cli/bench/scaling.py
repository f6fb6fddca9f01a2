"""``c4tui bench --scaling``: how the exact solver's time and tree change with its threads.

For T = 1, 2, 4, ... up to twice the usable cores, a fresh solver with T threads solves the
same positions (the empty board, or a set): nodes, time, the speed-up against one thread and
the tree's growth (nodes against one thread). Threads beyond the cores share them, so the
growth is the guard that means something on any machine: the parallel search must not
search a larger tree because it has more threads (docs/solver.md, "Parallel search").
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table

from c4tui.bounded import shown
from c4tui.engine.seam import MAX_THREADS, usable_cores

from ..errors import fail
from .sets import read_set


@dataclass(frozen=True)
class Run:
    """One thread count's solve of the positions."""

    threads: int
    nodes: int
    busiest: int  #: nodes of the busiest thread, summed over the positions
    seconds: float


def thread_counts(cores: int, top: int | None = None) -> list[int]:
    """1, 2, 4, ... up to ``top`` threads (default: twice ``cores``, at most MAX_THREADS),
    the last one exactly ``top``."""
    top = min(2 * cores, MAX_THREADS) if top is None else top
    counts = []
    t = 1
    while t < top:
        counts.append(t)
        t *= 2
    counts.append(top)
    return counts


def bench_scaling(console: Console, positions: list[tuple[str, int | None]], label: str,
                  hash_mb: int, counts: list[int]) -> list[Run]:
    """Solve ``positions`` once per thread count in ``counts``; print a row per count and the
    worst growth and best speed-up. Exits with status 1 if a score is wrong or the thread
    counts disagree."""
    from c4tui.engine.board.position import Position
    from c4tui.engine.solver.solver import Solver, warmup_position

    Solver(hash_mb=1, book=None).solve(warmup_position())  # load the kernels first
    table = Table(title=f"c4tui bench --scaling: {label}, no book, {hash_mb} MB table, "
                        f"{usable_cores()} usable core(s)",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("threads", "nodes", "seconds", "speed-up", "growth", "busiest\nthread"):
        table.add_column(col, justify="right", no_wrap=True)
    runs: list[Run] = []
    scores: list[int] | None = None
    for t in counts:
        solver = Solver(hash_mb=hash_mb, book=None, threads=t)
        got: list[int] = []
        nodes = busiest = 0
        t0 = time.perf_counter()
        for moves, _ in positions:
            r = solver.solve(Position.from_moves(moves))
            got.append(r.score)
            nodes += r.nodes
            stats = solver.last_stats
            busiest += max(stats.thread_nodes) if stats else r.nodes
        run = Run(t, nodes, busiest, time.perf_counter() - t0)
        del solver  # its table is freed before the next one is made
        wrong = [m for (m, want), s in zip(positions, got, strict=True)
                 if want is not None and s != want]
        if wrong:
            fail(f"bench --scaling: {len(wrong)} wrong score(s) with {t} thread(s), e.g. "
                 f"{wrong[0] or 'the empty board'}", code=1)
        if scores is not None and got != scores:
            fail(f"bench --scaling: {t} thread(s) disagree with 1 thread", code=1)
        scores = got
        runs.append(run)
        one = runs[0]
        table.add_row(str(t), f"{run.nodes:,}", f"{run.seconds:.2f}",
                      f"{one.seconds / run.seconds:.2f}x", f"{run.nodes / one.nodes:.2f}x",
                      f"{run.busiest:,}")
        console.print(f"{t} thread(s): done", style="dim")
    console.print(table)
    worst = max(runs, key=lambda r: r.nodes)
    best = min(runs, key=lambda r: r.seconds)
    console.print(f"worst growth {worst.nodes / runs[0].nodes:.2f}x ({_threads(worst)}), "
                  f"best speed-up {runs[0].seconds / best.seconds:.2f}x ({_threads(best)})")
    return runs


def _threads(run: Run) -> str:
    return f"{run.threads} thread{'s' if run.threads > 1 else ''}"


def load_positions(spec: str, directory: Path, count: int) -> list[tuple[str, int | None]]:
    """``count`` positions from a Pons set name in ``directory`` or a file of
    ``<moves> [score]`` lines."""
    path = Path(spec)
    if not path.exists():
        path = directory / spec
    if not path.exists():
        fail(f"--set {shown(spec, 80)}: no such file or benchmark set in {directory} "
             f"({set_names(directory)})")
    return read_set(path, count)


def set_names(directory: Path) -> str:
    """The benchmark sets ``directory`` holds, as an error names them: ``the sets are
    Test_L1_R1, Test_L1_R2, ...``, or that it holds none."""
    try:
        names = sorted(p.name for p in directory.iterdir()
                       if p.is_file() and not p.name.startswith("."))
    except OSError:
        names = []
    if not names:
        return "it holds no set"
    return "the sets are " + ", ".join(shown(n, 80) for n in names)
