"""The game tree: moves with their variations and comments (no files, no UI).

A :class:`Node` is one move (its 0-based column), the comment after it, and the moves that
may follow it: ``children[0]`` continues the line, the others are its variations. The
root is the start of the game (no move; its comment is the game's opening remark).

Nodes are immutable, so an edit returns a new tree that shares the untouched branches:
keeping the old root is all an undo needs. A node is named by its *path*, the child
indices from the root (``()`` is the root, ``(0, 0)`` the main line's second move, ``(0,
1)`` the first variation of it). The tree does not check that the moves are legal: the
game file parser and the app's model play them on a :class:`Position` first.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import NamedTuple

from c4tui.engine.board.geometry import WIDTH
from c4tui.engine.board.position import square_name

Path = tuple[int, ...]


@dataclass(frozen=True)
class Node:
    """A move (``col`` 0-based; -1 at the root), the comment after it, what follows."""

    col: int = -1
    comment: str = ""
    children: tuple[Node, ...] = ()

    @classmethod
    def from_moves(cls, cols: list[int] | tuple[int, ...]) -> Node:
        """A tree with one line: the root followed by ``cols``."""
        children: tuple[Node, ...] = ()
        for col in reversed(cols):
            children = (cls(col, children=children),)
        return cls(children=children)

    # ------------------------------------------------------------------ reading
    def at(self, path: Path) -> Node:
        """The node at ``path`` (IndexError if there is none)."""
        node = self
        for i in path:
            node = node.children[i]
        return node

    def cols(self, path: Path) -> list[int]:
        """The columns played from the root to the node at ``path``."""
        out, node = [], self
        for i in path:
            node = node.children[i]
            out.append(node.col)
        return out

    def main_path(self, path: Path = ()) -> Path:
        """``path`` continued by first children to the end of its line."""
        node, out = self.at(path), list(path)
        while node.children:
            node = node.children[0]
            out.append(0)
        return tuple(out)

    def has_line(self, cols: tuple[int, ...] | list[int]) -> bool:
        """Whether the moves ``cols`` are a line of the tree (from this node)."""
        node = self
        for col in cols:
            i = node.child_index(col)
            if i is None:
                return False
            node = node.children[i]
        return True

    def size(self) -> int:
        """The number of moves in this subtree (the node itself included, the root not)."""
        return (self.col >= 0) + sum(c.size() for c in self.children)

    def has_variations(self) -> bool:
        """Whether any move of the tree has an alternative."""
        return len(self.children) > 1 or any(c.has_variations() for c in self.children)

    def has_comments(self) -> bool:
        """Whether any node of the tree carries a comment."""
        return bool(self.comment) or any(c.has_comments() for c in self.children)

    # ------------------------------------------------------------------ editing
    def child_index(self, col: int) -> int | None:
        """The index of the child playing ``col``, or None."""
        for i, c in enumerate(self.children):
            if c.col == col:
                return i
        return None

    def add(self, path: Path, col: int) -> tuple[Node, Path]:
        """The tree with move ``col`` after the node at ``path`` (a new last child; the
        existing child if ``col`` is one already) and the path of that move."""
        parent = self.at(path)
        i = parent.child_index(col)
        if i is not None:
            return self, (*path, i)
        grown = replace(parent, children=(*parent.children, Node(col)))
        return self._put(path, grown), (*path, len(parent.children))

    def remove(self, path: Path) -> Node:
        """The tree without the node at ``path`` and everything after it."""
        if not path:
            raise ValueError("the root cannot be removed")
        parent = self.at(path[:-1])
        kids = parent.children[: path[-1]] + parent.children[path[-1] + 1:]
        return self._put(path[:-1], replace(parent, children=kids))

    def promote(self, path: Path) -> Node:
        """The tree in which the node at ``path`` is on the main line: at every level of
        its path its branch becomes the first child, the others keep their order."""
        if not path:
            return self
        i = path[0]
        kids = list(self.children)
        first = kids.pop(i).promote(path[1:])
        return replace(self, children=(first, *kids))

    def with_comment(self, path: Path, comment: str) -> Node:
        """The tree with the node at ``path`` commented ``comment`` ("" removes it)."""
        return self._put(path, replace(self.at(path), comment=comment))

    def _put(self, path: Path, node: Node) -> Node:
        """The tree with the node at ``path`` replaced by ``node``."""
        if not path:
            return node
        kids = list(self.children)
        kids[path[0]] = kids[path[0]]._put(path[1:], node)
        return replace(self, children=tuple(kids))


def promoted_path(path: Path) -> Path:
    """Where the node at ``path`` is after :meth:`Node.promote` of it: the main line."""
    return (0,) * len(path)


def clean_comment(text: str) -> str:
    """A comment as it is kept: its words separated by single spaces (a comment is one
    paragraph of text: line breaks, tabs and control characters become spaces). Raises
    ValueError for ``}``, which would end it in a game file."""
    if "}" in text:
        raise ValueError("a comment cannot contain '}' (it ends the comment in a game file)")
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())


# ---------------------------------------------------------------------- reading order
class Item(NamedTuple):
    """One step of :func:`walk`: ``kind`` is ``move``, ``comment``, ``(`` or ``)``."""

    kind: str
    path: Path
    node: Node
    ply: int  # the moves before this node's move (0 for the root)
    square: str  # ``move``: the square played (``d1``); else ""


def walk(root: Node) -> Iterator[Item]:
    """The tree in PGN order: each move, its comment, then its alternatives each in
    ``(`` ... ``)``, then the line goes on. The root's comment comes first."""
    if root.comment:
        yield Item("comment", (), root, 0, "")
    yield from _line(root, (), 0, [0] * WIDTH)


def _line(parent: Node, path: Path, ply: int, heights: list[int]) -> Iterator[Item]:
    """The line after ``parent`` (``heights``: the discs per column there; updated)."""
    while parent.children:
        main = parent.children[0]
        for i, var in enumerate(parent.children):
            vpath = (*path, i)
            if i == 0:
                yield from _move(var, vpath, ply, heights)
                continue
            yield Item("(", vpath, var, ply, "")
            yield from _move(var, vpath, ply, heights)
            rest = list(heights)
            rest[var.col] += 1
            yield from _line(var, vpath, ply + 1, rest)
            yield Item(")", vpath, var, ply, "")
        heights[main.col] += 1
        parent, path, ply = main, (*path, 0), ply + 1


def _move(node: Node, path: Path, ply: int, heights: list[int]) -> Iterator[Item]:
    """The move (``heights``: the discs per column before it) and its comment."""
    yield Item("move", path, node, ply, square_name(node.col, heights[node.col]))
    if node.comment:
        yield Item("comment", path, node, ply, "")
