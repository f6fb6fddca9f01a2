"""Helpers for the tests with tests/ugi_hostile.py: its command, the processes it reported,
and whether any of them (or any process of their groups) is still alive."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from waiting import wait_until

HOSTILE = Path(__file__).with_name("ugi_hostile.py")
#: Seconds a killed process may take to disappear (SIGKILL is delivered at once, but a
#: loaded machine may reap late: 5 s failed once in a clean-clone run). A wait on the
#: condition, so only a failure waits it out.
GONE_TIMEOUT = 30.0


def hostile(report: Path, modes: str) -> str:
    """The command line of a hostile engine reporting to ``report``."""
    return f"{sys.executable} {HOSTILE} {report} {modes}"


def reported(report: Path, word: str) -> list[int]:
    """The numbers the engines wrote after ``word`` (``pid``, ``child``)."""
    if not report.exists():
        return []
    return [int(line.split()[1]) for line in report.read_text().splitlines()
            if line.split()[:1] == [word]]


def niceness(report: Path) -> list[int]:
    """Every niceness the engines reported (their own and their children's, at each go)."""
    return [int(x) for line in report.read_text().splitlines()
            if line.startswith("nice ") for x in line.split()[1:]]


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rsplit(")", 1)[1].split()


def alive(pid: int) -> bool:
    """The process runs (a zombie, dead and waiting to be reaped, does not count)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def group(pgid: int) -> list[int]:
    """The live processes of process group ``pgid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None \
                and fields[0] != "Z" and fields[2] == str(pgid):
            found.append(int(entry))
    return found


def left_behind(reports: list[Path]) -> list[int]:
    """The engines' processes still alive: each one reported, and each of their groups'
    (an engine is its group's leader: its pid is the group's id)."""
    engines = [pid for r in reports for pid in reported(r, "pid")]
    children = [pid for r in reports for pid in reported(r, "child")]
    return sorted({p for p in engines + children if alive(p)}
                  | {p for pgid in engines for p in group(pgid)})


def assert_nothing_left(reports: list[Path]) -> None:
    """Every process the engines started is gone (within :data:`GONE_TIMEOUT`); what is
    left is killed after the failure, so it does not outlive the test."""
    assert [pid for r in reports for pid in reported(r, "pid")], "no engine reported"
    try:
        wait_until(lambda: not left_behind(reports), GONE_TIMEOUT,
                   "the engines and what they started to be gone",
                   detail=lambda: f"left: {left_behind(reports)}")
    finally:
        for pid in left_behind(reports):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
