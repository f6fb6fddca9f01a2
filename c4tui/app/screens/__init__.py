"""Modal screens, one per file: the file picker, yes/no, recent files, the games list;
their base, :class:`OnceModalScreen` (dismissed once, whatever keys are queued)."""

from .confirm import ConfirmScreen
from .file_picker import FilePickerScreen
from .games_list import GamesScreen
from .modal import OnceModalScreen
from .recent_files import RecentFilesScreen

__all__ = ["ConfirmScreen", "FilePickerScreen", "GamesScreen", "OnceModalScreen",
           "RecentFilesScreen"]
