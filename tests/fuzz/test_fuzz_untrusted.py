"""Fuzzing untrusted text on its way to a terminal or a widget (issue 33): random escape
sequences, C0/C1 controls, DEL, bidi controls and Rich markup in every text field of every
file kind: a .c4g's headers and comment, its file name, a .c4p's lines and file name, and
the database rows ``db import`` makes of them.

Wanted: what the CLI prints (``games``, ``db import``, ``db search``, ``review``,
``puzzles list``) and what the app's screens draw (the move list, ``i``, ``G``, ``o``,
``E`` then ``g``, the trainer and its toast) hold no character a terminal acts on; the
text is there escaped (c4tui.bounded.shown), and markup shows as written. ``make test``
tries a few deterministic cases per surface, ``make fuzz`` (C4TUI_FUZZ_LONG=1) many more.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest
from fuzzkit import count, fuzz
from hypothesis import given
from hypothesis import strategies as st
from pilot_util import screen_text, until

from c4tui import gamefile
from c4tui.bounded import shown
from c4tui.cli import main
from c4tui.db import connect, default_path, import_paths

#: Pieces a terminal (or Rich's markup) would act on, and the quoting characters of the
#: file formats.
ESCAPES = ["\x1b]0;owned\x07", "\x1b]52;c;cm0gLXJmIH4gIw==\x07", "\x1b[2J", "\x1b[31m",
           "\x1b", "\x9b6n", "\x9d0;t\x9c", "\x7f", "\x07", "\x08", "\x00", "\r", "\x0b",
           "\x85", "\u2028", "\u202e", "\u202a", "\u2066", "\u2069", "\u200f", "\ufeff",
           "[@click=app.quit]q[/]", "[link=http://evil]L[/link]", "[b]", "[/]", "\\", '"',
           "é", "😀"]
hostile = st.lists(st.one_of(st.sampled_from(ESCAPES), st.text(max_size=6)),
                   min_size=1, max_size=8).map("".join)
#: What no terminal output and no screen may hold raw.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
                 "\u2028\u2029\ufeff]")
LINE_BREAKS = re.compile("[\x00\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def assert_clean(text: str, where: str) -> None:
    m = RAW.search(text)
    assert m is None, (f"{where}: raw {m.group()!r}: "
                       f"{text[max(0, m.start() - 60): m.start() + 60]!r}")


def file_name(text: str) -> str:
    """A file name made of ``text``: no '/' nor NUL, at most 200 bytes, ending .c4g."""
    name = text.replace("/", "_").replace("\0", "_")
    while len(name.encode()) > 200:
        name = name[:-1]
    return f"g{name}.c4g"


def game_text(white: str, black: str, other: str, comment: str) -> str:
    """A .c4g with these headers (escaped as the format wants; a header is one line) and
    a comment (anything but '}'; no NUL: a file with one is refused as binary data, which
    tests/fuzz/test_fuzz_gamefile.py tries)."""
    def quote(v: str) -> str:
        return LINE_BREAKS.sub(" ", v.replace("\\", "\\\\").replace('"', '\\"'))

    return (f'[Event "{quote(other)}"]\n[White "{quote(white)}"]\n[Black "{quote(black)}"]\n'
            f'[Annotator "{quote(other)}"]\n\n'
            f"1. d1 {{{comment.replace('}', ')').replace(chr(0), ' ')}}} d2 2. e1 *\n")


def _run(argv: list[str], capsys) -> tuple[str, str]:
    try:
        main(argv)
    except SystemExit:
        pass
    out = capsys.readouterr()
    return out.out, out.err


def _sandbox(d: Path) -> pytest.MonkeyPatch:
    mp = pytest.MonkeyPatch()
    mp.setenv("HOME", str(d / "home"))
    mp.setenv("XDG_DATA_HOME", str(d / "xdg"))
    mp.setenv("XDG_STATE_HOME", str(d / "state"))
    return mp


def _field(text: str) -> str:
    """``text`` as one field of a puzzle line (the theme's place: the error quotes it)."""
    return "x" + re.sub(r"\s", "_", text)


# ---------------------------------------------------------------------------- stdout
@fuzz(fast=25, long=2_000)
@given(white=hostile, black=hostile, other=hostile, comment=hostile, name=hostile)
def test_game_files_on_the_cli(tmp_path_factory, capsys, white, black, other, comment, name):
    """A .c4g of hostile headers and comment under a hostile name: ``games``, ``db
    import``, ``db search`` and ``review`` print it escaped, never raw."""
    count("untrusted: .c4g on stdout")
    d = tmp_path_factory.mktemp("cli")
    games = d / "games"
    games.mkdir()
    path = games / file_name(name)
    path.write_text(game_text(white, black, other, comment))
    db = str(d / "g.sqlite")
    for argv in (["games", str(games)], ["db", "import", "--db", db, str(games)],
                 ["db", "search", "--db", db],
                 ["review", str(path), "--threads", "1", "--hash", "16"]):
        out, err = _run(argv, capsys)
        assert_clean(out + err, argv[0] + " " + argv[1])
        if argv[0] == "games":
            assert shown(path.name, None)[-50:] in out, out  # (a long name keeps its end)


@fuzz(fast=25, long=2_000)
@given(line=hostile, name=hostile)
def test_puzzle_files_on_the_cli(tmp_path_factory, capsys, line, name):
    """A .c4p with a hostile line under a hostile name: ``puzzles list`` says which line
    is bad, escaped."""
    count("untrusted: .c4p on stdout")
    d = tmp_path_factory.mktemp("c4p")
    path = d / file_name(name).replace(".c4g", ".c4p")
    path.write_text(f"# c4tui puzzles 1\n3355 4 win 2 0 0 1 double-threat\n"
                    f"{LINE_BREAKS.sub(' ', line)}\n33 4 win 2 0 0 1 {_field(line)}\n")
    out, err = _run(["puzzles", "list", str(path)], capsys)
    assert_clean(out + err, "puzzles list")
    assert out.startswith("3355 4 1"), out


# ---------------------------------------------------------------------------- screens
async def _screens(d: Path, path: Path) -> None:
    """The app with the file opened: the main screen (the move list, the toast), ``i``,
    ``G``, ``o`` and ``E`` then ``g``, each drawn without a raw character."""
    from textual.widgets import DataTable

    from c4tui.app import C4App, SearchSettings
    from c4tui.app.screens import FilePickerScreen, GamesScreen
    from c4tui.app.screens.explorer import ExplorerScreen, PositionGamesScreen
    from c4tui.app.screens.headers import HeadersScreen
    from c4tui.app.widgets.file_tree import GameFileTree

    app = C4App(settings=SearchSettings(auto=False), engine=False)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        assert app.files.load_file(path), app.last_error
        await until(pilot, lambda: "loaded" in screen_text(app), "the toast")
        assert_clean(screen_text(app), "the main screen")
        steps = [("i", lambda: isinstance(app.screen, HeadersScreen)),
                 ("G", lambda: isinstance(app.screen, GamesScreen)
                  and app.screen.query_one(DataTable).row_count == 1),
                 ("o", lambda: isinstance(app.screen, FilePickerScreen)
                  and len(app.screen.query_one(GameFileTree).root.children) >= 1)]
        for key, ready in steps:
            await pilot.press(key)
            await until(pilot, ready, key)
            await pilot.pause()
            assert_clean(screen_text(app), key)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is app.main, f"{key} closed")
        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, ExplorerScreen), "E")
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, PositionGamesScreen), "E, g")
        await pilot.pause()
        assert_clean(screen_text(app), "E then g")


