"""``c4tui bench``: the command, which checks its options and runs one mode.

The modes, one function each: ours against the BitBully C++ solver on Pons's sets or an
enumeration (the default, :mod:`.solve`) or on the empty board (``--empty``); exact
analysis latency and the search's accuracy (``--latency``, ``--accuracy``,
:mod:`.latency`); the solver on 1, 2, 4, ... threads (``--scaling``,
:mod:`.scaling`); the opening book's effect (``--book-file``, :mod:`.book`).
BitBully is an optional extra (``pip install 'c4tui[bench]'`` or ``make bench``), never a
runtime dependency.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from .. import options
from ..errors import bad_value, check_range, fail
from ..size import SIZE_OPTION, check_size
from .sets import DEFAULT_SETS, is_file_set, load_set, pons_dir
from .solve import EMPTY_HASH_MB, bench_empty, bench_groups, solvers


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
        str | None, options.nodes_option("Nodes per move for --accuracy", options.MILTON_DEFAULT)
    ] = None,
    sets: Annotated[
        list[str] | None, typer.Option("--set", help="Pons set name, or a file of '<moves> "
                                       "<score>' lines (repeatable).")
    ] = None,
    zero_based: Annotated[
        bool, typer.Option("--zero-based", help="The --set files' moves count columns from 0 "
                           "(Steininger's c4's test sets, e.g. its 10x6 ones).")
    ] = False,
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

    On another board size than 7x6, --empty or --set FILE (positions of that size, e.g.
    Steininger's 10x6 sets with --zero-based) run, without the peer: Pons's sets, the scored
    positions and BitBully are 7x6.
    """
    from c4tui.engine.board.geometry import IS_DEFAULT, NAME

    check_size(size, "bench")
    threads_given = threads is not None
    threads = options.threads(threads)
    if not IS_DEFAULT:
        if not empty and not (sets and not latency and not accuracy and not scaling):
            fail(f"bench: on {NAME} only --empty and --set FILE run (Pons's sets, the scored "
                 "positions and BitBully are 7x6)")
        peer = False
    if latency:
        return _latency(file, threads, peer)
    if accuracy:
        return _accuracy(file, nodes_text)
    if file is not None:
        fail(f"{file}: a positions file goes with --latency or --accuracy")
    if scaling:
        return _scaling(sets, count, hash_text, data, threads if threads_given else None)
    if enum_ply is not None:
        check_range("--enum-ply", enum_ply, 0, 12)
    if count < 1:
        bad_value("--count", count, "must be at least 1")
    hash_mb = options.hash_mb(hash_text) if hash_text is not None else (
        EMPTY_HASH_MB if empty else None)
    if book is not None:
        return _book(book, sets, count, hash_mb, threads, data)
    if empty:
        return _empty(hash_mb, threads, peer)
    return _sets(sets, enum_ply, count, data, hash_mb, threads, peer, reset, zero_based)


def _latency(file: Path | None, threads: int, peer: bool) -> None:
    from .latency import bench_latency, positions_file

    bench_latency(Console(), file or positions_file(), threads, peer)


def _accuracy(file: Path | None, nodes_text: str | None) -> None:
    from .latency import bench_accuracy, positions_file

    path = file or positions_file()
    bench_accuracy(Console(), path, options.node_limit(nodes_text, options.MILTON_NODES))


def _scaling(sets: list[str] | None, count: int, hash_text: str | None,
             data: Path | None, top: int | None) -> None:
    from c4tui.engine.seam import usable_cores

    from .scaling import bench_scaling, load_positions, thread_counts

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
        from c4tui.engine.solver.tt import DEFAULT_SOLVER_MB

        hash_mb = DEFAULT_SOLVER_MB
    bench_scaling(Console(), positions, label, hash_mb, thread_counts(usable_cores(), top))


def _book(book: str, sets: list[str] | None, count: int, hash_mb: int | None, threads: int,
          data: Path | None) -> None:
    from .book import BOOK_SETS, bench_book

    bench_book(Console(), book, list(sets or BOOK_SETS), count, hash_mb, threads,
               data or pons_dir())


def _empty(hash_mb: int | None, threads: int, peer: bool) -> None:
    console = Console()
    solver, other = solvers(console, peer, hash_mb, threads)
    bench_empty(console, solver, other)


def _sets(sets: list[str] | None, enum_ply: int | None, count: int, data: Path | None,
          hash_mb: int | None, threads: int, peer: bool, reset: bool,
          zero_based: bool = False) -> None:
    """The Pons sets or files of positions (or positions spread over an enumeration), ours
    against the peer."""
    console = Console()
    solver, other = solvers(console, peer, hash_mb, threads)
    if enum_ply is not None:
        from c4tui.book.enumeration import enumerate_positions

        moves_all = list(enumerate_positions(enum_ply).moves)
        step = max(1, len(moves_all) // count)
        groups: list[tuple[str, list[tuple[str, int | None]]]] = [
            (f"{enum_ply}-ply", [(m, None) for m in moves_all[::step][:count]])]
    else:
        groups = [(Path(name).name if is_file_set(name) else name,
                   list(load_set(data, name, count, zero_based, check_moves=True)))
                  for name in sets or DEFAULT_SETS]
    bench_groups(console, groups, solver, other, reset)


def register(app: typer.Typer) -> None:
    """Add ``bench`` to the CLI."""
    app.command("bench")(bench)
