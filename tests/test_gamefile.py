"""Game files: the three formats, clear one-line errors, atomic saves, the data directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from c4tui.engine.board.position import Position

from c4tui import atomicfile, gamefile
from c4tui.gamefile import Game, GameFileError, load_game, parse_game, save_game


@pytest.fixture(autouse=True)
def _tmp_home(tmp_path, monkeypatch):
    """Never touch the real data directory."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


@pytest.mark.parametrize(
    "text, digits",
    [
        ("4453", "4453"),
        ("  4453\n", "4453"),
        ("d1 d2 e1 c1", "4453"),
        ("1. d1 d2 2. e1 c1", "4453"),
        ("1. d1 d2\n2. e1 c1 *\n", "4453"),
        ("", ""),
        ('[Event "x"]\n\n*', ""),
        ("# comment\n; another\n4453", "4453"),
    ],
)
def test_parse_formats(text, digits):
    assert parse_game(text).position.digits() == digits


def test_round_trip_keeps_headers_and_result(tmp_path):
    pos = Position.from_moves("4455667")  # White wins on the bottom row
    game = Game(pos, {"White": 'Ann "the" Player', "Event": "Club"})
    path = save_game(tmp_path / "g.c4g", game)
    text = path.read_text()
    assert '[Result "1-0"]' in text and text.rstrip().endswith("1-0")
    back = load_game(path)
    assert back.position == pos and back.position.winner == 0
    assert back.headers["White"] == 'Ann "the" Player'
    assert back.headers["Event"] == "Club"


def test_long_game_wraps_and_round_trips(tmp_path):
    digits = "444444333333555555"
    pos = Position.from_moves(digits)
    path = save_game(tmp_path / "long.c4g", pos)
    assert all(len(line) <= 80 for line in path.read_text().splitlines())
    assert load_game(path).position.digits() == digits


@pytest.mark.parametrize(
    "suffix, fmt, expected",
    [(".txt", None, "4453\n"), (".moves", "algebraic", "d1 d2 e1 c1\n")],
)
def test_save_plain_formats(tmp_path, suffix, fmt, expected):
    path = save_game(tmp_path / f"m{suffix}", Position.from_moves("4453"), fmt=fmt)
    assert path.read_text() == expected
    assert load_game(path).position.digits() == "4453"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("4458", "line 1: character 4 '8': not a column"),
        ("1. d1 d2\n2. e1 d7", "line 2: move 4 'd7': not a square"),
        ("d1 e2", "move 2 'e2': a disc in column e lands on e1"),
        ("4444444", "move 7 (d): column d is full"),
        ("4455667 1", "the game is over"),
        ('[Event "x"\n4453', "line 1: bad header"),
        ('4453\n[Event "x"]', "line 2: header after the moves"),
        ('[Result "0-1"]\n4455667', "Result header '0-1' does not match the moves"),
        ("4453 1-0", "result '1-0' does not match the moves (they give '*')"),
        ("44 * 53", "line 1: result '*' before the end of the moves"),
        ('[Result "foo"]\n4453', "Result header 'foo' is not a result"),
        ("44\n44\n444", "line 3: move 7 (d): column d is full"),
        ("1. d1 d2\n2. e1 c1\n3. d3 e2 4. d2", "line 3: move 7 'd2': a disc in column d lands"),
        ("1. d1, d2\n\n2. x9", "line 3: move 3 'x9': not a square"),
    ],
)
def test_bad_text_gives_one_line_error(text, fragment):
    with pytest.raises(GameFileError) as info:
        parse_game(text, "bad.c4g")
    msg = str(info.value)
    assert msg.startswith("bad.c4g: ") and fragment in msg, msg
    assert "\n" not in msg


