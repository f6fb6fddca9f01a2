"""The 12-ply database of bitbully-databases inside our books (book/db12.py).

Its key layout and score encoding are checked against independent truth: an encoder
written here from the package's documented format, the exact scores of positions.txt
(scored by independent solvers), and our own solver without any book.
"""

from __future__ import annotations

import logging
import os

import c4tui.book as bookpkg
import numpy as np
import pytest
from c4tui.book import BookError, db12, load_default, merge
from c4tui.book.crosscheck import minimax_value
from c4tui.book.format import make_book, plies_mask
from c4tui.engine.analysis.controller import SearchController
from c4tui.engine.board.geometry import H1, HEIGHT, WIDTH
from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, Limits, Score, SearchOptions
from c4tui.engine.solver.solver import Solver
from testdata import load_positions, sample

ROWS = load_positions()


def encode_board(pos: Position) -> int:
    """The database's 32-bit code of a 12-disc position, written from its documentation:
    columns left to right, bottom to top, first player ``10``, second ``11``, column end
    ``0``, one padding ``0``; stored as a signed 32-bit integer."""
    first = pos.current if pos.ply % 2 == 0 else pos.current ^ pos.mask
    bits = ""
    for c in range(WIDTH):
        for r in range(HEIGHT):
            sq = 1 << (c * H1 + r)
            if not pos.mask & sq:
                break
            bits += "10" if first & sq else "11"
        bits += "0"
    bits += "0"
    assert len(bits) == 32
    v = int(bits, 2)
    return v - (1 << 32) if v >= 1 << 31 else v


