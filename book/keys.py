"""Position keys: mirror images, canonical keys, and the way back from a key to a position.

The builder, the CLI and the tests use these on Python ints; the mirror itself is the
engine's one definition, :func:`c4tui.engine.board.geometry.mirror_word`, which the kernels
compile; it needs no numba here.

The key ``current + mask`` keeps every column inside its own 7 bits (a column with h discs
has mask bits ``2^h - 1`` and ``current`` is a subset of them, so the sum is at most
``2^(h+1) - 2``). Reversing the order of the seven 7-bit groups therefore mirrors the key
of a position without decoding it.
"""

from __future__ import annotations

import numpy as np
from c4tui.engine.board.geometry import H1, HEIGHT, WIDTH, mirror_int, mirror_word
from c4tui.engine.board.position import Position, has_four

_COL = (1 << H1) - 1


def mirror_key(key: int) -> int:
    """Key of the mirror image (columns reversed) of the position with key ``key``
    (``current + mask`` keeps every column's sum inside its own H1 bits). On Python ints:
    any size, a key of more than 64 bits too (8x8's 72)."""
    return mirror_int(key)


def canonical_key(key: int) -> int:
    """``min(key, mirror_key(key))``: the one key a position and its mirror image share."""
    return min(key, mirror_key(key))


def position_key(pos: Position) -> int:
    """Canonical key of a :class:`Position`."""
    return canonical_key(pos.current + pos.mask)


def key_to_words(key: int) -> tuple[int, int]:
    """``(current, mask)`` of the position with key ``key``.

    Column value v = mask_col + current_col with mask_col = 2^h - 1 and current_col <= mask_col
    lies in [2^h - 1, 2^(h+1) - 2]: the height is ``(v + 1).bit_length() - 1``.
    """
    current = mask = 0
    for c in range(WIDTH):
        v = (key >> (c * H1)) & _COL
        h = (v + 1).bit_length() - 1
        mcol = (1 << h) - 1
        if h > HEIGHT or (v - mcol) & ~mcol:
            raise ValueError(f"key {key:#x}: column {c + 1} is not a valid encoding")
        mask |= mcol << (c * H1)
        current |= (v - mcol) << (c * H1)
    return current, mask


def key_to_moves(key: int) -> list[int]:
    """A legal move sequence (0-based columns) reaching the position with key ``key``.

    Raises ``ValueError`` if no game reaches it (e.g. a four made before the last move).
    Found by taking back, depth first, a top disc of the player who moved last such that the
    earlier position contains no four; cheap for book positions (a few discs).
    """
    current, mask = key_to_words(key)
    ply = bin(mask).count("1")
    moves: list[int] = []

    def back(cur: int, msk: int, n: int) -> bool:
        if n == 0:
            return True
        last = cur ^ msk  # discs of the player who made the last move
        for c in range(WIDTH):
            col = msk >> (c * H1) & _COL
            if not col:
                continue
            top = 1 << (c * H1 + col.bit_length() - 1)
            if not last & top:
                continue
            prev_mask = msk ^ top
            prev_cur = last ^ top  # the last mover was to move before
            if has_four(prev_cur) or has_four(prev_cur ^ prev_mask):
                continue
            moves.append(c)
            if back(prev_cur, prev_mask, n - 1):
                return True
            moves.pop()
        return False

    if has_four(current) or not back(current, mask, ply):
        raise ValueError(f"key {key:#x}: position not reachable in a game")
    moves.reverse()
    return moves


def key_to_position(key: int) -> Position:
    """A :class:`Position` (with a legal history) whose key is ``key``."""
    pos = Position.from_moves([c + 1 for c in key_to_moves(key)])
    assert pos.current + pos.mask == key
    return pos


def mirror_keys(keys: np.ndarray) -> np.ndarray:
    """:func:`mirror_key` of every key of a ``uint64`` array (boards of at most 64 bits:
    the books' and the one-word sizes')."""
    return mirror_word(np.asarray(keys, dtype=np.uint64))
