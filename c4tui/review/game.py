"""Whole-game review: the exact value of every move at every ply, the moves that changed
the result or made it slower, and each side's accuracy.

A :class:`Reviewer` walks a game with the exact solver (any object with the
:class:`c4tui.engine.solver.solver.Solver` calls ``analyze`` and ``stop``) and returns a
:class:`GameReview`: per move the exact score of every column for the side that moved, and
a mark (:func:`judge`):

* ``??`` (:data:`BLUNDER`): a won position thrown into a draw or a loss;
* ``?`` (:data:`MISTAKE`): a drawn position thrown into a loss;
* ``?!`` (:data:`INACCURACY`): the result kept, but a win made at least ``N`` of the
  winner's moves longer, or a loss ``N`` shorter (``N``: :data:`INACCURACY_MOVES` unless
  given), or a win in one (a four with this disc) missed for a slower win;
* ``!`` (:data:`ONLY_MOVE`): the position is won, there are at least two legal moves and
  the played one is the only one that keeps the win (a move that wins at once is not
  marked: there is nothing to find).

A mistake names the better moves: the columns that keep the result the position had; an
inaccuracy those of the fastest win (or slowest loss). Each move also gets an accuracy, and
each side a game accuracy (:mod:`c4tui.review.accuracy`: lichess's formulas on exact values).
Scores are the solvers' convention (:mod:`c4tui.engine.scores`): 0 a draw, positive a win
for the side to move. This module knows nothing of Textual or numba; the CLI
(``c4tui review``) and the app (key ``R``) both use it. ``progress`` reports each solved
position, and :meth:`Reviewer.stop` (from any thread) cancels a running review.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from c4tui.engine.board.position import Position, square_name
from c4tui.engine.scores import result_words, win_score
from c4tui.gamefile.movetext import move_number
from c4tui.review.accuracy import game_accuracy, move_accuracy, win_percent

BLUNDER = "??"
MISTAKE = "?"
INACCURACY = "?!"
ONLY_MOVE = "!"
#: The marks, worst first, with their names (singular, plural): the one vocabulary.
MARKS = ((BLUNDER, "blunder", "blunders"), (MISTAKE, "mistake", "mistakes"),
         (INACCURACY, "inaccuracy", "inaccuracies"), (ONLY_MOVE, "only move", "only moves"))
#: A kept result made this many of the winner's moves slower is an inaccuracy (``?!``).
#: Winning lines that differ by a move or two are often the same threats in another order,
#: and a safe slower win is good play; 4 moves (8 plies, a fifth of a 7x6 game's moves per
#: side) is a detour a player notices. ``c4tui review --inaccuracy N`` sets another.
INACCURACY_MOVES = 4

Values = tuple["int | None", ...]  #: exact score per column for the side to move (None: full)
#: ``progress(done, total, ply, values)``: the position after ``ply`` moves is solved.
Progress = Callable[[int, int, int, Values], None]


class ReviewCancelled(Exception):
    """:meth:`Reviewer.stop` ended the review before it was done."""


class ColumnSolver(Protocol):
    """What the review needs of the solver (:class:`c4tui.engine.solver.solver.Solver`)."""

    def analyze(self, pos: Position): ...  # -> ColumnScores (.scores, .nodes)

    def stop(self) -> None: ...


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def judge(values: Values, column: int, ply: int,
          inaccuracy: int = INACCURACY_MOVES) -> tuple[str, tuple[int, ...]]:
    """The mark of playing ``column`` at ``ply`` where the columns score ``values`` (side
    to move's view), and for a mistake the better columns (those that keep the position's
    result, the fastest win or slowest loss first), for an inaccuracy those of the best
    score; ``("", ())`` for an unmarked move. ``inaccuracy``: the moves a kept result
    must be made slower by to be marked ``?!`` (a score is one move per point)."""
    scores = [v for v in values if v is not None]
    played = values[column]
    if played is None:
        raise ValueError(f"column {column + 1} is full")
    best = max(scores)
    if _sign(played) < _sign(best):
        kept = sorted(((v, c) for c, v in enumerate(values)
                       if v is not None and _sign(v) == _sign(best)), key=lambda vc: -vc[0])
        return (BLUNDER if best > 0 else MISTAKE), tuple(c for _, c in kept)
    if played < best and (best - played >= inaccuracy or best == win_score(ply)):
        return INACCURACY, tuple(c for c, v in enumerate(values) if v == best)
    # win_score(ply) is a four with this very disc: no slower win scores as much
    only = best > 0 and len(scores) >= 2 and sum(v > 0 for v in scores) == 1
    if only and played != win_score(ply):
        return ONLY_MOVE, ()
    return "", ()


@dataclass(frozen=True)
class MoveReview:
    """One move of the game: ``ply`` moves were played before it (0: the first move)."""

    ply: int
    column: int  #: 0-based
    values: Values  #: exact score of every column for the side that moved
    rows: tuple[int | None, ...]  #: the row a disc lands on in each column (None: full)
    mark: str  #: "" or one of :data:`MARKS`
    better: tuple[int, ...]  #: for a mistake: the columns that kept the result (see judge)

    @property
    def player(self) -> int:
        """0 White, 1 Black: the side that moved."""
        return self.ply % 2

    @property
    def number(self) -> str:
        """``12.`` for White's move, ``12...`` for Black's."""
        return move_number(self.ply)

    def square(self, column: int | None = None) -> str:
        """Where a disc in ``column`` (default: the played one) lands: ``d2``."""
        col = self.column if column is None else column
        row = self.rows[col]
        assert row is not None
        return square_name(col, row)

    @property
    def before(self) -> int:
        """The position's exact score for the mover (its best column)."""
        return max(v for v in self.values if v is not None)

    def after(self, column: int | None = None) -> int:
        """The exact score for the mover of ``column`` (default: the played one)."""
        v = self.values[self.column if column is None else column]
        assert v is not None
        return v

    @property
    def accuracy(self) -> float:
        """The move's accuracy, 0-100 (:func:`c4tui.review.accuracy.move_accuracy`)."""
        return move_accuracy(win_percent(self.before), win_percent(self.after()))

    def before_words(self) -> str:
        """The position's result with perfect play: ``White wins in 5``."""
        return result_words(self.before, self.ply)

    def after_words(self, column: int | None = None) -> str:
        """The result after ``column`` (default: the played one), counted from there."""
        return result_words(-self.after(column), self.ply + 1)

    def better_words(self, limit: int | None = None) -> str:
        """``c3 (White wins in 9), f1 (White wins in 11)``: the better moves' results."""
        cols = self.better if limit is None else self.better[:limit]
        text = ", ".join(f"{self.square(c)} ({self.after_words(c)})" for c in cols)
        return text + (", …" if len(cols) < len(self.better) else "")


