"""Nothing the user made is lost (issue 23, item 5): the autosave, the restore offer, the
question before quitting with unsaved changes, and a crash (its exit status, its report,
its autosave), under the pilot and in a real process in a pseudo-terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import textwrap
import time

import pytest
from c4tui.engine.board.position import Position
from pilot_util import sync, until

from c4tui import gamefile
from c4tui.app import C4App
from c4tui.app.screens import ConfirmScreen
from c4tui.app.screens.confirm import QuitScreen
from c4tui.app.screens.main import MainScreen
from c4tui.app.session.autosave import DECLINED, Autosave, autosave_dir, find_orphan
from c4tui.app.session.crash import crash_dir
from c4tui.app.session.session_file import Session
from c4tui.gamefile import Game, save_game

pytestmark = pytest.mark.usefixtures("tmp_home")



def autosaved(autosave: Autosave) -> Session | None:
    try:
        return Session.from_game(gamefile.load_game(autosave.path))
    except gamefile.GameFileError:
        return None


# ------------------------------------------------------------------ quitting
@sync
async def test_q_with_unsaved_changes_asks_first():
    """Bug: q quit at once, and the moves played since the start were gone."""
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")
        assert app.files.unsaved
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "the question")
        assert "unsaved changes" in str(app.screen.query_one("#confirm-question").render())
        await pilot.press("n")
        await until(pilot, lambda: len(app.screen_stack) == 1, "the board")
        assert app.is_running and app.model.line == [3, 3, 4, 2, 0]
        await pilot.press("u")  # back to the game given at start: nothing to lose
        assert not app.files.unsaved
        await pilot.press("1", "q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "the question")
        await pilot.press("q")  # q again: quit
        await until(pilot, lambda: not app.is_running, "the end")


@sync
async def test_q_quits_at_once_when_the_game_is_saved(tmp_path):
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")  # as given at start
        await until(pilot, lambda: not app.is_running, "the end")
    app = C4App(Position.from_moves("4453"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "2")
        assert app.files.save_file(tmp_path / "g.c4g") and not app.files.unsaved
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the end")


# ------------------------------------------------------------------ the autosave
@sync
async def test_every_change_is_autosaved_and_a_clean_quit_removes_it(tmp_path):
    autosave = Autosave(tmp_path / "auto")
    app = C4App(Position.from_moves("4453"), engine=False, autosave=autosave)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert autosave.writes == 0  # the game as given: nothing to keep yet
        await pilot.press("1")
        await until(pilot, lambda: autosave.writes == 1, "the first autosave")
        assert autosaved(autosave).root.cols(autosaved(autosave).line_path) == [3, 3, 4, 2, 0]
        await pilot.press("up", "up", "7")  # a variation at move 4
        await pilot.press("semicolon")
        await until(pilot, lambda: len(app.screen_stack) == 2, "the prompt")
        app.screen.query_one("#prompt-input").value = "the other idea"
        await pilot.press("enter")
        await pilot.press("up")  # the viewed move changes too
        await until(pilot, lambda: (s := autosaved(autosave)) is not None and s.ply == 3
                    and s.root.has_variations(), "the variation and the move viewed")
        s = autosaved(autosave)
        assert s.root.cols(s.line_path) == [3, 3, 4, 6] and s.changed
        assert s.root.at(s.line_path).comment == "the other idea"
        assert s.headers == {}  # the defaults the game file adds are not the game's
        # the autosave is a game file any c4tui opens: the same tree
        assert gamefile.load_game(autosave.path).tree.cols(s.line_path) == [3, 3, 4, 6]
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen), "the question")
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running, "the end")
    assert not autosave.path.exists() and not list((tmp_path / "auto").iterdir())


def test_lock_files_of_killed_sessions_do_not_pile_up(tmp_path):
    """A session killed with nothing to save leaves only its lock file; the next start
    removes it, but never a held lock, a fresh one or one beside an autosave."""
    directory = tmp_path / "auto"
    running = Autosave(directory)
    assert running.start() is None  # holds its lock, has saved nothing yet
    killed = Autosave(directory)
    assert killed.start() is None
    killed.close()  # its process died: the lock file stays, nobody holds it
    old = time.time() - 3600
    for path in directory.glob("session-*.lock"):
        os.utime(path, (old, old))
    fresh = directory / "session-1-fresh.lock"
    fresh.touch()  # a workstation that has just made it and is about to lock it
    assert find_orphan(directory) is None
    left = sorted(p.name for p in directory.iterdir())
    assert left == sorted([running.path.with_suffix(".lock").name, fresh.name]), left
    running.remove()


@sync
async def test_a_running_session_is_not_offered_and_an_ended_one_is(tmp_path):
    directory = tmp_path / "auto"
    first = Autosave(directory)
    assert first.start() is None
    first.flush(Session(Game(Position.from_moves("44")).tree, {}, (0, 0), 2).to_text())
    assert find_orphan(directory) is None  # its workstation still runs (the lock)
    first.close()  # a crash, a closed terminal: the file stays, the lock goes
    orphan = find_orphan(directory)
    assert orphan is not None and orphan.session.ply == 2
    assert find_orphan(directory) is None  # claimed by the first that found it
    orphan.discard()
    assert not list(directory.iterdir())


def crashed_session(directory, moves="4455", comment="keep me", file=None) -> None:
    """An autosave left behind by a session that ended without a clean quit."""
    tree = Game(Position.from_moves(moves)).tree
    tree = tree.with_comment((0, 0, 0), comment)
    autosave = Autosave(directory)
    autosave.start()
    autosave.flush(Session(tree, {"White": "Ann"}, (0, 0, 0, 0), 3, file).to_text())
    autosave.close()


@sync
async def test_the_next_start_offers_to_restore_a_crashed_session(tmp_path):
    directory = tmp_path / "auto"
    crashed_session(directory, file=tmp_path / "ann.c4g")
    orphan = find_orphan(directory)
    autosave = Autosave(directory)
    app = C4App(Position.from_moves("7"), engine=False, autosave=autosave, restore=orphan)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the offer")
        question = str(app.screen.query_one("#confirm-question").render())
        assert "did not quit cleanly" in question and "ann.c4g" in question
        assert "4 moves, at move 3" in question
        await pilot.press("y")
        await until(pilot, lambda: len(app.screen_stack) == 1, "the board")
        assert app.model.line == [3, 3, 4, 4] and app.model.ply == 3
        assert app.model.node.comment == "keep me" and app.model.headers == {"White": "Ann"}
        assert app.files.current_file == tmp_path / "ann.c4g" and app.files.unsaved
        assert "restored the session" in app.last_message
        assert not orphan.path.exists()  # this session's own autosave keeps it now
        await until(pilot, lambda: autosave.writes >= 1, "the new autosave")
        await pilot.press("u")  # the restore is undoable: the game given at start
        assert app.model.line == [6]


@sync
async def test_declining_keeps_the_session_aside(tmp_path):
    directory = tmp_path / "auto"
    crashed_session(directory)
    orphan = find_orphan(directory)
    app = C4App(Position.from_moves("7"), engine=False, restore=orphan)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the offer")
        await pilot.press("n")
        await until(pilot, lambda: len(app.screen_stack) == 1, "the board")
        assert app.model.line == [6]
        kept = directory / DECLINED
        assert str(kept) in app.last_message
        assert gamefile.load_game(kept).tree.at((0, 0, 0)).comment == "keep me"
    assert find_orphan(directory) is None  # asked once


def test_an_unreadable_autosave_is_set_aside_with_a_warning(tmp_path):
    directory = tmp_path / "auto"
    directory.mkdir()
    (directory / "session-1-abc.c4g").write_text("1. d1 d1 d1 d1 d1 d1 d1 *\n")
    said: list[str] = []
    assert find_orphan(directory, warn=said.append) is None
    assert len(said) == 1 and "autosave:" in said[0] and "\n" not in said[0]
    assert (directory / "session-1-abc.unreadable").exists()


def test_an_autosave_of_another_board_size_is_left_for_that_size(tmp_path):
    """Bug: a 7x6 workstation took a 10x10 session's autosave for unreadable and renamed it
    (the 10x10 workstation then never offered it back); it is left as it is, unwarned."""
    directory = tmp_path / "auto"
    directory.mkdir()
    other = directory / "session-2-def.c4g"
    other.write_text('[Size "10x10"]\n\n1. e1 e2 *\n')
    said: list[str] = []
    assert find_orphan(directory, warn=said.append) is None
    assert said == [] and other.exists()
    assert not (directory / "session-2-def.unreadable").exists()
    assert not (directory / "session-2-def.lock").exists() or _lock_free(
        directory / "session-2-def.lock")


def _lock_free(lock):
    """Whether nobody holds the lock file (find_orphan released it)."""
    import fcntl
    import os

    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def test_a_game_too_large_for_a_file_is_not_autosaved(tmp_path):
    autosave = Autosave(tmp_path / "auto")
    autosave.start()
    assert autosave.flush("4\n")
    assert not autosave.flush("x" * (gamefile.MAX_FILE_BYTES + 1))
    assert "larger than a game file" in autosave.error
    assert autosave.path.read_text() == "4\n"  # the last state that fitted
    autosave.remove()


# ------------------------------------------------------------------ a crash, in-process
@sync
async def test_a_crash_writes_its_report_and_the_session(tmp_path, monkeypatch):
    def boom(self) -> None:
        raise RuntimeError("planted\nsecond line")

    monkeypatch.setattr(MainScreen, "action_toggle_threats", boom)
    autosave = Autosave(tmp_path / "auto")
    app = C4App(Position.from_moves("4453"), engine=False, autosave=autosave)
    with pytest.raises(RuntimeError, match="planted"):
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("1", "t")
    assert app.return_code == 1
    report = app.session.crash
    assert report.reason == "RuntimeError: planted" and report.path.parent == crash_dir()
    text = report.path.read_text()
    assert "Traceback (most recent call last)" in text and "in boom" in text
    assert "moves: 44531" in text and str(autosave.path) in text
    assert report.line() == (f"c4tui: crashed: RuntimeError: planted; the traceback is in "
                             f"{report.path}")
    assert autosaved(autosave).root.cols(autosaved(autosave).line_path) == [3, 3, 4, 2, 0]


# ------------------------------------------------------------------ a crash, for real
HARNESS = textwrap.dedent("""
    # c4tui in this process, with one key of the app made to raise (a planted bug), and
    # the game dumped as JSON when it quits cleanly: what the user would see, checked.
    import json, os, sys
    from c4tui.app.main import C4App
    from c4tui.app.screens.main import MainScreen

    def boom(self):
        raise RuntimeError("planted by the test")

    MainScreen.action_toggle_threats = boom
    quit_now = C4App.quit_now

    def dump(self):
        with open(os.environ["C4TUI_TEST_DUMP"], "w") as fh:
            json.dump({"line": self.model.line, "ply": self.model.ply,
                       "comment": self.model.node.comment,
                       "file": str(self.files.current_file)}, fh)
        quit_now(self)

    C4App.quit_now = dump
    from c4tui.cli import main
    sys.argv = ["c4tui", *sys.argv[1:]]
    main()
