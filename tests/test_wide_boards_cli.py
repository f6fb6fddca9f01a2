"""Boards past 64 bits and past 12 columns on the Python side (issue 28): the notations,
game files, the games database, the books and the command line's sizes. Each size runs in
its own process (the size is process-wide), and none of these needs a kernel: no
compilation, a second or so per process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a dozen c4tui processes, 10 s


def c4tui(*args: str, size: str | None = None, cwd: Path | None = None,
          env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full = dict(os.environ, **(env or {}), COLUMNS="200")
    full.pop("C4TUI_SIZE", None)
    if size is not None:
        full["C4TUI_SIZE"] = size
    return subprocess.run([sys.executable, "-m", "c4tui", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd, env=full)


def python_on(size: str, code: str, cwd: Path | None = None) -> str:
    """Run ``code`` in a new Python process on ``size``; its standard output."""
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, C4TUI_SIZE=size),
                         capture_output=True, text=True, timeout=120, cwd=cwd)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


@pytest.mark.parametrize("args,value,why", [
    (["--size", "99x99"], "99x99", "too wide, at most 25 columns (a-y)"),
    (["analyze", "--size", "26x4", ""], "26x4", "too wide, at most 25 columns (a-y)"),
    (["solve", "--size=16x8", "44"], "16x8", "too large, (height + 1) x width must be at "
     "most 128 (one bit per square and a sentinel row)"),
    (["engine", "--size", "4x32"], "4x32", "at most 128"),
    (["serve", "--size", "16x8"], "16x8", "at most 128"),
    (["--size", "26x4", "db", "stats"], "26x4", "at most 25 columns"),
])
def test_hostile_sizes_are_one_line(args: list[str], value: str, why: str) -> None:
    """A size beyond the limits, on any command or the app: one line naming the limit,
    exit status 2, no traceback."""
    out = c4tui(*args)
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith(f"c4tui: --size {value}: ") and why in out.stderr
    assert out.stderr.count("\n") == 1 and out.stdout == ""


def test_help_names_the_limits() -> None:
    text = " ".join(c4tui("solve", "--help").stdout.split())
    assert "W at most 25, (H + 1) x W at most 128 (8x8, 9x9, 10x10)" in text, text


#: Every notation on the widest board (25x4: columns a-y, digits 1-9 then A-P).
NOTATIONS = r"""
import json
from c4tui.engine.board.position import IllegalMoveError, MOVE_CHARS, Position
from c4tui.gamefile import format_game, parse_game
from c4tui.ugi.fen import parse_fen, to_fen
out = {"chars": MOVE_CHARS}
p = Position.from_moves(MOVE_CHARS)  # one disc in every column
out["digits"] = p.digits()
out["zero"] = p.zero_based()
out["algebraic"] = p.algebraic().split()[-3:]
out["same"] = [Position.parse(t) == p for t in (p.zero_based(), p.algebraic(),
               "https://example.org/?pos=" + p.digits(), p.digits())]
out["fen"] = to_fen(p)
out["fen_back"] = parse_fen(to_fen(p)) == p
g = parse_game(format_game(parse_game(p.algebraic())))
out["game"] = [g.position == p, '[Size "25x4"]' in format_game(g)]
errors = []
for read, text in ((Position.from_moves, "1Q"), (Position.parse, "0:OP"),
                   (Position.parse, "z1"), (Position.parse, "y5")):
    try:
        read(text)
    except IllegalMoveError as exc:
        errors.append(str(exc))
