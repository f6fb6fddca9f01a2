"""Connects the opening book (package ``c4tui.book``) to the solver.

Until the book is wired in, every request resolves to "no book".
"""

from __future__ import annotations


def resolve_book(book: object) -> object | None:
    """The book object the kernels use, or ``None`` to search without a book."""
    return None
