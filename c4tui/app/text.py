"""Turning engine records into words, numbers and colours (no Textual, no engine imports).

Everything here is a pure function of a Position and the plain records of
docs/engine-api.md, so it is easy to test and cheap to call on the UI thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from c4tui.engine.geometry import COLUMN_NAMES, HEIGHT, WIDTH, square_bit
from c4tui.engine.position import PLAYER_NAMES, Position
from c4tui.engine.scores import describe, moves_to_end

WIN_STYLE = "bold #3fb950"
LOSS_STYLE = "bold #f85149"
DRAW_STYLE = "#9a9a9a"
HEUR_STYLE = "italic #79c0ff"


@dataclass(frozen=True)
class ColumnValue:
    """A value under a board column: ``short`` fits 3 cells, ``long`` reads as words."""

    short: str
    long: str
    style: str
    score: int | None = None


def exact_value(score: int | None, ply: int) -> ColumnValue | None:
    """The value of a move scored ``score`` (side to move's view) played at ``ply``."""
    if score is None:
        return None
    if score == 0:
        return ColumnValue("=", "draw", DRAW_STYLE, 0)
    n = moves_to_end(score, ply)
    if score > 0:
        return ColumnValue(f"W{n}", describe(score, ply), WIN_STYLE, score)
    return ColumnValue(f"L{n}", describe(score, ply), LOSS_STYLE, score)


def exact_values(scores: tuple[int | None, ...], ply: int) -> list[ColumnValue | None]:
    """Values of all columns from an analysed position (None for a full column)."""
    return [exact_value(s, ply) for s in scores]


def exact_verdict(score: int | None, pos: Position) -> str:
    """``"White wins: win in 3"`` style summary of a position's exact score."""
    if score is None:
        return "-"
    if score == 0:
        return "draw with best play"
    side = pos.to_move if score > 0 else 1 - pos.to_move
    n = moves_to_end(score, pos.ply)
    return f"{PLAYER_NAMES[side]} wins in {n}"


def white_view_exact(score: int, pos: Position) -> float:
    """An exact score mapped to [-1, 1] from White's side; faster wins are taller."""
    if score == 0:
        return 0.0
    mag = 0.35 + 0.65 * min(1.0, abs(score) / 18)
    v = mag if score > 0 else -mag
    return v if pos.to_move == 0 else -v


def game_over_text(pos: Position) -> str | None:
    if pos.winner is not None:
        return f"{PLAYER_NAMES[pos.winner]} has won"
    if pos.is_draw:
        return "draw: the board is full"
    return None


# ------------------------------------------------------------------------- threats
@dataclass(frozen=True)
class Threat:
    player: int
    col: int
    row: int  #: 0-based from the bottom
    acute: bool  #: playable right now

    @property
    def odd(self) -> bool:
        return self.row % 2 == 0  # row 1 (index 0) is odd

    @property
    def name(self) -> str:
        return f"{COLUMN_NAMES[self.col]}{self.row + 1}"


def threats_of(pos: Position) -> list[Threat]:
    """Every threat square of both players, bottom-up per column."""
    out = []
    playable = pos.playable_squares()
    for player in (0, 1):
        bits = pos.threats(player)
        for c in range(WIDTH):
            for r in range(HEIGHT):
                b = square_bit(c, r)
                if bits & b:
                    out.append(Threat(player, c, r, bool(playable & b)))
    return out


def threat_summary(pos: Position) -> list[str]:
    """One line per player: ``White: c3 odd, e5 odd!`` (``!`` = acute)."""
    lines = []
    ts = threats_of(pos)
    for player in (0, 1):
        mine = [t for t in ts if t.player == player]
        if mine:
            parts = [
                f"{t.name} {'odd' if t.odd else 'even'}{' ACUTE' if t.acute else ''}"
                for t in mine
            ]
            lines.append(f"{PLAYER_NAMES[player]}: " + ", ".join(parts))
        else:
            lines.append(f"{PLAYER_NAMES[player]}: none")
    return lines


# -------------------------------------------------------------------------- numbers
def human_count(n: float | int | None) -> str:
    """1234 -> 1.2k, 2_500_000 -> 2.5M."""
    if n is None:
        return "-"
    n = float(n)
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(n) >= div:
            return f"{n / div:.1f}{unit}"
    return f"{int(n)}"


def human_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1:
        return f"{seconds * 1000:.0f}ms"
    if seconds < 60:
        return f"{seconds:.1f}s"
    return f"{int(seconds // 60)}m{int(seconds % 60):02d}s"


def pv_text(pos: Position, pv: tuple[int, ...] | list[int]) -> str:
    """A principal variation (0-based columns) as algebraic squares from ``pos``."""
    p = pos.copy()
    out = []
    for col in pv:
        if not p.can_play(col) or p.is_over:
            break
        out.append(f"{COLUMN_NAMES[col]}{p.height(col) + 1}")
        p.play(col)
    return " ".join(out)


# --------------------------------------------------------------------- search scores
def search_value(score: int | None, band: str | None, ply: int) -> ColumnValue | None:
    """A search score (docs/engine-api.md bands) as a column-style value.

    ``exact``/``recognized``: the solvers' convention (``W3``; ``r`` marks a recognized
    result whose distance may not be the shortest). ``heuristic``: MILTON's evaluation,
    ``±(458 + discs)`` for an expected win/loss, 0 for an expected draw (``~W`` ``~L`` ``~=``).
    """
    if score is None or band is None:
        return None
    if band in ("exact", "recognized"):
        v = exact_value(score, ply)
        if v is not None and band == "recognized" and score != 0:
            return ColumnValue(v.short + "r", v.long + " (recognized)", v.style, score)
        return v
    if score > 0:
        return ColumnValue("~W", "expected win (heuristic)", HEUR_STYLE, score)
    if score < 0:
        return ColumnValue("~L", "expected loss (heuristic)", HEUR_STYLE, score)
    return ColumnValue("~=", "expected draw (heuristic)", HEUR_STYLE, 0)


def search_summary(score: int | None, band: str | None, pos: Position) -> str:
    """``"White wins in 3"``, ``"Black expected to win (eval 475)"`` ..."""
    if score is None or band is None:
        return "-"
    if band in ("exact", "recognized"):
        text = exact_verdict(score, pos)
        return text + (" (recognized)" if band == "recognized" and score else "")
    if score == 0:
        return "draw expected (eval 0)"
    side = pos.to_move if score > 0 else 1 - pos.to_move
    return f"{PLAYER_NAMES[side]} expected to win (eval {score:+d} for {PLAYER_NAMES[pos.to_move]})"


def white_view_search(score: int | None, band: str | None, pos: Position) -> float | None:
    """A search score on the graph's [-1, 1] scale (heuristic wins are short bars)."""
    if score is None or band is None:
        return None
    if band in ("exact", "recognized"):
        return white_view_exact(score, pos)
    v = 0.0 if score == 0 else (0.2 if score > 0 else -0.2)
    return v if pos.to_move == 0 else -v


def short_score(score: int | None, band: str | None, ply: int) -> str:
    """Compact score for the search log: ``W3``, ``L5r``, ``=``, ``+475``."""
    if score is None:
        return "-"
    if band == "heuristic":
        return f"{score:+d}" if score else "0"
    v = search_value(score, band, ply)
    return v.short if v else "-"


def bound_text(x: int) -> str:
    """A window bound; MILTON's ±10000 is shown as ±∞."""
    return "∞" if x >= 10000 else ("-∞" if x <= -10000 else str(x))


def window_text(alpha: int, beta: int) -> str:
    return f"[{bound_text(alpha)},{bound_text(beta)}]"


# ---------------------------------------------------------------------------- verdict
def milton_verdict(pos: Position, outcome: int, plies: int) -> str:
    """MILTON's threat-fill verdict in words: who wins if no new threats appear, and why.

    ``outcome`` (+1/0/-1 for the side to move) and ``plies`` (fill steps to the winning
    disc) come from the engine's evaluation; the reason names the winner's threats that
    fit the zugzwang rule (White profits from odd threats, Black from even ones).
    """
    ts = threats_of(pos)
    if outcome == 0:
        return "draw: " + ("no threats" if not ts else "the threats cancel out")
    winner = pos.to_move if outcome > 0 else 1 - pos.to_move
    mine = [t for t in ts if t.player == winner]
    acute = [t for t in mine if t.acute]
    good = [t for t in mine if t.odd == (winner == 0)]
    if acute:
        why = f"acute {', '.join(t.name for t in acute)}"
    elif good:
        parity = "odd" if winner == 0 else "even"
        why = f"{parity} {', '.join(t.name for t in good)}"
    elif mine:
        why = f"{', '.join(t.name for t in mine)} by zugzwang"
    else:
        why = "zugzwang"
    return f"{PLAYER_NAMES[winner]} wins: {why} (four at fill step {plies})"


def parse_count(text: str, what: str, lo: int, hi: int) -> int:
    """``"2M"``, ``"500k"``, ``"1_000_000"`` -> int, within [lo, hi]; ValueError otherwise."""
    t = text.strip().lower().replace("_", "").replace(",", "")
    mult = 1
    if t and t[-1] in "kmg":
        mult = {"k": 10**3, "m": 10**6, "g": 10**9}[t[-1]]
        t = t[:-1]
    try:
        value = int(float(t) * mult) if "." in t else int(t) * mult
    except ValueError:
        raise ValueError(f"{what}: {text.strip()!r} is not a number") from None
    if not lo <= value <= hi:
        raise ValueError(f"{what}: {value} is out of range ({lo} to {hi})")
    return value
