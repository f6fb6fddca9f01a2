"""The games database and the opening explorer (``c4tui db``, the app's key ``E``).

One SQLite file (:mod:`.store`) holds the user's games: imported files (:mod:`.importer`),
c4tui's own games; every position of every game is indexed by its canonical key, so a
position and its mirror image are found together. :mod:`.record` is a game on its way in
and its identity, :mod:`.writer` stores a batch, :mod:`.explorer` answers "what was played
here, and how did it go?" and "which games went through here?".

Imports the engine, the book, ``gamefile`` and ``bounded``; never the CLI or the app.
"""

from .explorer import MoveStats, PositionStats, explore, games_through, summary
from .importer import ImportFailed, ImportReport, StoreFailed, import_paths
from .record import GameRecord
from .store import DatabaseError, NotGamesDatabase, StoredGame, connect, default_path
from .writer import add_games

__all__ = ["DatabaseError", "GameRecord", "ImportFailed", "ImportReport", "MoveStats",
           "NotGamesDatabase", "PositionStats", "StoreFailed", "StoredGame", "add_games",
           "connect", "default_path", "explore", "games_through", "import_paths", "summary"]
