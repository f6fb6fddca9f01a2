"""The search for a compatible set of rule instances that refutes every problem.

VICTOR's backtracking (Allis, section 9.2): take the unrefuted problem with the fewest
instances still usable, try each of those instances in turn (the one refuting most open
problems first), drop every instance that conflicts with the one taken, recurse. Sets are
Python ints (bitsets) over the problems and over the instances. Conflicts are computed
only for the instances the search takes and only among those still usable, never as a
whole matrix.
"""

from __future__ import annotations

import time

from ..board.geometry import H1
from .conflicts import compatible
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


class Cover:
    """The instances of one position, indexed once for any number of searches (the
    tiers of :mod:`.evaluate` search subsets of them)."""

    def __init__(self, rules: list[Rule], n_problems: int) -> None:
        self.rules, self.n_problems = rules, n_problems
        # solvers[i]: the instances that refute problem i
        solvers = [0] * n_problems
        # Most pairs need only "no square in common" (condition 1 of the table): found
        # with bitsets of the instances per square. The table's other conditions are
        # asked of the pairs that can fail them: inverses with any instance sharing a
        # column, afterevens/befores/specialbefores with each other when they share a
        # square. Two instances in different columns never conflict.
        by_square: dict[int, int] = {}
        by_column: dict[int, int] = {}
        self.columns: list[tuple[int, ...]] = []
        inverses = joint = 0
        for j, r in enumerate(rules):
            bit = 1 << j
            ref = r.refutes
            while ref:
                low = ref & -ref
                solvers[low.bit_length() - 1] |= bit
                ref ^= low
            for b in r.squares:
                by_square[b] = by_square.get(b, 0) | bit
            cols = tuple({b // H1 for b in r.squares})
            self.columns.append(cols)
            for c in cols:
                by_column[c] = by_column.get(c, 0) | bit
            if r.kind in INVERSES:
                inverses |= bit
            elif r.kind in JOINT:
                joint |= bit
        self.solvers, self.by_square, self.by_column = solvers, by_square, by_column
        self.inverses, self.joint = inverses, joint

    def _slow(self, j: int, candidates: int) -> int:
        rj, rules, got = self.rules[j], self.rules, 0
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            k = low.bit_length() - 1
            if k != j and not compatible(rj, rules[k]):
                got |= low
        return got

    def conflicts(self, j: int, usable: int) -> int:
        """The instances among ``usable`` that conflict with instance ``j``."""
        rj = self.rules[j]
        overlap = shared = 0
        for b in rj.squares:
            overlap |= self.by_square[b]
        for c in self.columns[j]:
            shared |= self.by_column[c]
        overlap &= usable
        shared &= usable
        inv, joint = self.inverses, self.joint
        if rj.kind in INVERSES:
            return self._slow(j, shared)
        if rj.kind in JOINT:
            return ((overlap & ~inv & ~joint) | self._slow(j, overlap & joint)
                    | self._slow(j, shared & inv))
        return (overlap & ~inv) | self._slow(j, shared & inv)

    def find(self, allowed: int, deadline: float | None = None,
             max_steps: int = MAX_STEPS) -> list[Rule] | None:
        """Pairwise compatible instances among ``allowed`` (a bitset over the instances)
        that refute every problem, or None if there are none or the search took more
        than ``max_steps`` steps; :class:`Budget` when ``deadline`` (a
        ``time.perf_counter`` value) passes."""
        rules, solvers = self.rules, self.solvers
        for s in solvers:
            if not s & allowed:
                return None  # a problem nothing allowed refutes: no search needed
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
                rest ^= low
                cand = solvers[low.bit_length() - 1] & usable
                n = cand.bit_count()
                if n < best_count:
                    best_count, best_set = n, cand
                    if n <= 1:
                        break
            if best_count == 0:
                return False
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
                rest_usable = usable & ~self.conflicts(j, usable) & ~(1 << j)
                if search(open_problems & ~rules[j].refutes, rest_usable):
                    return True
                chosen.pop()
                usable &= ~(1 << j)  # tried: every cover with j was explored below
            return False

        try:
            if search((1 << self.n_problems) - 1, allowed):
                return [rules[j] for j in chosen]
        except _StepLimit:
            pass
        return None


def find_cover(rules: list[Rule], n_problems: int, deadline: float | None = None,
               max_steps: int = MAX_STEPS) -> list[Rule] | None:
    """A list of pairwise compatible ``rules`` whose refutations cover problems
    ``0 .. n_problems - 1`` (see :meth:`Cover.find`)."""
    return Cover(rules, n_problems).find((1 << len(rules)) - 1, deadline, max_steps)
