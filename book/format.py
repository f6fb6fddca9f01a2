"""The opening-book file format (``.c4b``), version 1, and the in-memory :class:`Book`.

A book maps canonical position keys to exact scores. The key of a position is Pons's
``current + mask`` (unique, 49 bits on 7x6); the canonical key is ``min(key, mirror(key))`` so
that a position and its mirror image share one entry. Scores follow the perfect solvers'
convention (0 draw, > 0 the side to move wins, a win with the winner's k-th own disc
scores 22 - k on 7x6).

File layout (all integers little-endian), see ``book/README.md``::

    offset size  field
    0      4     magic b"C4BK"
    4      2     format version (1)
    6      2     header size in bytes (72)
    8      8     plies: bit p set <=> positions with p discs are in the book
    16     8     number of entries n
    24     8     payload size in bytes (compressed)
    32     32    SHA-256 of the canonical content: keys (n x u64 LE) then scores (n x i8)
    64     8     board size: width << 8 | height (0: 7x6, as in every 7x6 book, so that
                 7x6 books are byte-identical to those written before sizes existed)
    72     ...   payload: zlib( byte-planes of the key deltas, then the scores )

The payload stores the sorted keys as differences from their predecessor (the first
from 0), split into 8 byte-planes (all low bytes, then all second bytes, ...), because the
high bytes of the differences are mostly zero and compress to almost nothing; the n score
bytes follow. Loading decompresses, re-assembles, takes the running sum and checks the
checksum, the order and the score range, in a few milliseconds for an 8-ply book.
"""

from __future__ import annotations

import hashlib
import os
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from c4tui.engine.board.geometry import (
    DEFAULT_HEIGHT,
    DEFAULT_WIDTH,
    HEIGHT,
    IS_DEFAULT,
    MAX_SCORE,
    MIN_SCORE,
    NAME,
    SIZE,
    WIDTH,
)

from c4tui.atomicfile import atomic_write
from c4tui.bounded import FileRefused, read_file

MAGIC = b"C4BK"
VERSION = 1
_HEADER = struct.Struct("<4sHHQQQ32sQ")
HEADER_SIZE = _HEADER.size  # 72
#: Marker for "no score" (a position not in the book, or not solved yet).
NO_SCORE = -128
# A header claiming more entries than this is corrupt (every reachable position up to
# 12 discs is ~ 10^7; this also bounds the memory a corrupt file can make us allocate).
_MAX_ENTRIES = 1 << 28
#: The largest book file read. The 8-ply book is 0.26 MB and a book of every position up
#: to 12 discs would be some tens of MB; a larger file is not a book.
MAX_BOOK_BYTES = 1 << 30
#: The header's size field of this process's board.
_SIZE_FIELD = 0 if IS_DEFAULT else WIDTH << 8 | HEIGHT


class BookError(ValueError):
    """A book file that cannot be used; the message says which file and what is wrong."""


def plies_mask(plies) -> int:
    """Bit mask of a collection of ply numbers (0 to the board's SIZE, 42 on 7x6)."""
    m = 0
    for p in plies:
        if not 0 <= int(p) <= SIZE:
            raise ValueError(f"ply {p} out of range 0-{SIZE}")
        m |= 1 << int(p)
    return m


def plies_of(mask: int) -> tuple[int, ...]:
    """Ply numbers of a bit mask."""
    return tuple(p for p in range(SIZE + 1) if mask >> p & 1)


def content_digest(keys: np.ndarray, scores: np.ndarray) -> bytes:
    """SHA-256 of the canonical content: keys as u64 little-endian, then scores as i8."""
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(keys, dtype="<u8").tobytes())
    h.update(np.ascontiguousarray(scores, dtype=np.int8).tobytes())
    return h.digest()


