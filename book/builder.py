"""The resumable, distributed book builder behind ``c4tui book build``.

The positions (see :mod:`c4tui.book.enumeration`) are cut into blocks of consecutive
positions, in enumeration order, so that neighbours share their search trees. Each block is
a work unit: plain data (its index and the move sequences of its positions). The units run
on Dask's distributed scheduler (:mod:`c4tui.book.cluster`): a local cluster of ``workers``
processes, or an existing cluster given by its scheduler address; ``workers=0`` solves them
in this process instead (tests, small builds). Each worker keeps its solver and
transposition table across the units it solves.

This process records the results as they arrive, writes an atomic checkpoint every
``checkpoint_every`` seconds and on interruption (Ctrl-C or SIGTERM), shows a progress bar
with rate and time left, and writes the book when every position is solved. Running the same
command again resumes from the checkpoint. The scores are exact, so the book is the same,
byte for byte, however the work was spread.
"""

from __future__ import annotations

import functools
import os
import signal
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from .checkpoint import Checkpoint, CheckpointError, build_identity
from .enumeration import enumerate_positions
from .format import BookError, encode, load, make_book, plies_mask, save
from .unit import (
    BuildError,
    SolverFactory,
    default_solver,
    floor_solver,
    solve_moves,
)


@dataclass
class BuildReport:
    """What a build run did."""

    total: int  # positions in the book
    solved_before: int  # already solved in the checkpoint when the run started
    solved: int  # solved at the end of the run
    run_positions: int  # positions solved by this run
    run_seconds: float  # wall-clock seconds of this run (solving part)
    run_cpu_seconds: float  # CPU seconds of the solving threads in this run
    run_nodes: int
    finished: bool  # the book file was written
    interrupted: bool
    out: Path
    checkpoint: Path

    @property
    def rate(self) -> float:
        """Positions per wall-clock second in this run."""
        return self.run_positions / self.run_seconds if self.run_seconds > 0 else 0.0

    @property
    def cpu_per_position(self) -> float:
        return self.run_cpu_seconds / self.run_positions if self.run_positions else 0.0


class _RateColumn(ProgressColumn):
    """Positions per second (rich's speed estimate over its window)."""

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        if speed is None:
            return Text("-- pos/s", style="progress.data.speed")
        return Text(f"{speed:.2f} pos/s", style="progress.data.speed")


@contextmanager
def _exclusive(ckpt_path: Path):
    """Refuse a second build on the same checkpoint: each would drop the other's results.

    The lock lives in the temporary directory (not beside the checkpoint, which is in the
    repository) and is released by the kernel when the process ends, however it ends.
    """
    import fcntl
    import hashlib
    import tempfile

    tag = hashlib.sha1(str(ckpt_path.resolve()).encode()).hexdigest()[:16]
    lock = Path(tempfile.gettempdir()) / f"c4tui-book-{tag}.lock"
    with open(lock, "a+") as f:
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise BuildError(f"{ckpt_path}: another build is using this checkpoint") from None
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


class _Stop(Exception):
    """Raised by the SIGTERM handler and by ``limit`` to stop a build cleanly."""


#: A build's local Dask workers and each one's table (MB) when none are asked for.
DEFAULT_WORKERS = 2
DEFAULT_HASH_MB = 64


