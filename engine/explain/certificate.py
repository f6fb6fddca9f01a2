"""The plain dataclasses a proof is made of: what :func:`explain` returns and
:func:`check` reads. Squares and groups are named as players name them (``"d1"``,
``"a1-d4"``), so that a certificate means the same outside the process that found it."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Leaf and node kinds of a proof tree.
RULES, FOUR, FULL, MOVE, REPLIES = "rules", "four", "full", "move", "replies"
#: The pseudo-rule of White's odd threat (Allis 8.2): the threat's column from it up.
ODD_THREAT = "oddthreat"


@dataclass(frozen=True)
class RuleUse:
    """One rule instance: its name, its squares in the rule's order (see docs/explain.md),
    the opponent groups it refutes, and the controller's group of an aftereven, before or
    specialbefore."""

    rule: str
    squares: tuple[str, ...]
    refutes: tuple[str, ...]
    group: str | None = None


@dataclass(frozen=True)
class ProofNode:
    """A position of a proof (``moves``: its digit string from the empty board).

    ``kind``: ``"rules"`` (a leaf the rules prove: ``rules``, ``odd_threat``), ``"four"``
    (a leaf: the controller has just completed a four), ``"full"`` (a leaf: the board is
    full, a draw), ``"move"`` (the controller to move: one child, its move), ``"replies"``
    (the opponent to move: one child per legal move). ``wins``: the leaf proves a win.
    """

    moves: str
    kind: str
    rules: tuple[RuleUse, ...] = ()
    wins: bool = False
    children: tuple[ProofNode, ...] = ()

    def internal(self) -> int:
        """The positions of the tree above its leaves."""
        if self.kind in (RULES, FOUR, FULL):
            return 0
        return 1 + sum(c.internal() for c in self.children)

    def leaves(self) -> list[ProofNode]:
        """The leaves, left to right."""
        if not self.children:
            return [self]
        return [leaf for c in self.children for leaf in c.leaves()]


@dataclass
class Certificate:
    """What :func:`c4tui.engine.explain.explain` found for a position.

    ``side``: the controller argued for (``"white"``/``"black"``); ``proves``: ``"black
    wins"``, ``"black at least draws"``, ``"white wins"``, ``"white at least draws"`` or
    None; ``proof``: the tree (a single ``"rules"`` node when the rules prove the position
    itself); ``tree``: its positions above the leaves; ``checked``: what the independent
    checker said (None when there is nothing to check); ``seconds``: the time taken.
    """

    moves: str
    side: str
    proves: str | None
    proof: ProofNode | None = None
    tree: int = 0
    checked: bool | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def rules(self) -> list[tuple[str, RuleUse]]:
        """Every rule instance of the proof with the position (digits) it is used in."""
        if self.proof is None:
            return []
        return [(leaf.moves, r) for leaf in self.proof.leaves() for r in leaf.rules]
