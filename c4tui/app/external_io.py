"""The pipe to an external UGI engine process: start, write, read, die (for ExternalSearch).

:class:`UgiPipe` starts the process (an argument list, no shell, in its own process group
so that killing it takes whatever it started), writes commands, and reads its output in
daemon threads: standard output line by line (answers are counted for :meth:`ask`, ``info``
and ``bestmove`` go to the subclass's hooks) and standard error (its last lines say why a
crash happened). Whatever goes wrong becomes ``error`` (fatal) or a note (one line each).
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO

from .ugi_info import KNOWN_WORDS, Info, InfoError, parse_info, shorten

#: How long a note (garbage, an ``info string``) stays in the status line.
NOTE_SECONDS = 20.0
#: The external process runs at the engine's lower CPU priority (the UI wins the cores).
EXTERNAL_NICE = 5
#: Longest line read at once; a longer one arrives in pieces (read as garbage).
MAX_LINE = 65536


@dataclass(frozen=True)
class ExternalStatus:
    """What the status line says about the external engine."""

    name: str  #: its ``id name`` (the command until it says)
    ready: bool  #: the handshake is done
    failed: bool  #: gone (crashed, killed after a timeout, never started)
    message: str  #: why it failed, or a recent note; "" if nothing to say


class EngineGone(Exception):
    """The engine cannot be used any more; the message says why (one line)."""


class UgiPipe:
    """One engine process. Subclasses handle ``info``/``bestmove`` and the end of a search
    (:meth:`on_info`, :meth:`on_bestmove`, :meth:`on_gone`), called with ``_cond`` held."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.argv = list(argv)
        # "python3 my_engine.py" until it says its name (paths cut to the file's name)
        self.name = shorten(" ".join(os.path.basename(a) for a in self.argv), 30)
        self._cond = threading.Condition()  # guards everything below and the subclass's
        self._proc: subprocess.Popen[bytes] | None = None
        self._quit = False
        self._eof = False
        self.ready = False
        self.error = ""
        self._note, self._note_at = "", 0.0
        self._seen: dict[str, int] = {}  # answers counted by first word: ugiok, readyok ...
        self._printed: deque[str] = deque(maxlen=3)  # its last lines, for messages
        self._stderr: deque[str] = deque(maxlen=3)
        self._stderr_done = threading.Event()
        self.hash_default: int | None = None  # its Hash option's default (None: no Hash)
        self._asking: tuple[str, float] | None = None  # the answer waited for, since when

    # ------------------------------------------------------------------ hooks
    def on_info(self, info: Info) -> str:
        """An ``info`` line; a complaint about it, or ""."""
        return ""

    def on_bestmove(self, move: str | None) -> str:
        return ""

    def on_gone(self) -> None:
        """The process is gone: end the running search."""

    # ------------------------------------------------------------------ status, kill
    def status(self) -> ExternalStatus:
        with self._cond:
            now = time.monotonic()
            note = self._note if now - self._note_at < NOTE_SECONDS else ""
            if not note and not self.ready and self._asking is not None:
                answer, since = self._asking  # a slow start says what it waits for
                note = f"waiting for {answer} ({now - since:.0f} s)" if now - since >= 2 \
                    else ""
            return ExternalStatus(self.name, self.ready, bool(self.error),
                                  self.error or note)

    def close(self) -> None:
        """Kill the process (and anything it started) at once; never waits."""
        with self._cond:
            self._quit = True
            self._cond.notify_all()
            proc = self._proc
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                proc.kill()

    def fail(self, why: str) -> None:
        """The engine is unusable: say why (unless we are quitting), end its search
        (keeping the result so far), kill it."""
        with self._cond:
            if not self.error and not self._quit:
                self.error = f"external engine {self.name}: {why}"
            self.on_gone()
            self._cond.notify_all()
        self.close()

    # ------------------------------------------------------------------ writing
    def spawn(self) -> None:
        """Start the process and its reader threads; EngineGone if it cannot start."""
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True)
        except (OSError, ValueError) as exc:
            raise EngineGone(f"cannot start it: {getattr(exc, 'strerror', None) or exc}") \
                from None
        try:
            os.setpriority(os.PRIO_PROCESS, proc.pid, EXTERNAL_NICE)
        except (AttributeError, OSError):
            pass  # not permitted: it runs at normal priority
        with self._cond:
            self._proc = proc
            if self._quit:  # the user quit while it started
                self.close()
        for stream, keep in ((proc.stdout, self._read), (proc.stderr, self._drain)):
            threading.Thread(target=keep, args=(stream,), daemon=True).start()

    def send(self, line: str) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineGone(self._exit_text()) from None

    def ask(self, line: str, answer: str, timeout: float,
            done: Callable[[], bool] | None = None) -> None:
        """Send ``line`` and wait for the next ``answer`` (or until ``done()``, checked
        with ``_cond`` held); EngineGone on timeout or exit."""
        with self._cond:
            before = self._seen.get(answer, 0)
        if done is None:
            done = lambda: self._seen.get(answer, 0) != before  # noqa: E731
        self.send(line)
        start = time.monotonic()
        with self._cond:
            self._asking = (answer, start)
            try:
                while not done() and not self._quit and not self._eof:
                    left = start + timeout - time.monotonic()
                    if left <= 0:
                        printed = f" (it printed {self._printed[-1]!r})" \
                            if self._printed else ""
                        raise EngineGone(f"no {answer} within {timeout:g} s after {line}"
                                         f"{printed}")
                    self._cond.wait(left)
                gone = self._eof and not done() and not self._quit
            finally:
                self._asking = None
        if gone:  # how it ended, found out without the lock (the UI reads under it)
            raise EngineGone(self._exit_text())

    def _exit_text(self) -> str:
        """How it ended: ``exited (code 1): <its last line on stderr>``."""
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(1.0)
            except subprocess.TimeoutExpired:
                pass
        what = "closed its output" if code is None else f"exited (code {code})"
        self._stderr_done.wait(0.5)  # its last words (a traceback's last line) come last
        why = self._stderr[-1] if self._stderr else ""
        return f"{what}: {why}" if why else what

    # ------------------------------------------------------------------ reading
    def _read(self, stream: IO[bytes]) -> None:
        for raw in iter(lambda: stream.readline(MAX_LINE), b""):
            line = raw.decode("utf-8", "replace").strip()
            if line:
                self._line(line)
        with self._cond:
            self._eof = True
            self._cond.notify_all()
        if not self._quit:
            self.fail(self._exit_text())

    def _drain(self, stream: IO[bytes]) -> None:
        """Keep the last lines of its standard error (a crash's reason)."""
        for raw in iter(lambda: stream.readline(MAX_LINE), b""):
            text = shorten(raw.decode("utf-8", "replace"), 60)
            if text:
                self._stderr.append(text)
        self._stderr_done.set()

    def _line(self, line: str) -> None:
        word = line.split()[0]
        with self._cond:
            self._printed.append(shorten(line))
            note = ""
            if word not in KNOWN_WORDS:
                note = f"ignored unexpected output {shorten(line)!r}"
            elif word == "id" and line.startswith("id name "):
                self.name = shorten(line[8:], 30) or self.name
            elif word == "option":
                self._option(line)
            elif word == "info":
                try:
                    info = parse_info(line)
                except InfoError as exc:
                    note = str(exc)
                else:
                    note = f"says: {shorten(info.string, 60)}" if info.string else ""
                    note = self.on_info(info) or note
            elif word == "bestmove":
                parts = line.split()
                note = self.on_bestmove(parts[1] if len(parts) > 1 else None)
            self._seen[word] = self._seen.get(word, 0) + 1
            if note:
                self._note, self._note_at = note, time.monotonic()
            self._cond.notify_all()

    def _option(self, line: str) -> None:
        """Remember the ``Hash`` option's default (the app's hash size goes there)."""
        words = line.split()
        if "name" in words and "default" in words:
            name = words[words.index("name") + 1:words.index("default")]
            if [w.lower() for w in name[:1]] == ["hash"]:
                try:
                    self.hash_default = int(words[words.index("default") + 1])
                except (ValueError, IndexError):
                    pass
