"""Hostile input (issue 23): huge numbers, files that are not regular files, endless lines,
decompression bombs, saving through links and over-long names.

Each test is an input that used to crash, hang or eat memory, and the one-line error it
gets now. The command line and the UGI engine run as real processes with a timeout.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import tracemalloc
import zlib
from pathlib import Path

import pytest
from c4tui.engine.board.position import IllegalMoveError, Position
from pilot_util import sync, until

from c4tui import gamefile, recent
from c4tui.app import C4App
from c4tui.app.screens import GamesScreen
from c4tui.bounded import FileRefused, read_file
from c4tui.gamefile import GameFileError, load_game, save_game
from c4tui.ugi.limits import parse_go
from c4tui.ugi.protocol import OPTIONS, parse_position

NINES = "9" * 5000
TIMEOUT = 120  # generous: a process that hangs is the failure, not a slow machine


def c4tui(*args: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None,
          timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    """Run ``python -m c4tui args`` (stdin a string, bytes, or ``None``: no input)."""
    kw: dict[str, object] = {"stdin": subprocess.DEVNULL} if stdin is None else {}
    if isinstance(stdin, bytes):
        stdin = stdin.decode()
    return subprocess.run([sys.executable, "-m", "c4tui", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, **kw)  # type: ignore[arg-type]  # kw: subprocess options



def one_line_error(proc: subprocess.CompletedProcess[str], *parts: str) -> str:
    """The single ``c4tui: ...`` line of a failed command; checks no traceback."""
    err = proc.stderr.strip()
    assert "Traceback" not in proc.stderr and "\n" not in err, proc.stderr[-2000:]
    assert err.startswith("c4tui: ") and len(err) < 300, err[:500]
    for part in parts:
        assert part in err, err
    return err


# ---------------------------------------------------------------- 3: huge numbers
def test_a_square_with_5000_digits_is_a_one_line_error(tmp_path):
    """int() refuses more than 4300 digits with a ValueError that escaped load_game."""
    f = tmp_path / "nines.c4g"
    f.write_text("d" + NINES + "\n")
    with pytest.raises(GameFileError) as info:
        load_game(f)
    assert "not a square" in str(info.value) and len(str(info.value)) < 200
    for text in ("d" + NINES, "1. d1 d" + NINES, "d²"):
        with pytest.raises(IllegalMoveError) as moves:
            Position.parse(text)
        assert "not a square" in str(moves.value) and len(str(moves.value)) < 120


def test_ugi_numbers_are_bounded_before_int():
    with pytest.raises(ValueError, match="not a square") as info:
        parse_position(["startpos", "moves", "d" + NINES])
    assert len(str(info.value)) < 120
    with pytest.raises(ValueError, match=r"expected 1 to 1,000,000,000,000"):
        parse_go(["nodes", "99999999999999999999999"])  # the search failed on it
    for word in ("depth", "movetime", "p1time"):
        with pytest.raises(ValueError) as info:
            parse_go([word, NINES])
        assert len(str(info.value)) < 120
    hash_option = OPTIONS[0]
    with pytest.raises(ValueError, match="out of range") as info:
        hash_option.parse(NINES)
    assert len(str(info.value)) < 120


def test_cli_huge_numbers_are_one_line_errors(tmp_path):
    proc = c4tui("analyze", "d" + NINES)
    assert proc.returncode == 2
    one_line_error(proc, "not a square")
    proc = c4tui("analyze", "--nodes", NINES)
    assert proc.returncode == 2
    one_line_error(proc, "--nodes")
    (tmp_path / "nines.c4g").write_text("d" + NINES)
    Path(tmp_path / "good.c4g").write_text("4453\n")
    proc = c4tui("games", str(tmp_path))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert "nines.c4g" in proc.stdout and "good.c4g" in proc.stdout


def test_ugi_go_nodes_beyond_the_limit_is_refused_up_front():
    """``go nodes 99999999999999999999999`` started a search that failed with ValueError."""
    proc = subprocess.run(
        [sys.executable, "-m", "c4tui.ugi"], capture_output=True, text=True, timeout=TIMEOUT,
        input=(f"position startpos\ngo nodes 99999999999999999999999\n"  # 4000: in a line
               f"setoption name Hash value {NINES[:4000]}\n"
               f"position startpos moves d{NINES[:4000]}\nquit\n"))
    lines = proc.stdout.splitlines()
    assert "search failed" not in proc.stdout
    assert lines[:2] == ["info string error: go: nodes 99999999999999999999999: expected 1 "
                         "to 1,000,000,000,000", "bestmove 0000"], lines
    assert len(lines) == 4 and all(line.startswith("info string error: ")
                                   for line in lines[2:]), lines
    assert all(len(line) < 200 for line in lines), [len(x) for x in lines]


@sync
async def test_the_app_lists_and_refuses_a_game_with_5000_digits(tmp_home):
    """The app died on opening such a file; the G list stayed on "reading the games...".
    """
    d = gamefile.data_dir()
    save_game(d / "good.c4g", Position.from_moves("4453"))
    (d / "nines.c4g").write_text("d" + NINES + "\n")
    app = C4App(Position.from_moves("44"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.files.load_file(d / "nines.c4g")
        assert "not a square" in app.last_error and len(app.last_error) < 250
        assert app.model.line == [3, 3]
        await pilot.press("G")
        await until(pilot, lambda: isinstance(app.screen, GamesScreen), "the games list")
        table = app.screen.query_one("#games-table")
        await until(pilot, lambda: table.row_count == 2, "the games")
        cells = [table.get_row_at(i) for i in range(2)]
        assert sorted(c[4] for c in cells) == ["*", "unreadable"], cells


# ---------------------------------------------------------------- 6: not regular files
@pytest.fixture
def odd_files(tmp_path):
    """A games folder with a good game, a FIFO, and a link to /dev/zero."""
    d = tmp_path / "games"
    d.mkdir()
    (d / "good.c4g").write_text("4453\n")
    os.mkfifo(d / "fifo.c4g")
    (d / "zero.c4g").symlink_to("/dev/zero")
    return d


def test_read_file_refuses_what_is_not_a_regular_file(odd_files, tmp_path):
    """Devices have st_size 0, so the size check let /dev/zero through (MemoryError, or
    20 GB for /dev/urandom); opening a FIFO without O_NONBLOCK waited for a writer."""
    for p in (odd_files / "fifo.c4g", odd_files / "zero.c4g", Path("/dev/zero"),
              Path("/dev/urandom")):
        with pytest.raises(FileRefused, match="^not a regular file$"):
            read_file(p, 1 << 20)
        with pytest.raises(GameFileError) as info:
            load_game(p)
        assert str(info.value) == f"{p}: not a regular file"
    with pytest.raises(IsADirectoryError):
        read_file(odd_files, 10)
    big = tmp_path / "big"
    big.write_bytes(b"x" * 11)
    with pytest.raises(FileRefused, match=r"too large for a thing \(more than 10 bytes\)"):
        read_file(big, 10, "thing")
    assert read_file(big, 11) == b"x" * 11


def test_cli_refuses_devices_and_fifos_with_one_line(odd_files, tmp_path):
    for args in (["/dev/urandom"], ["review", "/dev/zero"],
                 ["review", str(odd_files / "fifo.c4g")], ["book", "info", "/dev/zero"],
                 ["book", "info", str(odd_files / "fifo.c4g")]):
        proc = c4tui(*args)
        assert proc.returncode in (1, 2), (args, proc.returncode)
        one_line_error(proc, "not a regular file")
    proc = c4tui("games", str(odd_files))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert all(name in proc.stdout for name in ("good.c4g", "fifo.c4g", "zero.c4g"))
    for book in ("/dev/zero", str(odd_files / "fifo.c4g")):
        proc = c4tui("solve", "4453", env={"C4TUI_BOOK": book, "C4TUI_DB12": "0"})
        assert proc.returncode == 0 and proc.stdout == "4453 -2\n", proc.stderr[-2000:]
        assert "not a regular file" in proc.stderr and "Traceback" not in proc.stderr


def test_a_fifo_in_the_recent_files_store_is_ignored(tmp_path):
    store = tmp_path / "recent.json"
    os.mkfifo(store)
    got = recent.load_recent(store)
    assert got.files == [] and got.warning == f"recent files: {store}: not a regular file, " \
        "ignored"


@sync
async def test_the_app_refuses_a_fifo_and_lists_odd_files(tmp_home, odd_files):
    """``o`` on a FIFO froze the app; a link to /dev/zero in the games folder ate memory."""
    app = C4App(Position.from_moves("44"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for name in ("fifo.c4g", "zero.c4g"):
            assert not app.files.load_file(odd_files / name)
            assert app.last_error.endswith(f"{name}: not a regular file"), app.last_error
        assert app.model.line == [3, 3]
        save_game(gamefile.data_dir() / "good.c4g", Position.from_moves("4453"))
        for name in ("fifo.c4g", "zero.c4g"):
            os.replace(odd_files / name, gamefile.data_dir() / name)
        await pilot.press("G")
        await until(pilot, lambda: isinstance(app.screen, GamesScreen), "the games list")
        table = app.screen.query_one("#games-table")
        await until(pilot, lambda: table.row_count == 3, "the games")
        cells = sorted(tuple(table.get_row_at(i)) for i in range(3))
        assert [(c[0], c[4]) for c in cells] == [
            ("fifo.c4g", "unreadable"), ("good.c4g", "*"), ("zero.c4g", "unreadable")]


# ---------------------------------------------------------------- 7: endless lines
def run_on(argv: list[str], stdin) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with ``stdin`` (an open file or bytes)."""
    kw = {"input": stdin} if isinstance(stdin, bytes) else {"stdin": stdin}
    proc = subprocess.run(argv, capture_output=True, timeout=TIMEOUT, **kw)
    return subprocess.CompletedProcess(argv, proc.returncode, proc.stdout.decode(),
                                       proc.stderr.decode())


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_cli_reads_no_endless_line_from_stdin(command):
    """solve died with MemoryError on /dev/zero, analyze read it whole (3.4 GB)."""
    with open("/dev/zero", "rb") as zero:
        proc = run_on([sys.executable, "-m", "c4tui", command], zero)
    assert proc.returncode == 2
    one_line_error(proc, "line 1: longer than 4096 characters")


