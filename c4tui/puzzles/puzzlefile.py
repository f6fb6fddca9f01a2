"""The puzzle file (``.c4p``): a small text format, one puzzle per line.

::

    # c4tui puzzles 1
    # built by: c4tui puzzles build --selfplay 400 --seed 1 --out starter.c4p
    # moves keep result length decoys nodes difficulty theme
    525772446657132567 4 win 10 0 5297 5 odd-threat

The first line is the header, ``# c4tui puzzles`` and the format's version (1); other
lines starting with ``#`` are comments, blank lines are skipped. A puzzle line has eight
fields separated by spaces: the moves from the empty board (1-based digits, as ``c4tui
solve`` reads them), the keeping column (1-based), ``win`` or ``draw``, then the
difficulty's measures (:mod:`.difficulty`: the win's length in moves, the decoys, the
solver's nodes), the 1-10 rating and the theme (:mod:`.themes`). The file is read with
bounded reads (:mod:`c4tui.bounded`); a bad line is reported as ``FILE:LINE: reason`` and
skipped. Written atomically (:mod:`c4tui.atomicfile`).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from c4tui.atomicfile import atomic_write
from c4tui.bounded import LineTooLong, bounded_lines, clip, read_file, shown, small_int
from c4tui.engine.board.geometry import SIZE, WIDTH
from c4tui.engine.board.position import MOVE_CHARS, IllegalMoveError, Position

from .puzzle import RESULTS, Puzzle
from .themes import THEMES

HEADER = "# c4tui puzzles"
VERSION = 1
COLUMNS = "# moves keep result length decoys nodes difficulty theme"
MAX_FILE_BYTES = 8 << 20  #: a puzzle line is ~ 60 bytes: 100,000 puzzles fit
MAX_LINE = 256
MAX_NODES = 10**15


class PuzzleFileError(ValueError):
    """A puzzle file that cannot be read at all (missing, not a puzzle file)."""


@dataclass
class PuzzleFile:
    """The puzzles of a file and the one-line errors of its bad lines."""

    puzzles: list[Puzzle] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def format_puzzle(p: Puzzle) -> str:
    """One puzzle line (no line end)."""
    return (f"{p.moves} {MOVE_CHARS[p.keep]} {p.result} {p.length} {p.decoys} {p.nodes} "
            f"{p.difficulty} {p.theme}")


def write_puzzles(path: Path, puzzles: Iterable[Puzzle], comments: Sequence[str] = ()) -> None:
    """Write a puzzle file atomically (replacing ``path``); ``comments`` go after the
    header, one ``#`` line each."""
    lines = [f"{HEADER} {VERSION}", *(f"# {c}" for c in comments), COLUMNS,
             *(format_puzzle(p) for p in puzzles)]
    atomic_write(path, ("\n".join(lines) + "\n").encode("utf-8"), overwrite=True)


def parse_puzzle(line: str) -> Puzzle:
    """One puzzle line; ``ValueError`` saying what is wrong."""
    fields = line.split()
    if len(fields) != 8:
        raise ValueError(f"{len(fields)} fields, expected 8 (moves keep result length "
                         "decoys nodes difficulty theme)")
    moves, keep_text, result, *numbers, theme = fields
    if len(moves) > SIZE:
        raise ValueError(f"moves {clip(moves)!r}: more moves than squares")
    try:
        pos = Position.from_moves(moves)
    except IllegalMoveError as exc:
        raise ValueError(f"moves {clip(moves)!r}: {exc}") from None
    if pos.is_over:
        raise ValueError(f"moves {moves!r}: the game is over")
    if len(keep_text) != 1 or keep_text not in MOVE_CHARS:
        raise ValueError(f"keep {clip(keep_text)!r}: not a column (1-{MOVE_CHARS[-1]})")
    keep = MOVE_CHARS.index(keep_text)
    if not pos.can_play(keep):
        raise ValueError(f"keep {keep_text}: the column is full")
    if result not in RESULTS:
        raise ValueError(f"result {clip(result)!r}: not win or draw")
    values = []
    for name, text, top in zip(("length", "decoys", "nodes", "difficulty"), numbers,
                               (SIZE, WIDTH, MAX_NODES, 10), strict=True):
        n = small_int(text)
        if n is None or n > top or (name == "difficulty" and n < 1):
            low = 1 if name == "difficulty" else 0
            raise ValueError(f"{name} {clip(text)!r}: not a number {low}-{top}")
        values.append(n)
    if theme not in THEMES:
        raise ValueError(f"theme {clip(theme)!r}: not one of {', '.join(THEMES)}")
    length, decoys, nodes, difficulty = values
    return Puzzle(moves, keep, result, length, decoys, nodes, difficulty, theme)


def read_puzzles(path: str | os.PathLike[str]) -> PuzzleFile:
    """The puzzles of the file at ``path``; bad lines in ``errors`` as ``FILE:LINE:
    reason``. Raises :class:`PuzzleFileError` (one line) for a file that cannot be read
    or has no puzzle-file header."""
    name = shown(os.fspath(path))  # its messages name it: the one rule for untrusted text
    try:
        data = read_file(path, MAX_FILE_BYTES, "puzzle file")
    except OSError as exc:
        raise PuzzleFileError(f"{name}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        text = data.decode("utf-8-sig")  # a BOM (Windows' editors write one) is no text
    except UnicodeDecodeError as exc:
        raise PuzzleFileError(f"{name}: not UTF-8 text (byte {exc.start + 1})") from None
    out = PuzzleFile()
    header = False
    for number, line in enumerate(bounded_lines(io.StringIO(text), MAX_LINE), 1):
        if isinstance(line, LineTooLong):
            out.errors.append(f"{name}:{number}: longer than {MAX_LINE} characters")
            continue
        stripped = line.strip()
        if not header:
            if stripped != f"{HEADER} {VERSION}":
                why = (f"version {clip(stripped[len(HEADER):].strip())!r}, expected {VERSION}"
                       if stripped.startswith(HEADER) else
                       f"not a puzzle file (its first line is not '{HEADER} {VERSION}')")
                raise PuzzleFileError(f"{name}:{number}: {why}")
            header = True
            continue
        if not stripped or stripped.startswith("#"):
            continue
        try:
            out.puzzles.append(parse_puzzle(stripped))
        except ValueError as exc:
            out.errors.append(f"{name}:{number}: {exc}")
    if not header:
        raise PuzzleFileError(f"{name}: empty (no '{HEADER} {VERSION}' line)")
    return out