@dataclass(eq=False)
class Book:
    """An opening book in memory: sorted ``uint64`` keys and their ``int8`` exact scores.

    ``plies`` is the bit mask of the disc counts the book covers (every position of those
    disc counts that is not won and in which the side to move cannot win at once).
    The arrays are C-contiguous, so :meth:`probe_args` can hand their addresses to the
    numba kernels (:func:`c4tui.engine.books.probe.book_probe`).
    """

    keys: np.ndarray
    scores: np.ndarray
    plies: int
    path: Path | None = None
    _checksum: bytes = field(default=b"", repr=False)

    def __post_init__(self) -> None:
        self.keys = np.ascontiguousarray(self.keys, dtype=np.uint64)
        self.scores = np.ascontiguousarray(self.scores, dtype=np.int8)
        if self.keys.shape != self.scores.shape or self.keys.ndim != 1:
            raise BookError("book: keys and scores must be 1-D arrays of the same length")

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    @property
    def ply_list(self) -> tuple[int, ...]:
        """The disc counts the book covers."""
        return plies_of(self.plies)

    @property
    def max_ply(self) -> int:
        """The largest disc count in the book (-1 for an empty book)."""
        return max(self.ply_list, default=-1)

    @property
    def checksum(self) -> bytes:
        """SHA-256 of the content (computed on first use: 40 ms for 4.5 million entries)."""
        if not self._checksum:
            self._checksum = content_digest(self.keys, self.scores)
        return self._checksum

    @property
    def checksum_hex(self) -> str:
        """The content checksum as hex (what ``c4tui book info`` shows)."""
        return self.checksum.hex()

    def lookup_key(self, canonical_key: int) -> int | None:
        """Exact score stored for a canonical key, or ``None``."""
        k = np.uint64(canonical_key)
        i = int(np.searchsorted(self.keys, k))
        if i < len(self) and self.keys[i] == k:
            return int(self.scores[i])
        return None

    def lookup(self, current: int, mask: int) -> int | None:
        """Exact score of the position (``current``, ``mask``) if it is in the book."""
        from .keys import canonical_key  # local: keys imports nothing heavy, avoids a cycle

        if not self.plies >> bin(mask).count("1") & 1:
            return None
        return self.lookup_key(canonical_key(current + mask))

    def get(self, pos) -> int | None:
        """Exact score of a :class:`~c4tui.engine.board.position.Position`, or ``None``."""
        return self.lookup(pos.current, pos.mask)

    def probe_args(self) -> tuple[int, int, int, int]:
        """``(keys_addr, scores_addr, n, plies)``: the book arguments of ``book_probe``.

        The addresses stay valid as long as this Book object is alive: keep a reference.
        """
        return (
            int(self.keys.ctypes.data),
            int(self.scores.ctypes.data),
            len(self),
            int(self.plies),
        )


#: The book arguments of ``book_probe`` when there is no book: every probe misses.
NO_BOOK_ARGS = (0, 0, 0, 0)


def make_book(keys, scores, plies: int) -> Book:
    """A Book from unsorted canonical keys and scores (sorted here; duplicates rejected)."""
    keys = np.asarray(keys, dtype=np.uint64)
    scores = np.asarray(scores, dtype=np.int8)
    order = np.argsort(keys, kind="stable")
    keys, scores = keys[order], scores[order]
    if len(keys) > 1 and not np.all(keys[1:] > keys[:-1]):
        raise BookError("book: duplicate keys")
    return Book(keys, scores, plies)


def encode(book: Book) -> bytes:
    """The complete file content of a book."""
    keys, scores = book.keys, book.scores
    deltas = np.diff(keys, prepend=np.uint64(0)).astype("<u8")
    planes = deltas.view(np.uint8).reshape(-1, 8).T.tobytes() if len(keys) else b""
    payload = zlib.compress(planes + scores.tobytes(), 9)
    header = _HEADER.pack(
        MAGIC, VERSION, HEADER_SIZE, book.plies, len(keys), len(payload), book.checksum,
        _SIZE_FIELD,
    )
    return header + payload


