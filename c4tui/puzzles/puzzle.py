"""A puzzle: a position where exactly one move keeps the win (or the draw)."""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine.board.position import Position

WIN, DRAW = "win", "draw"  #: what the keeping move keeps
RESULTS = (WIN, DRAW)


def canonical_key(pos: Position) -> int:
    """The key shared by a position and its mirror image (the books' key): two puzzles
    with one canonical key are the same puzzle, whatever the move order."""
    return min(pos.key(), pos.mirror().key())


@dataclass(frozen=True)
class Puzzle:
    """One puzzle; ``moves`` are 1-based digits (``4453``), ``keep`` the 0-based column
    that keeps the ``result``; the rest says how hard it is (see :mod:`.difficulty`)."""

    moves: str
    keep: int  #: 0-based column of the one keeping move
    result: str  #: WIN or DRAW: what that move keeps
    length: int  #: the win's length in the mover's moves (0 for a draw)
    decoys: int  #: other moves a shallow search rates at least as high as the keeping one
    nodes: int  #: the exact solver's nodes for the position's column scores
    difficulty: int  #: 1 (easy) to 10, from the three above
    theme: str  #: see :mod:`.themes`

    def position(self) -> Position:
        """The puzzle's position (a new object)."""
        return Position.from_moves(self.moves)

    @property
    def key(self) -> int:
        """The canonical key (mirror images and transpositions share it)."""
        return canonical_key(self.position())

    @property
    def side(self) -> int:
        """0 White, 1 Black: who is to move (and find the move)."""
        return len(self.moves) % 2
