"""MILTON's analysis search, top to bottom: iterative deepening, its lines, its windows.

The search (Baier 2006, the MILTON thesis; see docs/analysis.md) deepens 1, 2, 3 ... plies
up to the number of empty squares, where its result is exact and in the perfect solvers'
score convention. This module is the whole loop, in the order it runs (Stockfish's
search.cpp: ``iterative_deepening``, then one root search per line):

1. :func:`iterative_deepening`: a root won at once or in the books is answered without
   iterations; otherwise depth after depth, each iteration published as one
   :class:`IterationReport`, until the full depth, a stop or the node limit.
2. :func:`search_lines`: one iteration's lines (multi-PV as chess engines do it).
3. :func:`aspiration` (MILTON's windows, :func:`aspiration_window`) or :func:`mtdf`: one
   line's root searches on the kernel (:class:`~c4tui.engine.analysis.buffers.Buffers`).
4. :func:`classify`: an internal value as a :class:`Score` with its band.

What runs the loop (the worker thread, the clock, pause and step, the published state) is
the :class:`~c4tui.engine.analysis.controller.SearchController`'s; the loop asks it only what a
:class:`Host` offers. Every technique is a switch in
:class:`~c4tui.engine.seam.SearchOptions`; what bounds a search is a
:class:`~c4tui.engine.seam.Limits`.

Each record carries one :class:`Score`; for the EXACT band (a full-depth iteration) and
the RECOGNIZED band (a proven win or loss before full depth; the distance is the best
found so far and may shrink with depth) its value is in the solvers' convention (22 - k,
see ``c4tui.engine.scores``), for the HEURISTIC band MILTON's evaluation value:
``±(458 + discs)`` for an expected win/loss, 0 for an expected draw. A record's ``value``
holds the internal value (see ``engine/analysis/eval.py`` for the bands).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from ..board.geometry import CENTER_ORDER, SIZE, column_bits, win_score
from ..board.position import Position, winning_move, winning_squares
from ..books.link import BookLike
from ..seam import (
    Band,
    IterationReport,
    PvLine,
    Score,
    SearchOptions,
    SearchResult,
    SearchState,
    Source,
)
from ..solver.solver import Solver
from . import kernel as K
from .book_answer import BookAnswer, book_answer
from .buffers import Buffers
from .eval import INF, REAL_MIN, REC, REC_MIN, WIN
from .tt import zobrist_key

__all__ = ["Host", "SearchRun", "BookRoots", "iterative_deepening", "classify",
           "aspiration_window", "report"]


class Host(Protocol):
    """What the loop asks of whoever runs it (the controller, for one search)."""

    def pause_point(self, depth: int) -> bool:
        """Before iteration ``depth``: show it as the one in progress, wait while paused;
        False if the search must end (a stop or the node limit: the kernel's abort word
        then says which)."""

    def elapsed(self) -> float:
        """Seconds searched so far (paused time excluded)."""

    def publish(self, rep: IterationReport) -> bool:
        """An iteration is complete; False if this search was superseded (stop here)."""

    def end(self, result: SearchResult, alone: IterationReport | None = None) -> None:
        """The search ended (``result.reason``); ``alone``: answered by this one report,
        without iterations."""


@dataclass
class SearchRun:
    """One search: what it searches, with what, and what an earlier part of it found."""

    pos: Position
    opts: SearchOptions
    max_depth: int  #: the deepest iteration (the limit's depth, at most the empty squares)
    buffers: Buffers  #: prepared for this search (engine/analysis/buffers.py)
    book: BookLike | None  #: probed by the kernel and answering the root (None: no book)
    roots: BookRoots  #: answers a root in the books
    #: a continuation's earlier iterations (it goes on one deeper, tables kept)
    done: tuple[IterationReport, ...] = ()


# ------------------------------------------------------------------ 1. iterative deepening


def iterative_deepening(run: SearchRun, host: Host) -> None:
    """Run the search to its end and tell ``host`` (from the worker's thread)."""
    pos, opts, buf = run.pos, run.opts, run.buffers
    alone = answer_at_once(pos)
    if alone is None and run.book is not None:
        alone = run.roots.answer(pos, run.book, opts.multipv)
    if alone is not None:
        host.end(SearchResult(alone.best_move, alone.score, alone.pv, alone.nodes,
                              alone.depth, SearchState.DONE, alone.value, alone.source,
                              alone.lines), alone)
        return
    key = zobrist_key(pos.stones(0), pos.stones(1))  # (analysis_tt's: any size)
    empties = SIZE - pos.ply
    its = list(run.done)
    reason = SearchState.DONE
    # the root value of each iteration, for each line (the first: the single PV's)
    history: list[dict[int, int]] = [{} for _ in range(opts.multipv)]
    for rep in its:
        for i, line in enumerate(rep.lines[:opts.multipv]):
            history[i][rep.depth] = line.value
    best_move = its[-1].best_move if its else -1
    for depth in range(len(its) + 1, run.max_depth + 1):
        if not host.pause_point(depth):
            reason = buf.abort_reason()
            break
        exact = depth >= empties
        n0, p0, h0 = buf.counts()
        t0 = host.elapsed()
        found = search_lines(buf, pos, key, depth, exact, opts, history, best_move)
        if found is None:
            reason = buf.abort_reason()
            break
        first, lines = found
        best = lines[0]
        best_move = best.move
        for i, line in enumerate(lines):
            history[i][depth] = line.value
        el = host.elapsed()
        nodes, probes, hits = buf.counts()
        rep = report(depth, first.alpha, first.beta, best.score, best.move, best.pv,
                     best.value, fail_highs=first.fail_highs, fail_lows=first.fail_lows,
                     nodes=nodes - n0, elapsed=el - t0, tt_probes=probes - p0,
                     tt_hits=hits - h0, tt_fill=buf.fill(), total_nodes=nodes,
                     total_elapsed=el, lines=tuple(lines))
        if not host.publish(rep):
            return
        its.append(rep)
    if its:  # the result: the last iteration's
        last = its[-1]
        res = SearchResult(last.best_move, last.score, last.pv, buf.nodes(), last.depth,
                           reason, last.value, lines=last.lines)
    else:  # none completed: the PV table's move
        mv = buf.pv_move()
        mv = mv if mv >= 0 else fallback_move(pos)
        res = SearchResult(mv, Score(0, Band.HEURISTIC), (mv,), buf.nodes(), 0, reason, 0)
    host.end(res)


# ------------------------------------------------------------------ 2. one iteration's lines


def search_lines(buf: Buffers, pos: Position, key: int, depth: int, exact: bool,
                 opts: SearchOptions, history: list[dict[int, int]], best_move: int
                 ) -> tuple[Iteration, list[PvLine]] | None:
    """One iteration's lines, best first, and the first root search (its window and
    re-searches are the report's); None if the search was stopped or reached its limit.

    Multi-PV as chess engines do it (Stockfish): for each line the root is searched
    again without the moves of the lines already found, with an aspiration window
    around that line's last value; then the lines are sorted by value. The moves that
    lose at once (the kernel never searches them) fill the lines left."""
    searched, lost = root_moves(pos)
    want = min(opts.multipv, len(searched) + len(lost))
    first: Iteration | None = None
    lines: list[PvLine] = []
    buf.set_exact(exact)
    for i in range(max(1, min(want, len(searched)))):
        taken = tuple(line.move for line in lines)
        if opts.multipv > 1:
            buf.exclude(taken)
        values = history[i]
        if opts.mtdf:
            it = mtdf(buf, pos, key, depth, values.get(depth - 1, 0))
        else:
            window = (aspiration_window(values, depth, opts.window_parity)
                      if opts.aspiration else (-INF, INF))
            it = aspiration(buf, pos, key, depth, window)
        if it.aborted:
            buf.exclude(())
            return None
        if it.move < 0 or it.move in taken:  # lost at once, or nothing better known
            left = [c for c in searched + lost if c not in taken]
            it.move = best_move if i == 0 and best_move >= 0 else (
                left[0] if i else fallback_move(pos))
            it.pv = (it.move,)
        first = first or it
        pv = buf.extend_pv(pos, key, it.pv, max(depth, len(it.pv)))
        lines.append(PvLine(it.move, classify(it.value, exact), pv, it.value))
    buf.exclude(())
    assert first is not None
    for c in lost:
        if len(lines) >= want:
            break
        if all(line.move != c for line in lines):
            lines.append(lost_line(pos, c, exact))
    lines.sort(key=lambda line: -line.value)  # stable: ties keep the search's order
    return first, lines


# ------------------------------------------------------------------ 3. one line's root searches


@dataclass
class Iteration:
    """What one driver (aspiration windows or MTD(f)) found for one line."""

    value: int
    alpha: int
    beta: int
    fail_highs: int = 0
    fail_lows: int = 0
    move: int = -1  #: -1: the PV table gave none
    pv: tuple[int, ...] = ()
    aborted: bool = False


def aspiration(buf: Buffers, pos: Position, key: int, depth: int,
               window: tuple[int, int]) -> Iteration:
    """One line with MILTON's aspiration windows: a window missed once is widened on its
    side, missed twice opened fully (the ID driver)."""
    alpha, beta = window
    it = Iteration(0, alpha, beta)
    repeated = False
    while True:
        v = buf.root(pos, key, depth, alpha, beta)
        if buf.aborted():
            it.aborted = True
            break
        if v <= alpha and alpha > -INF:
            it.fail_lows += 1
            alpha, beta = (-INF, INF) if repeated else (-INF, v + 2)
            repeated = True
            continue
        if v >= beta and beta < INF:
            it.fail_highs += 1
            alpha, beta = (-INF, INF) if repeated else (v - 2, INF)
            repeated = True
            continue
        break
    it.value, it.alpha, it.beta = v, alpha, beta
    pv = buf.root_pv()
    if not it.aborted and pv:
        it.move, it.pv = pv[0], pv
    return it


def mtdf(buf: Buffers, pos: Position, key: int, depth: int, guess: int) -> Iteration:
    """One line with MTD(f): null-window searches from ``guess`` until the bounds meet."""
    g = guess
    lower, upper = -INF, INF
    it = Iteration(g, lower, upper)
    while lower < upper:
        b = g + 1 if g == lower else g
        g = buf.root(pos, key, depth, b - 1, b)
        if buf.aborted():
            it.aborted = True
            break
        if g < b:
            upper = g
            it.fail_lows += 1
        else:
            lower = g
            it.fail_highs += 1
            pv = buf.root_pv()
            if pv:
                it.move, it.pv = pv[0], pv
    it.value, it.alpha, it.beta = g, lower, upper
    return it


def aspiration_window(values: dict[int, int], depth: int, parity: bool) -> tuple[int, int]:
    """The aspiration window of iteration ``depth`` from the root values of the earlier
    ones. With ``parity``, a heuristic value is predicted from the iteration two plies
    back: the side that moves last at the horizon alternates, and so, often, does the
    sign of the evaluation (the odd/even effect), which made every window miss."""
    last = values.get(depth - 1)
    if last is None:
        return -INF, INF
    same = values.get(depth - 2)
    if parity and same is not None and abs(last) < REC_MIN and abs(same) < REC_MIN:
        return _next_window(same, 2)
    return _next_window(last)


def _next_window(v: int, steps: int = 1) -> tuple[int, int]:
    """MILTON's aspiration window ``steps`` iterations after one of value ``v`` (thesis
    3.4): an expected win ``458 + discs`` gains a disc per ply, a proven result stays."""
    if v == 0:
        return -2, 2
    if 0 < v < 600:
        return v + steps - 1, v + steps + 1  # steps 1: the next iteration should give v + 1
    if -600 < v < 0:
        return v - steps - 1, v - steps + 1
    return v - 1, v + 1  # recognized or real: does not change with depth


# ------------------------------------------------------------------ 4. score bands


def classify(value: int, exact_iteration: bool) -> Score:
    """The :class:`Score` of an internal root value (see the module docstring)."""
    a = abs(value)
    sign = 1 if value > 0 else -1
    if a >= REAL_MIN:
        n_end = WIN - a
    elif a >= REC_MIN:
        n_end = REC - a
    else:
        if exact_iteration:
            if value != 0:  # a full-depth search has no heuristic leaf
                raise AssertionError(f"full-depth value {value} is not exact")
            return Score(0, Band.EXACT)
        return Score(value, Band.HEURISTIC)
    score = sign * win_score(n_end - 1)  # the winning disc was played at ply n_end - 1
    # Before full depth a proven result's distance is only the best found so far: a
    # quiescence-extended line can reach a slow win while a quicker one lies beyond the
    # horizon of a quiet line.
    return Score(score, Band.EXACT if exact_iteration else Band.RECOGNIZED)


# ------------------------------------------------------------------ the root's own answers


def root_moves(pos: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(searched, lost)``: the root moves the kernel searches, and the rest, which lose
    at once (the kernel's own rule: the one move that blocks an acute threat, else every
    move that does not play under one; none under two threats or when every move does).
    The root must not be won at once (:func:`answer_at_once` answers that)."""
    cur, mask = pos.current, pos.mask
    play = pos.possible_squares()  # Python ints: any size
    othr = winning_squares(cur ^ mask, mask)
    forced = othr & play
    if forced & (forced - 1):
        moves = 0
    else:
        moves = forced or play & ~(othr >> 1)
    legal = [c for c in CENTER_ORDER if play & column_bits(c)]
    searched = tuple(c for c in legal if moves & column_bits(c))
    return searched, tuple(c for c in legal if c not in searched)


def lost_line(pos: Position, move: int, exact: bool) -> PvLine:
    """The line of a root move that loses at once: the move, then the opponent's four."""
    p = pos.copy()
    p.play(move)
    win = p.winning_move()
    value = -(WIN - (pos.ply + 2))  # the opponent's four next
    return PvLine(move, classify(value, exact), (move,) if win is None
                  else (move, win), value)


def fallback_move(pos: Position) -> int:
    """A move when the search found none better: block an acute threat, else the centre."""
    legal = pos.legal_moves()
    block = winning_move(pos.current ^ pos.mask, pos.mask)  # where the opponent would win
    if block is not None:
        return block
    for c in CENTER_ORDER:
        if c in legal:
            return c
    return legal[0]


def answer_at_once(pos: Position) -> IterationReport | None:
    """A win at once needs no search: one exact report (None: there is none)."""
    c = pos.winning_move()
    if c is None:
        return None
    return report(1, -INF, INF, Score(win_score(pos.ply), Band.EXACT), c, (c,),
                  WIN - pos.ply - 1, source=Source.EXACT)


class BookRoots:
    """Answers a root that is in the books: exact score, move and line (one report, no
    iterations). Keeps the solver that finds the moves between searches."""

    def __init__(self) -> None:
        self._exact: Solver | None = None

    def answer(self, pos: Position, book: BookLike, multipv: int) -> IterationReport | None:
        """The report (its source EXACT if no lookup was needed: every move loses at
        once); None if the root is in no book."""
        if self._exact is None or self._exact.book is not book:
            self._exact = Solver(hash_mb=16, book=book)  # finds the moves (1 thread)
        t0 = time.perf_counter()
        ans = book_answer(pos, book, self._exact)
        if ans is None:
            return None
        lines = self._lines(pos, book, ans, multipv) if multipv > 1 else ()
        dt = time.perf_counter() - t0
        return report(
            len(ans.pv), -INF, INF, Score(ans.score, Band.EXACT), ans.best_move, ans.pv,
            int(K.book_value(ans.score, pos.ply)), nodes=ans.nodes, elapsed=dt,
            total_nodes=ans.nodes, total_elapsed=dt, source=ans.source, lines=lines)

    def _lines(self, pos: Position, book: BookLike, ans: BookAnswer, multipv: int
               ) -> tuple[PvLine, ...]:
        """A book root's multi-PV lines: every column's exact score (the solver with the
        books: lookups), each line the child's book answer; best first."""
        assert self._exact is not None
        scores = self._exact.analyze(pos).scores
        lines = []
        for col in CENTER_ORDER:
            score = scores[col]
            if score is None:
                continue
            pv: tuple[int, ...] = (col,)
            if col == ans.best_move:
                pv = ans.pv
            else:
                child = pos.copy()
                child.play(col)
                sub = None if child.is_over else book_answer(child, book, self._exact)
                pv = (col, *sub.pv) if sub is not None else (col,)
            lines.append(PvLine(col, Score(score, Band.EXACT), pv,
                                int(K.book_value(score, pos.ply))))
        lines.sort(key=lambda line: (line.move != ans.best_move, -line.score.value))
        return tuple(lines[:multipv])


def report(depth: int, alpha: int, beta: int, score: Score, best_move: int,
           pv: tuple[int, ...], value: int, *, fail_highs: int = 0, fail_lows: int = 0,
           nodes: int = 0, elapsed: float = 0.0, tt_probes: int = 0, tt_hits: int = 0,
           tt_fill: float = 0.0, total_nodes: int = 0, total_elapsed: float = 0.0,
           source: Source = Source.SEARCH, lines: tuple[PvLine, ...] = ()) -> IterationReport:
    """The one place an :class:`IterationReport` is built (an iteration, a win at once, a
    root in the books): rates derived here; ``lines`` empty: the best move's one line."""
    return IterationReport(
        depth=depth, alpha=int(alpha), beta=int(beta), fail_highs=fail_highs,
        fail_lows=fail_lows, score=score, best_move=best_move,
        nodes=nodes, nps=int(nodes / elapsed) if elapsed > 0 else 0, tt_probes=tt_probes,
        tt_hits=tt_hits, hit_rate=tt_hits / tt_probes if tt_probes else 0.0,
        tt_fill=tt_fill, elapsed=elapsed, pv=pv, value=int(value), total_nodes=total_nodes,
        total_elapsed=total_elapsed, source=source,
        lines=lines or (PvLine(best_move, score, pv, int(value)),))
