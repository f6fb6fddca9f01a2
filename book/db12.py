"""The 12-ply database of ``bitbully-databases``, converted once into our book layout.

``book_12ply_distances.dat`` (MIT licence, Markus Thill's BitBully) holds the exact score,
with win distance, of every position with 12 discs in which the side to move cannot win at
once; of a position and its mirror image only one is stored. Each entry is 5 bytes:

* a 32-bit big-endian code of the board, compared as a signed integer (the file is sorted
  by it): columns left to right, each bottom to top, a first-player disc ``10``, a
  second-player disc ``11``, the end of a column ``0`` (also after a full column), then one
  ``0`` bit of padding: 7 + 2 * 12 + 1 = 32 bits;
* a signed byte: 0 a draw; ``100 - d`` a win for the side to move (the first player, as 12
  discs are on the board) in ``d`` more plies, ``-(100 - d)`` a loss in ``d`` plies.

A win in ``d`` plies ends the game with the first player's ``(13 + d) / 2``-th disc, a loss
with the second player's ``(12 + d) / 2``-th: that gives our score ``22 - k`` (negated for
a loss). Both the key layout and this mapping are checked against our own solver
(``c4tui book crosscheck --db12``, docs/book.md).

Decoding 4.2 million codes takes a few seconds, so :func:`load_db12` converts once and keeps
the result under the user cache directory (``C4TUI_CACHE_DIR`` overrides it), keyed by the
source file's checksum. The converted file is mapped into memory, not read: a lookup
touches a few pages of it. Its CRC (a read of all 38 MB) is checked once per version of
the file: a stamp next to it (:data:`STAMP_NAME`) keeps the size, modification time and
inode of the source and of the cache file last verified, and a file that changed since is
verified again (a new process that solves one position past 12 discs spent a tenth of a
second reading and checking it).
"""

from __future__ import annotations

import hashlib
import json
import logging
import mmap
import os
import stat
import struct
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
from c4tui.engine.board.geometry import BOARD, H1, HEIGHT, MAX_SCORE, MIN_SCORE, NAME, WIDTH

from c4tui.atomicfile import atomic_write

from .format import Book, BookError
from .keys import mirror_keys

#: Disc count of every position in the database.
DB12_PLY = 12
#: The database's board: BitBully's file exists for 7x6 only, so these are 7x6's numbers,
#: not the process's size (c4tui.book uses the database on the default 7x6 board alone).
DB12_WIDTH, DB12_HEIGHT = 7, 6
#: A win with the winner's k-th disc scores ``DB12_WIN_BASE - k`` on that board (22 - k).
DB12_WIN_BASE = (DB12_WIDTH * DB12_HEIGHT + 1) // 2 + 1
DB12_SOURCE = "bitbully-databases (book_12ply_distances.dat)"
DB12_LICENCE = "MIT (Markus Thill)"
_RECORD = np.dtype([("code", ">i4"), ("score", "i1")])
_CODE_BITS = DB12_WIDTH + 2 * DB12_PLY + 1  # 32

# Cache file: a small header, then the sorted canonical keys (u64 LE), then the scores (i8).
_CACHE_MAGIC = b"C4DB"
_CACHE_VERSION = 1
_CACHE_HEADER = struct.Struct("<4sHHQQI32s4x")  # magic, version, ply, n, plies, crc32, sha256
Progress = Callable[[int, int], None]
#: The stamp of the last verified conversion, in :func:`cache_dir`.
STAMP_NAME = "db12-verified.json"
#: A cache file changed less than this many seconds ago gets no stamp (see _write_stamp).
RACY_SECONDS = 2

log = logging.getLogger("c4tui.book")
# A conversion the cache directory could not keep: kept here for the process instead (the
# next start converts again), and why, said once (see unwritable_note()).
_kept: dict[Path, Book] = {}
_kept_lock = threading.Lock()
_unwritable = ""


