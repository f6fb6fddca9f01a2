"""The .c4b book format: round trip, corrupt files, the default book, the kernel probe."""

from __future__ import annotations

import logging

import c4tui.book as bookpkg
import numpy as np
import pytest
from c4tui.book import Book, BookError, load, load_default, make_book, plies_mask, save
from c4tui.book.enumeration import enumerate_positions
from c4tui.book.format import HEADER_SIZE, NO_BOOK_ARGS, decode, encode
from c4tui.book.keys import (
    canonical_key,
    key_to_moves,
    key_to_position,
    key_to_words,
    mirror_key,
    position_key,
)
from c4tui.engine.board.position import Position


@pytest.fixture(scope="module")
def enum5():
    return enumerate_positions(5)


@pytest.fixture(scope="module")
def book5(enum5):
    rng = np.random.default_rng(5)
    scores = rng.integers(-18, 19, len(enum5)).astype(np.int8)
    return make_book(enum5.keys, scores, plies_mask([5]))


def test_round_trip(tmp_path, book5):
    path = tmp_path / "b.c4b"
    save(book5, path)
    back = load(path)
    assert np.array_equal(back.keys, book5.keys)
    assert np.array_equal(back.scores, book5.scores)
    assert back.plies == book5.plies and back.ply_list == (5,) and back.max_ply == 5
    assert back.checksum == book5.checksum and len(back.checksum_hex) == 64
    assert np.all(back.keys[1:] > back.keys[:-1])
    # compact: far below the 9 raw bytes per entry
    assert path.stat().st_size < 6 * len(book5)
    assert not [p for p in tmp_path.iterdir() if p.name != "b.c4b"]  # no temp file left


def test_round_trip_empty_and_single():
    for keys, scores in (([], []), ([12345], [-7])):
        b = make_book(keys, scores, plies_mask([3, 4]))
        back = decode(encode(b))
        assert back.keys.tolist() == list(keys) and back.scores.tolist() == list(scores)
        assert back.ply_list == (3, 4)


def test_make_book_sorts_and_rejects_duplicates():
    b = make_book([30, 10, 20], [1, 2, 3], 1)
    assert b.keys.tolist() == [10, 20, 30] and b.scores.tolist() == [2, 3, 1]
    with pytest.raises(BookError, match="duplicate"):
        make_book([5, 5], [0, 0], 1)


def _corruptions(data: bytes):
    yield "too short", data[:10]
    yield "bad magic", b"XXXX" + data[4:]
    yield "version", data[:4] + (9).to_bytes(2, "little") + data[6:]
    yield "truncated", data[:-5]
    yield "padded", data + b"\0"
    flipped = bytearray(data)
    flipped[HEADER_SIZE + len(data[HEADER_SIZE:]) // 2] ^= 0x40
    yield "payload bit flip", bytes(flipped)
    digest = bytearray(data)
    digest[40] ^= 1
    yield "checksum field", bytes(digest)


def test_corrupt_files_give_one_line_errors(tmp_path, book5):
    data = encode(book5)
    for what, bad in _corruptions(data):
        path = tmp_path / f"{what.replace(' ', '_')}.c4b"
        path.write_bytes(bad)
        with pytest.raises(BookError) as info:
            load(path)
        msg = str(info.value)
        assert str(path) in msg and "\n" not in msg, (what, msg)
    with pytest.raises(BookError, match="no such book file"):
        load(tmp_path / "missing.c4b")


def test_default_book_missing_or_corrupt_gives_none_and_one_warning(
    tmp_path, monkeypatch, caplog, book5
):
    bad = tmp_path / "bad.c4b"
    bad.write_bytes(encode(book5)[:-3])
    monkeypatch.setenv("C4TUI_DB12", "none")  # the opening book alone (tests/test_db12.py)
    try:
        for target, expect in ((bad, "truncated"), (tmp_path / "nope.c4b", "is missing")):
            monkeypatch.setenv("C4TUI_BOOK", str(target))
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger="c4tui.book"):
                assert load_default(reload=True) is None
                assert load_default() is None  # cached: no second warning
            lines = [r.getMessage() for r in caplog.records]
            assert len(lines) == 1 and expect in lines[0] and "\n" not in lines[0]
            assert expect in bookpkg.default_status()
        good = tmp_path / "good.c4b"
        save(book5, good)
        monkeypatch.setenv("C4TUI_BOOK", str(good))
        b = load_default(reload=True)
        assert isinstance(b, Book) and len(b) == len(book5)
        monkeypatch.setenv("C4TUI_BOOK", "none")
        assert load_default(reload=True) is None
    finally:
        monkeypatch.delenv("C4TUI_BOOK", raising=False)
        monkeypatch.delenv("C4TUI_DB12", raising=False)
        load_default(reload=True)


# ------------------------------------------------------------------------------ keys
def test_mirror_and_canonical_keys(enum5):
    for moves in enum5.moves[::37]:
        p = Position.from_moves(moves)
        q = p.mirror()
        k, mk = p.current + p.mask, q.current + q.mask
        assert mirror_key(k) == mk and mirror_key(mk) == k
        assert canonical_key(k) == canonical_key(mk) == min(k, mk) == position_key(p)


def test_key_to_position_round_trip(enum5):
    for key in enum5.keys[::11].tolist():
        pos = key_to_position(key)
        assert pos.current + pos.mask == key and not pos.is_over
        assert (pos.current, pos.mask) == key_to_words(key)
        assert len(key_to_moves(key)) == 5


def test_key_to_moves_rejects_unreachable():
    # White has four in column a and it is White's turn: no game reaches this
    p = Position.from_moves("1212121")
    white_four = p.current ^ p.mask  # after 7 plies Black is to move; swap the roles
    with pytest.raises(ValueError, match="not reachable"):
        key_to_moves(white_four + p.mask)


# ------------------------------------------------------------------------------ probe
def test_probe_matches_python_lookup(book5, enum5):
    from c4tui.engine.books.probe import BOOK_MISS, book_probe

    args = book5.probe_args()
    u = np.uint64
    for moves in enum5.moves[::7]:
        p = Position.from_moves(moves)
        want = book5.get(p)
        assert want is not None
        for q in (p, p.mirror()):
            assert book_probe(*args, u(q.current), u(q.mask), q.ply) == want
    # positions of another disc count miss without a search; so does "no book"
    p4 = Position.from_moves("4444")
    assert book_probe(*args, u(p4.current), u(p4.mask), 4) == BOOK_MISS
    p = Position.from_moves(enum5.moves[3])
    assert book_probe(*NO_BOOK_ARGS, u(p.current), u(p.mask), 5) == BOOK_MISS


def test_probe_every_entry_and_misses():
    """Every key of a book is found; the positions left out of it all miss."""
    from c4tui.engine.books.probe import BOOK_MISS, book_probe

    e = enumerate_positions(4)
    keep = np.arange(len(e)) % 2 == 0
    scores = (np.arange(len(e)) % 37 - 18).astype(np.int8)
    b = make_book(e.keys[keep], scores[keep], plies_mask([4]))
    args = b.probe_args()
    u = np.uint64
    for key, score, kept in zip(e.keys.tolist(), scores.tolist(), keep.tolist(), strict=True):
        cur, mask = key_to_words(key)
        want = score if kept else BOOK_MISS
        assert book_probe(*args, u(cur), u(mask), 4) == want