# ------------------------------------------------------------------------------ builder
def build_book(
    ply: int,
    out: str | os.PathLike,
    *,
    workers: int | None = None,
    checkpoint: str | os.PathLike | None = None,
    root: str = "",
    hash_mb: int | None = None,
    block_size: int = 64,
    checkpoint_every: float = 120.0,
    limit: int | None = None,
    progress: bool = True,
    console: Console | None = None,
    solver_factory: SolverFactory = default_solver,
    floor_book: str | os.PathLike | None = None,
    scheduler: str | None = None,
) -> BuildReport:
    """Build (or resume building) the book of every position with ``ply`` discs.

    ``scheduler`` (``tcp://HOST:PORT``): run the work units on that Dask cluster's workers
    (:class:`SchedulerError` if nothing answers within a few seconds); else ``workers > 0``:
    on a local Dask cluster of that many processes (None: :data:`DEFAULT_WORKERS`);
    ``workers=0``: in this process. ``hash_mb`` (None: :data:`DEFAULT_HASH_MB`): each
    worker's table.
    ``solver_factory(hash_mb)`` makes a worker's solver; on a cluster it must be picklable
    (a module-level function, or a ``functools.partial`` of one).
    ``limit`` stops after about that many more positions (whole blocks), like an interruption:
    the checkpoint is written and a later run resumes. ``floor_book``: a book of positions
    with fewer discs whose scores bound the new positions' from below (the 8-ply book for
    a 9-ply build: about a quarter fewer nodes). Returns a :class:`BuildReport`.
    """
    workers = DEFAULT_WORKERS if workers is None else workers
    hash_mb = DEFAULT_HASH_MB if hash_mb is None else hash_mb
    if floor_book is not None:
        try:
            fb = load(floor_book)
        except (BookError, OSError) as exc:
            raise BuildError(f"--floor-book: {exc}") from None
        if fb.max_ply >= ply:
            raise BuildError(f"--floor-book {floor_book}: it holds positions with "
                             f"{fb.max_ply} discs; a floor book must stop below {ply}")
        solver_factory = functools.partial(floor_solver, encode(fb))
    out = Path(out)
    ckpt_path = Path(checkpoint) if checkpoint else out.with_suffix(".c4ck")
    console = console or Console(stderr=True)
    if workers < 0 or hash_mb < 1 or block_size < 1 or block_size > 65535:
        raise BuildError("workers must be >= 0, hash_mb >= 1, block_size 1-65535")

    with _exclusive(ckpt_path), _cluster(workers, scheduler, console) as client:
        return _build(
            ply,
            out,
            ckpt_path,
            console,
            client,
            root,
            hash_mb,
            block_size,
            checkpoint_every,
            limit,
            progress,
            solver_factory,
        )


def _cluster(workers: int, scheduler: str | None, console: Console):
    """The Dask client of the build's cluster (``None`` for an in-process build). Dask is
    imported only here: it takes a second or two to import."""
    if scheduler is None and workers == 0:
        return nullcontext(None)
    from .cluster import cluster_client

    return cluster_client(workers, scheduler, console)


def _build(
    ply,
    out,
    ckpt_path,
    console,
    client,
    root,
    hash_mb,
    block_size,
    checkpoint_every,
    limit,
    progress,
    solver_factory,
) -> BuildReport:
    enum = enumerate_positions(ply, root)
    ident = build_identity(ply, enum.root, enum.keys)
    if ckpt_path.exists():
        try:
            ck = Checkpoint.load(ckpt_path)
        except CheckpointError as exc:
            raise BuildError(str(exc)) from None
        if ck.identity != ident or ck.n != len(enum):
            raise BuildError(
                f"{ckpt_path}: checkpoint belongs to another build (ply {ck.ply}, "
                f"{ck.n} positions); remove it or choose another --checkpoint"
            )
    else:
        ck = Checkpoint.fresh(ply, block_size, ident, len(enum))
        ck.save(ckpt_path)

    solved_before = ck.solved
    pending = ck.pending_blocks()
    if limit is not None:
        kept, count = [], 0
        for b in pending:
            if count >= limit:
                break
            lo, hi = ck.block_range(b)
            kept.append(b)
            count += hi - lo
        pending = kept

    state = _RunState(ck, ckpt_path, console, checkpoint_every, progress)
    interrupted = False
    old_term = signal.getsignal(signal.SIGTERM)

    def on_term(signum, frame):
        raise _Stop("terminated")

    in_main = _is_main_thread()
    if in_main:
        signal.signal(signal.SIGTERM, on_term)
    t_start = time.monotonic()
    try:
        with state.progress_bar(len(enum), solved_before):
            if client is None:
                _run_inline(enum, ck, pending, state, hash_mb, solver_factory)
            else:
                from .cluster import run_units

                units = [(b, list(enum.moves[slice(*ck.block_range(b))])) for b in pending]
                run_units(client, units, state.record, solver_factory, hash_mb,
                          f"c4tui-book-{ident.hex()[:16]}")
    except (KeyboardInterrupt, _Stop):
        interrupted = True
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, old_term)
        ck.save(ckpt_path)  # whatever happened, the finished blocks are kept
    run_seconds = time.monotonic() - t_start

    finished = False
    if ck.complete:
        book = make_book(enum.keys, ck.scores, plies_mask([ply]))
        save(book, out)
        finished = True
    return BuildReport(
        total=len(enum),
        solved_before=solved_before,
        solved=ck.solved,
        run_positions=ck.solved - solved_before,
        run_seconds=run_seconds,
        run_cpu_seconds=state.cpu_seconds,
        run_nodes=state.nodes,
        finished=finished,
        interrupted=interrupted,
        out=out,
        checkpoint=ckpt_path,
    )


