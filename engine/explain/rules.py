"""Every instance of Allis's nine rules in a position, with the problems each refutes.

The *controller* (the side that argues) plays second in every pair of moves the rules
describe: the position has the opponent to move. Each rule is a promise the controller can
keep whatever the opponent does (which squares it answers with which), and a consequence:
some of the opponent's groups can never be completed. Chapter 6 of Allis's thesis defines
them; in our words (rows counted from 1 at the bottom, "odd"/"even" the row's parity):

* claimeven: two empty squares, an odd one and the even one above it. The controller answers
  the odd square with the even one, so it gets the even square: refutes every group on it.
* baseinverse: two playable squares. The controller answers either with the other: refutes
  the groups with both.
* vertical: two empty squares, the upper one odd. The controller answers the lower with the
  upper: one of the two is its own; refutes the groups with both.
* aftereven: a group of the controller whose empty squares are all the even squares of
  claimevens. The controller completes it when it gets the last one, so in one of its
  columns nothing is ever played above it: refutes every group with a square above the
  aftereven square in each of those columns, and what the claimevens refute.
* lowinverse: two columns, in each two empty squares with the upper odd. Two verticals, and
  the controller gets one of the two upper squares: refutes groups with both upper squares
  and the verticals' groups.
* highinverse: two columns, in each three empty squares with the upper even. Refutes the
  groups with both upper squares, with both middle ones, with the two higher squares of one
  column, and, when a column's lowest square is playable, with it and the other column's
  upper square.
* baseclaim: three playable squares and the even square above the second. Refutes the groups
  with the first playable square and the even square, and those with the second and third.
* before: a group of the controller (no empty square on the top row) and, for each empty
  square, a vertical from it or a claimeven up to it. The controller either completes the
  group or gets a square right above one of its empty squares: refutes the groups holding
  every such successor square, and what the verticals and claimevens refute.
* specialbefore: a before whose one playable empty square is paired instead with another
  playable square (the two as a baseinverse). Refutes the groups with every successor and
  the extra square, those with both playable squares, and what its parts refute.

This module finds instances and what they refute with bitboard arithmetic; the checker
(:mod:`.check`) re-derives each claim in its own way.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, permutations, product

from ..board.geometry import EVEN_ROWS, H1, HEIGHT, ODD_ROWS, WIDTH
from .groups import ALL_GROUPS, COLUMN_MASKS, GROUP_BITS, TOP_ROW, bits, col_of, is_vertical

CLAIMEVEN = "claimeven"
BASEINVERSE = "baseinverse"
VERTICAL = "vertical"
AFTEREVEN = "aftereven"
LOWINVERSE = "lowinverse"
HIGHINVERSE = "highinverse"
BASECLAIM = "baseclaim"
BEFORE = "before"
SPECIALBEFORE = "specialbefore"
#: The nine rules, in the thesis's order.
KINDS = (CLAIMEVEN, BASEINVERSE, VERTICAL, AFTEREVEN, LOWINVERSE, HIGHINVERSE, BASECLAIM,
         BEFORE, SPECIALBEFORE)


@dataclass(frozen=True)
class Rule:
    """One instance of a rule.

    ``squares``: bit indices in the rule's canonical order (see :mod:`.check`), ``mask``
    the same as a bitboard; ``group``: the controller's group of an aftereven, before or
    specialbefore (0 otherwise); ``refutes``: a bitset over the problem list it was found
    for. ``claimevens`` holds the squares of its claimeven parts (a baseclaim's second
    square and the one above count), ``inverse_columns`` the columns of an inverse (a
    column bitset), ``special`` a specialbefore's two playable squares: what the
    combination table (:mod:`.conflicts`) looks at.
    """

    kind: str
    squares: tuple[int, ...]
    mask: int
    refutes: int
    group: int = 0
    claimevens: int = 0
    inverse_columns: int = 0
    special: int = 0


class Board:
    """The position as the rules see it: the controller's discs, all discs, the problems.

    ``region``: the squares the rules may use (all of the board, or all but a column the
    controller's odd threat holds).
    """

    def __init__(self, own: int, mask: int, problems: list[int], region: int) -> None:
        self.own, self.mask, self.problems = own, mask, problems
        self.empty = region & ~mask & ((1 << (WIDTH * H1)) - 1)
        self.playable = (mask + sum(1 << (c * H1) for c in range(WIDTH))) & self.empty
        by_sq = [0] * (WIDTH * H1 + 1)
        for i, g in enumerate(problems):
            for b in GROUP_BITS[g]:
                by_sq[b] |= 1 << i
        self.by_sq = by_sq
        # above[b]: the problems with a square above b in b's column
        above = [0] * (WIDTH * H1)
        for c in range(WIDTH):
            acc = 0
            for r in range(HEIGHT - 1, -1, -1):
                b = c * H1 + r
                above[b] = acc
                acc |= by_sq[b]
        self.above = above

    def both(self, a: int, b: int) -> int:
        """Problems containing squares ``a`` and ``b``."""
        return self.by_sq[a] & self.by_sq[b]

    def all_of(self, squares: list[int]) -> int:
        """Problems containing every square of ``squares``."""
        acc = -1
        for s in squares:
            acc &= self.by_sq[s]
        return acc if squares else 0


def _claimevens(bd: Board) -> list[Rule]:
    # lower odd (0-based even row), upper even, both empty
    lowers = bd.empty & (bd.empty >> 1) & ODD_ROWS
    out = []
    for lo in bits(lowers):
        up = lo + 1
        ref = bd.by_sq[up]
        if ref:
            out.append(Rule(CLAIMEVEN, (lo, up), (1 << lo) | (1 << up), ref,
                            claimevens=(1 << lo) | (1 << up)))
    return out


def _baseinverses(bd: Board) -> list[Rule]:
    out = []
    for a, b in combinations(bits(bd.playable), 2):
        ref = bd.both(a, b)
        if ref:
            out.append(Rule(BASEINVERSE, (a, b), (1 << a) | (1 << b), ref))
    return out


def _verticals(bd: Board) -> list[Rule]:
    lowers = bd.empty & (bd.empty >> 1) & EVEN_ROWS  # the upper square is odd
    out = []
    for lo in bits(lowers):
        ref = bd.both(lo, lo + 1)
        if ref:
            out.append(Rule(VERTICAL, (lo, lo + 1), (3 << lo), ref))
    return out


def _own_groups(bd: Board) -> list[tuple[int, list[int]]]:
    """The controller's groups with an empty square (no opponent disc): (group, empties)."""
    opp = bd.mask & ~bd.own
    out = []
    for g in ALL_GROUPS:
        if g & opp:
            continue
        empties = g & ~bd.mask
        if empties and not (empties & ~bd.empty):  # every empty square inside the region
            out.append((g, [b for b in GROUP_BITS[g] if empties >> b & 1]))
    return out


def _afterevens(bd: Board, own_groups: list[tuple[int, list[int]]]) -> list[Rule]:
    out = []
    seen = set()
    for g, empties in own_groups:
        # each empty square the even square of a claimeven: even row, the odd below empty
        if not all((1 << s) & EVEN_ROWS and (1 << (s - 1)) & bd.empty for s in empties):
            continue
        key = tuple(empties)
        if key in seen:
            continue  # another group with the same empty squares: the same rule
        seen.add(key)
        ref = -1
        ce = 0
        for s in empties:
            ref &= bd.above[s]
            ce |= 3 << (s - 1)
        for s in empties:
            ref |= bd.by_sq[s]
        squares = tuple(b for s in empties for b in (s - 1, s))
        out.append(Rule(AFTEREVEN, squares, ce, ref, group=g, claimevens=ce))
    return out


def _inverses(bd: Board) -> list[Rule]:
    out = []
    # lowinverse: per column, (l, l+1) empty with the upper odd (l on an even row)
    low = bd.empty & (bd.empty >> 1) & EVEN_ROWS
    # highinverse: (l, l+1, l+2) empty with the upper even (l on an even row)
    high = bd.empty & (bd.empty >> 1) & (bd.empty >> 2) & EVEN_ROWS
    per_low = [bits(low & COLUMN_MASKS[c]) for c in range(WIDTH)]
    per_high = [bits(high & COLUMN_MASKS[c]) for c in range(WIDTH)]
    for c1, c2 in combinations(range(WIDTH), 2):
        cols = (1 << c1) | (1 << c2)
        for l1, l2 in product(per_low[c1], per_low[c2]):
            u1, u2 = l1 + 1, l2 + 1
            ref = bd.both(u1, u2) | bd.both(l1, u1) | bd.both(l2, u2)
            if ref:
                out.append(Rule(LOWINVERSE, (l1, u1, l2, u2), (3 << l1) | (3 << l2), ref,
                                inverse_columns=cols))
        for l1, l2 in product(per_high[c1], per_high[c2]):
            m1, m2, u1, u2 = l1 + 1, l2 + 1, l1 + 2, l2 + 2
            ref = (bd.both(u1, u2) | bd.both(m1, m2) | bd.both(m1, u1) | bd.both(m2, u2))
            if (1 << l1) & bd.playable:
                ref |= bd.both(l1, u2)
            if (1 << l2) & bd.playable:
                ref |= bd.both(l2, u1)
            if ref:
                out.append(Rule(HIGHINVERSE, (l1, m1, u1, l2, m2, u2),
                                (7 << l1) | (7 << l2), ref, inverse_columns=cols))
    return out


def _baseclaims(bd: Board) -> list[Rule]:
    out = []
    play = bits(bd.playable)
    for p2 in play:
        q = p2 + 1  # the even square above the second playable square
        if not ((1 << p2) & ODD_ROWS and (1 << q) & bd.empty):
            continue
        # the first and the third play different parts: every ordered pair of the others
        for p1, p3 in permutations([p for p in play if p != p2], 2):
            ref = bd.both(p1, q) | bd.both(p2, p3)
            if ref:
                out.append(Rule(BASECLAIM, (p1, p2, q, p3),
                                (1 << p1) | (1 << p2) | (1 << q) | (1 << p3), ref,
                                claimevens=(1 << p2) | (1 << q)))
    return out


def _befores(bd: Board, own_groups: list[tuple[int, list[int]]]) -> list[Rule]:
    out: list[Rule] = []
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for g, empties in own_groups:
        # a vertical group only with its top square empty (two empty squares of one
        # column would need overlapping parts)
        if (is_vertical(g) and len(empties) > 1) or any((1 << s) & TOP_ROW for s in empties):
            continue
        # the options of each empty square: a vertical from it, or a claimeven up to it
        options: list[list[tuple[int, int, bool]]] = []
        for s in empties:
            opts = [(s, s + 1, False)]
            if (1 << s) & EVEN_ROWS and (1 << (s - 1)) & bd.empty:
                opts.append((s - 1, s, True))
            options.append(opts)
        succ = [s + 1 for s in empties]
        main = bd.all_of(succ)
        for choice in product(*options):
            if all(is_ce for _, _, is_ce in choice):
                continue  # claimevens only: an aftereven says more
            squares = tuple(b for lo, up, _ in choice for b in (lo, up))
            key = (BEFORE, squares)
            if key in seen:
                continue
            ref = main
            ce = 0
            for (lo, up, is_ce), s in zip(choice, empties, strict=True):
                if is_ce:
                    ref |= bd.by_sq[s]
                    ce |= 3 << lo
                else:
                    ref |= bd.both(lo, up)
            if ref:
                seen.add(key)
                mask = sum(1 << b for b in squares)
                out.append(Rule(BEFORE, squares, mask, ref, group=g, claimevens=ce))
        # specialbefore: one playable empty square e, paired with a playable square x of a
        # column that holds no empty square of the group
        cols = {col_of(s) for s in empties}
        for i, e in enumerate(empties):
            if not (1 << e) & bd.playable:
                continue
            rest = empties[:i] + empties[i + 1:]
            rest_opts = options[:i] + options[i + 1:]
            for x in bits(bd.playable):
                if col_of(x) in cols:
                    continue
                main_x = main & bd.by_sq[x]
                pair = bd.both(e, x)
                for choice in product(*rest_opts):
                    squares = (e, x) + tuple(b for lo, up, _ in choice for b in (lo, up))
                    key = (SPECIALBEFORE, squares)
                    if key in seen:
                        continue
                    ref = main_x | pair
                    ce = 0
                    for (lo, up, is_ce), s in zip(choice, rest, strict=True):
                        if is_ce:
                            ref |= bd.by_sq[s]
                            ce |= 3 << lo
                        else:
                            ref |= bd.both(lo, up)
                    if ref:
                        seen.add(key)
                        mask = sum(1 << b for b in squares)
                        out.append(Rule(SPECIALBEFORE, squares, mask, ref, group=g,
                                        claimevens=ce, special=(1 << e) | (1 << x)))
    return out


def find_rules(bd: Board) -> list[Rule]:
    """Every instance of the nine rules that refutes at least one problem."""
    own_groups = _own_groups(bd)
    return (_claimevens(bd) + _baseinverses(bd) + _verticals(bd)
            + _afterevens(bd, own_groups) + _inverses(bd) + _baseclaims(bd)
            + _befores(bd, own_groups))
