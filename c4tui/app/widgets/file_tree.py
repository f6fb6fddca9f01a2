"""The file picker's directory tree: folders and game files, other files dim."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rich.style import Style
from rich.text import Text
from textual import events
from textual.widgets import DirectoryTree, Tree
from textual.widgets.directory_tree import DirEntry
from textual.widgets.tree import TreeNode

from c4tui.bounded import shown
from c4tui.gamefile import GAME_SUFFIXES


def is_game_file(path: Path) -> bool:
    """A file the picker offers as a game (by its suffix)."""
    return path.suffix.lower() in GAME_SUFFIXES


class GameFileTree(DirectoryTree):
    """A :class:`DirectoryTree` without hidden files, other files than games dim.

    Icons are plain characters (emoji are two cells wide in some terminals and not others).
    A click on a file highlights it; a double click (or enter) selects it.
    """

    ICON_NODE = "▸ "
    ICON_NODE_EXPANDED = "▾ "
    ICON_FILE = "  "

    def __init__(self, path: str | Path, *, current: str | None = None, id: str | None = None
                 ) -> None:
        """``current``: the name of a file in ``path`` to put the cursor on once listed."""
        super().__init__(path, id=id)
        self.current = current

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[DirEntry]) -> None:
        """Once the folder is listed, the cursor goes to the current file (runs before the
        DirectoryTree's own handler, which stops the event)."""
        if self.current is None or event.node is not self.root:
            return
        for child in event.node.children:
            if child.data is not None and child.data.path.name == self.current:
                self.current = None
                self.move_cursor(child, animate=False)
                return

    def process_label(self, label: str | Text) -> Text:
        """A file's name as the tree shows it: the Tree reads a ``str`` label as Rich
        markup and passes its control characters to the terminal; a name is neither ours
        nor markup, so it goes through the one rule for untrusted text, as plain text."""
        return super().process_label(Text(shown(label)) if isinstance(label, str) else label)

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".")]

    def render_label(self, node: TreeNode[DirEntry], base_style: Style, style: Style) -> Text:
        text = super().render_label(node, base_style, style)
        if not node.allow_expand and node.data is not None and not is_game_file(node.data.path):
            text.stylize(Style(dim=True))
        return text

    def on_click(self, event: events.Click) -> None:
        """One click on a file only moves the cursor there (the path box shows it)."""
        meta = event.style.meta
        if event.chain > 1 or "line" not in meta or meta.get("toggle", False):
            return  # the Tree's own handler selects or toggles
        node = self.get_node_at_line(meta["line"])
        if node is not None and not node.allow_expand:
            event.prevent_default()
            self.cursor_line = meta["line"]
