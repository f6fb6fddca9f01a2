"""Enumeration of book positions against an independent brute-force count."""

from __future__ import annotations

import pytest
from c4tui.book.enumeration import enumerate_positions
from c4tui.book.keys import position_key
from c4tui.engine.board.position import Position

W, H = 7, 6
LINES = [
    [(c + k * dc, r + k * dr) for k in range(4)]
    for c in range(W)
    for r in range(H)
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
    if 0 <= c + 3 * dc < W and 0 <= r + 3 * dr < H
]


THROUGH = {(c, r): [ln for ln in LINES if (c, r) in ln] for c in range(W) for r in range(H)}


def _four_through(cols: list[list[int]], c0: int, player: int) -> bool:
    """Whether the top disc of column c0 (player's) completes a four."""

    def at(c, r):
        return cols[c][r] if r < len(cols[c]) else -1

    return any(
        all(at(c, r) == player for c, r in line) for line in THROUGH[(c0, len(cols[c0]) - 1)]
    )


def brute_force(n: int) -> set:
    """All move sequences of length n, played on lists of columns (no bitboards, no
    transposition pruning): the set of boards with n discs that no four ended earlier, that
    are not won, and in which the side to move cannot win at once, mirror images merged."""
    found: set = set()
    cols: list[list[int]] = [[] for _ in range(W)]

    def side_to_move_wins(player: int) -> bool:
        for c in range(W):
            if len(cols[c]) < H:
                cols[c].append(player)
                won = _four_through(cols, c, player)
                cols[c].pop()
                if won:
                    return True
        return False

    def rec(depth: int) -> None:
        player = depth % 2
        if depth == n:
            if not side_to_move_wins(player):
                board = tuple(tuple(c) for c in cols)
                found.add(min(board, board[::-1]))
            return
        for c in range(W):
            if len(cols[c]) < H:
                cols[c].append(player)
                if not _four_through(cols, c, player):
                    rec(depth + 1)
                cols[c].pop()

    rec(0)
    return found


def all_positions(n: int) -> int:
    """Distinct boards after n plies, won ones included, mirror images not merged: the
    published count (John Tromp; OEIS A212693), which checks the brute force's rules."""
    found: set = set()
    cols: list[list[int]] = [[] for _ in range(W)]

    def rec(depth: int) -> None:
        if depth == n:
            found.add(tuple(tuple(c) for c in cols))
            return
        player = depth % 2
        for c in range(W):
            if len(cols[c]) < H:
                cols[c].append(player)
                if not _four_through(cols, c, player) or depth + 1 == n:
                    rec(depth + 1)
                cols[c].pop()

    rec(0)
    return len(found)


def test_brute_force_rules_match_the_published_counts():
    assert [all_positions(n) for n in range(6)] == [1, 7, 49, 238, 1120, 4263]


@pytest.mark.parametrize("n", range(0, 6))
def test_counts_match_brute_force(n):
    e = enumerate_positions(n)
    assert len(e) == len(brute_force(n))
    assert len(set(e.keys.tolist())) == len(e)  # canonical keys are distinct


def test_known_counts():
    # the first counts, each checked by the brute force above; 7 plies recorded when the
    # 8-ply book was started (see docs/book.md)
    assert [len(enumerate_positions(n)) for n in range(8)] == [
        1, 4, 25, 121, 568, 2144, 7638, 25718
    ]


def test_entries_are_what_the_book_promises():
    e = enumerate_positions(6)
    assert e.moves[0] == "111111" and all(len(m) == 6 for m in e.moves)
    for moves, key in list(zip(e.moves, e.keys.tolist(), strict=True))[::23]:
        p = Position.from_moves(moves)
        assert not p.is_over and position_key(p) == key
        assert not any(p.is_winning_move(c) for c in range(7))
    # White to move and able to win at d1: excluded
    w = Position.from_moves("112233")
    assert w.is_winning_move(3) and position_key(w) not in set(e.keys.tolist())


def test_order_keeps_neighbours_together():
    """Depth-first order: consecutive entries mostly share all but the last moves."""
    e = enumerate_positions(6)
    same_prefix = sum(a[:4] == b[:4] for a, b in zip(e.moves, e.moves[1:], strict=False))
    assert same_prefix > 0.8 * (len(e) - 1)


def test_subtree_enumeration():
    root = "4444"
    e = enumerate_positions(6, root)
    assert e.root == root and all(m.startswith(root) for m in e.moves)
    full = set(enumerate_positions(6).keys.tolist())
    assert set(e.keys.tolist()) <= full
    with pytest.raises(ValueError, match="out of range"):
        enumerate_positions(3, root)


def test_bitboard_counts_match_the_published_counts():
    from c4tui.book.enumeration import count_all_positions

    counts = count_all_positions(6)
    assert [n for n, _ in counts] == [1, 7, 49, 238, 1120, 4263, 16422]
    assert all(w == 0 for _, w in counts)  # no four before the 7th disc
