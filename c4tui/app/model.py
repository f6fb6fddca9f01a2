"""The game being analysed: a line of moves, the ply being viewed, its headers, undo/redo.

Navigation (back, forward, start, end, jump) only moves the viewed ply along the line.
Playing a move at the viewed ply either follows the line (the same move as the next one) or
replaces everything after it (truncation). Every change of the line itself (a new move, a
truncation, a take-back, loading or entering a game) is an *edit* that undo/redo walk
through, headers included: a game entered after a loaded one starts without the loaded
game's headers, and undoing brings them back.

The model keeps the viewed :class:`Position` live (a move plays or undoes one disc), so
reading it, which the UI does several times a second, costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine.position import IllegalMoveError, Position


@dataclass(frozen=True)
class _Edit:
    """What undo restores: the line, the viewed ply and the headers."""

    line: tuple[int, ...]
    ply: int
    headers: tuple[tuple[str, str], ...]


class GameModel:
    """A line of 0-based columns, the number of its moves on the board, and headers."""

    def __init__(self, pos: Position | None = None,
                 headers: dict[str, str] | None = None) -> None:
        pos = pos or Position()
        self.line: list[int] = list(pos.history)
        self.headers: dict[str, str] = dict(headers or {})
        self._pos = pos.copy()  # the position at self.ply
        self._undo: list[_Edit] = []
        self._redo: list[_Edit] = []

    # ------------------------------------------------------------------ positions
    @property
    def ply(self) -> int:
        """The number of moves of the line on the board."""
        return self._pos.ply

    @property
    def position(self) -> Position:
        """The position at the viewed ply (live: copy it to keep it)."""
        return self._pos

    def full_position(self) -> Position:
        """The position at the end of the line (a fresh object)."""
        pos = self._pos.copy()
        for col in self.line[pos.ply:]:
            pos.play(col)
        return pos

    # ------------------------------------------------------------------- editing
    def _snapshot(self) -> _Edit:
        return _Edit(tuple(self.line), self.ply, tuple(self.headers.items()))

    def _record(self) -> None:
        self._undo.append(self._snapshot())
        self._redo.clear()

    def _restore(self, edit: _Edit) -> None:
        self.line = list(edit.line)
        self.headers = dict(edit.headers)
        self._pos = Position()
        for col in self.line[: edit.ply]:
            self._pos.play(col)

    def play(self, col: int) -> None:
        """Play 0-based ``col`` at the viewed ply; raises IllegalMoveError if it can't be."""
        ply = self.ply
        following = ply < len(self.line) and self.line[ply] == col
        if not following:
            self._pos.copy().play(col)  # validates (full column, game over) before recording
            self._record()
            del self.line[ply:]
            self.line.append(col)
        self._pos.play(col)  # following the existing line is navigation, not an edit

    def load(self, pos: Position, headers: dict[str, str] | None = None) -> None:
        """Replace the game with ``pos``'s history and ``headers`` (undoable; None: a new
        game without headers)."""
        self._record()
        self.line = list(pos.history)
        self.headers = dict(headers or {})
        self._pos = pos.copy()

    def undo(self) -> bool:
        """Revert the last edit; False if there is none."""
        if not self._undo:
            return False
        self._redo.append(self._snapshot())
        self._restore(self._undo.pop())
        return True

    def redo(self) -> bool:
        """Re-apply the last undone edit; False if there is none."""
        if not self._redo:
            return False
        self._undo.append(self._snapshot())
        self._restore(self._redo.pop())
        return True

    def take_back(self) -> None:
        """Remove the last move of the line (undoable); raises if the line is empty."""
        if not self.line:
            raise IllegalMoveError("take back: no move to take back")
        self._record()
        self.line.pop()
        if self.ply > len(self.line):
            self._pos.undo()

    # ---------------------------------------------------------------- navigation
    def goto(self, ply: int) -> None:
        """View ply ``ply`` (clamped to the line): undoes or replays the moves between."""
        ply = max(0, min(len(self.line), ply))
        while self.ply > ply:
            self._pos.undo()
        while self.ply < ply:
            self._pos.play(self.line[self.ply])
