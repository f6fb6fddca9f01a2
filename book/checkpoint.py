"""Build checkpoints (``.c4ck``): the state of an unfinished book build.

The enumeration of a build is deterministic, so a checkpoint needs no keys: it stores the
score of every enumerated position (``NO_SCORE`` = not solved yet) in enumeration order,
plus per-block work statistics, and a digest of the enumeration so that a checkpoint is
never applied to a different build. An 8-ply checkpoint is ~ 100 KB.

Layout (little-endian)::

    0   4   magic b"C4CK"
    4   2   version (1)
    6   2   block size (positions per work unit)
    8   4   ply (disc count of the book)
    12  4   reserved (0)
    16  8   number of positions n
    24  32  SHA-256 of the build identity (ply, root moves, enumerated keys)
    56  8   payload size
    64  ... zlib( scores: n x i8 | nodes: blocks x u64 | seconds: blocks x f64 )

Checkpoints are written atomically (temporary file, fsync, rename), so an interruption at
any moment leaves either the previous or the new checkpoint, both consistent.
"""

from __future__ import annotations

import hashlib
import os
import stat
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from c4tui.atomicfile import atomic_write
from c4tui.bounded import FileRefused, read_file

from .format import MAX_BOOK_BYTES, NO_SCORE, inflate

MAGIC = b"C4CK"
VERSION = 1
_HEADER = struct.Struct("<4sHHIIQ32sQ")
HEADER_SIZE = _HEADER.size


class CheckpointError(ValueError):
    """An unusable checkpoint; the message says which file and why."""


def build_identity(ply: int, root: str, keys: np.ndarray) -> bytes:
    """Digest identifying a build: its ply, its root moves and its enumerated keys."""
    h = hashlib.sha256()
    h.update(f"c4tui-book ply={ply} root={root}\n".encode())
    h.update(np.ascontiguousarray(keys, dtype="<u8").tobytes())
    return h.digest()


@dataclass
class Checkpoint:
    """Scores (``NO_SCORE`` if unsolved) and per-block statistics of a build."""

    ply: int
    block_size: int
    identity: bytes
    scores: np.ndarray  # int8, one per enumerated position
    nodes: np.ndarray  # uint64, one per block: nodes searched to solve it
    seconds: np.ndarray  # float64, one per block: CPU seconds of its worker

    @classmethod
    def fresh(cls, ply: int, block_size: int, identity: bytes, n: int) -> Checkpoint:
        """An empty checkpoint for n positions."""
        blocks = -(-n // block_size)
        return cls(
            ply,
            block_size,
            identity,
            np.full(n, NO_SCORE, dtype=np.int8),
            np.zeros(blocks, dtype=np.uint64),
            np.zeros(blocks, dtype=np.float64),
        )

    @property
    def n(self) -> int:
        return int(self.scores.shape[0])

    @property
    def blocks(self) -> int:
        return int(self.nodes.shape[0])

    def block_range(self, b: int) -> tuple[int, int]:
        """Index range [lo, hi) of block b."""
        lo = b * self.block_size
        return lo, min(lo + self.block_size, self.n)

    def block_done(self, b: int) -> bool:
        lo, hi = self.block_range(b)
        return bool(np.all(self.scores[lo:hi] != NO_SCORE))

    def pending_blocks(self) -> list[int]:
        """Blocks with at least one unsolved position, in order."""
        return [b for b in range(self.blocks) if not self.block_done(b)]

    @property
    def solved(self) -> int:
        return int(np.count_nonzero(self.scores != NO_SCORE))

    @property
    def complete(self) -> bool:
        return self.solved == self.n

    def done_seconds(self) -> float:
        """CPU seconds spent on the finished blocks."""
        return float(self.seconds.sum())

    def encode(self) -> bytes:
        payload = zlib.compress(
            self.scores.astype(np.int8).tobytes()
            + self.nodes.astype("<u8").tobytes()
            + self.seconds.astype("<f8").tobytes(),
            9,
        )
        head = _HEADER.pack(
            MAGIC, VERSION, self.block_size, self.ply, 0, self.n, self.identity, len(payload)
        )
        return head + payload

    def save(self, path: str | Path) -> None:
        """Write atomically."""
        atomic_write(Path(path), self.encode(), overwrite=True)

    @classmethod
    def decode(cls, data: bytes, source: str) -> Checkpoint:
        if len(data) < HEADER_SIZE:
            raise CheckpointError(f"{source}: not a c4tui checkpoint (too short)")
        magic, version, bsize, ply, _, n, ident, psize = _HEADER.unpack_from(data)
        if magic != MAGIC:
            raise CheckpointError(f"{source}: not a c4tui checkpoint (bad magic {magic!r})")
        if version != VERSION:
            raise CheckpointError(f"{source}: checkpoint version {version}, expected {VERSION}")
        if bsize == 0 or n > 1 << 28 or len(data) != HEADER_SIZE + psize:
            raise CheckpointError(f"{source}: corrupt checkpoint header or truncated file")
        blocks = -(-n // bsize)
        try:
            raw = inflate(data[HEADER_SIZE:], n + 16 * blocks)
        except ValueError as exc:
            raise CheckpointError(f"{source}: corrupt checkpoint payload ({exc})") from None
        scores = np.frombuffer(raw, dtype=np.int8, count=n).copy()
        nodes = np.frombuffer(raw, dtype="<u8", count=blocks, offset=n).astype(np.uint64)
        secs = np.frombuffer(raw, dtype="<f8", count=blocks, offset=n + 8 * blocks).astype(
            np.float64
        )
        return cls(ply, bsize, ident, scores, nodes, secs)

    @classmethod
    def load(cls, path: str | Path) -> Checkpoint:
        p = Path(path)
        try:
            data = read_file(p, MAX_BOOK_BYTES, "checkpoint")
        except FileRefused as exc:
            raise CheckpointError(f"{p}: {exc}") from None
        except OSError as exc:
            raise CheckpointError(f"{p}: cannot read checkpoint ({exc.strerror})") from None
        return cls.decode(data, str(p))


def is_checkpoint(path: str | Path) -> bool:
    """Whether the file starts like a checkpoint (for ``book info``)."""
    try:  # a FIFO must not block here: the book's loader then says what the file is
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.read(fd, 4) == MAGIC
    except OSError:
        return False
    finally:
        os.close(fd)