def test_bad_files(tmp_path):
    cases = {
        "missing.c4g": None,
        "binary.c4g": b"\x00\x01\x02garbage",
        "latin1.c4g": "d1 d2 \xe9".encode("latin-1"),
    }
    for name, data in cases.items():
        if data is not None:
            (tmp_path / name).write_bytes(data)
    for name, expected in (
        ("missing.c4g", "no such file"),
        ("binary.c4g", "binary data"),
        ("latin1.c4g", "not UTF-8"),
    ):
        with pytest.raises(GameFileError, match=expected):
            load_game(tmp_path / name)
    with pytest.raises(GameFileError, match="is a directory"):
        load_game(tmp_path)
    big = tmp_path / "big.c4g"
    big.write_bytes(b"4" * (gamefile.MAX_FILE_BYTES + 1))
    with pytest.raises(GameFileError, match="too large"):
        load_game(big)


def test_save_is_atomic_on_failure(tmp_path, monkeypatch):
    target = tmp_path / "keep.c4g"
    save_game(target, Position.from_moves("44"))
    before = target.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomicfile.os, "replace", broken_replace)
    with pytest.raises(GameFileError, match="cannot write .*No space left"):
        save_game(target, Position.from_moves("4453"), overwrite=True)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.c4g"]  # no temp file left


def test_save_into_unwritable_directory(tmp_path, monkeypatch):
    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(atomicfile.os, "open", denied)  # creating the temporary file
    with pytest.raises(GameFileError, match="x.c4g: cannot write \\(Permission denied\\)"):
        save_game(tmp_path / "x.c4g", Position())
    assert not (tmp_path / "x.c4g").exists()


def test_save_creates_data_dir(tmp_path):
    assert gamefile.data_dir() == tmp_path / "xdg" / "c4tui"
    path = save_game(gamefile.resolve_user_path("sub/game.c4g"), Position.from_moves("1"))
    assert path == tmp_path / "xdg" / "c4tui" / "sub" / "game.c4g"
    assert load_game(path).position.digits() == "1"


def test_data_dir_without_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("XDG_DATA_HOME")
    assert gamefile.data_dir() == Path(tmp_path / "home") / ".local" / "share" / "c4tui"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/path")  # ignored: the spec wants absolute
    assert gamefile.data_dir() == Path(tmp_path / "home") / ".local" / "share" / "c4tui"
    assert gamefile.default_save_path().suffix == ".c4g"


# ------------------------------------------------------------------ saving safely (issue 13)
def test_save_refuses_to_overwrite_unless_told(tmp_path):
    target = tmp_path / "g.c4g"
    save_game(target, Position.from_moves("44"))
    before = target.read_bytes()
    with pytest.raises(gamefile.GameFileExistsError, match="g.c4g: already exists"):
        save_game(target, Position.from_moves("4453"))
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.c4g"]  # no temp file left
    save_game(target, Position.from_moves("4453"), overwrite=True)
    assert load_game(target).position.digits() == "4453"


def test_save_keeps_the_mode_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "g.c4g"
    save_game(target, Position.from_moves("44"))
    target.chmod(0o640)
    save_game(target, Position.from_moves("4453"), overwrite=True)
    assert target.stat().st_mode & 0o7777 == 0o640


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_file_gets_the_umask_mode(tmp_path, umask, mode):
    import os

    old = os.umask(umask)
    try:
        path = save_game(tmp_path / "new.c4g", Position.from_moves("4"))
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o7777 == mode


def test_save_below_a_file_names_the_file(tmp_path):
    (tmp_path / "notes").write_text("x")
    with pytest.raises(GameFileError) as info:
        save_game(tmp_path / "notes" / "sub" / "g.c4g", Position())
    assert str(info.value).endswith(f"{tmp_path / 'notes'} is a file, not a directory")
    assert "File exists" not in str(info.value)


def test_new_file_is_not_clobbered_by_a_race(tmp_path, monkeypatch):
    """A file that appears between the check and the write is not replaced either."""
    target = tmp_path / "g.c4g"

    real = atomicfile._create_temp

    def create_and_race(path):
        target.write_text("someone else's\n")
        return real(path)

    monkeypatch.setattr(atomicfile, "_create_temp", create_and_race)
    with pytest.raises(gamefile.GameFileExistsError):
        save_game(target, Position.from_moves("4"))
    assert target.read_text() == "someone else's\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.c4g"]
