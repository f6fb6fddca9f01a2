"""``c4tui analyze``: MILTON's iterative-deepening analysis search from the shell.

Each iteration is printed as it completes (a rich table, or one JSON object per line with
``--json``), then the best move and principal variation. Moves are printed as columns
1-7, the notation ``analyze`` and ``solve`` read, so a principal variation appended to the
moves given is a position again.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from c4tui.bounded import LineTooLong

from . import options
from .errors import FAILURE, check_range, fail
from .helptext import TidyCommand
from .size import SIZE_OPTION, check_size

if TYPE_CHECKING:
    from c4tui.engine.position import Position
    from c4tui.engine.seam import Limits, Score, SearchOptions, SearchResult


def read_moves(moves: list[str] | None) -> str:
    """The moves given (words joined, as ``open`` reads them; ``""`` is the empty board),
    else the one position on stdin when it is a pipe or a file (blank lines skipped; a
    line ``""`` is the empty board)."""
    if moves is not None:
        return " ".join(moves)
    if sys.stdin is None or sys.stdin.isatty():
        return ""  # no moves at a terminal: the empty board
    first, count = "", 0  # lines are counted, not kept: stdin may be endless
    for line in options.stdin_lines():
        if isinstance(line, LineTooLong):
            fail(f"analyze: stdin {line}")
        if line.strip():
            if not count:  # '""' is the empty board, as the argument "" is
                first = options.position_text(line.strip())
            count += 1
    if count > 1:
        fail(f"analyze: stdin holds {count} positions; analyze takes one "
             "(c4tui solve reads many)")
    if not count:  # an empty pipe (a script's bug) is not the empty board
        fail('analyze: stdin holds no position (the empty board is analyze "")')
    return first


_ENDS = {"done": "search complete", "node_limit": "node limit reached", "stopped": "stopped"}
#: How a root answered without a search ended (the result's ``source``; see Source).
_ANSWERED = {"book": "answered from the books", "exact": "exact without a search"}


def _char(col: int) -> str:
    """A column in the digit notation: 1-9, then A-P (the engine is imported once the size
    is set)."""
    from c4tui.engine.position import MOVE_CHARS

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


#: The ``--json`` fields, and the table's columns, that only a search has.
_NOT_SEARCHED = ("nps", "hit_rate", "tt_fill", "elapsed", "total_elapsed")
_NOT_SEARCHED_CELLS = ("window", "re", "n/s", "hit", "fill", "time")


def _score_text(score: Score, ply: int) -> str:
    """``+471`` (MILTON's evaluation, ``+0`` too) or ``White wins in 3`` (proven)."""
    from c4tui.engine.scores import result_words

    return result_words(score.value, ply) if score.proven else f"{score.value:+d}"


def _table(pos, snap):
    """The app's search-log rows (one table for both, c4tui/app/log_rows.py) as a rich
    table, moves as columns 1-7 like the rest of the command line; ``snap`` None: the
    header only."""
    from rich.table import Table

    from c4tui.app.log_rows import COLUMNS, iteration_rows

    t = Table(title="iterative deepening (MILTON)", header_style="bold", pad_edge=False,
              box=None)
    for name, _ in COLUMNS:
        t.add_column(name, justify="right", no_wrap=True)
    t.add_column("pv", justify="left", no_wrap=True)
    rows = iteration_rows(pos, snap, lambda _, pv: _columns(pv)) if snap is not None else ()
    for row in rows:
        cells = dict(row.cells)
        if cells.get("d") in _ANSWERED:  # no search: no window, speed, table or time
            cells.update(dict.fromkeys(_NOT_SEARCHED_CELLS, "-"))
        t.add_row(*(cells.get(name, "") for name, _ in COLUMNS), row.pv,
                  style="bold" if row.live else None)
    return t


def _lines_text(pos, lines) -> str:
    """``--multipv``'s lines as text: number, move, score, pv (columns 1-7)."""
    return "\n".join(f"{i + 1}. {_char(ln.move)} {_score_text(ln.score, pos.ply)}"
                     f" ({ln.score.band}): {_columns(ln.pv)}" for i, ln in enumerate(lines))


def _run(ctl, pos, as_json: bool, multipv: bool = False) -> None:
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


#: The search's option (SearchOptions) behind each switch whose name differs from it.
_FIELDS = {"book": "use_book"}


class _AnalyzeCommand(TidyCommand):
    """``analyze``, whose help says each switch's default: the search's
    (``SearchOptions``' own)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        from c4tui.engine.seam import SearchOptions

        defaults = SearchOptions()
        param: Any  # click's Option (show_default) among its Parameters
        for param in self.params:
            value = getattr(defaults, _FIELDS.get(param.name, param.name), None)
            if isinstance(value, bool) and param.secondary_opts:  # a --x/--no-x switch
                # shown as every switch's ([default: no-mtdf]); the command object is
                # made anew for each run, and this one only prints its help
                param.default, param.show_default = value, True
        super().format_help(ctx, formatter)


def _switch(name: str, help_text: str):
    """A ``--name/--no-name`` switch of the search; left out, the search's default holds."""
    flag = name.replace("_", "-")
    return typer.Option(f"--{flag}/--no-{flag}", help=help_text, show_default=False)


def analyze(
    moves: Annotated[
        list[str] | None,
        typer.Argument(help="Moves played so far: 4453 or d1 d2 e1 c1 (none: read stdin; "
                       "\"\": the empty board).", show_default=False),
    ] = None,
    depth: Annotated[
        int | None,
        typer.Option("--depth", help="Maximum depth in plies (default: to the end).",
                     show_default=False),
    ] = None,
    nodes: Annotated[
        str | None, options.nodes_option("Node limit", "1M, MILTON's")
    ] = None,
    hash_text: Annotated[
        str | None, options.hash_option("Tables of the search", "the search's")
    ] = None,
    pvs: Annotated[bool | None, _switch("pvs", "Principal-variation search.")] = None,
    mtdf: Annotated[bool | None, _switch("mtdf", "MTD(f) instead of aspiration windows.")] = None,
    aspiration: Annotated[
        bool | None, _switch("aspiration", "MILTON's aspiration windows around the last score.")
    ] = None,
    quiescence: Annotated[
        bool | None, _switch("quiescence", "Two more plies at the horizon under an acute threat.")
    ] = None,
    extensions: Annotated[
        bool | None, _switch("extensions", "Half a ply more where only one move is sensible.")
    ] = None,
    killers: Annotated[bool | None, _switch("killers", "Two killer moves per ply.")] = None,
    recognition: Annotated[
        bool | None, _switch("recognition", "Recognize won and lost interior nodes.")
    ] = None,
    book: Annotated[bool | None, _switch("book", "Probe the opening book.")] = None,
    threat_ordering: Annotated[
        bool | None, _switch("threat_ordering", "Order moves by the threats they make "
                             "(not MILTON's).")
    ] = None,
    window_parity: Annotated[
        bool | None, _switch("window_parity", "Centre the aspiration window on the last "
                             "value of the same parity (not MILTON's).")
    ] = None,
    multipv: Annotated[
        int | None,
        typer.Option("--multipv", metavar="K", show_default=False,
                     help="The K best root moves with their lines, each iteration (default: "
                     "1, the best move's).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
    size: SIZE_OPTION = None,
) -> None:
    """Run MILTON's iterative-deepening analysis on a position.

    Switches left out keep the search's defaults (docs/analysis.md).
    """
    switches = options.given(pvs=pvs, mtdf=mtdf, aspiration=aspiration, quiescence=quiescence,
                             extensions=extensions, killers=killers, recognition=recognition,
                             use_book=book, threat_ordering=threat_ordering,
                             window_parity=window_parity)
    pos, limits, opts = _setup(moves, depth, nodes, hash_text, multipv, size, switches)
    res = _search(pos, limits, opts, as_json, multipv is not None)
    _print_result(pos, res, as_json, multipv is not None)


def _setup(moves: list[str] | None, depth: int | None, nodes: str | None,
           hash_text: str | None, multipv: int | None, size: str | None,
           switches: dict[str, bool]) -> tuple[Position, Limits, SearchOptions]:
    """The options checked (each bad one said in one line, before stdin is read), then the
    position: what to search and how."""
    from c4tui.engine.geometry import SIZE, WIDTH
    from c4tui.engine.position import IllegalMoveError, Position
    from c4tui.engine.seam import Limits, SearchOptions

    check_size(size, "analyze")
    if depth is not None:
        check_range("--depth", depth, 1, SIZE, "plies")
    if multipv is not None:
        check_range("--multipv", multipv, 1, WIDTH, "lines")
    limit = options.node_limit(nodes, options.MILTON_NODES)
    hash_mb = options.hash_mb(hash_text)
    try:
        pos = Position.parse(read_moves(moves))
    except IllegalMoveError as e:
        fail(f"analyze: {e}")
    if pos.is_over:
        fail("analyze: the game is over, there is nothing to analyze")
    opts = SearchOptions(**switches)
    if hash_mb is not None:
        opts = dataclasses.replace(opts, hash_mb=hash_mb)
    if multipv is not None:
        opts = dataclasses.replace(opts, multipv=multipv)
    limits = Limits(nodes=limit, depth=depth)
    return pos, limits, opts


def _search(pos: Position, limits: Limits, opts: SearchOptions, as_json: bool,
            multipv: bool) -> SearchResult:
    """Run the search, its iterations printed as they complete (Ctrl+C stops it): its
    result."""
    from c4tui.engine.controller import SearchController

    books = None
    if opts.use_book:
        from rich.console import Console

        from .books import prepare_books

        books = prepare_books(Console(stderr=True))  # a bar while the database is converted
    ctl = SearchController(book=books)
    ctl.start(pos, limits, opts)
    try:
        _run(ctl, pos, as_json, multipv)
    except KeyboardInterrupt:
        ctl.stop()
        ctl.wait(5)
    ctl.close()
    if ctl.error is not None:
        fail(f"analyze: internal error: {ctl.error}", FAILURE)
    res = ctl.result
    if res is None:
        fail("analyze: the search ended without a result", FAILURE)
    return res


def _print_result(pos: Position, res: SearchResult, as_json: bool, multipv: bool) -> None:
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


def register(app: typer.Typer) -> None:
    """Add ``analyze`` to the CLI."""
    app.command("analyze", cls=_AnalyzeCommand)(analyze)
