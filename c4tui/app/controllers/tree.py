"""Moves through the game tree: play a column, undo and redo, take back, go to a ply or a
clicked move, switch, promote and delete variations, comment a move. In play mode a move
that is the engine's is refused and a take-back takes the engine's reply back too."""

from __future__ import annotations

from c4tui.engine.board.position import IllegalMoveError
from c4tui.gamefile import Game, result_of

from ...report.text import move_name, plural
from ..screens.headers import HeadersScreen
from ..session.model import GameModel
from ..widgets import PromptScreen
from .host import Host
from .play import PlayControl


class TreeControl:
    """A key that cannot apply says why and changes nothing."""

    def __init__(self, model: GameModel, host: Host, play: PlayControl) -> None:
        self.model, self.host, self.play = model, host, play

    def play_column(self, col: int) -> bool:
        """Play 0-based ``col`` at the viewed ply; False: refused (said why)."""
        if self.play.refuses():
            return False
        try:
            self.model.play(col)
        except IllegalMoveError as exc:
            self.host.error(str(exc))
            return False
        self.host.position_changed()
        return True

    def undo(self) -> None:
        if self.play.settings is not None:  # the engine's reply and the user's move together
            self.play.take_back()
        elif self.model.undo():
            self.host.position_changed()
        else:
            self.host.error("undo: nothing to undo")

    def redo(self) -> None:
        if self.model.redo():
            self.host.position_changed()
        else:
            self.host.error("redo: nothing to redo")

    def take_back(self) -> None:
        if self.play.settings is not None:
            self.play.take_back()
            return
        try:
            self.model.take_back()
        except IllegalMoveError as exc:
            self.host.error(str(exc))
            return
        self.host.position_changed()

    def goto(self, ply: int, relative: bool = False) -> None:
        """View ``ply`` of the current line (``relative``: that many plies on or back)."""
        before = self.model.ply
        self.model.goto(before + ply if relative else ply)
        if self.model.ply != before:
            self.host.position_changed()

    def goto_path(self, path: tuple[int, ...]) -> None:
        """A move clicked in the move list (also inside a variation)."""
        try:
            self.model.goto_path(path)
        except IndexError:  # a click drawn from a tree that has changed since
            return
        self.host.position_changed()

    def switch_variation(self, step: int) -> None:
        try:
            path = self.model.switch(step)
        except ValueError as exc:
            self.host.error(str(exc))
            return
        siblings = len(self.model.root.at(path[:-1]).children)
        self.host.say(f"{move_name(self.model.position, len(path) - 1)}: "
                      f"line {path[-1] + 1} of {siblings}"
                      + (" (the main line)" if not any(path) else ""))
        self.host.position_changed()

    def promote(self) -> None:
        try:
            self.model.promote()
        except ValueError as exc:
            self.host.error(str(exc))
            return
        self.host.say("promoted to the main line (u undoes)")
        self.host.state_changed()

    def delete_variation(self) -> None:
        try:
            path, node = self.model.delete()
        except ValueError as exc:
            self.host.error(str(exc))
            return
        what = "variation" if any(path) else "moves"
        after = self.model.position.copy()  # the viewed position is the one before it now
        after.play(node.col)
        where = move_name(after, after.ply - 1)
        self.host.say(f"deleted the {what} from {where} "
                      f"({plural(node.size(), 'move')}; u undoes)")
        self.host.position_changed()

    def comment(self) -> None:
        ply = self.model.ply
        where = move_name(self.model.position, ply - 1) if ply else "the game (at the start)"

        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                self.model.comment(text)
            except ValueError as exc:
                self.host.error(f"comment: {exc}")
                return
            self.host.state_changed()

        self.host.ask(PromptScreen(f"Comment on {where} (empty: none):",
                                   self.model.node.comment), done)

    def edit_headers(self) -> None:
        """``i``: the game's headers in a dialog; kept with the game (undoable)."""
        result = result_of(Game.from_tree(self.model.root).position)

        def done(headers: dict[str, str] | None) -> None:
            if headers is not None and self.model.set_headers(headers):
                self.host.say("headers kept with the game (s saves, u undoes)")
                self.host.state_changed()

        self.host.ask(HeadersScreen(self.model.headers, result), done)
