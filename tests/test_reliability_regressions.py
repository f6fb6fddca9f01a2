"""Regression tests of the bugs the fuzzers of issue 16 found (docs/reliability.md).

Each test is one input that used to fail, and what it does now.
"""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import Position

from c4tui import gamefile
from c4tui.gamefile import Game, GameFileError, format_game, load_game, parse_game, save_game


@pytest.mark.parametrize("name", ["a\0b.c4g", "~nobody-here/x.c4g", "~nobody\0", "x" * 300,
                                  "d/" + "x" * 300 + ".c4g"])
def test_unusable_names_are_one_line_errors(tmp_home, name):
    """NUL bytes (ValueError), ~unknown-user (RuntimeError) and over-long names (OSError
    from is_dir, outside the try) escaped load_game/save_game and crashed the app's open
    and save prompts."""
    path = gamefile.resolve_user_path(name)  # never raises
    for attempt in (lambda: load_game(path), lambda: save_game(path, Position.parse("44"))):
        with pytest.raises(GameFileError) as info:
            attempt()
        msg = str(info.value)
        assert "\n" not in msg and len(msg) < 250, msg


def test_long_names_are_shortened_and_control_characters_escaped(tmp_path):
    with pytest.raises(GameFileError) as info:
        load_game(tmp_path / ("y" * 400))
    assert "…" in str(info.value) and len(str(info.value)) < 200
    with pytest.raises(GameFileError) as info:
        load_game(tmp_path / "two\nlines")
    assert "\n" not in str(info.value) and "two\\nlines: no such file" in str(info.value)


@pytest.mark.parametrize("value", ["a\rb", "a\u2028b", "x\x85y", "p\x0bq", "a\r\nb", "n\0"])
def test_header_values_with_line_breaks_save_readable_files(tmp_path, value):
    """A header value with a line break other than \\n was written as is, and the file
    could not be read back (bad header); one with NUL was refused as binary data."""
    path = save_game(tmp_path / "g.c4g", Game(Position.parse("4453"), {"Event": value}))
    assert load_game(path).headers["Event"] == value.replace("\r\n", "  ").translate(
        {ord(c): " " for c in "\r\n\x0b\x85\u2028\0"})


def test_parse_game_drops_a_bom():
    """A BOM at the start of text (pasted or read without utf-8-sig) is not a move."""
    assert parse_game("\ufeff4453").position.digits() == "4453"
    assert parse_game(format_game(Game(Position.parse("44")))).position.digits() == "44"


def test_solve_exits_2_on_a_bad_line_and_answers_the_others():
    """A bad position is bad input (exit 2, cli/errors.py); it was 1 (failure)."""
    from typer.testing import CliRunner

    from c4tui.cli import app

    r = CliRunner().invoke(app, ["solve", "--hash", "1", "44", "4x", "4444444"])
    assert r.exit_code == 2, r.output
    assert [ln.split()[0] for ln in r.stdout.splitlines()] == ["44"]  # the good line
    assert r.stderr.splitlines() == [
        "c4tui: argument 2: move 1 '4x': not a square (expected a1-g6)",  # as c4tui 4x says
        "c4tui: argument 3: move 7 (d): column d is full"]
