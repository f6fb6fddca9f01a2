"""The cold start (issue 36.1): the kernels compiled in child processes, in order and in
parallel, their progress counted and the time left estimated from this machine's last
compile; "first start" only when it is one; no child left when the app quits; and a
``c4tui solve`` that imports only what it uses.

The children here are fakes (a few lines of Python that print what a compiling child
prints): the real compile takes minutes (docs/benchmarks.md, "Cold start").
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from c4tui.engine import warmup as W
from waiting import wait_until

ALL = list(dict.fromkeys(k for s in W.STAGES for k in s.kernels))


def _fake(gate: Path, seconds: float = 1.5):
    """A child's command: it prints a ``kernel`` line for each kernel of its stages but
    the last, waits for ``gate`` to exist, then prints the last."""

    def command(stages):
        kernels = [k for s in W.STAGES if s.name in stages for k in s.kernels]
        code = textwrap.dedent(f"""
            import os, sys, time
            kernels = {kernels!r}
            for k in kernels[:-1]:
                print("kernel", k, {seconds!r}, flush=True)
            while not os.path.exists({str(gate)!r}):
                time.sleep(0.01)
            print("kernel", kernels[-1], {seconds!r}, flush=True)
        """)
        return [sys.executable, "-c", code]

    return command


def _sleeper(stages):
    return [sys.executable, "-c", "import time; print('kernel x 1', flush=True); "
            "time.sleep(600)"]


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A private cache directory: the learnt compile times go there."""
    monkeypatch.setenv("C4TUI_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_stages_are_every_compiled_kernel_solver_first():
    """Every dispatcher the engine compiles (not inlined) is counted, the solver's first."""
    import importlib

    from numba.core.registry import CPUDispatcher

    assert [s.name for s in W.STAGES] == ["solver", "analysis"]
    found = set()
    for module in ("solver.solver_kernel", "analysis.kernel", "analysis.eval", "books.probe",
                   "board.bitboard", "solver.tt", "analysis.tt", "solver.tt_wide",
                   "board.word128"):
        mod = importlib.import_module(f"c4tui.engine.{module}")
        for name, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == mod.__name__ \
                    and obj.targetoptions.get("inline", "never") != "always" \
                    and obj.py_func.__name__ == name:
                found.add(f"{module}.{name}")
    unused_probe = {"books.probe._book_probe", "books.probe._no_book"} - {W._PROBE}
    assert found - unused_probe == set(ALL)


def test_progress_counts_kernels_estimates_and_learns(cache, tmp_path):
    gate = tmp_path / "gate"
    times = {k: 10.0 for k in ALL}
    # this machine is twice as slow as the times say: the estimate follows its pace
    compiling = W.ParallelCompile(["solver", "analysis"], workers=2,
                                  command=_fake(gate, seconds=20.0), todo=ALL, times=times)
    assert compiling.total == 9
    compiling.start()
    try:
        # each child has done all but its last kernel (the probe is in both: counted once)
        wait_until(lambda: compiling.progress().done == 7, 30, "7 kernels done")
        p = compiling.progress()
        assert p.total == 9 and 10.0 < p.left <= 20.0  # two children, 2 x 10 s each to go
        assert p.describe().startswith("7/9 kernels, ")
        assert p.describe().endswith(f"about {p.left:.0f} s left")
        assert not compiling.wait(0)
    finally:
        gate.touch()
    assert compiling.wait(30) and compiling.succeeded()
    assert compiling.progress().done == 9 and compiling.progress().left is None
    # learnt: the next estimate is this machine's seconds, not the defaults
    assert W.history_path() == cache / "compile-times.json"
    assert W.estimates() == {**W.DEFAULT_SECONDS, **{k: 20.0 for k in ALL}}


def test_the_estimate_runs_down_and_never_goes_negative():
    p = W.Progress(3, 9, 40.4, 0.2)
    assert p.describe() == "3/9 kernels, 40 s, nearly done"
    assert W.Progress(0, 9, 0.0, 42.4).describe() == "0/9 kernels, 0 s, about 42 s left"
    assert W.Progress(9, 9, 61.0, None).describe() == "9/9 kernels, 61 s"


def test_one_core_runs_the_stages_in_order_in_one_child():
    assert W.plan(["solver", "analysis"], 1) == [("solver", "analysis")]
    assert W.plan(["solver", "analysis"], 2) == [("solver",), ("analysis",)]
    assert W.plan(["solver", "analysis"], 8) == [("solver",), ("analysis",)]
    assert W.plan(["solver"], 2) == [("solver",)]


def test_first_start_only_when_nothing_was_ever_compiled(cache, tmp_path, monkeypatch):
    numba_dir = tmp_path / "numba"
    numba_dir.mkdir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(numba_dir))
    monkeypatch.delenv("C4TUI_NUMBA_ORIG", raising=False)
    assert W.headline() == "first start: compiling the engine"
    # another size compiled here before: not a first start
    other = numba_dir / "size-10x10" / "work" / "engine"
    other.mkdir(parents=True)
    (other / "solver_kernel.negamax-593.py311.nbi").write_bytes(b"")
    assert W.headline() == "compiling the engine"
    monkeypatch.setattr(W, "NAME", "10x10")
    assert W.headline() == "compiling for 10x10"


