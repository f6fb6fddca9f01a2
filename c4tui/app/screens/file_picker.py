"""The file picker of open (``o``) and save (``s``): a directory tree and a path box."""

from __future__ import annotations

import os
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Tree
from textual.widgets.directory_tree import DirEntry

from c4tui.bounded import shown
from c4tui.engine.board.position import is_link
from c4tui.gamefile import resolve_user_path

from ..widgets.file_tree import GameFileTree
from ..widgets.prompt import LineInput
from .modal import OnceModalScreen


class FilePickerScreen(OnceModalScreen[Path | str | None]):
    """Returns the chosen file's path, or None on escape; opening, a link typed in the box
    (a connect4.gamesolver.org ``?pos=`` link) comes back as its text, a position to read.

    The tree starts in ``start``; a file is chosen with enter or a double click in the
    tree, or by typing its path in the box (relative to the folder shown, ``~`` expands).
    A folder typed in the box, or ``backspace`` in the tree, changes the folder shown; the
    cursor starts on the file named ``current``, if any.
    Whether the file can be opened or written is the caller's business.

    File and folder names are not ours: the tree, the folder line and the path box show
    them by the one rule for untrusted text (:func:`c4tui.bounded.shown`), never as
    markup. A name the rule changed (``n\x1b]0;x.c4g``) goes into the box escaped; the
    box's text, left as it is, still opens the file of that name.
    """

    DEFAULT_CSS = """
    FilePickerScreen {
        align: center middle;
    }
    #picker {
        width: 76;
        max-width: 100%;
        height: 22;
        max-height: 100%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    #picker-bar {
        height: 1;
    }
    #picker-title {
        width: 1fr;
        text-style: bold;
    }
    #picker-dir {
        color: $text-muted;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    #picker-bar Button {
        width: auto;
        min-width: 0;
        margin-left: 1;
    }
    #picker-tree {
        height: 1fr;
        border: round $secondary;
    }
    #picker-tree:focus {
        border: round $accent;
    }
    #picker-help {
        color: $text-muted;
    }
    """

    BINDINGS = [
        Binding("escape", "cancel", "cancel"),
        Binding("backspace", "parent", "parent folder", show=False),
    ]

    def __init__(self, title: str, start: Path, value: str = "", *, verb: str = "open",
                 current: str | None = None) -> None:
        """``current``: the name of a file in ``start`` to put the cursor on."""
        super().__init__()
        self.current = current
        #: the path box's escaped text of a highlighted file -> its real relative path
        self._escaped: dict[str, str] = {}
        self.title_text, self.directory, self.verb = title, start, verb
        self.value = self._box_text(value)  # the current file's name, proposed by save
        # opening starts in the tree; saving in the name box, ready for a new name
        self.AUTO_FOCUS = "#picker-tree" if verb == "open" else "#picker-input"  # type: ignore[misc]  # per dialog: Textual reads it from the instance

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            with Horizontal(id="picker-bar"):
                yield Label(self.title_text, id="picker-title")
                yield Button("↑ up", id="picker-up", compact=True)
                yield Button(self.verb, id="picker-ok", compact=True)
                yield Button("cancel", id="picker-cancel", compact=True)
            yield Label(_folder_line(self.directory), id="picker-dir")
            tree = GameFileTree(self.directory, id="picker-tree", current=self.current)
            tree.show_root = False
            yield tree
            hint = "a file name or path (~ works)" + (", or a gamesolver link"
                                                      if self.verb == "open" else "")
            yield LineInput(value=self.value, placeholder=hint, id="picker-input")
            yield Label(f"enter/double click: {self.verb}   tab: tree/path   "
                        "backspace: up   esc: cancel", id="picker-help")

    def _go_to(self, directory: Path) -> None:
        self.directory = directory
        self.query_one(GameFileTree).path = directory
        self.query_one("#picker-dir", Label).update(_folder_line(directory))

    @on(Tree.NodeHighlighted, "#picker-tree")
    def _highlighted(self, event: Tree.NodeHighlighted[DirEntry]) -> None:
        """A file under the cursor goes into the path box (relative to the folder shown)."""
        node = event.node
        if node.data is None or node.allow_expand:
            return
        # the names from the root down (the tree holds resolved paths: a symlinked folder
        # would not be a prefix of them)
        names: list[str] = []
        while node.parent is not None and node.data is not None:
            names.append(node.data.path.name)
            node = node.parent
        self.query_one("#picker-input", Input).value = self._box_text(
            str(Path(*reversed(names))))

    def _box_text(self, real: str) -> str:
        """A file name as the path box shows it (escaped by the one rule); enter then
        takes the real name."""
        text = shown(real, None)
        if text != real:
            self._escaped[text] = real
        return text

    @on(GameFileTree.FileSelected)
    def _file_selected(self, event: GameFileTree.FileSelected) -> None:
        if event.node is not event.node.tree.root:  # a root that is gone is no file
            self._done(event.path)

    def _done(self, path: Path | str | None) -> None:
        self.dismiss(path)  # once (OnceModalScreen): a second enter may already be queued

    @on(Input.Submitted, "#picker-input")
    def _submitted(self) -> None:
        self._accept()

    def _accept(self) -> None:
        if self.dismissed:  # a second enter queued behind the first: the answer is given
            return
        text = self.query_one("#picker-input", Input).value
        text = self._escaped.get(text, text)
        if not text.strip():
            self.app.bell()
            return
        if self.verb == "open" and is_link(text.strip()):
            self._done(text.strip())
            return
        path = resolve_user_path(text, self.directory)
        try:
            is_dir = path.is_dir()
        except (OSError, ValueError):  # a NUL byte, a name too long: the caller says so
            is_dir = False
        if is_dir:
            self.query_one("#picker-input", Input).value = ""
            self._go_to(Path(os.path.abspath(path)))  # "../x" shown as the folder it is
        else:
            self._done(path)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "picker-up":
            self.action_parent()
        elif event.button.id == "picker-ok":
            self._accept()
        else:
            self.action_cancel()

    def action_parent(self) -> None:
        parent = self.directory.parent
        if parent != self.directory:
            self._go_to(parent)

    def action_cancel(self) -> None:
        self._done(None)


def _folder_line(directory: Path, width: int = 68) -> Text:
    """``in /the/folder``; a long one keeps its end, the part that tells folders apart.
    A ``Text``: a folder's name is not markup."""
    text = shown(str(directory), None)
    return Text(f"in {text if len(text) <= width else '…' + text[-(width - 1):]}")
