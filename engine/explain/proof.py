"""Proofs past the rules: a small depth-first search over the moves, the rules at its
leaves (VICTOR's approach, Allis chapters 10 and 11, without the conspiracy numbers).

The search proves a goal for one side, the controller: Black's "at least a draw", or
White's win through an odd threat. Where the controller is to move, one move must lead to
a proven position; where the opponent is to move, the rules are asked first, and if they
prove nothing, every reply must lead to a proven position. Iterative deepening keeps the
tree as small as the budget finds it; positions are remembered (proven, or failed to a
depth) across the iterations.
"""

from __future__ import annotations

import time
from dataclasses import replace

from ..board.geometry import CENTER_ORDER, SIZE
from ..board.position import BLACK, Position
from .certificate import FOUR, FULL, MOVE, ODD_THREAT, REPLIES, RULES, ProofNode, RuleUse
from .cover import Budget
from .evaluate import Verdict, evaluate
from .groups import group_name, square_of


def rule_uses(v: Verdict) -> tuple[RuleUse, ...]:
    """A verdict's instances as named rule uses, each with the problems it refutes."""
    out = []
    if v.odd_threat >= 0:
        out.append(RuleUse(ODD_THREAT, (square_of(v.odd_threat),),
                           tuple(group_name(g) for g in v.refuted_by_threat)))
    for r in v.rules:
        refuted = [group_name(g) for i, g in enumerate(v.problems) if r.refutes >> i & 1]
        out.append(RuleUse(r.kind, tuple(square_of(b) for b in r.squares), tuple(refuted),
                           group_name(r.group) if r.group else None))
    return tuple(out)


def _relabel(node: ProofNode, moves: str) -> ProofNode:
    """``node`` (a proof of a position) for the same position reached by ``moves``."""
    if node.moves == moves:
        return node
    kids = tuple(_relabel(c, moves + c.moves[-1]) for c in node.children)
    return replace(node, moves=moves, children=kids)


class Prover:
    """One proof search for ``side`` with a deadline (``time.perf_counter`` value)."""

    def __init__(self, side: int, deadline: float) -> None:
        self.side, self.deadline = side, deadline
        self.verdicts: dict[tuple[int, int], Verdict | None] = {}
        self.failed: dict[tuple[int, int], int] = {}  # position -> depth it failed to
        self.proven: dict[tuple[int, int], ProofNode] = {}
        self.evaluations = 0

    def rules_leaf(self, pos: Position) -> ProofNode | None:
        """The rules' proof of ``pos`` (the opponent to move), remembered."""
        key = (pos.current, pos.mask)
        if key not in self.verdicts:
            if time.perf_counter() > self.deadline:
                raise Budget
            self.evaluations += 1
            self.verdicts[key] = evaluate(pos.current, pos.mask, self.side, self.deadline)
        v = self.verdicts[key]
        if v is None:
            return None
        return ProofNode(pos.digits(), RULES, rule_uses(v), v.wins)

    def over(self, pos: Position) -> ProofNode | None:
        """A finished game as a leaf, if it proves the goal."""
        if pos.winner == self.side:
            return ProofNode(pos.digits(), FOUR, wins=True)
        if pos.winner is None and pos.ply == SIZE and self.side == BLACK:
            return ProofNode(pos.digits(), FULL)
        return None

    def prove(self, pos: Position, depth: int) -> ProofNode | None:
        """A proof of the goal from ``pos`` using at most ``depth`` moves above the leaves."""
        if pos.is_over:
            return self.over(pos)
        key = (pos.current, pos.mask)
        if self.failed.get(key, -1) >= depth:
            return None
        if key in self.proven:  # maybe reached by another move order: its own moves
            return _relabel(self.proven[key], pos.digits())
        got = self._prove(pos, depth)
        if got is None:
            self.failed[key] = depth
        else:
            self.proven[key] = got
        return got

    def _prove(self, pos: Position, depth: int) -> ProofNode | None:
        if pos.to_move == self.side:  # the controller chooses
            win = pos.winning_move()
            if win is not None:
                child = pos.copy()
                child.play(win)
                return ProofNode(pos.digits(), MOVE, children=(ProofNode(child.digits(), FOUR,
                                                                         wins=True),))
            if depth == 0:
                return None
            children = []
            for col in CENTER_ORDER:
                if not pos.can_play(col):
                    continue
                child = pos.copy()
                child.play(col)
                if child.can_win_next():
                    continue  # the opponent completes a four at once
                children.append(child)
            # a move the rules prove at once first: the smallest tree (VICTOR's leaves)
            for child in children:
                leaf = self.over(child) if child.is_over else self.rules_leaf(child)
                if leaf is not None:
                    return ProofNode(pos.digits(), MOVE, children=(leaf,))
            # then the move proven with the shallowest tree: every move to each depth
            # before any move deeper (positions that failed are remembered)
            for d in range(1, depth):
                for child in children:
                    node = self.prove(child, d)
                    if node is not None:
                        return ProofNode(pos.digits(), MOVE, children=(node,))
            return None
        if pos.can_win_next():
            return None  # the opponent completes a four at once
        leaf = self.rules_leaf(pos)
        if leaf is not None:
            return leaf
        if depth == 0:
            return None
        kids = []
        for col in CENTER_ORDER:
            if not pos.can_play(col):
                continue
            child = pos.copy()
            child.play(col)
            node = self.prove(child, depth - 1)
            if node is None:
                return None
            kids.append(node)
        return ProofNode(pos.digits(), REPLIES, children=tuple(kids))


def search(pos: Position, sides: tuple[int, ...], budget: float,
           max_depth: int = SIZE) -> tuple[int, ProofNode] | None:
    """The smallest-depth proof for one of ``sides`` found within ``budget`` seconds, with
    its side, or None. The sides take turns at each depth (the first first), so that
    neither spends the whole budget while the other would prove the position at once."""
    deadline = time.perf_counter() + budget
    provers = [Prover(side, deadline) for side in sides]
    try:
        for depth in range(0, max(0, min(max_depth, SIZE - pos.ply)) + 1):
            for prover in provers:
                got = prover.prove(pos, depth)
                if got is not None:
                    return prover.side, got
    except Budget:
        return None
    return None

