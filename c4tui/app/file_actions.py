"""The game's files and clipboard: open and save through the file picker (asking before
replacing), recent files, the games list, enter, copy."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui import gamefile, recent
from c4tui.engine.position import IllegalMoveError, Position

from .screens import ConfirmScreen, FilePickerScreen, GamesScreen, RecentFilesScreen
from .text import plural
from .widgets import PromptScreen

if TYPE_CHECKING:
    from .main import C4App

    _Base = C4App
else:
    _Base = object


class FileActions(_Base):
    """Mixed into :class:`C4App`; a file that cannot be used changes nothing."""

    current_file: Path | None = None  # the game file last opened or saved
    last_warning = ""

    def load_position(self, pos: Position, headers: dict[str, str] | None = None) -> None:
        """Replace the game by ``pos``'s moves (undoable); ``headers`` None: a new game
        without headers."""
        self.load_game(gamefile.Game(pos, dict(headers or {})))

    def load_game(self, game: gamefile.Game) -> None:
        """Replace the game by ``game``, its variations and comments (undoable)."""
        self.model.load(game.tree, game.headers)
        self.show(moved=True)

    def _game(self) -> gamefile.Game:
        """The whole game: every variation and comment, the headers."""
        return gamefile.Game.from_tree(self.model.root, self.model.headers)

    def load_file(self, path: Path) -> bool:
        """Load a game file; on error say so and change nothing."""
        try:
            game = gamefile.load_game(path)
        except gamefile.GameFileError as exc:
            self.error(str(exc))
            return False
        self.load_game(game)
        extra = ", with variations" if game.tree.has_variations() else ""
        self.say(f"loaded {path} ({plural(game.position.ply, 'move')}{extra})")
        self.remember_file(path)
        self._mark_loaded()
        self.mark_saved()
        return True

    def save_file(self, path: Path, overwrite: bool = False) -> bool:
        """Save the whole game (variations and comments too) atomically; an existing file
        is only replaced after the user says so (``overwrite``)."""
        try:
            written = gamefile.save_game(path, self._game(), overwrite=overwrite)
        except gamefile.GameFileExistsError:
            self._ask_overwrite(path)
            return False
        except gamefile.GameFileError as exc:
            self.error(str(exc))
            return False
        self.say(f"saved {written}{_moves_only_note(written, self._game())}")
        self.remember_file(written)
        self._loaded_mark = None  # the file now holds the game on the board
        self.mark_saved()
        return True

    # Where the last opened file's game starts in the model's undo history: undoing that
    # load puts another game on the board, which ``s`` must not offer to save over it.
    _loaded_mark: tuple[int, object] | None = None

    def _mark_loaded(self) -> None:
        """Note the undo entry the load just made (the model records one per load)."""
        undo = self.model._undo  # read only: the model has no public view of its history
        self._loaded_mark = (len(undo), undo[-1] if undo else None)

    def _loaded_game_on_board(self) -> bool:
        """False once the last load is undone (or replaced by other edits after an undo):
        the board then shows a game that did not come from :attr:`current_file`."""
        if self._loaded_mark is None:
            return True
        depth, entry = self._loaded_mark
        undo = self.model._undo
        return len(undo) >= depth and (depth == 0 or undo[depth - 1] is entry)

    def remember_file(self, path: Path) -> None:
        """Make ``path`` the current file and the first recent one (a recent-files store
        that cannot be used only costs a warning)."""
        self.current_file = Path(os.path.abspath(os.path.expanduser(path)))
        self._warn(recent.add_recent(self.current_file).warning)

    def _warn(self, warning: str | None) -> None:
        if warning:
            self.last_warning = warning
            self.notify(warning, severity="warning", timeout=6)

    def _ask_overwrite(self, path: Path) -> None:
        self.last_error = f"{path}: already exists"

        def done(yes: bool | None) -> None:
            if yes:
                self.save_file(path, overwrite=True)
            else:
                self.say(f"not saved: {path} kept")

        self.push_screen(ConfirmScreen(f"{path.name} exists. Replace it? (y/n)"), done)

    def _picker_start(self) -> tuple[Path, str | None]:
        """The folder the file picker shows first, and the file to put the cursor on: the
        current file's, or the data directory."""
        if self.current_file is not None and self.current_file.parent.is_dir():
            return self.current_file.parent, self.current_file.name
        home = gamefile.data_dir()
        try:
            home.mkdir(parents=True, exist_ok=True)  # where games go: made on first use
        except OSError:
            return next(p for p in home.parents if p.is_dir()), None
        return home, None

    def action_load(self) -> None:
        def done(path: Path | None) -> None:
            if path is not None:
                self.load_file(path)

        start, current = self._picker_start()
        self.push_screen(FilePickerScreen("Open a game", start, current=current), done)

    def action_save(self) -> None:
        def done(path: Path | None) -> None:
            if path is not None:
                self.save_file(path)

        start, current = self._picker_start()
        if not self._loaded_game_on_board():
            current = None  # never propose a file whose game is no longer on the board
        name = current or gamefile.default_save_path().name
        self.push_screen(FilePickerScreen("Save the game", start, name, verb="save",
                                          current=current), done)

    def action_recent(self) -> None:
        listed = recent.load_recent()
        self._warn(listed.warning)

        def done(path: Path | None) -> None:
            if path is not None:
                self.load_file(path)

        self.push_screen(RecentFilesScreen(listed.files), done)

    def action_games(self) -> None:
        def done(path: Path | None) -> None:
            if path is not None:
                self.load_file(path)

        self.push_screen(GamesScreen(gamefile.data_dir()), done)

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
        text = gamefile.format_game(self._game())
        self.copy_to_clipboard(text)
        self.say("copied the game file")


def _moves_only_note(path: Path, game: gamefile.Game) -> str:
    """What a save to ``path`` left out, for the status line: a file other than ``.c4g``
    holds the main line's moves only (save_game's rule), so variations and comments are
    said to be left out rather than silently dropped."""
    if path.suffix in ("", gamefile.GAME_SUFFIX):
        return ""
    lost = [what for what, yes in (("variations", game.tree.has_variations()),
                                   ("comments", game.tree.has_comments())) if yes]
    if not lost:
        return ""
    return (f" (the main line's moves only: {' and '.join(lost)} left out; "
            f"save a {gamefile.GAME_SUFFIX} file to keep them)")
