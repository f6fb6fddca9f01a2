"""``c4tui bench``: our exact solver against the BitBully C++ solver, in one run.

Both engines solve the same positions, interleaved position by position so that any load
on the machine hits both alike; the ratio of the means is the figure that counts.
BitBully is an optional extra (``pip install 'c4tui[bench]'`` or ``make bench``), never a
runtime dependency.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from c4tui.bounded import read_file

from . import options
from .errors import bad_value, check_range, fail
from .peers import BitBullySolver, optional_peer
from .size import SIZE_OPTION, check_size

DEFAULT_SETS = ("Test_L2_R2", "Test_L1_R2")
#: The largest positions file a benchmark reads (Pons's sets have 20-30 kB).
SET_CAP = 16 << 20
EMPTY_HASH_MB = 256  # the empty board's tree is large: a bigger table than the solver's


def pons_dir() -> Path:
    """The Pons benchmark sets: the repository's copy, else the shared test data."""
    here = Path(__file__).resolve().parents[2]  # the repository: c4tui/cli/bench.py
    for cand in (here / "tests" / "data" / "pons", here.parent / "shared" / "testdata" / "pons"):
        if cand.is_dir():
            return cand
    fail("benchmark sets not found (tests/data/pons); pass --data DIR")


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


def _load_set(directory: Path, name: str, count: int) -> list[tuple[str, int]]:
    path = directory / name
    if not path.is_file():
        fail(f"--set {name}: no such benchmark set in {directory}")
    rows = read_set(path, count)
    missing = next((n for n, (_, s) in enumerate(rows, 1) if s is None), None)
    if missing is not None:
        fail(f"{path}:{missing}: expected '<moves> <score>'")
    return [(m, int(s)) for m, s in rows if s is not None]


def read_text(path: Path) -> str:
    """A benchmark file's text (a regular file of at most SET_CAP bytes), or a one-line
    error."""
    try:
        return read_file(path, SET_CAP, "positions file").decode("utf-8", "replace")
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")


def read_set(path: Path, count: int) -> list[tuple[str, int | None]]:
    """The first ``count`` positions of a file of ``<moves> [score]`` lines (a score, where
    given, is checked), or a one-line error naming the bad line."""
    rows: list[tuple[str, int | None]] = []
    for n, line in enumerate(read_text(path).splitlines(), 1):
        if len(rows) == count:
            break
        parts = line.split()
        if not parts or len(parts) > 2 or not parts[0].isdigit() or (
                len(parts) == 2 and not parts[1].lstrip("-").isdigit()) or len(line) > 200:
            fail(f"{path}:{n}: expected '<moves> [score]'")
        rows.append((parts[0], int(parts[1]) if len(parts) == 2 else None))
    return rows


