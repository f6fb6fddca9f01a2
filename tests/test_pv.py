"""Perfect-play lines (engine/pv.py): legal, score-keeping, ending as the scores say.

The column scores come from tests/data (BitBully, an independent solver), so a line's end
(who wins, with which own disc) is checked against another program; each move is also
checked to keep the score of the position it is played in, by our own solver.
"""

from __future__ import annotations

import threading
import time

import pytest
from c4tui.book import load_default
from c4tui.engine.board.geometry import SIZE
from c4tui.engine.board.position import Position
from c4tui.engine.pv import perfect_line, perfect_moves
from c4tui.engine.scores import win_score
from c4tui.engine.seam import SearchAborted
from c4tui.engine.solver.solver import Solver
from testdata import load_positions, sample

POSITIONS = load_positions()
# without the books these need little search; a few shallower ones use the books below
DEEP = sample([r for r in POSITIONS if len(r[0]) >= 18], 24, 7)
OPENING = sample([r for r in POSITIONS if 8 <= len(r[0]) <= 11], 2, 8)


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(hash_mb=16, book=None)


def check_line(pos: Position, col: int, score: int, line: tuple[int, ...],
               solver: Solver) -> None:
    """``(col,) + line`` from ``pos`` is legal, keeps the exact score at every move and
    ends as ``score`` (column ``col``'s independent score for ``pos``'s side) says."""
    p = pos.copy()
    mover = p.to_move
    s = score  # the score of p for the side to move
    for i, move in enumerate((col, *line)):
        assert not p.is_over, f"move {i} after the game's end"
        assert p.can_play(move), f"move {i}: column {move} is full"
        if i > 0:  # the first move is the column itself; its score is the data's
            assert solver.solve(p).score == s, f"ply {p.ply}: the solver disagrees"
        child = p.copy()
        child.play(move)
        if child.is_over:
            assert s == (win_score(p.ply) if child.winner is not None else 0), \
                f"move {i} ends the game but does not keep the score {s}"
        else:
            assert -solver.solve(child).score == s, f"move {i} ({move}) loses the score"
        p, s = child, -s
    assert p.is_over, "the line stops before the game's end"
    if score == 0:
        assert p.winner is None and p.ply == SIZE
    else:
        winner = mover if score > 0 else 1 - mover
        assert p.winner == winner
        own_discs = (p.ply + 1) // 2 if winner == 0 else p.ply // 2
        assert own_discs == 22 - abs(score)  # the fastest win, the slowest loss


@pytest.mark.parametrize("moves,score,cols", DEEP, ids=lambda v: str(v)[:40])
def test_lines_keep_the_exact_score(solver: Solver, moves, score, cols) -> None:
    pos = Position.from_moves(moves)
    for col, s in enumerate(cols):
        if s is None:
            continue
        child = pos.copy()
        child.play(col)
        check_line(pos, col, s, perfect_line(child, solver), solver)


@pytest.mark.parametrize("moves,score,cols", OPENING, ids=lambda v: str(v)[:40])
def test_lines_from_the_books(moves, score, cols) -> None:
    """Shallow positions: the line starts in the books (scores, no moves: the solver
    finds moves that keep them) and leaves them."""
    book = load_default()
    if book is None:
        pytest.skip("no opening book")
    solver = Solver(hash_mb=64, book=book)
    pos = Position.from_moves(moves)
    col = max((c for c, s in enumerate(cols) if s is not None), key=lambda c: cols[c])
    child = pos.copy()
    child.play(col)
    check_line(pos, col, cols[col], perfect_line(child, solver), Solver(hash_mb=64,
                                                                          book=book))


def test_line_ends_and_limits(solver: Solver) -> None:
    won = Position.from_moves("4455667")
    assert perfect_line(won, solver) == ()
    pos = Position.from_moves(DEEP[0][0])
    full = perfect_line(pos, solver)
    assert perfect_line(pos, solver, max_plies=3) == full[:3]
    assert perfect_line(pos, solver, max_plies=0) == ()


def test_stop_ends_a_line() -> None:
    """``solver.stop()`` from another thread ends a long line's solve at once."""
    solver = Solver(hash_mb=16, book=None)
    gen = perfect_moves(Position.from_moves("4453"), solver)  # minutes without books
    timer = threading.Timer(0.3, solver.stop)
    timer.start()
    t0 = time.monotonic()
    with pytest.raises(SearchAborted):
        next(gen)
    assert time.monotonic() - t0 < 5
