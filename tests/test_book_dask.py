"""The book builder on Dask (issue 15): real clusters on this machine's loopback.

The small subtree book of tests/test_book_build.py (42 positions with 34 discs) is built

* in this process (``--workers 0``), on a local Dask cluster of two worker processes, and on
  an external cluster (a ``dask scheduler`` and two ``dask worker`` processes started here):
  the three books are byte for byte the same, with the same checksum in ``book info``;
* on a local cluster one of whose worker processes is killed (SIGKILL) in the middle of the
  build: Dask re-runs its unit and the book is still the same;
* on the external cluster by a builder that is killed (SIGKILL), then by the same command
  again: the second run solves only what the checkpoint lacks, and the book is the same.

A bad or unreachable ``--scheduler`` is one line and exit status 2, within seconds. Every
process started here is ended (its whole process group) when the tests are done.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from c4tui.book.builder import build_book
from c4tui.book.checkpoint import Checkpoint
from waiting import wait_until

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
# PYTHONPATH for every process started here: the workers unpickle test_book_build's solvers
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    p for p in (str(HERE), os.environ.get("PYTHONPATH", "")) if p))

import test_book_build as t  # noqa: E402  (tests/ is on sys.path, as above)

BUILD_ARGS = ["--plies", str(t.PLY), "--root", t.ROOT, "--block", "4", "--hash", "4",
              "--no-progress"]

# A build on a cluster, with slow units (0.15 s a position, 2 positions a unit), writing the
# checkpoint after every unit: argv = tests dir, book, workers or scheduler address.
_SLOW_BUILD = """
import sys
sys.path.insert(0, sys.argv[1])
import test_book_build as t
from c4tui.book.builder import build_book
where = sys.argv[3]
kw = {"scheduler": where} if "://" in where else {"workers": int(where)}
r = build_book(t.PLY, sys.argv[2], root=t.ROOT, block_size=2, checkpoint_every=0.0,
               progress=False, solver_factory=t.slow_ref_factory, **kw)
sys.exit(0 if r.finished else 3)
"""


def _c4tui(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "c4tui"), *args], capture_output=True, text=True,
                          timeout=timeout, env=ENV)


def _cli(*args: str):
    """The command line in this process (for commands that start no cluster)."""
    from typer.testing import CliRunner

    from c4tui.cli import app

    return CliRunner().invoke(app, list(args))


def _checksum(book: Path) -> str:
    r = _cli("book", "info", str(book))
    assert r.exit_code == 0, r.output
    return next(ln.split()[1] for ln in r.output.splitlines() if ln.startswith("checksum"))


def _solved(ck: Path) -> int:
    return Checkpoint.load(ck).solved if ck.exists() else 0  # atomic writes: always whole


def _wait_solved(proc: subprocess.Popen, ck: Path, at_least: int, seconds: float = 120) -> int:
    """Wait until the build's checkpoint has ``at_least`` positions; fail if it ends first."""
    return wait_until(lambda: n if (n := _solved(ck)) >= at_least else 0, seconds,
                      f"{at_least} positions in the checkpoint", proc=proc)


@pytest.fixture(scope="module")
def in_process_book(tmp_path_factory) -> Path:
    """The book built in this process by the engine's solver (the reference bytes)."""
    out = tmp_path_factory.mktemp("inproc") / "p.c4b"
    rep = build_book(t.PLY, out, root=t.ROOT, workers=0, block_size=4, hash_mb=4,
                     progress=False)
    assert rep.finished
    return out


# --------------------------------------------------------------------- process groups
def _group_members(pgid: int) -> list[int]:
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            pids.append(int(stat.parent.name))
    return pids


def _end_groups(procs: list[subprocess.Popen]) -> None:
    """SIGTERM each process group, SIGKILL what is left after 15 s; reap the leaders."""
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass

    def ended() -> bool:
        for p in procs:
            p.poll()  # reap a leader that has ended: a zombie is no group member
        return not any(_group_members(p.pid) for p in procs)

    try:
        wait_until(ended, 15, "the process groups to end on SIGTERM")
    except AssertionError:
        pass  # SIGKILL below
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait(timeout=10)


