"""The game review (key R) in the background: every position of the line solved exactly.

One daemon thread per review runs :class:`c4tui.review.game.Reviewer` with the worker's own
solver (a modest table, one thread, at the engine's lower priority), so the exact worker
keeps answering for the viewed position meanwhile. The values found are kept per position
(they are facts: a later review or a changed line keeps them); the UI reads the marks of
its line, the progress and the values for the evaluation graph, and cancels the review
when the game changes. Nothing here waits for the solver.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from c4tui.engine.board.position import Position
from c4tui.review.game import (
    INACCURACY_MOVES,
    GameReview,
    MoveReview,
    ReviewCancelled,
    Reviewer,
    Values,
    game_positions,
    review_move,
)

from .loader import lower_thread_priority

if TYPE_CHECKING:
    from c4tui.engine.books.link import BookLike
    from c4tui.engine.solver.solver import Solver
from .settings import REVIEW_HASH_MB


@dataclass
class ReviewJob:
    """One review of a line: its progress and, at the end, its result or its error."""

    line: tuple[int, ...]
    serial: int = 0  #: which review (counted from 1)
    done: int = 0
    total: int = 0
    running: bool = True
    cancelled: bool = False
    result: GameReview | None = None
    error: str = ""
    reviewer: Reviewer | None = field(default=None, repr=False)


class ReviewWorker:
    """Starts, cancels and reports reviews; every method returns at once."""

    def __init__(self, on_update: Callable[[], None] | None = None,
                 inaccuracy: int = INACCURACY_MOVES) -> None:
        """``on_update``: called on the review thread after each solved position;
        ``inaccuracy``: a result kept this many moves slower is marked ``?!``."""
        self._on_update = on_update
        self.inaccuracy = inaccuracy
        self._lock = threading.Lock()
        self._one_at_a_time = threading.Lock()  # a new review waits for the old to unwind
        self._solver: Solver | None = None
        self._job: ReviewJob | None = None
        self._values: dict[int, Values] = {}  # position key -> exact column scores
        self._fresh: list[tuple[Position, Values]] = []  # not yet taken by the UI
        self._version = 0
        self._cache: tuple[object, tuple[MoveReview | None, ...]] = (None, ())
        self._line_positions: tuple[tuple[int, ...], list[Position]] = ((), [Position()])

    # ------------------------------------------------------------------ control
    def start(self, line: tuple[int, ...], book: BookLike | None) -> None:
        """Review ``line`` (0-based columns) with the books ``book``; a running review is
        cancelled first."""
        self.cancel()
        with self._lock:
            serial = 1 if self._job is None else self._job.serial + 1
            job = ReviewJob(tuple(line), serial, total=len(line) + 1)
            self._job = job
        threading.Thread(target=self._run, args=(job, book), name="c4-review",
                         daemon=True).start()

    def cancel(self) -> bool:
        """Cancel the running review; False if none was running."""
        with self._lock:
            job = self._job
            if job is None or not job.running or job.cancelled:
                return False
            job.cancelled = True
            reviewer = job.reviewer
        if reviewer is not None:
            reviewer.stop()
        return True

    @property
    def job(self) -> ReviewJob | None:
        """The last review started (a copy: its progress at this instant)."""
        with self._lock:
            job = self._job
            return None if job is None else dataclasses.replace(job, reviewer=None)

    # ------------------------------------------------------------------ results
    def values(self, pos: Position) -> Values | None:
        """The exact column scores of ``pos`` if a review solved it."""
        with self._lock:
            return self._values.get(pos.key())

    def take_fresh(self) -> list[tuple[Position, Values]]:
        """The positions solved since the last call, with their values (for the graph)."""
        with self._lock:
            fresh, self._fresh = self._fresh, []
        return fresh

    def moves(self, line: tuple[int, ...]) -> tuple[MoveReview | None, ...]:
        """The review of each move of ``line`` (None: its position is not solved yet)."""
        with self._lock:
            key = (line, self._version)
            if self._cache[0] == key:
                return self._cache[1]
            if self._line_positions[0] != line:
                self._line_positions = (line, game_positions(line))
            positions = self._line_positions[1]
            out = []
            for ply, col in enumerate(line):
                vals = self._values.get(positions[ply].key())
                out.append(None if vals is None else review_move(
                    ply, col, vals, positions[ply], self.inaccuracy))
            self._cache = (key, tuple(out))
            return self._cache[1]

    def marks(self, line: tuple[int, ...]) -> dict[int, str]:
        """Ply reached by a move (1: the first move) -> its mark, for the marked moves."""
        return {m.ply + 1: m.mark for m in self.moves(line) if m is not None and m.mark}

    # ------------------------------------------------------------------ the thread
    def _run(self, job: ReviewJob, book: BookLike | None) -> None:
        lower_thread_priority()
        with self._one_at_a_time:
            try:
                if self._solver is None:
                    from c4tui.engine.solver.solver import Solver

                    self._solver = Solver(hash_mb=REVIEW_HASH_MB, book=book, threads=1)
                with self._lock:
                    if job.cancelled:
                        raise ReviewCancelled
                    job.reviewer = Reviewer(self._solver, self.inaccuracy)
                positions = game_positions(job.line)

                def progress(done: int, total: int, ply: int, values: Values) -> None:
                    with self._lock:
                        self._values[positions[ply].key()] = values
                        self._fresh.append((positions[ply], values))
                        self._version += 1
                        job.done, job.total = done, total
                    self._notify()

                result = job.reviewer.review(job.line, progress)
                with self._lock:
                    job.result = result
            except ReviewCancelled:
                pass
            except Exception as exc:  # a bug in the solver: say it, keep the app
                with self._lock:
                    job.error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            finally:
                with self._lock:
                    job.running = False
            self._notify()

    def _notify(self) -> None:
        if self._on_update is not None:
            self._on_update()
