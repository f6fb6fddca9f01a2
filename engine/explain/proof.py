"""Proofs past the rules: a small depth-first search over the moves, the rules at its
leaves (VICTOR's approach, Allis chapters 10 and 11, without the conspiracy numbers).

The search proves a goal for one side, the controller: Black's "at least a draw", or
White's win through an odd threat. Where the controller is to move, one move must lead to
a proven position; where the opponent is to move, the rules are asked first, and if they
prove nothing, every reply must lead to a proven position. Iterative deepening finds the
shallowest proof first; positions are remembered (proven, or failed to a depth) across the
iterations. In the time left, :class:`Minimiser` then makes the tree smaller (the fewest
positions above its leaves, by a search bounded by size), up to the smallest there is.
"""

from __future__ import annotations

import time
from dataclasses import replace

from ..board.geometry import CENTER_ORDER, SIZE
from ..board.position import BLACK, MOVE_CHARS, Position
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

    def verdict(self, pos: Position) -> Verdict | None:
        """The rules' verdict on ``pos`` (the opponent to move), remembered."""
        key = (pos.current, pos.mask)
        if key not in self.verdicts:
            if time.perf_counter() > self.deadline:
                raise Budget
            self.evaluations += 1
            self.verdicts[key] = evaluate(pos.current, pos.mask, self.side, self.deadline)
        return self.verdicts[key]

    def rules_leaf(self, pos: Position) -> ProofNode | None:
        """The rules' proof of ``pos`` (the opponent to move), remembered."""
        v = self.verdict(pos)
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


#: A lower bound no proof reaches: the position has none (the opponent wins at once).
NEVER = 1 << 30


Key = tuple[int, int]