@dataclass(frozen=True)
class GameReview:
    """The review of a game: every move, and the value of its first and last positions."""

    moves: tuple[int, ...]  #: 0-based columns
    plies: tuple[MoveReview, ...]
    start: int  #: the empty board's exact score (White to move): perfect play's result
    end: int | None  #: the final position's score for its side to move (None: game over)
    nodes: int
    seconds: float
    inaccuracy: int = INACCURACY_MOVES  #: the N of the ``?!`` marks

    def count(self, player: int, mark: str) -> int:
        """How many of ``player``'s moves got ``mark``."""
        return sum(1 for m in self.plies if m.player == player and m.mark == mark)

    def accuracy(self, player: int) -> float | None:
        """``player``'s game accuracy, 0-100 (None: no moves), from White's win
        percentage of every position (:func:`c4tui.review.accuracy.game_accuracy`)."""
        percents = [win_percent(self.plies[0].before)]
        for m in self.plies:
            mover = win_percent(m.after())
            percents.append(mover if m.player == 0 else 100.0 - mover)
        return game_accuracy(percents)[player]


def review_move(ply: int, column: int, values: Values, pos: Position,
                inaccuracy: int = INACCURACY_MOVES) -> MoveReview:
    """The review of playing ``column`` in ``pos`` (``ply`` discs) whose columns score
    ``values`` (``inaccuracy``: see :func:`judge`)."""
    mark, better = judge(values, column, ply, inaccuracy)
    rows = tuple(pos.height(c) if pos.can_play(c) else None for c in range(len(values)))
    return MoveReview(ply, column, values, rows, mark, better)


class Reviewer:
    """Reviews games with one solver, one at a time; :meth:`stop` from any thread.

    A stopped reviewer stays stopped (a stop never gets lost between two solves): make
    one per review that may be cancelled; the solver (and its table) can be shared.
    """

    def __init__(self, solver: ColumnSolver, inaccuracy: int = INACCURACY_MOVES) -> None:
        """``inaccuracy``: the moves a kept result made slower is marked ``?!`` at."""
        self.solver = solver
        self.inaccuracy = inaccuracy
        self._stopped = threading.Event()

    def stop(self) -> None:
        """Cancel the review, running or to come (it raises :class:`ReviewCancelled`)."""
        self._stopped.set()
        self.solver.stop()

    def review(self, moves: Sequence[int], progress: Progress | None = None) -> GameReview:
        """Solve every position of the game ``moves`` (0-based columns, from the empty
        board) and judge each move. Raises ``IllegalMoveError`` (naming the move) for a
        move that cannot be played, ``ValueError`` for a game without moves.

        The positions are solved from the last to the first: the later ones are cheap and
        leave in the solver's table what the earlier ones' searches meet again.
        """
        if not moves:
            raise ValueError("the game has no moves to review")
        positions = game_positions(moves)
        todo = [p.ply for p in positions if not p.is_over]
        values: dict[int, Values] = {}
        nodes = 0
        t0 = time.perf_counter()
        for done, ply in enumerate(reversed(todo), 1):
            if self._stopped.is_set():
                raise ReviewCancelled
            try:
                res = self.solver.analyze(positions[ply])
            except Exception:
                if self._stopped.is_set():  # the solver's own "stopped" error
                    raise ReviewCancelled from None
                raise
            values[ply] = tuple(res.scores)
            nodes += res.nodes
            if progress is not None:
                progress(done, len(todo), ply, values[ply])
        plies = tuple(review_move(ply, col, values[ply], positions[ply], self.inaccuracy)
                      for ply, col in enumerate(moves))
        last = positions[-1]
        end = None if last.is_over else _best(values[last.ply])
        return GameReview(tuple(moves), plies, _best(values[0]), end, nodes,
                          time.perf_counter() - t0, self.inaccuracy)


def _best(values: Values) -> int:
    return max(v for v in values if v is not None)


def game_positions(moves: Sequence[int]) -> list[Position]:
    """The positions of the game: before each move, and after the last one. Raises
    ``IllegalMoveError`` naming the first move that cannot be played."""
    Position.from_moves([c + 1 for c in moves])  # validates, naming the move
    out = [Position()]
    for col in moves:
        nxt = out[-1].copy()
        nxt.play(col)
        out.append(nxt)
    return out