def _is_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


class _RunState:
    """Records results into the checkpoint, saves it periodically, drives the progress bar."""

    def __init__(self, ck: Checkpoint, path: Path, console: Console, every: float, bar: bool):
        self.ck, self.path, self.console, self.every, self.bar = ck, path, console, every, bar
        self.last_save = time.monotonic()
        self.started = time.monotonic()
        self.cpu_seconds = 0.0
        self.nodes = 0
        self.done_run = 0
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def progress_bar(self, total: int, done: int):
        state = self

        class _Ctx:
            def __enter__(self_inner):
                if state.bar:
                    state._progress = Progress(
                        TextColumn("[bold]book[/] ply {task.fields[ply]}"),
                        BarColumn(),
                        MofNCompleteColumn(),
                        _RateColumn(),
                        TextColumn("elapsed"),
                        TimeElapsedColumn(),
                        TextColumn("left"),
                        TimeRemainingColumn(),
                        console=state.console,
                        speed_estimate_period=900.0,
                        transient=False,
                    )
                    state._progress.start()
                    state._task = state._progress.add_task(
                        "build", total=total, completed=done, ply=state.ck.ply
                    )
                return self_inner

            def __exit__(self_inner, *exc):
                if state._progress is not None:
                    state._progress.stop()
                return False

        return _Ctx()

    def record(self, b: int, scores: list[int], nodes: int, seconds: float) -> None:
        lo, hi = self.ck.block_range(b)
        if len(scores) != hi - lo:
            raise BuildError(f"block {b}: worker returned {len(scores)} scores for {hi - lo}")
        self.ck.scores[lo:hi] = np.asarray(scores, dtype=np.int8)
        self.ck.nodes[b] = nodes
        self.ck.seconds[b] = seconds
        self.cpu_seconds += seconds
        self.nodes += nodes
        self.done_run += hi - lo
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, advance=hi - lo)
        self.tick()

    def tick(self) -> None:
        """Save the checkpoint if it is time; log a line when there is no live bar."""
        now = time.monotonic()
        if now - self.last_save >= self.every:
            self.ck.save(self.path)
            self.last_save = now
            if self._progress is None or not self.console.is_terminal:
                self.log_line()

    def log_line(self) -> None:
        ck = self.ck
        wall = time.monotonic() - self.started
        rate = self.done_run / wall if wall > 0 else 0.0
        left = (ck.n - ck.solved) / rate / 3600 if rate > 0 else float("inf")
        self.console.print(
            f"{time.strftime('%H:%M:%S')} checkpoint: {ck.solved}/{ck.n} solved "
            f"({100 * ck.solved / max(ck.n, 1):.2f}%), this run {self.done_run} in {wall:.0f} s "
            f"= {rate:.3f} pos/s, {self.cpu_seconds / max(self.done_run, 1):.2f} CPU s/pos, "
            f"~{left:.1f} h left",
            highlight=False,
            soft_wrap=True,
        )


def _run_inline(enum, ck, pending, state, hash_mb, factory) -> None:
    solver = factory(hash_mb)
    for b in pending:
        lo, hi = ck.block_range(b)
        t0 = time.thread_time()
        scores, nodes = solve_moves(solver, list(enum.moves[lo:hi]))
        state.record(b, scores, nodes, time.thread_time() - t0)