@pytest.fixture(scope="module")
def external_cluster(tmp_path_factory):
    """``dask scheduler`` and two ``dask worker`` processes (one thread each) on 127.0.0.1;
    yields the scheduler's address. Each runs in its own process group, ended afterwards;
    the scheduler also stops after 10 idle minutes and the workers 60 s after it, should
    this process die first."""
    from distributed import Client

    d = tmp_path_factory.mktemp("dask")
    sfile = d / "scheduler.json"
    procs: list[subprocess.Popen] = []

    def start(*args: str) -> None:
        log = open(d / f"{args[0]}-{len(procs)}.log", "w")  # noqa: SIM115 - the child's
        procs.append(subprocess.Popen([str(BIN / "dask"), *args], cwd=d, env=ENV,
                                      stdout=log, stderr=log, start_new_session=True))
        log.close()

    try:
        start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
              "--dashboard-address", "127.0.0.1:0",
              "--idle-timeout", "600s", "--scheduler-file", str(sfile))
        wait_until(sfile.exists, 90, "the scheduler's file", proc=procs[0],
                   detail=(d / "scheduler-0.log").read_text)
        address = json.loads(sfile.read_text())["address"]
        for _ in range(2):
            start("worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                  "--no-dashboard", "--death-timeout", "60")
        with Client(address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        _end_groups(procs)
        stray = [pid for p in procs for pid in _group_members(p.pid)]
        assert not stray, f"processes left behind: {stray}"


# ------------------------------------------------------------------------------ tests
def test_in_process_local_and_external_builds_are_identical(tmp_path, in_process_book,
                                                            external_cluster):
    """The engine's solver in this process, on a local cluster of two worker processes and
    on an external scheduler with two workers: the same bytes, the same checksum."""
    local = tmp_path / "local.c4b"
    r = _c4tui("book", "build", *BUILD_ARGS, "--workers", "2", "--out", str(local))
    assert r.returncode == 0 and "book written" in r.stdout, r.stderr
    assert "dask: local cluster of 2 worker processes" in r.stderr
    from c4tui.book.cluster import dashboard_available

    assert ("; dashboard http" if dashboard_available() else "no dashboard") in r.stderr

    ext = tmp_path / "ext.c4b"
    r = _c4tui("book", "build", *BUILD_ARGS, "--scheduler", external_cluster,
               "--out", str(ext))
    assert r.returncode == 0 and "book written" in r.stdout, r.stderr
    assert f"dask: scheduler {external_cluster}: 2 workers, 2 threads" in r.stderr

    assert local.read_bytes() == ext.read_bytes() == in_process_book.read_bytes()
    sums = {_checksum(p) for p in (in_process_book, local, ext)}
    assert len(sums) == 1 and next(iter(sums)).startswith("sha256:")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_killed_worker_has_its_unit_run_again(tmp_path, in_process_book):
    """SIGKILL one worker process of a local cluster while it solves: Dask restarts it and
    re-runs its unit; the book is complete and identical. The units take 0.3 s and the
    workers are never idle long, so the kill lands inside a unit."""
    out = tmp_path / "k.c4b"
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_BUILD, str(HERE), str(out), "2"],
                            env=ENV, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        _wait_solved(proc, out.with_suffix(".c4ck"), 6)
        workers = sorted(t.spawned_workers(proc.pid))
        assert len(workers) == 2, workers
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=120)
    finally:
        _end_groups([proc])
    assert proc.returncode == 0, err
    assert f"dask: Worker process {workers[0]} was killed by signal 9" in err, err
    assert "dask: Restarting worker" in err, err
    assert "Traceback" not in err, err
    assert out.read_bytes() == in_process_book.read_bytes()


def test_killed_build_on_external_cluster_resumes(tmp_path, in_process_book,
                                                  external_cluster):
    """SIGKILL the builder (the cluster's client) mid-build; the same build again finishes
    from the checkpoint (solving only the rest) with the identical book."""
    out = tmp_path / "r.c4b"
    ck = out.with_suffix(".c4ck")
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_BUILD, str(HERE), str(out),
                             external_cluster], env=ENV, start_new_session=True)
    try:
        _wait_solved(proc, ck, 6)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        _end_groups([proc])
    before = _solved(ck)
    assert 6 <= before < 42 and not out.exists()
    r = _c4tui("book", "build", *BUILD_ARGS, "--scheduler", external_cluster,
               "--out", str(out))  # the checkpoint's block size (2) is kept
    assert r.returncode == 0, r.stderr
    assert f"solved 42/42 positions ({42 - before} in this run" in r.stdout, r.stdout
    assert out.read_bytes() == in_process_book.read_bytes()


def test_unreachable_scheduler_is_one_line_within_seconds(tmp_path):
    """Nothing listens on port 1 of the loopback: the connection times out after a few
    seconds; one line, exit status 2, no file written."""
    t0 = time.monotonic()
    address = "tcp://127.0.0.1:1"
    r = _c4tui("book", "build", *BUILD_ARGS, "--scheduler", address,
               "--out", str(tmp_path / "x.c4b"), timeout=60)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(f"c4tui: --scheduler {address}: Timed out") and \
        r.stderr.count("\n") == 1, r.stderr
    assert time.monotonic() - t0 < 30 and not list(tmp_path.iterdir())


@pytest.mark.parametrize("address", ["nonsense", "foo://h:1", "tcp://127.0.0.1:0", ""])
def test_malformed_scheduler_address_is_one_line(tmp_path, address):
    r = _cli("book", "build", *BUILD_ARGS, "--scheduler", address,
             "--out", str(tmp_path / "x.c4b"))
    assert r.exit_code == 2, r.output
    assert r.output.startswith(f"c4tui: --scheduler '{address}': ") and \
        r.output.count("\n") == 1, r.output
    assert not list(tmp_path.iterdir())


def test_workers_and_scheduler_exclude_each_other(tmp_path):
    r = _cli("book", "build", *BUILD_ARGS, "--workers", "2", "--scheduler",
             "tcp://127.0.0.1:8786", "--out", str(tmp_path / "x.c4b"))
    assert r.exit_code == 2 and r.output.startswith("c4tui: --workers and --scheduler")
