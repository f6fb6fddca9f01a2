"""The autosave's file: a session (the game and where the user was in it) as a game file.

The file is an ordinary game file (variations, comments and headers; ``c4tui`` can open
it as any other) with a few ``C4tuiSession...`` headers for the rest of the session: the
line and move viewed, the file name, whether the game had unsaved changes. Writing it and
finding a crashed session's are autosave.py's.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path

from c4tui import gamefile
from c4tui.gamefile.tree import Node

#: Header names of the session (the rest of the file is the game).
H_FILE, H_LINE, H_PLY = "C4tuiSessionFile", "C4tuiSessionLine", "C4tuiSessionPly"
H_HEADERS, H_CHANGED, H_TIME = ("C4tuiSessionHeaders", "C4tuiSessionChanged",
                                "C4tuiSessionTime")
_SESSION_HEADERS = (H_FILE, H_LINE, H_PLY, H_HEADERS, H_CHANGED, H_TIME)


@dataclass
class Session:
    """What the autosave keeps: the game tree and headers, the current line and the
    viewed ply, the current file, and whether the game had unsaved changes."""

    root: Node
    headers: dict[str, str] = field(default_factory=dict)
    line_path: tuple[int, ...] = ()
    ply: int = 0
    file: Path | None = None
    changed: bool = True
    saved_at: str = ""

    def to_text(self) -> str:
        """The session as a game file."""
        headers = dict(self.headers)
        headers[H_HEADERS] = " ".join(self.headers)  # the game's own, not the defaults
        headers[H_LINE] = ".".join(map(str, self.line_path))
        headers[H_PLY] = str(self.ply)
        if self.file is not None:
            headers[H_FILE] = str(self.file)
        headers[H_CHANGED] = "yes" if self.changed else "no"
        headers[H_TIME] = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
        return gamefile.format_game(gamefile.Game.from_tree(self.root, headers))

    @classmethod
    def from_game(cls, game: gamefile.Game) -> Session:
        """The session kept in a game file written by :meth:`to_text` (a game file without
        the session's headers is its game, viewed at the end of the main line)."""
        headers = dict(game.headers)
        session = {name: headers.pop(name) for name in _SESSION_HEADERS if name in headers}
        own = session.get(H_HEADERS)
        if own is not None:  # drop the headers the game file format added
            names = set(own.split())
            headers = {k: v for k, v in headers.items() if k in names}
        try:
            line = tuple(int(i) for i in session.get(H_LINE, "").split(".") if i)
            game.tree.at(line)
            ply = min(int(session.get(H_PLY, "")), len(line) + _rest(game.tree, line))
        except (ValueError, IndexError):  # hand-edited: the end of the main line
            line, ply = (), len(game.position.history)
        file = session.get(H_FILE)
        return cls(game.tree, headers, line, max(ply, 0), Path(file) if file else None,
                   session.get(H_CHANGED, "yes") != "no", session.get(H_TIME, ""))

    def moves(self) -> int:
        """The number of moves of the current line."""
        return len(self.line_path) + _rest(self.root, self.line_path)


def _rest(root: Node, path: tuple[int, ...]) -> int:
    """The moves after ``path`` along the main line from there."""
    return len(root.main_path(path)) - len(path)
