"""Which book file a ``c4tui book`` command reads or writes when none is named: the
book in use, else the shipped one (7x6 only: another size must name its file)."""

from __future__ import annotations

from pathlib import Path

from .errors import fail


def sized(path: Path | None, what: str) -> Path | None:
    """``path``, which must be given on another board than 7x6 (the shipped book is 7x6);
    ``what``: the command (and option) named in the error."""
    from c4tui.engine import geometry

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
