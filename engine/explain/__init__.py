"""Why a position is what it is: Allis's nine rules as checked certificates (issue 35).

``explain(position)`` argues for the side that controls zugzwang (Black by default, White
when it holds an odd threat): the rules' instances on the board (:mod:`.rules`), which of
them can be used together (:mod:`.conflicts`), a set that refutes every group the opponent
could still complete (:mod:`.cover`), and where the rules alone prove nothing, a small
search over the moves with the rules at its leaves (:mod:`.proof`). Every certificate is
then checked by :mod:`.check`, which re-derives everything from the board and shares no
code with the finder. docs/explain.md states the rules in our words.

Pure Python on the bitboards' ints: any board size of even height (the rules pair each
odd-row square with the even one above it).
"""

from __future__ import annotations

import time

from ..board.geometry import BOARD, ZUGZWANG_RULES
from ..board.position import BLACK, WHITE, Position
from .certificate import Certificate, ProofNode, RuleUse
from .check import CheckError, verify
from .check import check as _check
from .evaluate import Verdict, odd_threats
from .groups import ALL_GROUPS
from .proof import rule_uses, search
from .rules import Board, find_rules

SIDE_NAMES = ("white", "black")
#: The default budget of the proof search, seconds.
DEFAULT_BUDGET = 1.0


def default_side(pos: Position) -> int:
    """The controller of zugzwang: White if it holds an odd threat, else Black."""
    return WHITE if odd_threats(pos.stones(WHITE), pos.mask) else BLACK


def explain(position: Position, side: int | None = None,
            budget: float = DEFAULT_BUDGET) -> Certificate:
    """A certificate for ``side`` (``WHITE``/``BLACK``) in ``position``, found within
    ``budget`` seconds and checked; ``proves`` is None when nothing was proven (an odd
    number of rows, a finished game, or no proof found).

    Without ``side`` both sides are argued for, depth by depth, :func:`default_side`
    first (the zugzwang controller): where Black's rules prove nothing, White may win
    through an odd threat a few moves on, and the other way round."""
    t0 = time.perf_counter()
    sides = (side,) if side is not None else (default_side(position),
                                              1 - default_side(position))
    name = SIDE_NAMES[sides[0]]
    cert = Certificate(position.digits(), name, None)
    if not ZUGZWANG_RULES:
        cert.notes.append("the rules need an even number of rows")
    elif position.is_over:
        cert.notes.append("the game is over")
    else:
        found = search(position.copy(), sides, budget)
        if found is None:
            who = name if side is not None else "either side"
            cert.notes.append(f"no proof for {who} within {budget:g} s")
        else:
            proven_side, proof = found
            name = cert.side = SIDE_NAMES[proven_side]
            wins = all(leaf.wins for leaf in proof.leaves())
            cert.proof = proof
            cert.tree = proof.internal()
            cert.proves = f"{name} wins" if wins else f"{name} at least draws"
            try:
                verify(position, cert)
                cert.checked = True
            except CheckError as exc:
                cert.checked = False
                cert.notes.append(f"the checker refused it: {exc}")
    cert.seconds = time.perf_counter() - t0
    return cert


def instances(position: Position, side: int) -> list[RuleUse]:
    """Every instance of the nine rules for ``side`` on the whole board (its opponent must
    be to move), each with the opponent groups it refutes: what a cover is chosen from."""
    if position.is_over or position.to_move == side:
        raise ValueError("the rules argue for the side not to move")
    own = position.stones(side)
    problems = [g for g in ALL_GROUPS if not g & own]
    found = find_rules(Board(own, position.mask, problems, BOARD))
    verdict = Verdict(tuple(found), tuple(problems), -1, False)
    return list(rule_uses(verdict))


def check(position: Position, certificate: Certificate) -> bool:
    """Whether ``certificate`` proves what it claims about ``position``, re-derived by the
    independent checker."""
    return _check(position, certificate)


__all__ = ["Certificate", "CheckError", "ProofNode", "RuleUse", "check", "default_side",
           "explain", "instances", "SIDE_NAMES", "DEFAULT_BUDGET"]
