"""``c4tui book``: build, inspect, verify and cross-check the opening book."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from .. import options
from ..errors import FAILURE, bad_value, check_range, fail
from ..size import SIZE_OPTION, check_size
from . import check, info
from .paths import book_path, default_out, no_books_past_64_bits, sized

book_app = typer.Typer(
    help="The opening book: exact scores of every early position.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

_out = Console(soft_wrap=True)
_err = Console(stderr=True, soft_wrap=True)


@book_app.callback()
def _book_options(ctx: typer.Context, size: SIZE_OPTION = None) -> None:
    """The opening book: exact scores of every early position."""
    from c4tui.engine.board import geometry

    check_size(size, "book")
    if not geometry.IS_DEFAULT and ctx.invoked_subcommand == "crosscheck":
        fail(f"book crosscheck: the books it compares are 7x6 only (this is {geometry.NAME})")


def register(app: typer.Typer) -> None:
    """Add the ``book`` command group to the CLI."""
    app.add_typer(book_app, name="book")


@book_app.command()
def build(
    plies: Annotated[int, typer.Option("--plies", help="Disc count of the book positions.")] = 8,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-w", show_default=False,
                     help="Worker processes of a local Dask cluster (0: solve in this "
                          "process; default 2)."),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", metavar="tcp://HOST:PORT",
                     help="A running Dask scheduler: its workers solve the positions."),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Book file (default: the shipped one).")
    ] = None,
    checkpoint: Annotated[
        Path | None,
        typer.Option("--checkpoint", help="Checkpoint file (default: OUT with suffix .c4ck)."),
    ] = None,
    root: Annotated[
        str, typer.Option("--root", help="Only positions below these moves (digits).")
    ] = "",
    hash_text: Annotated[str | None, options.hash_option("Table of each worker")] = None,
    block: Annotated[
        int, typer.Option("--block", help="Positions per work unit (new builds).")
    ] = 64,
    every: Annotated[
        float, typer.Option("--checkpoint-every", metavar="SECONDS",
                            help="Seconds between checkpoints (0: after every result).")
    ] = 120.0,
    limit: Annotated[
        int | None, typer.Option("--limit", help="Stop after about N more positions.")
    ] = None,
    progress: Annotated[
        bool, typer.Option("--progress/--no-progress", help="Live progress bar.")
    ] = True,
    floor_book: Annotated[
        Path | None,
        typer.Option("--floor-book", help="Book of fewer discs whose scores bound the new "
                                          "positions' (e.g. the 8-ply book for --plies 9)."),
    ] = None,
) -> None:
    """Solve every position with PLIES discs (resumes from the checkpoint if there is one)."""
    from c4tui.book.builder import build_book
    from c4tui.book.unit import BuildError, SchedulerError
    from c4tui.engine.board.geometry import SIZE
    from c4tui.engine.board.position import IllegalMoveError

    no_books_past_64_bits("book build")
    out = sized(out, "build --out") or default_out()
    if not math.isfinite(every) or every < 0:  # nan compares false: it meant no checkpoint
        bad_value("--checkpoint-every", f"{every:g}", "not a number of seconds (0 or more)")
    check_range("--plies", plies, 0, SIZE)
    if workers is not None and scheduler:
        fail("--workers and --scheduler: give one (a scheduler's cluster has its own workers)")
    if workers is not None:
        check_range("--workers", workers, 0, 64)
    hash_mb = options.hash_mb(hash_text)
    check_range("--block", block, 1, 65535)
    if not out.parent.is_dir():
        fail(f"--out {out}: directory {out.parent} does not exist")
    try:
        rep = build_book(
            plies,
            out,
            checkpoint=checkpoint,
            root=root,
            block_size=block,
            checkpoint_every=every,
            limit=limit,
            progress=progress,
            console=_err,
            floor_book=floor_book,
            scheduler=scheduler,
            hash_mb=hash_mb,
            workers=workers,
        )
    except SchedulerError as exc:
        fail(str(exc))
    except KeyboardInterrupt:  # before the solving began (cluster, enumeration)
        fail("interrupted before any position was solved", 130)
    except (BuildError, IllegalMoveError, ValueError) as exc:
        fail(str(exc), FAILURE)
    left = rep.total - rep.solved
    _out.print(
        f"solved {rep.solved}/{rep.total} positions "
        f"({rep.run_positions} in this run, {rep.run_seconds:.0f} s: {rep.rate:.3f} pos/s, "
        f"{rep.cpu_per_position:.3f} CPU s/pos, {rep.run_nodes} nodes)",
        highlight=False,
    )
    if rep.finished:
        _out.print(f"book written: {rep.out}", highlight=False)
    else:
        est = (f" (~{left * rep.cpu_per_position / 3600:.1f} CPU hours at this run's rate)"
               if rep.run_positions else "")
        why = "interrupted" if rep.interrupted else "stopped"
        _out.print(
            f"{why}: {left} positions left{est}; "
            f"checkpoint {rep.checkpoint}; run the same command to resume",
            highlight=False,
        )
        if rep.interrupted:
            raise typer.Exit(130)


# ``info`` lives in its own module (info.py); it keeps its place after ``build`` in the help.
book_app.command()(info.info)


@book_app.command()
def derive(
    path: Annotated[Path, typer.Argument(help="A finished book.")],
    down_to: Annotated[int, typer.Option("--down-to", help="Smallest disc count to add.")] = 0,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Output (default: overwrite PATH).")
    ] = None,
    root: Annotated[str, typer.Option("--root", help="The --root the book was built with.")] = "",
) -> None:
    """Add every position with DOWN_TO.. discs, computed from the book's largest disc count."""
    from c4tui.book import BookError, load, save
    from c4tui.book.derive import derive as derive_book

    no_books_past_64_bits("book derive")
    try:
        book = load(path)
        t0 = time.perf_counter()
        full = derive_book(book, down_to, root)
    except (BookError, ValueError) as exc:
        fail(str(exc), FAILURE)
    target = out or path
    save(full, target)
    _out.print(
        f"derived {len(full) - len(book)} entries (plies {down_to}-{book.max_ply - 1}) in "
        f"{time.perf_counter() - t0:.1f} s; {len(full)} entries written to {target}",
        highlight=False,
    )


@book_app.command()
def lookup(
    moves: Annotated[str, typer.Argument(help="Position: digits (4453) or squares (d1 d2).")],
    path: Annotated[
        Path | None, typer.Option("--book-file", metavar="FILE", show_default=False,
                                  help="The book to look in (default: the shipped one).")
    ] = None,
) -> None:
    """Print the book's exact score of a position (exit code 2 if it is not in the book)."""
    from c4tui.book import BookError, load
    from c4tui.engine.board.position import IllegalMoveError, Position
    from c4tui.engine.scores import score_in_words

    no_books_past_64_bits("book lookup")
    try:
        pos = Position.parse(moves)
    except IllegalMoveError as exc:
        fail(f"lookup: {exc}")
    if path is not None and not path.is_file():
        fail(f"--book-file {path}: no such book file")
    p = book_path(path, "lookup --book-file")
    try:
        book = load(p)
    except BookError as exc:
        fail(str(exc), FAILURE)
    score = book.get(pos)
    if score is None:
        _out.print(f"{pos.digits() or '(empty board)'}: not in {p.name}", highlight=False)
        raise typer.Exit(2)
    _out.print(
        f"{pos.digits() or '(empty board)'}: {score_in_words(score, pos.ply)}",
        highlight=False,
    )


# The checks live in their own module; they join the group after its own commands.
book_app.command()(check.verify)
book_app.command()(check.crosscheck)
