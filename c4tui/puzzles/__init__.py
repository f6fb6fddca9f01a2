"""Puzzles: positions where exactly one move keeps the win (or the draw), certified by the
exact solver, and the trainer's spaced repetition.

One noun per file: :mod:`.puzzle` (a puzzle, its canonical key), :mod:`.themes` (what
kind of idea the move is), :mod:`.difficulty` (how hard it is), :mod:`.finder` (is this
position a puzzle?), :mod:`.selfplay` (seeded games to look in), :mod:`.builder` (a set
from games or self-play), :mod:`.puzzlefile` (the text format, read and written),
:mod:`.sm2` (SuperMemo's SM-2 schedule), :mod:`.progress` (the trainer's saved state).
No Textual and no CLI here: the ``c4tui puzzles`` commands and the app's trainer use it.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def starter_path() -> Path:
    """The shipped starter set (package data, built by ``c4tui puzzles build``)."""
    return Path(str(resources.files(__package__).joinpath("starter.c4p")))
