"""The games database and files that are not ours (issue 33): another program's SQLite
file, an empty file, text are refused in one line and left byte for byte as they were by
every ``db`` command and the app's explorer; the reading commands open read-only; a lock
or a full disk in the middle of an import is one line saying how many games were stored."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from c4tui.engine.board.position import Position
from pilot_util import screen_text, sync, until
from textual.app import App

from c4tui.app.screens.explorer import ExplorerLinks, ExplorerScreen
from c4tui.cli import main
from c4tui.db import connect, import_paths, store

LINES = "4545454\n4453\n4435\n43232323\n45656565\n453\n4352\n"
#: 600 different games (6 moves each): batches of 300 need new pages of the database
MANY = "".join("".join("1234567"[i // 7**k % 7] for k in range(6)) + "\n" for i in range(600))
COMMANDS = (["stats"], ["search", "4"], ["explore", "4", "--no-exact"], ["import"])


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(argv)
    out = capsys.readouterr()
    return info.value.code or 0, out.out, out.err


def _state(path: Path) -> tuple[str, list[str]]:
    """The file's bytes (a hash) and every file beside it (a -wal, -shm or -journal made
    would show)."""
    return (hashlib.sha256(path.read_bytes()).hexdigest(),
            sorted(p.name for p in path.parent.iterdir()))


def _sqlite(path: Path, *, wal: bool = False, meta: str = "") -> Path:
    """Another program's SQLite file: a table of its own, perhaps a ``meta`` table of
    another shape, in rollback (the default) or WAL mode; closed."""
    c = sqlite3.connect(path)
    if wal:
        c.execute("PRAGMA journal_mode=WAL")
    c.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT)")
    c.execute("INSERT INTO notes(text) VALUES ('keep me')")
    if meta:
        c.execute(meta)
    c.commit()
    c.close()
    return path


def _foreign_files(root: Path) -> list[Path]:
    made = []
    for name, make in [
        ("rollback.sqlite", lambda p: _sqlite(p)),
        ("wal.sqlite", lambda p: _sqlite(p, wal=True)),
        ("othermeta.sqlite", lambda p: _sqlite(p, meta="CREATE TABLE meta(key, value)")),
        ("samemeta.sqlite", lambda p: _sqlite(p, meta="CREATE TABLE meta(name TEXT, value "
                                                      "TEXT)")),
        ("empty.sqlite", lambda p: p.write_bytes(b"")),
        ("text.sqlite", lambda p: p.write_text("4453\n")),
    ]:
        folder = root / name.partition(".")[0]  # one folder each: sidecars are seen
        folder.mkdir()
        make(folder / name)
        made.append(folder / name)
    return made


def test_every_db_command_leaves_a_foreign_file_as_it_was(tmp_path, capsys):
    games = tmp_path / "games.txt"
    games.write_text(LINES)
    for path in _foreign_files(tmp_path):
        before = _state(path)
        for command in COMMANDS:
            argv = ["db", *command, *([str(games)] if command == ["import"] else []),
                    "--db", str(path)]
            code, out, err = _run(argv, capsys)
            assert (code, out) == (2, ""), (argv, err)
            assert err == f"c4tui: db: {path}: not a games database " + {
                "empty.sqlite": "(an empty file; ",
                "text.sqlite": "(not an SQLite file; ",
            }.get(path.name, "(an SQLite file without c4tui's tables; ") + (
                "left as it is: choose another file with --db FILE)\n"), argv
            assert _state(path) == before, argv  # byte for byte, and no file beside it


def test_the_reading_commands_never_write_our_database(tmp_path, capsys):
    """stats, search and explore open read-only: a games database in rollback mode stays
    in it (they switched it to WAL), and one in a read-only folder still reads."""
    db = tmp_path / "ro" / "g.sqlite"
    db.parent.mkdir()
    games = tmp_path / "games.txt"
    games.write_text(LINES)
    assert _run(["db", "import", str(games), "--db", str(db)], capsys)[0] == 0
    with sqlite3.connect(db) as c:
        c.execute("PRAGMA journal_mode=DELETE")  # as a copy made by another tool may be
    c.close()
    before = _state(db)
    for command, says in zip(COMMANDS[:3], ["games        7", "7 games through the empty",
                                           "7 games through the empty"], strict=True):
        code, out, err = _run(["db", *command[:1], "--db", str(db)], capsys)
        assert code == 0 and says in out and not err, (command, err)
        assert _state(db) == before, command


@sync
async def test_the_app_explorer_leaves_a_foreign_file_as_it_was(tmp_path):
    path = _sqlite(tmp_path / "foreign.sqlite")
    before = _state(path)
    pos = Position()
    links = ExplorerLinks(position=lambda: pos, exact=lambda _pos: None,
                          play=lambda col: None, back=lambda: None,
                          open_game=lambda game: None)
    app = App[None]()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.push_screen(ExplorerScreen(links, path))
        await until(pilot, lambda: "not a games database" in screen_text(app), "why")
        assert "no games database" in screen_text(app)
    assert _state(path) == before


def _between_batches(monkeypatch, after_first: Callable[[sqlite3.Connection], None],
                     batch: int = 3) -> None:
    """Batches of ``batch`` games, and ``after_first(conn)`` once the first is committed: what
    another process does in the middle of an import, at a known point (no sleeps)."""
    from c4tui.db import importer

    real = importer.add_games
    calls = []

    def add_games(conn, records):
        if len(calls) == 1:
            after_first(conn)
        calls.append(len(records))
        return real(conn, records)

    monkeypatch.setattr(importer, "BATCH", batch)
    monkeypatch.setattr(importer, "add_games", add_games)


def test_a_lock_in_the_middle_of_an_import_is_one_line(tmp_path, monkeypatch, capsys):
    db = tmp_path / "g.sqlite"
    games = tmp_path / "games.txt"
    games.write_text(LINES)
    holder: list[sqlite3.Connection] = []

    def lock(_conn: sqlite3.Connection) -> None:  # another process takes the database
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        holder.append(other)

    _between_batches(monkeypatch, lock)
    monkeypatch.setattr(store, "LOCK_SECONDS", 0.2)  # how long the import waits for it
    code, out, err = _run(["db", "import", str(games), "--db", str(db)], capsys)
    assert (code, out) == (1, "")
    assert err == (f"c4tui: db import: {db}: database is locked by another process; 3 new "
                   "games stored; run db import again to add the rest\n")
    holder[0].execute("ROLLBACK")
    holder[0].close()
    monkeypatch.undo()
    code, out, _ = _run(["db", "import", str(games), "--db", str(db)], capsys)
    assert code == 0 and "7 games read: 4 new, 3 already stored" in out


def _fill(conn: sqlite3.Connection) -> None:
    """The database may not grow by a page more (SQLITE_FULL, as a full disk gives)."""
    conn.execute(f"PRAGMA max_page_count={conn.execute('PRAGMA page_count').fetchone()[0]}")


def test_a_full_database_in_the_middle_of_an_import_is_one_line(tmp_path, monkeypatch,
                                                               capsys):
    """SQLite's page limit stands for a full disk (SQLITE_FULL, the same error)."""
    db = tmp_path / "g.sqlite"
    games = tmp_path / "games.txt"
    games.write_text(MANY)
    _between_batches(monkeypatch, _fill, batch=300)
    code, out, err = _run(["db", "import", str(games), "--db", str(db)], capsys)
    assert (code, out) == (1, "")
    assert err == (f"c4tui: db import: {db}: database or disk is full; 300 new games stored; "
                   "run db import again to add the rest\n")
    conn = connect(db, readonly=True)
    assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 300
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    monkeypatch.undo()  # room again: the rest comes in, the first 300 once
    code, out, _ = _run(["db", "import", str(games), "--db", str(db)], capsys)
    assert code == 0 and "600 games read: 300 new, 300 already stored" in out


