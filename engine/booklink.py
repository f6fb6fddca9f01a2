"""Connects the opening book (package ``c4tui.book``, no numba) to the kernels."""

from __future__ import annotations

from pathlib import Path

NO_BOOK = (0, 0, 0, 0)


def resolve_book(book: object) -> object | None:
    """The book the kernels use: ``"default"`` (the shipped book, if any), a ``Book``,
    a path to a book file, or ``None`` for no book."""
    if book is None:
        return None
    from c4tui import book as bookpkg

    if isinstance(book, str) and book == "default":
        return bookpkg.load_default()
    if isinstance(book, (str, Path)):
        return bookpkg.load(Path(book))
    if isinstance(book, bookpkg.Book):
        return book
    raise TypeError(f"book: expected 'default', a path, a Book or None, not {book!r}")


def book_args(book: object | None) -> tuple[int, int, int, int]:
    """``(keys_addr, scores_addr, n, plies)`` for ``book_probe``; zeros for no book."""
    return NO_BOOK if book is None else tuple(book.probe_args())
