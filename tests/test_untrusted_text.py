"""Untrusted text never reaches a terminal or a widget raw (issue 33, part 1).

One crafted game file (an OSC title, an OSC 52 clipboard write, a CSI clear, a bidi
override, a C1 CSI, DEL, Rich markup in its headers and its comment), a file *named*
with an escape sequence, a puzzle file with one in a line and in its name, and the
database rows ``db import`` makes of them go through every command that prints a
header, a name, a comment or a row, piped and on a terminal (a pty), and through every
app screen that shows one (the pilot). Each must show the text escaped
(``\\x1b]0;PWNED``, c4tui.bounded.shown) and never a raw byte of it; markup in a header
or a file name shows literally.
"""

from __future__ import annotations

import base64
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pilot_util import screen_text, sync, until
from rich.markup import escape
from rich.text import Text
from textual.widgets import DataTable, Input

from c4tui import gamefile
from c4tui.app import C4App, SearchSettings
from c4tui.app.screens import FilePickerScreen, GamesScreen, RecentFilesScreen
from c4tui.app.screens.explorer import ExplorerScreen, PositionGamesScreen
from c4tui.app.screens.headers import HeadersScreen
from c4tui.app.widgets.file_tree import GameFileTree
from c4tui.app.widgets.move_list import MoveList
from c4tui.bounded import shown
from c4tui.db import connect, default_path, import_paths

pytestmark = pytest.mark.usefixtures("tmp_home")

CLIPBOARD = base64.b64encode(b"rm -rf ~ #").decode()
#: The headers of the crafted game: every kind of sequence a terminal acts on.
WHITE = f"W\x1b]0;PWNED\x07\x1b[31mEVIL\x1b]52;c;{CLIPBOARD}\x07"
BLACK = "b\x1b[2J\u202eevil\x9b31m\x7fX"
EVENT = "E\x1b]0;EV\x07 [@click=app.quit]quit[/] [link=http://evil]L[/link]"
COMMENT = "c\x1b]0;COM\x07 \u202e [@click=app.quit]q[/]"
#: A file name holding an escape sequence and markup.
BAD_NAME = "n\x1b]0;NAME\x07[b]x.c4g"
MARKUP = "[@click=app.quit]quit[/]"


def crafted_game(moves: str = "1. d1 {%s} d2 2. e1 c1 *") -> str:
    """The crafted .c4g text (``moves``: its move text, the comment put in)."""
    return (f'[Event "{EVENT}"]\n[White "{WHITE}"]\n[Black "{BLACK}"]\n\n'
            + (moves % COMMENT if "%s" in moves else moves) + "\n")


#: What must never reach a terminal raw: the crafted sequences themselves.
CRAFTED = ("\x1b]", "\x1b[2J", "\x1b[31m", "\u202e", "\x9b", "\x07", "\x7f")
#: Any character a terminal could act on: C0 controls but tab and line ends, DEL, C1,
#: bidi embeddings, overrides and isolates.
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def assert_clean(text: str, where: str) -> None:
    """No raw control, DEL, C1 or bidi character in ``text`` (what a terminal shows)."""
    m = RAW.search(text)
    assert m is None, (f"{where}: raw {m.group()!r} at {m.start()}: "
                       f"{text[max(0, m.start() - 60): m.start() + 60]!r}")


def assert_no_crafted(text: str, where: str) -> None:
    """None of the crafted sequences raw in ``text`` (a terminal's output may hold the
    program's own styling, never these)."""
    for seq in CRAFTED:
        at = text.find(seq)
        assert at < 0, f"{where}: raw {seq!r}: {text[max(0, at - 60): at + 60]!r}"


@pytest.fixture
def crafted(tmp_path) -> Path:
    """A folder with the crafted game, the same headers under a crafted file name (another
    game, so the database stores its name as a source), and their database (the user
    data directory's, where the app's explorer reads)."""
    d = gamefile.data_dir()
    d.mkdir(parents=True)
    (d / "crafted.c4g").write_text(crafted_game())
    (d / BAD_NAME).write_text(crafted_game("1. c1 {%s} c2 *"))
    conn = connect(default_path(), create=True)
    import_paths(conn, [d / "crafted.c4g", d / BAD_NAME])
    conn.close()
    return d


