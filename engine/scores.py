"""The score convention of the perfect solvers, and its reading in words.

0 is a draw; a positive score means the side to move wins. Pascal Pons's convention, as in
his solver, Steininger's c4 and their test sets of every size: a win with the disc played
when ``n`` discs are on the board scores ``(W*H + 1 - n) // 2``, one more than the
winner's discs left unplayed (defined once: :func:`~.geometry.win_score`). With the
winner's k-th own disc: ``22 - k`` on 7x6 for either player (the empty board scores +1);
on an odd-area board ``(W*H + 1) / 2 + 1 - k`` for the first player and
``(W*H - 1) / 2 + 1 - k`` for the second.
"""

from __future__ import annotations

from .board.geometry import win_ply as win_ply
from .board.geometry import win_score as win_score
from .board.position import PLAYER_NAMES

FULL_COLUMN = -1000  #: the reference solver's marker for a column that cannot be played


def moves_to_end(score: int, ply: int) -> int:
    """Moves of the winner still to be played, counting the winning one (0 for a draw)."""
    if score == 0:
        return 0
    return (win_ply(score, ply) - ply) // 2 + 1


def score_for_moves(moves: int, ply: int) -> int:
    """The inverse of :func:`moves_to_end`: the score at ``ply`` of a win with the side to
    move's ``moves``-th move from now (``moves`` > 0), or of a loss to the opponent's
    ``-moves``-th (``moves`` < 0)."""
    if moves > 0:
        return win_score(ply + 2 * (moves - 1))
    return -win_score(ply + 1 + 2 * (-moves - 1))


def result_words(score: int, ply: int) -> str:
    """An exact score for the side to move at ``ply`` as a result in words, the one
    wording of every front end: ``White wins in 5`` (the winner's own moves still to
    play, the winning one included), ``draw``, or ``White has won`` (after a four)."""
    if score == 0:
        return "draw"
    side = ply % 2 if score > 0 else 1 - ply % 2
    n = moves_to_end(score, ply)
    return f"{PLAYER_NAMES[side]} wins in {n}" if n else f"{PLAYER_NAMES[side]} has won"


def score_in_words(score: int, ply: int) -> str:
    """An exact score with its reading, the one spelling of a score shown as a number:
    ``+3 (White wins in 17)``, ``0 (draw)``, ``-2 (Black wins in 19)`` (the number signed
    but 0 bare: a draw has no side)."""
    return f"{score:+d} ({result_words(score, ply)})" if score else "0 (draw)"
