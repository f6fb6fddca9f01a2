"""The UGI client: one engine process driven as python-chess drives a UCI engine.

:class:`Engine` is the one client of the UGI protocol, used by ``c4tui match``
(:mod:`c4tui.match.player`) and the app's external engine (``c4tui --engine CMD``,
:mod:`c4tui.app.bridge.external_search`). :meth:`Engine.start` runs the process and the handshake
(``ugi``/``ugiok``, the ``id`` and ``option`` lines, the options, ``isready``/``readyok``);
:meth:`~Engine.configure` sets options, :meth:`~Engine.play` asks for a move
(a :class:`PlayResult`), :meth:`~Engine.analysis` yields the search's ``info`` lines as
:class:`~c4tui.ugi.info.Info` records (parsed by :mod:`c4tui.ugi.info`, beside
:mod:`c4tui.ugi.jobs` that prints them), :meth:`~Engine.stop` ends a search and
:meth:`~Engine.quit` the engine. Every wait is one of :class:`Timeouts`; whatever goes wrong
is :class:`~c4tui.ugi.client.EngineGone` with one line. A caller that must not block (the
app) reads the lines as they come through an :class:`EngineListener` and sends a search
with :meth:`~Engine.go`.

The process side (the process group, bounded reading, the exit watch, the niceness) is
:class:`~c4tui.ugi.client.UgiClient`'s. What this layer keeps of the engine's words is
bounded too: of its ``option`` lines only the names the caller set (at most as many as it
gave), of its ``info string error`` lines the first, escaped and cut, one ``info`` record
(the last), and at most :data:`MAX_QUEUED` records waiting for :meth:`~Engine.analysis`.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass

from c4tui.engine.board.position import Position
from c4tui.engine.seam import Limits

from .client import EngineGone, UgiClient, shorten
from .info import KNOWN_WORDS, Info, InfoError, parse_info, position_command, proof_of
from .limits import format_go

__all__ = ["Analysis", "Engine", "EngineGone", "EngineListener", "EngineStatus", "PlayResult",
           "Timeouts"]

#: How much of an engine's ``info string error`` (a refused option value) is kept.
REFUSED_CHARS = 200
#: How long a note (garbage, an ``info string``) stays in :meth:`Engine.status`.
NOTE_SECONDS = 20.0
#: ``info`` records kept for :meth:`Engine.analysis` while its reader is busy: an engine
#: flooding us loses its oldest ones, not our memory (a record holds at most one 64 KiB
#: line's words: 16 MiB at worst).
MAX_QUEUED = 256


@dataclass(frozen=True)
class Timeouts:
    """Every wait of the client, in seconds: what the engine must answer within."""

    #: ``ugiok`` after ``ugi``: the process starts (a Python engine imports its modules).
    ugi: float = 30.0
    #: ``readyok`` after ``isready``: the first may compile the kernels on a cold numba
    #: cache (about a minute on two busy cores).
    ready: float = 300.0
    #: ``bestmove`` after ``stop``.
    stop: float = 5.0
    #: ``bestmove`` after ``go``, beyond the search's own time (``Limits.time``).
    move: float = 10.0


@dataclass(frozen=True)
class PlayResult:
    """An engine's answer to a ``go`` (python-chess's ``PlayResult``)."""

    move: str | None  #: as it wrote it (None: a ``bestmove`` without a move)
    ponder: str | None = None  #: the move it expects in reply, if it said one
    info: Info | None = None  #: the search's last ``info`` line that could be read


@dataclass(frozen=True)
class EngineStatus:
    """What a status line says about an engine."""

    name: str  #: its ``id name`` (the command until it says)
    ready: bool  #: the handshake is done
    failed: bool  #: gone (crashed, killed after a timeout, never started)
    message: str  #: why it failed, or a recent note; "" if nothing to say


class EngineListener:
    """Told of every ``info`` and ``bestmove`` line as it is read, and of the engine's end,
    from the reader thread with :attr:`Engine.lock` held (keep it short; never wait on the
    engine here). A hook returns a complaint about the line for the status line, or ""."""

    def on_info(self, info: Info) -> str:
        """An ``info`` line that could be read."""
        return ""

    def on_bestmove(self, move: str | None) -> str:
        """``bestmove MOVE`` (None: without a move): the search ended."""
        return ""

    def on_gone(self) -> None:
        """The process is gone: end what waits for it."""


class Analysis(Iterator[Info]):
    """A running :meth:`Engine.analysis`: iterate for its ``info`` records (blocking until
    each comes); :attr:`result` is the answer once the iteration ended."""

    def __init__(self, steps: Generator[Info, None, PlayResult]) -> None:
        self._steps = steps
        self.result: PlayResult | None = None  #: the ``bestmove``, once it came

    def __next__(self) -> Info:
        try:
            return next(self._steps)
        except StopIteration as end:
            self.result = end.value
            raise

    def close(self) -> None:
        """Stop the search if it still runs (its answer is not waited for beyond
        :attr:`Timeouts.stop`)."""
        self._steps.close()

    def __enter__(self) -> Analysis:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Engine(UgiClient):
    """One UGI engine: :meth:`start`, :meth:`configure`, :meth:`new_game`, :meth:`play`,
    :meth:`analysis`, :meth:`stop`, :meth:`quit`; each raises
    :class:`~c4tui.ugi.client.EngineGone` with one line on a crash or a wait that ran out.

    ``options`` are set by :meth:`start` (and only their names are looked for among the
    engine's ``option`` lines); ``nice``: its CPU niceness above ours; ``error_prefix``
    starts :attr:`error` (``external engine NAME: why``)."""

    def __init__(self, argv: Sequence[str], *, options: Mapping[str, str] | None = None,
                 nice: int = 0, timeouts: Timeouts = Timeouts(),
                 error_prefix: str = "engine", listener: EngineListener | None = None) -> None:
        super().__init__(argv, nice)
        self.ERROR_PREFIX = error_prefix
        self.options = dict(options or {})
        self.timeouts = timeouts
        self.listener = listener or EngineListener()
        self._wanted = {name.lower() for name in self.options}  # the names we set
        self._declared: set[str] = set()  # which of them its ``option`` lines declare
        self._refused = ""  # the first ``info string error`` since the last ugiok
        self._hash_sent: int | None = None
        self._answer: PlayResult | None = None  # the running search's bestmove
        self._last_info: Info | None = None  # the running search's last info
        self._queue: deque[Info] | None = None  # for analysis(), while it runs

    @property
    def lock(self) -> threading.Condition:
        """The lock the listener is called under: a listener guards its own state with it
        (and may wait on it: every line read notifies it)."""
        return self._cond

    @property
    def closing(self) -> bool:
        """:meth:`close` was called: the client is going away."""
        return self._quit

    @property
    def timed_out(self) -> bool:
        """Whether the process still runs (a wait ran out) rather than died."""
        return not self._eof and self.wait_exit(0) is None

    # ------------------------------------------------------------------ reading
    def on_line(self, word: str, line: str) -> str:
        if word not in KNOWN_WORDS:
            return f"ignored unexpected output '{shorten(line)}'"
        if word == "option":
            if self._wanted and "name" in (parts := line.split()):
                end = parts.index("type") if "type" in parts else len(parts)
                name = " ".join(parts[parts.index("name") + 1:end]).lower()
                if name in self._wanted:  # kept only if asked for: bounded by the caller
                    self._declared.add(name)
            return ""
        if word == "info":
            if not self._refused and line.startswith("info string error"):
                self._refused = shorten(line[len("info string "):], REFUSED_CHARS)
            try:
                info = parse_info(line)
            except InfoError as exc:
                return str(exc)
            self._last_info = info
            if self._queue is not None:
                self._queue.append(info)
            # a proof's announcement is protocol (info.proof_of), not words for the user
            said = info.string and proof_of(info) is None
            note = f"says: {shorten(info.string or '', 60)}" if said else ""
            return self.listener.on_info(info) or note
        if word == "bestmove":
            parts = line.split()
            move = parts[1] if len(parts) > 1 else None
            ponder = parts[3] if len(parts) > 3 and parts[2] == "ponder" else None
            self._answer = PlayResult(move, ponder, self._last_info)
            return self.listener.on_bestmove(move)
        return ""

    def on_gone(self) -> None:
        self.listener.on_gone()

    # ------------------------------------------------------------------ the handshake
    def start(self, *, new_game: bool = False, hash_mb: int | None = None) -> None:
        """Start the process and shake hands: ``ugi`` (its name and options come), the
        options, the table size ``hash_mb`` (see :meth:`set_hash`), ``uginewgame`` if
        ``new_game``, ``isready``. EngineGone if it does not answer in time, lacks one of
        the options, or refuses a value (an ``info string error`` before ``readyok``)."""
        self.spawn()
        self.ask("ugi", "ugiok", self.timeouts.ugi)
        with self._cond:
            self._refused = ""
        self.configure(self.options)
        self.set_hash(hash_mb)
        if new_game:
            self.send("uginewgame")
        self.ask("isready", "readyok", self.timeouts.ready)
        with self._cond:
            refused = self._refused
        if refused and self.options:  # it said a value is wrong (ours: out of range ...)
            raise EngineGone(refused)
        with self._cond:
            self.ready = True
            self._cond.notify_all()

    def configure(self, options: Mapping[str, str]) -> None:
        """``setoption`` each of ``options``; EngineGone for a name its ``option`` lines
        did not declare (a typo would otherwise go unnoticed). Only the names given to the
        constructor are looked for there."""
        for name, value in options.items():
            if name.lower() not in self._declared:
                raise EngineGone(f"option {name}={value}: it has no option {name!r}")
            self.send(f"setoption name {name} value {value}")

    def set_hash(self, mb: int | None) -> None:
        """``setoption name Hash`` when the engine has that option and ``mb`` differs from
        the size it has (None: leave it)."""
        default = self.hash_default
        if mb is not None and default is not None and mb != (self._hash_sent or default):
            self.send(f"setoption name Hash value {mb}")
            self._hash_sent = mb

    def new_game(self) -> None:
        """``uginewgame``, then wait until it is ready."""
        self.send("uginewgame")
        self.ask("isready", "readyok", self.timeouts.ready)

    # ------------------------------------------------------------------ searching
    def go(self, position: Position, limits: Limits) -> None:
        """Send the search of ``position`` within ``limits`` and return at once: its lines
        go to the listener (and :meth:`stop` ends it)."""
        with self._cond:
            self._answer, self._last_info = None, None
        self.send(position_command(position))
        self.send(format_go(limits))

    def play(self, position: Position, limits: Limits) -> PlayResult:
        """The engine's move in ``position`` within ``limits``; it must answer within
        ``limits.time`` plus :attr:`Timeouts.move` s."""
        self.send(position_command(position))
        with self._cond:
            self._answer, self._last_info = None, None
        self.ask(format_go(limits), "bestmove", self._move_timeout(limits))
        with self._cond:
            answer = self._answer
        if answer is None:  # ask returned without it: the process died meanwhile
            raise EngineGone(self._exit_text())
        return answer

    def analysis(self, position: Position, limits: Limits) -> Analysis:
        """Search ``position`` within ``limits``: the :class:`Analysis` yields each
        ``info`` line as it comes, then holds the :class:`PlayResult`. :meth:`stop` (from
        the loop) ends an infinite search; leaving the loop early (``with``, or
        :meth:`Analysis.close`) stops the search too. The engine must answer within
        ``limits.time`` plus :attr:`Timeouts.move` s (no limit under ``infinite``)."""
        return Analysis(self._analyse(position, limits))

    def _analyse(self, position: Position,
                 limits: Limits) -> Generator[Info, None, PlayResult]:
        queue: deque[Info] = deque(maxlen=MAX_QUEUED)
        with self._cond:
            self._queue = queue
        answered = False
        try:
            self.go(position, limits)
            go = format_go(limits)
            end = time.monotonic() + self._move_timeout(limits)
            while True:
                with self._cond:
                    waiting = not queue and self._answer is None
                if waiting:
                    self.await_answer("bestmove", end - time.monotonic(),
                                      lambda: bool(queue) or self._answer is not None, go)
                with self._cond:
                    infos = list(queue)
                    queue.clear()
                    answer = self._answer
                yield from infos
                if answer is not None and not infos:
                    answered = True
                    return answer
        finally:
            with self._cond:
                self._queue = None
            if not answered and not self._quit and self._proc is not None:
                try:  # left early: the engine must not search on for nobody
                    self.stop()
                except EngineGone:
                    pass

    def stop(self, done: Callable[[], bool] | None = None) -> None:
        """``stop`` the running search and wait for its ``bestmove`` (or until ``done()``,
        checked with :attr:`lock` held: the answer may cross our ``stop``)."""
        if done is None:
            done = lambda: self._answer is not None  # noqa: E731
        self.ask("stop", "bestmove", self.timeouts.stop, done)

    def quit(self) -> None:
        """``quit``, and kill it (and what it started) if it has not gone within half a
        second."""
        if self._proc is None:
            return
        try:
            self.send("quit")
        except EngineGone:
            pass
        self.wait_exit(0.5)
        self.close()

    def _move_timeout(self, limits: Limits) -> float:
        if limits.infinite:
            return math.inf
        return (limits.time or 0.0) + self.timeouts.move

    # ------------------------------------------------------------------ status
    def status(self) -> EngineStatus:
        """Its name, whether it is ready, and why it failed or a recent note (a slow start
        says what it waits for)."""
        with self._cond:
            now = time.monotonic()
            note = self._note if now - self._note_at < NOTE_SECONDS else ""
            if not note and not self.ready and self._asking is not None:
                answer, since = self._asking
                note = f"waiting for {answer} ({now - since:.0f} s)" if now - since >= 2 \
                    else ""
            return EngineStatus(self.name, self.ready, bool(self.error),
                                self.error or note)
