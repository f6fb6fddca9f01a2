"""Board sizes other than 7x6: the engine checked against a brute-force solver
(tests/brute_force.py) and against the published empty-board results.

A process uses one size (numba freezes the geometry into the kernels), so each size runs
in a subprocess (tests/size_probe.py). Compiling the kernels for a size takes a minute or
two, so the default run checks one size (5x4, with Allis's zugzwang rules on), 5x5
for the scores of an odd-area board and 8x8 for the boards past 64 bits;
``C4TUI_TEST_SIZES=4x4,4x5,...`` and ``C4TUI_TEST_WIDE=9x9,...`` (or ``all``) check more.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from brute_force import column_scores, random_positions, solver
from c4tui.engine.board.geometry import BoardSizeError, parse_size

PROBE = Path(__file__).with_name("size_probe.py")
PONS_LINE = Path(__file__).parent / "data" / "pons" / "Test_L3_R1"  # 7x6 end games
DIGITS = "123456789ABCDEFGHIJKLMNOP"  # the digit notation: 1-9, then A-P

#: The published empty-board results (tests/data/empty_boards.txt).
EMPTY_BOARDS = Path(__file__).parent / "data" / "empty_boards.txt"


def read_empty_boards() -> dict[tuple[int, int], tuple[str, int | None]]:
    """(width, height) -> ('1' | '2' | '=', ply on which the game ends or None)."""
    table = {}
    for line in EMPTY_BOARDS.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        height, rest = line.split(":")
        who, plies = rest.split("|")
        for i, (w, p) in enumerate(zip(who.split(), plies.split(), strict=True)):
            table[(4 + i, int(height))] = (w, None if p == "-" else int(p))
    return table


#: Sizes checked against the brute force by default, and with C4TUI_TEST_SIZES=all.
DEFAULT_SIZES = ("5x4",)
ALL_SIZES = ("4x4", "5x4", "6x4", "7x4", "8x4", "4x5", "5x5", "6x5", "7x5", "4x6", "5x6",
             "6x6", "4x7", "5x7", "4x8")


#: Sizes past 64 bits (the 128-bit word, two-word table entries): 8x8 by default, and with
#: C4TUI_TEST_WIDE=all Little Golem's 9x9 and 10x10, Steininger's 10x6, and the extremes
#: (16x7 and 4x31: 128 bits; 25x4: the widest).
DEFAULT_WIDE = ("8x8",)
ALL_WIDE = ("8x8", "9x9", "10x10", "10x6", "6x10", "9x7", "16x7", "4x31", "25x4")


def _sizes(var: str = "C4TUI_TEST_SIZES", every: tuple[str, ...] = ALL_SIZES,
           default: tuple[str, ...] = DEFAULT_SIZES) -> list[str]:
    env = os.environ.get(var, "").strip()
    if env == "all":
        return list(every)
    return [s.strip() for s in env.split(",") if s.strip()] or list(default)


def expected_empty(width: int, height: int) -> tuple[str, int | None]:
    """('1' | '2' | '=', ply on which the game ends or None) for the empty board."""
    return read_empty_boards()[(width, height)]


def outcome(score: int, width: int, height: int) -> tuple[str, int]:
    """An empty-board score read as (winner, ply on which the game ends): Pons's score of
    a win with the disc played on ``n`` discs is ``(W*H + 1 - n) // 2``."""
    if score == 0:
        return "=", width * height
    n = next(n for n in range(width * height) if n % 2 == (score < 0)
             and (width * height + 1 - n) // 2 == abs(score))
    return "12"[score < 0], n + 1


def probe(size: str, positions: list[str], analyze: bool = False) -> list[dict]:
    """The engine's answers for ``positions`` (digit strings) on ``size``."""
    env = dict(os.environ, C4TUI_SIZE=size)
    args = [sys.executable, str(PROBE)] + (["--analyze"] if analyze else [])
    out = subprocess.run(args, input="".join(p + "\n" for p in positions), env=env,
                         capture_output=True, text=True, timeout=900, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    return [json.loads(line) for line in out.stdout.splitlines()]


def _digits(moves: list[int]) -> str:
    return "".join(DIGITS[c] for c in moves)


def python_on(size: str, code: str) -> str:
    """Run ``code`` in a new Python process on ``size``; its standard output."""
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, C4TUI_SIZE=size),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize("size", _sizes())
def test_size_against_brute_force(size: str) -> None:
    """Random positions with 10 and 12 empty squares: the solver's score and every
    column's score equal the brute force's; the best move achieves the score; the empty
    board matches the published result."""
    w, h = parse_size(size)
    score = solver(w, h)
    cases = (random_positions(w, h, 10, 24, seed=w * 100 + h)
             + random_positions(w, h, 12, 8, seed=w * 1000 + h))
    rows = probe(size, [_digits(m) for m in cases] + [""], analyze=True)
    assert len(rows) == len(cases) + 1
    for moves, row in zip(cases, rows[:-1], strict=True):
        assert row["size"] == [w, h]
        want = score(moves)
        assert row["score"] == want, f"{size} {row['moves']}"
        assert row["columns"] == column_scores(w, h, moves, score), f"{size} {row['moves']}"
        assert row["columns"][row["move"]] == want, f"{size} {row['moves']}: best move"
    assert outcome(rows[-1]["score"], w, h) == expected_empty(w, h)


@pytest.mark.parametrize("size", _sizes("C4TUI_TEST_WIDE", ALL_WIDE, DEFAULT_WIDE))
def test_wide_size_against_brute_force(size: str) -> None:
    """Boards past 64 bits: random positions with 10 and 12 empty squares, the solver's
    score and every column's score equal the brute force's and the best move achieves the
    score (their empty boards are beyond a test: see docs/benchmarks.md for Steininger's
    10x6 sets)."""
    w, h = parse_size(size)
    assert (h + 1) * w > 64
    score = solver(w, h)
    cases = (random_positions(w, h, 10, 16, seed=w * 100 + h, avoid_fours=True)
             + random_positions(w, h, 12, 6, seed=w * 1000 + h, avoid_fours=True))
    rows = probe(size, [_digits(m) for m in cases], analyze=True)
    assert len(rows) == len(cases)
    if w >= 7:
        # an early forced win, whose bounds are past the 6 bits a bound has on 7x6 on the
        # boards of more than 60 squares: after 5544 White makes an open three on the
        # bottom row and wins with its 4th disc, on ply 6: (W*H + 1 - 6) // 2 (38 on 9x9)
        assert probe(size, ["5544"])[0]["score"] == (w * h - 5) // 2
    for moves, row in zip(cases, rows, strict=True):
        assert row["size"] == [w, h]
        want = score(moves)
        assert row["score"] == want, f"{size} {row['moves']}"
        assert row["columns"] == column_scores(w, h, moves, score), f"{size} {row['moves']}"
        assert row["columns"][row["move"]] == want, f"{size} {row['moves']}: best move"


#: An odd-area size: there a second player's win scored one more than the field's.
ODD_AREA = "5x5"


def _pons_moves(score: int, ply: int, area: int) -> int:
    """The winner's moves from ``ply`` to the end, its winning one included, for a position
    of Pons's ``score`` (non-zero): the win is the disc played on ``n`` discs with
    ``(area + 1 - n) // 2 == |score|``, ``n`` of the winner's parity."""
    parity = ply % 2 if score > 0 else 1 - ply % 2
    n = next(n for n in range(ply, area) if n % 2 == parity
             and (area + 1 - n) // 2 == abs(score))
    return (n - ply) // 2 + 1


def test_odd_area_scores_are_the_fields() -> None:
    """Bug (issue 24): on an odd-area board a second player's win scored one more than in
    Pons's solver and Steininger's c4 (``(W*H + 1 - n) // 2`` for a win with the disc played
    on n discs). On 5x5 against the brute force in Pons's convention: the solver and each
    column's score, `c4tui solve -a`, and the "win in N" / "loss in N" of
    `c4tui analyze` and of ``scores.result_words``."""
    w, h = parse_size(ODD_AREA)
    area = w * h
    score = solver(w, h)
    cases = (random_positions(w, h, 10, 16, seed=505)  # 15 discs: the second player to move
             + random_positions(w, h, 11, 16, seed=5050))  # 14: the first player to move
    rows = probe(ODD_AREA, [_digits(m) for m in cases], analyze=True)
    wants = [score(m) for m in cases]
    for moves, row, want in zip(cases, rows, wants, strict=True):
        assert row["size"] == [w, h]
        assert row["score"] == want, f"{ODD_AREA} {row['moves']}"
        assert row["columns"] == column_scores(w, h, moves, score), f"{ODD_AREA} {row['moves']}"
    second = [i for i, (m, s) in enumerate(zip(cases, wants, strict=True))
              if s and (s > 0) == (len(m) % 2 == 1)]  # won by the second player
    assert len(second) >= 6, "no case where the conventions differ"
    # the command line: a second player's win, to move and not (Black wins in N)
    for i in (next(i for i in second if len(cases[i]) == 15),
              next(i for i in second if len(cases[i]) == 14)):
        moves, want = _digits(cases[i]), wants[i]
        out = subprocess.run([sys.executable, "-m", "c4tui", "solve", "--size", ODD_AREA,
                              "-a", moves], capture_output=True, text=True, timeout=900)
        assert out.returncode == 0, out.stderr
        cols = column_scores(w, h, cases[i], score)
        assert out.stdout.split() == [moves, *("-1000" if c is None else str(c) for c in cols)]
        out = subprocess.run([sys.executable, "-m", "c4tui", "analyze", "--size", ODD_AREA,
                              moves], capture_output=True, text=True, timeout=900)
        assert out.returncode == 0, out.stderr
        n = _pons_moves(want, len(cases[i]), area)
        assert f", Black wins in {n}, band exact" in out.stdout, (moves, want, out.stdout)
    help_text = subprocess.run([sys.executable, "-m", "c4tui", "solve", "--help"],
                               capture_output=True, text=True, timeout=120,
                               env={**os.environ, "COLUMNS": "200"}).stdout
    assert "floor((W*H + 1 - n) / 2)" in " ".join(help_text.split()), help_text
    # the words, and the score back from the moves (an external engine's "mate K")
    code = ("from c4tui.engine.scores import moves_to_end, result_words, score_for_moves\n"
            "import json, sys\n"
            "print(json.dumps([(result_words(s, p), score_for_moves(moves_to_end(s, p) * "
            "(1 if s > 0 else -1), p)) for s, p in json.load(sys.stdin)]))\n")
    pairs = [(s, p) for p in range(area) for s in range(-(area // 2), area // 2 + 1)
             if s and any(n % 2 == (p % 2 if s > 0 else 1 - p % 2)
                          and (area + 1 - n) // 2 == abs(s) for n in range(p, area))]
    out = subprocess.run([sys.executable, "-c", code], input=json.dumps(pairs),
                         env=dict(os.environ, C4TUI_SIZE=ODD_AREA), capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    for (s, p), (text, back) in zip(pairs, json.loads(out.stdout), strict=True):
        winner = ("White", "Black")[p % 2 if s > 0 else 1 - p % 2]
        assert text == f"{winner} wins in {_pons_moves(s, p, area)}", (s, p)
        assert back == s, (s, p)


def test_sizes_keep_their_own_kernels() -> None:
    """Two sizes in two processes in a row, then the first again (from its cache): each
    answers for its own size (numba's cache must not hand one size's kernels to another)."""
    size = _sizes()[0]
    w, h = parse_size(size)
    moves, score = PONS_LINE.read_text().split("\n")[0].split()
    for _ in range(2):
        row = probe(size, [""])[0]
        assert row["size"] == [w, h]
        assert outcome(row["score"], w, h) == expected_empty(w, h)
        row = probe("7x6", [moves])[0]
        assert row["size"] == [7, 6] and row["score"] == int(score)


def test_empty_board_table() -> None:
    """The table reads as published; scores read as (winner, last ply)."""
    table = read_empty_boards()
    assert table[(4, 4)] == ("=", 16) and table[(12, 4)] == ("2", 48)
    assert table[(7, 6)] == ("1", 41) and table[(7, 10)] == ("1", None)
    assert outcome(1, 7, 6) == ("1", 41) and outcome(-1, 7, 7) == ("2", 48)
    assert outcome(-2, 7, 6) == ("2", 40)
    assert outcome(0, 5, 5) == ("=", 25) and outcome(13, 5, 5) == ("1", 1)


def test_brute_force_agrees_with_published_4x4() -> None:
    """The brute force itself is right: the empty 4x4 board is a draw (Tromp)."""
    assert solver(4, 4)([]) == 0


@pytest.mark.parametrize("text,message", [
    ("3x6", "at least 4"), ("7x3", "at least 4"), ("16x8", "at most 128"),
    ("4x32", "at most 128"), ("26x4", "at most 25 columns"), ("seven", "expected WxH"),
    ("7x", "expected WxH"),
])
def test_bad_sizes(text: str, message: str) -> None:
    with pytest.raises(BoardSizeError, match=message):
        parse_size(text)


def test_good_sizes() -> None:
    assert parse_size("7x6") == (7, 6)
    assert parse_size("12x4") == (12, 4)
    assert parse_size("8X7") == (8, 7)
    assert parse_size("4x15") == (4, 15)
    # past 64 bits: Little Golem's boards, Steininger's 10x6, the 128-bit extremes
    for w, h in ((8, 8), (9, 9), (10, 10), (10, 6), (16, 7), (4, 31), (25, 4)):
        assert parse_size(f"{w}x{h}") == (w, h)


def test_game_files_record_the_size(tmp_path) -> None:
    """A saved game says its size; a game of another size (or a file without the header,
    7x6, read on another size) is a one-line error that names the --size to use."""
    from c4tui.engine.board.position import Position

    from c4tui.gamefile import GameFileError, format_game, parse_game

    text = format_game(parse_game("4453"))
    assert '[Size "7x6"]' in text
    assert parse_game(text).position == Position.from_moves("4453")
    with pytest.raises(GameFileError, match=r"a 5x4 game, but c4tui runs 7x6 \(open it with "
                       r"--size 5x4\)"):
        parse_game('[Size "5x4"]\n1. c1 *', "g.c4g")
    with pytest.raises(GameFileError, match="g.c4g: Size header: size '7by6'"):
        parse_game('[Size "7by6"]\n1. c1 *', "g.c4g")
    # the same on 5x4 (no kernels needed: a plain subprocess)
    code = ("from c4tui.gamefile import format_game, parse_game\n"
            "g = parse_game('1. c1 c2 e1')\n"
            "t = format_game(g)\n"
            "assert '[Size \"5x4\"]' in t and parse_game(t).position.digits() == '335'\n"
            "try:\n"
            "    parse_game('[Event \"x\"]\\n1. d1 *', 'old.c4g')\n"
            "except ValueError as e:\n"
            "    print(e)\n")
    assert python_on("5x4", code).strip() == (
        "old.c4g: a 7x6 game (no Size header), but c4tui runs 5x4 (open it with --size 7x6)")


def test_cli_size_errors() -> None:
    """An invalid --size is one line on stderr and exit status 2, whatever the command."""
    for args in (["solve", "--size", "3x6", "44"], ["analyze", "--size=16x8", "4"],
                 ["--size", "seven", "book", "info"], ["engine", "--size", "4x"]):
        out = subprocess.run([sys.executable, "-m", "c4tui", *args], capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 2, (args, out.stderr)
        # the one form, --option VALUE: reason (it was '--size: size 3x6: ...')
        value = args[args.index("--size") + 1] if "--size" in args else "16x8"
        shown = repr(value) if "x" not in value or value.endswith("x") else value
        assert out.stderr.startswith(f"c4tui: --size {shown}: "), out.stderr
        assert out.stderr.count("\n") == 1


def test_bench_on_another_size_runs_the_empty_board_and_files() -> None:
    """Pons's sets and BitBully are 7x6: on 5x4 (the default run's size) bench says so in
    one line, and its --empty solves the 5x4 board (a draw) without the peer."""
    run = [sys.executable, "-m", "c4tui", "--size", "5x4", "bench", "-t", "1"]
    out = subprocess.run([*run, "-n", "1"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and out.stderr == (
        "c4tui: bench: on 5x4 only --empty and --set FILE run (Pons's sets, the scored "
        "positions and BitBully are 7x6)\n")
    out = subprocess.run([*run, "--empty", "--hash", "4"], capture_output=True, text=True,
                         timeout=900, env={**os.environ, "COLUMNS": "200"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("c4tui: empty board score 0,") and "BitBully" not in out.stdout


def test_cli_solves_another_size() -> None:
    """`c4tui solve --size 5x4 -a` (the default run's size: no second compilation): no
    book, the generalised scores (5x4: 11 - k), the brute force's column scores."""
    moves = "121212333444"
    out = subprocess.run([sys.executable, "-m", "c4tui", "solve", "--size", "5x4", "-a",
                          moves], capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    cols = [int(c) - 1 for c in moves]
    want = " ".join(str(v) for v in column_scores(5, 4, cols, solver(5, 4)))
    # column 1 wins at once with White's 7th disc: 11 - 7 = 4
    assert want.startswith("4 ")
    assert out.stdout.splitlines() == [f"{moves} {want}"]
    info = subprocess.run([sys.executable, "-m", "c4tui", "book", "info", "--size", "5x4"],
                          capture_output=True, text=True, timeout=120)
    assert info.returncode == 0 and "the opening books are 7x6 only" in info.stdout


def test_book_build_and_derive_on_another_size(tmp_path) -> None:
    """A strong solve of 5x4 as the issue describes it: `book build` of every 8-disc
    position, then `book derive --down-to 0`. The empty board is the published draw, the
    built entries agree with the brute force, and the book refuses to load on 7x6."""
    env = dict(os.environ, C4TUI_SIZE="5x4")

    def c4(*args: str, size_env: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "c4tui", *args], capture_output=True,
                              text=True, timeout=900, env=env if size_env else None,
                              cwd=tmp_path)

    built = c4("book", "build", "--plies", "8", "--workers", "0", "--out", "b.c4b",
               "--no-progress")
    assert built.returncode == 0, built.stderr
    assert c4("book", "derive", "b.c4b", "--down-to", "0", "--out", "full.c4b").returncode == 0
    empty = c4("book", "lookup", "", "--book-file", "full.c4b")
    assert empty.returncode == 0 and ": 0 (draw)" in empty.stdout, empty.stdout
    code = ("import json, random; from c4tui.book import load; "
            "from c4tui.book.keys import key_to_moves; b = load('b.c4b'); "
            "i = random.Random(5).sample(range(len(b)), 40); "
            "print(json.dumps([(key_to_moves(int(b.keys[j])), int(b.scores[j])) for j in i]))")
    sample = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=300)
    assert sample.returncode == 0, sample.stderr
    score = solver(5, 4)
    for moves, want in json.loads(sample.stdout):
        assert len(moves) == 8 and score(moves) == want, moves
    wrong = c4("book", "info", "full.c4b", size_env=False)
    assert wrong.returncode != 0
    assert wrong.stderr.strip().endswith("a book of the 5x4 board, not 7x6 (use --size 5x4)")
    assert "Traceback" not in wrong.stderr
    no_file = c4("book", "verify")
    assert no_file.returncode == 2 and "name a book file on 5x4" in no_file.stderr


@pytest.mark.parametrize("size", ["7x6", "12x4", "8x7", "4x15"])
def test_table_layout_fits_every_size(size: str) -> None:
    """The solver's table entry fits 64 bits on every size: move field, check above it
    (at the smallest table), bounds beyond the largest score (no kernel compiled)."""
    code = ("from c4tui.engine.board import geometry as g\n"
            "from c4tui.engine.solver import tt\n"
            "from c4tui.engine.analysis import tt as at\n"
            "assert g.WIDTH + 1 <= 1 << tt.MOVE_BITS\n"
            "assert tt.CHECK_SHIFT + tt.KEY_BITS + 1 - tt.MIN_BITS <= 64\n"
            "assert tt.KEY_BITS == g.WIDTH * (g.HEIGHT + 1) <= 64\n"
            "assert g.MAX_SCORE < 31 and g.HALF - g.SIZE // 2 in (0, 1)\n"
            "assert g.WIDTH + 1 <= 1 << at.MOVE_BITS and int(at.EXACT_MODE_BIT) < 1 << 32\n"
            "assert tt.NEAR_BITS == 0 or tt.MIN_BITS <= tt.NEAR_BITS\n"
            "print(tt.MIN_BITS, tt.CHECK_SHIFT, tt.NEAR_BITS)\n")
    fields = python_on(size, code).split()
    if size == "7x6":
        assert fields == ["10", "20", "17"]  # 7x6's layout is unchanged; a 1 MiB near tier
    if size == "8x7":
        assert fields[2] == "0"  # a 1 MiB table cannot hold 8x7's checks: no near tier


def _app_probe(size: str, cols: int, rows: int) -> dict:
    out = subprocess.run([sys.executable, str(Path(__file__).with_name("size_app_probe.py")),
                          str(cols), str(rows)], env=dict(os.environ, C4TUI_SIZE=size),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)


def test_app_keeps_the_moves_box_whole_up_to_9x7_at_80x24() -> None:
    """Bug: on 8x7 the board's row was 12 lines, lower than the side column needs: the
    moves box was one line high, without its lower border (the docs promise 80x24 up to
    9 columns and 7 rows)."""
    for size in ("8x7", "9x6"):
        out = _app_probe(size, 80, 24)
        assert out["moves_box"] >= 3 and not out["notes"], (size, out)


def test_app_draws_other_sizes() -> None:
    """The app on 9x6 at 80x24: nine columns, keys 1-9, the cursor and the mouse reach
    every column, no warning; on 4x10 (two-digit rows, at the 80x25 it needs) the gutter
    widens."""
    wide = _app_probe("9x6", 80, 24)
    assert wide["line"] == [0, 0, 8, 0, 8]  # 1 1 9, right wraps to a, the click on i
    lines = wide["board"].splitlines()
    assert lines[0].split() == list("abcdefghi") and lines[7].split() == list("123456789")
    assert [ln.split()[0] for ln in lines[1:7]] == list("654321")
    assert wide["box"][1] >= 6 + 3 and not wide["notes"]  # (the side column's height)
    # L: no gamesolver.org link of a 9x6 game (the site would show another game, or none)
    assert "gamesolver" not in wide["link"][0]
    assert wide["link"][1] == ("link: connect4.gamesolver.org's links are of 7x6 games, "
                               "this board is 9x6 (c copies the moves)")
    tall = _app_probe("4x10", 80, 25)  # (at 80x24 one line says it needs 80x25:
    assert tall["line"] == [0, 0, 1, 2, 3]  # tests/test_wide_layout.py)
    lines = tall["board"].splitlines()
    assert lines[1].startswith("10  ") and lines[10].startswith(" 1  ")
    assert tall["notes"] == []


def test_fen_on_a_wide_board() -> None:
    """UGI's FEN on 12x4: the start position, runs of 10+ empty squares, a run too long."""
    code = ("from c4tui.ugi.fen import START_FEN, parse_fen, to_fen\n"
            "from c4tui.engine.board.position import Position\n"
            "p = Position.from_moves('1AC')\n"
            "print(START_FEN); print(to_fen(p)); print(parse_fen(to_fen(p)) == p)\n"
            "try:\n"
            "    parse_fen('13/12/12/12 x')\n"
            "except ValueError as e:\n"
            "    print(e)\n")
    assert python_on("12x4", code).splitlines() == [
        "12/12/12/12 x", "12/12/12/x8o1x o", "True",
        "fen rank 4 '13': '13' is neither a disc (x, o) nor 1-12"]


def test_bench_reads_a_set_file_of_another_size(tmp_path: Path) -> None:
    """`bench --size 5x4 --set FILE --zero-based` (Steininger's format: 0-based columns and
    the score) solves the file's positions and counts the ones whose score differs."""
    w, h = 5, 4
    score = solver(w, h)
    cases = random_positions(w, h, 10, 6, seed=54)
    lines = ["".join(str(c) for c in m) + f" {score(m)}" for m in cases]
    good = tmp_path / "good.txt"
    good.write_text("\n".join(lines) + "\n")
    bad = tmp_path / "bad.txt"
    moves, value = lines[0].split()
    bad.write_text(f"{moves} {int(value) + 1}\n" + "\n".join(lines[1:]) + "\n")
    run = [sys.executable, "-m", "c4tui", "--size", "5x4", "bench", "-t", "1", "--zero-based"]
    env = {**os.environ, "COLUMNS": "200"}
    for path, wrong in ((good, 0), (bad, 1)):
        out = subprocess.run([*run, "--set", str(path)], capture_output=True, text=True,
                             timeout=900, env=env)
        assert out.returncode == 0, out.stderr
        row = next(line for line in out.stdout.splitlines()
                   if line.split()[:1] == [path.name] and line.split()[1].isdigit())
        assert row.split()[1] == str(len(cases)) and row.split()[-1] == str(wrong), out.stdout
    # a move the board does not have (column 5 on 5x4, 0-based), or a full column: one line
    for text, why in (("0125 0", "character 4 '5': not a column (expected 0-4)"),
                      ("00000 0", "move 5 (a): column a is full")):
        path = tmp_path / "moves.txt"
        path.write_text(f"{lines[0]}\n{text}\n")
        out = subprocess.run([*run, "--set", str(path)], capture_output=True, text=True,
                             timeout=900, env=env)
        assert out.returncode == 2 and out.stderr.startswith(f"c4tui: {path}:2: "), out.stderr
        assert why in out.stderr and out.stderr.count("\n") == 1, out.stderr
