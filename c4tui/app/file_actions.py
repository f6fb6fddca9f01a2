"""The game's files and clipboard: open, save (asking before replacing), enter, copy."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from c4tui import gamefile
from c4tui.engine.position import IllegalMoveError, Position

from .widgets import PromptScreen

if TYPE_CHECKING:
    from .main import C4App

    _Base = C4App
else:
    _Base = object


class FileActions(_Base):
    """Mixed into :class:`C4App`; a file that cannot be used changes nothing."""

    def load_position(self, pos: Position, headers: dict[str, str] | None = None) -> None:
        """Replace the game (undoable); ``headers`` None: a new game without headers."""
        self.model.load(pos, headers)
        self.show(moved=True)

    def load_file(self, path: Path) -> bool:
        """Load a game file; on error say so and change nothing."""
        try:
            game = gamefile.load_game(path)
        except gamefile.GameFileError as exc:
            self.error(str(exc))
            return False
        self.load_position(game.position, game.headers)
        self.say(f"loaded {path} ({game.position.ply} moves)")
        return True

    def save_file(self, path: Path, overwrite: bool = False) -> bool:
        """Save the whole line atomically; an existing file is only replaced after the
        user says so (``overwrite``)."""
        game = gamefile.Game(self.model.full_position(), dict(self.model.headers))
        try:
            written = gamefile.save_game(path, game, overwrite=overwrite)
        except gamefile.GameFileExistsError:
            self._ask_overwrite(path)
            return False
        except gamefile.GameFileError as exc:
            self.error(str(exc))
            return False
        self.say(f"saved {written}")
        return True

    def _ask_overwrite(self, path: Path) -> None:
        self.last_error = f"{path}: already exists"

        def done(text: str | None) -> None:
            if text is not None and text.strip().lower() in ("y", "yes"):
                self.save_file(path, overwrite=True)
            else:
                self.say(f"not saved: {path} kept")

        self.push_screen(PromptScreen(f"{path.name} exists. Replace it? (y/n)", "n"), done)

    def action_load(self) -> None:
        def done(text: str | None) -> None:
            if text and text.strip():
                self.load_file(gamefile.resolve_user_path(text))

        self.push_screen(PromptScreen(f"Open file (relative to {gamefile.data_dir()}):",
                                      placeholder="game.c4g"), done)

    def action_save(self) -> None:
        def done(text: str | None) -> None:
            if text and text.strip():
                self.save_file(gamefile.resolve_user_path(text))

        default = gamefile.default_save_path().name
        self.push_screen(PromptScreen(f"Save as (relative to {gamefile.data_dir()}):",
                                      default), done)

    def action_enter_moves(self) -> None:
        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                pos = Position.parse(text)
            except IllegalMoveError as exc:
                self.error(f"moves: {exc}")
                return
            self.load_position(pos)  # a new game: the old headers do not apply

        self.push_screen(PromptScreen("Moves (4453 or d1 d2 e1 c1):",
                                      self.model.full_position().digits()), done)

    def action_copy(self) -> None:
        digits = self.position.digits()
        self.copy_to_clipboard(digits)
        self.say(f"copied {digits or '(empty board)'}")

    def action_copy_game(self) -> None:
        game = gamefile.Game(self.model.full_position(), dict(self.model.headers))
        text = gamefile.format_game(game)
        self.copy_to_clipboard(text)
        self.say("copied the game file")
