"""What the panels draw about the engine, captured at one instant (plain records)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from c4tui.engine.seam import Band, PathEntry, Score, Snapshot, ThreatVerdict

from .settings import SearchSettings

if TYPE_CHECKING:
    from .external_search import ExternalStatus


class EngineState(Enum):
    """The engine's availability, shown in the status line."""

    NOT_AVAILABLE = "engine not available"
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

    @property
    def best(self) -> int | None:
        vals = [s for s in self.scores if s is not None]
        return max(vals) if vals else None

    def values(self) -> tuple[Score | None, ...]:
        return tuple(None if s is None else Score(s, Band.EXACT) for s in self.scores)


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
    verdict: ThreatVerdict | None = None
    #: the external engine (``--engine``) searching instead of ours; None: ours
    external: ExternalStatus | None = None

    def unavailable(self, part: str) -> str:
        """Why the solver or the search says nothing (``part``: "solver" or "search")."""
        if self.state is EngineState.NOT_AVAILABLE:
            return "engine not available"
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
