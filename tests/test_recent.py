"""The recent-files store, the games list and ``c4tui games`` (no app)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from c4tui.engine.board.position import Position

from c4tui import gamefile, gamelist, recent
from c4tui.gamefile import Game, save_game

pytestmark = pytest.mark.usefixtures("tmp_home")


# ---------------------------------------------------------------------------- recent files
def test_store_is_in_the_test_state_directory(tmp_path):
    # conftest points XDG_STATE_HOME at a temporary directory: never the user's
    state = Path(os.environ["XDG_STATE_HOME"])
    assert recent.store_path() == state / "c4tui" / "recent.json"
    assert Path.home() == tmp_path / "home"


def test_add_keeps_the_last_ten_newest_first(tmp_path):
    assert recent.load_recent() == recent.RecentFiles()  # no store yet: empty, no warning
    for i in range(12):
        got = recent.add_recent(tmp_path / f"g{i}.c4g")
        assert got.warning is None
    recent.add_recent(tmp_path / "g5.c4g")  # again: moves to the front, not listed twice
    files = recent.load_recent().files
    assert files[:3] == [tmp_path / "g5.c4g", tmp_path / "g11.c4g", tmp_path / "g10.c4g"]
    assert len(files) == recent.MAX_RECENT and len(set(files)) == recent.MAX_RECENT
    assert tmp_path / "g1.c4g" not in files
    store = recent.store_path()
    assert sorted(p.name for p in store.parent.iterdir()) == ["recent.json"]  # no temp file


def test_relative_paths_are_stored_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    recent.add_recent(Path("x.c4g"))
    assert recent.load_recent().files == [tmp_path / "x.c4g"]


@pytest.mark.parametrize("content", [
    b"not json at all",
    b"\xff\xfe binary",
    b'{"version": 1, "files": "x"}',
    b'{"version": 1, "files": [1, 2]}',
    b'{"version": 99, "files": []}',
    b"[" * 100_000,
    b"[]",
])
def test_corrupt_store_is_ignored_with_one_warning(content):
    store = recent.store_path()
    store.parent.mkdir(parents=True)
    store.write_bytes(content)
    got = recent.load_recent()
    assert got.files == [] and got.warning is not None
    assert "\n" not in got.warning and str(store) in got.warning
    # adding starts a new list over the corrupt one, and says once that it did
    added = recent.add_recent(Path("/games/a.c4g"))
    assert added.files == [Path("/games/a.c4g")] and added.warning == got.warning
    assert recent.load_recent() == recent.RecentFiles([Path("/games/a.c4g")])


def test_unreadable_and_unwritable_store_only_warn(tmp_path, monkeypatch):
    store = tmp_path / "state" / "recent.json"
    store.mkdir(parents=True)  # a directory where the file should be
    got = recent.load_recent(store)
    assert got.files == [] and "cannot read" in got.warning
    added = recent.add_recent(tmp_path / "a.c4g", store)
    assert added.files == [tmp_path / "a.c4g"] and "cannot write" in added.warning
    assert "\n" not in added.warning


def test_store_entries_that_are_not_absolute_paths_are_dropped(tmp_path):
    store = tmp_path / "recent.json"
    store.write_text(json.dumps({"version": 1, "files": ["rel.c4g", "/a.c4g", "/a.c4g"]}))
    assert recent.load_recent(store) == recent.RecentFiles([Path("/a.c4g")])


# ---------------------------------------------------------------------------- games list
def _games(tmp_path: Path) -> Path:
    d = gamefile.data_dir()
    save_game(d / "old.c4g", Game(Position.from_moves("4455667"), {"White": "Ann",
                                                                    "Black": "Bob"}))
    save_game(d / "sub" / "mid.txt", Position.from_moves("4453"))
    (d / "broken.c4g").write_text("1. d1 d9\n")
    (d / "notes.md").write_text("not a game")
    (d / ".hidden.c4g").write_text("4\n")
    for age, name in enumerate(["broken.c4g", "sub/mid.txt", "old.c4g"]):
        t = 1_700_000_000 - age * 3600
        os.utime(d / name, (t, t))
    return d


def test_games_newest_first_with_headers_and_errors(tmp_path):
    d = _games(tmp_path)
    entries = gamelist.list_games()
    assert [e.name for e in entries] == ["broken.c4g", "sub/mid.txt", "old.c4g"]
    broken, mid, old = entries
    assert broken.moves is None and "line 1: move 2 'd9'" in broken.error
    assert broken.cells()[4] == "unreadable"
    assert mid.cells()[2:] == ("?", "?", "*", "4")
    assert old.cells()[2:] == ("Ann", "Bob", "1-0", "7") and old.path == d / "old.c4g"
    assert gamelist.list_games(tmp_path / "nowhere") == []


def _cli(argv: list[str]) -> int:
    from c4tui.cli import main

    with pytest.raises(SystemExit) as info:
        main(argv)
    return info.value.code


def test_games_command(tmp_path, capsys):
    _games(tmp_path)
    assert _cli(["games"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split() == ["file", "modified", "White", "Black", "result", "moves"]
    assert [line.split()[0] for line in lines[1:]] == ["broken.c4g", "sub/mid.txt", "old.c4g"]
    assert lines[3].split()[-4:] == ["Ann", "Bob", "1-0", "7"]
    assert "broken.c4g: line 1" in err and err.count("\n") == 1
    assert _cli(["games", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    (tmp_path / "empty").mkdir()
    assert _cli(["games", str(tmp_path / "empty")]) == 0
    assert capsys.readouterr().out.startswith("no games in")