def test_a_recorded_compile_is_not_a_first_start(cache, tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("C4TUI_NUMBA_ORIG", raising=False)
    W._write_history("8x8", {"solver.solver_kernel.negamax": 70.0})
    assert W.headline() == "compiling the engine"
    assert W.estimates("7x6")["solver.solver_kernel.negamax"] == 70.0  # another size's, not none
    (cache / "compile-times.json").write_text("{not json")
    assert W.estimates() == W.DEFAULT_SECONDS  # damaged: the defaults, no error


def test_kill_leaves_no_child_and_children_run_below_the_caller(cache):
    compiling = W.ParallelCompile(["solver", "analysis"], workers=2, command=_sleeper,
                                  todo=ALL)
    compiling.start()
    pids = compiling.pids()
    assert len(pids) == 2
    wait_until(lambda: compiling.progress().done == 0 and all(
        not _gone(p) for p in pids), 10, "two children")
    own = os.getpriority(os.PRIO_PROCESS, 0)
    for pid in pids:
        assert os.getpriority(os.PRIO_PROCESS, pid) >= min(19, own + W.CHILD_NICE_STEP)
    compiling.kill()
    assert all(_gone(p) for p in pids)
    assert compiling.wait(5) and not compiling.succeeded()
    assert not (cache / "compile-times.json").exists()  # a killed compile teaches nothing


def test_the_loader_shows_progress_and_quitting_kills_the_children(cache, monkeypatch):
    from c4tui.app.bridge.engine_view import EngineState
    from c4tui.app.bridge.loader import EngineLoader

    started: list[W.ParallelCompile] = []

    class Sleeping(W.ParallelCompile):
        def __init__(self, stages, **kw):
            super().__init__(stages, workers=2, command=_sleeper, todo=ALL)
            started.append(self)

    monkeypatch.setattr(W, "is_compiled", lambda solver_only=False: False)
    monkeypatch.setattr(W, "ParallelCompile", Sleeping)
    monkeypatch.setattr(W, "headline", lambda: "compiling for 10x10")
    loader = EngineLoader(lambda engine: None)
    loader.start()
    wait_until(lambda: started and len(started[0].pids()) == 2, 20, "the children")
    wait_until(lambda: "s left" in loader.message, 10, "an estimate")
    assert loader.state is EngineState.COMPILING
    assert loader.message.startswith("compiling for 10x10: 0/9 kernels, ")
    pids = started[0].pids()
    loader.shutdown()
    assert all(_gone(p) for p in pids)


def test_the_status_line_shows_the_compile_first():
    """80 columns show the whole progress (it was last, after the settings, cut off)."""
    from c4tui.app.bridge.engine_view import EngineState, EngineView
    from c4tui.app.bridge.settings import SearchSettings
    from c4tui.app.widgets import StatusLine

    line = StatusLine()
    says = "first start: compiling the engine: 3/9 kernels, 21 s, about 40 s left"
    line.view = EngineView(EngineState.COMPILING, SearchSettings(), says)
    text = str(line.render())
    assert text.startswith(f" ● {says}  │ limit") and text.count("kernels") == 1


def _modules_after(*args: str) -> set[str]:
    code = ("import sys\nsys.argv = ['c4tui', *sys.argv[1:]]\nfrom c4tui.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(' '.join(sorted(sys.modules)))\n")
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                       timeout=120)
    return set(r.stderr.split())


