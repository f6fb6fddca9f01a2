"""``c4tui solve``: exact scores in the reference solver's format."""

from __future__ import annotations

import functools
import gc
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Annotated, NoReturn, TypeVar

import typer

from c4tui.bounded import LineTooLong

from . import options
from .errors import FAILURE, USAGE, fail
from .progress import SolveReporter
from .size import SIZE_OPTION, check_size

if TYPE_CHECKING:
    from c4tui.engine.books.link import BookLike
    from c4tui.engine.solver.solver import Solver

T = TypeVar("T")
#: How often the main thread looks up from waiting for the solver (Ctrl-C is seen then).
WAIT_SLICE = 0.05
#: How long Ctrl-C waits for a stopped search to unwind (it takes milliseconds).
STOP_WAIT = 1.0


def build_solver(hash_mb: int | None, book: bool, threads: int,
                 lookups: BookLike | None = None) -> Solver:
    """The solver, with the books in use if ``book`` (loaded and merged now), else with
    ``lookups`` (a deep position's: see ``BookReader.lookups``).

    Everything made until then is frozen out of the garbage collector's sight
    (``gc.freeze``): numba's modules, types and kernels, hundreds of thousands of objects
    that live as long as the process. The collections during their import and at the
    process's exit walked them all, about 0.25 s of CPU of a new ``c4tui solve`` process
    (docs/benchmarks.md, "Cold start"). For the CLI's short processes only: a longer-lived
    caller (a test running the CLI in its process) calls ``gc.unfreeze()`` after.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _build_solver(hash_mb, book, threads, lookups)
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def _build_solver(hash_mb: int | None, book: bool, threads: int,
                  lookups: BookLike | None) -> Solver:
    from c4tui.engine import warmup

    if not warmup.is_compiled(solver_only=True):
        # the app's words: "first start" only if nothing was ever compiled here, a new
        # size named ("compiling for 10x10")
        print(f"c4tui: {warmup.headline()} (later runs load it from the cache)...",
              file=sys.stderr, flush=True)
    from c4tui.engine.solver.solver import Solver

    warmup.warmup(solver_only=True)  # load now, so that --stats times only the search
    books = lookups
    if book:
        from rich.console import Console

        from .load_books import prepare_books

        books = prepare_books(Console(stderr=True))  # a bar while the database is converted
    class OneShotSolver(Solver):
        # The table's pages are left to the searches that reach them (touching them at
        # allocation was up to 0.14 s of a new process that answers in a few nodes).
        # (Made here: the solver's module imports numba, which a position the books
        # answer never needs.)
        PREFAULT = False

    if hash_mb is None:
        return OneShotSolver(book=books, threads=threads)
    return OneShotSolver(hash_mb, book=books, threads=threads)


def _interrupted(running: bool = False) -> NoReturn:
    """Ctrl-C: the interrupted line (the lines solved are out already), exit status 130.

    ``running``: the worker has not ended (a compile or a table allocation cannot be
    stopped): leave at once, as an interpreter shutdown would free the memory a kernel
    that is still running writes to.
    """
    if running:
        print("c4tui: solve: interrupted", file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(130)
    fail("solve: interrupted", 130)


def run_interruptibly(work: Callable[[], T], stop: Callable[[], None] | None = None,
                      progress: SolveReporter | None = None) -> T:
    """``work()`` in a worker thread while this (the main) thread waits in short slices.

    The kernels run with the GIL released, and Python only raises ``KeyboardInterrupt``
    in the main thread between bytecodes: a solve in the main thread would see Ctrl-C
    only when it ends (seconds to minutes). Here Ctrl-C calls ``stop`` (the solver's
    ``stop``), waits at most :data:`STOP_WAIT` for the worker (not at all without
    ``stop``) and exits with status 130 (:func:`_interrupted`); ``work``'s exceptions
    are raised here. ``progress`` reports at every slice and is ended before this returns
    or exits.
    """
    values: list[T] = []
    errors: list[BaseException] = []
    # An event, not Thread.join: a join interrupted by Ctrl-C can mark the thread as
    # ended while it still runs (Python 3.11's bpo-45274 fix).
    done = threading.Event()

    def target() -> None:
        try:
            values.append(work())
        except BaseException as exc:  # handed to the main thread, which reports it
            errors.append(exc)
        finally:
            done.set()

    threading.Thread(target=target, name="c4tui-solve", daemon=True).start()
    try:
        while not done.wait(WAIT_SLICE):
            if progress is not None:
                progress.tick()
    except KeyboardInterrupt:
        if progress is not None:
            progress.done()
        # Without ``stop`` (loading or compiling the kernels) there is nothing to wait for.
        end = time.monotonic() + (STOP_WAIT if stop is not None else 0.0)
        while not done.is_set() and time.monotonic() < end:
            try:
                if stop is not None:
                    stop()  # again: a stop before the solve has begun is forgotten
                done.wait(WAIT_SLICE)
            except KeyboardInterrupt:  # a second Ctrl-C: the same answer
                pass
        _interrupted(running=not done.is_set())
    if progress is not None:
        progress.done()
    if errors:
        raise errors[0]
    return values[0]


def solve(
    moves: options.POSITIONS = None,
    analyze: Annotated[
        bool, typer.Option("--analyze", "-a", help="Print the score of each column (-1000: full).")
    ] = False,
    stats: Annotated[
        bool, typer.Option("--stats", help="Append nodes and microseconds of search (0 "
                           "nodes: the books decided the position).")
    ] = False,
    book: options.SOLVER_BOOK = True,
    hash_text: options.SOLVER_HASH = None,
    threads: options.SOLVER_THREADS = None,
    verbose_stats: Annotated[
        bool, typer.Option("--verbose-stats", help="After each line, print table hit and "
                           "overwrite rates, first-move cutoff rate and per-thread speed "
                           "(to stderr).")
    ] = False,
    size: SIZE_OPTION = None,
) -> None:
    """Solve positions exactly: one line "<moves> <score>" per position, as Pons's solver.

    Positions are digits (columns 1-7 on 7x6) or squares, as arguments or one per line
    on stdin, and are printed as digits. A blank line is skipped; "" is the empty board.
    A line that is not a position is reported on stderr and skipped (exit status 2).

    Scores (Pons's, as Steininger's c4): a win with the disc played when n discs are on
    the board scores floor((W*H + 1 - n) / 2), one more than the winner's discs left
    unplayed (22 - k for a win with the winner's k-th disc on 7x6), a draw 0. Other
    sizes than 7x6 (--size) have no book.
    """
    from c4tui.book.answer import BookReader

    check_size(size, "solve")

    hash_mb = options.hash_mb(hash_text)
    threads = options.threads(threads)
    # Positions the books decide are answered without the kernels; the solver (numba and
    # its kernels: most of a second) is made at the first position they leave open.
    reader = BookReader() if book else None
    # each position with where it was given: errors say "argument 2" or "line 2"
    lines = argument_positions(moves) if moves is not None else options.stdin_positions()
    try:
        status = _solve_lines(lines, reader, analyze, stats, verbose_stats,
                              lambda books, lookups: build_solver(hash_mb, book and books, threads,
                                                                 lookups))
    except KeyboardInterrupt:  # between two solves, or reading stdin
        _interrupted()
    raise typer.Exit(status)


def argument_positions(words: list[str]) -> list[tuple[str, str]]:
    """The positions named by ``solve``'s arguments, each with where it was given (for
    errors: ``argument 2``): one per argument (``4453``, ``""`` the empty board,
    ``'d1 d2 e1'``), except that consecutive single squares (``d1 d2 e1 c1``, as ``c4tui``
    and ``review`` take them) are one position (``arguments 2-5``)."""
    from c4tui.engine.board.position import parse_square

    positions: list[tuple[str, str]] = []
    first = 0  # the argument (1-based) that began the last position
    in_squares = False  # the last position is a run of square words
    for n, word in enumerate(words, 1):
        square = bool(word.strip()) and parse_square(word.strip()) is not None
        if square and in_squares:
            positions[-1] = (f"arguments {first}-{n}", positions[-1][1] + " " + word)
        else:
            first = n
            positions.append((f"argument {n}", word))
        in_squares = square
    return positions


def _solve_lines(lines: Iterable[tuple[str, str | LineTooLong]], reader, analyze: bool,
                 stats: bool, verbose_stats: bool,
                 make_solver: Callable[[bool, BookLike | None], Solver]) -> int:
    """Answer each position on stdout (bad ones on stderr, named by where they were
    given: ``line 4``, ``argument 2``); the exit status. ``make_solver(books, lookups)``:
    a solver with the books if ``books``, else with ``lookups``: a position deeper than
    every book gets only the lookups its floor needs (loading and merging the books was
    half of a new process's time, and none of its search's probes could hit)."""
    from c4tui.engine.board.position import Position
    from c4tui.engine.scores import FULL_COLUMN

    solver = None
    with_books = False  # whether ``solver`` has the books
    status = 0
    out = sys.stdout
    for where, line in lines:
        if isinstance(line, LineTooLong):  # not read whole: /dev/zero, one endless line
            print(f"c4tui: {line}", file=sys.stderr)
            status = USAGE
            continue
        try:
            pos = Position.parse(line)  # digits or squares, the notations of every command
            if pos.is_over:
                raise ValueError("the game is already over" if pos.winner is not None
                                 else "the board is full")
        except ValueError as exc:
            print(f"c4tui: {where}: {exc}", file=sys.stderr)  # the other lines go on
            status = USAGE  # bad input (cli/errors.py), even when other lines were solved
            continue
        start = time.perf_counter()
        answer = None if reader is None else (
            reader.column_scores(pos) if analyze else reader.score(pos))
        if answer is not None:
            scores = answer if analyze else (answer,)
            nodes, micros = 0, int((time.perf_counter() - start) * 1e6)
        else:
            books = reader is not None and reader.reaches(pos.ply)
            if solver is None or (books and not with_books):
                try:  # compiles on a cold cache
                    lookups = None if books or reader is None else reader.lookups(pos.ply)
                    solver = run_interruptibly(functools.partial(make_solver, books, lookups))
                    with_books = books
                except (ValueError, OSError, MemoryError) as exc:  # e.g. a damaged book
                    fail(f"solve: {exc}", FAILURE)
            search = (lambda s=solver, p=pos: s.analyze(p)) if analyze else (
                lambda s=solver, p=pos: s.solve(p, need_move=False))
            res = run_interruptibly(search, solver.stop, SolveReporter(solver, pos.digits()))
            scores = res.scores if analyze else (res.score,)
            nodes, micros = res.nodes, res.micros
        fields = [str(FULL_COLUMN if s is None else s) for s in scores]
        if stats:
            fields += [str(nodes), str(micros)]
        out.write(f"{pos.digits()} {' '.join(fields)}\n")  # as given, if given as digits
        out.flush()
        if verbose_stats:
            detail = ("from the books, no search" if answer is not None
                      else _format_stats(solver.last_stats)
                      if solver is not None and solver.last_stats else None)
            if detail:
                print(f"  {detail}", file=sys.stderr, flush=True)
    return status


def _format_stats(st) -> str:
    """One line of search statistics (a ``SolveStats``)."""
    speeds = "/".join(f"{v / 1e6:.1f}" for v in st.thread_speeds())
    return (f"nodes {st.nodes:,}  hits {100 * st.hit_rate:.1f}%  overwrites "
            f"{100 * st.overwrite_rate:.1f}%  first-move cutoffs {100 * st.first_cut_rate:.1f}%  "
            f"ETC cutoffs {st.etc_cutoffs:,}  interior nodes {st.interior:,}  "
            f"M nodes/s per thread {speeds}")


def register(app: typer.Typer) -> None:
    """Add ``solve`` to the CLI."""
    app.command("solve")(solve)