out["errors"] = errors
print(json.dumps(out))
"""


def test_notations_of_the_widest_board() -> None:
    """25 columns: the digit notation goes on with A-P (columns 10-25) and the 0-based one
    with A-O, one character per column, so every column has a name in every notation and
    a game file, a link, a FEN and the squares read back the same position."""
    out = json.loads(python_on("25x4", NOTATIONS))
    assert out["chars"] == "123456789ABCDEFGHIJKLMNOP"
    assert out["digits"] == out["chars"]
    assert out["zero"] == "0:0123456789ABCDEFGHIJKLMNO"
    assert out["algebraic"] == ["w1", "x1", "y1"]
    assert out["same"] == [True] * 4 and out["fen_back"] and out["game"] == [True, True]
    assert out["fen"] == "25/25/25/" + "".join("xo"[i % 2] for i in range(25)) + " o"
    assert out["errors"] == [
        "character 2 'Q': not a column (expected 1-P)",
        "0-based '0:OP': character 2 'P': not a column (expected 0-O)",
        "move 1 'z1': not a square (expected a1-y4)",
        "move 1 'y5': not a square (expected a1-y4)",
    ]


DB = r"""
import json, sqlite3, sys
from c4tui.db.store import connect
from c4tui.db.explorer import explore, games_through, summary
from c4tui.engine.board.position import Position
conn = connect(__import__("pathlib").Path("g.sqlite"))
p = Position.from_moves("8")  # the mirror image of "1"
stats = explore(conn, p)
keys = [k for (k,) in conn.execute("SELECT key FROM positions")]
print(json.dumps({
    "moves": [(m.col, m.games) for m in stats.moves],
    "through": [g.moves for g in games_through(conn, Position.from_moves("1878"))],
    "types": sorted({type(k).__name__ for k in keys}),
    "widest": max(int.from_bytes(k, "big") for k in keys).bit_length(),
    "distinct": summary(conn).distinct,
}))
"""


def test_games_database_past_64_bits(tmp_path: Path) -> None:
    """On 8x8 (72-bit keys) the database stores each position's canonical key whole (16
    bytes: SQLite's integers are 64 bits), a position and its mirror image share it, and
    the explorer and the search find the games through them."""
    games = ["1878", "8121", "88888888", "1234567812345678"]
    (tmp_path / "g.txt").write_text("\n".join(games) + "\n")
    out = c4tui("db", "import", "--size", "8x8", "--db", "g.sqlite", "g.txt", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "4 games read: 4 new" in out.stdout
    again = c4tui("db", "import", "--size", "8x8", "--db", "g.sqlite", "g.txt", cwd=tmp_path)
    assert "0 new, 4 already stored" in again.stdout, again.stdout
    seen = json.loads(python_on("8x8", DB, cwd=tmp_path))
    # after h1, or its mirror image a1: every game; then a1 (8121, and 1878 mirrored),
    # g1 (12345678..., mirrored) and h2 (88888888)
    assert seen["moves"] == [[0, 2], [6, 1], [7, 1]], seen
    assert seen["through"] == ["1878", "8121"]  # mirror images of each other
    assert seen["types"] == ["bytes"] and seen["widest"] > 64
    # 1878's 5 positions (8121's are their mirror images), then 7 and 15 more
    assert seen["distinct"] == 5 + 7 + 15
    found = c4tui("db", "search", "--size", "8x8", "--db", "g.sqlite", "a1 b1", cwd=tmp_path)
    assert found.returncode == 0 and found.stdout.endswith("1 game through 12\n"), found.stdout


@pytest.mark.parametrize("command", [
    ["build", "--plies", "2", "--workers", "0", "--out", "x.c4b"],
    ["lookup", "44"],
    ["info", "book.c4b"],
    ["derive", "book.c4b"],
    ["verify", "book.c4b"],
])
def test_no_books_past_64_bits(command: list[str], tmp_path: Path) -> None:
    """A book's keys are 64-bit words: on 8x8 every book command says so in one line
    (exit status 2) before it reads or builds anything (book build solved for ever)."""
    (tmp_path / "book.c4b").write_bytes(b"not a book")
    out = c4tui("book", *command, "--size", "8x8", cwd=tmp_path)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert out.stderr == (f"c4tui: book {command[0]}: no books on 8x8 (a book's keys are 64 "
                          "bits, a position of this board takes 72: books are for boards of "
                          "at most 64 bits, such as 7x6, 8x7 or 9x6)\n")
    assert not (tmp_path / "x.c4b").exists()


def test_8x8_never_opens_the_7x6_book(tmp_path: Path) -> None:
    """`book info` and the engine's books on 8x8: no book, said plainly, and the 7x6 book
    (here C4TUI_BOOK, a file that would fail to load) is never opened."""
    bad = tmp_path / "bad.c4b"
    bad.write_bytes(b"garbage")
    out = c4tui("book", "info", "--size", "8x8", env={"C4TUI_BOOK": str(bad)})
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout == "no books on 8x8 (a book's keys are 64 bits, a position of this " \
                         "board takes 72)\n"
    code = ("import logging, c4tui.book as b\n"
            "logging.basicConfig()\n"
            "print(b.load_default(), b.default_status())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, C4TUI_SIZE="10x10",
                                               C4TUI_BOOK=str(bad)))
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert out.stdout.startswith("None no books on 10x10 (a book's keys are 64 bits, a "
                                 "position of this board takes 110)")


def test_inaccuracy_ranges_over_the_board() -> None:
    """``--inaccuracy N`` (moves slower) goes up to the board's squares: 64 on 8x8 (it was
    42, 7x6's, on every size); past them, one line before any solving."""
    for command in (["review", "44"], ["open", "44"]):
        out = c4tui(*command, "--inaccuracy", "65", size="8x8")
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr == "c4tui: --inaccuracy 65: out of range (1 to 64)\n", out.stderr
