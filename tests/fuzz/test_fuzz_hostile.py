"""Fuzzing hostile input (issue 23): huge numbers in every grammar, over-long lines, and
files that are not regular files.

Wanted, for every surface: the value, or the surface's own error of one short line;
never another exception (int()'s "Exceeds the limit (4300 digits)"), never a hang on a
FIFO, never more memory than the cap. ``make test`` tries a few dozen deterministic cases
per surface; ``make fuzz`` (C4TUI_FUZZ_LONG=1) at least 10,000.
"""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import threading

import pytest
from c4tui.book.checkpoint import Checkpoint, CheckpointError
from c4tui.book.format import BookError
from c4tui.book.format import load as load_book
from c4tui.engine.board.position import IllegalMoveError, Position
from fuzzkit import LONG, count, fuzz
from hypothesis import given
from hypothesis import strategies as st

from c4tui.bounded import (
    MAX_LINE_CHARS,
    MAX_SKIP,
    LineTooLong,
    bounded_lines,
    read_file,
)
from c4tui.gamefile import MAX_FILE_BYTES, GameFileError, load_game, parse_game
from c4tui.recent import load_recent
from c4tui.ugi.fen import parse_fen
from c4tui.ugi.limits import parse_go
from c4tui.ugi.protocol import OPTIONS, parse_position
from c4tui.units import UnitError, parse_count, parse_mb, parse_strength

SHORT = 300  # the longest error line wanted, whatever the input's length

# ---------------------------------------------------------------- huge numbers
digits = st.one_of(
    st.integers(1, 40).map(lambda n: "9" * n),
    st.integers(4000, 6000).map(lambda n: "9" * n),  # around int()'s 4300-digit limit
    st.builds(lambda n, d: d * n, st.integers(1, 5000), st.sampled_from(["0", "1", "²", "٣"])),
    st.builds(str, st.integers(-10**30, 10**30)),
)


def _grammar_cases(number: str) -> list[tuple[str, object, tuple[type[Exception], ...]]]:
    """Each grammar with ``number`` where a number goes: (name, call, errors allowed)."""
    return [
        ("square", lambda: Position.parse(f"d1 d{number}"), (IllegalMoveError,)),
        ("move number", lambda: Position.parse(f"{number}. d1 d2"), (IllegalMoveError,)),
        ("game file square", lambda: parse_game(f"1. d1 d{number} *\n"), (GameFileError,)),
        ("game file move number", lambda: parse_game(f"{number}. d1 *\n"), (GameFileError,)),
        ("ugi moves", lambda: parse_position(["startpos", "moves", f"d{number}"]),
         (ValueError,)),
        ("fen run", lambda: parse_fen(f"{number}/7/7/7/7/7 x"), (ValueError,)),
        ("go", lambda: parse_go(["nodes", number, "movetime", number]), (ValueError,)),
        ("go depth", lambda: parse_go(["depth", number]), (ValueError,)),
        ("setoption", lambda: [o.parse(number) for o in OPTIONS], (ValueError,)),
        ("--nodes", lambda: parse_count(number, "--nodes"), (UnitError,)),
        ("--nodes exponent", lambda: parse_count(f"1e{number}", "--nodes"), (UnitError,)),
        ("--hash", lambda: parse_mb(number, "--hash"), (UnitError,)),
        ("strength", lambda: parse_strength(number, "strength"), (UnitError,)),
    ]


@fuzz(fast=40)
@given(digits)
def test_huge_numbers_in_every_grammar(number):
    """A number of any length: the value, or the grammar's own one-line error."""
    for name, call, errors in _grammar_cases(number):
        count(f"hostile: number in {name}")
        try:
            call()
        except errors as exc:
            msg = str(exc)
            assert "\n" not in msg and len(msg) < SHORT, (name, msg[:500])
            assert "Exceeds the limit" not in msg, (name, msg[:200])


# ---------------------------------------------------------------- long lines
line_lengths = st.lists(st.one_of(st.integers(0, 50), st.integers(MAX_LINE_CHARS - 2,
                                                                   MAX_LINE_CHARS + 2),
                                  st.integers(MAX_LINE_CHARS, 5 * MAX_LINE_CHARS)),
                        min_size=1, max_size=8)


@fuzz(fast=40)
@given(line_lengths, st.booleans(), st.booleans())
def test_bounded_lines(lengths, last_newline, as_bytes):
    """Every line up to the limit comes whole and in order; each longer one is one
    LineTooLong with its number; nothing longer than the limit is ever returned."""
    count("hostile: bounded_lines")
    lines = ["x" * n + "\n" for n in lengths]
    if not last_newline:
        lines[-1] = lines[-1][:-1] or "x"
    text = "".join(lines)
    stream = io.BytesIO(text.encode()) if as_bytes else io.StringIO(text)
    got = list(bounded_lines(stream))
    assert len(got) == len(lines)
    for i, (line, out) in enumerate(zip(lines, got, strict=True), 1):
        if len(line.rstrip("\n")) <= MAX_LINE_CHARS:
            assert (out.decode() if as_bytes else out) == line
        else:
            assert isinstance(out, LineTooLong) and out.number == i and not out.endless


