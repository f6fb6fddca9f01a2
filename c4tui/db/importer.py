"""Reading games from files and directories into the database (``c4tui db import``).

What a file holds decides how it is read, with c4tui's own readers (``c4tui.gamefile``):

* a ``.c4g`` file, or any file whose first line that is not blank or a comment is a header
  (``[Name "value"]``): one game, its main line (variations are analysis, not moves
  played; :func:`c4tui.gamefile.load_game`, at most 1 MiB);
* any other file: one game per line, a digit string (``4453``) or squares with optional
  move numbers and result (``1. d1 d2 2. e1 c1``); blank lines and lines starting with
  ``#`` or ``;`` are skipped. Lines are read one at a time (at most
  :data:`c4tui.bounded.MAX_LINE_CHARS` characters each), so a file of any size costs
  the same memory.

A directory is searched for game files (``.c4g`` and ``.txt``; hidden ones left out). A
bad game or line costs one line ``file:line: why`` and is counted, never the import; a
file that cannot be read (not a regular file, a FIFO, binary data) costs one line too.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from c4tui import gamefile
from c4tui.bounded import MAX_LINE_CHARS, LineTooLong, bounded_lines, shown
from c4tui.engine.board.position import MOVE_CHARS, IllegalMoveError, Position
from c4tui.gamelist import game_paths

from .record import GameRecord
from .store import why
from .writer import BATCH, add_games

#: How many bad games an import names one by one (the rest are counted).
MAX_ERRORS_SHOWN = 20
_SNIFF = 4096  # bytes looked at for a NUL: binary data is no game file


@dataclass
class ImportReport:
    """What an import did so far."""

    files: int = 0  #: files read (or tried)
    read: int = 0  #: games read
    added: int = 0  #: new games stored (the others were stored already)
    bad: int = 0  #: games, lines or files skipped
    committed: int = 0  #: games read whose batch is committed (new or stored before)
    errors: list[str] = field(default_factory=list)  #: the first bad ones, one line each

    def bad_one(self, message: str) -> None:
        """Count a bad game, line or file and keep its message (the first few)."""
        self.bad += 1
        if len(self.errors) < MAX_ERRORS_SHOWN:
            self.errors.append(message)


class ImportFailed(Exception):
    """A path given that is not there; one line."""


class StoreFailed(Exception):
    """The database took no more games (another process locks it, the disk is full):
    every batch committed before is kept (the report counts them), the one that failed
    is rolled back whole; the message is a few words (:func:`.store.why`)."""


def source_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The files to read: each file given, and the game files under each directory."""
    given = [p.expanduser() for p in paths]
    for p in given:  # all of them first: a typo must not stop an import halfway
        if not os.path.lexists(p):
            raise ImportFailed(f"{shown(str(p))}: no such file or directory")
    for p in given:
        if p.is_dir():
            yield from game_paths(p)
        else:
            yield p


def import_paths(conn: sqlite3.Connection, paths: Iterable[Path],
                 progress: Callable[[ImportReport], None] | None = None,
                 report: ImportReport | None = None) -> ImportReport:
    """Read every game of ``paths`` and store the new ones, :data:`BATCH` per transaction.

    ``report`` (a fresh one if None) is updated as batches are committed, so a caller
    interrupted by Ctrl-C still knows what was stored; ``progress`` is called after each
    batch.
    """
    report = report or ImportReport()
    batch: list[GameRecord] = []

    def flush() -> None:
        try:
            report.added += add_games(conn, batch)
        except sqlite3.Error as exc:  # its transaction is rolled back: nothing half-stored
            raise StoreFailed(why(exc)) from None
        report.committed += len(batch)
        batch.clear()
        if progress is not None:
            progress(report)

    for path in source_files(paths):  # every path is checked before the first is read
        report.files += 1
        for item in read_games(path):
            if isinstance(item, str):
                report.bad_one(item)
                continue
            report.read += 1
            batch.append(item)
            if len(batch) >= BATCH:
                flush()
    flush()
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the journal back to nothing
    except sqlite3.Error:  # (busy, or no room): SQLite checkpoints later, nothing is lost
        pass
    return report


def read_games(path: Path) -> Iterator[GameRecord | str]:
    """The games of one file, and a one-line message (a ``str``) for each bad one."""
    name = shown(str(path))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        yield f"{name}: cannot read ({exc.strerror or exc})"
        return
    with os.fdopen(fd, "rb") as stream:
        mode = os.fstat(fd).st_mode  # the file opened, not the name
        if not stat.S_ISREG(mode):
            yield f"{name}: not a regular file"
            return
        head = stream.read(_SNIFF)
        if b"\0" in head:
            yield f"{name}: binary data, not games"
            return
        stream.seek(0)
        if path.suffix.lower() == gamefile.GAME_SUFFIX or _starts_with_header(head):
            yield _whole_file(path, name)
            return
        yield from _lines(stream, name)


def _starts_with_header(head: bytes) -> bool:
    """Whether the first line that is not blank or a comment is a header."""
    for raw in head.splitlines():
        line = raw.strip()
        if line and not line.startswith((b"#", b";")):
            return line.startswith(b"[")
    return False


def _whole_file(path: Path, name: str) -> GameRecord | str:
    try:
        game = gamefile.load_game(path)
    except gamefile.GameFileError as exc:
        return str(exc)
    return GameRecord.from_position(game.position, game.headers, name)


def _lines(stream: BinaryIO, name: str) -> Iterator[GameRecord | str]:
    for n, raw in enumerate(bounded_lines(stream, MAX_LINE_CHARS), start=1):
        where = f"{name}:{n}"
        if isinstance(raw, LineTooLong):
            yield f"{where}: longer than {MAX_LINE_CHARS} characters, not a game"
            if raw.endless:
                return
            continue
        try:
            line = raw.decode("utf-8-sig" if n == 1 else "utf-8").strip()
        except UnicodeDecodeError as exc:
            yield f"{where}: not UTF-8 text (byte {exc.start + 1})"
            continue
        if not line or line.startswith(("#", ";")):
            continue
        try:
            yield GameRecord.from_position(_parse_line(line), {}, where)
        except (IllegalMoveError, gamefile.GameFileError) as exc:
            yield f"{where}: {exc}"


def _parse_line(line: str) -> Position:
    """One line's game: digits through the position's own reader (the fast path of
    millions of lines), anything else through the game-file reader (squares, move
    numbers, a result)."""
    if all(ch in MOVE_CHARS for ch in line):
        return Position.from_moves(line)
    try:
        return gamefile.parse_game(line, "").position
    except gamefile.GameFileError as exc:
        raise gamefile.GameFileError(str(exc).removeprefix(": ").removeprefix("line 1: ")
                                     ) from None

