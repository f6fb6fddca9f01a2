"""One ``go`` of an external engine, turned into the records the built-in search publishes.

:class:`ExternalRun` takes the engine's parsed ``info`` lines and its ``bestmove`` and keeps
what the app's panels draw: an :class:`IterationReport` per completed iteration and a
:class:`Snapshot`, so the search log and the analysis panel draw an external engine's
search exactly as they draw MILTON's. Pure bookkeeping (no threads, no process): the
caller holds the lock.

A proven score ends the search (``exhausted``: deeper search finds nothing new) and names
its source, :attr:`ExternalIteration.proof`: ``book`` or ``solved`` when the engine said
so (``info string proven book|solved`` before the line: ``c4tui engine`` does), ``engine``
when only the depth says it (a foreign engine that searched to the end of the game). A
``score cp 0`` without either is a heuristic 0, never a proven draw.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from c4tui.engine.board.position import Position
from c4tui.engine.seam import (
    Band,
    IterationReport,
    Limits,
    Score,
    SearchResult,
    SearchState,
    Snapshot,
    Source,
)
from c4tui.ugi.info import Info, InfoError, line_columns, proof_of, square_column, to_score

#: The window the log shows for an engine that does not say it: [-∞,∞].
NO_WINDOW = 10_000
#: Iterations kept per search (an engine may report far more depths than our 42 plies).
MAX_ITERATIONS = 256


@dataclass(frozen=True)
class ExternalIteration(IterationReport):
    """An iteration of an external engine: the built-in record plus its ``seldepth``."""

    seldepth: int = 0
    #: who proved its score (final: EXACT band): ``book``, ``solved`` (the engine said
    #: which), ``engine`` (only its depth says so); "" for a score that is not final
    proof: str = ""


class ExternalRun:
    """The state of one ``go``: ``feed`` it the info lines, ``finish`` it with bestmove."""

    def __init__(self, pos: Position, limits: Limits) -> None:
        self.pos = pos.copy()
        self.limits = limits  #: what the ``go`` asked for
        self.started = time.monotonic()
        self.ended: float | None = None
        self.state = SearchState.SEARCHING
        self.iterations: list[ExternalIteration] = []
        self.depth = 1  #: the iteration in progress (as far as the engine says)
        self.nodes = 0
        self.nps = 0
        self.fail_highs = 0
        self.fail_lows = 0
        self.exhausted = False  #: an exact iteration: deeper search finds nothing new
        self.stop_sent = False
        self.result: SearchResult | None = None
        self._snapshot: Snapshot | None = None  # cached while nothing changes
        self._proof: str | None = None  # announced for the next score line

    @property
    def active(self) -> bool:
        return self.state is SearchState.SEARCHING

    def elapsed(self) -> float:
        return (self.ended or time.monotonic()) - self.started

    def feed(self, info: Info) -> str:
        """Take one info line of this search; a complaint about it ("" if none)."""
        if not self.active:
            return ""
        if info.string is not None and info.score is None:
            self._proof = proof_of(info)  # says the next line is proven (or not)
            return ""
        if info.multipv not in (None, 1):
            return ""
        self._snapshot = None
        self.nodes = info.nodes if info.nodes is not None else self.nodes
        self.nps = info.nps if info.nps is not None else self.nps
        if info.bound is not None:  # an aspiration window failed: the iteration goes on
            if info.bound == "lowerbound":
                self.fail_highs += 1
            else:
                self.fail_lows += 1
            return ""
        proof, self._proof = self._proof, None  # it names the line right after it only
        score = to_score(info, self.pos, proven=proof is not None)
        if score is None:
            if info.depth is not None:
                self.depth = max(1, info.depth)
            return ""
        pv, why = line_columns(self.pos, info.pv)
        prev = self.iterations[-1] if self.iterations else None
        depth = info.depth if info.depth is not None else (prev.depth + 1 if prev else 1)
        replace = prev is not None and prev.depth == depth  # a new PV within an iteration
        base = (self.iterations[-2] if len(self.iterations) > 1 else None) if replace \
            else prev
        total_s = info.time_ms / 1000 if info.time_ms is not None else self.elapsed()
        base_nodes = base.total_nodes if base else 0
        base_s = base.total_elapsed if base else 0.0
        best = pv[0] if pv else (prev.best_move if prev else -1)
        if replace and prev is not None:  # the iteration's re-searches so far
            self.fail_highs += prev.fail_highs
            self.fail_lows += prev.fail_lows
        final = score.band is Band.EXACT
        it = ExternalIteration(
            source=Source.BOOK if final and proof == "book" else Source.SEARCH,
            proof=(proof or "engine") if final else "",
            depth=depth, alpha=-NO_WINDOW, beta=NO_WINDOW, fail_highs=self.fail_highs,
            fail_lows=self.fail_lows, score=score, best_move=best,
            nodes=max(0, self.nodes - base_nodes), nps=self.nps, tt_probes=0, tt_hits=0,
            hit_rate=0.0, tt_fill=min(1.0, max(0, info.hashfull or 0) / 1000),
            elapsed=max(0.0, total_s - base_s), pv=pv, total_nodes=self.nodes,
            total_elapsed=total_s, seldepth=max(depth, info.seldepth or 0))
        if replace:
            self.iterations[-1] = it
        else:
            self.iterations.append(it)
            del self.iterations[:-MAX_ITERATIONS]
        self.fail_highs = self.fail_lows = 0
        self.depth = depth + 1
        self.exhausted = final
        return why

    def finish(self, move: str | None, reason: SearchState | None = None) -> str:
        """The engine answered ``bestmove move`` (None: it is gone): the search ended.
        ``reason`` None: judged from how it was asked. A complaint about the move, or ""."""
        if not self.active:
            return ""
        self._snapshot = None
        self.ended = time.monotonic()
        if reason is None:
            if self.exhausted:
                reason = SearchState.DONE
            elif self.stop_sent:
                reason = SearchState.STOPPED
            else:
                reason = SearchState.NODE_LIMIT if self.limits.nodes else SearchState.DONE
        self.state = reason
        last = self.iterations[-1] if self.iterations else None
        best, why = (last.best_move if last else -1), ""
        if move is not None and move not in ("0000", "(none)"):
            try:
                best = square_column(self.pos, move)
            except InfoError as exc:
                why = f"bestmove: {exc}"
        if best < 0:
            return why
        pv = last.pv if last is not None and last.pv[:1] == (best,) else (best,)
        self.result = SearchResult(
            best_move=best, score=last.score if last else Score(0, Band.HEURISTIC), pv=pv,
            nodes=self.nodes, depth=last.depth if last else 0, reason=reason,
            source=last.source if last else Source.SEARCH)
        return why

    def snapshot(self) -> Snapshot:
        """What the panels draw (cached: rebuilt when a line arrives, or for the clock)."""
        snap = self._snapshot
        if snap is not None and not self.active:
            return snap
        last = self.iterations[-1] if self.iterations else None
        best = self.result.best_move if self.result is not None else (
            last.best_move if last is not None and last.best_move >= 0 else None)
        depth = self.depth if self.active or last is None else last.depth
        snap = Snapshot(
            state=self.state, depth=depth, nodes=self.nodes, nps=self.nps,
            elapsed=self.elapsed(), best_move=best,
            score=last.score if last else None,
            iterations=tuple(self.iterations), result=self.result)
        self._snapshot = snap
        return snap


def waiting_snapshot(state: SearchState = SearchState.SEARCHING) -> Snapshot:
    """A search asked for but not begun (the engine still starts, or finishes the last),
    or none (IDLE, STOPPED before it began)."""
    return Snapshot(state=state, depth=1, nodes=0, nps=0, elapsed=0.0, best_move=None,
                    score=None)
