"""Engine records in words and numbers for the panels (pure functions, no Textual).

Scores format themselves (:class:`c4tui.engine.seam.Score`); what is left here is counts,
times, moves, windows and the threat map's words.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine.board.geometry import HEIGHT, WIDTH, square_bit
from c4tui.engine.board.position import PLAYER_NAMES, Position, square_name
from c4tui.engine.seam import Score, ThreatVerdict
from c4tui.gamefile.movetext import move_number
from c4tui.units import human_count, human_time, plural  # noqa: F401  (the panels' words)


def game_over_text(pos: Position) -> str | None:
    """``White has won`` / ``draw: the board is full`` / None while the game goes on."""
    if pos.winner is not None:
        return f"{PLAYER_NAMES[pos.winner]} has won"
    if pos.is_draw:
        return "draw: the board is full"
    return None


def move_name(pos: Position, ply: int) -> str:
    """The move made at 0-based ``ply`` along ``pos``'s moves, as the move list writes
    it: ``3. c2``, ``2… e2`` (``ply`` < ``pos.ply``; only the number for a position
    set up without its moves)."""
    number = move_number(ply, compact=True)
    if not 0 <= ply < len(pos.history) or len(pos.history) != pos.ply:
        return number
    return f"{number} {pos.algebraic().split()[ply]}"


def pv_text(pos: Position, pv: tuple[int, ...] | list[int]) -> str:
    """A principal variation (0-based columns) as algebraic squares from ``pos``."""
    return " ".join(pos.line_squares(pv))


def bound_text(x: int) -> str:
    """A window bound; MILTON's ±10000 is shown as ±∞."""
    return "∞" if x >= 10000 else ("-∞" if x <= -10000 else str(x))


def window_text(alpha: int, beta: int) -> str:
    return f"[{bound_text(alpha)},{bound_text(beta)}]"


# ------------------------------------------------------------------------- threats
@dataclass(frozen=True)
class Threat:
    """An empty square that completes a four for ``player``."""

    player: int
    col: int
    row: int  #: 0-based from the bottom
    acute: bool  #: playable right now

    @property
    def odd(self) -> bool:
        return self.row % 2 == 0  # row 1 (index 0) is odd

    @property
    def name(self) -> str:
        return square_name(self.col, self.row)


def threats_of(pos: Position) -> list[Threat]:
    """Every threat square of both players, bottom-up per column."""
    out = []
    playable = pos.possible_squares()
    for player in (0, 1):
        bits = pos.threats(player)
        for c in range(WIDTH):
            for r in range(HEIGHT):
                b = square_bit(c, r)
                if bits & b:
                    out.append(Threat(player, c, r, bool(playable & b)))
    return out


def threat_summary(pos: Position) -> list[str]:
    """One line per player: ``White: c3 odd, e5 odd ACUTE``."""
    lines = []
    ts = threats_of(pos)
    for player in (0, 1):
        mine = [t for t in ts if t.player == player]
        parts = [f"{t.name} {'odd' if t.odd else 'even'}{' ACUTE' if t.acute else ''}"
                 for t in mine]
        lines.append(f"{PLAYER_NAMES[player]}: " + (", ".join(parts) or "none"))
    return lines


def milton_verdict(pos: Position, verdict: ThreatVerdict) -> str:
    """MILTON's threat-fill verdict in words: who wins if no new threats appear, and why.

    The reason names the winner's threats that fit the zugzwang rule (White profits from
    odd threats, Black from even ones).
    """
    ts = threats_of(pos)
    if verdict.outcome == 0:  # (what the fill found, not why: threats need not cancel)
        return "draw: " + ("no threats" if not ts else "no four when the board fills")
    winner = pos.to_move if verdict.outcome > 0 else 1 - pos.to_move
    mine = [t for t in ts if t.player == winner]
    acute = [t for t in mine if t.acute]
    good = [t for t in mine if t.odd == (winner == 0)]
    if acute:
        why = f"acute {', '.join(t.name for t in acute)}"
    elif good:
        why = f"{'odd' if winner == 0 else 'even'} {', '.join(t.name for t in good)}"
    elif mine:
        why = f"{', '.join(t.name for t in mine)} by zugzwang"
    else:
        why = "zugzwang"
    return f"{PLAYER_NAMES[winner]} wins: {why} (fill step {verdict.plies})"


def verdict_against(pos: Position, verdict: ThreatVerdict, exact: Score | None) -> str:
    """What the threat panel adds below MILTON's verdict (a heuristic: new threats do
    appear) when the position's proven value (``exact``, the side to move's view; None:
    not known) has another result: ``exact differs: Black wins in 13``; "" when it agrees
    or is not known. An approximate value never stands unanswered against an exact one."""
    if exact is None or not exact.proven or exact.sign() == verdict.outcome:
        return ""
    return f"exact differs: {exact.words(pos)}"
