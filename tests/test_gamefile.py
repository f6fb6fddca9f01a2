"""Game files: the three formats, clear one-line errors, atomic saves, the data directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from c4tui.engine.position import Position

from c4tui import gamefile
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

    monkeypatch.setattr(gamefile.os, "replace", broken_replace)
    with pytest.raises(GameFileError, match="cannot write .*No space left"):
        save_game(target, Position.from_moves("4453"))
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.c4g"]  # no temp file left


def test_save_into_unwritable_directory(tmp_path, monkeypatch):
    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(gamefile.tempfile, "mkstemp", denied)
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