class Minimiser:
    """The smallest proof tree of a position (fewest positions above the leaves, as
    :meth:`ProofNode.internal` counts them), found by a search bounded by size.

    A controller's position costs one plus its move's subtree, the opponent's position
    one plus all its replies' subtrees (zero if the rules prove it); so the smallest tree
    of a position is made of its children's smallest trees, and each child can be
    minimised alone. Every position keeps a lower bound of its smallest tree (raised each
    time a search under a limit fails: the limits only grow) and, once found, the size of
    its smallest tree and the controller's move in it; the tree itself is built at the end
    (:meth:`build`). ``need_win``: only leaves that prove a win (a smaller tree must not
    claim less than the first proof did). Shares the prover's cache of the rules."""

    def __init__(self, prover: Prover, need_win: bool) -> None:
        self.prover, self.need_win = prover, need_win
        self.lower: dict[Key, int] = {}
        self.size: dict[Key, int] = {}  # the smallest tree's positions above its leaves
        self.move: dict[Key, int] = {}  # the controller's move in it
        self.nexts: dict[Key, list[Position]] = {}  # the moves searched, in order

    def _proves(self, pos: Position) -> bool:
        """Whether ``pos`` is a leaf that proves the goal (a finished game, or the rules
        with the opponent to move)."""
        if pos.is_over:
            leaf = self.prover.over(pos)
            return leaf is not None and (leaf.wins or not self.need_win)
        if pos.to_move == self.prover.side:
            return False
        v = self.prover.verdict(pos)
        return v is not None and (v.wins or not self.need_win)

    def _next(self, pos: Position, key: Key) -> list[Position]:
        """The positions after each move (the controller's: not those where the opponent
        completes a four at once), made once per position."""
        got = self.nexts.get(key)
        if got is None:
            got = []
            mine = pos.to_move == self.prover.side
            for col in CENTER_ORDER:
                if pos.can_play(col):
                    child = pos.copy()
                    child.play(col)
                    if not (mine and child.can_win_next()):
                        got.append(child)
            self.nexts[key] = got
        return got

    def bound(self, pos: Position) -> int:
        """What is known of the smallest tree of ``pos`` from below, without a search."""
        key = (pos.current, pos.mask)
        if key in self.size:
            return self.size[key]
        if key in self.lower:
            return self.lower[key]
        if pos.is_over:
            return 0
        if pos.to_move == self.prover.side:
            return 1
        if key in self.prover.verdicts and pos.ply < SIZE - 1 and not self._proves(pos):
            # the rules left it open: itself and at least one move after each reply
            return 1 + len(pos.legal_moves())
        return 0

    def smallest(self, pos: Position, limit: int) -> int | None:
        """The size of the smallest proof of ``pos`` if at most ``limit``, else None (then
        :meth:`build` makes the tree). May raise :class:`~.cover.Budget`."""
        key = (pos.current, pos.mask)
        if key in self.size:
            return self.size[key] if self.size[key] <= limit else None
        if self.lower.get(key, 0) > limit:
            return None
        got, size = self._smallest(pos, key, limit)
        if got:
            self.size[key] = size
            return size
        self.lower[key] = max(size, limit + 1, self.lower.get(key, 0))
        return None

    def _smallest(self, pos: Position, key: Key, limit: int) -> tuple[bool, int]:
        """Whether a proof within ``limit`` exists, with the smallest size, or with a
        lower bound of it."""
        if time.perf_counter() > self.prover.deadline:
            raise Budget  # also where every position met is remembered already
        if self._proves(pos):
            return True, 0
        if pos.is_over:
            return False, NEVER
        if pos.to_move == self.prover.side:
            win = pos.winning_move()
            if win is not None:
                self.move[key] = win
                return True, 1
            children = self._next(pos, key)
            if not children:
                return False, NEVER
            if limit < 1:
                return False, 1
            for child in children:  # a move to a leaf: the smallest tree there is
                if self._proves(child):
                    self.move[key] = child.history[-1]
                    return True, 1
            # every move to each size before any move larger: the first found is smallest;
            # a failed round raises the children's bounds, the next size is the least of them
            size = 1 + min(self.bound(c) for c in children)
            while size <= limit:
                for child in children:
                    got = self.smallest(child, size - 1)
                    if got is not None:
                        self.move[key] = child.history[-1]
                        return True, 1 + got
                size = max(size + 1, 1 + min(self.bound(c) for c in children))
            return False, size
        if pos.can_win_next():
            return False, NEVER
        # each reply's smallest tree: the sum is the smallest here (a reply solved has
        # its smallest size as its bound: the room of the others)
        replies = self._next(pos, key)
        bounds = [self.bound(c) for c in replies]
        total = sum(bounds)
        for i, child in enumerate(replies):
            room = limit - 1 - (total - bounds[i])
            got = self.smallest(child, room) if room >= 0 else None
            if got is None:
                return False, 1 + total - bounds[i] + self.bound(child)
            total += got - bounds[i]
            bounds[i] = got
        return True, 1 + total

    def build(self, pos: Position) -> ProofNode:
        """The smallest tree of ``pos`` (found by :meth:`smallest`) as a proof."""
        key = (pos.current, pos.mask)
        if self._proves(pos):  # (remembered: no new evaluation)
            leaf = self.prover.over(pos) if pos.is_over else self.prover.rules_leaf(pos)
            assert leaf is not None
            return leaf
        if pos.to_move == self.prover.side:
            child = pos.copy()
            child.play(self.move[key])
            return ProofNode(pos.digits(), MOVE, children=(self.build(child),))
        kids = []
        for reply in self._next(pos, key):  # (made on another path maybe: its column only)
            child = pos.copy()
            child.play(reply.history[-1])
            kids.append(self.build(child))
        return ProofNode(pos.digits(), REPLIES, children=tuple(kids))

    def improve(self, node: ProofNode, pos: Position) -> ProofNode:
        """``node`` (a proof of ``pos``) with its subtrees replaced, smallest first, by the
        smallest trees found before the deadline: the tree is never larger, and when the
        time runs out the improvements so far are kept."""
        try:
            self._improve(node, pos)
        except Budget:
            pass
        return self._rebuild(node, pos.copy())[0]

    def _improve(self, node: ProofNode, pos: Position) -> None:
        if node.kind in (RULES, FOUR, FULL):
            return
        for child in node.children:
            nxt = pos.copy()
            nxt.play(MOVE_CHARS.index(child.moves[-1]))
            self._improve(child, nxt)
        self.smallest(pos, node.internal())

    def _rebuild(self, node: ProofNode, pos: Position) -> tuple[ProofNode, int]:
        """``node`` (at ``pos``) with each subtree replaced by the smallest tree found for
        its position where that is smaller, and its size. (Played and taken back on one
        position: a large tree is rebuilt after the deadline, so it must be quick.)"""
        if node.kind in (RULES, FOUR, FULL):
            return node, 0
        kids, size = [], 1
        for child in node.children:
            pos.play(MOVE_CHARS.index(child.moves[-1]))
            got, n = self._rebuild(child, pos)
            pos.undo()
            kids.append(got)
            size += n
        key = (pos.current, pos.mask)
        if key in self.size and self.size[key] < size:
            return self.build(pos), self.size[key]
        if all(a is b for a, b in zip(kids, node.children, strict=True)):
            return node, size
        return replace(node, children=tuple(kids)), size


def search(pos: Position, sides: tuple[int, ...], budget: float,
           max_depth: int = SIZE, smaller: bool = True) -> tuple[int, ProofNode] | None:
    """The smallest-depth proof for one of ``sides`` found within ``budget`` seconds, with
    its side, or None. The sides take turns at each depth (the first first), so that
    neither spends the whole budget while the other would prove the position at once.
    ``smaller``: the proof found is then made smaller in the time left (:func:`minimise`;
    False only to measure what that gains)."""
    deadline = time.perf_counter() + budget
    provers = [Prover(side, deadline) for side in sides]
    try:
        for depth in range(0, max(0, min(max_depth, SIZE - pos.ply)) + 1):
            for prover in provers:
                got = prover.prove(pos, depth)
                if got is not None:
                    return prover.side, minimise(prover, pos, got) if smaller else got
    except Budget:
        return None
    return None


def minimise(prover: Prover, pos: Position, proof: ProofNode) -> ProofNode:
    """``proof`` made smaller in the time left before the prover's deadline (the
    smallest tree when there is time enough), claiming as much as it did (a win stays
    a win)."""
    if proof.internal() <= 1:
        return proof  # a move to a leaf: no tree with positions above its leaves is smaller
    return Minimiser(prover, all(leaf.wins for leaf in proof.leaves())).improve(proof, pos)

