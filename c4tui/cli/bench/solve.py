"""``c4tui bench`` (its default and ``--empty``): our exact solver against the BitBully
C++ solver on the same positions, no book.

Both engines solve the same positions, interleaved position by position so that any load
on the machine hits both alike; the ratio of the means is the figure that counts.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass, field

from rich import box
from rich.console import Console
from rich.table import Table

from .. import options
from .peers import BitBullySolver, optional_peer

#: The empty board's tree is large: a bigger table than the solver's.
EMPTY_HASH_MB = 256


@dataclass
class Tally:
    """Times (s) and nodes per position of one engine on one set."""

    times: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    wrong: int = 0

    def mean_ms(self) -> float:
        return 1000 * statistics.fmean(self.times)

    def mean_nodes(self) -> float:
        return statistics.fmean(self.nodes)


class StatSum:
    """Search statistics summed over a set's positions."""

    def __init__(self) -> None:
        self.v: dict[str, float] = {}
        self.threads: list[int] = []
        self.micros = 0

    def add(self, st) -> None:
        if st is None:
            return
        for k in ("probes", "hits", "stores", "overwrites", "cuts", "first_cuts", "etc_cutoffs",
                  "interior"):
            self.v[k] = self.v.get(k, 0) + getattr(st, k)
        if not self.threads:
            self.threads = [0] * len(st.thread_nodes)
        for i, n in enumerate(st.thread_nodes):
            self.threads[i] += n
        self.micros += st.micros

    def line(self) -> str:
        v = self.v
        if not v:
            return "no statistics"
        sec = max(self.micros, 1) / 1e6
        speeds = "/".join(f"{n / sec / 1e6:.1f}" for n in self.threads)
        return (f"table hits {100 * v['hits'] / max(v['probes'], 1):.1f}%, overwrites "
                f"{100 * v['overwrites'] / max(v['stores'], 1):.1f}% of stores, first move "
                f"cut {100 * v['first_cuts'] / max(v['cuts'], 1):.1f}% of cut nodes, "
                f"ETC cutoffs {v['etc_cutoffs']:,.0f}, interior nodes {v['interior']:,.0f}, "
                f"M nodes/s per thread {speeds}")


def solvers(console: Console, peer: bool, hash_mb: int | None, threads: int):
    """``(ours, BitBully or None)``, our kernels loaded: the two engines of a comparison."""
    from c4tui.engine.solver.solver import Solver, warmup_position

    other = optional_peer(console, BitBullySolver) if peer else None
    solver = Solver(book=None, threads=threads, **options.given(hash_mb=hash_mb))
    solver.solve(warmup_position())  # load the kernels
    return solver, other


def bench_groups(console: Console, groups, solver, other, reset: bool) -> None:
    """Solve each group ``(name, [(moves, score or None), ...])`` with both engines and
    print the table of means and their ratios, then each group's search statistics."""
    # Two-line headers and no vertical rules: the table fits 80 columns. Without a peer
    # there is nothing to compare, so its columns are left out rather than shown as nan.
    table = Table(title=f"c4tui bench: exact solve, no book, table {'cleared' if reset else 'kept'}"
                        f" across positions, {solver.table.size_bytes >> 20} MB, "
                        f"{solver.threads} thread(s)",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    cols = ["set", "n", "ours\nms", "ours\nnodes"]
    if other:
        cols += ["peer\nms", "peer\nnodes", "time\n×", "nodes\n×"]
    for col in [*cols, "wrong"]:
        table.add_column(col, justify="right", no_wrap=True)
    stats_lines = []
    for name, rows in groups:
        if not rows:
            console.print(f"{name}: no positions", style="yellow")
            continue
        ours, theirs, agg = _run_group(rows, solver, other, reset)
        cells = [name, str(len(rows)), f"{ours.mean_ms():.2f}", f"{ours.mean_nodes():,.0f}"]
        if other:
            cells += [f"{theirs.mean_ms():.2f}", f"{theirs.mean_nodes():,.0f}",
                      f"{ours.mean_ms() / theirs.mean_ms():.2f}",
                      f"{ours.mean_nodes() / theirs.mean_nodes():.2f}"]
        table.add_row(*cells, f"{ours.wrong}/{theirs.wrong}" if other else str(ours.wrong))
        console.print(f"{name}: done", style="dim")
        stats_lines.append(f"{name}: {agg.line()}")
    console.print(table)
    for line in stats_lines:
        console.print(line, soft_wrap=True)
    if other:
        console.print(f"peer: BitBully {other.version} (C++), no opening book; "
                      "× = c4tui / BitBully (below 1: c4tui faster); wrong = ours/peer")


def _run_group(rows, solver, other, reset: bool) -> tuple[Tally, Tally, StatSum]:
    """One group's positions, ours then the peer's for each: the two tallies and our
    statistics. Without a reference score the two engines check each other."""
    from c4tui.engine.board.position import Position

    ours, theirs = Tally(), Tally()
    agg = StatSum()
    solver.clear()
    if other:
        other.reset()
    for moves, expected in rows:
        if reset:
            solver.clear()
            if other:
                other.reset()
        r = solver.solve(Position.parse(moves))
        agg.add(solver.last_stats)
        ours.times.append(r.micros / 1e6)
        ours.nodes.append(r.nodes)
        ours.wrong += expected is not None and r.score != expected
        if other:
            s, n, dt = other.solve(_one_based(moves))
            theirs.times.append(dt)
            theirs.nodes.append(n)
            if expected is None:
                ours.wrong += s != r.score
            else:
                theirs.wrong += s != expected
    return ours, theirs, agg


def _one_based(moves: str) -> str:
    """A ``0:`` string (0-based columns) as the peer's 1-based digits (7x6: columns 1-7)."""
    if not moves.startswith("0:"):
        return moves
    return "".join(str(int(c) + 1) for c in moves[2:])


def bench_empty(console: Console, solver, other) -> None:
    """The strong solve of the empty board, ours then (it takes minutes) the peer's."""
    from c4tui.engine.board.position import Position

    t0 = time.perf_counter()
    r = solver.solve(Position())
    dt = time.perf_counter() - t0
    console.print(f"c4tui: empty board score {r.score}, best move {r.best_move + 1}, "
                  f"{dt:.1f} s, {r.nodes:,} nodes ({r.nodes / dt / 1e6:.1f} M nodes/s), "
                  f"{solver.threads} thread(s), {solver.table.size_bytes >> 20} MB table")
    agg = StatSum()
    agg.add(solver.last_stats)
    console.print(agg.line(), soft_wrap=True)
    if other:
        console.print("BitBully's empty-board solve takes about 5 minutes here...", style="dim")
        s, n, pdt = other.solve("")
        console.print(f"BitBully: score {s}, {pdt:.1f} s, {n:,} nodes; "
                      f"time ratio {dt / pdt:.2f}, node ratio {r.nodes / n:.3f}")
    sys.stdout.flush()