@fuzz(fast=3, long=200)
@given(white=hostile, black=hostile, other=hostile, comment=hostile, name=hostile)
def test_game_files_on_the_screens(tmp_path_factory, white, black, other, comment, name):
    """The same files, imported into the app's database, through its screens."""
    count("untrusted: .c4g on the screens")
    d = tmp_path_factory.mktemp("app")
    mp = _sandbox(d)
    try:
        folder = gamefile.data_dir()
        folder.mkdir(parents=True)
        path = folder / file_name(name)
        path.write_text(game_text(white, black, other, comment))
        conn = connect(default_path(), create=True)
        import_paths(conn, [path])
        conn.close()
        asyncio.run(_screens(d, path))
    finally:
        mp.undo()


async def _trainer(path: Path, store: Path) -> None:
    from c4tui.app import C4App, SearchSettings
    from c4tui.app.controllers.trainer import TrainerControl
    from c4tui.app.screens.trainer import TrainerScreen

    app = C4App(settings=SearchSettings(auto=False), engine=False)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        app.push_screen(TrainerScreen(TrainerControl(path, store)))
        await until(pilot, lambda: isinstance(app.screen, TrainerScreen)
                    and list(app.screen.query("Toast")), "the trainer and its warning")
        await pilot.pause()
        assert_clean(screen_text(app), "the trainer")
        drawn = "".join(str(t.render()) for t in app.screen.query("Toast"))
        # the bad line's warning as the rule shows it: escaped, its markup as written
        assert drawn == shown(TrainerControl(path, store).notes[0]), drawn


@fuzz(fast=3, long=200)
@given(line=hostile, name=hostile)
def test_puzzle_files_on_the_trainer(tmp_path_factory, line, name):
    """A .c4p with a hostile line under a hostile name: the trainer's warning toast."""
    count("untrusted: .c4p on the screens")
    d = tmp_path_factory.mktemp("trainer")
    path = d / file_name(name).replace(".c4g", ".c4p")
    path.write_text(f"# c4tui puzzles 1\n3355 4 win 2 0 0 1 double-threat\n"
                    f"33 4 win 2 0 0 1 {_field(line)}\n")
    mp = _sandbox(d)
    try:
        asyncio.run(_trainer(path, d / "trainer.json"))
    finally:
        mp.undo()


def test_the_alphabet_reaches_the_screens():
    """The fuzzers' pieces are what the rule must escape (a piece that shown() let through
    would make them test nothing)."""
    for piece in ESCAPES:
        if RAW.search(piece):
            assert not RAW.search(shown(piece)), piece
    assert os.sep == "/"
