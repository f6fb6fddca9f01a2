"""Approximate move values while the exact ones are not there: a short search per column.

Driven by the UI's tick (every call returns at once: ``SearchController.start`` only
hands the position to its worker), one child position at a time. A quick pass gives every
column a value within a second of the solver starting on the position, whatever the main
search's node limit; once the main search has ended and the solver has given up, a longer
pass replaces those values. The columns the solver has solved are not searched.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from c4tui.engine.board.geometry import CENTER_ORDER, WIDTH
from c4tui.engine.board.position import Position
from c4tui.engine.scores import win_score
from c4tui.engine.seam import Band, Limits, Score, SearchOptions, SearchState

from .engine_view import is_symmetric
from .loader import Engine
from .position_cache import PositionCache
from .settings import SearchSettings

#: Nodes per column of the quick pass: all seven within a fraction of a second.
QUICK_COLUMN_NODES = 100_000
#: Its tables (MB): enough for its nodes, and quick to clear at each column's start.
QUICK_COLUMN_HASH_MB = 16
#: Nodes per column of the longer pass: a seventh of the node limit, within these bounds.
MIN_COLUMN_NODES = 20_000
MAX_COLUMN_NODES = 500_000


@dataclass(frozen=True)
class _Found:
    value: Score
    line: tuple[int, ...]  #: the column, then its search's PV
    nodes: int  #: the node limit it was searched with (a longer pass searches it again)


class ColumnAnalysis:
    """Per viewed position, the value of each column from the side to move's view."""

    def __init__(self, engine: Engine, settings: SearchSettings) -> None:
        self._ctl = engine.columns
        self._settings = settings
        self._found: PositionCache[dict[int, _Found]] = PositionCache()
        self._running: tuple[int, int, int] | None = None  # (position key, column, nodes)

    def values(self, pos: Position) -> tuple[Score | None, ...]:
        """The values found so far (empty if none)."""
        found = self._found.get(pos.key())
        if not found:
            return ()
        return tuple(f.value if (f := found.get(c)) else None for c in range(WIDTH))

    def lines(self, pos: Position) -> tuple[tuple[int, ...], ...]:
        """Per column, the line behind its value: its move, then its search's PV."""
        found = self._found.get(pos.key())
        if not found:
            return ()
        return tuple(f.line if (f := found.get(c)) else () for c in range(WIDTH))

    def cancel(self) -> None:
        if self._running is not None:
            self._ctl.stop()
            self._running = None

    def _deep_nodes(self) -> int:
        nodes = self._settings.search_limits().nodes  # the built-in search's
        share = MAX_COLUMN_NODES if nodes is None else min(nodes // WIDTH, MAX_COLUMN_NODES)
        return max(MIN_COLUMN_NODES, share)

    def tick(self, pos: Position, wanted: bool, deep: bool = False,
             solved: Collection[int] = ()) -> bool:
        """Advance by at most one step: collect a finished column, start the next one.
        ``wanted``: the exact values are not (all) there; ``deep``: also the longer pass
        (the main search has ended and the exact values are not coming); ``solved``: the
        columns the solver has solved (not searched, a running one is stopped). True
        while a column search runs (more ticks are needed)."""
        key = pos.key()
        if self._running is not None:
            run_key, col, nodes = self._running
            if run_key != key or not wanted or col in solved:
                self.cancel()
                return True  # the next tick may start the new position's columns
            snap = self._ctl.snapshot()
            if snap.state.active:
                return True
            self._running = None
            if snap.score is not None and snap.state is not SearchState.STOPPED:
                pv = snap.result.pv if snap.result is not None else ()
                self._found.setdefault(key, {})[col] = _Found(-snap.score, (col, *pv), nodes)
        if not wanted or pos.is_over:
            return False
        found = self._found.setdefault(key, {})
        deep_nodes = self._deep_nodes()
        nodes = deep_nodes if deep else min(QUICK_COLUMN_NODES, deep_nodes)
        symmetric = is_symmetric(pos)
        for col in CENTER_ORDER:
            if not pos.can_play(col) or col in solved:
                continue
            have = found.get(col)
            if have is not None and (have.value.band is Band.EXACT or have.nodes >= nodes):
                continue
            twin = found.get(WIDTH - 1 - col) if symmetric else None
            if twin is not None and twin.nodes >= nodes:
                # the mirror image's value: searched again, it could differ by the tables'
                # contents, and two values for one move would say nothing
                found[col] = _Found(twin.value, tuple(WIDTH - 1 - c for c in twin.line),
                                    twin.nodes)
                continue
            if pos.is_winning_move(col):
                found[col] = _Found(Score(win_score(pos.ply), Band.EXACT), (col,), nodes)
                continue
            child = pos.copy()
            child.play(col)
            if child.is_over:  # the board is full: a draw
                found[col] = _Found(Score(0, Band.EXACT), (col,), nodes)
                continue
            mine = self._settings.options.hash_mb
            hash_mb = mine if deep else min(mine, QUICK_COLUMN_HASH_MB)
            self._ctl.start(child, Limits(nodes=nodes), SearchOptions(hash_mb=hash_mb))
            self._running = (key, col, nodes)
            return True
        return False