def inflate(payload: bytes, size: int) -> bytes:
    """``payload`` decompressed, which must be exactly ``size`` bytes.

    Never inflates more than ``size + 1`` bytes: a payload of a few MB that inflates to
    gigabytes (a decompression bomb) is refused having cost ``size`` bytes, not its full
    size. Raises ``ValueError`` (``zlib.error`` is not one) with the reason.
    """
    d = zlib.decompressobj()
    try:
        raw = d.decompress(payload, size + 1)
    except zlib.error as exc:
        raise ValueError(str(exc)) from None
    if len(raw) > size or d.unconsumed_tail:
        raise ValueError(f"expected {size} bytes, it inflates to more")
    if not d.eof:
        raise ValueError("incomplete or truncated stream")
    if len(raw) != size:
        raise ValueError(f"expected {size} bytes, found {len(raw)}")
    return raw


def decode(data: bytes, source: str = "book") -> Book:
    """Parse file content; raises :class:`BookError` naming ``source`` if it is unusable."""
    if len(data) < HEADER_SIZE:
        raise BookError(f"{source}: not a c4tui book (file too short: {len(data)} bytes)")
    magic, version, hsize, plies, n, psize, digest, size = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise BookError(f"{source}: not a c4tui book (bad magic {magic!r})")
    if version != VERSION:
        raise BookError(f"{source}: book format version {version} (this program reads {VERSION})")
    if hsize != HEADER_SIZE or n > _MAX_ENTRIES or size >> 16:
        raise BookError(f"{source}: corrupt header")
    if size != _SIZE_FIELD:
        # 0: the default board's (7x6) book, written before the field held a size
        w, h = (size >> 8, size & 0xFF) if size else (DEFAULT_WIDTH, DEFAULT_HEIGHT)
        raise BookError(f"{source}: a book of the {w}x{h} board, not {NAME} "
                        f"(use --size {w}x{h})")
    if plies >> (SIZE + 1):
        raise BookError(f"{source}: corrupt header")
    if len(data) != HEADER_SIZE + psize:
        raise BookError(
            f"{source}: truncated or padded (expected {HEADER_SIZE + psize} bytes, "
            f"found {len(data)})"
        )
    try:
        raw = inflate(data[HEADER_SIZE:], 9 * n)
    except ValueError as exc:
        raise BookError(f"{source}: corrupt payload ({exc})") from None
    planes = np.frombuffer(raw, dtype=np.uint8, count=8 * n)
    deltas = np.ascontiguousarray(planes.reshape(8, n).T).view("<u8").reshape(n)
    keys = np.cumsum(deltas, dtype=np.uint64)
    scores = np.frombuffer(raw, dtype=np.int8, offset=8 * n).copy()
    if content_digest(keys, scores) != digest:
        raise BookError(f"{source}: checksum mismatch (file damaged)")
    if n > 1 and not np.all(keys[1:] > keys[:-1]):
        raise BookError(f"{source}: keys not strictly increasing")
    if n and (scores.min() < MIN_SCORE or scores.max() > MAX_SCORE):
        raise BookError(f"{source}: score out of range {MIN_SCORE}..{MAX_SCORE}")
    return Book(keys, scores, plies, _checksum=digest)


def save(book: Book, path: str | os.PathLike) -> None:
    """Write a book atomically (a temporary file renamed over ``path``)."""
    atomic_write(Path(path), encode(book), overwrite=True)


def load(path: str | os.PathLike) -> Book:
    """Read a book; raises :class:`BookError` with a one-line message if it is unusable."""
    p = Path(path)
    try:
        data = read_file(p, MAX_BOOK_BYTES, "book")
    except FileNotFoundError:
        raise BookError(f"{p}: no such book file") from None
    except FileRefused as exc:
        raise BookError(f"{p}: {exc}") from None
    except OSError as exc:
        raise BookError(f"{p}: cannot read ({exc.strerror})") from None
    book = decode(data, str(p))
    book.path = p
    return book