def bench(
    file: Annotated[
        Path | None, typer.Argument(help="Positions file for --latency/--accuracy "
                                    "(default: the 900 scored positions).")
    ] = None,
    latency: Annotated[
        bool, typer.Option("--latency", help="Instead: exact 7-column analysis with the books, "
                           "ours against BitBully with its 12-ply database: p50/p95/p99/max.")
    ] = False,
    accuracy: Annotated[
        bool, typer.Option("--accuracy", help="Instead: share of exactly best moves of the "
                           "analysis search at --nodes per move.")
    ] = False,
    nodes_text: Annotated[
        str | None, typer.Option("--nodes", help=f"Nodes per move for --accuracy "
                                 f"({options.NODES_HELP}; default: the search's).")
    ] = None,
    sets: Annotated[
        list[str] | None, typer.Option("--set", help="Pons set name (repeatable).")
    ] = None,
    count: Annotated[int, typer.Option("--count", "-n", help="First N of each set.")] = 100,
    hash_text: Annotated[
        str | None,
        options.hash_option("Our table", f"the solver's, {EMPTY_HASH_MB} with --empty"),
    ] = None,
    peer: Annotated[bool, typer.Option("--peer/--no-peer", help="Also run BitBully.")] = True,
    reset: Annotated[
        bool, typer.Option("--reset/--keep", help="Clear both tables before each position.")
    ] = False,
    empty: Annotated[
        bool, typer.Option("--empty", help="Strong solve of the empty board (no book) instead.")
    ] = False,
    scaling: Annotated[
        bool, typer.Option("--scaling", help="Instead: our solver with 1, 2, 4, ... threads up "
                           "to twice the cores on the empty board (or the first --count "
                           "positions of one --set, a set name or a file; -t N: up to N "
                           "threads): nodes, time, speed-up and the tree's growth against "
                           "one thread.")
    ] = False,
    enum_ply: Annotated[
        int | None,
        typer.Option("--enum-ply", help="Instead of the Pons sets: N positions spread over the "
                     "enumeration of this many plies (the opening book's positions)."),
    ] = None,
    threads: Annotated[
        int | None,
        typer.Option("--threads", "-t", help="Our search threads (default: one per usable "
                     "core)."),
    ] = None,
    data: Annotated[Path | None, typer.Option("--data", help="Folder of the Pons sets.")] = None,
    book: Annotated[
        str | None,
        typer.Option("--book-file", metavar="FILE", show_default=False,
                     help="Instead: the opening book's effect (a book file, or "
                     "'default'): positions of Test_L1_R2 and Test_L1_R3 within its plies "
                     "solved with and without it, and --analyze timings."),
    ] = None,
    size: SIZE_OPTION = None,
) -> None:
    """Mean time and nodes per position, ours against BitBully's, and their ratio (no book).

    On another board size than 7x6 only --empty runs, without the peer: the benchmark
    sets, the scored positions and BitBully are 7x6.
    """
    from c4tui.engine.geometry import IS_DEFAULT, NAME
    from c4tui.engine.position import Position
    from c4tui.engine.solver import Solver, warmup_position

    check_size(size, "bench")
    threads_given = threads is not None
    threads = options.threads(threads)
    if not IS_DEFAULT:
        if not empty:
            fail(f"bench: on {NAME} only --empty runs (the benchmark sets, the scored "
                 "positions and BitBully are 7x6)")
        peer = False
    if latency or accuracy:
        from .bench_latency import bench_accuracy, bench_latency, positions_file

        path = file or positions_file()
        if latency:
            return bench_latency(Console(), path, threads, peer)
        return bench_accuracy(Console(), path, options.nodes(nodes_text))
    if file is not None:
        fail(f"{file}: a positions file goes with --latency or --accuracy")
    if scaling:
        return _bench_scaling(sets, count, hash_text, data, threads if threads_given else None)
    if enum_ply is not None:
        check_range("--enum-ply", enum_ply, 0, 12)
    if count < 1:
        bad_value("--count", count, "must be at least 1")
    hash_mb = options.hash_mb(hash_text) if hash_text is not None else (
        EMPTY_HASH_MB if empty else None)
    console = Console()
    if book is not None:
        from .bench_book import BOOK_SETS, bench_book

        bench_book(console, book, list(sets or BOOK_SETS), count, hash_mb, threads,
                   data or pons_dir(), _load_set)
        return
    other = optional_peer(console, BitBullySolver) if peer else None
    solver = Solver(book=None, threads=threads, **options.given(hash_mb=hash_mb))
    hash_mb = solver.table.size_bytes >> 20
    solver.solve(warmup_position())  # load the kernels

    if empty:
        _bench_empty(console, solver, other)
        return

    if enum_ply is not None:
        from c4tui.book.enumeration import enumerate_positions

        moves_all = list(enumerate_positions(enum_ply).moves)
        step = max(1, len(moves_all) // count)
        groups = [(f"{enum_ply}-ply", [(m, None) for m in moves_all[::step][:count]])]
    else:
        directory = data or pons_dir()
        groups = [(name, _load_set(directory, name, count)) for name in sets or DEFAULT_SETS]
    # Two-line headers and no vertical rules: the table fits 80 columns. Without a peer
    # there is nothing to compare, so its columns are left out rather than shown as nan.
    table = Table(title=f"c4tui bench: exact solve, no book, table {'cleared' if reset else 'kept'}"
                        f" across positions, {hash_mb} MB, {threads} thread(s)",
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
        ours, theirs = Tally(), Tally()
        agg = _StatSum()
        solver.clear()
        if other:
            other.reset()
        for moves, expected in rows:
            if reset:
                solver.clear()
                if other:
                    other.reset()
            r = solver.solve(Position.from_moves(moves))
            agg.add(solver.last_stats)
            ours.times.append(r.micros / 1e6)
            ours.nodes.append(r.nodes)
            ours.wrong += expected is not None and r.score != expected
            if other:
                s, n, dt = other.solve(moves)
                theirs.times.append(dt)
                theirs.nodes.append(n)
                if expected is None:  # no reference score: the two engines check each other
                    ours.wrong += s != r.score
                else:
                    theirs.wrong += s != expected
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


def _bench_scaling(sets: list[str] | None, count: int, hash_text: str | None,
                   data: Path | None, top: int | None) -> None:
    from c4tui.engine.seam import usable_cores

    from .bench_scaling import bench_scaling, load_positions, thread_counts

    if count < 1:
        bad_value("--count", count, "must be at least 1")
    if sets and len(sets) > 1:
        fail("--scaling takes one --set")
    if sets:
        positions = load_positions(sets[0], data or pons_dir(), count)
        label = f"{sets[0]} (first {len(positions)})"
        default_mb = None
    else:
        positions, label, default_mb = [("", 1)], "the empty board", EMPTY_HASH_MB
    hash_mb = options.hash_mb(hash_text) or default_mb
    if hash_mb is None:
        from c4tui.engine.tt import DEFAULT_SOLVER_MB

        hash_mb = DEFAULT_SOLVER_MB
    bench_scaling(Console(), positions, label, hash_mb, thread_counts(usable_cores(), top))


class _StatSum:
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


def _bench_empty(console: Console, solver, other) -> None:
    from c4tui.engine.position import Position

    t0 = time.perf_counter()
    r = solver.solve(Position())
    dt = time.perf_counter() - t0
    console.print(f"c4tui: empty board score {r.score}, best move {r.best_move + 1}, "
                  f"{dt:.1f} s, {r.nodes:,} nodes ({r.nodes / dt / 1e6:.1f} M nodes/s), "
                  f"{solver.threads} thread(s), {solver.table.size_bytes >> 20} MB table")
    agg = _StatSum()
    agg.add(solver.last_stats)
    console.print(agg.line(), soft_wrap=True)
    if other:
        console.print("BitBully's empty-board solve takes about 5 minutes here...", style="dim")
        s, n, pdt = other.solve("")
        console.print(f"BitBully: score {s}, {pdt:.1f} s, {n:,} nodes; "
                      f"time ratio {dt / pdt:.2f}, node ratio {r.nodes / n:.3f}")
    sys.stdout.flush()


def register(app: typer.Typer) -> None:
    """Add ``bench`` to the CLI."""
    app.command("bench")(bench)