# ---------------------------------------------------------------------------- the CLI
def _commands(d: Path, tmp: Path) -> list[list[str]]:
    """Every command that prints a header, a name or a row of the crafted files, and a
    few whose error names a crafted file."""
    puzzles = tmp / "p\x1b]0;P\x07.c4p"
    puzzles.write_text("# c4tui puzzles 1\n33 4 w\x1b]0;T\x07in 2 0 0 1 x\x1b[2J\n")
    db = str(default_path())
    review = ["--threads", "1", "--hash", "16"]
    return [
        ["games", str(d)],
        ["db", "search", "--db", db],
        ["db", "search", "--db", db, "--json"],
        ["db", "explore", "--db", db, "--no-exact"],
        ["db", "stats", "--db", db],
        ["db", "import", "--db", str(tmp / "other.sqlite"), str(d)],
        ["review", str(d / "crafted.c4g"), *review],
        ["review", str(d / BAD_NAME), "--json", *review],
        ["review", str(d), "--summary", *review],
        ["review", str(d / "nosuch\x1b]0;X\x07.c4g"), *review],
        ["games", str(d / "nosuch\x1b]0;X\x07")],
        ["puzzles", "list", str(puzzles)],
    ]


#: Runs each command of argv lists (one Python process: the imports once) and marks
#: where each one's output starts, on stdout and on stderr.
_DRIVER = """
import json, sys
from c4tui.cli import main
for argv in json.loads(sys.argv[1]):
    print("=== " + " ".join(map(ascii, argv)), flush=True)
    print("=== " + " ".join(map(ascii, argv)), file=sys.stderr, flush=True)
    try:
        main(argv)
    except SystemExit:
        pass
    sys.stdout.flush()
    sys.stderr.flush()
"""


def _env(tmp: Path) -> dict[str, str]:
    return dict(os.environ, XDG_DATA_HOME=os.environ["XDG_DATA_HOME"], HOME=str(tmp),
                C4TUI_THREADS="1", COLUMNS="200", TERM="xterm-256color")


def _sections(text: str) -> dict[str, str]:
    """The output of each command, by its ``===`` line."""
    out: dict[str, str] = {}
    name = ""
    for line in text.splitlines(keepends=True):
        if line.startswith("=== "):
            name = line[4:].strip()
            continue
        out[name] = out.get(name, "") + line
    return out


def test_the_cli_piped_prints_no_raw_byte(crafted, tmp_path):
    """Each command's stdout and stderr, piped: not one control, DEL, C1 or bidi character;
    the headers and the names are there, escaped."""
    import json

    commands = _commands(crafted, tmp_path)
    r = subprocess.run([sys.executable, "-c", _DRIVER, json.dumps(commands)],
                       capture_output=True, env=_env(tmp_path), timeout=300)
    out, err = r.stdout.decode(), r.stderr.decode()
    assert r.returncode == 0, err
    for name, text in {**_sections(out), **{f"{k} (stderr)": v
                                           for k, v in _sections(err).items()}}.items():
        assert_clean(text, name)
    sections = _sections(out)
    escaped_white = shown(WHITE)
    games = next(v for k, v in sections.items() if k.startswith("'games'") and "nosuch" not in k)
    assert escaped_white in games and shown(BAD_NAME) in games, games
    search = next(v for k, v in sections.items() if k.startswith("'db' 'search'")
                  and "json" not in k)
    assert escaped_white in search and shown(BLACK) in search and shown(BAD_NAME) in search
    # JSON holds the data as it is, escaped by JSON itself (\\u001b): a reader gets it back
    found = [json.loads(line) for line in next(
        v for k, v in sections.items() if "'--json'" in k and "'db'" in k).splitlines()]
    assert {g["white"] for g in found} == {WHITE}
    review = next(v for k, v in sections.items() if k.startswith("'review'")
                  and "crafted.c4g" in k)
    assert f"{escaped_white} (White) - {shown(BLACK)} (Black)" in review, review
    summary = next(v for k, v in sections.items() if "'--summary'" in k)
    assert escaped_white in summary and shown(BLACK) in summary, summary
    errors = _sections(err)
    assert "nosuch\\x1b]0;X\\x07.c4g: no such file" in next(
        v for k, v in errors.items() if k.startswith("'review'") and "nosuch" in k)
    assert "p\\x1b]0;P\\x07.c4p:2: result 'w\\x1b]0;T\\x07in'" in next(
        v for k, v in errors.items() if k.startswith("'puzzles'"))


