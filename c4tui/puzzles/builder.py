"""Building a puzzle set: the positions of games (files or seeded self-play), each
solved column by column and examined (:mod:`.finder`), duplicates and mirror images
dropped by their canonical key. Bounded by the games given and ``limit`` puzzles;
``stop()`` from another thread (or a KeyboardInterrupt) ends it with what was found.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from c4tui.engine.board.position import Position

from .difficulty import ShallowJudge
from .finder import examine, worth_asking
from .puzzle import Puzzle, canonical_key
from .selfplay import game_positions


class ColumnSolver(Protocol):
    """What the builder needs of :class:`c4tui.engine.solver.solver.Solver`."""

    def analyze(self, pos: Position): ...  # -> ColumnScores (.scores, .nodes)


#: ``progress(games_done, games_total, puzzles_found)`` after each game.
Progress = Callable[[int, int, int], None]


@dataclass
class Found:
    """The puzzles found so far, in the order found, and what was looked at."""

    puzzles: list[Puzzle] = field(default_factory=list)
    keys: set[int] = field(default_factory=set)  #: the puzzles' canonical keys
    seen: set[int] = field(default_factory=set)  #: every examined position's
    positions: int = 0
    duplicates: int = 0  #: puzzles met again (a transposition or a mirror image)


class Builder:
    """Finds puzzles with one solver and one shallow search."""

    def __init__(self, solver: ColumnSolver, judge: ShallowJudge | None = None) -> None:
        self.solver = solver
        self.judge = judge or ShallowJudge()
        self.found = Found()
        self._stopped = threading.Event()

    def stop(self) -> None:
        """End the build after the position being examined."""
        self._stopped.set()

    def _analyze(self, pos: Position) -> tuple[Sequence[int | None], int]:
        res = self.solver.analyze(pos)
        return tuple(res.scores), res.nodes

    def _look(self, pos: Position, values: Sequence[int | None], nodes: int,
              limit: int) -> bool:
        """Examine one position; False once the build should end."""
        found = self.found
        found.positions += 1
        key = canonical_key(pos)
        if key in found.keys:
            found.duplicates += 1
        elif key not in found.seen:
            found.seen.add(key)
            puzzle = examine(pos, values, nodes, self.judge)
            if puzzle is not None:
                found.keys.add(key)
                found.puzzles.append(puzzle)
        return len(self.found.puzzles) < limit and not self._stopped.is_set()

    def from_selfplay(self, games: int, seed: int, limit: int,
                      progress: Progress | None = None) -> Found:
        """Self-play ``games`` games (game i seeded with ``seed * 1_000_003 + i``)."""
        for i in range(games):
            for pos, values, nodes in game_positions(seed * 1_000_003 + i, self._analyze):
                if not self._look(pos, values, nodes, limit):
                    return self.found
            if progress is not None:
                progress(i + 1, games, len(self.found.puzzles))
        return self.found

    def from_games(self, games: Sequence[Sequence[int]], limit: int,
                   progress: Progress | None = None) -> Found:
        """The positions of ``games`` (0-based columns from the empty board)."""
        for i, moves in enumerate(games):
            for pos in _positions(moves):
                if not worth_asking(pos):
                    continue
                values, nodes = self._analyze(pos)
                if not self._look(pos, values, nodes, limit):
                    return self.found
            if progress is not None:
                progress(i + 1, len(games), len(self.found.puzzles))
        return self.found

    def close(self) -> None:
        self.judge.close()


def _positions(moves: Iterable[int]) -> Iterator[Position]:
    pos = Position()
    yield pos.copy()
    for col in moves:
        pos.play(col)
        yield pos.copy()
