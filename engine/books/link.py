"""What the engine needs of a book, and how the kernels receive it.

The engine imports no book code: the app, the command line and the book builder load the
books (package ``c4tui.book``) and hand the engine any object with :class:`BookLike`'s two
methods, or ``None`` for no book.
"""

from __future__ import annotations

from typing import Protocol

#: The kernels' book arguments when there is no book: every probe misses at once.
NO_BOOK = (0, 0, 0, 0)


class BookLike(Protocol):
    """A book as the engine uses it (``c4tui.book.Book`` is one)."""

    def lookup(self, current: int, mask: int) -> int | None:
        """Exact score of the position (side to move), or ``None`` if it is not in the book."""

    def probe_args(self) -> tuple[int, int, int, int]:
        """``(keys_addr, scores_addr, n, plies)`` for the kernels' ``book_probe``; the
        addresses stay valid while the book object lives."""


def book_args(book: BookLike | None) -> tuple[int, int, int, int]:
    """``(keys_addr, scores_addr, n, plies)`` for ``book_probe``; zeros for no book."""
    if book is None:
        return NO_BOOK
    if not callable(getattr(book, "probe_args", None)):
        raise TypeError(f"book: expected a book (with probe_args) or None, not {book!r}")
    keys, scores, n, plies = book.probe_args()  # (a book may return a list)
    return keys, scores, n, plies
