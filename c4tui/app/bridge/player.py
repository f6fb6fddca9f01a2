"""Play against the engine: its settings, and the thread that finds its moves.

The engine's move comes from its own solver or its own analysis search, never the ones the
panels use: the exact worker aborts its solver when the viewed position changes or its
time budget runs out, which must not cut the engine's move short, and a reply must not
wait behind the analysis of a position the user has left. Both are made on first use (a 64 MB
table for the solver, the search's usual tables) and kept, warm, for the next moves.

No Textual here: :class:`EnginePlayer` calls ``on_reply`` from its thread, and the app
posts that to itself as a message.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from c4tui.engine.board.position import PLAYER_NAMES, Position
from c4tui.engine.levels import PERFECT_LEVEL, move_rng, play
from c4tui.engine.seam import Limits, SearchAborted, SearchOptions, default_threads
from c4tui.units import PERFECT, Strength

from .loader import ENGINE_NICE, Engine, lower_thread_priority
from .settings import SOLVER_HASH_MB

if TYPE_CHECKING:
    from c4tui.engine.analysis.controller import SearchController
    from c4tui.engine.solver.solver import Solver


@dataclass(frozen=True)
class PlaySettings:
    """The engine's side (0 White, 1 Black) and :class:`~c4tui.units.Strength`: a level
    (1-10, 10 perfect play: the exact solver with the books; below, c4tui.engine.levels's
    choice among the exact scores, varied per game), or the analysis search started with
    the strength's ``limits``. ``vary``: perfect play picks at random among equally good
    moves (else the one nearest the centre, so the same game gets the same answers)."""

    side: int
    strength: Strength = Strength()
    vary: bool = False

    @property
    def strength_name(self) -> str:
        """``perfect``, ``perfect (varies)``, ``level 5`` or ``100k nodes``: how the app
        names it."""
        if self.vary and self.strength == Strength():
            return f"{PERFECT} (varies)"
        return str(self.strength)

    @property
    def label(self) -> str:
        """``Black, perfect`` / ``White, level 5``."""
        return f"{PLAYER_NAMES[self.side]}, {self.strength_name}"


@dataclass(frozen=True)
class Reply:
    """The engine's answer to the position ``key``: a column (None: it failed, ``error``
    says why), the nodes its solver or search took, and the seconds. ``job`` numbers the
    request."""

    job: int
    key: int
    col: int | None
    nodes: int = 0
    seconds: float = 0.0
    error: str = ""


@dataclass(frozen=True)
class _Job:
    number: int
    pos: Position
    settings: PlaySettings


class EnginePlayer:
    """Finds the engine's move in a daemon thread, one request at a time. :meth:`think`
    and :meth:`cancel` return at once; a cancelled or superseded request's answer is never
    delivered (and its solve or search is stopped)."""

    def __init__(self, engine: Callable[[], Engine | None],
                 on_reply: Callable[[Reply], None], rng: random.Random | None = None) -> None:
        """``engine``: the loaded engine or None while it loads (the request waits)."""
        self._get_engine = engine
        self._on_reply = on_reply
        self._rng = rng or random.Random()
        self._seed = self._rng.getrandbits(64)  # of the game: a level's moves vary by it
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._quit = False
        self._thread: threading.Thread | None = None
        self._number = 0  # of the newest request; answers to older ones are dropped
        self._job: _Job | None = None  # waiting for the thread
        self._running: _Job | None = None  # being solved or searched
        self._since = 0.0  # when the newest request was made
        self._solver: Solver | None = None
        self._search: SearchController | None = None

    # ------------------------------------------------------------------ requests
    def think(self, pos: Position, settings: PlaySettings) -> None:
        """Find the engine's move in ``pos`` (which must not be over); cancels any other."""
        with self._lock:
            self._number += 1
            self._job = _Job(self._number, pos.copy(), settings)
            self._since = time.monotonic()
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="c4-play",
                                                daemon=True)
                self._thread.start()
        self._stop_stale()
        self._wake.set()

    def new_game(self) -> None:
        """A new game: the levels below perfect play choose other moves than in the last."""
        self._seed = self._rng.getrandbits(64)

    def cancel(self) -> None:
        """Forget the request (its answer, if it comes, is dropped)."""
        with self._lock:
            self._number += 1
            self._job = None
        self._stop_stale()

    def shutdown(self) -> None:
        """Stop for good (the thread is a daemon: nothing waits for it)."""
        with self._lock:
            self._quit = True
        self.cancel()
        self._wake.set()

    def thinking(self, pos: Position | None = None) -> bool:
        """A request is open (about ``pos``, if given)."""
        with self._lock:
            job = self._job if self._job is not None else self._running
            if job is None or job.number != self._number:
                return False
            return pos is None or job.pos.key() == pos.key()

    def elapsed(self) -> float:
        """Seconds since the open request was made."""
        return time.monotonic() - self._since

    def current(self, reply: Reply) -> bool:
        """``reply`` answers the newest request (no newer one, no cancel since)."""
        with self._lock:
            return reply.job == self._number

    def tick(self) -> None:
        """Stop a superseded solve or search again (UI thread, a few times a second): a
        stop that came just before it began was cleared by its start."""
        self._stop_stale()

    # ------------------------------------------------------------------ the thread
    def _stop_stale(self) -> None:
        with self._lock:
            running = self._running
            stale = running is not None and running.number != self._number
            solver, search = self._solver, self._search
        if not stale:
            return
        if solver is not None:
            solver.stop()
        if search is not None:
            search.stop()

    def _loop(self) -> None:
        lower_thread_priority()
        loading = False
        while True:
            self._wake.wait(0.1 if loading else None)  # polls only while the engine loads
            self._wake.clear()
            with self._lock:
                if self._quit:
                    return
                job = self._job
            if job is None:
                continue
            engine = self._get_engine()
            loading = engine is None
            if engine is None:
                continue
            with self._lock:
                if job is not self._job:
                    continue  # replaced or cancelled meanwhile
                self._job, self._running = None, job
            t0 = time.monotonic()
            try:
                col, nodes = self._answer(engine, job)
                reply = Reply(job.number, job.pos.key(), col, nodes, time.monotonic() - t0)
            except SearchAborted:
                reply = None  # cancelled: nobody waits for it
            except Exception as exc:  # a bug in the engine: say it, keep the app
                text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                reply = Reply(job.number, job.pos.key(), None, error=text)
            with self._lock:
                self._running = None
                deliver = reply is not None and reply.job == self._number
            if deliver and reply is not None:
                self._on_reply(reply)

    def _answer(self, engine: Engine, job: _Job) -> tuple[int, int]:
        """(column, nodes); raises ``SearchAborted`` when cancelled."""
        limits = job.settings.strength.limits
        if limits is None:  # a level: the exact scores, and its choice
            return self._perfect(engine, job)
        return self._searched(engine, job, limits)

    def _perfect(self, engine: Engine, job: _Job) -> tuple[int, int]:
        from c4tui.engine.solver.solver import Solver

        if self._solver is None:
            solver = Solver(hash_mb=SOLVER_HASH_MB, book=engine.solver.book,
                            threads=default_threads())
            with self._lock:
                self._solver = solver
        if job.number != self._number:  # cancelled while the table was made
            raise SearchAborted("cancelled")
        res = self._solver.analyze(job.pos)
        lvl = job.settings.strength.level
        # Below perfect play the game's seed replays a game; perfect play is the same
        # answer to the same position, unless it varies (then by the app's own generator)
        if lvl != PERFECT_LEVEL:
            rng: random.Random | None = move_rng(self._seed, job.pos.key())
        else:
            rng = self._rng if job.settings.vary else None
        return play(job.pos, lvl, res.scores, rng), res.nodes

    def _searched(self, engine: Engine, job: _Job, limits: Limits) -> tuple[int, int]:
        from c4tui.engine.analysis.controller import SearchController
        from c4tui.engine.seam import SearchState

        if self._search is None:
            search = SearchController(ENGINE_NICE)
            with self._lock:
                self._search = search
        # the search alone, without the books: the node limit alone sets the strength
        self._search.start(job.pos, limits, SearchOptions(use_book=False))
        self._search.wait()
        if self._search.error is not None:
            raise self._search.error
        res = self._search.result
        if res is None or res.reason is SearchState.STOPPED:
            raise SearchAborted("cancelled")
        return res.best_move, res.nodes
