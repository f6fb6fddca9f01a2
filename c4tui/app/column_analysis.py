"""Heuristic move values when the exact solver gives up: a short search per column.

Driven by the UI's tick (every call returns at once: ``SearchController.start`` only
hands the position to its worker), one child position at a time, only while the main
search of the viewed position has ended, so at most two engine jobs run.
"""

from __future__ import annotations

from c4tui.engine.position import Position
from c4tui.engine.scores import win_score
from c4tui.engine.seam import Band, Score, SearchState

from .loader import Engine
from .position_cache import PositionCache
from .settings import SearchSettings

#: Nodes per column: a seventh of the node limit, within these bounds.
MIN_COLUMN_NODES = 20_000
MAX_COLUMN_NODES = 500_000


class ColumnAnalysis:
    """Per viewed position, the value of each column from the side to move's view."""

    def __init__(self, engine: Engine, settings: SearchSettings) -> None:
        self._ctl = engine.columns
        self._settings = settings
        self._values: PositionCache[dict[int, Score]] = PositionCache()
        # per column, its PV
        self._lines: PositionCache[dict[int, tuple[int, ...]]] = PositionCache()
        self._running: tuple[int, int] | None = None  # (position key, column)

    def values(self, pos: Position) -> tuple[Score | None, ...]:
        """The values found so far (empty if none)."""
        found = self._values.get(pos.key())
        if not found:
            return ()
        return tuple(found.get(c) for c in range(7))

    def lines(self, pos: Position) -> tuple[tuple[int, ...], ...]:
        """Per column, the line behind its value: its move, then its search's PV."""
        found = self._lines.get(pos.key())
        if not found:
            return ()
        return tuple(found.get(c, ()) for c in range(7))

    def cancel(self) -> None:
        if self._running is not None:
            self._ctl.stop()
            self._running = None

    def tick(self, pos: Position, wanted: bool) -> None:
        """Advance by at most one step: collect a finished column, start the next one.
        ``wanted``: the main search has ended and the exact values are not coming."""
        key = pos.key()
        if self._running is not None:
            run_key, col = self._running
            if run_key != key or not wanted:
                self.cancel()
                return
            snap = self._ctl.snapshot()
            if snap.state.active:
                return
            self._running = None
            if snap.pov is not None and snap.state is not SearchState.STOPPED:
                self._values.setdefault(key, {})[col] = -snap.pov
                pv = snap.result.pv if snap.result is not None else ()
                self._lines.setdefault(key, {})[col] = (col, *pv)
        if not wanted or pos.is_over:
            return
        done = self._values.setdefault(key, {})
        lines = self._lines.setdefault(key, {})
        for col in pos.legal_moves():
            if col in done:
                continue
            if pos.is_winning_move(col):
                done[col], lines[col] = Score(win_score(pos.ply), Band.EXACT), (col,)
                continue
            child = pos.copy()
            child.play(col)
            if child.is_over:  # the board is full: a draw
                done[col], lines[col] = Score(0, Band.EXACT), (col,)
                continue
            from c4tui.engine.search import SearchOptions

            s = self._settings
            limit = max(MIN_COLUMN_NODES, min(s.node_limit // 7, MAX_COLUMN_NODES))
            self._ctl.start(child, SearchOptions(node_limit=limit, hash_mb=s.hash_mb))
            self._running = (key, col)
            return
