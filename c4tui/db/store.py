"""The games database file: one SQLite file (stdlib ``sqlite3``, WAL mode) and its tables.

Tables (docs/user-guide.md, "Games database and explorer"):

* ``games``: one row per game: ``digest`` (its identity, :func:`c4tui.db.record.digest`,
  unique), the main line's moves as a digit string, the result (:data:`WHITE_WON` ...),
  the headers (JSON) and where it was first read (``file:line``);
* ``positions``: ``(key, game)`` for every position of every game, ``key`` the position's
  canonical key (a position and its mirror image share it: ``c4tui.book.keys``);
* ``moves``: per canonical key and next move (in the canonical key's orientation; -1: the
  game ended there), how many games played it and how they ended. The explorer reads
  this table alone, so a lookup costs one index search whatever the number of games.

A database holds games of one board size (``meta``'s ``size``).
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from c4tui.engine.board import geometry
from c4tui.engine.board.position import MOVE_CHARS, IllegalMoveError, Position

WHITE_WON, DRAW, BLACK_WON, UNFINISHED = 0, 1, 2, 3  #: a game's result as stored
RESULT_TOKENS = ("1-0", "1/2-1/2", "0-1", "*")  #: the same, as game files write them
#: The ``moves`` table's move for "the game ended here".
ENDED = -1
SCHEMA_VERSION = "1"
#: SQLite's page cache per connection (KiB, negative as SQLite takes it): an import's
#: memory stays flat whatever the number of games.
CACHE_KIB = 64 << 10
#: How long a command waits for another process's lock on the database before it says so.
LOCK_SECONDS = 30.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY,
    digest BLOB NOT NULL UNIQUE,
    moves TEXT NOT NULL,
    result INTEGER NOT NULL,
    headers TEXT NOT NULL,
    source TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS positions(
    key INTEGER NOT NULL,
    game INTEGER NOT NULL,
    PRIMARY KEY(key, game)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS moves(
    key INTEGER NOT NULL,
    move INTEGER NOT NULL,
    games INTEGER NOT NULL,
    white INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    black INTEGER NOT NULL,
    PRIMARY KEY(key, move)
) WITHOUT ROWID;
"""


class DatabaseError(Exception):
    """A database that cannot be opened or used; the message is one line."""


def default_path() -> Path:
    """The games database: ``games.sqlite`` in the user data directory
    (``$XDG_DATA_HOME/c4tui``, by default ``~/.local/share/c4tui`` on Linux)."""
    return Path(platformdirs.user_data_dir("c4tui")) / "games.sqlite"


def sql_key(key: int) -> int | bytes:
    """A key as SQLite stores it: a signed 64-bit integer (keys of boards with 64 bits
    wrap around); on a board of more than 64 bits (8x8: 72) 16 bytes, big-endian, which
    SQLite keeps as they are in the same ``INTEGER`` column (a BLOB: its type is the
    value's, and the two sizes never share a database)."""
    if geometry.TWO_WORDS:
        return key.to_bytes(16, "big")
    return key - (1 << 64) if key >= 1 << 63 else key


@dataclass(frozen=True)
class StoredGame:
    """One game of the database."""

    id: int
    moves: str  #: the main line, a digit string
    result: int  #: :data:`WHITE_WON`, :data:`DRAW`, :data:`BLACK_WON` or :data:`UNFINISHED`
    headers: dict[str, str]
    source: str  #: where it was first read: ``file:line``, or what stored it

    @property
    def result_token(self) -> str:
        """The result as a game file writes it: ``1-0``, ``1/2-1/2``, ``0-1`` or ``*``."""
        return RESULT_TOKENS[self.result]


#: The first 16 bytes of every SQLite 3 file.
SQLITE_MAGIC = b"SQLite format 3\0"
_TABLES = {"meta", "games", "positions", "moves"}


