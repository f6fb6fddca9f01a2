"""What the panels draw about the engine, captured at one instant (plain records)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from c4tui.engine.board.geometry import WIDTH
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, PathEntry, Score, Snapshot, ThreatVerdict

from .settings import SearchSettings

if TYPE_CHECKING:
    from c4tui.ugi.engine import EngineStatus


def line_ends(pos: Position, line: tuple[int, ...]) -> bool:
    """``line`` (0-based columns) is legal from ``pos`` and ends the game: a whole line."""
    p = pos.copy()
    for col in line:
        if p.is_over or not p.can_play(col):
            return False
        p.play(col)
    return p.is_over


def is_symmetric(pos: Position) -> bool:
    """``pos`` is its own mirror image: a move and its mirror image have the same value."""
    for c in range(WIDTH // 2):
        m = WIDTH - 1 - c
        if pos.height(c) != pos.height(m) or any(pos.cell(c, r) != pos.cell(m, r)
                                                 for r in range(pos.height(c))):
            return False
    return True


class EngineState(Enum):
    """The engine's availability, shown in the status line."""

    NOT_AVAILABLE = "engine off (--no-engine)"
    LOADING = "loading engine"
    COMPILING = "compiling"
    READY = "ready"
    FAILED = "engine failed"

    @property
    def waiting(self) -> bool:
        """Still loading or compiling: it will be there soon."""
        return self in (EngineState.LOADING, EngineState.COMPILING)


class ExactStatus(Enum):
    SOLVING = "solving"
    DONE = "done"
    TOO_SLOW = "too slow"
    ERROR = "error"


@dataclass(frozen=True)
class ExactEntry:
    """Exact column values of one position from the solver, or why there are none."""

    status: ExactStatus
    scores: tuple[int | None, ...] = ()  #: per column, the side to move's view; None: full
    nodes: int = 0
    micros: int = 0
    message: str = ""
    #: per column, a perfect-play line that starts with that move (``()``: not found yet,
    #: or a full column); a line cut by its time budget is a correct beginning
    lines: tuple[tuple[int, ...], ...] = ()
    lines_done: bool = False  #: no more lines are coming for this position
    #: before the whole analysis (solving, or given up after the budget): the columns
    #: solved so far, per column (None: not solved); exact values like ``scores``
    partial: tuple[int | None, ...] = ()
    #: given up: per column not solved, the bounds the solver had proven on its value,
    #: (at least, at most), or None
    bounds: tuple[tuple[int, int] | None, ...] = ()

    @classmethod
    def given_up(cls, found: list[int | None], legal: int, budget: float,
                 bounds: dict[int, tuple[int, int]], mirror: bool) -> ExactEntry:
        """A solve stopped at its time ``budget`` (seconds): the columns ``found`` by
        then, of ``legal`` moves, and the ``bounds`` it had proven on the others
        (``mirror``: the position is symmetric, a bound holds for the mirror column)."""
        done = sum(s is not None for s in found)
        message = f"{done} of {legal} solved within {budget:g} s" \
            if done else f"not solved within {budget:g} s"
        return cls(ExactStatus.TOO_SLOW, message=message, partial=_found(found),
                   bounds=_mirrored_bounds(bounds, mirror))

    @classmethod
    def failed(cls, exc: Exception, found: list[int | None]) -> ExactEntry:
        """A solve that raised (a bug in the solver): its first line, and the columns
        ``found`` before it (exact is exact)."""
        return cls(ExactStatus.ERROR, message=str(exc).splitlines()[0]
                   if str(exc) else type(exc).__name__, partial=_found(found))

    @property
    def best(self) -> int | None:
        vals = [s for s in self.scores if s is not None]
        return max(vals) if vals else None

    def values(self) -> tuple[Score | None, ...]:
        return tuple(None if s is None else Score(s, Band.EXACT) for s in self.scores)

    def line(self, col: int) -> tuple[int, ...]:
        """Column ``col``'s perfect-play line (``()``: not found yet)."""
        return self.lines[col] if col < len(self.lines) else ()



def _found(found: list[int | None]) -> tuple[int | None, ...]:
    """The columns solved so far, or ``()`` if none is."""
    return tuple(found) if any(s is not None for s in found) else ()


def _mirrored_bounds(bounds: dict[int, tuple[int, int]],
                     mirror: bool) -> tuple[tuple[int, int] | None, ...]:
    """Per column, the bounds a stopped analysis had proven (``mirror``: the position is
    symmetric, and each bound holds for the mirror image's column too)."""
    if not bounds:
        return ()
    out: list[tuple[int, int] | None] = [bounds.get(c) for c in range(WIDTH)]
    if mirror:
        for c in range(WIDTH):
            b, m = out[c], bounds.get(WIDTH - 1 - c)
            if m is not None:
                out[c] = m if b is None else (max(b[0], m[0]), min(b[1], m[1]))
    return tuple(out)

