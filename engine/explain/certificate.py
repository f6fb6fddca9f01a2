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


def use_to_dict(use: RuleUse) -> dict[str, object]:
    """A rule use as JSON-ready data: ``rule``, ``squares``, ``refutes`` (and ``group``)."""
    out: dict[str, object] = {"rule": use.rule, "squares": list(use.squares),
                              "refutes": list(use.refutes)}
    if use.group:
        out["group"] = use.group
    return out


def node_to_dict(node: ProofNode) -> dict[str, object]:
    """A proof tree as JSON-ready data: ``moves``, ``kind``, ``wins``, a leaf's ``rules``,
    an inner node's ``children``."""
    out: dict[str, object] = {"moves": node.moves, "kind": node.kind, "wins": node.wins}
    if node.rules:
        out["rules"] = [use_to_dict(u) for u in node.rules]
    if node.children:
        out["children"] = [node_to_dict(c) for c in node.children]
    return out


def _strings(value: object, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what}: expected a list of strings")
    return tuple(value)


def use_from_dict(data: object) -> RuleUse:
    """The inverse of :func:`use_to_dict`; a ``ValueError`` for anything else."""
    if not isinstance(data, dict) or not isinstance(data.get("rule"), str):
        raise ValueError("a rule: expected an object with a rule name")
    group = data.get("group")
    if group is not None and not isinstance(group, str):
        raise ValueError("a rule's group: expected a string")
    return RuleUse(data["rule"], _strings(data.get("squares"), "squares"),
                   _strings(data.get("refutes", []), "refutes"), group)


def node_from_dict(data: object, depth: int = 0) -> ProofNode:
    """The inverse of :func:`node_to_dict`; a ``ValueError`` for anything else."""
    if depth > 1000:
        raise ValueError("a proof deeper than any game")
    if not isinstance(data, dict) or not isinstance(data.get("moves"), str) \
            or data.get("kind") not in (RULES, FOUR, FULL, MOVE, REPLIES):
        raise ValueError("a proof node: expected an object with moves and a kind")
    rules = data.get("rules", [])
    children = data.get("children", [])
    if not isinstance(rules, list) or not isinstance(children, list):
        raise ValueError("a proof node: rules and children are lists")
    return ProofNode(data["moves"], data["kind"], tuple(use_from_dict(r) for r in rules),
                     bool(data.get("wins", False)),
                     tuple(node_from_dict(c, depth + 1) for c in children))


def certificate_from_dict(data: object) -> Certificate:
    """A certificate from ``c4tui explain --json``'s object (its ``proof``), to be checked
    again: ``checked`` is None until :func:`c4tui.engine.explain.check` says."""
    if not isinstance(data, dict) or not isinstance(data.get("moves"), str) \
            or not isinstance(data.get("side"), str):
        raise ValueError("a certificate: expected an object with moves and side")
    proves = data.get("proves")
    if proves is not None and not isinstance(proves, str):
        raise ValueError("a certificate's proves: expected a string or null")
    proof = data.get("proof")
    tree = data.get("tree", 0)
    if not isinstance(tree, int):
        raise ValueError("a certificate's tree: expected a number")
    return Certificate(data["moves"], data["side"], proves,
                       None if proof is None else node_from_dict(proof), tree)
