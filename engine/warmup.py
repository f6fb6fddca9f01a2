"""Loading (or, on a cold cache, compiling) the numba kernels ahead of use.

The kernels come in two *stages*, in the order a first screen needs them: the exact
solver's (exact values; the books' answers need no kernel) and the analysis search's.
On a cold cache :class:`ParallelCompile` compiles them in child processes, one per stage
where the cores allow (numba's cache is per function and written atomically: two
processes fill it at once, and a kernel both need is compiled by each or loaded by the
later one), so that the calling process only loads them (:func:`warmup`). The children
report each kernel they finish on stdout; :meth:`ParallelCompile.progress` counts them and
estimates the time left from the last cold compile on this machine, which it keeps in
the user's cache directory (:func:`history_path`).

Nothing here imports a kernel module at import time: ``c4tui solve`` imports this module
to ask :func:`is_compiled` only when the books have not answered.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .board.geometry import DEFAULT_HEIGHT, DEFAULT_WIDTH, NAME, TWO_WORDS, size_name
from .priority import lower_priority


@dataclass(frozen=True)
class Stage:
    """Kernels warmed together: ``module.func()`` runs them once; ``kernels`` are the
    dispatchers it compiles, as ``"module.name"`` under ``c4tui.engine`` (progress is
    counted in them)."""

    name: str
    module: str
    func: str
    kernels: tuple[str, ...]


_PROBE = "books.probe._no_book" if TWO_WORDS else "books.probe._book_probe"

#: In the order a first screen needs them: exact values, then the analysis search.
#: (tests/test_warmup.py checks that these are all the engine's compiled dispatchers.)
STAGES: tuple[Stage, ...] = (
    Stage("solver", "c4tui.engine.solver.solver", "_warmup",
          (_PROBE, "solver.solver_kernel.negamax", "solver.solver_kernel._move_for_score",
           "solver.solver_kernel.solve_root")),
    Stage("analysis", "c4tui.engine.analysis.controller", "_warmup",
          (_PROBE, "analysis.eval.threat_fill", "analysis.kernel._control",
           "analysis.eval.evaluate", "analysis.eval.endgame_value", "analysis.kernel.ab")),
)

#: Seconds each kernel takes to compile alone (its callees' time not counted) on the
#: reference machine (2 cores, 7x6: each kernel's share of its stage's CPU seconds, 56 s
#: and 7.5 s; docs/benchmarks.md "Cold start"): the estimate until this machine has
#: compiled once.
DEFAULT_SECONDS: dict[str, float] = {
    "books.probe._book_probe": 0.3, "books.probe._no_book": 0.2,
    "solver.solver_kernel.negamax": 52.0, "solver.solver_kernel._move_for_score": 1.3,
    "solver.solver_kernel.solve_root": 1.9, "analysis.eval.threat_fill": 0.5,
    "analysis.kernel._control": 0.2, "analysis.eval.evaluate": 0.2,
    "analysis.eval.endgame_value": 0.9, "analysis.kernel.ab": 4.7,
}
#: How much lower than the caller the compiling children run (the UI comes first).
CHILD_NICE_STEP = 5
#: The estimate follows this compile's pace once kernels expected to take this many
#: seconds are done, within this factor of the expected times either way.
MIN_PACE_SECONDS = 3.0
MAX_PACE = 20.0
_PACKAGE = __name__.rpartition(".")[0]  # "c4tui.engine"


def stage_names(solver_only: bool = False) -> tuple[str, ...]:
    """The stages a full warm-up (or, ``solver_only``, ``c4tui solve``'s) needs."""
    return tuple(s.name for s in (STAGES[:1] if solver_only else STAGES))


def _stage(name: str) -> Stage:
    for s in STAGES:
        if s.name == name:
            return s
    raise ValueError(f"no warm-up stage {name!r}")


def _dispatcher(kernel: str):
    module, _, name = kernel.rpartition(".")
    return getattr(importlib.import_module(f"{_PACKAGE}.{module}"), name)


def _cached(kernel: str) -> bool:
    """Whether numba's cache (of this process's size) has an index for ``kernel``."""
    cache = getattr(_dispatcher(kernel), "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return index is not None and os.path.exists(index)


def missing(stages: Iterable[str]) -> list[str]:
    """The kernels of ``stages`` that numba's cache lacks, in stage order, each once.
    Imports the kernel modules (numba: most of a second), compiles nothing."""
    seen: list[str] = []
    for name in stages:
        for kernel in _stage(name).kernels:
            if kernel not in seen and not _cached(kernel):
                seen.append(kernel)
    return seen


def is_compiled(solver_only: bool = False) -> bool:
    """Whether numba's cache already holds the engine's kernels (a warm start).

    ``solver_only``: just the exact solver's (what ``c4tui solve`` loads).
    """
    return not missing(stage_names(solver_only))


def warmup(solver_only: bool = False) -> None:
    """Load or compile the engine's kernels by running each once on a tiny position.

    ``solver_only``: just the exact solver's (what ``c4tui solve`` needs).
    """
    for name in stage_names(solver_only):
        _run_stage(_stage(name))


def _run_stage(stage: Stage) -> None:
    fn = getattr(importlib.import_module(stage.module), stage.func)
    fn()


# --- the children -------------------------------------------------------------------

def compile_stages(names: Sequence[str], out=None) -> None:
    """A compiling child's work: run ``names``' warm-ups in order, writing a line
    ``kernel <name> <seconds>`` to ``out`` (stdout) as each of their kernels is compiled
    (its own seconds, callees' not counted). A kernel loaded from the cache has no line."""
    from numba.core import event

    out = sys.stdout if out is None else out
    wanted = {k for n in names for k in _stage(n).kernels}
    stack: list[list[float]] = []  # [start, seconds spent in callees' compiles]

    class Listener(event.Listener):
        def on_start(self, ev) -> None:
            stack.append([time.perf_counter(), 0.0])

        def on_end(self, ev) -> None:
            start, inner = stack.pop()
            spent = time.perf_counter() - start
            if stack:
                stack[-1][1] += spent
            py = getattr(ev.data.get("dispatcher"), "py_func", None)
            module = getattr(py, "__module__", "") or ""
            kernel = f"{module.rpartition('.')[2]}.{getattr(py, '__name__', '')}"
            if kernel in wanted:
                out.write(f"kernel {kernel} {spent - inner:.3f}\n")
                out.flush()

    with event.install_listener("numba:compile", Listener()):
        for name in names:
            _run_stage(_stage(name))


def _child_command(names: Sequence[str]) -> list[str]:
    return [sys.executable, "-c",
            f"from {__name__} import compile_stages; compile_stages({list(names)!r})"]


# --- what this machine took last time -----------------------------------------------

def history_path() -> Path:
    """The last cold compile's seconds per kernel, per size: ``compile-times.json`` in
    ``C4TUI_CACHE_DIR`` or the user's cache directory (as the converted database)."""
    env = os.environ.get("C4TUI_CACHE_DIR", "").strip()
    if env:
        return Path(env) / "compile-times.json"
    import platformdirs

    return Path(platformdirs.user_cache_dir("c4tui")) / "compile-times.json"


def _read_history() -> dict[str, dict[str, float]]:
    try:
        data = json.loads(history_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # none yet, or damaged: the defaults stand in
    if not isinstance(data, dict):
        return {}
    return {size: {k: float(v) for k, v in times.items()
                   if isinstance(k, str) and isinstance(v, (int, float)) and 0 <= v < 1e5}
            for size, times in data.items() if isinstance(size, str) and isinstance(times, dict)}


def _write_history(size: str, times: dict[str, float]) -> None:
    data = _read_history()
    data[size] = {**data.get(size, {}), **times}
    path = history_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)  # a concurrent reader sees the old file or the new one
    except OSError:
        pass  # a read-only cache: the next estimate uses the defaults again


def estimates(size: str = NAME) -> dict[str, float]:
    """Seconds per kernel for ``size``: this machine's last cold compile of that size,
    else of another size (the same kernels), else :data:`DEFAULT_SECONDS`."""
    history = _read_history()
    times = dict(DEFAULT_SECONDS)
    for other in sorted(history):  # another size's times before none
        times.update(history[other])
    times.update(history.get(size, {}))
    return times


def ever_compiled() -> bool:
    """Whether this machine has compiled the engine before, for any size: a recorded
    compile, or the solver's main kernel in the cache (of 7x6 or any other size)."""
    if _read_history():
        return True
    orig = os.environ.get("C4TUI_NUMBA_ORIG")
    base = orig if orig is not None else os.environ.get("NUMBA_CACHE_DIR", "")
    if not base:
        base = str(Path(__file__).resolve().parent)  # each room's __pycache__, size-* too
    root = Path(base)
    pattern = "solver_kernel.negamax-*.nbi"
    try:
        # 7x6 (numba's own place: here; a NUMBA_CACHE_DIR: a tree named after this
        # directory) and the other sizes (size-WxH under either)
        return any(True for _ in root.rglob(pattern)) if root.is_dir() else False
    except OSError:
        return False


def headline() -> str:
    """What a cold start is doing, in words: ``first start: compiling the engine`` only
    when nothing was ever compiled here, ``compiling for 10x10`` on a new size."""
    if not ever_compiled():
        return "first start: compiling the engine"
    if NAME != size_name(DEFAULT_WIDTH, DEFAULT_HEIGHT):
        return f"compiling for {NAME}"
    return "compiling the engine"


# --- compiling in child processes ---------------------------------------------------

@dataclass(frozen=True)
class Progress:
    """How far a compile is: kernels done of ``total``, seconds since it began, and the
    estimated seconds left (None: no child is running)."""

    done: int
    total: int
    elapsed: float
    left: float | None

    def describe(self) -> str:
        """``7/9 kernels, 34 s, about 40 s left``."""
        text = f"{self.done}/{self.total} kernels, {self.elapsed:.0f} s"
        if self.left is not None:
            text += f", about {self.left:.0f} s left" if self.left >= 1 else ", nearly done"
        return text


@dataclass
class _Child:
    stages: tuple[str, ...]
    kernels: list[str]  # what it compiles, in order (its stages', each once)
    proc: subprocess.Popen[str] | None = None
    done: list[str] = field(default_factory=list)
    last: float = 0.0  # when it last finished a kernel (or started)


def plan(stages: Sequence[str], workers: int) -> list[tuple[str, ...]]:
    """The stages each child runs: one child per stage while there are workers, the
    first stages first; the rest go to the last child (one core: one child, in order)."""
    workers = max(1, min(workers, len(stages)))
    groups = [[s] for s in stages[:workers - 1]]
    groups.append(list(stages[workers - 1:]))
    return [tuple(g) for g in groups if g]


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class ParallelCompile:
    """Compiles ``stages``' missing kernels in child processes (see the module's doc).

    :meth:`start` them, read :meth:`progress` while :meth:`wait` has not returned True,
    :meth:`kill` to stop at once (no child is left running). After a complete compile
    the kernels' seconds are kept for the next estimate (:func:`history_path`).
    ``command`` makes a child's command line from its stages (tests use a fake).
    """

    def __init__(self, stages: Sequence[str], workers: int | None = None,
                 nice_step: int = CHILD_NICE_STEP,
                 command: Callable[[Sequence[str]], list[str]] = _child_command,
                 todo: Sequence[str] | None = None,
                 times: dict[str, float] | None = None) -> None:
        """``todo``: the kernels to count (default: :func:`missing`); ``times``: the
        seconds to expect per kernel (default: :func:`estimates`)."""
        self._todo = list(missing(stages) if todo is None else todo)
        self._times = estimates() if times is None else times
        # a stage whose kernels are all cached already (c4tui solve compiled the solver's)
        # needs no child
        stages = [s for s in stages if any(k in self._todo for k in _stage(s).kernels)]
        self._children = [
            _Child(group, [k for s in group for k in _stage(s).kernels
                           if k in self._todo])
            for group in plan(stages, cores() if workers is None else workers)]
        self._nice_step = nice_step
        self._command = command
        self._lock = threading.Lock()
        self._killed = False
        self._seconds: dict[str, float] = {}
        self._start = 0.0
        self._readers: list[threading.Thread] = []

    @property
    def total(self) -> int:
        """The kernels to compile."""
        return len(self._todo)

    def start(self) -> None:
        """Start the children (each ``nice_step`` below this process's priority)."""
        self._start = time.monotonic()
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        for child in self._children:
            with self._lock:
                if self._killed:
                    return
                try:
                    child.proc = subprocess.Popen(
                        self._command(child.stages), stdin=subprocess.DEVNULL,
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                        env=env)
                except OSError:
                    continue  # no child: the caller's own warm-up compiles instead
            child.last = time.monotonic()
            lower_priority(self._nice_step, child.proc.pid)
            reader = threading.Thread(target=self._read, args=(child,),
                                      name="c4-compile-reader", daemon=True)
            reader.start()
            self._readers.append(reader)

    def _read(self, child: _Child) -> None:
        proc = child.proc
        assert proc is not None and proc.stdout is not None
        for line in proc.stdout:
            word, _, rest = line.strip().partition(" ")
            kernel, _, seconds = rest.partition(" ")
            if word != "kernel":
                continue
            try:
                spent = float(seconds)
            except ValueError:
                continue
            with self._lock:
                if kernel not in child.done:
                    child.done.append(kernel)
                    child.last = time.monotonic()
                self._seconds[kernel] = max(spent, self._seconds.get(kernel, 0.0))
        proc.wait()

    def progress(self) -> Progress:
        """Kernels done (by any child) of :attr:`total`, elapsed seconds, time left:
        per running child, its kernels still to do at this machine's last seconds (scaled
        by how much slower or faster this compile's kernels have been so far: a busy
        machine), less the time since it finished its last one; the slowest child's."""
        now = time.monotonic()
        with self._lock:
            done = {k for c in self._children for k in c.done if k in self._todo}
            expected = sum(self._times.get(k, 0.0) for k in self._seconds)
            pace = 1.0 if expected < MIN_PACE_SECONDS else min(
                MAX_PACE, max(1 / MAX_PACE, sum(self._seconds.values()) / expected))
            lefts = []
            for c in self._children:
                if c.proc is None or c.proc.poll() is not None:
                    continue
                pending = [k for k in c.kernels if k not in c.done and k not in done]
                if pending:
                    expect = pace * sum(self._times.get(k, 0.0) for k in pending)
                    lefts.append(max(0.0, expect - (now - c.last)))
        return Progress(len(done), self.total, now - self._start if self._start else 0.0,
                        max(lefts) if lefts else None)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds for every child to end; whether they have."""
        end = None if timeout is None else time.monotonic() + timeout
        for reader in self._readers:
            reader.join(None if end is None else max(0.0, end - time.monotonic()))
            if reader.is_alive():
                return False
        if not self._killed and self.succeeded():
            self._record()
        return True

    def succeeded(self) -> bool:
        """Whether every child ran and ended well."""
        return all(c.proc is not None and c.proc.returncode == 0 for c in self._children)

    def _record(self) -> None:
        with self._lock:
            seconds = dict(self._seconds)
        if seconds:
            _write_history(NAME, seconds)

    def kill(self) -> None:
        """Kill the children at once and reap them (quitting never waits for a compile)."""
        with self._lock:
            self._killed = True
            procs = [c.proc for c in self._children if c.proc is not None]
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
        for proc in procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass  # a kernel holds it in uninterruptible sleep: init reaps it later

    def pids(self) -> list[int]:
        """The children's process ids (for tests)."""
        return [c.proc.pid for c in self._children if c.proc is not None]
