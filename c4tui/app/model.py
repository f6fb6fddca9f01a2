"""The game being analysed: a line of moves, the ply being viewed, and undo/redo of edits.

Navigation (back, forward, start, end, jump) only moves the viewed ply along the line.
Playing a move at the viewed ply either follows the line (the same move as the next one) or
replaces everything after it (truncation). Every change of the line itself (a new move,
a truncation, loading a game) is an *edit* that undo/redo walk through.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from c4tui.engine.position import IllegalMoveError, Position


@dataclass
class GameModel:
    """A line of 0-based columns and the number of its moves currently on the board."""

    line: list[int] = field(default_factory=list)
    ply: int = 0
    _undo: list[tuple[list[int], int]] = field(default_factory=list, repr=False)
    _redo: list[tuple[list[int], int]] = field(default_factory=list, repr=False)

    @classmethod
    def from_position(cls, pos: Position) -> GameModel:
        """A model whose line is ``pos``'s history, viewed at its end."""
        return cls(list(pos.history), pos.ply)

    # ------------------------------------------------------------------ positions
    def position(self) -> Position:
        """The position at the viewed ply (a fresh object)."""
        return Position.from_moves([c + 1 for c in self.line[: self.ply]])

    def full_position(self) -> Position:
        """The position at the end of the line."""
        return Position.from_moves([c + 1 for c in self.line])

    @property
    def at_end(self) -> bool:
        return self.ply == len(self.line)

    # ------------------------------------------------------------------- editing
    def _record(self) -> None:
        self._undo.append((list(self.line), self.ply))
        self._redo.clear()

    def play(self, col: int) -> None:
        """Play 0-based ``col`` at the viewed ply; raises IllegalMoveError if it can't be."""
        pos = self.position()
        pos.play(col)  # validates: full column, game over
        if self.ply < len(self.line) and self.line[self.ply] == col:
            self.ply += 1  # following the existing line is navigation, not an edit
            return
        self._record()
        del self.line[self.ply :]
        self.line.append(col)
        self.ply += 1

    def load(self, pos: Position) -> None:
        """Replace the line with ``pos``'s history (undoable)."""
        self._record()
        self.line = list(pos.history)
        self.ply = len(self.line)

    def undo(self) -> bool:
        """Revert the last edit; False if there is none."""
        if not self._undo:
            return False
        self._redo.append((list(self.line), self.ply))
        self.line, self.ply = self._undo.pop()
        return True

    def redo(self) -> bool:
        """Re-apply the last undone edit; False if there is none."""
        if not self._redo:
            return False
        self._undo.append((list(self.line), self.ply))
        self.line, self.ply = self._redo.pop()
        return True

    def take_back(self) -> None:
        """Remove the last move of the line (undoable); raises if the line is empty."""
        if not self.line:
            raise IllegalMoveError("take back: no move to take back")
        self._record()
        self.line.pop()
        self.ply = min(self.ply, len(self.line))

    # ---------------------------------------------------------------- navigation
    def goto(self, ply: int) -> None:
        """View ply ``ply`` (clamped to the line)."""
        self.ply = max(0, min(len(self.line), ply))

    def back(self, n: int = 1) -> None:
        self.goto(self.ply - n)

    def forward(self, n: int = 1) -> None:
        self.goto(self.ply + n)
