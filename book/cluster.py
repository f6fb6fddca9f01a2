"""The book builder's work units on Dask's distributed scheduler.

A work unit is plain data: a block index and the move sequences of its positions. The
builder submits every pending block to a Dask cluster (a local one of ``workers``
processes, or an existing one given by its scheduler address) and takes the results as
they complete (``as_completed``), so that it checkpoints each block as soon as it is
solved. A worker that dies in the middle of a unit has the unit re-run elsewhere by Dask;
a unit whose workers die ``distributed.scheduler.allowed-failures`` + 1 times (3 + 1 by
default) ends the build with an error.

On each worker a :class:`UnitSolvers` plugin loads the engine's numba kernels once, when
the worker joins (not per unit), and keeps one solver per worker thread across units: the
transposition table of a solver re-uses the work of the neighbouring positions it solved
before, as the enumeration order intends.

This module imports ``distributed`` (about 1.5 s): the builder imports it only for a
cluster build.
"""

from __future__ import annotations

import asyncio
import gc
import importlib.metadata
import logging
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from distributed import Client, LocalCluster, WorkerPlugin, as_completed, get_worker
from rich.console import Console

from .unit import BuildError, SchedulerError, solve_moves

#: Seconds to reach a ``--scheduler`` before giving up.
CONNECT_TIMEOUT = 5.0
#: The dashboard port of a local cluster (Dask's usual one; another if it is taken).
DASHBOARD_ADDRESS = ":8787"

# (block, scores, nodes, CPU seconds) of a finished unit
Record = Callable[[int, list[int], int, float], None]


def _warm_kernels() -> None:
    from c4tui.engine.warmup import warmup

    warmup(solver_only=True)


class UnitSolvers(WorkerPlugin):
    """Worker state of one build: kernels loaded once, one solver per worker thread."""

    def __init__(self, factory: Callable[[int], object], hash_mb: int) -> None:
        self.factory = factory
        self.hash_mb = hash_mb

    async def setup(self, worker) -> None:
        self._local = threading.local()
        # in the worker's task thread pool, off its event loop: a cold numba cache compiles
        # for a minute or two (asyncio's own pool kept the worker alive at its close)
        await asyncio.get_running_loop().run_in_executor(worker.executors["default"],
                                                         _warm_kernels)

    def solver(self):
        """This thread's solver, made on its first unit and kept for the next ones."""
        solver = getattr(self._local, "solver", None)
        if solver is None:
            solver = self._local.solver = self.factory(self.hash_mb)
        return solver


# Ctrl-C in a terminal reaches every process of the build; the build, not each worker,
# decides what it means (it closes the cluster), so a local cluster's workers ignore SIGINT:
# those started with the cluster inherit the ignored signal (from their first line on), those
# a nanny restarts later ignore it from the preload below on.


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def dask_setup(worker) -> None:
    """Dask preload of a local cluster's workers: SIGINT ignored (see above)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def solve_unit(moves: list[str], plugin: str) -> tuple[list[int], int, float]:
    """Run one work unit on a Dask worker: (scores, nodes, CPU seconds of this thread)."""
    state = get_worker().plugins.get(plugin)
    if not isinstance(state, UnitSolvers):
        raise RuntimeError(f"this worker has no {plugin} plugin (the build's set-up)")
    solver = state.solver()
    t0 = time.thread_time()
    scores, nodes = solve_moves(solver, moves)
    return scores, nodes, time.thread_time() - t0


def dashboard_available(bokeh_version: str | None = None) -> bool:
    """Whether Dask can serve its dashboard: it needs bokeh (not a dependency) of a version
    it supports; ``bokeh_version``: another host's (None: this one's, if installed)."""
    from distributed.versions import BOKEH_REQUIREMENT

    if bokeh_version is None:
        try:
            bokeh_version = importlib.metadata.version("bokeh")
        except importlib.metadata.PackageNotFoundError:
            return False
    return BOKEH_REQUIREMENT.specifier.contains(bokeh_version, prereleases=True)


class _ToConsole(logging.Handler):
    """Dask's warnings, and a local worker's death (a nanny's info line), printed above
    the progress bar, one line each; nothing once the build closes its cluster."""

    def __init__(self, console: Console) -> None:
        super().__init__(logging.INFO)
        self.console = console
        self.closing = False  # the build closes its cluster: what follows is no news

    def filter(self, record: logging.LogRecord) -> bool:
        if self.closing:
            return False
        return record.levelno >= logging.WARNING or (
            record.name == "distributed.nanny" and record.getMessage().startswith("Worker process")
        )

    def emit(self, record: logging.LogRecord) -> None:
        first = record.getMessage().strip().splitlines()[:1] or [record.levelname]
        self.console.print(f"dask: {first[0]}", highlight=False, markup=False, soft_wrap=True)


@contextmanager
def _dask_log(console: Console) -> Iterator[_ToConsole]:
    """Dask's log (and asyncio's, whose loop Dask runs here) through a :class:`_ToConsole`."""
    logs = [logging.getLogger(name) for name in ("distributed", "asyncio")]
    saved = [(log.handlers[:], log.propagate) for log in logs]
    handler = _ToConsole(console)
    for log in logs:
        log.handlers[:] = [handler]
        log.propagate = False
    try:
        yield handler
    finally:
        gc.collect()  # the last words of a closed cluster's futures, while still filtered
        for log, (handlers, propagate) in zip(logs, saved, strict=True):
            log.handlers[:], log.propagate = handlers, propagate


def check_address(scheduler: str) -> None:
    """:class:`SchedulerError` unless ``scheduler`` reads as a Dask address with a port."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(scheduler)
        get_backend(scheme)
        host, port = parse_host_port(location)
    except ValueError as exc:
        raise SchedulerError(f"--scheduler {scheduler!r}: {exc}; expected tcp://HOST:PORT") \
            from None
    if not host or not 0 < port < 65536:
        raise SchedulerError(f"--scheduler {scheduler!r}: expected tcp://HOST:PORT "
                             "(a host and a port 1-65535)")


