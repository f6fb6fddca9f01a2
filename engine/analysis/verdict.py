"""MILTON's threat-fill verdict of a position, for a UI (the numba kernel stays inside)."""

from __future__ import annotations

from ..board.bitboard import word
from ..board.position import Position
from ..seam import ThreatVerdict
from .eval import threat_fill


def threat_verdict(pos: Position) -> ThreatVerdict:
    """Who wins if no new threats appear (thesis 6.1); microseconds once compiled.

    Call it off the UI thread the first time: it loads (or compiles) the kernel.
    """
    outcome, plies = threat_fill(word(pos.current), word(pos.mask))
    return ThreatVerdict(int(outcome), int(plies))
