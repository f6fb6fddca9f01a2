"""Loading and saving games: move strings and the small ``.c4g`` game file.

Three formats are read, whichever a file holds:

* a digit string, the perfect solvers' notation: ``4453``;
* algebraic squares, optionally with move numbers: ``d1 d2 e1 c1`` or ``1. d1 d2 2. e1 c1``;
* a ``.c4g`` game file, PGN's little cousin: header lines, then the moves::

      # c4tui game file
      [Event "Analysis"]
      [Date "2026.11.22"]
      [White "?"]
      [Black "?"]
      [Size "7x6"]
      [Result "*"]

      1. d1 {the centre} d2 2. e1 (2. c1 c2 3. d3) 2... c1 *

  Headers are ``[Name "value"]`` lines (any names; ``Result`` is checked against the main
  line, ``Size``, the board's columns x rows, against the size c4tui runs: a file with
  headers but without ``Size`` is 7x6; bare move text is played on the size c4tui runs).
  Lines starting with ``#`` or ``;`` are comments. The move text is algebraic with
  optional move numbers (digit strings are accepted too), may hold variations ``( … )``
  and comments ``{ … }`` after a move, and may end with the result (``1-0`` White won,
  ``0-1`` Black won, ``1/2-1/2`` draw, ``*`` unfinished).

The package: :mod:`.tree` (the game tree), :mod:`.movetext` (the move text, read and
written), :mod:`.game` (headers, :class:`Game`, parsing and formatting a whole file),
:mod:`.files` (loading and saving, paths). Every error is a :class:`GameFileError` whose
one-line message names the file, the line (and column, for a bracket) and the problem.
"""

from .files import (
    GAME_SUFFIX,
    GAME_SUFFIXES,
    MAX_FILE_BYTES,
    data_dir,
    default_save_path,
    load_game,
    resolve_user_path,
    save_game,
)
from .game import (
    Game,
    GameFileError,
    GameFileExistsError,
    GameSizeError,
    format_game,
    parse_game,
    result_of,
)
from .movetext import RESULTS
from .tree import Node

__all__ = ["GAME_SUFFIX", "GAME_SUFFIXES", "MAX_FILE_BYTES", "RESULTS", "Game", "GameFileError",
           "GameFileExistsError", "GameSizeError", "Node", "data_dir", "default_save_path",
           "format_game", "load_game", "parse_game", "resolve_user_path", "result_of", "save_game"]
