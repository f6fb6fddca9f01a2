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
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from c4tui.engine import geometry

WHITE_WON, DRAW, BLACK_WON, UNFINISHED = 0, 1, 2, 3  #: a game's result as stored
RESULT_TOKENS = ("1-0", "1/2-1/2", "0-1", "*")  #: the same, as game files write them
#: The ``moves`` table's move for "the game ended here".
ENDED = -1
SCHEMA_VERSION = "1"
#: SQLite's page cache per connection (KiB, negative as SQLite takes it): an import's
#: memory stays flat whatever the number of games.
CACHE_KIB = 64 << 10

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


def connect(path: Path | None = None, *, create: bool = False) -> sqlite3.Connection:
    """Open the database at ``path`` (default :func:`default_path`).

    ``create``: make it (and its directory) if missing; else a missing database is a
    :class:`DatabaseError` that says how to make one. Every failure, an unwritable
    directory included, is a one-line :class:`DatabaseError`.
    """
    path = (path or default_path()).expanduser()
    if not create and not path.exists():
        raise DatabaseError(f"{path}: no games database (make one with 'c4tui db import "
                            "FILES', or choose one with --db FILE)")
    if path.exists() and not path.is_file():
        raise DatabaseError(f"{path}: not a regular file, not a games database")
    try:
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=30, isolation_level=None,
                               check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        raise DatabaseError(f"{path}: cannot open the games database ({_why(exc)}; "
                            "choose another file with --db FILE)") from None
    try:
        _prepare(conn, path, create)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise DatabaseError(f"{path}: cannot use the games database ({_why(exc)}; "
                            "choose another file with --db FILE)") from None
    except DatabaseError:
        conn.close()
        raise
    return conn


def _prepare(conn: sqlite3.Connection, path: Path, create: bool) -> None:
    """WAL mode, the tables, the size check."""
    conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
    conn.execute("PRAGMA busy_timeout=30000")
    mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    if mode != "wal":
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses no committed batch
    if create:
        conn.executescript(_SCHEMA)
        conn.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?), ('size', ?)",
                     (SCHEMA_VERSION, geometry.NAME))
    meta = dict(conn.execute("SELECT name, value FROM meta").fetchall())
    if meta.get("version") != SCHEMA_VERSION:
        raise DatabaseError(f"{path}: games database version {meta.get('version')!r}, "
                            f"expected {SCHEMA_VERSION}")
    if meta.get("size") != geometry.NAME:
        raise DatabaseError(f"{path}: a database of {meta.get('size')} games, but c4tui runs "
                            f"{geometry.NAME} (use it with --size {meta.get('size')})")


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return "permission denied" if exc.errno != errno.EROFS else "read-only file system"
        return exc.strerror or str(exc)
    text = str(exc)
    if "unable to open" in text or "readonly" in text:  # SQLite's words for no write access
        return f"{text}: is its directory writable?"
    return text


def load_game_row(conn: sqlite3.Connection, game_id: int) -> StoredGame | None:
    """The game ``game_id``, or None."""
    row = conn.execute("SELECT id, moves, result, headers, source FROM games WHERE id = ?",
                       (game_id,)).fetchone()
    if row is None:
        return None
    return StoredGame(row[0], row[1], row[2], json.loads(row[3]), row[4])