@pytest.mark.parametrize("position, solver", [("4453", False), ("2567355334757", True)])
def test_solve_imports_only_what_it_uses(position, solver):
    """``c4tui solve`` (1.0-1.3 s in a fresh process) imported every command's modules."""
    mods = _modules_after("solve", position)
    for unwanted in ("textual", "dask", "distributed", "c4tui.app", "c4tui.match",
                     "c4tui.cli.bench", "c4tui.cli.match", "c4tui.engine.analysis.kernel",
                     "c4tui.engine.analysis.controller", "c4tui.serve"):
        assert unwanted not in mods, unwanted
    # past the books only: the solver's kernels (numba) are loaded
    assert ("c4tui.engine.solver.solver_kernel" in mods) is solver
    assert ("numba" in mods) is solver


def test_every_command_module_registers_its_name():
    from c4tui.cli import app
    from c4tui.cli.main import COMMANDS

    names = [c.name for c in app.registered_commands] + [
        g.name for g in app.registered_groups]
    assert sorted(names) == sorted(COMMANDS)


def test_a_position_deeper_than_the_books_loads_only_the_lookups_it_needs():
    """A 13-disc position: the 12-ply database for the floor (its parent's score), not the
    books loaded and merged (38 MB, a third of the new process's time); the same answer
    and the same single node as with them."""
    code = ("import sys\nfrom c4tui.cli import main\n"
            "try:\n    main(['solve', '--stats', '-t', '1', *sys.argv[1:]])\n"
            "except SystemExit:\n    pass\n"
            "import c4tui.book as books\nsys.stderr.write(f'merged={books._loaded}')\n")
    r = subprocess.run([sys.executable, "-c", code, "2567355334757"], capture_output=True,
                       text=True, timeout=120)
    assert r.stdout.split()[:3] == ["2567355334757", "14", "1"], r.stderr
    assert r.stderr.endswith("merged=False")
    from c4tui.book.answer import BookReader
    from c4tui.engine.board.position import Position

    reader = BookReader()
    assert reader.reaches(13)  # nothing looked at yet: unsure
    assert reader.score(Position.parse("2567355334757")) is None
    assert reader.reaches(12) and not reader.reaches(13)  # the 12-ply database is deepest


def test_quitting_the_app_during_a_cold_compile_leaves_no_process(tmp_path):
    """The real thing: the app on an empty numba cache starts one compiling child per
    stage (two cores) and the status line counts kernels; q ends the app and both
    children at once."""
    import os as _os

    from test_app import _drain, _read_until, _run_in_pty
    from waiting import children, cpu_seconds

    code = "from c4tui.app import C4App; C4App().run()"
    proc, master = _run_in_pty(code, {"NUMBA_CACHE_DIR": str(tmp_path / "cold"),
                                      "C4TUI_CACHE_DIR": str(tmp_path / "cache")})
    try:
        _read_until(master, b"kernels", 60)
        _drain(master)
        want = min(2, W.cores())
        kids = wait_until(lambda: (k := children(proc.pid)) and len(k) >= want
                          and all(cpu_seconds(p) >= 0.3 for p in k) and k, 60,
                          "the compiling children at work", proc=proc)
        _os.write(master, b"q")
        proc.wait(timeout=10)
        wait_until(lambda: all(_gone(p) for p in kids), 5, "no child left")
    finally:
        if proc.poll() is None:
            proc.kill()
        _os.close(master)


def test_a_stage_already_compiled_gets_no_child(cache, tmp_path):
    """``c4tui solve`` compiled the solver's kernels: the app compiles the analysis
    kernels alone, in one child."""
    analysis = [k for k in ALL if k in W.STAGES[1].kernels and k != W._PROBE]
    compiling = W.ParallelCompile(["solver", "analysis"], workers=2,
                                  command=_fake(tmp_path), todo=analysis)
    compiling.start()
    assert len(compiling.pids()) == 1 and compiling.total == 5
    assert compiling.wait(30) and compiling.progress().done == 5
