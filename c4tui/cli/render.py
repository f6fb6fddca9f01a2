"""``c4tui render``: a position as an SVG picture (engine/board/picture.py), for a page or a post.

The picture shows the discs, the last move, both sides' threats (the engine's threat map:
odd and even, capitals where playable now) and the best moves: from the books when they
hold the position, else from the exact solver (a solve that runs long shows its progress
on a terminal, as ``c4tui solve``'s does). The file is written whole or not at all
(c4tui/atomicfile.py): bad moves are one line, exit status 2, and no file.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from c4tui.bounded import shown

from . import options
from .errors import FAILURE, fail
from .size import SIZE_OPTION, check_size


def render(
    moves: Annotated[
        list[str] | None,
        typer.Argument(help="The position: moves (4453, d1 d2 e1 c1; \"\" the empty board) "
                       "or a game file (its last position).", metavar="MOVES",
                       show_default=False),
    ] = None,
    svg: Annotated[
        str | None,
        typer.Option("--svg", metavar="OUT", show_default=False,
                     help="Write the picture to OUT ('-': standard output)."),
    ] = None,
    best: Annotated[
        bool, typer.Option("--best/--no-best", help="Mark the best moves (the books, else "
                           "the exact solver).")
    ] = True,
    threats: Annotated[
        bool, typer.Option("--threats/--no-threats", help="Mark both sides' threats.")
    ] = True,
    book: options.SOLVER_BOOK = True,
    hash_text: options.SOLVER_HASH = None,
    threads: options.SOLVER_THREADS = None,
    size: SIZE_OPTION = None,
) -> None:
    """Draw a position as an SVG picture: discs, last move, threats, best moves, a legend."""
    from c4tui.engine.board.picture import board_svg

    from .open import resolve_target

    check_size(size, "render")
    hash_mb = options.hash_mb(hash_text)
    n_threads = options.threads(threads)
    if svg is None:
        fail("render: say where the picture goes: --svg OUT (or --svg - for stdout)")
    options.picture_path("render", "--svg", svg)
    try:
        game = resolve_target(moves or [""])
    except ValueError as exc:  # illegal moves, a bad game file: nothing is written
        fail(f"render: {exc}")
    pos = game.position
    columns: list[int] = []
    words = ""
    if best and not pos.is_over:
        columns, words = best_moves(pos, book, hash_mb, n_threads)
    text = board_svg(pos, best=columns, best_words=words, threats=threats,
                     title=_title(pos))
    if svg == "-":
        sys.stdout.write(text)
        return
    from c4tui.atomicfile import atomic_write

    try:
        atomic_write(Path(svg).expanduser(), text.encode(), overwrite=True)
    except OSError as exc:
        fail(f"render: {shown(svg)}: {exc.strerror or exc}", FAILURE)


def _title(pos) -> str:
    """The picture's title: the moves, or the empty board."""
    return f"moves {pos.digits()}" if pos.history else "the empty board"


def best_moves(pos, book: bool, hash_mb: int | None, threads: int) -> tuple[list[int], str]:
    """The columns (0-based) with the best exact score, and that result in words: from the
    books when they hold every column, else from the exact solver."""
    from c4tui.engine.scores import result_words

    scores = None
    if book:
        from c4tui.book.answer import BookReader

        scores = BookReader().column_scores(pos)
    if scores is None:
        from .progress import SolveReporter
        from .solve import build_solver, run_interruptibly

        try:
            solver = run_interruptibly(lambda: build_solver(hash_mb, book, threads))
        except (ValueError, OSError, MemoryError) as exc:  # e.g. a damaged book
            fail(f"render: {exc}", FAILURE)
        scores = run_interruptibly(lambda: solver.analyze(pos), solver.stop,
                                   SolveReporter(solver, pos.digits())).scores
    top = max(s for s in scores if s is not None)
    return [c for c, s in enumerate(scores) if s == top], result_words(top, pos.ply)


def register(app: typer.Typer) -> None:
    """Add ``render`` to the CLI."""
    app.command("render")(render)
