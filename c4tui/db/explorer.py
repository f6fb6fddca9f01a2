"""The opening explorer's questions: what was played in a position and how did it go, and
which games went through it.

A position and its mirror image share a canonical key (``c4tui.book.keys``), so their
games are counted together; the moves are turned back to the asked position's columns.
In a symmetric position (its own mirror image, e.g. the empty board) a column and its
mirror lead to the same position: they are one row, under the lower column (``twin``
names the other).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from c4tui.book.keys import mirror_key
from c4tui.engine.board.geometry import WIDTH
from c4tui.engine.board.position import Position

from .store import ENDED, StoredGame, load_game_row, sql_key


@dataclass(frozen=True)
class Counts:
    """Games and how they ended (those neither won nor drawn are unfinished)."""

    games: int = 0
    white: int = 0
    draws: int = 0
    black: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.games + other.games, self.white + other.white,
                      self.draws + other.draws, self.black + other.black)

    def percent(self, part: int) -> float:
        """``part`` as a percentage of the games (0 without games)."""
        return 100.0 * part / self.games if self.games else 0.0


@dataclass(frozen=True)
class MoveStats(Counts):
    """A move played in the position: its column (0-based) and the games that played it."""

    col: int = 0
    twin: int | None = None  #: the mirror column of a symmetric position, the same move


@dataclass(frozen=True)
class PositionStats:
    """The games through a position: the moves played next (most played first) and the
    games that ended there."""

    total: Counts
    moves: list[MoveStats] = field(default_factory=list)
    ended: Counts = Counts()


def explore(conn: sqlite3.Connection, pos: Position) -> PositionStats:
    """What the database's games played in ``pos``, and how they ended: one indexed
    lookup of at most ``WIDTH + 1`` rows, whatever the number of games."""
    key = pos.current + pos.mask
    mirrored = mirror_key(key)
    flip, symmetric = mirrored < key, mirrored == key
    rows = conn.execute("SELECT move, games, white, draws, black FROM moves WHERE key = ?",
                        (sql_key(min(key, mirrored)),)).fetchall()
    ended = Counts()
    by_col: dict[int, MoveStats] = {}
    for move, *numbers in rows:
        if not _sane(move, numbers):  # a row no import wrote (another tool's change)
            continue
        counts = Counts(*numbers)
        if move == ENDED:
            ended = counts
            continue
        col = WIDTH - 1 - move if flip else move
        twin = None
        if symmetric and col != WIDTH - 1 - col:
            col, twin = min(col, WIDTH - 1 - col), max(col, WIDTH - 1 - col)
        old = by_col.get(col, Counts())
        both = old + counts
        by_col[col] = MoveStats(both.games, both.white, both.draws, both.black, col, twin)
    moves = sorted(by_col.values(), key=lambda m: (-m.games, m.col))
    total = ended
    for m in moves:
        total = total + m
    return PositionStats(Counts(total.games, total.white, total.draws, total.black),
                         moves, ended)


def _sane(move: object, numbers: list[object]) -> bool:
    """Whether a ``moves`` row is one an import writes: a move of the board (or
    :data:`~.store.ENDED`) and counts that are whole numbers, none negative, the results
    within the games."""
    if not (type(move) is int and ENDED <= move < WIDTH):
        return False
    if not all(type(n) is int and 0 <= n < 1 << 62 for n in numbers):
        return False
    games, white, draws, black = numbers  # (all ints now)
    assert isinstance(games, int) and isinstance(white, int)
    assert isinstance(draws, int) and isinstance(black, int)
    return white + draws + black <= games


def games_through(conn: sqlite3.Connection, pos: Position, limit: int = 50,
                  offset: int = 0) -> list[StoredGame]:
    """The games through ``pos`` or its mirror image, oldest stored first."""
    key = pos.current + pos.mask
    canon = sql_key(min(key, mirror_key(key)))
    ids = [g for (g,) in conn.execute(
        "SELECT game FROM positions WHERE key = ? ORDER BY game LIMIT ? OFFSET ?",
        (canon, limit, offset))]
    return [g for g in (load_game_row(conn, i) for i in ids) if g is not None]


@dataclass(frozen=True)
class Summary:
    """``c4tui db stats``: the database's games and positions."""

    games: int
    results: Counts
    positions: int  #: positions indexed (one per game and position)
    distinct: int  #: different positions (a mirror pair counts once)
    longest: int
    mean_length: float


def summary(conn: sqlite3.Connection) -> Summary:
    """The database's games, results and positions (scans every table: a second or two
    for a million games)."""
    by_result = dict(conn.execute("SELECT result, count(*) FROM games GROUP BY result"))
    games = sum(by_result.values())
    longest, mean = conn.execute(
        "SELECT coalesce(max(length(moves)), 0), coalesce(avg(length(moves)), 0) FROM games"
    ).fetchone()
    positions = conn.execute("SELECT count(*) FROM positions").fetchone()[0]
    distinct = conn.execute("SELECT count(DISTINCT key) FROM moves").fetchone()[0]
    results = Counts(games, by_result.get(0, 0), by_result.get(1, 0), by_result.get(2, 0))
    return Summary(games, results, positions, distinct, longest, float(mean))
