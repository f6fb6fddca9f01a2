"""The games of a match as ``.c4g`` files: one file per game in a directory.

A ``.c4g`` file holds one game (c4tui.gamefile), so ``--records DIR`` writes
``DIR/0001.c4g``, ``DIR/0002.c4g`` ... numbered as the games were started. Headers:
``Event`` (c4tui match), ``Round`` (the game's number), ``White`` and ``Black`` (the
engines' names and labels), ``Opening`` (its digits), ``Termination`` (``normal``, or
``adjudicated``, ``time forfeit``, ``crash``, ``illegal move`` with the reason). A game
that did not end on the board (adjudicated, forfeited) has the result ``*`` in its move
text, as the gamefile checks results against the moves: its result is in ``Termination``.
"""

from __future__ import annotations

from pathlib import Path

from c4tui.gamefile import GAME_SUFFIX, Game, GameFileError, save_game

from .game import NORMAL, GameRecord


def check_directory(path: Path) -> None:
    """Refuse a directory that already holds game files (a match would mix with them),
    or a path that is a file; GameFileError with one line."""
    if path.exists() and not path.is_dir():
        raise GameFileError(f"--records {path}: not a directory (one .c4g file per game "
                            "goes there)")
    if path.is_dir() and any(path.glob(f"*{GAME_SUFFIX}")):
        raise GameFileError(f"--records {path}: already holds game files (give a new or "
                            "empty directory)")


def game_file(directory: Path, record: GameRecord, names: dict[str, str]) -> Path:
    """Write one game's record; ``names`` maps ``"A"``/``"B"`` to the engines' names."""
    black = "B" if record.white == "A" else "A"
    termination = record.termination if record.termination == NORMAL else (
        f"{record.termination}: {record.result} ({record.reason})")
    headers = {
        "Event": "c4tui match",
        "Round": str(record.number),
        "White": f"{names[record.white]} ({record.white})",
        "Black": f"{names[black]} ({black})",
        "Opening": record.opening.digits or "-",
        "Termination": termination,
    }
    game = Game(record.position(), headers)
    return save_game(directory / f"{record.number:04d}{GAME_SUFFIX}", game, "game")
