"""Which rule instances may be used together: the combination table of Allis's section 7.4.

Two instances conflict when following both could ask the controller for two different
answers to one move, or when filling one of them in would hand the move (the zugzwang)
to the wrong side for the other. The table's conditions, in our words:

1. the two use no square in common;
2. no claimeven of the other rule lies in an inverse's column below the inverse (filling
   it in would open an odd number of squares under the inverse);
3. column by column, the two use either the same squares or none in common (two
   afterevens or befores may share a claimeven or a vertical; a specialbefore's two
   playable squares are never shared);
4. the two use no square in common, and their inverse columns are the same two or none.

Where the thesis's table gives condition 2 alone (a lowinverse or highinverse with a
claimeven) we also ask for condition 1: an inverse that shares a square with a claimeven
asks two answers of one move.
"""

from __future__ import annotations

from .groups import COLUMN_MASKS
from .rules import (
    AFTEREVEN,
    BASECLAIM,
    BASEINVERSE,
    BEFORE,
    CLAIMEVEN,
    HIGHINVERSE,
    LOWINVERSE,
    SPECIALBEFORE,
    VERTICAL,
    Rule,
)

_CL, _BI, _VE, _AE, _LI, _HI, _BC, _BE, _SB = (
    CLAIMEVEN, BASEINVERSE, VERTICAL, AFTEREVEN, LOWINVERSE, HIGHINVERSE, BASECLAIM, BEFORE,
    SPECIALBEFORE)

# The table, lower triangle as in the thesis (row, column): the conditions to meet.
_TABLE_ROWS: dict[str, dict[str, tuple[int, ...]]] = {
    _CL: {_CL: (1,)},
    _BI: {_CL: (1,), _BI: (1,)},
    _VE: {_CL: (1,), _BI: (1,), _VE: (1,)},
    _AE: {_CL: (1,), _BI: (1,), _VE: (1,), _AE: (3,)},
    _LI: {_CL: (1, 2), _BI: (1,), _VE: (1,), _AE: (1, 2), _LI: (4,)},
    _HI: {_CL: (1, 2), _BI: (1,), _VE: (1,), _AE: (1, 2), _LI: (4,), _HI: (4,)},
    _BC: {_CL: (1,), _BI: (1,), _VE: (1,), _AE: (1,), _LI: (1, 2), _HI: (1, 2), _BC: (1,)},
    _BE: {_CL: (1,), _BI: (1,), _VE: (1,), _AE: (3,), _LI: (2, 3), _HI: (1, 2), _BC: (1,),
          _BE: (3,)},
    _SB: {_CL: (1,), _BI: (1,), _VE: (1,), _AE: (3,), _LI: (2, 3), _HI: (1, 2), _BC: (1,),
          _BE: (3,), _SB: (3,)},
}
TABLE: dict[tuple[str, str], tuple[int, ...]] = {}
for _row, _cols in _TABLE_ROWS.items():
    for _col, _conds in _cols.items():
        TABLE[(_row, _col)] = TABLE[(_col, _row)] = _conds

_INVERSES = (LOWINVERSE, HIGHINVERSE)


def _claimeven_below(inverse: Rule, other: Rule) -> bool:
    """Whether a claimeven square of ``other`` lies in a column of ``inverse`` below it."""
    if not other.claimevens:
        return False
    for col_mask in COLUMN_MASKS:
        part = inverse.mask & col_mask
        if part and other.claimevens & col_mask & (part & -part) - 1:
            return True
    return False


def _columnwise(a: Rule, b: Rule) -> bool:
    """Condition 3: per column the same squares or none in common; special squares never
    shared."""
    if (a.special & b.mask) or (b.special & a.mask):
        return False
    common = a.mask & b.mask
    if not common:
        return True
    for col_mask in COLUMN_MASKS:
        if common & col_mask and (a.mask & col_mask) != (b.mask & col_mask):
            return False
    return True


def compatible(a: Rule, b: Rule) -> bool:
    """Whether ``a`` and ``b`` may be used together (the table's conditions)."""
    conds = TABLE[(a.kind, b.kind)]
    for cond in conds:
        if cond == 1:
            if a.mask & b.mask:
                return False
        elif cond == 2:
            if a.kind in _INVERSES and _claimeven_below(a, b):
                return False
            if b.kind in _INVERSES and _claimeven_below(b, a):
                return False
        elif cond == 3:
            if not _columnwise(a, b):
                return False
        elif cond == 4:
            if a.mask & b.mask:
                return False
            if a.inverse_columns & b.inverse_columns and a.inverse_columns != b.inverse_columns:
                return False
    return True
