"""A puzzle's theme: what kind of idea the keeping move is, from the threats it makes and
MILTON's threat-fill verdict (:func:`c4tui.engine.analysis.verdict.threat_verdict`) of the
position after it. A *threat* is an empty square that completes a four for its owner
(:meth:`Position.threats`); it is *playable* when a disc dropped now lands on it. Checked
in this order, the first that holds names the theme:

* ``double-threat``: after the move the mover threatens two wins the opponent cannot both
  stop with one disc: two playable threats, or a playable threat with another of the
  mover's threats right above it;
* ``odd-threat`` / ``even-threat``: the move makes a new threat that is not playable, and
  the threat-fill verdict of the position after it gives the mover the puzzle's result
  (a win; for a draw puzzle, at least a draw) once the board fills up: the threat decides
  the game by zugzwang at the end. Odd or even is the row of the lowest new threat,
  counted from 1 at the bottom (White's good threats are odd, Black's even);
* ``zugzwang``: the move makes no new threat, yet the threat-fill verdict after it gives
  the mover the puzzle's result: the threats already on the board win as the columns fill,
  and the move keeps the parity that makes the opponent play under them;
* ``quiet``: none of these; the point of the move lies deeper than the threats.
"""

from __future__ import annotations

from c4tui.engine.board.geometry import H1
from c4tui.engine.board.position import Position

DOUBLE, ODD, EVEN, ZUGZWANG, QUIET = ("double-threat", "odd-threat", "even-threat",
                                       "zugzwang", "quiet")
THEMES = (DOUBLE, ODD, EVEN, ZUGZWANG, QUIET)


def _bits(board: int) -> list[int]:
    out = []
    while board:
        low = board & -board
        out.append(low.bit_length() - 1)
        board ^= low
    return out


def is_double_threat(after: Position, mover: int) -> bool:
    """The mover (who just played) threatens two wins the opponent cannot both stop."""
    threats = after.threats(mover)
    playable = threats & after.possible_squares()
    return len(_bits(playable)) >= 2 or bool((playable << 1) & threats)


def new_threat_row(pos: Position, after: Position, mover: int) -> int | None:
    """The 1-based row of the lowest threat the move made that is not playable, or None."""
    new = after.threats(mover) & ~pos.threats(mover) & ~after.possible_squares()
    rows = [bit % H1 + 1 for bit in _bits(new)]
    return min(rows) if rows else None


def theme_of(pos: Position, keep: int, result: str) -> str:
    """The theme of playing ``keep`` (0-based) in ``pos`` to keep ``result`` ("win" or
    "draw"); the module docstring defines each."""
    from c4tui.engine.analysis.verdict import threat_verdict  # numba: loaded on first use

    mover = pos.to_move
    after = pos.copy()
    after.play(keep)
    if is_double_threat(after, mover):
        return DOUBLE
    verdict = threat_verdict(after).outcome  # for the opponent, who is to move
    keeps = verdict == -1 if result == "win" else verdict <= 0 and bool(after.threats(mover))
    row = new_threat_row(pos, after, mover)
    if keeps and row is not None:
        return ODD if row % 2 else EVEN
    if keeps:
        return ZUGZWANG
    return QUIET
