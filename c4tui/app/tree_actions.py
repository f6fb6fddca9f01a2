"""The game tree's keys: switch, promote and delete variations, comment a move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding

from .messages import NodeClicked
from .text import move_name, plural
from .widgets import PromptScreen

if TYPE_CHECKING:
    from .main import C4App

    _Base = C4App
else:
    _Base = object

TREE_BINDINGS = [
    Binding("left_square_bracket", "switch_variation(-1)", "previous variation",
            show=False, key_display="["),
    Binding("right_square_bracket", "switch_variation(1)", "next variation",
            show=False, key_display="]"),
    Binding("P", "promote", "promote variation", show=False),
    Binding("D", "delete_variation", "delete variation", show=False),
    Binding("semicolon", "comment", "comment move", show=False, key_display=";"),
]


class TreeActions(_Base):
    """Mixed into :class:`C4App`; a key that cannot apply says why and changes nothing."""

    def on_node_clicked(self, event: NodeClicked) -> None:
        """A move clicked in the move list (a mixin's ``@on`` is not seen: by name)."""
        try:
            self.model.goto_path(event.path)
        except IndexError:  # a click drawn from a tree that has changed since
            return
        self.show(moved=True)

    def action_switch_variation(self, step: int) -> None:
        try:
            path = self.model.switch(step)
        except ValueError as exc:
            self.error(str(exc))
            return
        siblings = len(self.model.root.at(path[:-1]).children)
        self.say(f"{move_name(self.position, len(path) - 1)}: "
                 f"line {path[-1] + 1} of {siblings}"
                 + (" (the main line)" if not any(path) else ""))
        self.show(moved=True)

    def action_promote(self) -> None:
        try:
            self.model.promote()
        except ValueError as exc:
            self.error(str(exc))
            return
        self.say("promoted to the main line (u undoes)")
        self.show()

    def action_delete_variation(self) -> None:
        try:
            path, node = self.model.delete()
        except ValueError as exc:
            self.error(str(exc))
            return
        what = "variation" if any(path) else "moves"
        after = self.position.copy()  # the viewed position is the one before it now
        after.play(node.col)
        where = move_name(after, after.ply - 1)
        self.say(f"deleted the {what} from {where} ({plural(node.size(), 'move')}; u undoes)")
        self.show(moved=True)

    def action_comment(self) -> None:
        ply = self.model.ply
        where = move_name(self.position, ply - 1) if ply else "the game (at the start)"

        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                self.model.comment(text)
            except ValueError as exc:
                self.error(f"comment: {exc}")
                return
            self.show()

        self.push_screen(PromptScreen(f"Comment on {where} (empty: none):",
                                      self.model.node.comment), done)