def twelve_disc_positions(n: int, seed: int) -> list[Position]:
    """Random 12-disc positions reached by legal play, no four, no win at once."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        p = Position()
        while p.ply < 12:
            legal = [c for c in range(WIDTH) if p.can_play(c)]
            c = int(rng.choice(legal))
            if p.is_winning_move(c):
                break
            p.play(c)
        if p.ply == 12 and not any(p.can_play(c) and p.is_winning_move(c) for c in range(WIDTH)):
            out.append(p)
    return out


@pytest.fixture(scope="module")
def db():
    return db12.load_db12()


def test_decode_matches_an_independent_encoder():
    positions = twelve_disc_positions(300, 1)
    codes = np.array([encode_board(p) for p in positions], dtype=">i4")
    first, mask = db12.decode_codes(codes)
    for p, cur, m in zip(positions, first.tolist(), mask.tolist(), strict=True):
        assert (cur, m) == (p.current, p.mask)  # 12 discs: the first player is to move


def test_score_mapping_against_the_solver_convention():
    # win in d plies (odd): the first player's (13 + d) / 2-th disc; loss: the second's
    values = np.array([0, 97, 71, -98, -88, -70], dtype=np.int8)
    assert db12.scores_from_db(values).tolist() == [0, 14, 1, -15, -10, -1]


def test_database_agrees_with_the_independent_scores(db):
    """Every 12-disc position of positions.txt is in the database with its exact score,
    and so is every 12-disc child of the 11-disc ones (column score = -child score)."""
    twelve = [r for r in ROWS if len(r[0]) == 12]
    assert len(twelve) == 25
    for moves, score, _ in twelve:
        assert db.get(Position.from_moves(moves)) == score, moves
    checked = 0
    for moves, _, cols in (r for r in ROWS if len(r[0]) == 11):
        p = Position.from_moves(moves)
        for c in range(WIDTH):
            if not p.can_play(c) or p.is_winning_move(c):
                continue
            child = p.copy()
            child.play(c)
            if not any(child.can_play(k) and child.is_winning_move(k) for k in range(WIDTH)):
                assert db.get(child) == -cols[c], (moves, c)
                checked += 1
    assert checked > 100


def test_database_agrees_with_our_solver_without_a_book(db):
    solver = Solver(hash_mb=32, book=None)
    rng = np.random.default_rng(12)
    for i in rng.choice(len(db), 12, replace=False).tolist():
        from c4tui.book.keys import key_to_position

        pos = key_to_position(int(db.keys[i]))
        assert solver.solve(pos, need_move=False).score == int(db.scores[i])


def test_database_gives_our_9_ply_book_by_minimax(db):
    own = bookpkg.load(bookpkg.default_path())
    nine = [r for r in ROWS if len(r[0]) == 9]
    for moves, score, _ in nine[:10]:
        assert minimax_value(Position.from_moves(moves), db, 3) == score == own.get(
            Position.from_moves(moves))


def test_conversion_is_cached_and_a_damaged_cache_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("C4TUI_CACHE_DIR", str(tmp_path))
    calls = []
    real = db12.convert

    def counting(src, progress=None):
        calls.append(src)
        return real(src, progress)

    monkeypatch.setattr(db12, "convert", counting)
    steps = []
    a = db12.load_db12(lambda d, t: steps.append((d, t)))
    assert len(calls) == 1 and steps and steps[-1][0] == steps[-1][1]
    files = list(tmp_path.iterdir())
    assert len(files) == 1 and files[0].suffix == ".c4db"
    stale = tmp_path / "db12-0123456789abcdef.c4db"  # an earlier install's conversion
    stale.write_bytes(files[0].read_bytes())
    b = db12.load_db12()  # from the cache
    assert len(calls) == 1 and np.array_equal(a.keys, b.keys)
    assert a.checksum == b.checksum and np.array_equal(a.scores, b.scores)
    data = bytearray(files[0].read_bytes())
    data[-5] ^= 1  # one flipped bit in a score
    files[0].write_bytes(bytes(data))
    with pytest.raises(BookError, match="checksum"):
        db12.load_cache(files[0])
    c = db12.load_db12()
    assert len(calls) == 2 and np.array_equal(c.scores, a.scores)
    assert not stale.exists() and files[0].exists()  # one conversion kept
    files[0].write_bytes(bytes(data[:100]))
    with pytest.raises(BookError, match="truncated"):
        db12.load_cache(files[0])


def test_corrupt_or_missing_database_warns_once_and_keeps_our_book(tmp_path, monkeypatch,
                                                                    caplog):
    bad = tmp_path / "book_12ply_distances.dat"
    bad.write_bytes(b"\x00\x01\x02\x03\x04\x05\x06")  # not a multiple of 5 bytes
    monkeypatch.setenv("C4TUI_CACHE_DIR", str(tmp_path / "cache"))
    try:
        for path, expect in ((bad, "truncated"), (tmp_path / "gone.dat", "missing")):
            if path.exists():
                monkeypatch.setattr(db12, "source_path", lambda p=path: p)
            else:
                def missing(p=path):
                    raise BookError(f"12-ply database: {p} is missing")
                monkeypatch.setattr(db12, "source_path", missing)
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger="c4tui.book"):
                book = load_default(reload=True)
            lines = [r.getMessage() for r in caplog.records]
            assert len(lines) == 1 and expect in lines[0] and "\n" not in lines[0]
            assert book is not None and book.ply_list == tuple(range(10))
            assert "12-ply database unusable" in bookpkg.default_status()
            # the engine goes on with our book
            res = Solver(hash_mb=4, book=book).solve(Position.from_moves("4453"))
            assert res.score == -2 and res.nodes < 100  # a book hit (no book: ~10^8 nodes)
    finally:
        monkeypatch.undo()
        load_default(reload=True)


def test_books_in_use_and_switches(monkeypatch):
    try:
        book = load_default(reload=True)
        assert book is not None and book.ply_list == (*range(10), 12)
        infos = bookpkg.books_in_use()
        assert [i.plies for i in infos] == [tuple(range(10)), (12,)]
        assert infos[0].entries == 353_893 and infos[1].entries == 4_200_899
        assert len(book) == infos[0].entries + infos[1].entries
        assert "MIT" in infos[1].licence and len(infos[1].checksum) == 64
        monkeypatch.setenv("C4TUI_DB12", "none")
        assert load_default(reload=True).ply_list == tuple(range(10))
        monkeypatch.setenv("C4TUI_BOOK", "none")
        assert load_default(reload=True) is None  # every book off
    finally:
        monkeypatch.undo()
        load_default(reload=True)


def test_merge_keeps_every_entry():
    a = make_book([5, 1, 9], [1, -2, 3], plies_mask([3]))
    b = make_book([4, 2, 10, 7], [0, 4, -1, 2], plies_mask([5]))
    m = merge(b, a)
    assert m.keys.tolist() == [1, 2, 4, 5, 7, 9, 10]
    assert m.scores.tolist() == [-2, 4, 0, 1, 2, 3, -1]
    assert m.ply_list == (3, 5)
    with pytest.raises(BookError, match="same disc count"):
        merge(a, a)


MIDDLE = sample([r for r in ROWS if 9 <= len(r[0]) <= 11], 30, 3)


@pytest.mark.parametrize("moves,score,cols", MIDDLE, ids=lambda v: str(v)[:20])
def test_middle_game_analysis_is_lookups(moves, score, cols):
    """With the database, 9-11 discs are analysed exactly by a small tree of lookups
    (without it, these take 10^4-10^6 nodes)."""
    solver = Solver(hash_mb=16, book=load_default())
    res = solver.analyze(Position.from_moves(moves))
    assert list(res.scores) == cols
    assert res.nodes < 3000, res.nodes


def test_analysis_search_answers_a_book_root_from_the_books():
    """A root in the books (12 discs: the database) gets its exact score, a best move and
    one report marked from_book; a root outside them is searched as before."""
    row = next(r for r in ROWS if len(r[0]) == 12)
    moves, score, cols = row
    ctl = SearchController(book=load_default())
    try:
        ctl.start(Position.from_moves(moves), Limits(), SearchOptions())
        assert ctl.wait(30)
        res = ctl.result
        assert res.score == Score(score, Band.EXACT)
        assert cols[res.best_move] == score
        its = ctl.snapshot().iterations
        assert len(its) == 1 and its[0].from_book and its[0].score.band is Band.EXACT
        ctl.start(Position.from_moves(moves), Limits(nodes=20_000), SearchOptions(use_book=False))
        assert ctl.wait(30)
        assert not any(it.from_book for it in ctl.snapshot().iterations)
    finally:
        ctl.close()


def test_a_cache_directory_it_cannot_write_is_said_once_and_converted_once(
        tmp_path, monkeypatch, caplog):
    # read-only (root writes anyway: then a directory under a plain file, as unwritable)
    if os.geteuid() == 0:
        (tmp_path / "plain").write_text("")
        cache = tmp_path / "plain" / "cache"
    else:
        cache = tmp_path / "cache"
        cache.mkdir()
        cache.chmod(0o555)
    monkeypatch.setenv("C4TUI_CACHE_DIR", str(cache))
    monkeypatch.setattr(db12, "_kept", {}, raising=False)
    monkeypatch.setattr(db12, "_unwritable", "", raising=False)
    calls = []
    real = db12.convert
    monkeypatch.setattr(db12, "convert", lambda src, progress=None: calls.append(src)
                        or real(src, progress))
    try:
        with caplog.at_level(logging.WARNING, logger="c4tui.book"):
            a = db12.load_db12()
            b = db12.load_db12()  # the session's conversion, not another 5 s and 525 MB
            book = load_default(reload=True)
        assert len(calls) == 1 and b is a
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) == 1 and "\n" not in lines[0], lines
        assert f"the cache directory {cache} is not writable" in lines[0]
        assert "C4TUI_CACHE_DIR" in lines[0]
        assert book is not None and "not writable" in bookpkg.default_status()
    finally:
        monkeypatch.undo()
        load_default(reload=True)


def test_the_checksum_is_checked_once_per_version_of_the_file(tmp_path, monkeypatch):
    # a small source in the database's format: 40 positions, each a draw
    positions = twelve_disc_positions(40, 7)
    codes = sorted({encode_board(p) for p in positions})
    src = tmp_path / "book_12ply_distances.dat"
    src.write_bytes(b"".join(c.to_bytes(4, "big", signed=True) + b"\x00" for c in codes))
    monkeypatch.setattr(db12, "source_path", lambda: src)
    monkeypatch.setenv("C4TUI_CACHE_DIR", str(tmp_path / "cache"))
    verified: list[bool] = []
    real = db12.load_cache
    monkeypatch.setattr(db12, "load_cache", lambda path, verify=True: verified.append(verify)
                        or real(path, verify))
    stamp = tmp_path / "cache" / db12.STAMP_NAME

    def age(path):  # older than a clock tick's doubt (db12.RACY_SECONDS)
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns - 10**10))

    db12.load_db12()  # converted now: no stamp for a file this fresh
    assert not stamp.exists()
    (cpath,) = (tmp_path / "cache").glob("db12-*.c4db")
    age(cpath)
    a = db12.load_db12()  # verified, then stamped
    b = db12.load_db12()  # the stamp honoured: mapped, not read whole
    assert verified == [True, False] and stamp.exists()
    assert len(b) == len(codes) and b.lookup(positions[0].current, positions[0].mask) == 0
    assert np.array_equal(a.keys, b.keys) and a.checksum == b.checksum
    scores = a.scores.copy()  # (a and b map the file, which is damaged in place below)
    # a changed file is verified again, and a damaged one refused (then converted again):
    # written in place, the same size and inode
    data = bytearray(cpath.read_bytes())
    data[-1] ^= 1  # one flipped bit in a score
    cpath.write_bytes(bytes(data))
    with pytest.raises(BookError, match="not converted yet"):
        db12.load_db12(convert_if_needed=False)
    assert verified[-1] is True
    c = db12.load_db12()
    assert np.array_equal(c.scores, scores) and c.lookup(positions[0].current,
                                                           positions[0].mask) == 0
    # a new version of the source is fingerprinted and its conversion verified again
    age(cpath)
    db12.load_db12()
    assert verified[-1] is True
    del verified[:]
    db12.load_db12()
    assert verified == [False]
    src.write_bytes(src.read_bytes())  # the same content, a new modification time
    db12.load_db12()
    assert verified == [False, True]
