"""``c4tui bench``: our exact solver against the BitBully C++ solver, in one run.

Both engines solve the same positions, interleaved position by position so that any load
on the machine hits both alike; the ratio of the means is the figure that counts.
BitBully is an optional extra (``pip install 'c4tui[bench]'``), never a runtime dependency.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from .errors import fail

DEFAULT_SETS = ("Test_L2_R2", "Test_L1_R2")


def data_dir() -> Path:
    """The Pons benchmark sets: the repository's copy, else the shared test data."""
    here = Path(__file__).resolve().parent.parent
    for cand in (here / "tests" / "data" / "pons", here.parent / "shared" / "testdata" / "pons"):
        if cand.is_dir():
            return cand
    raise FileNotFoundError("benchmark sets not found (tests/data/pons); pass --data DIR")


@dataclass
class Tally:
    """Times (s) and nodes per position of one engine on one set."""

    times: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    wrong: int = 0

    def mean_ms(self) -> float:
        return 1000 * statistics.fmean(self.times) if self.times else float("nan")

    def mean_nodes(self) -> float:
        return statistics.fmean(self.nodes) if self.nodes else float("nan")


class _Peer:
    """BitBully without its opening book."""

    def __init__(self) -> None:
        import bitbully

        self._bb = bitbully
        self.agent = bitbully.BitBully(opening_book=None)
        self.version = getattr(bitbully, "__version__", "")

    def solve(self, moves: str) -> tuple[int, int, float]:
        board = self._bb.Board.from_moves([int(c) - 1 for c in moves])
        self.agent.reset_node_counter()
        t0 = time.perf_counter()
        score = self.agent.null_window(board)
        dt = time.perf_counter() - t0
        return int(score), int(self.agent.get_node_counter()), dt

    def reset(self) -> None:
        self.agent.reset_transposition_table()


def _load_set(directory: Path, name: str, count: int) -> list[tuple[str, int]]:
    path = directory / name
    if not path.is_file():
        fail(f"--set {name}: no such benchmark set in {directory}")
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        parts = line.split()
        if len(parts) != 2:
            fail(f"{path}:{n}: expected '<moves> <score>'")
        rows.append((parts[0], int(parts[1])))
    return rows[:count]


def bench(
    sets: Annotated[
        list[str] | None, typer.Option("--set", help="Pons set name (repeatable).")
    ] = None,
    count: Annotated[int, typer.Option("--count", "-n", help="First N of each set.")] = 100,
    hash_mb: Annotated[int, typer.Option("--hash", help="Our table size in MB.")] = 64,
    peer: Annotated[bool, typer.Option("--peer/--no-peer", help="Also run BitBully.")] = True,
    reset: Annotated[
        bool, typer.Option("--reset/--keep", help="Clear both tables before each position.")
    ] = False,
    empty: Annotated[
        bool, typer.Option("--empty", help="Strong solve of the empty board (no book) instead.")
    ] = False,
    data: Annotated[Path | None, typer.Option("--data", help="Folder of the Pons sets.")] = None,
) -> None:
    """Mean time and nodes per position, ours against BitBully's, and their ratio (no book)."""
    from c4tui.engine.position import Position
    from c4tui.engine.solver import Solver

    if count < 1:
        fail(f"--count {count}: must be at least 1")
    if not 1 <= hash_mb <= 32768:
        fail(f"--hash {hash_mb}: must be between 1 and 32768 MB")
    console = Console()
    other = None
    if peer:
        try:
            other = _Peer()
        except ImportError:
            console.print("[yellow]BitBully is not installed (pip install 'c4tui[bench]'): "
                          "measuring c4tui alone[/]")
    solver = Solver(hash_mb=hash_mb, book=None)
    solver.solve(Position.from_moves("2252576253462244111563365343671351441"))  # load kernels

    if empty:
        _bench_empty(console, solver, other)
        return

    directory = data or data_dir()
    table = Table(title=f"c4tui bench: exact solve, no book, table {'cleared' if reset else 'kept'}"
                        f" across positions, {hash_mb} MB")
    for col in ("set", "n", "ours ms", "ours nodes", "peer ms", "peer nodes",
                "time ×", "nodes ×", "wrong"):
        table.add_column(col, justify="right", no_wrap=True)
    for name in sets or DEFAULT_SETS:
        rows = _load_set(directory, name, count)
        ours, theirs = Tally(), Tally()
        solver.clear()
        if other:
            other.reset()
        for moves, expected in rows:
            if reset:
                solver.clear()
                if other:
                    other.reset()
            r = solver.solve(Position.from_moves(moves))
            ours.times.append(r.micros / 1e6)
            ours.nodes.append(r.nodes)
            ours.wrong += r.score != expected
            if other:
                s, n, dt = other.solve(moves)
                theirs.times.append(dt)
                theirs.nodes.append(n)
                theirs.wrong += s != expected
        ratio_t = ours.mean_ms() / theirs.mean_ms() if other else float("nan")
        ratio_n = ours.mean_nodes() / theirs.mean_nodes() if other else float("nan")
        table.add_row(name, str(len(rows)), f"{ours.mean_ms():.2f}", f"{ours.mean_nodes():,.0f}",
                      f"{theirs.mean_ms():.2f}", f"{theirs.mean_nodes():,.0f}",
                      f"{ratio_t:.2f}", f"{ratio_n:.2f}", f"{ours.wrong}/{theirs.wrong}")
        console.print(f"{name}: done", style="dim")
    console.print(table)
    if other:
        console.print(f"peer: BitBully {other.version} (C++), no opening book; "
                      "× = c4tui / BitBully (below 1: c4tui faster); wrong = ours/peer")


def _bench_empty(console: Console, solver, other) -> None:
    from c4tui.engine.position import Position

    t0 = time.perf_counter()
    r = solver.solve(Position())
    dt = time.perf_counter() - t0
    console.print(f"c4tui: empty board score {r.score}, best move {r.best_move + 1}, "
                  f"{dt:.1f} s, {r.nodes:,} nodes ({r.nodes / dt / 1e6:.1f} M nodes/s)")
    if other:
        console.print("BitBully's empty-board solve takes about 5 minutes here...", style="dim")
        s, n, pdt = other.solve("")
        console.print(f"BitBully: score {s}, {pdt:.1f} s, {n:,} nodes; "
                      f"time ratio {dt / pdt:.2f}, node ratio {r.nodes / n:.3f}")
    sys.stdout.flush()
