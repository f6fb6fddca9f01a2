"""``c4tui book info``: the books in use, or one book file's details, or a build
checkpoint's progress (key-value lines that scripts can read)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..errors import FAILURE, fail
from ..load_books import prepare_books
from .paths import book_path, no_books_past_64_bits

_out = Console(soft_wrap=True)
_err = Console(stderr=True, soft_wrap=True)


def _rows(rows: list[tuple[str, str]]) -> None:
    """Key-value lines, never wrapped (checksums stay on one line for scripts)."""
    for k, v in rows:
        _out.print(f"{k:<11} {v}", highlight=False, soft_wrap=True)


def info(
    path: Annotated[
        Path | None, typer.Argument(help="Book or checkpoint (default: the shipped book).")
    ] = None,
):
    """Every book in use (plies, entries, source, licence, checksum), or one book file's
    details (or a checkpoint's progress)."""
    from c4tui.book import BookError, load
    from c4tui.book.checkpoint import Checkpoint, CheckpointError, is_checkpoint

    if path is None:
        _books_in_use()
        return
    no_books_past_64_bits("book info")
    p = book_path(path)
    ck_default = p.with_suffix(".c4ck")
    if path is None and not p.exists() and ck_default.exists():
        _out.print(f"{p.name} is not built yet; the build's checkpoint:", highlight=False)
        p = ck_default
    if is_checkpoint(p):
        try:
            ck = Checkpoint.load(p)
        except CheckpointError as exc:
            fail(str(exc), FAILURE)
        _print_checkpoint(p, ck)
        return
    t0 = time.perf_counter()
    try:
        book = load(p)
    except BookError as exc:
        fail(str(exc), FAILURE)
    ms = (time.perf_counter() - t0) * 1000
    sc = book.scores
    _rows(
        [
            ("file", str(p)),
            ("format", "c4tui book v1"),
            ("plies", ", ".join(map(str, book.ply_list)) or "-"),
            ("entries", f"{len(book)}"),
            ("size", f"{p.stat().st_size} bytes"),
            ("checksum", f"sha256:{book.checksum_hex}"),
            (
                "outcomes",
                f"{int((sc > 0).sum())} wins, {int((sc == 0).sum())} draws, "
                f"{int((sc < 0).sum())} losses (side to move)",
            ),
            ("load time", f"{ms:.1f} ms"),
        ]
    )


def _books_in_use() -> None:
    import c4tui.book as pkg

    prepare_books(_err)
    infos = pkg.books_in_use()
    for i, b in enumerate(infos):
        if i:
            _out.print()
        _rows([
            ("book", b.name),
            ("plies", ", ".join(map(str, b.plies))),
            ("entries", str(b.entries)),
            ("source", b.source),
            ("licence", b.licence),
            ("file", str(b.path)),
            ("checksum", f"sha256:{b.checksum}"),
        ])
    _out.print(pkg.default_status(), highlight=False)


def _print_checkpoint(p: Path, ck) -> None:
    done = ck.solved
    secs = ck.done_seconds()
    rows = [
        ("checkpoint", str(p)),
        ("ply", str(ck.ply)),
        ("solved", f"{done}/{ck.n} ({100 * done / max(ck.n, 1):.2f}%)"),
        ("blocks", f"{ck.blocks - len(ck.pending_blocks())}/{ck.blocks} of {ck.block_size}"),
        ("worker CPU", f"{secs / 3600:.2f} h, {int(ck.nodes.sum())} nodes"),
    ]
    if done:
        per = secs / done
        rows.append(
            (
                "estimate",
                f"{per:.3f} CPU s/position -> {per * ck.n / 3600:.1f} CPU h in total, "
                f"{per * (ck.n - done) / 3600:.1f} CPU h left",
            )
        )
    _rows(rows)