def connect(path: Path | None = None, *, create: bool = False,
            readonly: bool = False) -> sqlite3.Connection:
    """Open the database at ``path`` (default :func:`default_path`).

    ``create``: make it (and its directory) if missing; else a missing database is a
    :class:`DatabaseError` that says how to make one. ``readonly``: a read-only
    connection (SQLite's ``mode=ro``): the file is never written, its journal mode never
    switched. Every failure, an unwritable directory included, is a one-line
    :class:`DatabaseError`.

    A file that is there is checked to be a games database (``meta``'s version and size,
    the tables) on a read-only connection before anything may write to it, so a file that
    is not one (another program's SQLite file, an empty file, text) is refused unchanged,
    byte for byte, with :class:`NotGamesDatabase`.
    """
    path = (path or default_path()).expanduser()
    if not path.exists():
        if not create or readonly:
            raise DatabaseError(f"{path}: no games database (make one with 'c4tui db import "
                                "FILES', or choose one with --db FILE)")
        return _create(path)
    if not path.is_file():
        raise NotGamesDatabase(f"{path}: not a regular file, not a games database")
    _check_header(path)
    probe = _open(path, readonly=True, probe=True)
    try:
        _check_ours(probe, path)
    finally:
        probe.close()
    # ours: now it may be used as a database another process may write to at once
    conn = _open(path, readonly=readonly)
    if readonly:
        return conn
    try:
        _prepare(conn, path)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise DatabaseError(f"{path}: cannot use the games database ({_why(exc)}; "
                            "choose another file with --db FILE)") from None
    return conn


class NotGamesDatabase(DatabaseError):
    """A file that is not a games database (left as it was); a mistake of the command
    line's, not a failure."""


def _check_header(path: Path) -> None:
    """Refuse, before SQLite opens it, a file that is no SQLite file (an empty one
    included: SQLite would make a database of it)."""
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise DatabaseError(f"{path}: cannot open the games database ({_why(exc)}; "
                            "choose another file with --db FILE)") from None
    if head != SQLITE_MAGIC:
        what = "an empty file" if not head else "not an SQLite file"
        raise NotGamesDatabase(f"{path}: not a games database ({what}; left as it is: "
                               "choose another file with --db FILE)")


def _open(path: Path, *, readonly: bool, probe: bool = False) -> sqlite3.Connection:
    """A connection, read-only (SQLite's ``mode=ro``: no write, no journal switch, no
    file made) or read-write, with the page cache and the wait for a lock set.

    ``probe``: only to look at the tables of a file that may be another program's: a
    WAL file that nobody has open (no ``-wal`` beside it, every change in the file
    itself) is read as an immutable file, so no ``-wal``/``-shm`` is made beside it (a
    plain read-only connection to a WAL file makes both, and leaves them)."""
    try:
        if readonly:
            # a URI, so every character of the path is taken as it is (?, #, %)
            uri = path.absolute().as_uri() + "?mode=ro"
            # a WAL file on a read-only file system (or in a folder nobody may write in)
            # cannot get its -shm, so SQLite cannot read it as a WAL file; nobody can
            # write it either (a WAL write needs the -wal): read it as a plain file
            fixed = _wal_without_journal(path) and (probe or not os.access(path.parent,
                                                                           os.W_OK))
            if fixed:
                uri += "&immutable=1"
            conn = sqlite3.connect(uri, uri=True, timeout=LOCK_SECONDS,
                                   isolation_level=None, check_same_thread=False)
        else:
            conn = sqlite3.connect(path, timeout=LOCK_SECONDS, isolation_level=None,
                                   check_same_thread=False)
        conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")  # (the connection's, not the file's)
    except (OSError, sqlite3.Error) as exc:
        raise DatabaseError(f"{path}: cannot open the games database ({_why(exc)}; "
                            "choose another file with --db FILE)") from None
    return conn


def _wal_without_journal(path: Path) -> bool:
    """Whether ``path``'s header says WAL mode (bytes 18 and 19 are 2) and no ``-wal``
    file is beside it: every change is in the file itself and no connection has it."""
    try:
        with path.open("rb") as f:
            head = f.read(20)
    except OSError:
        return False
    return head[18:20] == b"\2\2" and not Path(f"{path}-wal").exists()


