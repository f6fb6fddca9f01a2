"""The game being analysed: a tree of moves (variations, comments), the line being walked,
the viewed ply, the headers, undo/redo.

The tree is a :class:`~c4tui.gamefile.tree.Node` (immutable: an edit makes a new root).
The *current line* runs from the start to the end of one branch: the main line, or the
variation the user went into, with its trunk. Navigation (back, forward, start, end, jump)
moves the viewed ply along it; :meth:`GameModel.goto_path` (a click on any move) and
:meth:`GameModel.switch` (a sibling variation) choose another line.

Playing a move at the viewed ply follows the tree if that move is there (navigation) and
otherwise adds it: at the end of a line it extends the line, elsewhere it opens a variation.
Every change of the tree (a new move, a take-back, a promotion, a deletion, a comment,
loading or entering a game) is an *edit* that undo/redo walk through, headers included.

The model keeps the viewed :class:`Position` live (a move plays or undoes one disc), so
reading it, which the UI does several times a second, costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine.board.position import IllegalMoveError, Position
from c4tui.gamefile.tree import Node, Path, clean_comment, promoted_path


@dataclass(frozen=True)
class _Edit:
    """What undo restores: the tree, the current line, the viewed ply and the headers."""

    root: Node
    line_path: Path
    ply: int
    headers: tuple[tuple[str, str], ...]


class GameModel:
    """A game tree, the current line through it, the viewed ply, and headers."""

    def __init__(self, pos: Position | None = None, headers: dict[str, str] | None = None,
                 tree: Node | None = None) -> None:
        """The game ``tree`` viewed at the end of its main line, or (without a tree) the
        moves of ``pos`` viewed at ``pos``."""
        self.headers: dict[str, str] = dict(headers or {})
        self._undo: list[_Edit] = []
        self._redo: list[_Edit] = []
        self._set_tree(tree if tree is not None else Node.from_moves((pos or Position()).history))

    # ------------------------------------------------------------------ reading
    @property
    def root(self) -> Node:
        """The game tree (immutable)."""
        return self._root

    @property
    def line_path(self) -> Path:
        """The path of the current line's last move (its child indices from the root)."""
        return self._line_path

    @property
    def line(self) -> list[int]:
        """The current line's columns (a new list)."""
        return list(self._line)

    @property
    def ply(self) -> int:
        """The number of moves of the current line on the board."""
        return self._pos.ply

    @property
    def path(self) -> Path:
        """The path of the viewed move (``()``: the start)."""
        return self._line_path[: self.ply]

    @property
    def node(self) -> Node:
        """The viewed node (the root at the start)."""
        return self._root.at(self.path)

    @property
    def position(self) -> Position:
        """The position at the viewed ply (live: copy it to keep it)."""
        return self._pos

    def edit_mark(self) -> tuple[int, object]:
        """A mark of the undo history as it is now (see :meth:`has_edit`)."""
        return len(self._undo), self._undo[-1] if self._undo else None

    def has_edit(self, mark: tuple[int, object]) -> bool:
        """The edits up to ``mark`` (from :meth:`edit_mark`) are still in the undo
        history: none of them has been undone (or replaced by other edits since)."""
        depth, entry = mark
        return len(self._undo) >= depth and (depth == 0 or self._undo[depth - 1] is entry)

    def full_position(self) -> Position:
        """The position at the end of the current line (a fresh object)."""
        pos = self._pos.copy()
        for col in self._line[pos.ply:]:
            pos.play(col)
        return pos

    # ------------------------------------------------------------------ state
    def _set_tree(self, root: Node, line_path: Path | None = None, ply: int | None = None
                  ) -> None:
        """Replace the tree; view ``ply`` of the line ending at ``line_path`` (default: the
        main line, at its end)."""
        self._root = root
        self._line_path = root.main_path(line_path or ())
        self._line = tuple(root.cols(self._line_path))
        self._pos = Position()
        for col in self._line[: len(self._line) if ply is None else ply]:
            self._pos.play(col)

    def _set_line(self, line_path: Path, ply: int) -> None:
        """Walk the line through ``line_path`` (continued to its end) and view ``ply`` of it:
        only the moves after the common start are undone and replayed."""
        old = self._line
        self._line_path = self._root.main_path(line_path)
        self._line = tuple(self._root.cols(self._line_path))
        same = 0
        while same < min(len(old), len(self._line)) and old[same] == self._line[same]:
            same += 1
        while self._pos.ply > min(same, ply):
            self._pos.undo()
        while self._pos.ply < ply:
            self._pos.play(self._line[self._pos.ply])

    # ------------------------------------------------------------------- editing
    def _snapshot(self) -> _Edit:
        return _Edit(self._root, self._line_path, self.ply, tuple(self.headers.items()))

    def _record(self) -> None:
        self._undo.append(self._snapshot())
        self._redo.clear()

    def _restore(self, edit: _Edit) -> None:
        self.headers = dict(edit.headers)
        self._set_tree(edit.root, edit.line_path, edit.ply)

    def play(self, col: int) -> None:
        """Play 0-based ``col`` at the viewed ply; raises IllegalMoveError if it can't be.

        The move already in the tree there is followed (navigation); a new one is added
        (an edit): the line's next move if there was none, else a new variation."""
        path, ply = self.path, self.ply
        i = self.node.child_index(col)
        if i is None:
            self._pos.copy().play(col)  # validates (full column, game over) before recording
            self._record()
            self._root, new = self._root.add(path, col)
            self._set_line(new, ply + 1)
        elif self._line_path[ply: ply + 1] == (i,):
            self._pos.play(col)  # the current line's next move
        else:
            self._set_line((*path, i), ply + 1)

    def load(self, tree: Node, headers: dict[str, str] | None = None) -> None:
        """Replace the game with ``tree`` (its moves legal) and ``headers``, viewed at the
        end of its main line (undoable; None: a new game without headers)."""
        self._record()
        self.headers = dict(headers or {})
        self._set_tree(tree)

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
        """Remove the last move of the current line (undoable); raises if it is empty.
        The line then goes on from the move before, along the tree."""
        if not self._line:
            raise IllegalMoveError("take back: no move to take back")
        self._record()
        last = self._line_path
        self._root = self._root.remove(last)
        self._set_line(last[:-1], min(self.ply, len(last) - 1))

    def cut(self, ply: int) -> None:
        """Remove the current line's moves after ``ply`` (the next one with everything
        after it, its variations included) and view ``ply`` (undoable, one edit); raises
        IllegalMoveError if the line has no move there."""
        if not 0 <= ply < len(self._line):
            raise IllegalMoveError(f"take back: no move {ply + 1} to take back")
        self._record()
        gone = self._line_path[: ply + 1]
        self._root = self._root.remove(gone)
        self._set_line(gone[:-1], min(self.ply, ply))

    def promote(self) -> None:
        """Make the viewed move's line the main line (undoable); raises ValueError if it is
        on the main line already."""
        path = self.path
        if not any(path):
            raise ValueError("promote: the viewed move is on the main line already "
                             "(go to a move of a variation)")
        self._record()
        self._root = self._root.promote(path)
        self._line_path = promoted_path(path) + self._line_path[len(path):]

    def delete(self) -> tuple[Path, Node]:
        """Delete the variation the viewed move is in (from its first move, with all the
        moves after it; on the main line: the viewed move and everything after it) and
        view the move before it (undoable). Returns the deleted node's path and node;
        raises ValueError at the start."""
        path = self.path
        if not path:
            raise ValueError("delete: no move viewed (go to a move first)")
        start = max((k for k, i in enumerate(path) if i), default=len(path) - 1)
        gone = path[: start + 1]
        deleted = self._root.at(gone)
        self._record()
        self._root = self._root.remove(gone)
        self._set_line(gone[:-1], start)
        return gone, deleted

    def comment(self, text: str) -> None:
        """Comment the viewed move (the start: the game) with ``text``; "" removes the
        comment (undoable). Raises ValueError for text a game file cannot keep."""
        text = clean_comment(text)
        if text == self.node.comment:
            return
        self._record()
        self._root = self._root.with_comment(self.path, text)

    def set_headers(self, headers: dict[str, str]) -> bool:
        """Replace the headers (undoable); False: they were these already."""
        if headers == self.headers and list(headers) == list(self.headers):
            return False
        self._record()
        self.headers = dict(headers)
        return True

    # ---------------------------------------------------------------- navigation
    def goto(self, ply: int) -> None:
        """View ply ``ply`` (clamped to the current line)."""
        self._set_line(self._line_path, max(0, min(len(self._line), ply)))

    def goto_path(self, path: Path) -> None:
        """View the node at ``path``: along the current line if it is on it, else on the
        line through it (continued by its main line). IndexError if there is no such node."""
        self._root.at(path)
        if self._line_path[: len(path)] == path:
            self.goto(len(path))
        else:
            self._set_line(path, len(path))

    def switch(self, step: int) -> Path:
        """View the viewed move's ``step``-th next sibling (-1: previous; around the end),
        continued by its main line. Returns the new path; ValueError if it has none."""
        path = self.path
        if not path:
            raise ValueError("variation: no move viewed (go to a move first)")
        siblings = len(self._root.at(path[:-1]).children)
        if siblings < 2:
            raise ValueError(f"variation: move {len(path)} has no alternative "
                             "(play another move there to make one)")
        new = (*path[:-1], (path[-1] + step) % siblings)
        self._set_line(new, len(new))
        return new