""")


class Terminal:
    """The harness in an 80x24 pseudo-terminal: keys in, the screen's bytes out."""

    def __init__(self, tmp_path, *args: str) -> None:
        self.env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24",
                    "C4TUI_TEST_DUMP": str(tmp_path / "dump.json")}
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(sys.executable, [sys.executable, "-c", HARNESS, *args], self.env)
        import fcntl
        import termios

        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.seen = b""

    def read_until(self, pattern: bytes, seconds: float = 60.0) -> None:
        deadline = time.monotonic() + seconds
        while pattern not in self.seen:
            assert time.monotonic() < deadline, f"no {pattern!r} in {self.text()[-2000:]!r}"
            if select.select([self.fd], [], [], 0.05)[0]:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:
                    break

    def send(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def wait(self, seconds: float = 20.0) -> int:
        deadline = time.monotonic() + seconds
        while True:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self._drain()
                return os.waitstatus_to_exitcode(status)
            assert time.monotonic() < deadline, "the app did not end"
            self._drain()

    def _drain(self) -> None:
        while select.select([self.fd], [], [], 0.02)[0]:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            self.seen += data

    def text(self) -> str:
        """The output without escape sequences."""
        return re.sub(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])",
                      "", self.seen.decode("utf-8", "replace"))

    def close(self) -> None:
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


