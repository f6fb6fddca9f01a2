"""The certificate checker: independent of the finder, it trusts nothing it is given.

It reads the position square by square (owner or empty, by column and row counted from 1
at the bottom), lists the fours itself, re-derives every rule instance from its definition
(the squares' emptiness, playability, rows and columns), recomputes the groups each one
refutes, checks every pair against the combination table, checks that the opponent's
groups are all refuted, and walks a proof tree's moves: one legal move where the
controller is to move, every legal reply where the opponent is. It shares no code with
:mod:`.rules`, :mod:`.conflicts` or :mod:`.cover` (only the position and the certificate's
dataclasses), so a bug in the finder is not repeated here.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..board.geometry import COLUMN_NAMES, HEIGHT, WIDTH
from ..board.position import MOVE_CHARS, Position
from .certificate import (
    FOUR,
    FULL,
    MOVE,
    ODD_THREAT,
    REPLIES,
    RULES,
    Certificate,
    ProofNode,
    RuleUse,
)

Sq = tuple[int, int]  # (column 0-based, row 1-based)
Group = frozenset[Sq]
SIDES = {"white": 0, "black": 1}
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class CheckError(Exception):
    """What is wrong with a certificate (the message says where)."""


def _lines() -> list[Group]:
    out = []
    for c in range(WIDTH):
        for r in range(1, HEIGHT + 1):
            for dc, dr in DIRECTIONS:
                sq = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= x < WIDTH and 1 <= y <= HEIGHT for x, y in sq):
                    out.append(frozenset(sq))
    return out


LINES = _lines()


def name_of(group: Iterable[Sq]) -> str:
    """``"a1-d4"``: the group's first and last square in (column, row) order."""
    sq = sorted(group)
    return f"{COLUMN_NAMES[sq[0][0]]}{sq[0][1]}-{COLUMN_NAMES[sq[-1][0]]}{sq[-1][1]}"


def parse_sq(name: str) -> Sq:
    """``"d1"`` -> (3, 1); a :class:`CheckError` for anything else."""
    if len(name) < 2 or name[0] not in COLUMN_NAMES or not name[1:].isdigit():
        raise CheckError(f"{name!r}: not a square")
    r = int(name[1:])
    if not 1 <= r <= HEIGHT:
        raise CheckError(f"{name!r}: not a square")
    return COLUMN_NAMES.index(name[0]), r


