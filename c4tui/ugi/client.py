"""The runner's side of UGI: an engine process driven through pipes, every wait bounded.

:class:`UgiClient` starts the process (an argument list, no shell, in its own process group
so that killing it takes whatever it started), writes commands, and reads its output in
daemon threads: standard output line by line (answers are counted for :meth:`ask`, ``id
name``, ``option ... Hash`` and ``response`` are kept, every line goes to the subclass's
:meth:`on_line`) and standard error (its last lines say why a crash happened). Whatever
goes wrong becomes :class:`EngineGone` with a one-line reason. The protocol on top (the
handshake, options, ``play``, ``analysis``) is :class:`c4tui.ugi.engine.Engine`'s, the one
client used by the app's external engine and by ``c4tui match``. Imports nothing of the
app or the CLI.

The engine is a hostile peer: everything it prints that is kept is bounded (a line is
read in pieces of :data:`MAX_LINE` bytes, only the answer words of :data:`ANSWERS` are
counted, its name and last lines are cut), everything it prints that reaches a message is
escaped (:func:`shorten`, through :func:`c4tui.bounded.shown`), its process group is
killed whenever the client closes (whatever it started dies with it, even after the
engine itself exited), and it runs at our CPU priority plus ``nice`` (the app's external
engine 5 steps below, a match's engines as the match), never above it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import IO

from c4tui.bounded import shown
from c4tui.engine.priority import lower_priority

#: Longest line read at once; a longer one arrives in pieces (read as garbage).
MAX_LINE = 65536
#: The first words counted for :meth:`UgiClient.ask` (any other word is not kept: an
#: engine printing a new word every line must not grow our memory).
ANSWERS = frozenset({"ugiok", "readyok", "bestmove", "response"})
#: The longest ``response`` word kept.
MAX_RESPONSE = 64
#: Seconds between two looks at whether the process still runs while an answer is
#: awaited, and how long after its end its last output may still come.
EXIT_POLL = 0.5
EXIT_GRACE = 0.5


def shorten(text: str, width: int = 40) -> str:
    """Untrusted ``text`` on one line, every character a terminal could act on escaped
    (:func:`c4tui.bounded.shown`: ``\\x1b``), cut to ``width``."""
    return shown(text.strip(), width)


class EngineGone(Exception):
    """The engine cannot be used any more; the message says why (one line)."""


class UgiClient:
    """One engine process. Subclasses read its lines in :meth:`on_line` and end what
    depends on it in :meth:`on_gone`, both called with ``_cond`` held."""

    #: The start of :attr:`error`: ``engine NAME: why``.
    ERROR_PREFIX = "engine"

    def __init__(self, argv: Sequence[str], nice: int = 0) -> None:
        self.argv = list(argv)
        self.nice = nice  # added to our CPU niceness for its process (0: as ours)
        # "python3 my_engine.py" until it says its name (paths cut to the file's name)
        self.name = shorten(" ".join(os.path.basename(a) for a in self.argv), 30)
        self._cond = threading.Condition()  # guards everything below and the subclass's
        self._proc: subprocess.Popen[bytes] | None = None
        self._quit = False
        self._eof = False
        self.ready = False
        self.error = ""
        self._note, self._note_at = "", 0.0  # the last thing worth saying, and when
        self._seen: dict[str, int] = {}  # the ANSWERS counted by first word
        self._printed: deque[str] = deque(maxlen=3)  # its last lines, for messages
        self._stderr: deque[str] = deque(maxlen=3)
        self._stderr_done = threading.Event()
        self.hash_default: int | None = None  # its Hash option's default (None: no Hash)
        self.response: str | None = None  # the last ``response`` word (``query``)
        self._asking: tuple[str, float] | None = None  # the answer waited for, since when

    # ------------------------------------------------------------------ hooks
    def on_line(self, word: str, line: str) -> str:
        """Every line the engine prints (``word`` its first word); a note about it, or ""."""
        return ""

    def on_gone(self) -> None:
        """The process is gone: end what waits for it."""

    # ------------------------------------------------------------------ kill
    def close(self) -> None:
        """Kill the process and everything it started at once; never waits.

        The whole process group goes, whether the engine itself still runs or not: an
        engine that exits on ``quit`` may leave a child behind (its group lives on with
        the child in it). A group id is not reused while any process of the group lives,
        so the signal reaches what the engine started, or nothing (ESRCH). Only an empty
        group's id could be a new process's, were the pid space to wrap round between
        the engine's end and this call (a second at most: a risk taken)."""
        with self._cond:
            self._quit = True
            self._cond.notify_all()
            proc = self._proc
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:  # the group is gone (or not ours): the engine at least
            if proc.poll() is None:
                proc.kill()

    def fail(self, why: str) -> None:
        """The engine is unusable: say why (unless we are quitting), end its search
        (keeping the result so far), kill it."""
        with self._cond:
            if not self.error and not self._quit:
                self.error = f"{self.ERROR_PREFIX} {self.name}: {why}"
            self.on_gone()
            self._cond.notify_all()
        self.close()

    def wait_exit(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` s for the process to end; its exit code, or None."""
        proc = self._proc
        if proc is None:
            return None
        try:
            return proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    # ------------------------------------------------------------------ writing
    def spawn(self) -> None:
        """Start the process and its reader threads; EngineGone if it cannot start."""
        started: list[subprocess.Popen[bytes] | BaseException] = []

        def start() -> None:
            if self.nice:  # our niceness plus the step, at most 19: never above ours
                lower_priority(self.nice)  # this thread's: the process is born with it,
                # so whatever it starts at once inherits it too
            try:
                started.append(subprocess.Popen(
                    self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, start_new_session=True))
            except BaseException as exc:  # noqa: BLE001 - raised again by the caller
                started.append(exc)

        # started from a thread of its own when its priority is lower (Linux: niceness is
        # a thread's, and a thread cannot raise it again)
        if self.nice:
            thread = threading.Thread(target=start, name="c4-engine-spawn", daemon=True)
            thread.start()
            thread.join()
        else:
            start()
        proc = started[0]
        if isinstance(proc, (OSError, ValueError)):
            raise EngineGone(f"cannot start it: {getattr(proc, 'strerror', None) or proc}") \
                from None
        if isinstance(proc, BaseException):
            raise proc
        with self._cond:
            self._proc = proc
            if self._quit:  # closed while it started
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
        """Send ``line`` and wait for the next ``answer`` (one of :data:`ANSWERS`) or
        until ``done()``, checked with ``_cond`` held; EngineGone on timeout or exit."""
        assert answer in ANSWERS, answer  # only those are counted
        with self._cond:
            before = self._seen.get(answer, 0)
        if done is None:
            done = lambda: self._seen.get(answer, 0) != before  # noqa: E731
        self.send(line)
        self.await_answer(answer, timeout, done, line)

    def await_answer(self, answer: str, timeout: float, done: Callable[[], bool],
                     after: str) -> None:
        """Wait until ``done()`` (checked with ``_cond`` held) or the engine ends, at most
        ``timeout`` s (``math.inf``: no limit); EngineGone on timeout (``no ANSWER within
        T s after AFTER``) or exit. ``answer`` is what the status line says it waits for."""
        start = time.monotonic()
        exited: float | None = None  # when the process was seen to have ended
        with self._cond:
            self._asking = (answer, start)
            try:
                while not done() and not self._quit and not self._eof:
                    now = time.monotonic()
                    left = start + timeout - now
                    if left <= 0:
                        printed = f" (it printed '{self._printed[-1]}')" \
                            if self._printed else ""
                        raise EngineGone(f"no {answer} within {timeout:g} s after {after}"
                                         f"{printed}")
                    # an engine that exited while a process it started holds its output
                    # open never sends the end of its output: it is gone once what it
                    # wrote before it ended had the time to be read
                    if exited is None and self._has_exited():
                        exited = now
                    if exited is not None and now - exited >= EXIT_GRACE:
                        break
                    self._cond.wait(min(left, EXIT_POLL if exited is None else EXIT_GRACE))
                gone = (self._eof or exited is not None) and not done() and not self._quit
            finally:
                self._asking = None
        if gone:  # how it ended, found out without the lock (the UI reads under it)
            raise EngineGone(self._exit_text())

    def _has_exited(self) -> bool:
        proc = self._proc
        return proc is not None and proc.poll() is not None

    def _exit_text(self) -> str:
        """How it ended: ``exited (code 1): <its last line on stderr>``."""
        code = self.wait_exit(1.0)
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
        words = line.split()
        word = words[0]
        with self._cond:
            self._printed.append(shorten(line))
            if word == "id" and line.startswith("id name "):
                self.name = shorten(line[8:], 30) or self.name
            elif word == "option":
                self._option(words)
            elif word == "response":
                self.response = words[1][:MAX_RESPONSE] if len(words) > 1 else ""
            note = self.on_line(word, line)
            if word in ANSWERS:
                self._seen[word] = self._seen.get(word, 0) + 1
            if note:
                self._note, self._note_at = note, time.monotonic()
            self._cond.notify_all()

    def _option(self, words: list[str]) -> None:
        """Remember the ``Hash`` option's default (the app's hash size goes there)."""
        if "name" in words and "default" in words:
            name = words[words.index("name") + 1:words.index("default")]
            if [w.lower() for w in name[:1]] == ["hash"]:
                try:
                    self.hash_default = int(words[words.index("default") + 1])
                except (ValueError, IndexError):
                    pass
