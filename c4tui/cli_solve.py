"""``c4tui solve``: exact scores in the reference solver's format, and ``c4tui bench``."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .errors import fail


def _solver(hash_mb: int, no_book: bool):
    from c4tui.engine import warmup

    if not warmup.is_compiled():
        print("c4tui: compiling the engine (first run; later runs load it from the cache)...",
              file=sys.stderr, flush=True)
    from c4tui.engine.solver import Solver

    warmup.warmup()  # load the kernels now, so that --stats times only the search
    return Solver(hash_mb=hash_mb, book=None if no_book else "default")


def solve(
    moves: Annotated[
        list[str] | None,
        typer.Argument(help="Positions as digit strings (columns 1-7); none: read stdin."),
    ] = None,
    analyze: Annotated[
        bool, typer.Option("--analyze", "-a", help="Print the score of each column (-1000: full).")
    ] = False,
    stats: Annotated[
        bool, typer.Option("--stats", help="Append nodes and microseconds of search.")
    ] = False,
    no_book: Annotated[
        bool, typer.Option("--no-book", help="Search without the opening book.")
    ] = False,
    hash_mb: Annotated[int, typer.Option("--hash", help="Transposition table size in MB.")] = 64,
) -> None:
    """Solve positions exactly: prints ``<moves> <score>`` per position, as Pons's solver does."""
    from c4tui.engine.position import Position
    from c4tui.engine.scores import FULL_COLUMN

    if not 1 <= hash_mb <= 32768:
        fail(f"--hash {hash_mb}: must be between 1 and 32768 MB")
    solver = _solver(hash_mb, no_book)
    lines = moves if moves is not None else (ln.rstrip("\r\n") for ln in sys.stdin)
    status = 0
    out = sys.stdout
    for n, line in enumerate(lines, 1):
        text = line.strip()
        try:
            pos = Position.from_moves(text)
            if pos.is_over:
                raise ValueError("the game is already over" if pos.winner is not None
                                 else "the board is full")
        except ValueError as exc:
            print(f"line {n}: {exc}", file=sys.stderr)
            status = 1
            continue
        if analyze:
            res = solver.analyze(pos)
            fields = [str(FULL_COLUMN if s is None else s) for s in res.scores]
        else:
            res = solver.solve(pos)
            fields = [str(res.score)]
        if stats:
            fields += [str(res.nodes), str(res.micros)]
        out.write(f"{text} {' '.join(fields)}\n")
        out.flush()
    raise typer.Exit(status)


def register(app: typer.Typer) -> None:
    """Add ``solve`` and ``bench`` to the CLI."""
    app.command("solve")(solve)
    from .bench import bench

    app.command("bench")(bench)
