"""The plain types of the engine's public seam (no numba: the app imports them at once).

python-chess is the model: a search is started with one validated :class:`Limits` record
(what bounds it: nodes, depth, time; python-chess's ``Limit``) and one
:class:`SearchOptions` record (which techniques it uses and its table size: never a
bound), and reports a :class:`Score` (a value with its :class:`Band`, from the side to
move's point of view, that formats itself; python-chess's ``PovScore``) and a
:class:`SearchState`. The records a search publishes (:class:`IterationReport`,
:class:`Snapshot`, :class:`SearchResult`, :class:`PathEntry`, a multi-PV search's
:class:`PvLine`), the threat-fill
:class:`ThreatVerdict`, :class:`SearchAborted` (what a stopped solve raises) and
:class:`SearchLike` (what a front end needs from a search: the built-in
``SearchController`` and the app's external UGI engine both are one) live here too, so a
reader finds every type of the seam in one file. See docs/engine-api.md.

The enums are ``str`` enums: ``state == "paused"`` and ``json.dumps(band)`` keep working,
and ``str()`` gives the plain value.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from .board.geometry import MAX_SCORE, SIZE, WIDTH
from .board.position import PLAYER_NAMES, Position
from .scores import moves_to_end, result_words

# ------------------------------------------------------------------ limits

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


def check_multipv(k: int) -> int:
    """``k`` if it is a number of PV lines (1 to the board's columns); ValueError otherwise."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= WIDTH:
        raise ValueError(f"multipv {k!r}: expected 1 to {WIDTH} lines")
    return k


def check_depth(depth: int | None) -> int | None:
    """``depth`` if it is a search depth in plies (None: to the end); ValueError otherwise."""
    if depth is not None and not 1 <= depth <= SIZE:
        raise ValueError(f"depth {depth}: expected 1 to {SIZE} plies")
    return depth


def check_seconds(seconds: float | None) -> float | None:
    """``seconds`` if it is a time limit (None: none); ValueError otherwise."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"time {seconds!r}: expected seconds, 0 or more")
    return seconds


@dataclass(frozen=True)
class Limits:
    """What bounds a search (python-chess's ``Limit``), validated once, where it is made
    (``ValueError`` with a one-line message). The search ends at the first bound reached,
    and at the latest at the full depth (an exact answer). Every field is None by default:
    ``Limits()`` is unbounded, and each front end applies its own default where it builds
    one (``c4tui analyze``: MILTON's 1M nodes, cli/options.py; the workstation:
    app/bridge/settings.py; the UGI's ``go``: none, docs/protocol.md)."""

    nodes: int | None = None  #: nodes over all iterations; None: no node limit
    depth: int | None = None  #: plies; None: up to the number of empty squares
    time: float | None = None  #: seconds from the start; None: no time limit
    #: UGI's ``go infinite``: the answer waits for ``stop`` (the bounds above still hold)
    infinite: bool = False

    def __post_init__(self) -> None:
        check_node_limit(self.nodes)
        check_depth(self.depth)
        check_seconds(self.time)


@dataclass(frozen=True)
class SearchOptions:
    """How the analysis search searches: one switch per technique, so that each can be
    compared (docs/analysis.md), and the size of its tables. Never a bound (:class:`Limits`)."""

    pvs: bool = True  #: principal-variation search (False: plain alpha-beta)
    mtdf: bool = False  #: MTD(f) driver instead of aspiration windows
    aspiration: bool = True  #: MILTON's aspiration windows (False: full window)
    quiescence: bool = True  #: extend by two plies at the horizon under an acute threat
    extensions: bool = False  #: half a ply where only one move is sensible
    killers: bool = False  #: two killer moves per ply
    recognition: bool = True  #: interior-node recognition with its own table
    use_book: bool = True  #: probe the controller's books, if it was given any
    hash_mb: float = DEFAULT_HASH_MB  #: tables 1 and 2 together (tests use fractions)
    #: order moves also by the threats they create (not MILTON's; on by default since it
    #: lifts move accuracy at 1M nodes to 99.6% and cuts nodes to full depth by a third)
    threat_ordering: bool = True
    #: centre the aspiration window on the last value of the same iteration parity (the
    #: heuristic value flips with the side that moves last at the horizon), not MILTON's
    window_parity: bool = True
    #: the number of best root moves reported with their lines each iteration (UCI's
    #: MultiPV; more than the legal moves: all of them); 1 is the single-PV search
    multipv: int = 1

    def __post_init__(self) -> None:
        check_hash_mb(self.hash_mb, lo=0.03)
        check_multipv(self.multipv)


class SearchAborted(RuntimeError):
    """Raised by a solve that was stopped from another thread (``Solver.stop``). From
    ``Solver.analyze``, ``bounds`` holds what the columns it was solving had been proven
    worth by then: column -> (at least, at most), the side to move's view (e.g.
    ``(0, 17)``: at least a draw)."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.bounds: dict[int, tuple[int, int]] = {}


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
        """``White wins in 3``, ``draw`` (proven: :func:`~.scores.result_words`, the one
        wording), ``Black expected to win (eval +475)``."""
        if self.band is Band.HEURISTIC:
            if self.value == 0:
                return "draw expected (eval 0)"
            side = pos.to_move if self.value > 0 else 1 - pos.to_move
            return f"{PLAYER_NAMES[side]} expected to win (eval {self.value:+d})"
        text = result_words(self.value, pos.ply)
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
class PvLine:
    """One line of a multi-PV search (UCI's ``multipv i``): a root move, its score (band as
    the single-PV search gives it) and its principal variation, which begins with it."""

    move: int  #: 0-based column
    score: Score
    pv: tuple[int, ...]
    value: int = 0  #: internal value (engine/analysis/eval.py)


@dataclass(frozen=True)
class IterationReport:
    """One completed iteration (all its aspiration re-searches included)."""

    depth: int
    alpha: int  #: window of the last (successful) search of the iteration
    beta: int
    fail_highs: int  #: re-searches after a fail high (MTD(f): passes that failed high)
    fail_lows: int
    score: Score  #: the side to move at the root's view, with its band
    best_move: int  #: 0-based column
    nodes: int  #: nodes of this iteration
    nps: int
    tt_probes: int  #: this iteration
    tt_hits: int
    hit_rate: float
    tt_fill: float  #: share of used slots in tables 1 and 2
    elapsed: float  #: seconds of this iteration (paused time excluded)
    pv: tuple[int, ...]
    value: int = 0  #: internal value (engine/analysis/eval.py)
    total_nodes: int = 0  #: nodes since the start of the search
    total_elapsed: float = 0.0
    #: not SEARCH: the root needed no iterations (score, move and line from the books or
    #: recognised exact), and this is the only report
    source: Source = Source.SEARCH
    #: the best ``SearchOptions.multipv`` root moves, best first (the first is this
    #: report's move, score and PV); one line in a single-PV search
    lines: tuple[PvLine, ...] = ()

    @property
    def from_book(self) -> bool:
        """A lookup in the books answered (``source`` BOOK)."""
        return self.source is Source.BOOK


@dataclass(frozen=True)
class PathEntry:
    """One ply of the path of a paused search: the node at distance ``ply`` from the root,
    its window, and the move it is searching (``-1`` at the node where it paused) with the
    move's index in that node's ordering."""

    ply: int
    move: int
    #: the node's window in internal values (engine/analysis/eval.py), from the side to
    #: move at that node (negamax): not scores, which only a completed search gives
    alpha: int
    beta: int
    index: int


@dataclass(frozen=True)
class SearchResult:
    """The answer of a finished search."""

    best_move: int  #: 0-based column
    score: Score  #: the side to move at the root's view, with its band
    pv: tuple[int, ...]
    nodes: int
    depth: int  #: depth of the last completed iteration (0: none, e.g. a win at once)
    reason: SearchState  #: DONE, STOPPED or NODE_LIMIT
    value: int = 0
    source: Source = Source.SEARCH  #: where the answer came from
    lines: tuple[PvLine, ...] = ()  #: the last iteration's lines (IterationReport.lines)


@dataclass(frozen=True)
class Snapshot:
    """What a UI polls a few times a second."""

    state: SearchState
    depth: int  #: the iteration in progress (or, once ended, the last completed one)
    nodes: int
    nps: int
    elapsed: float
    best_move: int | None
    score: Score | None  #: the root's side to move's view; None before the first iteration
    iterations: tuple[IterationReport, ...] = field(default_factory=tuple)
    result: SearchResult | None = None
    value: int | None = None
    #: allocating and clearing the tables (seconds for a large hash size)
    preparing: bool = False
    #: the newest lines, best first (IterationReport.lines; empty before the first)
    lines: tuple[PvLine, ...] = ()


@dataclass(frozen=True)
class ThreatVerdict:
    """MILTON's threat-fill evaluation (thesis 6.1): who wins if no new threats appear."""

    outcome: int  #: +1 / 0 / -1 for the side to move
    plies: int  #: fill plies until the winning disc (0 for a draw)


# ------------------------------------------------------------------ what a front end drives

#: Called from the search's own thread after each iteration and state change (it must
#: return at once and never call back into the search; a UI posts itself a message).
Listener = Callable[[], None]


class SearchLike(Protocol):
    """What a front end needs from an analysis search: the built-in
    ``c4tui.engine.analysis.controller.SearchController`` and the app's external UGI engine
    (``c4tui.app.bridge.external_search.ExternalSearch``, which cannot pause or step: those calls
    do nothing and answer False). Every method returns at once except :meth:`wait`."""

    def start(self, pos: Position, limits: Limits, options: SearchOptions | None = None,
              *, paused: bool = False) -> None:
        """Search ``pos`` within ``limits`` (the running search is stopped first)."""

    def pause(self) -> None:
        """Pause where it is."""

    def resume(self) -> None:
        """Go on to the end (or the limits)."""

    def step_iteration(self) -> bool:
        """One more iteration, then pause; False if there is nothing to step."""

    def step_nodes(self, n: int) -> bool:
        """``n`` more nodes, then pause; False if there is nothing to step."""

    def set_node_limit(self, nodes: int | None) -> None:
        """A new ``Limits.nodes`` for the running search (None: no limit)."""

    def stop(self) -> None:
        """End the search; its result so far is kept."""

    def snapshot(self) -> Snapshot:
        """A consistent view of the newest search."""

    def path(self) -> tuple[PathEntry, ...]:
        """The search path while paused (empty otherwise)."""

    @property
    def state(self) -> SearchState:
        """Same as ``snapshot().state``."""

    @property
    def result(self) -> SearchResult | None:
        """The newest search's answer once it ended."""

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the search ends; False on timeout (scripts, tests: not a UI)."""

    def listen(self, listener: Listener | None) -> None:
        """Call ``listener`` after each iteration and state change (None: no more)."""
