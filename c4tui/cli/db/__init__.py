"""``c4tui db``: the games database: import games, search them by position, the opening
explorer's table, the database's numbers (c4tui/db/, docs/user-guide.md)."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from c4tui.bounded import shown
from c4tui.units import plural

from ..errors import FAILURE, USAGE, bad_value, fail
from ..size import SIZE_OPTION, check_size
from .explore import exact_values, explore_json, explore_table

if TYPE_CHECKING:
    import sqlite3

    from c4tui.db import ImportReport
    from c4tui.engine.board.position import Position

db_app = typer.Typer(
    help="The games database: import games, search them by position, explore openings.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: How long ``explore`` lets the solver work on the moves' exact values (the books answer
#: the first 12 plies at once).
EXACT_SECONDS = 2.0

DB_OPTION = Annotated[
    Path | None,
    typer.Option("--db", metavar="FILE", show_default=False,
                 help="The database file (default, or 'default': games.sqlite in the user "
                 "data directory, ~/.local/share/c4tui on Linux)."),
]
MOVES_ARGUMENT = Annotated[
    list[str] | None,
    typer.Argument(help="The position: moves as digits (4453) or squares (d1 d2 e1 c1); "
                   "none or \"\": the empty board.", metavar="MOVES", show_default=False),
]
JSON_OPTION = Annotated[bool, typer.Option("--json", help="One JSON object per line.")]


@db_app.callback()
def _db_options(size: SIZE_OPTION = None) -> None:
    """The games database: import games, search them by position, explore openings."""
    check_size(size, "db")


def _chosen(path: Path | None) -> Path | None:
    """``--db``'s file; None for the default one (left out, or ``default`` as selfplay and
    match take it)."""
    return None if path is None or str(path) == "default" else path


def _open(path: Path | None, create: bool = False) -> sqlite3.Connection:
    """The database: read-only for the commands that only read it (``create`` False), so
    ``stats``, ``search`` and ``explore`` never write to a file, nor switch its journal;
    a file that is not a games database is refused unchanged, exit 2."""
    from c4tui.db import DatabaseError, NotGamesDatabase, connect

    path = _chosen(path)
    try:
        return connect(path, create=create, readonly=not create)
    except NotGamesDatabase as exc:
        fail(f"db: {exc}", USAGE)
    except DatabaseError as exc:
        missing = path is not None and not create and not path.exists()
        fail(f"db: {exc}", USAGE if missing else FAILURE)


def _position(moves: list[str] | None, command: str) -> Position:
    from c4tui.engine.board.position import IllegalMoveError, Position

    try:
        return Position.parse(" ".join(moves or []))
    except IllegalMoveError as exc:
        fail(f"db {command}: {exc}")


@db_app.command("import")
def import_games(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Game files (.c4g, files of digit or square lines) and "
                       "directories (their .c4g and .txt files).", metavar="FILES|DIR",
                       show_default=False),
    ],
    db: DB_OPTION = None,
) -> None:
    """Import games into the database; a game stored already is not stored again."""
    from c4tui.db import ImportFailed, ImportReport, StoreFailed, default_path, import_paths

    conn = _open(db, create=True)
    where = (_chosen(db) or default_path()).expanduser()
    report = ImportReport()
    t0 = time.perf_counter()
    tty = sys.stderr.isatty()

    def progress(r: ImportReport) -> None:
        if tty:
            print(f"\r{r.read:,} games read, {r.added:,} new", end="", file=sys.stderr,
                  flush=True)

    try:
        import_paths(conn, paths, progress, report)
    except ImportFailed as exc:
        fail(f"db import: {exc}")
    except StoreFailed as exc:  # locked, full disk: the batches before are kept
        _import_summary(report, time.perf_counter() - t0, tty, stopped=True)
        known = report.committed - report.added
        fail(f"db import: {where}: {exc}; {report.added:,} new games stored"
             + (f", {known:,} were stored already" if known else "")
             + "; run db import again to add the rest", FAILURE)
    except KeyboardInterrupt:
        _import_summary(report, time.perf_counter() - t0, tty, interrupted=True)
        raise SystemExit(130) from None
    finally:
        conn.close()
    _import_summary(report, time.perf_counter() - t0, tty)
    if report.bad and not report.read:
        raise SystemExit(FAILURE)


def _import_summary(report: ImportReport, seconds: float, tty: bool,
                    interrupted: bool = False, stopped: bool = False) -> None:
    if tty:
        print(file=sys.stderr)
    for line in report.errors:
        print(f"c4tui: {line}", file=sys.stderr)
    if report.bad > len(report.errors):
        print(f"c4tui: ... and {report.bad - len(report.errors):,} more bad games",
              file=sys.stderr)
    if stopped:  # the caller says why, in one line
        return
    if interrupted:
        print(f"c4tui: db import: interrupted; {report.added:,} new games stored (run it "
              "again for the rest: stored games are not stored twice)", file=sys.stderr)
        return
    rate = report.read / seconds if seconds > 0 else 0.0
    typer.echo(f"{plural(report.files, 'file')}, {plural(report.read, 'game')} read: "
               f"{report.added:,} new, "
               f"{report.read - report.added:,} already stored, {report.bad:,} bad "
               f"skipped ({seconds:.1f} s, {rate:,.0f} games/s)")


@db_app.command("search")
def search(
    moves: MOVES_ARGUMENT = None,
    limit: Annotated[int, typer.Option("--limit", help="List at most N games.")] = 50,
    as_json: JSON_OPTION = False,
    db: DB_OPTION = None,
) -> None:
    """The games through a position (or its mirror image), oldest stored first."""
    from c4tui.db import explore, games_through

    pos = _position(moves, "search")
    if limit < 1:
        bad_value("--limit", limit, "expected at least 1")
    conn = _open(db)
    total = explore(conn, pos).total.games
    found = games_through(conn, pos, min(limit, total))  # 10**20 means all (SQLite: 64 bits)
    for g in found:
        if as_json:
            typer.echo(json.dumps({"id": g.id, "moves": g.moves, "result": g.result_token,
                                   "white": g.headers.get("White", "?"),
                                   "black": g.headers.get("Black", "?"),
                                   "source": g.source}))
        else:
            # the headers and the source are the database's rows: text from game files
            white, black = (shown(g.headers.get(side, "?")) for side in ("White", "Black"))
            typer.echo(f"{g.id:>8}  {g.result_token:<7}  {white} - {black}  {shown(g.moves)}  "
                       f"({shown(g.source)})")
    if not as_json:
        more = f" ({len(found)} listed: --limit)" if total > len(found) else ""
        typer.echo(f"{plural(total, 'game')} through {pos.digits() or 'the empty board'}"
                   f"{more}")


@db_app.command("explore")
def explore_command(
    moves: MOVES_ARGUMENT = None,
    as_json: JSON_OPTION = False,
    exact: Annotated[
        bool, typer.Option("--exact/--no-exact",
                           help=f"The moves' exact values: the books, else the solver for "
                           f"at most {EXACT_SECONDS:g} s.")
    ] = True,
    db: DB_OPTION = None,
) -> None:
    """The opening explorer: each move played here, its games and results, its exact value."""
    from c4tui.db import explore

    pos = _position(moves, "explore")
    conn = _open(db)
    stats = explore(conn, pos)
    values = exact_values(pos, EXACT_SECONDS) if exact and not pos.is_over and stats.moves \
        else None
    if as_json:
        explore_json(stats, values)
    else:
        explore_table(pos, stats, values)


@db_app.command("stats")
def stats_command(db: DB_OPTION = None) -> None:
    """The database's games, results and positions."""
    from c4tui.db import default_path, summary

    path = (_chosen(db) or default_path()).expanduser()
    conn = _open(db)
    s = summary(conn)
    r = s.results
    typer.echo(f"database     {shown(str(path))}")
    typer.echo(f"games        {s.games:,}")
    typer.echo(f"results      White {r.white:,}, draws {r.draws:,}, Black {r.black:,}, "
               f"unfinished {s.games - r.white - r.draws - r.black:,}")
    typer.echo(f"moves        {s.mean_length:.1f} per game on average, {s.longest} at most")
    typer.echo(f"positions    {s.positions:,} indexed, {s.distinct:,} different "
               "(mirror images counted once)")