class Grid:
    """The position as a grid of owners (0 White, 1 Black, None empty)."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.cells: dict[Sq, int | None] = {
            (c, r): pos.cell(c, r - 1) for c in range(WIDTH) for r in range(1, HEIGHT + 1)}
        self.heights = [sum(self.cells[(c, r)] is not None for r in range(1, HEIGHT + 1))
                        for c in range(WIDTH)]

    def empty(self, s: Sq) -> bool:
        return self.cells[s] is None

    def playable(self, s: Sq) -> bool:
        return self.empty(s) and self.heights[s[0]] == s[1] - 1


def _group_from_name(name: str) -> Group:
    a, b = name.split("-") if name.count("-") == 1 else ("", "")
    if not a:
        raise CheckError(f"{name!r}: not a group")
    (c1, r1), (c2, r2) = parse_sq(a), parse_sq(b)
    # a four's ends are three steps apart: the step is a third of the distance
    dc = (c2 - c1) // 3 if (c2 - c1) % 3 == 0 else 9
    dr = (r2 - r1) // 3 if (r2 - r1) % 3 == 0 else 9
    g = frozenset((c1 + k * dc, r1 + k * dr) for k in range(4))
    if g not in LINES_SET:
        raise CheckError(f"{name!r}: not a four of the board")
    return g


LINES_SET = frozenset(LINES)


class Use:
    """One rule use, re-derived: its squares, claimeven squares, inverse columns, special
    squares, and the groups it refutes (among ``problems``)."""

    def __init__(self, kind: str, squares: list[Sq]) -> None:
        self.kind, self.squares = kind, squares
        self.claimevens: set[Sq] = set()
        self.inverse_columns: frozenset[int] = frozenset()
        self.special: set[Sq] = set()
        self.refutes: set[Group] = set()


def _stacked(a: Sq, b: Sq) -> bool:
    return a[0] == b[0] and b[1] == a[1] + 1


def _with(problems: list[Group], *need: Sq) -> set[Group]:
    return {g for g in problems if all(s in g for s in need)}


def _derive(grid: Grid, use: RuleUse, side: int, problems: list[Group],
            region_cols: set[int]) -> Use:
    kind = use.rule
    sq = [parse_sq(n) for n in use.squares]
    if len(set(sq)) != len(sq):
        raise CheckError(f"{kind} {' '.join(use.squares)}: a square twice")
    for s in sq:
        if not grid.empty(s):
            raise CheckError(f"{kind}: {use.squares}: a square is not empty")
        if s[0] not in region_cols:
            raise CheckError(f"{kind}: {use.squares}: a square in the odd threat's column")
    u = Use(kind, sq)
    bad = CheckError(f"{kind} {' '.join(use.squares)}: not an instance")

    def claimeven(a: Sq, b: Sq) -> bool:
        return _stacked(a, b) and b[1] % 2 == 0

    def vertical(a: Sq, b: Sq) -> bool:
        return _stacked(a, b) and b[1] % 2 == 1

    if kind == "claimeven":
        if len(sq) != 2 or not claimeven(*sq):
            raise bad
        u.claimevens = set(sq)
        u.refutes = _with(problems, sq[1])
    elif kind == "baseinverse":
        if len(sq) != 2 or not (grid.playable(sq[0]) and grid.playable(sq[1])) \
                or sq[0][0] == sq[1][0]:
            raise bad
        u.refutes = _with(problems, *sq)
    elif kind == "vertical":
        if len(sq) != 2 or not vertical(*sq):
            raise bad
        u.refutes = _with(problems, *sq)
    elif kind == "lowinverse":
        if len(sq) != 4 or not (vertical(sq[0], sq[1]) and vertical(sq[2], sq[3])) \
                or sq[0][0] == sq[2][0]:
            raise bad
        l1, u1, l2, u2 = sq
        u.inverse_columns = frozenset({l1[0], l2[0]})
        u.refutes = _with(problems, u1, u2) | _with(problems, l1, u1) | _with(problems, l2, u2)
    elif kind == "highinverse":
        if len(sq) != 6 or sq[0][0] == sq[3][0]:
            raise bad
        l1, m1, u1, l2, m2, u2 = sq
        if not (_stacked(l1, m1) and _stacked(m1, u1) and _stacked(l2, m2)
                and _stacked(m2, u2) and u1[1] % 2 == 0 and u2[1] % 2 == 0):
            raise bad
        u.inverse_columns = frozenset({l1[0], l2[0]})
        ref = (_with(problems, u1, u2) | _with(problems, m1, m2) | _with(problems, m1, u1)
               | _with(problems, m2, u2))
        if grid.playable(l1):
            ref |= _with(problems, l1, u2)
        if grid.playable(l2):
            ref |= _with(problems, l2, u1)
        u.refutes = ref
    elif kind == "baseclaim":
        if len(sq) != 4:
            raise bad
        p1, p2, q, p3 = sq
        if not (all(grid.playable(p) for p in (p1, p2, p3))
                and len({p1[0], p2[0], p3[0]}) == 3 and claimeven(p2, q)):
            raise bad
        u.claimevens = {p2, q}
        u.refutes = _with(problems, p1, q) | _with(problems, p2, p3)
    elif kind in ("aftereven", "before", "specialbefore"):
        if use.group is None:
            raise CheckError(f"{kind} {' '.join(use.squares)}: no group named")
        g = _group_from_name(use.group)
        if any(grid.cells[s] == 1 - side for s in g):
            raise CheckError(f"{kind} {use.group}: the opponent has a disc in the group")
        empties = sorted(s for s in g if grid.empty(s))
        if not empties:
            raise CheckError(f"{kind} {use.group}: the group is complete")
        if kind == "aftereven":
            pairs = [(sq[i], sq[i + 1]) for i in range(0, len(sq), 2)]
            if len(sq) % 2 or not all(claimeven(a, b) for a, b in pairs) \
                    or sorted(b for _, b in pairs) != empties:
                raise bad
            u.claimevens = set(sq)
            ref = set[Group]()
            for e in empties:
                ref |= _with(problems, e)
            for gr in problems:
                if all(any(s[0] == e[0] and s[1] > e[1] for s in gr) for e in empties):
                    ref.add(gr)
            u.refutes = ref
        else:
            if (len({s[0] for s in g}) == 1 and len(empties) > 1) \
                    or any(e[1] == HEIGHT for e in empties):
                raise bad
            rest = sq
            special_e: Sq | None = None
            if kind == "specialbefore":
                if len(sq) < 2:
                    raise bad
                special_e, x = sq[0], sq[1]
                if special_e not in empties or not grid.playable(special_e) \
                        or not grid.playable(x) or any(e[0] == x[0] for e in empties):
                    raise bad
                u.special = {special_e, x}
                rest = sq[2:]
            pairs = [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
            if len(rest) % 2:
                raise bad
            covered = []
            ref = set[Group]()
            for a, b in pairs:
                if b in empties and claimeven(a, b):  # a claimeven up to the empty square
                    covered.append(b)
                    u.claimevens |= {a, b}
                    ref |= _with(problems, b)
                elif a in empties and _stacked(a, b):  # a vertical from it
                    covered.append(a)
                    ref |= _with(problems, a, b)
                else:
                    raise bad
            others = [e for e in empties if e != special_e]
            if sorted(covered) != others:
                raise bad
            succ = [(e[0], e[1] + 1) for e in empties]
            if special_e is None:
                ref |= _with(problems, *succ)
            else:
                ref |= _with(problems, *succ, sq[1]) | _with(problems, special_e, sq[1])
            u.refutes = ref
    else:
        raise CheckError(f"{kind!r}: not one of the nine rules")
    claimed = set(use.refutes)
    derived = {name_of(g) for g in u.refutes}
    if not claimed <= derived:
        extra = sorted(claimed - derived)
        raise CheckError(f"{kind} {' '.join(use.squares)}: does not refute {', '.join(extra)}")
    return u


# The combination table (Allis 7.4) written out again: conditions per unordered pair.
_ABBR = {"claimeven": "CL", "baseinverse": "BI", "vertical": "VE", "aftereven": "AE",
         "lowinverse": "LI", "highinverse": "HI", "baseclaim": "BC", "before": "BE",
         "specialbefore": "SB"}
_ROWS = """
CL CL 1
BI CL 1 | BI BI 1
VE CL 1 | VE BI 1 | VE VE 1
AE CL 1 | AE BI 1 | AE VE 1 | AE AE 3
LI CL 12 | LI BI 1 | LI VE 1 | LI AE 12 | LI LI 4
HI CL 12 | HI BI 1 | HI VE 1 | HI AE 12 | HI LI 4 | HI HI 4
BC CL 1 | BC BI 1 | BC VE 1 | BC AE 1 | BC LI 12 | BC HI 12 | BC BC 1
BE CL 1 | BE BI 1 | BE VE 1 | BE AE 3 | BE LI 23 | BE HI 12 | BE BC 1 | BE BE 3
SB CL 1 | SB BI 1 | SB VE 1 | SB AE 3 | SB LI 23 | SB HI 12 | SB BC 1 | SB BE 3 | SB SB 3
"""
_TABLE: dict[frozenset[str], str] = {}
for _line in _ROWS.strip().splitlines():
    for _cell in _line.split("|"):
        _a, _b, _c = _cell.split()
        _TABLE[frozenset({_a, _b})] = _c


def _below_inverse(inv: Use, other: Use) -> bool:
    for col in inv.inverse_columns:
        low = min(s[1] for s in inv.squares if s[0] == col)
        if any(s[0] == col and s[1] < low for s in other.claimevens):
            return True
    return False


def _compatible(a: Use, b: Use) -> bool:
    conds = _TABLE[frozenset({_ABBR[a.kind], _ABBR[b.kind]})]
    sa, sb = set(a.squares), set(b.squares)
    for cond in conds:
        if cond in "14" and sa & sb:
            return False
        if cond == "2" and ((a.inverse_columns and _below_inverse(a, b))
                            or (b.inverse_columns and _below_inverse(b, a))):
            return False
        if cond == "3":
            if a.special & sb or b.special & sa:
                return False
            for col in range(WIDTH):
                ca = {s for s in sa if s[0] == col}
                cb = {s for s in sb if s[0] == col}
                if ca & cb and ca != cb:
                    return False
        if cond == "4" and a.inverse_columns & b.inverse_columns \
                and a.inverse_columns != b.inverse_columns:
            return False
    return True


def check_rules(pos: Position, side: int, uses: tuple[RuleUse, ...], wins: bool) -> None:
    """Raise :class:`CheckError` unless ``uses`` prove ``side``'s claim in ``pos`` (the
    opponent to move): at least a draw for Black, a win with an aftereven (Black) or an odd
    threat (White)."""
    if HEIGHT % 2:
        raise CheckError("the rules need an even number of rows")
    if pos.is_over or pos.to_move == side:
        raise CheckError(f"{pos.digits() or 'the empty board'}: the rules argue for the side "
                         f"not to move")
    grid = Grid(pos)
    problems = [g for g in LINES if all(grid.cells[s] != side for s in g)]
    threats = [u for u in uses if u.rule == ODD_THREAT]
    region = set(range(WIDTH))
    refuted: set[Group] = set()
    if side == 0:
        if len(threats) != 1:
            raise CheckError("White's rules need one odd threat")
        t = parse_sq(threats[0].squares[0]) if len(threats[0].squares) == 1 else None
        if t is None or not grid.empty(t) or t[1] % 2 == 0 or grid.playable(t):
            raise CheckError("oddthreat: not an empty odd square above an empty one")
        if not any(t in g and all(grid.cells[s] == 0 for s in g if s != t) for g in LINES):
            raise CheckError(f"oddthreat {threats[0].squares[0]}: completes no White four")
        region.discard(t[0])
        gone = {g for g in problems if any(s[0] == t[0] and s[1] >= t[1] for s in g)}
        if not set(threats[0].refutes) <= {name_of(g) for g in gone}:
            raise CheckError("oddthreat: refutes a group it does not reach")
        refuted |= gone
        problems = [g for g in problems if g not in gone]
    elif threats:
        raise CheckError("oddthreat: only White's rules use one")
    derived = [_derive(grid, u, side, problems, region) for u in uses if u.rule != ODD_THREAT]
    for i, a in enumerate(derived):
        for b in derived[i + 1:]:
            if not _compatible(a, b):
                raise CheckError(f"{a.kind} and {b.kind} cannot be used together "
                                 f"({' '.join(map(_sqname, a.squares))}; "
                                 f"{' '.join(map(_sqname, b.squares))})")
    for d in derived:
        refuted |= d.refutes
    left = [g for g in problems if g not in refuted]
    if left:
        raise CheckError(f"not refuted: {', '.join(sorted(name_of(g) for g in left))}")
    if wins and side == 1 and not any(d.kind == "aftereven" for d in derived):
        raise CheckError("a win for Black needs an aftereven")


def _sqname(s: Sq) -> str:
    return f"{COLUMN_NAMES[s[0]]}{s[1]}"


def _walk(node: ProofNode, pos: Position, side: int) -> bool:
    """Check ``node`` at ``pos``; return whether it proves a win."""
    if node.moves != pos.digits():
        raise CheckError(f"node {node.moves!r}: expected the position {pos.digits()!r}")
    if node.kind == RULES:
        check_rules(pos, side, node.rules, node.wins)
        return node.wins
    if node.kind == FOUR:
        if pos.winner != side:
            raise CheckError(f"{node.moves}: no four of the controller")
        return True
    if node.kind == FULL:
        if not pos.is_draw or side != 1:
            raise CheckError(f"{node.moves}: not a full board for Black's draw")
        return False
    if pos.is_over:
        raise CheckError(f"{node.moves}: the game is over")
    kids: dict[int, ProofNode] = {}
    for child in node.children:
        if len(child.moves) != len(node.moves) + 1 or not child.moves.startswith(node.moves) \
                or child.moves[-1] not in MOVE_CHARS:
            raise CheckError(f"{child.moves!r}: not a move from {node.moves!r}")
        col = MOVE_CHARS.index(child.moves[-1])
        if col in kids or not pos.can_play(col):
            raise CheckError(f"{child.moves!r}: not a legal move, or twice")
        kids[col] = child
    if node.kind == MOVE:
        if pos.to_move != side or len(kids) != 1:
            raise CheckError(f"{node.moves}: a move node needs the controller to move, one move")
    elif node.kind == REPLIES:
        if pos.to_move == side or set(kids) != set(pos.legal_moves()):
            raise CheckError(f"{node.moves}: every reply of the opponent must be answered")
    else:
        raise CheckError(f"{node.kind!r}: not a node kind")
    wins = True
    for col, child in kids.items():
        nxt = pos.copy()
        nxt.play(col)
        wins = _walk(child, nxt, side) and wins
    return wins


def verify(pos: Position, cert: Certificate) -> None:
    """Raise :class:`CheckError` unless ``cert`` proves what it claims about ``pos``."""
    if cert.proves is None:
        return
    if cert.side not in SIDES:
        raise CheckError(f"{cert.side!r}: not a side")
    side = SIDES[cert.side]
    if cert.proof is None:
        raise CheckError("a claim without a proof")
    if cert.moves != pos.digits():
        raise CheckError(f"{cert.moves!r}: not the position's moves {pos.digits()!r}")
    wins = _walk(cert.proof, pos.copy(), side)
    expected = f"{cert.side} wins" if wins else f"{cert.side} at least draws"
    if cert.proves not in (expected, f"{cert.side} at least draws") or (
            cert.proves == "white at least draws" and not wins):
        raise CheckError(f"claims {cert.proves!r}, the proof shows {expected!r}")
    if cert.tree != cert.proof.internal():
        raise CheckError(f"tree {cert.tree}: the proof has {cert.proof.internal()} positions "
                         f"above its leaves")


def check(pos: Position, cert: Certificate) -> bool:
    """Whether ``cert`` proves what it claims about ``pos`` (see :func:`verify`)."""
    try:
        verify(pos, cert)
    except (CheckError, ValueError):
        return False
    return True

