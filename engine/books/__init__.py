"""The engine's side of the opening books: the kernels' probe, the book-backed negamax and
:class:`~c4tui.engine.books.link.BookLike`, what the engine knows of a book (the book package
itself, :mod:`c4tui.book`, is not imported)."""
