"""The games database (c4tui/db/, ``c4tui db``): import, identity, mirror images, search,
the explorer's numbers, a killed import, hostile files, an unusable data directory."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from c4tui.engine.board.position import Position
from waiting import wait_until

from c4tui.cli import main
from c4tui.db import connect, explore, games_through, import_paths
from c4tui.db.writer import BATCH

GAME = """# c4tui game file
[Event "Club"]
[Date "2026.11.20"]
[White "Ann"]
[Black "Bob"]

1. d1 d2 2. e1 (2. c1 c2) 2... c1 3. f1 f2 4. b1 *
"""
# A hand-made set. Through 45 (or its mirror image 43): 4545454 (then 4, White won),
# 45656565 and 43232323 (then 6, Black won), 453 and 4352 (then 3, unfinished). 4453 and its mirror
# image 4435 go through 445 = 443 mirrored.
LINES = """# hand-made games
4545454
4453
4435
43232323
45656565
453
4352
"""


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(argv)
    out = capsys.readouterr()
    return info.value.code or 0, out.out, out.err


@pytest.fixture
def games_dir(tmp_path: Path) -> Path:
    d = tmp_path / "games"
    d.mkdir()
    (d / "club.c4g").write_text(GAME)
    (d / "lines.txt").write_text(LINES)
    return d


def test_import_is_idempotent(games_dir, tmp_path, capsys):
    db = tmp_path / "g.sqlite"
    code, out, err = _run(["db", "import", str(games_dir), "--db", str(db)], capsys)
    assert code == 0 and err == ""
    assert "8 games read: 8 new, 0 already stored, 0 bad" in out
    code, out, _ = _run(["db", "import", str(games_dir), str(games_dir / "club.c4g"),
                         "--db", str(db)], capsys)
    assert code == 0 and "9 games read: 0 new, 9 already stored" in out
    # the same moves with other identity headers are another game; a comment or a
    # variation changes nothing (the main line and the headers are the identity)
    (tmp_path / "round2.c4g").write_text(GAME.replace('"Club"', '"Club 2"'))
    (tmp_path / "noted.c4g").write_text(GAME.replace("d2 2. e1", "d2 {hm} 2. e1"))
    code, out, _ = _run(["db", "import", str(tmp_path / "round2.c4g"),
                         str(tmp_path / "noted.c4g"), "--db", str(db)], capsys)
    assert "2 games read: 1 new, 1 already stored" in out
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 9
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_mirror_positions_together(games_dir, tmp_path):
    conn = connect(tmp_path / "g.sqlite", create=True)
    import_paths(conn, [games_dir])
    # 4453 and its mirror image 4435 (and the club game, d1 d2 e1 ...): 445 and 443 are one
    for moves in ("445", "443"):
        assert explore(conn, Position.parse(moves)).total.games == 3
        assert {g.moves for g in games_through(conn, Position.parse(moves))} == {
            "4453662", "4453", "4435"}
    # the moves come back in the asked position's own columns: from 45, 453 and 4352
    # (mirrored) both played 3, 45656565 and 43232323 (mirrored) 6; from 43, 5 and 2
    assert [(m.col + 1, m.games) for m in explore(conn, Position.parse("45")).moves] == [
        (3, 2), (6, 2), (4, 1)]
    assert [(m.col + 1, m.games) for m in explore(conn, Position.parse("43")).moves] == [
        (2, 2), (5, 2), (4, 1)]


def test_symmetric_position_folds_mirror_moves(tmp_path):
    source = tmp_path / "sym.txt"
    source.write_text("1\n7\n71\n3\n")  # (7 twice would be one game)
    conn = connect(tmp_path / "g.sqlite", create=True)
    import_paths(conn, [source])
    rows = explore(conn, Position()).moves
    assert [(m.col + 1, m.twin and m.twin + 1, m.games) for m in rows] == [(1, 7, 3), (3, 5, 1)]
    assert explore(conn, Position.parse("7")).total.games == 3


def test_search_lists_the_games_through_a_position(games_dir, tmp_path, capsys):
    db = tmp_path / "g.sqlite"
    _run(["db", "import", str(games_dir), "--db", str(db)], capsys)
    code, out, _ = _run(["db", "search", "d1", "d2", "e1", "--db", str(db)], capsys)
    assert code == 0
    lines = out.splitlines()
    assert any("Ann - Bob" in line and "4453662" in line for line in lines)
    assert any("4435" in line for line in lines)  # the mirror image's game
    assert lines[-1] == "3 games through 445"
    code, out, _ = _run(["db", "search", "4", "--json", "--limit", "2", "--db", str(db)],
                        capsys)
    assert [json.loads(line)["id"] for line in out.splitlines()] == [1, 2]
    # an absurd limit lists them all (SQLite's integers are 64 bits); none is one line
    code, out, err = _run(["db", "search", "445", "--limit", str(10**20), "--db", str(db)],
                          capsys)
    assert (code, out.splitlines()[-1], err) == (0, "3 games through 445", "")
    code, out, err = _run(["db", "search", "445", "--limit", "0", "--db", str(db)], capsys)
    assert (code, err) == (2, "c4tui: --limit 0: expected at least 1\n")


def test_explore_json_numbers(games_dir, tmp_path, capsys):
    db = tmp_path / "g.sqlite"
    _run(["db", "import", str(games_dir / "lines.txt"), "--db", str(db)], capsys)
    code, out, err = _run(["db", "explore", "45", "--json", "--db", str(db)], capsys)
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [{k: r[k] for k in ("move", "games", "white", "draws", "black")} for r in rows] == [
        {"move": 3, "games": 2, "white": 0, "draws": 0, "black": 0},
        {"move": 6, "games": 2, "white": 0, "draws": 0, "black": 2},
        {"move": 4, "games": 1, "white": 1, "draws": 0, "black": 0},
    ]
    # the exact values (the opening book's; c4tui solve --analyze 45: 1 2 -2 0 0 -3 -3)
    assert {r["move"]: r["exact"] for r in rows} == {3: -2, 4: 0, 6: -3}
    code, out, _ = _run(["db", "explore", "45", "--no-exact", "--db", str(db)], capsys)
    assert out.splitlines()[0] == "5 games through 45: White 20% draw 0% Black 40%"
    # the empty board is symmetric: 3 and 5 are one row
    code, out, _ = _run(["db", "explore", "--json", "--no-exact", "--db", str(db)], capsys)
    assert [(r["move"], r.get("mirror"), r["games"]) for r in map(json.loads, out.split("\n")[:-1])
            ] == [(4, None, 7)]


def test_killed_import_loses_nothing_committed(tmp_path):
    source = tmp_path / "many.txt"
    digits = "1234567"
    with source.open("w") as f:  # distinct games of 6 moves (none over): 4 batches and a bit
        for i in range(4 * BATCH + 123):
            f.write("".join(digits[i // 7**k % 7] for k in range(6)) + "\n")
    db = tmp_path / "g.sqlite"
    total = 4 * BATCH + 123
    cmd = [sys.executable, "-m", "c4tui", "db", "import", str(source), "--db", str(db)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def committed() -> int:
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
                return c.execute("SELECT count(*) FROM games").fetchone()[0]
        except sqlite3.OperationalError:  # not made yet
            return 0

    wait_until(lambda: committed() >= BATCH, 120, "a first batch committed", proc=proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = committed()
    assert kept % BATCH == 0 and 0 < kept < total  # whole batches, nothing half-stored
    with sqlite3.connect(db) as c:
        assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{total - kept:,} new, {kept:,} already stored" in done.stdout
    conn = connect(db)
    assert explore(conn, Position()).total.games == total  # every game's counts, once


def test_hostile_files(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    endless = tmp_path / "endless.txt"
    endless.write_bytes(b"4" * (20 << 20))
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"44\0\1\2")
    huge = tmp_path / "huge.c4g"
    huge.write_text('[Event "x"]\n\n' + "{" + "x" * (2 << 20) + "} 4\n")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"4453\n4444444 4\n9\n\xff\nd1 d3\n4455\n")
    code, out, err = _run(["db", "import", str(fifo), "/dev/zero", str(endless), str(binary),
                           str(huge), str(bad), "--db", str(tmp_path / "g.sqlite")], capsys)
    assert code == 0
    assert "6 files, 2 games read: 2 new, 0 already stored, 9 bad skipped" in out
    lines = err.splitlines()
    assert len(lines) == 9 and all(line.startswith("c4tui: ") for line in lines)
    assert f"c4tui: {fifo}: not a regular file" in lines
    assert "c4tui: /dev/zero: not a regular file" in lines
    assert f"c4tui: {endless}:1: longer than 4096 characters, not a game" in lines
    assert f"c4tui: {binary}: binary data, not games" in lines
    assert any(line.startswith(f"c4tui: {huge}: too large") for line in lines)
    assert any(line.startswith(f"c4tui: {bad}:2: ") for line in lines)
    assert f"c4tui: {bad}:3: character 1 '9': not a column (expected 1-7)" in lines
    assert any(line.startswith(f"c4tui: {bad}:5: move 2 'd3'") for line in lines)
    code, _, err = _run(["db", "import", str(tmp_path / "missing"), "--db",
                         str(tmp_path / "g.sqlite")], capsys)
    assert code == 2
    assert err == f"c4tui: db import: {tmp_path / 'missing'}: no such file or directory\n"


def test_unusable_data_directory(tmp_path, monkeypatch, capsys, games_dir):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))  # the data directory cannot be made
    code, _, err = _run(["db", "import", str(games_dir)], capsys)
    assert code != 0 and err.count("\n") == 1
    assert err.startswith(f"c4tui: db: {blocker}/c4tui/games.sqlite: cannot open the games "
                          "database (")
    assert "--db FILE" in err
    code, _, err = _run(["db", "explore", "4", "--db", str(tmp_path / "none.sqlite")], capsys)
    assert code != 0 and "no games database" in err and err.count("\n") == 1
    code, out, _ = _run(["db", "import", str(games_dir), "--db", str(tmp_path / "ok.sqlite")],
                        capsys)
    assert code == 0 and "8 new" in out


def test_selfplay_stores_its_games(tmp_path, capsys):
    db = tmp_path / "g.sqlite"
    code, out, _ = _run(["selfplay", "--openings", "1", "--nodes", "1k", "--db", str(db)],
                        capsys)
    assert code == 0 and "2 games" in out
    conn = connect(db)
    games = games_through(conn, Position())
    assert len(games) == 2
    assert {g.headers["White"] for g in games} == {"candidate [defaults]",
                                                    "baseline [no-quiescence]"}
    assert all(g.headers["Event"] == "c4tui selfplay" and g.result_token != "*"
               for g in games)
    assert explore(conn, Position()).total.games == 2


def test_match_stores_its_games(tmp_path, capsys):
    db = tmp_path / "g.sqlite"
    code, _, err = _run(["match", "--games", "2", "--nodes", "1k", "--db", str(db)], capsys)
    assert code == 0, err
    games = games_through(connect(db), Position())
    assert [g.headers["Round"] for g in games] == ["1", "2"]
    assert all(g.headers["Event"] == "c4tui match" and g.result_token != "*"  # adjudicated
               and g.headers["White"].endswith(("(A)", "(B)")) for g in games)


def test_a_match_record_keeps_its_adjudicated_result(tmp_path, capsys):
    # c4tui match writes Result "*" for a game the solver ended (the file's result must
    # agree with the board) and the result in Termination: the database takes that one
    game = GAME.replace('[Black "Bob"]', '[Black "Bob"]\n[Termination "adjudicated: '
                        '1/2-1/2 (exact solver, 12 empty squares: a draw)"]')
    (tmp_path / "adjudicated.c4g").write_text(game)
    (tmp_path / "claimed.c4g").write_text(GAME.replace('"Club"', '"Other"').replace(
        '[Black "Bob"]', '[Black "Bob"]\n[Termination "normal"]'))
    db = tmp_path / "g.sqlite"
    code, _, _ = _run(["db", "import", str(tmp_path), "--db", str(db)], capsys)
    assert code == 0
    code, out, _ = _run(["db", "stats", "--db", str(db)], capsys)
    assert "White 0, draws 1, Black 0, unfinished 1" in out, out


def test_db_default_names_the_default_database_as_selfplay_and_match_take_it(
        games_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)  # (a file named "default" here would be the old reading)
    code, _, _ = _run(["db", "import", str(games_dir), "--db", "default"], capsys)
    assert code == 0 and not (tmp_path / "default").exists()
    code, out, _ = _run(["db", "stats"], capsys)
    assert code == 0 and f"{tmp_path}/data/c4tui/games.sqlite" in out and "games        8" in out
