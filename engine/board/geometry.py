"""Board geometry, defined once for every part of the engine.

The board size is a process-wide setting: ``C4TUI_SIZE`` (``"WxH"``, default ``7x6``) is
read once, when the engine package is imported (:mod:`c4tui.engine` sets up numba's cache
for it, see :func:`configure_numba_cache`). Every numba kernel freezes these constants at
compile time, so a process uses one size; the CLI's ``--size`` sets the variable before it
imports the engine. Supported: ``W, H >= 4``, ``W <= 25`` (a column is a letter) and
``(H + 1) * W <= 128``. A board of up to 64 bits (7x6: 49) keeps its words in one ``uint64``;
a larger one (8x8: 72, 10x10: 110) in a 128-bit word (:mod:`.word128`, ``TWO_WORDS``),
which only the processes of those sizes compile.

Bitboard layout (Pascal Pons's): column ``c`` (0 .. W-1, left to right) occupies bits
``c*(H+1) .. c*(H+1)+H-1``, bottom row first; bit ``c*(H+1)+H`` is a sentinel row that is
always empty, so that shifts used by the four-in-a-row tests never wrap into the next
column.

Every constant exists both as a Python ``int`` (for the pure-Python position) and, where
the numba kernels need it, as ``np.uint64`` (mixing int64 and uint64 in numba silently
produces float64).
"""

from __future__ import annotations

import os
import re
import sys

import numpy as np

#: The environment variable that selects the board size of a process.
SIZE_ENV = "C4TUI_SIZE"
DEFAULT_WIDTH = 7
DEFAULT_HEIGHT = 6
MIN_SIDE = 4
MAX_BITS = 128
#: Columns are named by letters a-y.
MAX_WIDTH = 25


class BoardSizeError(ValueError):
    """A board size that is not ``WxH`` or not supported; the message says why
    (``size 3x3: ...``); ``value`` and ``why`` are its two parts, for an option's error."""

    def __init__(self, value: str, why: str) -> None:
        super().__init__(f"size {value}: {why}")
        self.value, self.why = value, why


def parse_size(text: str) -> tuple[int, int]:
    """``"7x6"`` -> ``(7, 6)``; a :class:`BoardSizeError` for garbage or an unsupported size."""
    m = re.fullmatch(r"\s*(\d{1,3})\s*[xX×]\s*(\d{1,3})\s*", text)
    if m is None:
        raise BoardSizeError(repr(text), "expected WxH, e.g. 7x6")
    w, h = int(m.group(1)), int(m.group(2))
    if w < MIN_SIDE or h < MIN_SIDE:
        raise BoardSizeError(f"{w}x{h}", f"width and height must be at least {MIN_SIDE}")
    if w > MAX_WIDTH:
        raise BoardSizeError(f"{w}x{h}", f"too wide, at most {MAX_WIDTH} columns (a-y)")
    if (h + 1) * w > MAX_BITS:
        raise BoardSizeError(f"{w}x{h}", f"too large, (height + 1) x width must be at most "
                             f"{MAX_BITS} (one bit per square and a sentinel row)")
    return w, h


def size_from_env() -> tuple[int, int]:
    """The size ``C4TUI_SIZE`` selects (default 7x6)."""
    text = os.environ.get(SIZE_ENV, "").strip()
    if not text:
        return DEFAULT_WIDTH, DEFAULT_HEIGHT
    return parse_size(text)


def size_name(width: int, height: int) -> str:
    """``"7x6"``."""
    return f"{width}x{height}"


WIDTH, HEIGHT = size_from_env()
H1 = HEIGHT + 1  # bits per column, including the sentinel
SIZE = WIDTH * HEIGHT  # squares (42 on 7x6)
#: Bits of a bitboard word: a column's squares and its sentinel, for every column (49 on 7x6).
KEY_BITS = WIDTH * H1
#: Whether the board needs the 128-bit word (more than 64 bits).
TWO_WORDS = KEY_BITS > 64
IS_DEFAULT = (WIDTH, HEIGHT) == (DEFAULT_WIDTH, DEFAULT_HEIGHT)
#: The size's name, ``"7x6"``.
NAME = size_name(WIDTH, HEIGHT)

#: The first player's discs (21 on 7x6); the second player has ``SIZE // 2``.
HALF = (SIZE + 1) // 2
MAX_SCORE = HALF - 3  # 18 on 7x6: the earliest possible win (the first player's 4th disc)
#: The side to move losing to that win. (Pons's ``-(W*H)/2 + 3`` is the second player's
#: earliest win, which is the same score on even areas only.)
MIN_SCORE = -MAX_SCORE

COLUMN_NAMES = "abcdefghijklmnopqrstuvwxy"[:WIDTH]
#: Allis's zugzwang rules (claimeven, the odd threat) pair each odd-row square with the
#: even-row square above it: sound only when every column has an even height.
ZUGZWANG_RULES = HEIGHT % 2 == 0


def win_score(ply: int) -> int:
    """Score of winning with the disc played at ``ply`` (0: the first disc): the score
    convention of the perfect solvers, defined here once.

    Pascal Pons's (his solver, Steininger's c4 and their test sets of every size): a win
    with the disc played when ``ply`` discs are on the board scores
    ``(W*H + 1 - ply) // 2``, one more than the winner's discs left unplayed. With the
    winner's k-th own disc that is ``HALF + 1 - k`` for the first player and
    ``SIZE // 2 + 1 - k`` for the second: the same on even areas (22 - k on 7x6), one less
    for the second player on odd ones.

    The solver and analysis kernels compile this and :func:`win_ply`; numba's cache sees
    only the kernel files, so a change here must come with a change there.
    """
    return (SIZE + 1 - ply) // 2


