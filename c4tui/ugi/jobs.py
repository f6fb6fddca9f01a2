"""The searches behind ``go``: one thread per search, answering with exactly one ``bestmove``.

Two kinds, chosen by the ``Exact`` option:

* :class:`ExactJob`: the exact solver (with the opening books): the best move by the exact
  score, i.e. the quickest win, the longest loss, or a draw. One ``info`` line, its score a
  ``mate`` (or ``cp 0`` for a draw), said proven (below). ``depth``/``nodes`` do not
  bound it (an exact answer has no partial form); a time limit or ``stop`` cuts it short,
  and the move then comes from a short analysis search (:data:`FALLBACK_NODES`).
* :class:`AnalysisJob`: MILTON's iterative deepening within the ``go`` limits, one ``info``
  line per completed iteration.

A proven answer (the books', the exact solver's, a full-depth search's, a win at once) is
said so on the wire, since ``score cp 0`` alone cannot tell a proven draw from a heuristic
0 (UCI has no draw score): its ``info`` line reports ``depth`` and ``seldepth`` as the
empty squares (the whole game: nothing deeper to search), and an ``info string proven
book`` (or ``solved``) line right before it names where the proof came from
(:func:`proof_line`; the client's side is :func:`c4tui.ugi.info.proof_of`).

Both use only the engine's public API (:mod:`c4tui.engine.seam`,
:mod:`c4tui.engine.solver.solver`, :mod:`c4tui.engine.analysis.controller`). Kernels run
with the GIL released, so the protocol thread answers ``isready``, ``query`` and ``stop``
while a job searches.

Time limits hold from the moment ``go`` is read, whatever the search is doing: a watcher
thread halts the engine at the deadline and, if the search has not answered shortly after
(it may be loading the kernels or allocating a table, which cannot be interrupted), answers
``bestmove`` itself. A search whose thread runs on after its ``bestmove`` prints nothing
more: each search has a generation number, and only the current generation's output,
up to its ``bestmove``, goes out.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from c4tui.engine.board.geometry import CENTER_ORDER, HEIGHT, SIZE, square_bit
from c4tui.engine.board.position import Position
from c4tui.engine.scores import moves_to_end, win_score
from c4tui.engine.seam import (
    DEFAULT_HASH_MB,
    Band,
    IterationReport,
    Limits,
    Score,
    SearchAborted,
    SearchOptions,
    Source,
)

from .info import PROVEN_WORD

if TYPE_CHECKING:  # these load numba: imported where first used, after ``isready``
    from c4tui.engine.analysis.controller import SearchController
    from c4tui.engine.books.link import BookLike
    from c4tui.engine.solver.solver import Solver, SolveResult

#: Nodes of the analysis search that picks the move when an exact solve is cut short.
FALLBACK_NODES = 20_000
#: How often a job looks at its stop flag and deadline.
POLL_SECONDS = 0.005
#: How long ``stop`` waits for the search to unwind before answering by itself.
STOP_GRACE_SECONDS = 0.5
#: Past its deadline, how long a search may take to answer before the watcher answers for
#: it (the exact job's fallback search takes milliseconds; half the clock's safety margin).
ANSWER_GRACE_SECONDS = 0.015

Emit = Callable[[str], None]


# ------------------------------------------------------------------ notation helpers


def score_words(score: Score, ply: int) -> str:
    """``mate K`` / ``mate -K`` (the winner's moves to the end, the winning one included:
    the UCI reading, in own moves) for proven wins and losses, else ``cp X`` (MILTON's
    heuristic value, or 0 for a draw)."""
    if score.proven and score.value != 0:
        n = moves_to_end(score.value, ply)
        return f"mate {n}" if score.value > 0 else f"mate -{n}"
    return f"cp {score.value}"


def proof_line(source: str) -> str:
    """``info string proven SOURCE``: the next ``info`` line's score is proven, by
    ``source`` (one of :data:`c4tui.ugi.info.PROOF_SOURCES`: ``book``, ``solved``)."""
    return f"info string {PROVEN_WORD} {source}"


def info_line(*, depth: int, seldepth: int, score: str, nodes: int, elapsed: float,
              hashfull: int, pv: Sequence[str], multipv: int = 0) -> str:
    """One ``info`` line in the order the UGI/UCI runners print it (``multipv``: the
    line's number when the MultiPV option is above 1; 0: no such field)."""
    ms = int(elapsed * 1000)
    nps = int(nodes / elapsed) if elapsed > 0 else 0
    which = f" multipv {multipv}" if multipv else ""
    text = (f"info depth {depth} seldepth {seldepth}{which} score {score} nodes {nodes} "
            f"nps {nps} hashfull {hashfull} time {ms}")
    return text + (" pv " + " ".join(pv) if pv else "")


def safe_move(pos: Position) -> int:
    """A sensible move without search: win now, else block, else the most central column
    that does not hand the opponent a win; else the most central column."""
    win = pos.winning_move()
    if win is not None:
        return win
    legal = pos.legal_moves()
    theirs = pos.threats(1 - pos.to_move)
    for col in legal:
        if theirs & square_bit(col, pos.height(col)):  # their four would land here
            return col
    central = [c for c in CENTER_ORDER if c in legal]
    for col in central:
        h = pos.height(col)
        if h + 1 < HEIGHT and theirs & square_bit(col, h + 1):
            continue  # playing here lets them drop their four on top
        return col
    return central[0]


# ------------------------------------------------------------------ engine resources


class Resources:
    """The solver and the analysis controller, made on first use and kept between
    searches (their tables are reused); remade when an option they depend on changes.

    :meth:`prepare` (``isready``) does the slow work ahead: the kernels, the books and, with
    ``Exact`` on, the solver's table (seconds for a few GB). A ``go`` that comes without
    it does that work in its own thread, within its time limit (the watcher answers).
    ``busy`` is held by the one search at a time that uses the solver and the controller:
    a search that ran on past its ``bestmove`` keeps the next one waiting, not sharing.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()  # the fields; held for microseconds
        self._slow = threading.RLock()  # loading and allocating; held for seconds
        self.busy = threading.Lock()
        self.hash_mb = DEFAULT_HASH_MB
        self.threads = 1
        self.own_book = True
        self.exact = False
        self.multipv = 1  #: the analysis search's lines (MultiPV)
        self._solver: Solver | None = None
        self._controller: SearchController | None = None
        self._loaded = False
        self._books_read = False
        self._books: BookLike | None = None  # the books in use, once read
        self._clear = False  # uginewgame: empty the solver's table before its next use
        self._generation = 0
        self.output_lock = threading.Lock()  # a search's line and its generation check

    def configure(self, *, hash_mb: int, threads: int, own_book: bool,
                  exact: bool = False, multipv: int = 1) -> None:
        """New option values; returns at once. A solver made with other values is let go
        (its table freed once no search holds it) and made again by :meth:`prepare`."""
        with self._lock:
            if (hash_mb, threads, own_book) != (self.hash_mb, self.threads, self.own_book):
                self._solver = None
            self.hash_mb, self.threads, self.own_book = hash_mb, threads, own_book
            self.exact = exact
            self.multipv = multipv

    def next_generation(self) -> int:
        """The number of a new search: it becomes the only one whose output goes out."""
        with self.output_lock:
            self._generation += 1
            return self._generation

    def current(self, generation: int) -> bool:
        """Whether ``generation`` is the newest search (call with ``output_lock`` held)."""
        return generation == self._generation

    def load(self) -> None:
        """Load (or, on a cold numba cache, compile) the kernels, and read the books if
        they are on (the first use converts the 12-ply database)."""
        with self._slow:
            if not self._loaded:
                from c4tui.engine.warmup import warmup

                warmup()
                self._loaded = True
            if self.own_book and not self._books_read:
                from c4tui.book import load_default

                self._books = load_default()  # ours and the 12-ply database
                self._books_read = True
                with self._lock:
                    self._controller = None  # remade with the books

    def prepare(self) -> None:
        """Everything a ``go`` with the current options needs that takes time: what
        ``isready`` waits for, so that no ``go`` pays for it. A search that ran on past its
        ``bestmove`` ends first: ready means idle."""
        with self.busy:
            self.load()
            if self.exact:
                self.solver()  # its table: seconds for a few GB
            self.controller()  # the analysis search's (the exact job's fallback)

    def prepare_until(self, abandon: threading.Event) -> bool:
        """:meth:`prepare` in a helper thread; False if ``abandon`` is set first (``quit``
        while a large table is allocated must not wait for it). Its errors are raised."""
        done = threading.Event()
        failed: list[BaseException] = []

        def work() -> None:
            try:
                self.prepare()
            except BaseException as exc:  # raised in the caller's thread
                failed.append(exc)
            finally:
                done.set()

        threading.Thread(target=work, name="ugi-prepare", daemon=True).start()
        while not done.wait(POLL_SECONDS * 10):
            if abandon.is_set():
                return False
        if failed:
            raise failed[0]
        return True

    def solver(self) -> Solver:
        """The exact solver with the current options (made now if need be)."""
        self.load()
        with self._slow:
            with self._lock:
                solver, clear = self._solver, self._clear
                hash_mb, threads, own_book = self.hash_mb, self.threads, self.own_book
                self._clear = False
            if solver is None:
                from c4tui.book import load_default
                from c4tui.engine.solver.solver import Solver

                solver = Solver(hash_mb=hash_mb, book=load_default() if own_book else None,
                                threads=threads)
                with self._lock:
                    if (hash_mb, threads, own_book) == (self.hash_mb, self.threads,
                                                        self.own_book):
                        self._solver = solver
            elif clear:
                solver.clear()
            return solver

    def controller(self) -> SearchController:
        """The analysis search's controller (its recognition table survives searches);
        it is given the books, which each search probes if ``OwnBook`` is on."""
        self.load()
        with self._slow:
            if self._controller is None:
                from c4tui.book import load_default
                from c4tui.engine.analysis.controller import SearchController

                ctl = SearchController(book=load_default())
                with self._lock:
                    self._controller = ctl
            return self._controller

    def new_game(self) -> None:
        """Forget what the solver's table holds (``uginewgame``): at its next use, so that
        the protocol thread never clears a large table itself (``isready`` does)."""
        with self._lock:
            self._clear = self._solver is not None

    def close(self, timeout: float = 5.0) -> None:
        """Stop the analysis search's worker, waiting at most ``timeout`` seconds."""
        with self._lock:
            ctl = self._controller
        if ctl is not None:
            try:
                ctl.close(timeout)
            except RuntimeError:  # still preparing a table: the process ends anyway
                pass


# ------------------------------------------------------------------ jobs


class SearchJob:
    """One ``go``: searches ``pos`` in its own thread and emits ``info`` lines and exactly
    one ``bestmove`` (at the end; after ``stop`` for ``go infinite``)."""

    def __init__(self, pos: Position, limits: Limits, res: Resources, emit: Emit) -> None:
        """``limits``: what ``go`` asked for (``c4tui.ugi.limits.parse_go``); its time
        holds from now, the reading of ``go``, whatever the search is doing."""
        self.pos = pos.copy()
        self.limits = limits
        self.res = res
        self._out = emit
        self.t0 = time.perf_counter()  # the limits hold from here, the reading of go
        self.deadline = None if limits.time is None else self.t0 + limits.time
        self.best: int | None = None  #: best move known so far (0-based column)
        self.generation = res.next_generation()
        self._stop = threading.Event()
        self._ended = threading.Event()  # the search thread is done
        self._answered = False
        self._thread = threading.Thread(target=self._main, name="ugi-search", daemon=True)

    # ---------------------------------------------------------------- control
    def start(self) -> None:
        self._thread.start()
        if self.deadline is not None:
            threading.Thread(target=self._watch, name="ugi-deadline", daemon=True).start()

    @property
    def running(self) -> bool:
        """Still to answer (a finished ``go infinite`` waits for ``stop``)."""
        with self.res.output_lock:
            return not self._answered

    def stop(self, grace: float = STOP_GRACE_SECONDS) -> None:
        """Stop searching and make sure ``bestmove`` is out when this returns (after at
        most ``grace`` seconds of waiting for the search to unwind)."""
        self._stop.set()
        end = time.perf_counter() + grace
        # An answered search that runs on (allocating a table) is not waited for: the next
        # one waits for it (Resources.busy), within its own limits.
        while self.running and not self._ended.is_set() and time.perf_counter() < end:
            self._halt()  # again: a stop can fall between two solves and be forgotten
            self._ended.wait(POLL_SECONDS)
        if self.running:  # the kernels did not unwind in time: answer with what we know
            self._answer(self._known_move())

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    # ---------------------------------------------------------------- internals
    def _halt(self) -> None:
        """Ask the engine to stop (from any thread)."""

    def _halt_at_deadline(self) -> None:
        """What the deadline stops (from the watcher thread): everything, unless a job
        has a last quick step to take after it."""
        self._halt()

    def _search(self) -> None:
        raise NotImplementedError

    def _expired(self) -> bool:
        return self._stop.is_set() or (
            self.deadline is not None and time.perf_counter() >= self.deadline)

    def _elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def _known_move(self) -> int:
        return self.best if self.best is not None else safe_move(self.pos)

    def emit(self, line: str) -> None:
        """Output of this search: dropped once it has answered, or a newer one began."""
        with self.res.output_lock:
            if not self._answered and self.res.current(self.generation):
                self._out(line)

    def _answer(self, col: int) -> None:
        with self.res.output_lock:
            if self._answered:
                return
            self._answered = True
            if self.res.current(self.generation):
                self._out(f"bestmove {self.pos.landing_square(col)}")

    def _watch(self) -> None:
        """The time limit, whatever the search is doing: halt the engine at the deadline
        (again and again: a stop between two solves is forgotten), and answer for the
        search if it has not answered :data:`ANSWER_GRACE_SECONDS` later."""
        assert self.deadline is not None
        while not self._ended.wait(POLL_SECONDS):
            now = time.perf_counter()
            if now >= self.deadline:
                self._halt_at_deadline()
                if now >= self.deadline + ANSWER_GRACE_SECONDS and not self.limits.infinite:
                    self._answer(self._known_move())

    def _main(self) -> None:
        try:
            self._run()
        finally:
            self._ended.set()

    def _run(self) -> None:
        # One search at a time uses the engine: one that ran on past its bestmove (a table
        # allocation) is waited for, within this search's own limits.
        while not self.res.busy.acquire(timeout=POLL_SECONDS):
            if self._expired():
                self._finish()
                return
        try:
            self._search_position()
        finally:
            self.res.busy.release()
        self._finish()

    def _finish(self) -> None:
        if self.best is None:
            self.best = safe_move(self.pos)
        if self.limits.infinite:  # UCI: the answer waits for stop
            self._stop.wait()
        self._answer(self.best)

    def _search_position(self) -> None:
        try:
            win = self.pos.winning_move()
            if win is None:
                self._search()
                return
            self.best = win  # nothing to search
            score = score_words(Score(win_score(self.pos.ply), Band.EXACT), self.pos.ply)
            empties = SIZE - self.pos.ply  # proven: the whole game (module docstring)
            self.emit(proof_line("solved"))
            self.emit(info_line(depth=empties, seldepth=empties, score=score, nodes=0,
                                elapsed=self._elapsed(), hashfull=0,
                                pv=[self.pos.landing_square(win)]))
        except Exception as exc:  # a bug: say so, and still answer
            self.emit(f"info string error: search failed: {type(exc).__name__}: {exc}")


class ExactJob(SearchJob):
    """Perfect play from the exact solver (see the module docstring)."""

    _solver: Solver | None = None
    _fallback_ctl: SearchController | None = None

    def _halt(self) -> None:
        for searcher in (self._solver, self._fallback_ctl):
            if searcher is not None:
                searcher.stop()

    def _halt_at_deadline(self) -> None:
        # The fallback search runs after the deadline, in the clock's safety margin (the
        # watcher answers for it if it is late): only the exact solve stops here.
        if self._solver is not None:
            self._solver.stop()

    def _solve(self, pos: Position) -> SolveResult | None:
        """The solver's result, or None if the deadline or ``stop`` cut it short."""
        if self._expired() or self._solver is None:
            return None
        try:  # the solver only stops when told: the job's watcher tells it at the deadline
            return self._solver.solve(pos)
        except SearchAborted:
            return None

    def _search(self) -> None:
        solver = self._solver = self.res.solver()
        root = self._solve(self.pos)
        if root is None:
            self._fallback()
            return
        self.best = root.best_move
        nodes = root.nodes
        # The principal variation: perfect play to the end, each move from a solve (cheap
        # now that the table is full of the root's results); cut short by the clock.
        from c4tui.engine.pv import perfect_steps

        pv = [root.best_move]
        p = self.pos.copy()
        p.play(root.best_move)
        try:
            for move, n in perfect_steps(p, solver, solve_if=lambda _: not self._expired()):
                pv.append(move)
                nodes += n
        except SearchAborted:
            pass  # the clock or stop: the moves so far are a correct beginning
        empties = SIZE - self.pos.ply
        self.emit(proof_line("solved"))  # the solver's root answer (its books included)
        self.emit(info_line(depth=empties, seldepth=empties,
                            score=score_words(Score(root.score, Band.EXACT), self.pos.ply),
                            nodes=nodes, elapsed=self._elapsed(), hashfull=solver.hashfull(),
                            pv=self.pos.line_squares(pv)))

    def _fallback(self) -> None:
        """Cut short: a move from a short analysis search (milliseconds)."""
        from c4tui.engine.analysis.controller import run_search

        self.emit("info string exact solve cut short; move from a "
                  f"{FALLBACK_NODES}-node analysis search")
        opts = SearchOptions(hash_mb=1, use_book=self.res.own_book)
        self._fallback_ctl = self.res.controller()
        res = run_search(self.pos, Limits(nodes=FALLBACK_NODES), opts,
                         controller=self._fallback_ctl)
        if res.best_move >= 0:  # a stop before the first iteration leaves none
            self.best = res.best_move


class AnalysisJob(SearchJob):
    """MILTON's analysis search within the ``go`` limits (see the module docstring)."""

    _controller: SearchController | None = None

    def _halt(self) -> None:
        c = self._controller
        if c is not None:
            c.stop()

    def _search(self) -> None:
        opts = SearchOptions(hash_mb=self.res.hash_mb, use_book=self.res.own_book,
                             multipv=self.res.multipv)
        ctl = self._controller = self.res.controller()
        ctl.start(self.pos, self.limits, opts)
        shown = 0
        while True:
            snap = ctl.snapshot()
            shown = self._show(snap.iterations, shown)
            if not snap.state.active:
                break
            if self._expired():
                ctl.stop()
            time.sleep(POLL_SECONDS)
        ctl.wait()
        snap = ctl.snapshot()
        shown = self._show(snap.iterations, shown)
        res = snap.result
        if res is not None and res.best_move >= 0:
            self.best = res.best_move
            if shown == 0 and res.depth > 0:  # answered without an iteration (a win at once)
                depth = res.depth
                if res.score.band is Band.EXACT:
                    depth = self._proven(res.source)
                self.emit(info_line(depth=depth, seldepth=max(depth, len(res.pv)),
                                    score=score_words(res.score, self.pos.ply),
                                    nodes=res.nodes, elapsed=self._elapsed(), hashfull=0,
                                    pv=self.pos.line_squares(res.pv)))

    def _show(self, iterations: Sequence[IterationReport], shown: int) -> int:
        """Emit the iterations not shown yet; the new count."""
        for it in iterations[shown:]:
            self.best = it.best_move
            # the books' answer, a full-depth iteration or a win at once: final
            depth = self._proven(it.source) if it.score.band is Band.EXACT else it.depth
            # MultiPV above 1: one line per PV, best first, numbered as UCI engines do
            lines = [(0, it.score, it.pv)] if self.res.multipv == 1 else \
                [(i + 1, line.score, line.pv) for i, line in enumerate(it.lines)]
            for number, score, pv in lines:
                self.emit(info_line(
                    depth=depth, seldepth=max(depth, len(pv)),
                    score=score_words(score, self.pos.ply), multipv=number,
                    nodes=it.total_nodes, elapsed=it.total_elapsed,
                    hashfull=int(it.tt_fill * 1000), pv=self.pos.line_squares(pv)))
        return len(iterations)

    def _proven(self, source: Source) -> int:
        """Say that the next line's score is proven (its source's ``info string``) and
        return its depth: the empty squares, the whole game (the module docstring)."""
        self.emit(proof_line("book" if source is Source.BOOK else "solved"))
        return SIZE - self.pos.ply
