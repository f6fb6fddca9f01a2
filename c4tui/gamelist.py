"""The games in a directory (by default the data directory), newest first.

One list for the app's games table (key ``G``) and ``c4tui games``: each game file's name,
modification time, players, result and number of moves. A file that cannot be read is
listed with its one-line error instead of its headers; nothing here raises.
"""

from __future__ import annotations

import datetime as _dt
import os
from dataclasses import dataclass, field
from pathlib import Path

from c4tui import gamefile
from c4tui.bounded import shown

COLUMNS = ("file", "modified", "White", "Black", "result", "moves")
MAX_GAMES = 2000  # a directory with more is not a game collection: the newest are listed
_CELL = 60  # the most characters of a name or a header in the table: one long one must not
# push every other column off the screen


@dataclass(frozen=True)
class GameEntry:
    """One game file; ``error`` is set (and ``moves`` None) when it cannot be loaded."""

    path: Path
    name: str  # relative to the listed directory
    modified: float
    headers: dict[str, str] = field(default_factory=dict)
    moves: int | None = None
    error: str | None = None

    def cells(self) -> tuple[str, ...]:
        """The texts of :data:`COLUMNS` for this game, as a terminal may show them: the
        file name and the headers come from the files, so they pass the one rule for
        untrusted text (:func:`c4tui.bounded.shown`); a widget that parses markup still
        needs them as ``Text``."""
        when = _dt.datetime.fromtimestamp(self.modified).strftime("%Y-%m-%d %H:%M")
        name = shown(self.name, None)  # a long one keeps its end: the file's own name
        name = name if len(name) <= _CELL else "…" + name[1 - _CELL:]
        if self.error is not None:
            return (name, when, "", "", "unreadable", "")
        h = self.headers
        return (name, when, shown(h.get("White", "?"), _CELL), shown(h.get("Black", "?"), _CELL),
                shown(h.get("Result", "*"), _CELL), str(self.moves))

    def error_line(self) -> str | None:
        """The one-line error of a file that cannot be read, escaped (None: it was read)."""
        return None if self.error is None else shown(self.error, None)


def game_paths(directory: Path) -> list[Path]:
    """The game files under ``directory`` (by suffix; hidden files and folders left out)."""
    found: list[Path] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += (Path(root) / f for f in sorted(files)
                  if not f.startswith(".") and Path(f).suffix.lower() in gamefile.GAME_SUFFIXES)
    return found


def list_games(directory: Path | None = None) -> list[GameEntry]:
    """The games under ``directory`` (default: the data directory), newest first."""
    directory = directory or gamefile.data_dir()
    dated: list[tuple[float, Path]] = []
    for p in game_paths(directory):
        try:
            dated.append((p.stat().st_mtime, p))
        except OSError:  # vanished meanwhile
            continue
    dated.sort(key=lambda mp: (-mp[0], str(mp[1])))
    entries = []
    for mtime, p in dated[:MAX_GAMES]:
        name = str(p.relative_to(directory))
        try:
            game = gamefile.load_game(p)
        except gamefile.GameFileError as exc:
            entries.append(GameEntry(p, name, mtime, error=str(exc)))
            continue
        headers = {**game.headers, "Result": gamefile.result_of(game.position)}
        entries.append(GameEntry(p, name, mtime, headers, game.position.ply))
    return entries