def game_store(where: str, event: str) -> Callable[..., None]:
    """``--db FILE`` of the commands that play games (``default``: the user data
    directory's database): a function ``store(pos, white, black, round=None,
    result=None, extra=None)`` that stores a game as it ends (its own transaction: a run
    stopped early keeps the games played), with the headers ``Event``, ``Date``, ``Round``
    (given, or 1, 2, ... in this run), ``White``, ``Black`` and ``extra``; ``result``
    (``1-0``, ``0-1``, ``1/2-1/2``) for a game decided off the board (adjudicated).

    A game the database does not take (another process locks it, the disk is full) is
    said once, in one line, and the run goes on: the games are the run's, not the
    database's."""
    import datetime
    import sqlite3

    from c4tui.db import GameRecord, add_games
    from c4tui.db.store import RESULT_TOKENS, default_path, why

    conn = _open(Path(where), create=True)
    path = (_chosen(Path(where)) or default_path()).expanduser()  # (for its messages)
    date = datetime.date.today().strftime("%Y.%m.%d")
    played = 0
    refused = 0

    def store(pos: Position, white: str, black: str, round: int | None = None,
              result: str | None = None, extra: dict[str, str] | None = None) -> None:
        nonlocal played, refused
        played += 1
        headers = {"Event": event, "Date": date, "Round": str(round or played),
                   "White": white, "Black": black, **(extra or {})}
        record = GameRecord.from_position(pos, headers, event)
        if result is not None and result in RESULT_TOKENS:
            record = dataclasses.replace(record, result=RESULT_TOKENS.index(result))
        try:
            add_games(conn, [record])
        except sqlite3.Error as exc:  # its transaction rolled back: the database intact
            refused += 1
            if refused == 1:
                print(f"c4tui: db: {shown(str(path))}: {why(exc)}; game {played} not "
                      "stored (the run goes on; later games are tried again)",
                      file=sys.stderr, flush=True)

    return store


def register(app: typer.Typer) -> None:
    """Add the ``db`` command group to the CLI."""
    app.add_typer(db_app, name="db")