def test_solve_reports_a_long_line_and_goes_on():
    proc = run_on([sys.executable, "-m", "c4tui", "solve"],
                  b"4453\n" + b"4" * 100_000 + b"\n44\n")
    assert proc.returncode == 2 and proc.stdout == "4453 -2\n44 1\n", proc.stdout
    assert one_line_error(proc) == "c4tui: line 2: longer than 4096 characters"


def test_ugi_bounds_its_lines_and_echoes_no_long_input():
    """The engine read one endless line whole and echoed a 300 MB line in its error."""
    with open("/dev/zero", "rb") as zero:
        proc = run_on([sys.executable, "-m", "c4tui.ugi"], zero)
    assert proc.returncode == 0 and proc.stdout.startswith(
        "info string error: line 1: longer than 4096 bytes (no line end"), proc.stdout[:300]
    long_word = b"x" * 3000  # under the line limit: answered, quoted only in part
    proc = run_on([sys.executable, "-m", "c4tui.ugi"],
                  b"ugi\n" + b"go " * 10_000 + b"\n" + long_word + b"\n"
                  + b"setoption name " + long_word + b"\nquit\n")
    lines = proc.stdout.splitlines()
    assert "info string error: line 2: longer than 4096 bytes" in lines, lines
    assert "ugiok" in lines and all(len(line) < 300 for line in lines), lines
    assert sum("error" in line for line in lines) == 3, lines