def test_import_paths_stops_cleanly_and_keeps_the_report(tmp_path, monkeypatch):
    """The library's view: StoreFailed, and the report counts what was committed."""
    from c4tui.db import ImportReport, StoreFailed

    games = tmp_path / "games.txt"
    games.write_text(MANY)
    _between_batches(monkeypatch, _fill, batch=300)
    conn = connect(tmp_path / "g.sqlite", create=True)
    report = ImportReport()
    with pytest.raises(StoreFailed, match="^database or disk is full$"):
        import_paths(conn, [games], report=report)
    assert (report.read, report.added, report.committed) == (600, 300, 300)
    assert not conn.in_transaction


@pytest.fixture
def small_tmpfs(tmp_path):
    """A 3 MiB tmpfs (root only: skipped where it cannot be mounted)."""
    where = tmp_path / "small"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(where)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (not root?)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_full_disk_in_the_middle_of_an_import_is_one_line(tmp_path, small_tmpfs):
    source = tmp_path / "many.txt"
    digits = "1234567"
    with source.open("w") as f:  # 40,000 distinct games: more than 3 MiB of database
        for i in range(40_000):
            f.write("".join(digits[i // 7**k % 7] for k in range(6)) + "\n")
    db = small_tmpfs / "games.sqlite"
    cmd = [sys.executable, "-m", "c4tui", "db", "import", str(source), "--db", str(db)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    head, stored, tail = done.stderr.partition(" new games stored")
    assert head.startswith(f"c4tui: db import: {db}: database or disk is full; ")
    assert tail == "; run db import again to add the rest\n"
    conn = connect(db, readonly=True)
    kept = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    assert f"{kept:,}" == head.rpartition(" ")[2] and kept > 0
    # the disk is still full (the journal holds the rest): a database that cannot even be
    # made leaves no empty file behind (the next run would refuse it)
    done = subprocess.run(cmd[:-1] + [str(small_tmpfs / "other.sqlite")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "database or disk is full" in done.stderr
    assert not (small_tmpfs / "other.sqlite").exists()


def test_a_database_on_a_read_only_file_system_is_read(tmp_path, capsys):
    """A games database (WAL mode) on read-only media: SQLite cannot make the -shm a WAL
    reader needs, and nobody can write the file, so it is read as a plain file (it was
    'cannot open the games database')."""
    where = tmp_path / "media"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (not root?)")
    try:
        games = tmp_path / "games.txt"
        games.write_text(LINES)
        db = where / "g.sqlite"
        assert _run(["db", "import", str(games), "--db", str(db)], capsys)[0] == 0
        subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
        code, out, err = _run(["db", "stats", "--db", str(db)], capsys)
        assert (code, err) == (0, "") and "games        7" in out
        code, out, _ = _run(["db", "explore", "45", "--no-exact", "--db", str(db)], capsys)
        assert code == 0 and out.startswith("5 games through 45")
        code, _, err = _run(["db", "import", str(games), "--db", str(db)], capsys)
        assert code == 1 and err.count("\n") == 1 and "cannot open" in err
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_selfplay_and_match_go_on_when_the_database_is_locked(tmp_path, monkeypatch, capsys):
    """``--db`` of the commands that play: a game the database does not take is said
    once, in one line; the run goes on and stores again when it can (a traceback ended
    the run)."""
    from c4tui.cli.db import game_store

    db = tmp_path / "g.sqlite"
    monkeypatch.setattr(store, "LOCK_SECONDS", 0.1)
    keep = game_store(str(db), "c4tui selfplay")
    keep(Position.from_moves("4453"), "A", "B")
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process, between two games
    keep(Position.from_moves("4454"), "A", "B")
    keep(Position.from_moves("4455"), "A", "B")
    err = capsys.readouterr().err
    assert err == (f"c4tui: db: {db}: database is locked by another process; game 2 not "
                   "stored (the run goes on; later games are tried again)\n")
    other.execute("ROLLBACK")
    keep(Position.from_moves("4456"), "A", "B")
    other.close()
    conn = connect(db, readonly=True)
    assert [m for (m,) in conn.execute("SELECT moves FROM games ORDER BY id")] == ["4453",
                                                                                   "4456"]
