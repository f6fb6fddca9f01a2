"""``c4tui book verify`` and ``c4tui book crosscheck``: trust in the books, checked.

``verify`` re-solves entries of our book with our own solver; ``crosscheck`` compares with
bitbully-databases: our 8-disc entries against its 8-ply win/draw/loss database, or, with
``--db12``, its 12-ply database against our solver and our 9-ply book (docs/book.md).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from .. import options
from ..errors import FAILURE, bad_value, fail
from .paths import book_path, no_books_past_64_bits

_out = Console(soft_wrap=True, highlight=False)
_err = Console(stderr=True, highlight=False)


def _entries(path: Path | None):
    """(keys, scores, plies, label) of a book, or of the solved part of a full-build
    checkpoint."""
    from c4tui.book import BookError, load
    from c4tui.book.checkpoint import Checkpoint, CheckpointError, build_identity, is_checkpoint
    from c4tui.book.enumeration import enumerate_positions
    from c4tui.book.format import NO_SCORE

    p = book_path(path, "verify")
    if path is None and not p.exists() and p.with_suffix(".c4ck").exists():
        p = p.with_suffix(".c4ck")
    try:
        if is_checkpoint(p):
            ck = Checkpoint.load(p)
            enum = enumerate_positions(ck.ply)
            if build_identity(ck.ply, "", enum.keys) != ck.identity:
                fail(f"{p}: not a checkpoint of a full build (built below a --root?)", FAILURE)
            done = ck.scores != NO_SCORE
            return enum.keys[done], ck.scores[done], (ck.ply,), f"solved entries of {p.name}"
        book = load(p)
        return book.keys, book.scores, book.ply_list, f"entries of {p.name}"
    except (BookError, CheckpointError) as exc:
        fail(str(exc), FAILURE)


def _with_discs(keys, scores, discs: int):
    """The entries with ``discs`` discs."""
    import numpy as np

    from c4tui.book.keys import key_to_words

    sel = np.array([bin(key_to_words(int(k))[1]).count("1") == discs for k in keys.tolist()],
                   dtype=bool)
    return keys[sel], scores[sel]


def _progress() -> Progress:
    return Progress("{task.description}", BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=_err, transient=True)


def verify(
    path: Annotated[
        Path | None, typer.Argument(help="Book or checkpoint (default: the shipped book).")
    ] = None,
    sample: Annotated[int, typer.Option("--sample", "-n", help="Entries to re-solve.")] = 20,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Random seed (default: random).")
    ] = None,
    hash_mb: Annotated[str | None, options.hash_option("Table size")] = None,
) -> None:
    """Re-solve SAMPLE random entries without the book and compare the scores."""
    from c4tui.book import key_to_position
    from c4tui.engine.solver.solver import Solver

    no_books_past_64_bits("book verify")
    if sample < 1:
        bad_value("--sample", sample, "must be at least 1")
    keys, scores, _, what = _entries(path)
    if not len(keys):
        fail(f"no {what}: nothing to verify", FAILURE)
    seed = random.randrange(1 << 30) if seed is None else seed
    rng = random.Random(seed)
    idx = sorted(rng.sample(range(len(keys)), min(sample, len(keys))))
    mb = options.hash_mb(hash_mb)
    solver = Solver(book=None) if mb is None else Solver(mb, book=None)
    bad = 0
    t0 = time.perf_counter()
    for i in idx:
        key, want = int(keys[i]), int(scores[i])
        pos = key_to_position(key)
        got = solver.solve(pos).score
        if got != want:
            bad += 1
            _out.print(f"MISMATCH {pos.digits()}: book {want}, solver {got}")
    dt = time.perf_counter() - t0
    _out.print(f"verified {len(idx)} {what} (seed {seed}) in {dt:.1f} s: "
               f"{len(idx) - bad} agree, {bad} differ")
    if bad:
        raise typer.Exit(FAILURE)


def crosscheck(
    path: Annotated[
        Path | None, typer.Argument(help="Our book or checkpoint (default: the shipped book).")
    ] = None,
    db12: Annotated[bool, typer.Option(
        "--db12", help="Check the 12-ply database: re-solve SAMPLE of its entries with our "
                       "solver (no book), and derive SAMPLE 9-disc entries of our book from "
                       "it by minimax three plies down.")] = False,
    sample: Annotated[int, typer.Option("--sample", "-n",
                                        help="Positions per check (with --db12).")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Random seed (with --db12).")] = 1,
    threads: Annotated[int | None, typer.Option(
        "--threads", "-t", help="Solver threads (default: all cores).")] = None,
) -> None:
    """Compare our book with bitbully-databases (8-ply outcomes; 12-ply with --db12)."""
    if db12:
        _crosscheck_db12(path, sample, seed, options.threads(threads))
        return
    from c4tui.book.crosscheck import crosscheck_8ply

    keys, scores, plies, what = _entries(path)
    if 8 not in plies:
        fail(f"{what}: plies {plies}; the 8-ply database covers 8 discs only")
    if plies != (8,):  # a derived book: check its 8-disc entries
        keys, scores = _with_discs(keys, scores, 8)
        what = f"{what} (its {len(keys)} entries with 8 discs)"
    try:
        res = crosscheck_8ply(keys, scores)
    except ImportError as exc:
        fail(str(exc), FAILURE)
    for key, ours, theirs in res.mismatches:
        _out.print(f"MISMATCH key {key:#x}: ours {ours}, database {theirs:+d}")
    o = res.by_outcome
    _out.print(f"cross-checked {res.checked} {what} against bitbully-databases 8-ply: "
               f"{res.agree} agree, {res.checked - res.agree} differ "
               f"(ours: {o['win']} wins, {o['draw']} draws, {o['loss']} losses)")
    if not res.ok:
        raise typer.Exit(FAILURE)


def _crosscheck_db12(path: Path | None, sample: int, seed: int, threads: int) -> None:
    from c4tui.book import BookError
    from c4tui.book import db12 as db12mod
    from c4tui.book.crosscheck import minimax_book, resolve_db12, sample_indices
    from c4tui.book.keys import key_to_position
    from c4tui.engine.solver.solver import Solver

    if sample < 1:
        bad_value("--sample", sample, "must be at least 1")
    try:
        with _progress() as bar:
            task = bar.add_task("converting the 12-ply database (first use)", total=None)
            db = db12mod.load_db12(lambda d, t: bar.update(task, completed=d, total=t))
    except BookError as exc:
        fail(str(exc), FAILURE)
    ok = True
    # (a) the database against our solver, without any book
    solver = Solver(book=None, threads=threads)
    idx = sample_indices(len(db), sample, seed)
    t0 = time.perf_counter()
    with _progress() as bar:
        task = bar.add_task("re-solving database entries", total=len(idx))
        res = resolve_db12(db, idx, lambda p: solver.solve(p, need_move=False).score,
                           lambda d, t: bar.update(task, completed=d))
    ok &= _report(res, f"12-ply database entries re-solved by our solver (no book, seed {seed})",
                  time.perf_counter() - t0, key_to_position)
    # (b) our 9-ply book against minimax over the database three plies down
    keys, scores, plies, what = _entries(path)
    if 9 not in plies:
        fail(f"{what}: plies {plies}; the minimax check needs entries with 9 discs")
    keys, scores = _with_discs(keys, scores, 9)
    idx = sample_indices(len(keys), sample, seed)
    t0 = time.perf_counter()
    with _progress() as bar:
        task = bar.add_task("minimax over the database", total=len(idx))
        try:
            res = minimax_book(keys, scores, db, idx, lambda d, t: bar.update(task, completed=d))
        except LookupError as exc:
            fail(f"12-ply database incomplete: {exc}", FAILURE)
    ok &= _report(res, f"9-disc {what} derived from the 12-ply database (seed {seed})",
                  time.perf_counter() - t0, key_to_position)
    if not ok:
        raise typer.Exit(FAILURE)


def _report(res, what: str, seconds: float, key_to_position) -> bool:
    for key, ours, theirs in res.mismatches:
        _out.print(f"MISMATCH {key_to_position(key).digits()}: ours {ours}, other {theirs}")
    o = res.by_outcome
    _out.print(f"{res.checked} {what}: {res.agree} agree, {res.checked - res.agree} differ "
               f"({o['win']} wins, {o['draw']} draws, {o['loss']} losses; {seconds:.1f} s)")
    return res.ok
