"""``c4tui analyze``: MILTON's iterative-deepening analysis search from the shell.

Each iteration is printed as it completes (a rich table, or one JSON object per line with
``--json``), then the best move and principal variation. Moves are printed as columns
1-7, the notation ``analyze`` and ``solve`` read, so a principal variation appended to the
moves given is a position again.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from c4tui.bounded import LineTooLong

from .. import options
from ..errors import FAILURE, check_range, fail
from ..helptext import TidyCommand
from ..size import SIZE_OPTION, check_size
from .output import print_iterations, print_result

if TYPE_CHECKING:
    from c4tui.engine.board.position import Position
    from c4tui.engine.seam import Limits, SearchOptions, SearchResult


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
        str | None, options.nodes_option("Node limit", options.MILTON_DEFAULT)
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
    print_result(pos, res, as_json, multipv is not None)


def _setup(moves: list[str] | None, depth: int | None, nodes: str | None,
           hash_text: str | None, multipv: int | None, size: str | None,
           switches: dict[str, bool]) -> tuple[Position, Limits, SearchOptions]:
    """The options checked (each bad one said in one line, before stdin is read), then the
    position: what to search and how."""
    from c4tui.engine.board.geometry import SIZE, WIDTH
    from c4tui.engine.board.position import IllegalMoveError, Position
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
    from c4tui.engine.analysis.controller import SearchController

    books = None
    if opts.use_book:
        from rich.console import Console

        from ..load_books import prepare_books

        books = prepare_books(Console(stderr=True))  # a bar while the database is converted
    ctl = SearchController(book=books)
    ctl.start(pos, limits, opts)
    try:
        print_iterations(ctl, pos, as_json, multipv)
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


def register(app: typer.Typer) -> None:
    """Add ``analyze`` to the CLI."""
    app.command("analyze", cls=_AnalyzeCommand)(analyze)
