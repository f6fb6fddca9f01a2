"""The rules' verdict on one position: the controller's problems, the instances, a cover.

Black controls zugzwang when White is to move (on boards of even height: every column
pairs an odd square with the even one above). White can take it over with an *odd
threat*: a square on an odd row, not yet playable, that completes a White four. Then, with
Black to move, White uses the rules on the rest of the board (the threat's column left
out): Black can never have that column from the threat up (White answers the square below
at once and wins), and the rest of the board, filled in pairs, leaves Black to play the
square below the threat in the end. So a cover of Black's remaining groups proves a White
win (Allis, section 8.2).

A cover for Black proves at least a draw; with an aftereven in it, a win (the aftereven's
group is completed, since White completes nothing).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..board.geometry import BOARD, ODD_ROWS, ZUGZWANG_RULES
from ..board.position import winning_squares
from .cover import Cover
from .groups import ALL_GROUPS, COLUMN_MASKS, col_of, playable_squares
from .rules import (
    AFTEREVEN,
    BASECLAIM,
    BASEINVERSE,
    CLAIMEVEN,
    HIGHINVERSE,
    LOWINVERSE,
    VERTICAL,
    Board,
    Rule,
    find_rules,
)

WHITE, BLACK = 0, 1
#: The rules tried in turn, simplest first, so that a cover says no more than it needs.
TIERS: tuple[frozenset[str] | None, ...] = (
    frozenset({CLAIMEVEN}),
    frozenset({CLAIMEVEN, BASEINVERSE, VERTICAL}),
    frozenset({CLAIMEVEN, BASEINVERSE, VERTICAL, AFTEREVEN}),
    frozenset({CLAIMEVEN, BASEINVERSE, VERTICAL, AFTEREVEN, LOWINVERSE, HIGHINVERSE,
               BASECLAIM}),
    None,  # all nine
)


@dataclass(frozen=True)
class Verdict:
    """A cover found: the instances (bit squares), the problems, the odd threat (a bit
    index, or -1 for Black's zugzwang) and whether it proves a win."""

    rules: tuple[Rule, ...]
    problems: tuple[int, ...]
    odd_threat: int
    wins: bool
    refuted_by_threat: tuple[int, ...] = ()


def odd_threats(white: int, mask: int) -> list[int]:
    """White's odd threats: empty squares on odd rows that complete a White four and are
    not playable yet (the square below is empty), lowest per column only."""
    threats = winning_squares(white, mask) & ODD_ROWS & ~playable_squares(mask) & BOARD
    out = []
    for col in COLUMN_MASKS:
        t = threats & col
        if t:
            out.append((t & -t).bit_length() - 1)
    return out


def _cover(bd: Board, deadline: float | None) -> list[Rule] | None:
    rules = find_rules(bd)
    union = 0
    for r in rules:
        union |= r.refutes
    if union != (1 << len(bd.problems)) - 1:
        return None  # a problem no instance refutes (most positions that fail)
    search = Cover(rules, len(bd.problems))
    tried = -1
    for tier in TIERS:
        allowed = sum(1 << j for j, r in enumerate(rules) if tier is None or r.kind in tier)
        if allowed == tried:
            continue  # the same instances as the tier before
        tried = allowed
        got = search.find(allowed, deadline)
        if got is not None:
            return got
    return None


def evaluate(current: int, mask: int, side: int, deadline: float | None = None
             ) -> Verdict | None:
    """The rules' proof for ``side`` (the controller) in the position ``current``/``mask``
    (the side to move must be ``side``'s opponent), or None. May raise
    :class:`~.cover.Budget` when ``deadline`` (a ``time.perf_counter`` value) passes."""
    if not ZUGZWANG_RULES:
        return None  # odd height: a full column flips the move, the rules do not hold
    ply = mask.bit_count()
    if (ply & 1) == side:
        raise ValueError("the rules argue for the side not to move")
    own = current ^ mask  # the side not to move is the controller
    if side == BLACK:
        probs = [g for g in ALL_GROUPS if not g & own]
        bd = Board(own, mask, probs, BOARD)
        got = _cover(bd, deadline)
        if got is None:
            return None
        return Verdict(tuple(got), tuple(probs), -1, any(r.kind == AFTEREVEN for r in got))
    for t in odd_threats(own, mask):
        col = COLUMN_MASKS[col_of(t)]
        high = col & ~((1 << t) - 1)  # the threat and the squares above it
        probs = []
        gone: list[int] = []
        for g in ALL_GROUPS:
            if g & own:
                continue
            (gone if g & high else probs).append(g)
        bd = Board(own, mask, probs, BOARD & ~col)
        got = _cover(bd, deadline)
        if got is not None:
            return Verdict(tuple(got), tuple(probs), t, True, tuple(gone))
        if deadline is not None and time.perf_counter() > deadline:
            break
    return None