def source_path() -> Path:
    """Path of ``book_12ply_distances.dat`` in the installed ``bitbully-databases``.

    Raises :class:`BookError` (one line) if the package or the file is missing.
    """
    try:
        from bitbully_databases import BitBullyDatabases
    except ImportError:
        raise BookError("12-ply database: bitbully-databases is not installed") from None
    path = Path(BitBullyDatabases.get_database_path("12-ply-dist"))
    if not path.is_file():
        raise BookError(f"12-ply database: {path} is missing")
    return path


def cache_dir() -> Path:
    """Where converted databases are kept: ``C4TUI_CACHE_DIR`` or the user cache directory."""
    env = os.environ.get("C4TUI_CACHE_DIR", "").strip()
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("c4tui"))


def scores_from_db(values: np.ndarray) -> np.ndarray:
    """Our scores (``int8``, side to move's view) from the database's distance bytes."""
    v = values.astype(np.int16)
    d = 100 - np.abs(v)  # plies to the end of the game
    win = (DB12_WIN_BASE - (DB12_PLY + 1 + d) // 2).astype(np.int16)
    loss = (-(DB12_WIN_BASE - (DB12_PLY + d) // 2)).astype(np.int16)
    out = np.where(v > 0, win, np.where(v < 0, loss, 0))
    return out.astype(np.int8)


def decode_codes(codes: np.ndarray, progress: Progress | None = None) -> tuple[np.ndarray,
                                                                              np.ndarray]:
    """``(current, mask)`` (``uint64`` arrays) of 12-disc board codes; the first player,
    who is to move with 12 discs on the board, is ``current``."""
    c = codes.astype(np.int64) & 0xFFFFFFFF
    n = len(c)
    first = np.zeros(n, np.uint64)
    mask = np.zeros(n, np.uint64)
    square = np.zeros(n, np.int64)  # bit index of the next square of the current column
    bitpos = np.full(n, _CODE_BITS - 1, np.int64)
    col = np.zeros(n, np.int64)
    steps = DB12_WIDTH + DB12_PLY  # every code has exactly 7 column ends and 12 discs
    for step in range(steps):
        disc = ((c >> bitpos) & 1).astype(bool)
        second = ((c >> np.maximum(bitpos - 1, 0)) & 1).astype(bool)
        bit = np.left_shift(np.uint64(1), square.astype(np.uint64))
        mask |= np.where(disc, bit, np.uint64(0))
        first |= np.where(disc & ~second, bit, np.uint64(0))
        # a disc: next square up, two bits read; a column end: bottom of the next column
        col += ~disc
        square = np.where(disc, square + 1, col * H1)
        bitpos -= np.where(disc, 2, 1)
        if progress is not None:
            progress(step + 1, steps + 2)
    if n and (np.any(col != DB12_WIDTH) or np.any(bitpos != 0)):
        raise BookError(f"12-ply database: a board code does not describe {DB12_WIDTH} columns")
    if np.any(mask & ~np.uint64(BOARD)):
        raise BookError(f"12-ply database: a column holds more than {DB12_HEIGHT} discs")
    return first, mask


def convert(src: Path, progress: Progress | None = None) -> Book:
    """Read and convert the database file ``src`` into a :class:`Book` (canonical keys)."""
    try:
        data = src.read_bytes()
    except OSError as exc:
        raise BookError(f"{src}: cannot read ({exc.strerror})") from None
    if len(data) % _RECORD.itemsize:
        raise BookError(f"{src}: truncated (size {len(data)} is not a multiple of 5)")
    rec = np.frombuffer(data, dtype=_RECORD)
    codes = rec["code"]
    if len(codes) > 1 and not np.all(codes[1:] > codes[:-1]):
        raise BookError(f"{src}: not sorted (not a bitbully-databases 12-ply file)")
    current, mask = decode_codes(codes, progress)
    scores = scores_from_db(rec["score"])
    if np.any(np.abs(rec["score"].astype(np.int16)) > 100) or (
        len(scores) and (scores.min() < MIN_SCORE or scores.max() > MAX_SCORE)
    ):
        raise BookError(f"{src}: a score is out of range")
    keys = current + mask
    keys = np.minimum(keys, mirror_keys(keys))
    order = np.argsort(keys, kind="stable")
    keys, scores = keys[order], scores[order]
    if len(keys) > 1 and not np.all(keys[1:] > keys[:-1]):
        raise BookError(f"{src}: a position is stored twice")
    if progress is not None:
        progress(DB12_WIDTH + DB12_PLY + 2, DB12_WIDTH + DB12_PLY + 2)
    book = Book(keys, scores, 1 << DB12_PLY, path=src)
    return book


def cache_path(src: Path) -> Path:
    """The cache file for a converted database, named by a fingerprint of the source: its
    size and its first and last MB (cheap, and the same for every install of one release,
    so that a new virtualenv or a reinstall finds the conversion)."""
    h = hashlib.sha256(str(src.stat().st_size).encode())
    with src.open("rb") as f:
        h.update(f.read(1 << 20))
        f.seek(max(0, src.stat().st_size - (1 << 20)))
        h.update(f.read())
    return cache_dir() / f"db12-{h.hexdigest()[:16]}.c4db"


def save_cache(book: Book, path: Path) -> None:
    """Write ``book`` in the raw cache layout (atomically).

    Unlike a ``.c4b`` file it is not compressed: loading is one read, a CRC-32 and no
    decompression (about 40 ms for 4.2 million entries). The header keeps the content's
    SHA-256, the checksum ``c4tui book info`` shows.
    """
    keys = np.ascontiguousarray(book.keys, dtype="<u8").tobytes()
    scores = np.ascontiguousarray(book.scores, dtype=np.int8).tobytes()
    crc = zlib.crc32(scores, zlib.crc32(keys))
    header = _CACHE_HEADER.pack(_CACHE_MAGIC, _CACHE_VERSION, DB12_PLY, len(book),
                                book.plies, crc, book.checksum)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, header + keys + scores, overwrite=True)


def load_cache(path: Path, verify: bool = True) -> Book:
    """Map a cache file written by :func:`save_cache`; :class:`BookError` if unusable.

    The arrays are a read-only map of the file (kept alive by the book). ``verify``:
    check the content's CRC (reads the whole file); :func:`load_db12` skips it for a file
    its stamp says was verified unchanged.
    """
    hs = _CACHE_HEADER.size
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # (a FIFO would block the open)
            raise BookError(f"{path}: not a regular file")
        with path.open("rb") as f:
            head = f.read(hs)
            if len(head) < hs:
                raise BookError(f"{path}: not a converted database (too short)")
            magic, version, ply, n, plies, crc, digest = _CACHE_HEADER.unpack(head)
            if magic != _CACHE_MAGIC or version != _CACHE_VERSION or ply != DB12_PLY:
                raise BookError(f"{path}: not a converted 12-ply database")
            size = os.fstat(f.fileno()).st_size
            if size != hs + 9 * n:
                raise BookError(f"{path}: truncated (expected {hs + 9 * n} bytes, found {size})")
            if n:
                # a map, not a read: the pages a lookup touches are all that is read (the
                # map outlives the file object; a replaced file keeps its old inode)
                data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                keys = np.frombuffer(data, dtype="<u8", count=n, offset=hs)
                scores = np.frombuffer(data, dtype=np.int8, count=n, offset=hs + 8 * n)
            else:
                keys, scores = np.zeros(0, np.uint64), np.zeros(0, np.int8)
    except OSError as exc:
        raise BookError(f"{path}: cannot read ({exc.strerror})") from None
    if verify and zlib.crc32(scores.data, zlib.crc32(keys.data)) != crc:
        raise BookError(f"{path}: checksum mismatch (file damaged)")
    return Book(keys.astype(np.uint64, copy=False), scores, plies, path=path,
                _checksum=digest)


def _identity(path: Path) -> list[int] | None:
    """Size, modification time and inode of a file (what the stamp compares), or None."""
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _read_stamp() -> dict:
    """The stamp of the last verified conversion ({} when none or unreadable)."""
    try:
        stamp = json.loads((cache_dir() / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def _write_stamp(src: Path, cpath: Path) -> None:
    """Record that ``cpath`` (converted from ``src``) was verified as they are now.

    Not for a file changed in the last :data:`RACY_SECONDS`: a file system keeps times in
    clock ticks (milliseconds), so a change within the same tick would keep the stamp's
    time and size (as git's index treats a "racy" file); the next start verifies it again.
    """
    ident = _identity(cpath)
    if ident is None or time.time_ns() - ident[1] < RACY_SECONDS * 10**9:
        return
    stamp = {"source": [str(src), _identity(src)], "cache": [cpath.name, ident]}
    try:
        atomic_write(cache_dir() / STAMP_NAME, json.dumps(stamp).encode(), overwrite=True)
    except OSError:
        pass  # a read-only cache directory: the next start verifies again


def unwritable_note() -> str:
    """Why the conversion is not kept for the next start ("" when it is)."""
    return _unwritable


def load_db12(progress: Progress | None = None, convert_if_needed: bool = True) -> Book:
    """The 12-ply database as a :class:`Book`: from the cache, else converted and cached.

    ``progress(done, total)`` is called during a conversion. Raises :class:`BookError` (one
    line) if the database is missing or unusable; a damaged cache file is converted again.
    """
    global _unwritable
    if (WIDTH, HEIGHT) != (DB12_WIDTH, DB12_HEIGHT):
        # its keys (and a cached conversion's) are in the 7x6 layout: on another board they
        # would be other positions' keys
        raise BookError(f"the 12-ply database is of the {DB12_WIDTH}x{DB12_HEIGHT} board, "
                        f"not {NAME}")
    src = source_path()
    stamp = _read_stamp()
    # The source as last verified: its cache file's name without reading 2 MB of the
    # source for the fingerprint, and that file's CRC is not checked again while it is
    # the same file (same size, modification time and inode).
    same_source = stamp.get("source") == [str(src), _identity(src)]
    cache = stamp.get("cache") if same_source else None
    named = (isinstance(cache, list) and len(cache) == 2 and isinstance(cache[0], str)
             and cache[0].startswith("db12-") and "/" not in cache[0])
    cpath = cache_dir() / cache[0] if named and cache else cache_path(src)
    with _kept_lock:
        kept = _kept.get(cpath)
    if kept is not None:
        return kept
    if cpath.exists():
        verified = named and cache is not None and cache[1] == _identity(cpath)
        try:
            book = load_cache(cpath, verify=not verified)
        except BookError:
            pass  # damaged or foreign: convert again below
        else:
            if not verified:
                _write_stamp(src, cpath)
            return book
    if not convert_if_needed:
        raise BookError("12-ply database: not converted yet")
    book = convert(src, progress)
    try:
        save_cache(book, cpath)
    except OSError as exc:
        # a read-only cache directory: this process keeps it; the next start converts again
        with _kept_lock:
            _kept[cpath] = book
            said, _unwritable = _unwritable, (
                f"the cache directory {cpath.parent} is not writable "
                f"({exc.strerror or exc}): the 12-ply database is converted at every start "
                "(C4TUI_CACHE_DIR chooses another)")
        if not said:
            log.warning("c4tui: %s", _unwritable)
        return book
    _write_stamp(src, cpath)  # written from the book just converted: verified
    # conversions of an earlier install of the package are 38 MB each: keep only this one
    for old in cpath.parent.glob("db12-*.c4db"):
        if old != cpath:
            old.unlink(missing_ok=True)
    return book
