"""A UGI engine process driven through pipes, with a timeout on every wait (for the tests
and the match harness; it knows nothing of c4tui's code)."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The engine under test: the installed ``c4tui engine`` command's module entry.
ENGINE_CMD = (sys.executable, "-m", "c4tui.ugi")
#: The first isready may load the kernels (or compile them on a cold numba cache).
LOAD_TIMEOUT = 900.0


class EngineError(AssertionError):
    """The engine did not answer as expected in time (the message has its last output)."""


class UgiProcess:
    """One engine process; ``lines`` collects everything it printed (for messages)."""

    def __init__(self, cmd: Sequence[str] = ENGINE_CMD, name: str = "engine",
                 env: dict[str, str] | None = None) -> None:
        self.name = name
        self.proc = subprocess.Popen(
            list(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, bufsize=1, cwd=ROOT, env={**os.environ, **(env or {})},
        )
        self.lines: list[str] = []
        self.sent: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._stderr: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_err, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def _pump_err(self) -> None:
        for line in self.proc.stderr:
            self._stderr.append(line)

    @property
    def stderr(self) -> str:
        return "".join(self._stderr)

    def send(self, line: str) -> None:
        self.sent.append(line)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self, timeout: float) -> str | None:
        """The next line, or None at the end of output; EngineError after ``timeout``."""
        try:
            line = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(f"{self.name}: no output within {timeout} s\n{self.tail()}") \
                from None
        if line is not None:
            self.lines.append(line)
        return line

    def expect(self, pred: Callable[[str], bool] | str, timeout: float = 10.0) -> list[str]:
        """Lines up to and including the first one matching ``pred`` (a predicate, or a
        first word)."""
        if isinstance(pred, str):
            word = pred
            pred = lambda line: line.split()[:1] == [word]  # noqa: E731
        got = []
        end = time.monotonic() + timeout
        while True:
            line = self.read(max(0.01, end - time.monotonic()))
            if line is None:
                raise EngineError(f"{self.name}: output ended\n{self.tail()}")
            got.append(line)
            if pred(line):
                return got

    def ask(self, line: str, answer: str, timeout: float = 10.0) -> list[str]:
        """Send ``line`` and read up to the line starting with ``answer``."""
        self.send(line)
        return self.expect(answer, timeout)

    def bestmove(self, go: str, timeout: float = 60.0) -> tuple[str, list[str]]:
        """Send a ``go`` command: the move and the ``info`` lines before it."""
        got = self.ask(go, "bestmove", timeout)
        return got[-1].split()[1], [x for x in got[:-1] if x.startswith("info")]

    def query(self, what: str, timeout: float = 10.0) -> str:
        return self.ask(f"query {what}", "response", timeout)[-1].split()[1]

    def quiet(self, seconds: float) -> list[str]:
        """Whatever the engine prints within ``seconds`` (it should usually be nothing)."""
        got = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                line = self._queue.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.lines.append(line)
            got.append(line)
        return got

    def tail(self, n: int = 15) -> str:
        return ("sent: " + " | ".join(self.sent[-n:]) + "\nreceived:\n  "
                + "\n  ".join(self.lines[-n:]) + "\nstderr:\n" + self.stderr[-2000:])

    def close(self, timeout: float = 10.0) -> int:
        """Send quit (if still possible) and wait for the exit; the exit code."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except OSError:
                pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise EngineError(f"{self.name}: did not exit after quit\n{self.tail()}") from None

    def __enter__(self) -> UgiProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def start_engine(options: dict[str, str] | None = None, cmd: Sequence[str] = ENGINE_CMD,
                 name: str = "engine") -> UgiProcess:
    """An engine after ``ugi``/``ugiok``, its options set and ``isready`` answered."""
    eng = UgiProcess(cmd, name)
    eng.ask("ugi", "ugiok", timeout=60)
    for key, value in (options or {}).items():
        eng.send(f"setoption name {key} value {value}")
    eng.ask("isready", "readyok", timeout=LOAD_TIMEOUT)
    return eng