def win_ply(score: int, ply: int) -> int:
    """The inverse of :func:`win_score`: the ply of the disc that ends the game, for a
    non-zero ``score`` of the side to move at ``ply`` (the winner moves at ``ply``'s
    parity for a win, at the other for a loss)."""
    parity = (ply if score > 0 else ply + 1) & 1
    n = SIZE + 1 - 2 * abs(score)  # win_score is |score| here and one ply below
    return n if (n & 1) == parity else n - 1


def configure_numba_cache() -> None:
    """Give each board size but 7x6 its own numba cache directory.

    numba's cache index does not notice changed global constants, so kernels compiled for
    one size must never be loaded for another: 7x6 keeps numba's usual place (or the
    user's ``NUMBA_CACHE_DIR``), any other size uses a ``size-WxH`` directory under the
    user's ``NUMBA_CACHE_DIR`` if set, else under the engine's ``__pycache__``. Child
    processes of another size find the user's setting in ``C4TUI_NUMBA_ORIG``. Must run
    before the first kernel module is imported (the engine package does it on import).
    """
    orig = os.environ.get(_ORIG_ENV)
    if orig is None:
        if IS_DEFAULT:
            return  # nothing was changed: numba's own setting stands
        orig = os.environ.get("NUMBA_CACHE_DIR", "")
        os.environ[_ORIG_ENV] = orig
    if IS_DEFAULT:
        cache_dir = orig
    else:
        # the engine folder's __pycache__ (this file is one room down)
        engine = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        base = orig or os.path.join(engine, "__pycache__")
        cache_dir = os.path.join(base, f"size-{NAME}")
    if cache_dir:
        os.environ["NUMBA_CACHE_DIR"] = cache_dir
    else:
        os.environ.pop("NUMBA_CACHE_DIR", None)
    config = getattr(sys.modules.get("numba"), "config", None)
    if config is not None:  # numba imported already: its config was read, set it too
        config.CACHE_DIR = cache_dir


_ORIG_ENV = "C4TUI_NUMBA_ORIG"


def bottom_bit(col: int) -> int:
    """Bit of the lowest square of column ``col``."""
    return 1 << (col * H1)


def top_bit(col: int) -> int:
    """Bit of the highest playable square of column ``col``."""
    return 1 << (col * H1 + HEIGHT - 1)


def column_bits(col: int) -> int:
    """All playable squares of column ``col``."""
    return ((1 << HEIGHT) - 1) << (col * H1)


def square_bit(col: int, row: int) -> int:
    """Bit of the square in column ``col`` (0 .. WIDTH-1) and row ``row`` (0 .. HEIGHT-1,
    bottom first)."""
    return 1 << (col * H1 + row)


BOTTOM = sum(bottom_bit(c) for c in range(WIDTH))
BOARD = BOTTOM * ((1 << HEIGHT) - 1)
#: Squares in odd rows (rows 1, 3, 5 ... counted from 1 at the bottom) and even rows.
ODD_ROWS = BOTTOM * sum(1 << r for r in range(0, HEIGHT, 2))
EVEN_ROWS = BOTTOM * sum(1 << r for r in range(1, HEIGHT, 2))

#: Column order from the centre outwards: the usual first guess for move ordering.
CENTER_ORDER = tuple(WIDTH // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2) for i in range(WIDTH))


def mirror_word(x):
    """Mirror image (column c <-> column W-1-c) of a ``uint64`` bitboard word or array.

    Plain numpy operations, so that Python uses it on scalars and arrays without numba,
    and :mod:`c4tui.engine.board.bitboard` compiles this same function for the kernels of the
    one-word sizes (the two-word sizes have their own, with 128-bit constants).
    """
    r = x & np.uint64(0)
    for c in range(WIDTH):
        col = (x >> np.uint64(c * H1)) & np.uint64((1 << H1) - 1)
        r |= col << np.uint64((WIDTH - 1 - c) * H1)
    return r


def mirror_int(x: int) -> int:
    """Mirror image of a bitboard as a Python ``int`` (any size)."""
    r = 0
    full = (1 << H1) - 1
    for c in range(WIDTH):
        r |= ((x >> (c * H1)) & full) << ((WIDTH - 1 - c) * H1)
    return r


def _square_values() -> list[list[int]]:
    """Number of possible fours through each square: MILTON's static square values."""
    vals = [[0] * HEIGHT for _ in range(WIDTH)]
    for c in range(WIDTH):
        for r in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                for start in range(-3, 1):
                    ok = True
                    for k in range(4):
                        cc, rr = c + (start + k) * dc, r + (start + k) * dr
                        if not (0 <= cc < WIDTH and 0 <= rr < HEIGHT):
                            ok = False
                            break
                    if ok:
                        vals[c][r] += 1
    return vals


#: ``SQUARE_VALUES[col][row]``; on 7x6: 3 4 5 7 5 4 3 on the bottom row, 5 8 11 13 11 8 5 in
#: the middle.
SQUARE_VALUES = _square_values()
