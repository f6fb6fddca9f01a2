"""c4tui match's openings: a file of move strings (checked line by line) or the drawn
positions of our book."""

from __future__ import annotations

import pytest
from c4tui.book.answer import BookReader
from c4tui.engine.board.position import Position

from c4tui.match.openings import OpeningsError, book_openings, read_openings


def test_a_file_of_digits_and_squares_with_comments_and_blank_lines(tmp_path):
    f = tmp_path / "o.txt"
    f.write_text("# openings\n4453\n\n  d1 d2 c1  \n\n", encoding="utf-8")
    assert [o.digits for o in read_openings(f)] == ["4453", "443"]


@pytest.mark.parametrize("text, line, why", [
    ("4453\n4458\n", 2, "character 4 '8': not a column"),
    ("44\n\nd1 d3\n", 3, "d3"),
    ("1212121\n", 1, "the game is over"),
    ("x" * 5000 + "\n", 1, "longer than"),
])
def test_a_bad_line_is_one_line_naming_file_and_line(tmp_path, text, line, why):
    f = tmp_path / "o.txt"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(OpeningsError) as exc:
        read_openings(f)
    message = str(exc.value)
    assert message.startswith(f"{f}:{line}: ") and why in message and "\n" not in message


def test_an_empty_or_missing_file(tmp_path):
    (tmp_path / "empty.txt").write_text("# nothing\n\n")
    with pytest.raises(OpeningsError, match="no openings"):
        read_openings(tmp_path / "empty.txt")
    with pytest.raises(OpeningsError, match="cannot read it"):
        read_openings(tmp_path / "missing.txt")


def test_book_openings_are_drawn_distinct_up_to_mirror_and_shuffled_by_seed():
    first = book_openings(3, seed=1)
    reader = BookReader()
    digits = [o.digits for o in first]
    positions = [o.position() for o in first]
    assert all(p.ply == 3 and reader.score(p) == 0 for p in positions)
    keys = {min(p.key(), p.mirror().key()) for p in positions}
    assert len(keys) == len(first) == 29  # the drawn 3-disc positions, mirrors once
    again, other = book_openings(3, seed=1), book_openings(3, seed=2)
    assert [o.digits for o in again] == digits
    assert sorted(o.digits for o in other) == sorted(digits) and \
        [o.digits for o in other] != digits
    assert Position.from_moves(digits[0]).ply == 3


def test_book_openings_without_a_book(no_books):
    with pytest.raises(OpeningsError, match="no opening book in use.*--openings FILE"):
        book_openings(2, seed=0)


def test_book_openings_plies_out_of_range():
    with pytest.raises(OpeningsError, match=r"--opening-plies 9: out of range \(1 to 8\)"):
        book_openings(9, seed=0)


def test_a_fifo_or_a_device_is_refused_without_waiting(tmp_path):
    import os

    fifo = tmp_path / "openings"
    os.mkfifo(fifo)  # open() would wait for a writer forever
    for path in (fifo, "/dev/zero"):
        with pytest.raises(OpeningsError, match=f"^{path}: not a regular file$"):
            read_openings(path)