def _run_on_pty(argv: list[str], env: dict[str, str], timeout: float = 300) -> str:
    """What ``argv`` writes to a terminal (stdout and stderr on one pty)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                            close_fds=True)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the process closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        assert proc.wait(timeout=30) == 0, seen.decode(errors="replace")[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return seen.decode(errors="replace")


def test_the_cli_on_a_terminal_writes_none_of_the_crafted_sequences(crafted, tmp_path):
    """The same commands on a terminal (a pty: the progress bars and a colour of the
    program's own may be there): none of the crafted sequences raw, the text escaped."""
    import json

    commands = _commands(crafted, tmp_path)
    text = _run_on_pty([sys.executable, "-c", _DRIVER, json.dumps(commands)],
                       _env(tmp_path))
    for name, out in _sections(text).items():
        assert_no_crafted(out, name)
    assert shown(WHITE) in text and shown(BAD_NAME) in text and shown(BLACK) in text


# ---------------------------------------------------------------------------- the app
def _app() -> C4App:
    return C4App(settings=SearchSettings(auto=False), engine=False)


def _clean_screen(app: C4App, where: str) -> str:
    text = screen_text(app)
    assert_clean(text, where)
    return text


def _toasts(app: C4App) -> list[str]:
    """The notifications' texts as shown (markup off: a message is text)."""
    notes = list(app._notifications)
    assert all(not n.markup for n in notes)
    return [n.message for n in notes]


async def _open_crafted_by_name(pilot, app: C4App) -> None:
    """``o``, the crafted file name in the tree (escaped), highlighted into the path box,
    enter: the file of that name opens."""
    await pilot.press("o")
    await until(pilot, lambda: isinstance(app.screen, FilePickerScreen), "the picker")
    tree = app.screen.query_one(GameFileTree)
    await until(pilot, lambda: len(tree.root.children) >= 2, "the tree")
    text = _clean_screen(app, "o")
    assert shown(BAD_NAME) in text, text  # [b] as written: not markup
    box = app.screen.query_one("#picker-input", Input)
    for _ in range(len(tree.root.children)):  # down the files to the crafted name
        if box.value == shown(BAD_NAME):
            break
        await pilot.press("down")
        await pilot.pause()
    assert box.value == shown(BAD_NAME), box.value  # escaped in the box too
    _clean_screen(app, "o, the name in the path box")
    await pilot.press("enter")
    await until(pilot, lambda: app.screen is app.main, "the file opened")


@sync
async def test_a_crafted_file_through_every_screen(crafted):
    """o (a crafted name), the move list with its comment, s (the name proposed), i (the
    headers), G (the games), O (recent files), E then g (the database's rows): each screen
    shows the text escaped and no raw byte; the game and its headers are the file's,
    whole."""
    app = _app()
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await _open_crafted_by_name(pilot, app)
        assert app.last_error == "", app.last_error
        assert app.model.headers["White"] == WHITE and app.files.current_file == crafted / BAD_NAME
        await until(pilot, lambda: "loaded" in screen_text(app), "the toast")
        _clean_screen(app, "the main screen with the toast")
        assert _toasts(app) == [f"loaded {shown(str(crafted / BAD_NAME))} (2 moves)"]
        moves = str(app.main.query_one(MoveList).render())
        assert_clean(moves, "the move list")
        assert "[@click=app.quit]q[/]" in moves, moves  # the comment's markup, literal

        await pilot.press("s")  # the save picker proposes the current file's name
        await until(pilot, lambda: isinstance(app.screen, FilePickerScreen), "the picker")
        box = app.screen.query_one("#picker-input", Input)
        assert box.value == shown(BAD_NAME), box.value
        _clean_screen(app, "s")
        await pilot.press("enter")  # the proposed name is the file's own: replace it?
        await until(pilot, lambda: "exists. Replace it?" in screen_text(app), "the question")
        assert f"{shown(BAD_NAME)} exists" in _clean_screen(app, "s, enter")
        await pilot.press("n")
        await until(pilot, lambda: app.screen is app.main, "not replaced")

        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, HeadersScreen), "the headers")
        text = _clean_screen(app, "i")
        assert "W\\x1b]0;PWNED\\x07\\x1b[31mEVIL" in text, text
        screen = app.screen
        assert isinstance(screen, HeadersScreen)
        assert screen.query_one("#header-4", Input).value == shown(WHITE, None)
        await pilot.press("enter")  # kept as shown: the headers as they were, nothing lost
        await until(pilot, lambda: app.screen is app.main, "the headers closed")
        assert app.model.headers["White"] == WHITE and app.model.headers["Black"] == BLACK
        assert not app.files.unsaved

        await pilot.press("G")
        await until(pilot, lambda: isinstance(app.screen, GamesScreen)
                    and app.screen.query_one(DataTable).row_count == 2, "the games")
        text = _clean_screen(app, "G")
        assert shown(BAD_NAME) in text and "W\\x1b]0;PWNED" in text, text
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.main, "G closed")

        await pilot.press("O")
        await until(pilot, lambda: isinstance(app.screen, RecentFilesScreen), "recent")
        text = _clean_screen(app, "O")
        assert shown(BAD_NAME) in text, text
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.main, "O closed")

        await pilot.press("E")
        await until(pilot, lambda: isinstance(app.screen, ExplorerScreen), "the explorer")
        _clean_screen(app, "E")
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, PositionGamesScreen), "its games")
        text = _clean_screen(app, "E then g")
        assert "W\\x1b]0;PWNED" in text and "b\\x1b[2J\\u202eevil\\x9b31m\\x7fX" in text, text
        # the source column (the crafted file's name) is off the box's right edge: what
        # the table draws of its cell
        source = app.screen.query_one(DataTable).get_row_at(0)[5]
        assert shown(BAD_NAME) in Text.from_markup(source).plain, source


