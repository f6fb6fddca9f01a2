"""The evaluation graph's data: the best known value of each position of the game."""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.engine.seam import Band, Score, SearchState

from .engine_view import EngineView
from .position_cache import PositionCache


class EvalHistory:
    """Position key -> value in [-1, 1] from White's view, exact values first (of the
    most recently viewed positions)."""

    def __init__(self) -> None:
        self._values: PositionCache[tuple[float, bool]] = PositionCache()  # (value, exact)
        self._line: tuple[int, ...] | None = None
        self._plies: list[tuple[int, float | None]] = []

    def record(self, pos: Position, view: EngineView) -> None:
        """Keep what ``view`` knows of ``pos``: the solver's value, else a settled
        search's (a heuristic value only once its search has ended)."""
        key = pos.key()
        if _exact(self._values.get(key)):
            return
        exact = view.exact
        if exact is not None and exact.best is not None:
            self._values[key] = (Score(exact.best, Band.EXACT).white_view(pos), True)
            return
        snap = view.snapshot
        pov = snap.score if snap is not None else None
        if pov is None or snap is None or not snap.iterations:
            return
        if pov.proven or snap.state in (SearchState.DONE, SearchState.NODE_LIMIT):
            self._values[key] = (pov.white_view(pos), False)

    def record_exact(self, pos: Position, score: int) -> None:
        """Keep ``pos``'s exact score (side to move's view), e.g. from the game review."""
        self._values[pos.key()] = (Score(score, Band.EXACT).white_view(pos), True)

    def line(self, moves: list[int]) -> tuple[float | None, ...]:
        """One value per ply of the line (its start included; a finished game is
        decided). The line's positions are worked out once per line, not per poll."""
        self._follow(moves)
        return tuple(_value(self._values.get(k)) if fixed is None else fixed
                     for k, fixed in self._plies)

    def exact_line(self, moves: list[int]) -> tuple[bool, ...]:
        """Per ply of the line, as :meth:`line`: its value is exact (the solver's, or
        a finished game's), not a search's."""
        self._follow(moves)
        return tuple(fixed is not None or _exact(self._values.get(k))
                     for k, fixed in self._plies)

    def _follow(self, moves: list[int]) -> None:
        key = tuple(moves)
        if key != self._line:
            self._line, self._plies = key, _plies(moves)


def _plies(moves: list[int]) -> list[tuple[int, float | None]]:
    """(key, decided value or None) per ply of the line."""
    pos = Position()
    out: list[tuple[int, float | None]] = [(pos.key(), None)]
    for col in moves:
        pos.play(col)
        fixed = None
        if pos.is_over:
            w = pos.winner
            fixed = 0.0 if w is None else (1.0 if w == 0 else -1.0)
        out.append((pos.key(), fixed))
    return out


def _value(known: tuple[float, bool] | None) -> float | None:
    return None if known is None else known[0]


def _exact(known: tuple[float, bool] | None) -> bool:
    return known is not None and known[1]