@pytest.mark.skipif(sys.platform != "linux", reason="a Linux pty")
def test_a_crash_exits_1_names_its_report_and_the_next_start_restores(tmp_path):
    """Bug: after a crash the process exited 0 with Textual's traceback on the terminal,
    and the game was gone."""
    game = tmp_path / "mine.c4g"
    save_game(game, Position.from_moves("4453"))
    term = Terminal(tmp_path, "--no-engine", str(game))
    try:
        term.read_until(b"\x1b[?1049h")  # the first frame
        term.send(b"1")  # a move: autosaved
        term.send(b"2;")  # another, and a comment on it
        term.read_until("Comment on 3… b1".encode())
        term.send(b"a move worth keeping\r")
        sessions = autosave_dir()
        deadline = time.monotonic() + 20
        while not any("worth keeping" in p.read_text() for p in sessions.glob("*.c4g")):
            assert time.monotonic() < deadline, "no autosave of the comment"
            term._drain()
        term.send(b"t")  # the planted bug
        status = term.wait()
    finally:
        term.close()
    assert status == 1
    out = term.text()
    line = re.search(r"c4tui: crashed: RuntimeError: planted by the test; "
                     r"the traceback is in (\S+)", out)
    assert line, out[-3000:]
    report = crash_dir() / os.path.basename(line.group(1))
    assert str(report) == line.group(1) and report.exists()
    text = report.read_text()
    assert "Traceback (most recent call last)" in text and "in boom" in text
    assert "Traceback" not in out  # the terminal got the one line only

    term = Terminal(tmp_path, "--no-engine")
    try:
        term.read_until(b"Restore that session")
        term.read_until(b"mine.c4g, 6 moves, at move 6")
        term.send(b"y")
        term.read_until(b"restored the session")
        term.send(b"q")  # unsaved changes: asked
        term.read_until(b"Quit anyway?")
        term.send(b"y")
        status = term.wait()
    finally:
        term.close()
    assert status == 0
    dump = json.loads((tmp_path / "dump.json").read_text())
    assert dump["line"] == [3, 3, 4, 2, 0, 1] and dump["ply"] == 6
    assert dump["comment"] == "a move worth keeping" and dump["file"] == str(game)
    assert not list(autosave_dir().glob("session-*"))  # the clean quit removed it


def test_a_crash_outside_the_handlers_is_reported_too(tmp_path):
    """An exception escaping App.run() itself (not in a handler) gets the same line."""
    code = textwrap.dedent("""
        import sys
        from c4tui.app.main import C4App
        def run(self, *a, **k):
            raise OSError(5, "Input/output error")
        C4App.run = run
        from c4tui.cli import main
        sys.argv = ["c4tui", "--no-engine", "44"]
        main()
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("c4tui: crashed: OSError: [Errno 5] Input/output error; "
                                  "the traceback is in "), proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