@sync
async def test_markup_in_a_header_or_a_file_name_shows_literally(crafted):
    """A header ``[@click=app.quit]quit[/]`` and a file named ``[b]x`` are shown as written
    (a str in a Label, a DataTable cell, a tree label or a toast is read as markup)."""
    name = "[@click=app.quit]q[link=https:evil]L.c4g"  # (a name has no '/')
    (crafted / name).write_text(f'[White "{MARKUP}"]\n[Black "[b]B[/b]"]\n\n1. a1 *\n')
    app = _app()
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        assert app.files.load_file(crafted / name)
        await until(pilot, lambda: "loaded" in screen_text(app), "the toast")
        assert _toasts(app) == [f"loaded {crafted / name} (1 move)"]
        drawn = "".join(str(t.render()) for t in app.screen.query("Toast"))
        assert name in drawn, drawn  # as written, not markup
        await pilot.press("G")
        await until(pilot, lambda: isinstance(app.screen, GamesScreen)
                    and app.screen.query_one(DataTable).row_count == 3, "the games")
        text = screen_text(app)
        assert MARKUP in text and name in text, text
        # the Black column is off the box's right edge: what the table draws of its cell
        table = app.screen.query_one(DataTable)
        rows = [[Text.from_markup(cell).plain for cell in table.get_row_at(i)]
                for i in range(3)]
        row = next(r for r in rows if r[2] == MARKUP)
        assert row[3] == "[b]B[/b]", row
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.main, "G closed")
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, FilePickerScreen), "the picker")
        tree = app.screen.query_one(GameFileTree)
        await until(pilot, lambda: len(tree.root.children) >= 3, "the tree")
        assert name in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is app.main, "the picker closed")
        app.files._ask_overwrite(crafted / name)
        await pilot.pause()
        assert f"{name} exists. Replace it?" in screen_text(app)
        await pilot.press("n")
        await until(pilot, lambda: app.screen is app.main, "the question closed")
        assert app.is_running  # [@click=app.quit] never ran


def test_cells_escape_and_markup_escape_compose():
    """The two escapes one DataTable cell takes: shown() for the terminal, then
    rich.markup.escape for the table; what the table draws is what shown() says."""
    cell = escape(shown(WHITE + MARKUP))
    assert Text.from_markup(cell).plain == shown(WHITE + MARKUP)


@sync
async def test_the_save_box_proposes_a_crafted_name_escaped_and_saves_to_it(tmp_path):
    """The save picker's proposed name (the current file's) is shown escaped from the
    first frame; enter answers the real name."""
    from textual.app import App

    chosen: list[object] = []
    app: App[None] = App()
    async with app.run_test(size=(100, 30)) as pilot:
        app.push_screen(FilePickerScreen("Save the game", tmp_path, BAD_NAME, verb="save"),
                        chosen.append)
        await until(pilot, lambda: isinstance(app.screen, FilePickerScreen)
                    and app.screen.query("#picker-input"), "the picker")
        assert app.screen.query_one("#picker-input", Input).value == shown(BAD_NAME)
        assert shown(BAD_NAME) in _clean_screen(app, "the save picker")
        await pilot.press("enter")
        await until(pilot, lambda: chosen, "the answer")
    assert chosen == [tmp_path / BAD_NAME]
