"""Which book file a ``c4tui book`` command reads or writes when none is named: the
book in use, else the shipped one (7x6 only: another size must name its file)."""

from __future__ import annotations

from pathlib import Path

from ..errors import fail


def no_books_past_64_bits(what: str) -> None:
    """On a board of more than 64 bits (8x8, 10x10): one line saying there are no books
    there (a book's keys are 64-bit words; the builder's too), before any book is read or
    built. ``what``: the command, ``book build``."""
    from c4tui.engine.board import geometry

    if geometry.TWO_WORDS:
        fail(f"{what}: no books on {geometry.NAME} (a book's keys are 64 bits, a position "
             f"of this board takes {geometry.KEY_BITS}: books are for boards of at most 64 "
             "bits, such as 7x6, 8x7 or 9x6)")


def sized(path: Path | None, what: str) -> Path | None:
    """``path``, which must be given on another board than 7x6 (the shipped book is 7x6);
    ``what``: the command (and option) named in the error."""
    from c4tui.engine.board import geometry

    if path is None and not geometry.IS_DEFAULT:
        fail(f"book {what}: name a book file on {geometry.NAME} (the shipped book is 7x6)")
    return path


def default_out() -> Path:
    """Where the shipped book lives (and ``book build`` writes by default)."""
    import c4tui.book as pkg
    from c4tui.book import DEFAULT_BOOK_NAME

    return Path(pkg.__file__).resolve().parent / DEFAULT_BOOK_NAME


def book_path(path: Path | None, what: str = "info") -> Path:
    """The book a command reads: ``path``, else the book in use, else the shipped one."""
    if path is not None:
        return path
    sized(path, what)
    from c4tui.book import default_path

    p = default_path()
    return p if p is not None else default_out()
