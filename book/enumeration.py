"""Enumeration of the positions an opening book covers.

For a disc count ``n`` the book holds every position with ``n`` discs that

* is reachable in a game (every earlier position free of fours),
* is not already won (the last move did not complete a four),
* in which the side to move cannot win at once (those are answered instantly anyway),

with a position and its mirror image merged into one entry (canonical key
``min(key, mirror(key))``).

The order matters for the builder: positions come in depth-first order of their move
sequences (columns left to right), each at its first occurrence, so that neighbours in the
list share long move prefixes and hence most of their search trees: a solver that keeps its
transposition table between calls re-uses that work.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from c4tui.engine.board.geometry import BOTTOM, H1, HEIGHT, SIZE, WIDTH
from c4tui.engine.board.position import Position, can_win_next, winning_squares

from .keys import canonical_key

_TOP = [1 << (c * H1 + HEIGHT - 1) for c in range(WIDTH)]
_BOTTOM_BIT = [1 << (c * H1) for c in range(WIDTH)]
_COLUMN = [((1 << HEIGHT) - 1) << (c * H1) for c in range(WIDTH)]


@dataclass(frozen=True)
class Enumeration:
    """The positions of one disc count, in build order.

    ``keys[i]`` is the canonical key of entry i and ``moves[i]`` the move sequence (a string
    of 1-based column digits, ``"4453..."``) of the occurrence found first.
    """

    ply: int
    keys: np.ndarray
    moves: tuple[str, ...]
    root: str = ""

    def __len__(self) -> int:
        return len(self.moves)


def enumerate_positions(ply: int, root: str = "") -> Enumeration:
    """Every book position with ``ply`` discs, in depth-first move-sequence order.

    ``root`` (a digit string) restricts the enumeration to the positions reachable from that
    position: a "subtree book", used by the tests to build small books of deep (quickly
    solved) positions with the real builder.
    """
    start = Position.from_moves(root)
    if start.is_over:
        raise ValueError(f"root {root!r}: the game is over")
    if not start.ply <= ply <= SIZE:
        raise ValueError(f"ply {ply} out of range {start.ply}-{SIZE} for root {root!r}")
    seen: list[set[int]] = [set() for _ in range(ply + 1)]
    keys: list[int] = []
    moves: list[str] = []
    path: list[str] = [start.digits()]

    def visit(current: int, mask: int, depth: int) -> None:
        if depth == ply:
            if not can_win_next(current, mask):  # won at once: no book needs it
                keys.append(canonical_key(current + mask))
                moves.append("".join(path))
            return
        wins = winning_squares(current, mask)
        playable = (mask + BOTTOM) & ~mask
        for c in range(WIDTH):
            if mask & _TOP[c]:
                continue
            move = playable & _COLUMN[c]
            if wins & move:
                continue  # this move ends the game: no position below it
            child_mask = mask | move
            child_current = current ^ mask  # the opponent is to move next
            k = canonical_key(child_current + child_mask)
            s = seen[depth + 1]
            if k in s:
                continue  # a transposition or mirror image already explored
            s.add(k)
            path.append(str(c + 1))
            visit(child_current, child_mask, depth + 1)
            path.pop()

    seen[start.ply].add(canonical_key(start.current + start.mask))
    visit(start.current, start.mask, start.ply)
    return Enumeration(ply, np.array(keys, dtype=np.uint64), tuple(moves), start.digits())


def count_all_positions(max_ply: int) -> list[tuple[int, int]]:
    """``(positions, won)`` for each disc count 0..max_ply: every distinct board reachable in
    a game, won ones included, mirror images not merged (the quantity John Tromp published,
    OEIS A212693: 1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, ...), and how many of them
    are won. A cross-check of the move rules the book enumeration relies on."""
    out = []
    level: set[tuple[int, int]] = {(0, 0)}  # (stones of the side to move, mask)
    won: set[tuple[int, int]] = set()  # (stones of the winner, mask)
    for ply in range(max_ply + 1):
        out.append((len(level) + len(won), len(won)))
        if ply == max_ply:
            break
        nxt: set[tuple[int, int]] = set()
        nwon: set[tuple[int, int]] = set()
        for cur, mask in level:
            wins = winning_squares(cur, mask)
            playable = (mask + BOTTOM) & ~mask
            for c in range(WIDTH):
                move = playable & _COLUMN[c]
                if not move:
                    continue
                if wins & move:
                    nwon.add((cur | move, mask | move))
                else:
                    nxt.add((cur ^ mask, mask | move))
        level, won = nxt, nwon
    return out
