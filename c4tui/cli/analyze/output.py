"""What ``c4tui analyze`` prints: the search's iterations as they complete (a live table,
or JSON lines) and its result (text or JSON; docs/analysis.md describes the fields). The
command, its options and the search: __init__.py."""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from c4tui.engine.board.position import Position
    from c4tui.engine.seam import Score, SearchResult

#: How a search ended (the result's ``reason``), in words.
_ENDS = {"done": "search complete", "node_limit": "node limit reached", "stopped": "stopped"}
#: How a root answered without a search ended (the result's ``source``; see Source).
_ANSWERED = {"book": "answered from the books", "exact": "exact without a search"}


def _char(col: int) -> str:
    """A column in the digit notation: 1-9, then A-P (the engine is imported once the size
    is set)."""
    from c4tui.engine.board.position import MOVE_CHARS

    return MOVE_CHARS[col]


def _columns(cols) -> str:
    """Columns in the digit notation ("1313" on 16x7 was column 13 twice, or 1 and 3)."""
    return "".join(_char(c) for c in cols)


def _score_json(score: Score) -> dict:
    """A :class:`Score` as ``--json`` writes it: two fields, ``score`` and ``band``."""
    return {"score": score.value, "band": score.band}


def _lines_json(lines) -> list[dict]:
    """``--multipv``'s lines: move, score, band and pv, moves as columns 1-7."""
    return [{"move": ln.move + 1, **_score_json(ln.score), "pv": [c + 1 for c in ln.pv]}
            for ln in lines]


def _iteration_json(rep, multipv: bool = False) -> dict:
    # the report's fields in order, its Score as two (``score`` and ``band``)
    d: dict = {}
    for f in dataclasses.fields(rep):
        value = getattr(rep, f.name)
        if f.name == "score":
            d.update(_score_json(value))
        elif f.name != "lines":  # as ``lines`` below with --multipv: the first is the report's
            d[f.name] = value
    if multipv:
        d["lines"] = _lines_json(rep.lines)
    d["type"] = "iteration"
    d["from_book"] = rep.from_book  # kept for scripts written before ``source``
    d["best_move"] = rep.best_move + 1
    d["pv"] = [c + 1 for c in rep.pv]
    for k, digits in (("elapsed", 4), ("total_elapsed", 4), ("hit_rate", 4), ("tt_fill", 4)):
        d[k] = round(d[k], digits)
    if str(rep.source) != "search":
        # An answer without a search (the books, a win at once) has no speed, table or
        # search time: its elapsed was the solver's set-up and the line's walk, so its
        # n/s was a number from nothing (issue 36). The keys stay, null (docs/analysis.md).
        d.update(dict.fromkeys(_NOT_SEARCHED))
    return d


#: The ``--json`` fields that only a search has (the table's: log_rows.NOT_SEARCHED).
_NOT_SEARCHED = ("nps", "hit_rate", "tt_fill", "elapsed", "total_elapsed")


def _score_text(score: Score, ply: int) -> str:
    """``+471`` (MILTON's evaluation, ``+0`` too) or ``White wins in 3`` (proven)."""
    from c4tui.engine.scores import result_words

    return result_words(score.value, ply) if score.proven else f"{score.value:+d}"


def _table(pos, snap):
    """The app's search-log rows (one table for both, c4tui/report/log_rows.py) as a rich
    table, moves as columns 1-7 like the rest of the command line; ``snap`` None: the
    header only."""
    from rich.table import Table

    from c4tui.report.log_rows import COLUMNS, iteration_rows

    t = Table(title="iterative deepening (MILTON)", header_style="bold", pad_edge=False,
              box=None)
    for name, _ in COLUMNS:
        t.add_column(name, justify="right", no_wrap=True)
    t.add_column("pv", justify="left", no_wrap=True)
    rows = iteration_rows(pos, snap, lambda _, pv: _columns(pv)) if snap is not None else ()
    for row in rows:
        cells = row.cells  # a row no search made reads "-" (log_rows.NOT_SEARCHED)
        t.add_row(*(cells.get(name, "") for name, _ in COLUMNS), row.pv,
                  style="bold" if row.live else None)
    return t


def _lines_text(pos, lines) -> str:
    """``--multipv``'s lines as text: number, move, score, pv (columns 1-7)."""
    return "\n".join(f"{i + 1}. {_char(ln.move)} {_score_text(ln.score, pos.ply)}"
                     f" ({ln.score.band}): {_columns(ln.pv)}" for i, ln in enumerate(lines))


def print_iterations(ctl, pos, as_json: bool, multipv: bool = False) -> None:
    """Print the iterations as they complete until the search ends (or Ctrl+C)."""
    shown = 0
    if as_json:
        while True:
            done = ctl.wait(0.05)
            its = ctl.snapshot().iterations
            for r in its[shown:]:
                print(json.dumps(_iteration_json(r, multipv)), flush=True)
            shown = len(its)
            if done:
                return
    from rich.console import Console
    from rich.live import Live

    console = Console()
    if not console.is_terminal:
        console = Console(width=max(console.width, 120))
    with Live(_table(pos, None), console=console, refresh_per_second=8) as live:
        while True:
            done = ctl.wait(0.1)
            snap = ctl.snapshot()
            if len(snap.iterations) != shown or done:
                shown = len(snap.iterations)
                live.update(_table(pos, snap))
            if done:
                break
    console.print()


def print_result(pos: Position, res: SearchResult, as_json: bool, multipv: bool) -> None:
    """The best move, its score and line (``multipv``: every line), as text or JSON."""
    if as_json:
        out = {"type": "result", "best_move": res.best_move + 1, **_score_json(res.score),
               "pv": [c + 1 for c in res.pv], "nodes": res.nodes,
               "depth": res.depth, "reason": res.reason, "value": res.value,
               "source": res.source}
        if multipv:
            out["lines"] = _lines_json(res.lines)
        print(json.dumps(out), flush=True)
        return
    answered = _ANSWERED.get(str(res.source))
    if answered:  # no search: no depth (the line's length) to speak of
        typer.echo(f"best move {_char(res.best_move)}, {_score_text(res.score, pos.ply)}, "
                   f"band {res.score.band} ({answered})")
    else:
        why = _ENDS.get(str(res.reason), str(res.reason))
        typer.echo(f"best move {_char(res.best_move)}, {_score_text(res.score, pos.ply)}, "
                   f"band {res.score.band}, depth {res.depth}, {res.nodes:,} nodes ({why})")
    typer.echo(f"principal variation: {_columns(res.pv)}")
    if multipv:
        typer.echo(f"lines:\n{_lines_text(pos, res.lines)}")
