"""Puzzles (c4tui/puzzles/, c4tui puzzles): SM-2 against worked examples, the themes on
constructed positions, the file format, a tiny seeded build that verifies, mirror images
dropped, the list and verify commands, and every puzzle of the shipped set re-solved."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import date, timedelta

import pytest
from c4tui.engine.board.position import Position

from c4tui.cli import main
from c4tui.puzzles import starter_path
from c4tui.puzzles.builder import Builder
from c4tui.puzzles.finder import keeping_move, worth_asking
from c4tui.puzzles.puzzle import Puzzle, canonical_key
from c4tui.puzzles.puzzlefile import (
    PuzzleFileError,
    format_puzzle,
    read_puzzles,
    write_puzzles,
)
from c4tui.puzzles.sm2 import Card, answer, next_ease, review
from c4tui.puzzles.themes import DOUBLE, EVEN, ODD, QUIET, ZUGZWANG, new_threat_row, theme_of
from c4tui.puzzles.verifier import problem

DAY = date(2026, 1, 1)


def run(argv, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(argv)
    out = capsys.readouterr()
    return info.value.code or 0, out.out, out.err


@pytest.fixture(scope="module")
def solver():
    from c4tui.book import load_default
    from c4tui.engine.solver.solver import Solver

    return Solver(16, book=load_default(), threads=1)


# ------------------------------------------------------------------ SM-2 (Wozniak 1990)
def test_sm2_intervals_of_the_published_algorithm():
    # q = 4 leaves EF at 2.5: I(1) = 1, I(2) = 6, I(3) = 6 * 2.5 = 15, I(4) = 37.5 -> 38
    card, days = Card(), []
    for _ in range(4):
        card = review(card, 4, DAY)
        days.append(card.interval)
    assert days == [1, 6, 15, 38] and card.ease == 2.5 and card.due == DAY + timedelta(38)
    # q = 5 raises EF by 0.1 each time: 2.6, 2.7, 2.8; I(3) = ceil(6 * 2.8) = 17
    card = Card()
    for _ in range(3):
        card = review(card, 5, DAY)
    assert (card.ease, card.interval) == (2.8, 17)


def test_sm2_ease_formula_and_floor():
    # EF' = EF + (0.1 - (5-q)(0.08 + (5-q)0.02)): q 3 -> -0.14, q 2 -> -0.32, q 0 -> -0.8
    assert next_ease(2.5, 3) == 2.36
    assert next_ease(2.5, 2) == 2.18
    assert next_ease(1.5, 0) == 1.3  # never below 1.3


def test_sm2_a_lapse_restarts_the_intervals_without_changing_ease():
    card = Card()
    for q in (5, 5, 5):
        card = review(card, q, DAY)
    lapsed = review(card, 1, DAY + timedelta(17))
    assert (lapsed.reps, lapsed.interval, lapsed.ease) == (0, 1, card.ease)
    assert lapsed.again  # step 7: repeated the same day
    # the same-day drill changes only "again"; the next day's answer is a repetition
    drilled = answer(lapsed, 5, DAY + timedelta(17))
    assert not drilled.again and drilled.interval == 1 and drilled.reps == 0
    assert answer(drilled, 5, DAY + timedelta(18)).reps == 1
    # a 3 is a pass that still comes back today
    hesitant = review(Card(), 3, DAY)
    assert hesitant.reps == 1 and hesitant.again


# ------------------------------------------------------------------ themes
def after(moves: str, col: int) -> tuple[Position, Position]:
    pos = Position.from_moves(moves)
    nxt = pos.copy()
    nxt.play(col)
    return pos, nxt


def test_double_threat_two_playable_squares():
    # c1 e1 against c2 e2: d1 makes c1-d1-e1 with b1 and f1 both playable
    assert theme_of(Position.from_moves("3355"), 3, "win") == DOUBLE
    assert theme_of(Position.from_moves("3355"), 0, "win") != DOUBLE  # a1: one threat


def test_odd_threat():
    # White's d4 completes g1-f2-e3-d4 onto e3 (row 3, above a playable e2): an odd
    # threat, and the threat-fill verdict gives White the win
    pos, nxt = after("45764467", 3)
    assert new_threat_row(pos, nxt, 0) == 3
    assert theme_of(pos, 3, "win") == ODD


def test_even_threat():
    # Black's d2 makes b2-c2-d2 with a2 and e2 free above empty squares: row 2
    pos, nxt = after("2233246", 3)
    assert new_threat_row(pos, nxt, 1) == 2
    assert theme_of(pos, 3, "win") == EVEN


def test_zugzwang_and_quiet():
    # a1 makes no threat; White's d4 (g1-f2-e3) was there, and the fill gives it White
    pos, nxt = after("76652557", 0)
    assert new_threat_row(pos, nxt, 0) is None
    assert theme_of(pos, 0, "win") == ZUGZWANG
    # no threats on the board at all: nothing for the verdict to go on
    assert theme_of(Position.from_moves("213472"), 0, "win") == QUIET


# ------------------------------------------------------------------ the finder
def test_keeping_move_is_exactly_one():
    assert keeping_move((-2, 3, -1, None, -5, -3, -4)) == (1, "win")
    assert keeping_move((-2, 0, -1, None, -5, -3, -4)) == (1, "draw")
    assert keeping_move((-2, 3, 1, None, -5, -3, -4)) is None  # two win
    assert keeping_move((-2, 0, 0, -1, -5, -3, -4)) is None  # two draw
    assert keeping_move((-2, -1, -1, -1, -5, -3, -4)) is None  # lost


def test_forced_and_obvious_positions_are_not_asked():
    assert not worth_asking(Position.from_moves("445566"))  # a win at once
    assert not worth_asking(Position.from_moves("4455667"))  # the block is forced
    assert worth_asking(Position.from_moves("3355"))


# ------------------------------------------------------------------ the file format
P = Puzzle("3355", 3, "win", 2, 0, 0, 1, DOUBLE)


def test_file_round_trip_and_line_format(tmp_path):
    path = tmp_path / "p.c4p"
    write_puzzles(path, [P], ["built by: a test"])
    lines = path.read_text().splitlines()
    assert lines[0] == "# c4tui puzzles 1" and lines[1] == "# built by: a test"
    assert lines[-1] == "3355 4 win 2 0 0 1 double-threat" == format_puzzle(P)
    assert read_puzzles(path).puzzles == [P]


@pytest.mark.parametrize("line, why", [
    ("3355 4 win 2 0 0 1", "7 fields, expected 8"),
    ("3358 4 win 2 0 0 1 quiet", "moves '3358': character 4 '8'"),
    ("1212121 4 win 2 0 0 1 quiet", "moves '1212121': the game is over"),
    ("3355 4 win 2 0 0 1 quiet extra", "9 fields, expected 8"),
    ("3355 9 win 2 0 0 1 quiet", "keep '9': not a column"),
    ("3355 4 loss 2 0 0 1 quiet", "result 'loss': not win or draw"),
    ("3355 4 win x 0 0 1 quiet", "length 'x': not a number"),
    ("3355 4 win 2 0 0 11 quiet", "difficulty '11': not a number 1-10"),
    ("3355 4 win 2 0 0 1 clever", "theme 'clever': not one of"),
])
def test_bad_lines_are_file_line_reason(tmp_path, line, why):
    path = tmp_path / "bad.c4p"
    path.write_text(f"# c4tui puzzles 1\n# a comment\n\n{line}\n3355 4 win 2 0 0 1 quiet\n")
    found = read_puzzles(path)
    assert len(found.puzzles) == 1  # the good line is kept
    assert len(found.errors) == 1 and found.errors[0].startswith(f"{path}:4: ")
    assert why in found.errors[0]


def test_header_and_unreadable_files(tmp_path):
    for text, why in (("3355 4 win 2 0 0 1 quiet\n", ":1: not a puzzle file"),
                      ("# c4tui puzzles 2\n", ":1: version '2', expected 1"),
                      ("", "empty")):
        path = tmp_path / "h.c4p"
        path.write_text(text)
        with pytest.raises(PuzzleFileError, match=why):
            read_puzzles(path)
    with pytest.raises(PuzzleFileError, match="No such file"):
        read_puzzles(tmp_path / "missing.c4p")
    with pytest.raises(PuzzleFileError, match="not a regular file"):
        read_puzzles("/dev/zero")


# ------------------------------------------------------------------ building
def fresh_build(seed: int) -> list[Puzzle]:
    from c4tui.book import load_default
    from c4tui.engine.solver.solver import Solver

    builder = Builder(Solver(16, book=load_default(), threads=1))  # nodes: a fresh table
    try:
        return builder.from_selfplay(4, seed=seed, limit=100).puzzles
    finally:
        builder.close()


def test_a_tiny_seeded_selfplay_finds_puzzles_that_verify(solver):
    puzzles = fresh_build(7)
    assert puzzles, "four games hold at least one puzzle"
    for p in puzzles:
        assert problem(p, solver) is None, p
        assert 1 <= p.difficulty <= 10
    assert len({canonical_key(p.position()) for p in puzzles}) == len(puzzles)
    assert fresh_build(7) == puzzles  # the same seed, the same puzzles
    assert fresh_build(8) != puzzles


def test_mirror_images_and_transpositions_are_dropped(solver):
    game = [c - 1 for c in (4, 5, 7, 6, 4, 4, 6, 7)]  # holds a puzzle (45764467 + d4)
    mirror = [6 - c for c in game]
    builder = Builder(solver)
    try:
        found = builder.from_games([game, mirror], limit=100)
    finally:
        builder.close()
    keys = [canonical_key(p.position()) for p in found.puzzles]
    assert found.puzzles and len(keys) == len(set(keys))
    assert found.duplicates == len(found.puzzles)  # each met again in the mirror game
    assert all(p.moves == "".join(str(c + 1) for c in game)[:len(p.moves)]
               for p in found.puzzles)  # none from the mirror game


def test_verify_finds_a_wrong_puzzle(solver):
    assert problem(P, solver) is None
    wrong = Puzzle("3355", 2, "win", 2, 0, 0, 1, DOUBLE)
    assert "the keeping move is 4 (win), not 3" in (problem(wrong, solver) or "")
    two = Puzzle("", 3, "win", 21, 0, 0, 1, QUIET)  # the empty board: d1 alone wins
    assert problem(two, solver) is None


# ------------------------------------------------------------------ the commands
def test_build_list_verify_commands(tmp_path, capsys):
    out = tmp_path / "small.c4p"
    code, _, err = run(["puzzles", "build", "--selfplay", "3", "--seed", "5", "--out",
                        str(out)], capsys)
    assert code == 0 and f"written to {out}" in err
    assert "# built by: c4tui puzzles build --selfplay 3 --seed 5" in out.read_text()
    code, listed, _ = run(["puzzles", "list", str(out)], capsys)
    assert code == 0 and listed
    for line in listed.splitlines():
        moves, keep, difficulty = line.split()
        assert moves.isdigit() and keep in "1234567" and 1 <= int(difficulty) <= 10
    code, said, _ = run(["puzzles", "verify", str(out)], capsys)
    assert code == 0 and "puzzles verified" in said


def test_verify_exits_1_on_a_bad_puzzle_and_bad_lines(tmp_path, capsys):
    path = tmp_path / "bad.c4p"
    path.write_text("# c4tui puzzles 1\n3355 3 win 2 0 0 1 quiet\nnonsense\n")
    code, out, err = run(["puzzles", "verify", str(path)], capsys)
    assert code == 1
    assert "3355: the keeping move is 4 (win), not 3" in out
    assert f"{path}:3: 1 fields, expected 8" in err
    assert "1 of 1 puzzles do not verify, 1 bad lines" in err
    code, _, err = run(["puzzles", "list", str(tmp_path / "none.c4p")], capsys)
    assert code == 2 and err.count("\n") == 1 and "none.c4p" in err


def test_build_needs_a_source(capsys):
    code, _, err = run(["puzzles", "build", "--out", "x.c4p"], capsys)
    assert code == 2 and "give game files or --selfplay N" in err


def test_build_refuses_an_out_that_is_no_file_before_it_builds(tmp_path, capsys):
    fifo = tmp_path / "pipe.c4p"
    os.mkfifo(fifo)  # (as /dev/full: the rename would have put a file in its place)
    for out, why in ((fifo, "not a regular file"), (tmp_path, "not a regular file"),
                     (tmp_path / "no" / "x.c4p", f"directory {tmp_path / 'no'} does not exist")):
        code, _, err = run(["puzzles", "build", "--selfplay", "2", "--out", str(out)], capsys)
        assert (code, err) == (2, f"c4tui: --out {out}: {why}\n")
    assert fifo.is_fifo()


@pytest.fixture
def read_only_dir(tmp_path):
    """A folder nobody may write in: a read-only tmpfs (as root, whom permissions do not
    stop), else a folder without write permission; skipped where neither is possible."""
    where = tmp_path / "ro"
    where.mkdir()
    if os.geteuid() != 0:
        where.chmod(0o500)
        yield where
        where.chmod(0o700)
        return
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(where)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot make a read-only folder here")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_build_refuses_an_out_it_cannot_write_before_it_builds(read_only_dir, monkeypatch,
                                                               capsys):
    from c4tui.puzzles import builder

    def no_build(*args, **kwargs):
        raise AssertionError("the build started")

    monkeypatch.setattr(builder, "Builder", no_build)
    out = read_only_dir / "p.c4p"
    code, out_text, err = run(["puzzles", "build", "--selfplay", "2", "--out", str(out)],
                              capsys)
    assert (code, out_text) == (2, "")
    assert err.startswith(f"c4tui: --out {out}: cannot write in {read_only_dir} (")
    assert err.count("\n") == 1 and list(read_only_dir.iterdir()) == []


def test_a_puzzle_file_with_a_bom_reads_as_without(tmp_path):
    """Windows' editors start a UTF-8 file with a BOM; a .c4g with one was read, a .c4p
    was 'not a puzzle file'."""
    path = tmp_path / "bom.c4p"
    path.write_bytes(b"\xef\xbb\xbf# c4tui puzzles 1\r\n3355 4 win 2 0 0 1 double-threat\r\n")
    assert read_puzzles(path).puzzles == [P]


def test_ctrl_c_keeps_what_was_found(tmp_path):
    out = tmp_path / "interrupted.c4p"
    proc = subprocess.Popen([sys.executable, "-m", "c4tui", "puzzles", "build", "--selfplay",
                             "100000", "--max", "100000", "--out", str(out)],
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stderr is not None
    for line in proc.stderr:  # every 25 games in a log
        if line.startswith("games 25/"):
            break
    proc.send_signal(signal.SIGINT)
    rest = proc.stderr.read()
    assert proc.wait(60) == 130
    assert "interrupted: " in rest and "puzzles written" in rest
    found = read_puzzles(out)
    assert found.puzzles and not found.errors
    assert "(interrupted)" in out.read_text().splitlines()[1]


# ------------------------------------------------------------------ the shipped set
def test_the_shipped_set_is_small_documented_and_all_verify(solver):
    path = starter_path()
    assert path.stat().st_size < 100_000
    text = path.read_text().splitlines()
    assert text[1].startswith("# built by: c4tui puzzles build --selfplay")
    found = read_puzzles(path)
    assert len(found.puzzles) >= 300 and not found.errors
    bad = [(p.moves, why) for p in found.puzzles if (why := problem(p, solver))]
    assert not bad
