"""Is a position a puzzle? Exactly one move keeps its exact result, certified by the
solver's score of every column (:meth:`c4tui.engine.solver.solver.Solver.analyze`).

A position is left out when the answer is forced or obvious: the game is over, the side
to move wins at once, the opponent threatens to win at once (the block is forced), or
fewer than two moves are *safe* (a move is unsafe when the opponent then wins at once).
A lost position keeps nothing; a won one is a puzzle when exactly one column wins, a
drawn one when exactly one column draws (every other loses).
"""

from __future__ import annotations

from collections.abc import Sequence

from c4tui.engine.board.position import Position
from c4tui.engine.scores import moves_to_end

from .difficulty import ShallowJudge, rating
from .puzzle import DRAW, WIN, Puzzle
from .themes import theme_of

Values = Sequence["int | None"]  #: exact score per column for the side to move (None: full)


def safe_moves(pos: Position) -> list[int]:
    """The moves after which the opponent cannot win at once."""
    out = []
    for col in pos.legal_moves():
        child = pos.copy()
        child.play(col)
        if not child.can_win_next():
            out.append(col)
    return out


def worth_asking(pos: Position) -> bool:
    """Neither over, nor a win at once, nor a forced block, and two safe moves or more: a
    position worth solving for a puzzle."""
    if pos.is_over or pos.can_win_next():
        return False
    opponent = 1 - pos.to_move
    if pos.threats(opponent) & pos.possible_squares():
        return False
    return len(safe_moves(pos)) >= 2


def keeping_move(values: Values) -> tuple[int, str] | None:
    """(the one column that keeps the result, WIN or DRAW), or None when the position is
    lost or more than one column keeps it."""
    scores = [v for v in values if v is not None]
    if not scores or max(scores) < 0:
        return None
    best = max(scores)
    keep = [c for c, v in enumerate(values) if v is not None and (v > 0 if best > 0 else v == 0)]
    if len(keep) != 1:
        return None
    return keep[0], WIN if best > 0 else DRAW


def examine(pos: Position, values: Values, nodes: int, judge: ShallowJudge) -> Puzzle | None:
    """The puzzle ``pos`` is, given its exact column ``values`` (found with ``nodes``
    nodes), or None."""
    if not worth_asking(pos):
        return None
    found = keeping_move(values)
    if found is None:
        return None
    keep, result = found
    score = values[keep]
    assert score is not None
    length = moves_to_end(score, pos.ply) if result == WIN else 0
    decoys = judge.decoys(pos, keep)
    return Puzzle(pos.digits(), keep, result, length, decoys, nodes,
                  rating(length, decoys, nodes, result == DRAW), theme_of(pos, keep, result))