def test_an_endless_line_stops_reading_after_the_skip_limit():
    count("hostile: bounded_lines")
    stream = io.BytesIO(b"ok\n" + b"y" * (MAX_SKIP + 3 * MAX_LINE_CHARS) + b"\nnever read\n")
    got = list(bounded_lines(stream))
    assert got[0] == b"ok\n" and isinstance(got[1], LineTooLong) and got[1].endless
    assert len(got) == 2


@fuzz(fast=3, long=200)
@given(st.lists(st.one_of(st.sampled_from(["4453", "4453", "8", "44a"]),
                          st.integers(MAX_LINE_CHARS + 1, 3 * MAX_LINE_CHARS).map(
                              lambda n: "4" * n)), min_size=1, max_size=5))
def test_solve_on_long_lines(lines):
    """c4tui solve as a process: each over-long line is one error line and the others are
    answered (or reported) as before. (Positions the book answers: no kernels to load.)"""
    count("hostile: solve with long lines")
    proc = subprocess.run([sys.executable, "-m", "c4tui", "solve"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=120)
    assert "Traceback" not in proc.stderr
    for i, line in enumerate(lines, 1):
        if len(line) > MAX_LINE_CHARS:
            assert f"c4tui: line {i}: longer than {MAX_LINE_CHARS} characters" in proc.stderr
    assert all(len(err) < SHORT for err in proc.stderr.splitlines())


# ---------------------------------------------------------------- not regular files
KINDS = ("fifo", "dev-zero", "dev-null", "dev-urandom", "link-to-zero", "link-to-fifo",
         "directory", "socket", "small", "at-cap", "over-cap", "dangling-link")


def _make(kind: str, d, cap: int):
    """A path of ``kind`` in ``d``; the sockets it made (closed by the caller)."""
    p = d / f"{kind}.c4g"
    if kind == "fifo":
        os.mkfifo(p)
    elif kind.startswith("dev-"):
        return os.path.join("/dev", kind[4:]), None
    elif kind == "link-to-zero":
        p.symlink_to("/dev/zero")
    elif kind == "link-to-fifo":
        os.mkfifo(d / "the-fifo")
        p.symlink_to(d / "the-fifo")
    elif kind == "directory":
        p.mkdir()
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(p))
        return p, sock
    elif kind == "dangling-link":
        p.symlink_to(d / "nowhere")
    else:
        size = {"small": 5, "at-cap": cap, "over-cap": cap + 1}[kind]
        p.write_bytes(b"4453\n" + b" " * (size - 5))
    return p, None


READERS = {
    "read_file": (lambda p: read_file(p, MAX_FILE_BYTES, "game file"), (OSError,)),
    "load_game": (load_game, (GameFileError,)),
    "book": (load_book, (BookError,)),
    "checkpoint": (Checkpoint.load, (CheckpointError,)),
    "recent": (load_recent, ()),
}


def _in_time(call, seconds: float = 20.0):
    """``call()`` in a thread: a reader that blocks (a FIFO) fails the test, not hangs it."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # handed back to the test
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "the reader blocked"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box.get("value")


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("kind", KINDS)
def test_readers_refuse_what_is_not_a_regular_file(tmp_path, kind, reader):
    """Every reader of a user-named file, on every kind of file: its content or one line,
    never a block or a read past the cap (/dev/zero and /dev/urandom are endless).
    Each pair once: there is nothing random to draw."""
    count(f"hostile: {reader} on odd files")
    path, sock = _make(kind, tmp_path, MAX_FILE_BYTES)
    call, errors = READERS[reader]
    odd = kind in ("fifo", "socket") or kind.startswith(("dev-", "link-to-"))
    try:
        value = _in_time(lambda: call(path))
    except errors as exc:
        msg = str(exc)
        assert "\n" not in msg and len(msg) < SHORT, msg
        assert not odd or msg.endswith("not a regular file"), msg
        return
    finally:
        if sock is not None:
            sock.close()
    if reader == "recent":  # never raises: an empty list, and a warning for an odd file
        assert value.files == []
        assert not odd or value.warning.endswith("not a regular file, ignored"), value
    else:
        assert kind in ("small", "at-cap") and reader in ("read_file", "load_game"), kind


@pytest.mark.skipif(not LONG, reason="the process variant runs in make fuzz only")
@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "link-to-zero"])
def test_review_refuses_odd_files_as_a_process(tmp_path, kind):
    count("hostile: review on odd files")
    path, _ = _make(kind, tmp_path, MAX_FILE_BYTES)
    proc = subprocess.run([sys.executable, "-m", "c4tui", "review", str(path)],
                          capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and proc.stderr.strip().endswith("not a regular file")
