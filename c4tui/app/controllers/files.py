"""The game's files and clipboard: open and save through the file picker (asking before
replacing), recent files, the games list, enter, copy; and whether the game on the board
is saved.

What counts as *unsaved*: the game tree or headers differ from the game last opened or
saved (or given on the command line). Undoing back to it makes the game saved again.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from c4tui import gamefile, recent
from c4tui.bounded import shown
from c4tui.engine.board import geometry
from c4tui.engine.board.position import IllegalMoveError, Position
from c4tui.gamefile.tree import Node

from ...report.text import plural
from ..screens import ConfirmScreen, FilePickerScreen, GamesScreen, RecentFilesScreen
from ..screens.setup import SetupScreen
from ..session.model import GameModel
from ..widgets import PromptScreen
from .host import Host


class FileControl:
    """A file that cannot be used changes nothing. ``copy``: puts text on the clipboard."""

    def __init__(self, model: GameModel, host: Host, copy: Callable[[str], None]) -> None:
        self.model, self.host = model, host
        self._copy = copy
        self.current_file: Path | None = None  #: the game file last opened or saved
        # Where the last opened file's game starts in the model's undo history: undoing
        # that load puts another game on the board, which ``s`` must not offer to save
        # over it.
        self._loaded_mark: tuple[int, object] | None = None
        self._saved: tuple[Node, dict[str, str]] = (model.root, dict(model.headers))

    # ------------------------------------------------------------------ unsaved changes
    @property
    def unsaved(self) -> bool:
        """The game differs from the one last opened or saved (or given at start)."""
        root, headers = self._saved
        return self.model.root is not root or self.model.headers != headers

    def mark_saved(self) -> None:
        """The game as it is now is in a file (opened or saved)."""
        self._saved = (self.model.root, dict(self.model.headers))

    # ------------------------------------------------------------------ loading, saving
    def load_position(self, pos: Position, headers: dict[str, str] | None = None) -> None:
        """Replace the game by ``pos``'s moves (undoable); ``headers`` None: a new game
        without headers."""
        self.load_game(gamefile.Game(pos, dict(headers or {})))

    def load_game(self, game: gamefile.Game) -> None:
        """Replace the game by ``game``, its variations and comments (undoable)."""
        self.model.load(game.tree, game.headers)
        self.host.position_changed()

    def _game(self) -> gamefile.Game:
        """The whole game: every variation and comment, the headers."""
        return gamefile.Game.from_tree(self.model.root, self.model.headers)

    def load_file(self, path: Path) -> bool:
        """Load a game file; on error say so and change nothing."""
        try:
            game = gamefile.load_game(path)
        except gamefile.GameFileError as exc:
            self.host.error(str(exc))
            return False
        self.load_game(game)
        extra = ", with variations" if game.tree.has_variations() else ""
        self.host.say(f"loaded {path} ({plural(game.position.ply, 'move')}{extra})")
        self.remember_file(path)
        self._loaded_mark = self.model.edit_mark()  # the model records one edit per load
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
            self.host.error(str(exc))
            return False
        self.host.say(f"saved {written}{_moves_only_note(written, self._game())}")
        self.remember_file(written)
        self._loaded_mark = None  # the file now holds the game on the board
        self.mark_saved()
        self.host.state_changed()  # (the autosave notes the file)
        return True

    def _loaded_game_on_board(self) -> bool:
        """False once the last load is undone (or replaced by other edits after an undo):
        the board then shows a game that did not come from :attr:`current_file`."""
        return self._loaded_mark is None or self.model.has_edit(self._loaded_mark)

    def remember_file(self, path: Path) -> None:
        """Make ``path`` the current file and the first recent one (a recent-files store
        that cannot be used only costs a warning)."""
        self.current_file = Path(os.path.abspath(os.path.expanduser(path)))
        self.host.warn(recent.add_recent(self.current_file).warning)

    def _ask_overwrite(self, path: Path) -> None:
        def done(yes: bool | None) -> None:
            if yes:
                self.save_file(path, overwrite=True)
            else:
                self.host.say(f"not saved: {path} kept")

        self.host.ask(ConfirmScreen(f"{shown(path.name)} exists. Replace it? (y/n)"), done)

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

    def _load_chosen(self, path: Path | str | None) -> None:
        if isinstance(path, str):  # a link typed in the box: its position, a new game
            try:
                self.load_position(Position.parse(path))
            except IllegalMoveError as exc:
                self.host.error(f"open: {exc}")
        elif path is not None:
            self.load_file(path)

    # ------------------------------------------------------------------ keys
    def open(self) -> None:
        """``o``: the file picker, then the file chosen."""
        start, current = self._picker_start()
        self.host.ask(FilePickerScreen("Open a game", start, current=current),
                      self._load_chosen)

    def save(self) -> None:
        """``s``: the file picker (the current file proposed), then save there."""
        def done(path: Path | str | None) -> None:
            if isinstance(path, Path):  # (saving, the box's text is always a path)
                self.save_file(path)

        start, current = self._picker_start()
        if not self._loaded_game_on_board():
            current = None  # never propose a file whose game is no longer on the board
        name = current or gamefile.default_save_path().name
        self.host.ask(FilePickerScreen("Save the game", start, name, verb="save",
                                       current=current), done)

    def recent(self) -> None:
        """``O``: the recent files."""
        listed = recent.load_recent()
        self.host.warn(listed.warning)
        self.host.ask(RecentFilesScreen(listed.files), self._load_chosen)

    def games(self) -> None:
        """``G``: the games of the data directory."""
        self.host.ask(GamesScreen(gamefile.data_dir()), self._load_chosen)

    def enter_moves(self) -> None:
        """``e``: a new game from typed moves."""
        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                pos = Position.parse(text)
            except IllegalMoveError as exc:
                self.host.error(f"moves: {exc}")
                return
            self.load_position(pos)  # a new game: the old headers do not apply

        self.host.ask(PromptScreen("Moves (4453, d1 d2 e1 c1, 0:3342 or a gamesolver link):",
                                   self.model.full_position().digits()), done)

    def set_up(self) -> None:
        """``S``: position setup (typed or clicked, checked), then a new game from it."""
        def done(pos: Position | None) -> None:
            if pos is not None:
                self.load_position(pos)
                self.host.say(f"set up: {pos.digits() or 'the empty board'} (u undoes)")

        self.host.ask(SetupScreen(self.model.position), done)

    def copy(self) -> None:
        """``c``: the viewed position's moves to the clipboard."""
        digits = self.model.position.digits()
        self._copy(digits)
        self.host.say(f"copied {digits or '(empty board)'}")

    def copy_link(self) -> None:
        """``L``: connect4.gamesolver.org's link to the viewed position to the clipboard
        (the 0-based string, BitBully's and c4's, said beside it). The site plays 7x6 only:
        a link of another size's game would open another game there, or none."""
        if not geometry.IS_DEFAULT:
            self.host.error("link: connect4.gamesolver.org's links are of 7x6 games, this "
                            f"board is {geometry.NAME} (c copies the moves)")
            return
        pos = self.model.position
        self._copy(pos.link())
        self.host.say(f"copied {pos.link()} (0-based: {pos.zero_based()})")

    def copy_game(self) -> None:
        """``C``: the whole game file to the clipboard."""
        self._copy(gamefile.format_game(self._game()))
        self.host.say("copied the game file")


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