def connect(scheduler: str) -> Client:
    """A client of the cluster at ``scheduler``; :class:`SchedulerError` at once if the
    address is malformed, within :data:`CONNECT_TIMEOUT` seconds if nothing answers."""
    check_address(scheduler)
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, ValueError, TypeError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SchedulerError(f"--scheduler {scheduler}: {msg}") from None


@contextmanager
def cluster_client(workers: int, scheduler: str | None, console: Console) -> Iterator[Client]:
    """A client of the existing cluster at ``scheduler``, or of a new local cluster of
    ``workers`` single-threaded processes (closed on exit); says where its dashboard is."""
    with _dask_log(console) as log:
        if scheduler is not None:
            client = connect(scheduler)
            cluster = None
            info = client.scheduler_info()
            nw = len(info.get("workers", {}))
            threads = sum(w.get("nthreads", 0) for w in info.get("workers", {}).values())
            what = f"scheduler {scheduler}: {nw} workers, {threads} threads"
            if not nw:
                what += f" (the build waits for `dask worker {scheduler}`)"
            versions = client.get_versions(packages=["bokeh"])
            assert isinstance(versions, dict)  # a synchronous client: no coroutine
            bokeh = versions["scheduler"]["packages"]["bokeh"]
            has_dashboard = bokeh is not None and dashboard_available(bokeh)
        else:
            has_dashboard = dashboard_available()
            with _sigint_ignored():  # a few seconds
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    # without bokeh only its HTTP server (health, metrics): any free port
                    dashboard_address=DASHBOARD_ADDRESS if has_dashboard else ":0",
                    # The workers' own log: a failed unit reaches the client as its
                    # exception, a dead worker as the nanny's line (above); what is left
                    # is shutdown noise, such as a restarted worker's heartbeat finding
                    # the scheduler closed (an ERROR with a traceback, seen in CI).
                    silence_logs=logging.CRITICAL,
                    preload=[__name__],  # dask_setup
                )
            client = Client(cluster, set_as_default=False)
            what = f"local cluster of {workers} worker processes"
        if has_dashboard:
            what += f"; dashboard {client.dashboard_link}"
        else:
            what += "; no dashboard (it needs bokeh on the scheduler's host: pip install bokeh)"
        console.print(f"dask: {what}", highlight=False, soft_wrap=True)
        try:
            yield client
        finally:
            # a worker busy with a unit at an interruption is killed after a few seconds
            log.closing = True
            client.close()
            if cluster is not None:
                cluster.close()


def run_units(
    client: Client,
    units: list[tuple[int, list[str]]],
    record: Record,
    factory: Callable[[int], object],
    hash_mb: int,
    build: str,
) -> None:
    """Solve the units on the cluster, calling ``record`` for each as it completes.

    ``build`` names the build (its identity): its worker plugin has that name, so that a
    resumed build replaces the plugin (and solvers) of a killed run of the same build.
    """
    if not units:
        return
    try:
        client.register_plugin(UnitSolvers(factory, hash_mb), name=build)
    except Exception as exc:  # noqa: BLE001 - e.g. a worker without c4tui installed
        raise BuildError(f"setting up the workers failed: {_one_line(exc)}") from None
    run = f"{build}-{uuid.uuid4().hex[:8]}"  # task keys of this run only
    futures = {
        client.submit(solve_unit, moves, build, key=f"{run}-{b}", priority=-b, pure=False): b
        for b, moves in units
    }
    try:
        done = as_completed(futures, with_results=True, raise_errors=False, loop=client.loop)
        for fut, result in done:
            b = futures.pop(fut)
            if fut.status != "finished":
                raise BuildError(f"block {b} failed on a worker: {_one_line(result)}")
            record(b, *result)
            fut.release()
    finally:
        if futures:
            client.cancel(list(futures))
        try:
            client.unregister_worker_plugin(build)  # frees the workers' solvers
        except Exception:  # noqa: BLE001 - the cluster may be gone; nothing left to free
            pass


def _one_line(exc: object) -> str:
    if isinstance(exc, BaseException):
        text = str(exc).strip().splitlines()
        name = type(exc).__name__
        return f"{name}: {text[0]}" if text else name
    return str(exc)
