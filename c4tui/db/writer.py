"""Storing games: one transaction per batch, every position indexed by its canonical key.

A batch is committed whole or not at all (SQLite's WAL journal): an import killed midway
keeps every batch committed before, and running it again adds only the games missing
(:func:`add_games` skips a game whose identity is stored already).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence

import numpy as np

from c4tui.book.keys import mirror_keys
from c4tui.engine.board.geometry import TWO_WORDS, WIDTH, bottom_bit, mirror_int
from c4tui.engine.board.position import MOVE_CHARS

from .record import GameRecord
from .store import BLACK_WON, DRAW, ENDED, WHITE_WON, sql_key

#: Games per transaction: large enough that a commit's cost is spread, small enough that a
#: killed import loses little and memory stays flat.
BATCH = 10_000
_IN_CHUNK = 500  # digests per "IN (...)": under every SQLite's limit of host parameters
_BOTTOM = [bottom_bit(c) for c in range(WIDTH)]


def add_games(conn: sqlite3.Connection, records: Sequence[GameRecord]) -> int:
    """Store the games of ``records`` not stored yet, in one transaction; returns how
    many were new (a game twice in ``records`` counts once)."""
    fresh: dict[bytes, GameRecord] = {}
    for rec in records:
        fresh.setdefault(rec.digest(), rec)
    conn.execute("BEGIN IMMEDIATE")
    try:
        digests = list(fresh)
        for i in range(0, len(digests), _IN_CHUNK):
            chunk = digests[i:i + _IN_CHUNK]
            marks = ",".join("?" * len(chunk))
            for (known,) in conn.execute(f"SELECT digest FROM games WHERE digest IN ({marks})",
                                         chunk):
                del fresh[known]
        if fresh:
            first = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM games").fetchone()[0]
            _insert(conn, first, list(fresh.items()))
        conn.execute("COMMIT")
    except BaseException:
        # SQLite may have rolled back already (a full disk, SQLITE_FULL, ends the
        # transaction): a second ROLLBACK would hide the error that matters
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
        raise
    return len(fresh)


def _insert(conn: sqlite3.Connection, first: int,
            games: list[tuple[bytes, GameRecord]]) -> None:
    """The games (ids from ``first`` on), their positions and their moves' counts."""
    conn.executemany(
        "INSERT INTO games(id, digest, moves, result, headers, source) VALUES (?,?,?,?,?,?)",
        ((first + i, d, _digits(r.cols), r.result,
          json.dumps(r.headers, ensure_ascii=False), r.source)
         for i, (d, r) in enumerate(games)))
    keys: list[int] = []
    moves: list[int] = []
    owners: list[int] = []
    for i, (_, rec) in enumerate(games):
        n = _walk(rec.cols, keys, moves)
        owners += [i] * n
    canon, flip, stored = _canonical(keys)
    move = np.array(moves, dtype=np.int64)
    move = np.where(flip & (move >= 0), WIDTH - 1 - move, move)
    ids = np.array(owners, dtype=np.int64) + first
    order = np.lexsort((ids, canon))  # in key order: the index pages are touched in turn
    conn.executemany("INSERT OR IGNORE INTO positions(key, game) VALUES (?, ?)",
                     zip(stored(canon[order]), ids[order].tolist(), strict=True))
    result = np.array([r.result for _, r in games], dtype=np.int8)[ids - first]
    _add_counts(conn, canon, move, result, stored)


def _canonical(keys: list[int]) -> tuple[np.ndarray, np.ndarray, Callable[[np.ndarray], list]]:
    """The canonical keys of ``keys`` as ``int64`` in the keys' order, whether each is its
    mirror image's (so is its move), and how to turn them into SQLite's values.

    Up to 64 bits the ``int64`` is the key itself (SQLite's signed integers); on a larger
    board (a key does not fit numpy's integers) its rank among the batch's keys, turned
    back into :func:`~.store.sql_key`'s bytes when stored."""
    if not TWO_WORDS:
        raw = np.array(keys, dtype=np.uint64)
        mirrored = mirror_keys(raw)
        canon = np.minimum(raw, mirrored).view(np.int64)
        return canon, mirrored < raw, lambda a: a.tolist()
    mirrored_ints = [mirror_int(k) for k in keys]
    canon_ints = [min(k, m) for k, m in zip(keys, mirrored_ints, strict=True)]
    distinct = sorted(set(canon_ints))
    rank = {k: i for i, k in enumerate(distinct)}
    values = [sql_key(k) for k in distinct]
    flip = np.array([m < k for k, m in zip(keys, mirrored_ints, strict=True)], dtype=bool)
    canon = np.array([rank[k] for k in canon_ints], dtype=np.int64)
    return canon, flip, lambda a: [values[i] for i in a.tolist()]


def _add_counts(conn: sqlite3.Connection, canon: np.ndarray, move: np.ndarray,
                result: np.ndarray, stored: Callable[[np.ndarray], list]) -> None:
    """Add each (key, move)'s games and results to the ``moves`` table (summed in numpy:
    a batch of games is a million rows); ``stored`` turns ``canon`` into SQLite's keys."""
    order = np.lexsort((move, canon))
    canon, move, result = canon[order], move[order], result[order]
    new = np.ones(len(canon), dtype=bool)
    new[1:] = (canon[1:] != canon[:-1]) | (move[1:] != move[:-1])
    starts = np.flatnonzero(new)
    games = np.diff(np.append(starts, len(canon)))
    sums = [np.add.reduceat((result == code).astype(np.int64), starts)
            for code in (WHITE_WON, DRAW, BLACK_WON)]
    conn.executemany(
        "INSERT INTO moves(key, move, games, white, draws, black) VALUES (?,?,?,?,?,?) "
        "ON CONFLICT(key, move) DO UPDATE SET games = games + excluded.games, "
        "white = white + excluded.white, draws = draws + excluded.draws, "
        "black = black + excluded.black",
        zip(stored(canon[starts]), move[starts].tolist(), games.tolist(),
            *(c.tolist() for c in sums), strict=True))


def _walk(cols: Sequence[int], keys: list[int], moves: list[int]) -> int:
    """Append the key (``current + mask``) of every position of the game and the move
    played from it (:data:`ENDED` after the last); returns how many."""
    current = mask = 0
    for col in cols:
        keys.append(current + mask)
        moves.append(col)
        current ^= mask
        mask |= mask + _BOTTOM[col]
    keys.append(current + mask)
    moves.append(ENDED)
    return len(cols) + 1


def _digits(cols: Sequence[int]) -> str:
    return "".join(MOVE_CHARS[c] for c in cols)
