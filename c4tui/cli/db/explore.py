"""``c4tui db explore``'s answer: the moves' exact values and the explorer's table or
JSON lines (the command itself, its options and the database: __init__.py)."""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING

import typer

from c4tui.units import plural

if TYPE_CHECKING:
    from c4tui.db.explorer import PositionStats
    from c4tui.engine.board.position import Position


def exact_values(pos: Position, seconds: float) -> tuple[int | None, ...]:
    """Each column's exact score for the side to move: the books', else the solver's
    within ``seconds`` (None: not found in time)."""
    from c4tui.book.answer import BookReader
    from c4tui.engine.board.geometry import WIDTH
    from c4tui.engine.seam import SearchAborted, default_threads

    from ..solve import build_solver

    known = BookReader().column_scores(pos)
    if known is not None:
        return known
    scores: list[int | None] = [None] * WIDTH
    solver = build_solver(None, True, default_threads())
    timer = threading.Timer(seconds, solver.stop)
    timer.start()
    try:
        result = solver.analyze(pos, lambda col, s: scores.__setitem__(col, s))
        return result.scores
    except SearchAborted:
        return tuple(scores)
    finally:
        timer.cancel()


def explore_json(stats: PositionStats, values: tuple[int | None, ...] | None) -> None:
    """One JSON object per move played here (``exact``: its value, or null)."""
    for m in stats.moves:
        row: dict[str, object] = {"move": m.col + 1, "games": m.games, "white": m.white,
                                  "draws": m.draws, "black": m.black,
                                  "exact": values[m.col] if values else None}
        if m.twin is not None:
            row["mirror"] = m.twin + 1
        typer.echo(json.dumps(row))


def explore_table(pos: Position, stats: PositionStats,
                  values: tuple[int | None, ...] | None) -> None:
    """The explorer's table: the games through ``pos``, then a row per move played."""
    from c4tui.engine.scores import score_in_words

    where = pos.digits() or "the empty board"
    t = stats.total
    typer.echo(f"{plural(t.games, 'game')} through {where}: White {t.percent(t.white):.0f}% "
               f"draw {t.percent(t.draws):.0f}% Black {t.percent(t.black):.0f}%")
    if not stats.moves:
        return
    typer.echo(f"{'move':<6}{'games':>9}{'White':>8}{'draw':>7}{'Black':>7}  exact")
    for m in stats.moves:
        name = f"{m.col + 1}" + (f"={m.twin + 1}" if m.twin is not None else "")
        value = values[m.col] if values else None
        exact = "" if value is None else score_in_words(value, pos.ply)
        typer.echo(f"{name:<6}{m.games:>9,}{m.percent(m.white):>7.0f}%{m.percent(m.draws):>6.0f}%"
                   f"{m.percent(m.black):>6.0f}%  {exact}".rstrip())
    if stats.ended.games:
        typer.echo(f"(the game ended here in {stats.ended.games:,})")