def _check_ours(conn: sqlite3.Connection, path: Path) -> None:
    """The file is a games database of this board size, or a one-line refusal; reads
    only."""
    try:
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not _TABLES <= tables:
            raise NotGamesDatabase(f"{path}: not a games database (an SQLite file without "
                                   "c4tui's tables; left as it is: choose another file with "
                                   "--db FILE)")
        meta = dict(conn.execute("SELECT name, value FROM meta").fetchall())
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc):
            raise NotGamesDatabase(f"{path}: not a games database (not an SQLite file; left "
                                   "as it is: choose another file with --db FILE)") from None
        if "locked" in str(exc) or "busy" in str(exc):
            raise DatabaseError(f"{path}: {_why(exc)}") from None
        raise NotGamesDatabase(f"{path}: not a games database ({_why(exc)}; left as it is: "
                               "choose another file with --db FILE)") from None
    if "version" not in meta:
        raise NotGamesDatabase(f"{path}: not a games database (its meta table has no "
                               "version; left as it is: choose another file with --db FILE)")
    if meta.get("version") != SCHEMA_VERSION:
        raise NotGamesDatabase(f"{path}: games database version {meta.get('version')!r}, "
                               f"expected {SCHEMA_VERSION}")
    if meta.get("size") != geometry.NAME:
        raise NotGamesDatabase(f"{path}: a database of {meta.get('size')} games, but c4tui "
                               f"runs {geometry.NAME} (use it with --size {meta.get('size')})")


def _create(path: Path) -> sqlite3.Connection:
    """A new games database at ``path`` (missing), its directory made if need be."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseError(f"{path}: cannot open the games database ({_why(exc)}; "
                            "choose another file with --db FILE)") from None
    conn = _open(path, readonly=False)
    try:
        _prepare(conn, path)
        conn.executescript(_SCHEMA)
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?), ('size', ?)",
                     (SCHEMA_VERSION, geometry.NAME))
    except sqlite3.DatabaseError as exc:
        conn.close()
        # made here and never finished (a full disk): an empty or half-made file would be
        # refused as not a games database by the next run
        for made in (path, *(Path(f"{path}{tail}") for tail in ("-wal", "-shm", "-journal"))):
            made.unlink(missing_ok=True)
        raise DatabaseError(f"{path}: cannot make the games database ({_why(exc)}; "
                            "choose another file with --db FILE)") from None
    return conn


def _prepare(conn: sqlite3.Connection, path: Path) -> None:
    """WAL mode (a games database's, checked to be ours or new)."""
    mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    if mode != "wal":
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses no committed batch


def why(exc: BaseException) -> str:
    """What went wrong, in a few words (SQLite's, or the system's)."""
    return _why(exc)


def _why(exc: BaseException) -> str:
    if isinstance(exc, sqlite3.Error):
        text = str(exc)
        if "locked" in text or "busy" in text:
            return "database is locked by another process"
        if "full" in text:  # SQLITE_FULL: the disk, or the file system's quota
            return "database or disk is full"
    if isinstance(exc, OSError):
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return "permission denied" if exc.errno != errno.EROFS else "read-only file system"
        return exc.strerror or str(exc)
    text = str(exc)
    if "unable to open" in text or "readonly" in text:  # SQLite's words for no write access
        return f"{text}: is its directory writable?"
    return text


def load_game_row(conn: sqlite3.Connection, game_id: int) -> StoredGame | None:
    """The game ``game_id``, or None (none, or a row no import wrote: another tool may
    have changed the file, so every value is checked before it is used)."""
    if not isinstance(game_id, int) or isinstance(game_id, bool):
        return None
    row = conn.execute("SELECT id, moves, result, headers, source FROM games WHERE id = ?",
                       (game_id,)).fetchone()
    if row is None:
        return None
    gid, moves, result, headers, source = row
    if not (isinstance(moves, str) and len(moves) <= geometry.SIZE
            and all(ch in MOVE_CHARS for ch in moves)
            and isinstance(result, int) and 0 <= result < len(RESULT_TOKENS)):
        return None
    try:
        Position.from_moves(moves)  # a game that can be opened
    except IllegalMoveError:
        return None
    return StoredGame(gid, moves, result, _headers(headers),
                      source if isinstance(source, str) else "?")


def _headers(text: object) -> dict[str, str]:
    """A row's headers: a JSON object of strings, or none."""
    try:
        data = json.loads(text) if isinstance(text, (str, bytes)) else None
    except (ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}