@dataclass(frozen=True)
class EngineView:
    """Everything the UI draws about the engine for the viewed position."""

    state: EngineState
    settings: SearchSettings
    message: str = ""
    search_available: bool = False
    solver_available: bool = False
    snapshot: Snapshot | None = None  #: the search of the viewed position, if any
    path: tuple[PathEntry, ...] = ()  #: while paused
    exact: ExactEntry | None = None
    #: heuristic values of each column from short searches of the child positions (when
    #: the exact solver gave up), the viewed position's side to move's view
    columns: tuple[Score | None, ...] = ()
    #: per column, the line behind ``columns``' value: the column and its search's PV
    column_lines: tuple[tuple[int, ...], ...] = ()
    verdict: ThreatVerdict | None = None
    #: the viewed position's own exact value (its side to move's view) when known without
    #: its analysis: from its parent's solve, or proved by the search (sign exact)
    known: Score | None = None
    #: the external engine (``--engine``) searching instead of ours; None: ours
    external: EngineStatus | None = None
    #: seconds since the external engine last said anything during its running search
    #: (0.0: none runs, or ours searches)
    silent: float = 0.0

    @property
    def exact_shown(self) -> bool:
        """The solver's values are the ones under the board (else the column searches')."""
        return self.exact is not None and bool(self.exact.scores)

    def value(self, col: int) -> Score | None:
        """The value under the board of column ``col`` (None: unknown or full): exact
        when the solver has solved it, else the column search's approximate value, made
        to agree with what is known exactly (never a ``~W`` under a move proven lost)."""
        if self.exact_shown:
            assert self.exact is not None
            s = self.exact.scores[col]
            return None if s is None else Score(s, Band.EXACT)
        s = self._partial(col)
        if s is not None:
            return Score(s, Band.EXACT)
        lo, hi = self._bounds(col)
        # a proven result whose distance is a bound: said as MILTON's recognised ones are
        if hi < 0:  # finite: a proven bound
            return Score(int(hi), Band.RECOGNIZED)  # lost, in at most that many moves
        if lo > 0:
            return Score(int(lo), Band.RECOGNIZED)  # won, in at most that many moves
        approx = self.columns[col] if col < len(self.columns) else None
        if approx is None or approx.band is not Band.HEURISTIC:
            return approx
        if approx.sign() > 0 and hi <= 0 or approx.sign() < 0 and lo >= 0:
            return Score(0, Band.HEURISTIC)  # at most / at least a draw: not a win / loss
        return approx

    @property
    def proven(self) -> Score | None:
        """The viewed position's own proven value (its side to move's view): the solver's
        best column, else ``known``; None while neither is there."""
        if self.exact_shown:
            assert self.exact is not None
            best = self.exact.best
            return None if best is None else Score(best, Band.EXACT)
        return self.known

    def values(self) -> tuple[Score | None, ...]:
        """:meth:`value` of every column (the row under the board)."""
        return tuple(self.value(c) for c in range(WIDTH))

    def _partial(self, col: int) -> int | None:
        partial = self.exact.partial if self.exact is not None else ()
        return partial[col] if col < len(partial) else None

    def _bounds(self, col: int) -> tuple[float, float]:
        """What is proven of column ``col``'s value: the solver's bounds on it, and no move
        worth more than the position itself (``known``: exact, or a recognised loss, whose
        true score is at most its value)."""
        bounds = self.exact.bounds if self.exact is not None else ()
        b = bounds[col] if col < len(bounds) else None
        lo, hi = b if b is not None else (-math.inf, math.inf)
        known = self.known
        if known is not None and (known.band is Band.EXACT or known.value < 0):
            hi = min(hi, known.value)
        return lo, hi

    def line(self, col: int) -> tuple[int, ...]:
        """The line behind :meth:`value`: the exact perfect-play line, or the column
        search's PV after the column's move (``()``: none yet; only the move for a column
        solved, or bounded, before the others: its search's line may disagree)."""
        if self.exact_shown:
            assert self.exact is not None
            return self.exact.line(col)
        lo, hi = self._bounds(col)
        if self._partial(col) is not None or hi < 0 or lo > 0:
            return (col,)
        return self.column_lines[col] if col < len(self.column_lines) else ()

    @property
    def lines_pending(self) -> bool:
        """Exact values are shown and their lines are still being found."""
        return self.exact_shown and self.exact is not None and not self.exact.lines_done

    def unavailable(self, part: str) -> str:
        """Why the solver or the search says nothing (``part``: "solver" or "search")."""
        if self.state is EngineState.NOT_AVAILABLE:
            return self.state.value
        if self.state.waiting:
            return f"{self.state.value}…"
        if self.state is EngineState.FAILED:
            return self.message
        if part == "solver" and not self.solver_available:
            return "solver not available"
        if part == "search" and self.external is not None and self.external.failed:
            return "external engine failed"
        if part == "search" and not self.search_available:
            return "analysis search not available yet"
        return "waiting…"
