"""The plain types of the engine's public seam (no numba: the app imports them at once).

python-chess is the model: a search is driven by one validated :class:`Limits` record and
reports a :class:`Score` (a value with its :class:`Band`, from the side to move's point of
view, that formats itself) and a :class:`SearchState`. The records a
:class:`c4tui.engine.controller.SearchController` publishes (:class:`IterationReport`,
:class:`Snapshot`, :class:`SearchResult`, :class:`PathEntry`) and the threat-fill
:class:`ThreatVerdict` live here too, so a reader finds every type of the seam in one file.
See docs/engine-api.md.

The enums are ``str`` enums: ``state == "paused"`` and ``json.dumps(band)`` keep working,
and ``str()`` gives the plain value.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from enum import Enum

from .geometry import MAX_SCORE, SIZE
from .position import PLAYER_NAMES, Position
from .scores import moves_to_end

# ------------------------------------------------------------------ limits

#: The node limit of an interactive search (the workstation, ``c4tui analyze``).
DEFAULT_NODE_LIMIT = 2_000_000
MAX_NODE_LIMIT = 10**12
#: Hash size (tables 1 and 2 of the analysis search) in MB.
DEFAULT_HASH_MB = 16
MAX_HASH_MB = 4096
#: A table this large takes seconds to allocate and clear: the UI says so.
SLOW_HASH_MB = 512
#: Threads of the exact solver (sharing one table; see docs/solver.md, "Parallel search").
MAX_THREADS = 64
#: Environment variable that sets the exact solver's default thread count.
THREADS_ENV = "C4TUI_THREADS"


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, e.g. under ``taskset`` or a
    container's cpuset; all of the machine's where affinity is unknown)."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, MAX_THREADS))


def default_threads() -> int:
    """The exact solver's thread count when none is given: ``C4TUI_THREADS`` if set, else
    one per usable core. The parallel search keeps one tree whatever its thread count
    (docs/solver.md, "Parallel search"); more threads than cores only take turns.
    ValueError for a bad ``C4TUI_THREADS``."""
    text = os.environ.get(THREADS_ENV, "").strip()
    if not text:
        return usable_cores()
    if not text.isdigit() or not 1 <= int(text[:3]) <= MAX_THREADS or len(text) > 3:
        raise ValueError(f"{THREADS_ENV}={text[:20]!r}: expected a thread count from 1 to "
                         f"{MAX_THREADS}")
    return int(text)


def check_node_limit(nodes: int | None) -> int | None:
    """``nodes`` if it is a node limit (None: unlimited); ValueError saying why otherwise."""
    if nodes is None:
        return None
    if isinstance(nodes, bool) or not isinstance(nodes, int):
        raise ValueError(f"node limit {nodes!r}: expected a whole number of nodes")
    if not 1 <= nodes <= MAX_NODE_LIMIT:
        raise ValueError(f"node limit {nodes}: expected 1 to {MAX_NODE_LIMIT:.0e} nodes")
    return nodes


def check_hash_mb(mb: float, lo: float = 1) -> float:
    """``mb`` if it is a hash size in MB (``lo`` to MAX_HASH_MB); ValueError otherwise."""
    if isinstance(mb, bool) or not isinstance(mb, (int, float)) or not math.isfinite(mb):
        raise ValueError(f"hash size {mb!r}: expected a size in MB")
    if not lo <= mb <= MAX_HASH_MB:
        raise ValueError(f"hash size {mb:g} MB: expected {lo:g} to {MAX_HASH_MB} MB")
    return mb


def check_depth(depth: int | None) -> int | None:
    """``depth`` if it is a search depth in plies (None: to the end); ValueError otherwise."""
    if depth is not None and not 1 <= depth <= SIZE:
        raise ValueError(f"depth {depth}: expected 1 to {SIZE} plies")
    return depth


@dataclass(frozen=True)
class Limits:
    """What bounds a search, validated once, where it is made (python-chess's ``Limit``)."""

    nodes: int | None = DEFAULT_NODE_LIMIT  #: None: no node limit
    hash_mb: int = DEFAULT_HASH_MB
    depth: int | None = None  #: None: up to the number of empty squares

    def __post_init__(self) -> None:
        check_node_limit(self.nodes)
        check_hash_mb(self.hash_mb)
        check_depth(self.depth)


# ------------------------------------------------------------------ states and scores


class SearchState(str, Enum):
    """Where a search is. The last three are ends; ``reason`` of a result is one of them."""

    IDLE = "idle"
    SEARCHING = "searching"
    PAUSED = "paused"
    DONE = "done"  #: reached its depth (the full depth: an exact answer)
    STOPPED = "stopped"
    NODE_LIMIT = "node_limit"

    def __str__(self) -> str:
        return self.value

    @property
    def active(self) -> bool:
        """Searching or paused: the search can still be paused, stepped or resumed."""
        return self in (SearchState.SEARCHING, SearchState.PAUSED)

    @property
    def label(self) -> str:
        """For people: ``node limit reached`` rather than ``node_limit``."""
        return "node limit reached" if self is SearchState.NODE_LIMIT else self.value


class Band(str, Enum):
    """How sure a score is."""

    EXACT = "exact"  #: a full-depth result (or a solver's / the book's): the true score
    RECOGNIZED = "recognized"  #: a proven win or loss before full depth (distance: an upper bound)
    HEURISTIC = "heuristic"  #: MILTON's evaluation: ±(458 + discs) expected win/loss, 0 draw

    def __str__(self) -> str:
        return self.value


class Source(str, Enum):
    """Where an answer came from: one vocabulary for every front end (the log's rows,
    ``--json``, the app's panel and status line)."""

    BOOK = "book"  #: a lookup in the books (ours, the 12-ply database) answered
    EXACT = "exact"  #: recognised exact without a search: a win at once, every move losing at once
    SEARCH = "search"  #: an iteration of the search (its band says how sure)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Score:
    """A score from the side to move's point of view, with its band (python-chess's
    ``PovScore``). ``value``: for EXACT and RECOGNIZED the solvers' convention (``22 - k`` on 7x6
    for a win with the k-th own disc, see ``c4tui.engine.scores``), for HEURISTIC MILTON's
    evaluation."""

    value: int
    band: Band

    def __neg__(self) -> Score:
        """The same score seen by the other side (a child position's score, negated)."""
        return Score(-self.value, self.band)

    @property
    def proven(self) -> bool:
        return self.band is not Band.HEURISTIC

    def sign(self) -> int:
        """+1 the side to move wins (or is expected to), -1 loses, 0 a draw."""
        return (self.value > 0) - (self.value < 0)

    def short(self, ply: int) -> str:
        """3 cells: ``W3`` / ``L5`` / ``=`` (exact), ``W3r`` (recognized), ``~W`` ``~L``
        ``~=`` (heuristic), for the side to move at ``ply``."""
        if self.band is Band.HEURISTIC:
            return "~" + "=WL"[self.sign()]
        if self.value == 0:
            return "="
        n = moves_to_end(self.value, ply)
        text = f"{'W' if self.value > 0 else 'L'}{n}"
        return text + "r" if self.band is Band.RECOGNIZED else text

    def log(self, ply: int) -> str:
        """For a table of iterations: ``+475`` (heuristic), ``W3`` ``L5r`` ``=`` (proven)."""
        if self.band is Band.HEURISTIC:
            return f"{self.value:+d}" if self.value else "0"
        return self.short(ply)

    def words(self, pos: Position) -> str:
        """``White wins in 3``, ``draw with best play``, ``Black expected to win (eval +475)``."""
        if self.band is Band.HEURISTIC:
            if self.value == 0:
                return "draw expected (eval 0)"
            side = pos.to_move if self.value > 0 else 1 - pos.to_move
            return f"{PLAYER_NAMES[side]} expected to win (eval {self.value:+d})"
        if self.value == 0:
            return "draw with best play"
        side = pos.to_move if self.value > 0 else 1 - pos.to_move
        text = f"{PLAYER_NAMES[side]} wins in {moves_to_end(self.value, pos.ply)}"
        return text + " (recognized)" if self.band is Band.RECOGNIZED else text

    def white_view(self, pos: Position) -> float:
        """On the evaluation graph's [-1, 1] scale from White's side: proven results are
        tall (faster wins taller), heuristic ones short."""
        if self.value == 0:
            return 0.0
        if self.band is Band.HEURISTIC:
            mag = 0.2
        else:
            mag = 0.35 + 0.65 * min(1.0, abs(self.value) / MAX_SCORE)
        v = mag if self.value > 0 else -mag
        return v if pos.to_move == 0 else -v


# ------------------------------------------------------------------ search records


@dataclass(frozen=True)
class IterationReport:
    """One completed iteration (all its aspiration re-searches included)."""

    depth: int
    alpha: int  #: window of the last (successful) search of the iteration
    beta: int
    fail_highs: int  #: re-searches after a fail high (MTD(f): passes that failed high)
    fail_lows: int
    score: int  #: see :class:`Score` (``pov`` is this with its band)
    band: Band
    best_move: int  #: 0-based column
    nodes: int  #: nodes of this iteration
    nps: int
    tt_probes: int  #: this iteration
    tt_hits: int
    hit_rate: float
    tt_fill: float  #: share of used slots in tables 1 and 2
    elapsed: float  #: seconds of this iteration (paused time excluded)
    pv: tuple[int, ...]
    value: int = 0  #: internal value (engine/analysis_eval.py)
    total_nodes: int = 0  #: nodes since the start of the search
    total_elapsed: float = 0.0
    #: not SEARCH: the root needed no iterations (score, move and line from the books or
    #: recognised exact), and this is the only report
    source: Source = Source.SEARCH

    @property
    def from_book(self) -> bool:
        """A lookup in the books answered (``source`` BOOK)."""
        return self.source is Source.BOOK

    @property
    def pov(self) -> Score:
        return Score(self.score, self.band)


@dataclass(frozen=True)
class PathEntry:
    """One ply of the path of a paused search: the node at distance ``ply`` from the root,
    its window, and the move it is searching (``-1`` at the node where it paused) with the
    move's index in that node's ordering."""

    ply: int
    move: int
    alpha: int
    beta: int
    index: int


@dataclass(frozen=True)
class SearchResult:
    """The answer of a finished search."""

    best_move: int  #: 0-based column
    score: int
    band: Band
    pv: tuple[int, ...]
    nodes: int
    depth: int  #: depth of the last completed iteration (0: none, e.g. a win at once)
    reason: SearchState  #: DONE, STOPPED or NODE_LIMIT
    value: int = 0
    source: Source = Source.SEARCH  #: where the answer came from

    @property
    def pov(self) -> Score:
        return Score(self.score, self.band)


@dataclass(frozen=True)
class Snapshot:
    """What a UI polls a few times a second."""

    state: SearchState
    depth: int  #: the iteration in progress (or, once ended, the last completed one)
    nodes: int
    nps: int
    elapsed: float
    best_move: int | None
    score: int | None
    band: Band | None
    iterations: tuple[IterationReport, ...] = field(default_factory=tuple)
    result: SearchResult | None = None
    value: int | None = None
    #: allocating and clearing the tables (seconds for a large hash size)
    preparing: bool = False

    @property
    def pov(self) -> Score | None:
        if self.score is None or self.band is None:
            return None
        return Score(self.score, self.band)


@dataclass(frozen=True)
class ThreatVerdict:
    """MILTON's threat-fill evaluation (thesis 6.1): who wins if no new threats appear."""

    outcome: int  #: +1 / 0 / -1 for the side to move
    plies: int  #: fill plies until the winning disc (0 for a draw)