# ---------------------------------------------------------------- 8: decompression bombs
BOMB_BYTES = 256 << 20  # what the bomb inflates to (3 GB in docs/reliability.md)


def zeros_compressed(size: int) -> bytes:
    """zlib of ``size`` zero bytes (about size / 1000 bytes), made in chunks."""
    c = zlib.compressobj(9)
    chunk = bytes(1 << 20)
    return b"".join(c.compress(chunk) for _ in range(size >> 20)) + c.flush()


@pytest.fixture(scope="module")
def bomb_payload() -> bytes:
    return zeros_compressed(BOMB_BYTES)


def test_a_book_bomb_is_refused_before_it_inflates(tmp_path, bomb_payload):
    """The payload was inflated whole before its length was checked."""
    from c4tui.book import format as fmt

    head = struct.Struct("<4sHHQQQ32sQ").pack(fmt.MAGIC, fmt.VERSION, fmt.HEADER_SIZE,
                                              1 << 4, 1000, len(bomb_payload), bytes(32), 0)
    path = tmp_path / "bomb.c4b"
    path.write_bytes(head + bomb_payload)
    tracemalloc.start()
    try:
        with pytest.raises(fmt.BookError) as info:
            fmt.load(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(info.value) == f"{path}: corrupt payload (expected 9000 bytes, it inflates " \
        "to more)"
    assert peak < 4 * len(bomb_payload) + (1 << 20), peak  # the file, never the 256 MB
    proc = c4tui("book", "info", str(path))
    one_line_error(proc, "corrupt payload")


def test_a_checkpoint_bomb_is_refused_before_it_inflates(tmp_path, bomb_payload):
    from c4tui.book import checkpoint as ck

    head = ck._HEADER.pack(ck.MAGIC, ck.VERSION, 10, 4, 0, 10, bytes(32),
                           len(bomb_payload))
    tracemalloc.start()
    try:
        with pytest.raises(ck.CheckpointError, match="inflates to more"):
            ck.Checkpoint.decode(head + bomb_payload, "bomb.c4ck")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(bomb_payload) + (1 << 20), peak


# ---------------------------------------------------------------- 11: saving through links
def test_saving_over_a_link_replaces_its_target_and_keeps_the_link(tmp_path):
    """The rename replaced the link itself; the file it named kept the old game."""
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    target = real_dir / "game.c4g"
    save_game(target, Position.from_moves("44"))
    target.chmod(0o640)
    link = tmp_path / "link.c4g"
    link.symlink_to(target)
    with pytest.raises(gamefile.GameFileExistsError):
        save_game(link, Position.from_moves("4453"))  # asks first, as for any file
    save_game(link, Position.from_moves("4453"), overwrite=True)
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert load_game(target).position.digits() == "4453"
    assert (target.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.c4g", "real"]
    assert sorted(p.name for p in real_dir.iterdir()) == ["game.c4g"]  # no temporary left
    chain = tmp_path / "chain.c4g"
    chain.symlink_to(link)  # a link to the link: the file at its end
    save_game(chain, Position.from_moves("1"), overwrite=True)
    assert chain.is_symlink() and link.is_symlink()
    assert load_game(target).position.digits() == "1"


# ---------------------------------------------------------------- 12: save after undo
@sync
async def test_s_after_undoing_a_load_proposes_no_other_file(tmp_home):
    """Undoing an open left the opened file's name in s: Enter, y replaced that file."""
    d = gamefile.data_dir()
    other = d / "other.c4g"
    save_game(other, Position.from_moves("4453"))
    app = C4App(Position.from_moves("11"), engine=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.files.load_file(other)
        await pilot.press("s")
        await until(pilot, lambda: app.screen.query("#picker-input"), "the picker")
        assert app.screen.query_one("#picker-input").value == "other.c4g"  # as before
        await pilot.press("escape")
        await pilot.press("u")  # undo the load: the game of 11 is back
        await pilot.pause()
        assert app.model.line == [0, 0]
        await pilot.press("s")
        await until(pilot, lambda: app.screen.query("#picker-input"), "the picker")
        proposed = app.screen.query_one("#picker-input").value
        assert proposed != "other.c4g" and proposed.startswith("game-"), proposed
        await pilot.press("enter")
        await until(pilot, lambda: not app.screen.query("#picker-input"), "the save")
        assert load_game(other).position.digits() == "4453"  # untouched
        assert load_game(d / proposed).position.digits() == "11"


@sync
async def test_a_txt_save_says_what_it_leaves_out(tmp_home):
    d = gamefile.data_dir()
    app = C4App(Position.from_moves("44"), engine=False)
    async with app.run_test(size=(80, 24)):
        game = gamefile.parse_game("1. d1 {the centre} d2 (1... c1) *\n")
        app.files.load_game(game)
        assert app.files.save_file(d / "moves.txt")
        assert app.last_message.endswith("(the main line's moves only: variations and "
                                         "comments left out; save a .c4g file to keep them)")
        assert (d / "moves.txt").read_text() == "44\n"
        assert app.files.save_file(d / "full.c4g")
        assert app.last_message == f"saved {d / 'full.c4g'}"


# ---------------------------------------------------------------- 13: what a save writes
def test_a_game_too_large_to_load_is_not_saved(tmp_path):
    """save_game wrote files of any size; load_game refuses more than 1 MiB."""
    from c4tui.gamefile import Game
    from c4tui.gamefile.tree import Node

    tree = Node.from_moves([3]).with_comment((0,), "x " * (gamefile.MAX_FILE_BYTES // 2))
    game = Game.from_tree(tree)
    path = tmp_path / "big.c4g"
    with pytest.raises(GameFileError) as info:
        save_game(path, game)
    assert str(info.value).startswith(f"{path}: not saved: ")
    assert "too large for a game file (more than 1 MiB)" in str(info.value)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("length", [241, 242, 250, 255])
def test_names_up_to_255_bytes_can_be_saved(tmp_path, length):
    """The temporary name was the target's plus 14 bytes: 242-255 failed (ENAMETOOLONG)."""
    name = "é" * ((length - 4) // 2) + "x" * ((length - 4) % 2) + ".c4g"
    assert len(os.fsencode(name)) == length
    path = tmp_path / name
    save_game(path, Position.from_moves("4453"))
    save_game(path, Position.from_moves("44"), overwrite=True)
    assert load_game(path).position.digits() == "44"
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_saving_over_a_fifo_refuses_and_keeps_it(tmp_path):
    # a rename would have replaced the FIFO (or, as root, /dev/null itself) with a file
    from c4tui.atomicfile import atomic_write

    fifo = tmp_path / "pipe.c4g"
    os.mkfifo(fifo)
    with pytest.raises(GameFileError, match=r"pipe\.c4g: cannot write \(not a regular file\)"):
        save_game(fifo, Position.from_moves("44"), overwrite=True)
    with pytest.raises(OSError, match="not a regular file"):
        atomic_write(fifo, b"x", overwrite=True)
    assert fifo.is_fifo() and [p.name for p in tmp_path.iterdir()] == ["pipe.c4g"]
