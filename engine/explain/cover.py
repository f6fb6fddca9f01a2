"""The search for a compatible set of rule instances that refutes every problem.

VICTOR's backtracking (Allis, section 9.2): take the unrefuted problem with the fewest
instances still usable, try each of those instances in turn, drop every instance that
conflicts with the one taken, recurse. Sets are Python ints (bitsets) over the problems
and over the instances; conflicts are computed only for the instances the search takes
(most positions need a few dozen), not as a whole matrix.
"""

from __future__ import annotations

import time

from .conflicts import compatible
from .groups import COLUMN_MASKS, bits
from .rules import AFTEREVEN, BEFORE, HIGHINVERSE, LOWINVERSE, SPECIALBEFORE, Rule

INVERSES = (LOWINVERSE, HIGHINVERSE)
#: The rules that may share claimevens and verticals column by column (condition 3).
JOINT = (AFTEREVEN, BEFORE, SPECIALBEFORE)


#: Search steps (positions of the backtracking) before a cover search gives up. Measured
#: on 500 random 7x6 positions: every cover found took fewer than 50 steps; the few
#: searches that ran longer all failed (docs/benchmarks.md), so the cap bounds the time
#: of the rules at little cost.
MAX_STEPS = 300


class Budget(Exception):
    """The search ran out of its time budget."""


class _StepLimit(Exception):
    """The search took :data:`MAX_STEPS` steps: no cover is claimed."""


def find_cover(rules: list[Rule], n_problems: int, deadline: float | None = None,
               max_steps: int = MAX_STEPS) -> list[Rule] | None:
    """A list of pairwise compatible ``rules`` whose refutations cover problems
    ``0 .. n_problems - 1``, or None if there is none or the search took more than
    ``max_steps`` steps; :class:`Budget` when the ``deadline`` (a ``time.perf_counter``
    value) passes.
    """
    everything = (1 << n_problems) - 1
    union = 0
    for r in rules:
        union |= r.refutes
    if union & everything != everything:
        return None  # a problem no instance refutes: no search needed
    # solvers[i]: bitset of the instances that refute problem i
    solvers = [0] * n_problems
    for j, r in enumerate(rules):
        ref = r.refutes
        while ref:
            low = ref & -ref
            solvers[low.bit_length() - 1] |= 1 << j
            ref ^= low
    all_rules = (1 << len(rules)) - 1
    # Most pairs need only "no square in common" (condition 1 of the table): found with
    # bitsets of the instances per square. The table's other conditions are asked of the
    # pairs that can fail them: inverses with any instance sharing a column, and
    # afterevens/befores/specialbefores with each other when they share a square. Two
    # instances in different columns never conflict.
    by_square: dict[int, int] = {}
    by_column = [0] * len(COLUMN_MASKS)
    inverses = joint = 0
    for j, r in enumerate(rules):
        bit = 1 << j
        for b in bits(r.mask):
            by_square[b] = by_square.get(b, 0) | bit
        for c, col in enumerate(COLUMN_MASKS):
            if r.mask & col:
                by_column[c] |= bit
        if r.kind in INVERSES:
            inverses |= bit
        elif r.kind in JOINT:
            joint |= bit

    def slow(j: int, candidates: int) -> int:
        rj, got = rules[j], 0
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            k = low.bit_length() - 1
            if k != j and not compatible(rj, rules[k]):
                got |= low
        return got

    def conflict_set(j: int, usable: int) -> int:
        """The instances among ``usable`` that conflict with instance ``j``."""
        rj = rules[j]
        overlap = shared = 0
        for b in bits(rj.mask):
            overlap |= by_square[b]
        for c, col in enumerate(COLUMN_MASKS):
            if rj.mask & col:
                shared |= by_column[c]
        overlap &= usable
        shared &= usable
        if rj.kind in INVERSES:
            return slow(j, shared)
        if rj.kind in JOINT:
            return (overlap & ~inverses & ~joint) | slow(j, overlap & joint) \
                | slow(j, shared & inverses)
        return (overlap & ~inverses) | slow(j, shared & inverses)

    steps = 0
    chosen: list[int] = []

    def search(open_problems: int, usable: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > max_steps:
            raise _StepLimit
        if deadline is not None and steps & 63 == 0 and time.perf_counter() > deadline:
            raise Budget
        if not open_problems:
            return True
        # the problem with the fewest usable instances
        best_count, best_set = 1 << 30, 0
        rest = open_problems
        while rest:
            low = rest & -rest
            i = low.bit_length() - 1
            rest ^= low
            cand = solvers[i] & usable
            n = cand.bit_count()
            if n < best_count:
                best_count, best_set = n, cand
                if n <= 1:
                    break
        if best_count == 0:
            return False
        # the instances that refute the most open problems first
        order = []
        cand = best_set
        while cand:
            low = cand & -cand
            j = low.bit_length() - 1
            cand ^= low
            order.append((-(rules[j].refutes & open_problems).bit_count(), j))
        order.sort()
        for _, j in order:
            chosen.append(j)
            rest = usable & ~conflict_set(j, usable) & ~(1 << j)
            if search(open_problems & ~rules[j].refutes, rest):
                return True
            chosen.pop()
            usable &= ~(1 << j)  # tried: any cover using j was explored below
        return False

    try:
        if search(everything, all_rules):
            return [rules[j] for j in chosen]
    except _StepLimit:
        pass
    return None
