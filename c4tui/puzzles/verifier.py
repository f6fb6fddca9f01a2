"""Re-solving puzzles: each must still have exactly one keeping move, the one it names,
keeping the result it names."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from c4tui.engine.board.position import MOVE_CHARS

from .builder import ColumnSolver
from .finder import keeping_move
from .puzzle import Puzzle


def problem(puzzle: Puzzle, solver: ColumnSolver) -> str | None:
    """What is wrong with ``puzzle`` by the solver's exact column scores, or None."""
    values = tuple(solver.analyze(puzzle.position()).scores)
    found = keeping_move(values)
    shown = " ".join("-" if v is None else str(v) for v in values)
    if found is None:
        best = max(v for v in values if v is not None)
        if best < 0:
            return f"lost: no move keeps a win or a draw (scores {shown})"
        keepers = sum(1 for v in values if v is not None and (v > 0 if best > 0 else v == 0))
        return (f"{keepers} moves keep the {'win' if best > 0 else 'draw'}, not one "
                f"(scores {shown})")
    keep, result = found
    if keep != puzzle.keep or result != puzzle.result:
        return (f"the keeping move is {MOVE_CHARS[keep]} ({result}), not "
                f"{MOVE_CHARS[puzzle.keep]} ({puzzle.result}); scores {shown}")
    return None


def problems(puzzles: Iterable[Puzzle], solver: ColumnSolver,
             progress: Callable[[int], None] | None = None) -> Iterator[tuple[Puzzle, str]]:
    """Each puzzle that does not verify, with why; ``progress(done)`` after each."""
    for i, p in enumerate(puzzles, 1):
        why = problem(p, solver)
        if why is not None:
            yield p, why
        if progress is not None:
            progress(i)
