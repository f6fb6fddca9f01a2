"""Exact scores read from the books alone, in Python, without the engine's kernels.

The books decide many positions outright: our opening book those with 0-9 discs, the
12-ply database those with 12, and a position a few discs short of a book's disc count by
minimax over it (a 10-disc position: at most 49 lookups). ``c4tui solve`` asks a
:class:`BookReader` first and loads numba and the solver's kernels (most of a second of a
new process's start) only for a position the books leave open.

The reader loads each book on first need and does not merge them. It never warns: when a
book it would use is missing or damaged it answers nothing more, so that the caller's
solver loads the books the usual way (:func:`c4tui.book.load_default`), which says what is
wrong in one line and goes on without it.
"""

from __future__ import annotations

from c4tui.engine.board.geometry import IS_DEFAULT, SIZE, WIDTH, win_score
from c4tui.engine.board.position import Position
from c4tui.engine.books.link import NO_BOOK, BookLike
from c4tui.engine.books.negamax import book_negamax

from . import db12
from .format import Book, BookError, load

#: How many plies above a book's disc count a position is still scored by minimax over it
#: (at most 7^3 = 343 lookups).
MAX_GAP = 3


class BookReader:
    """The books in use (``C4TUI_BOOK``, ``C4TUI_DB12``), probed from Python."""

    def __init__(self) -> None:
        self._own: Book | None = None
        self._db: Book | None = None
        self._loaded_own = self._loaded_db = False
        self._failed = False

    # ------------------------------------------------------------------ loading
    def _books(self, ply: int) -> list[Book]:
        """The books that may decide a position with ``ply`` discs (loaded on first need:
        the database only past the opening book, within MAX_GAP plies of 12 discs)."""
        from . import db12_enabled, default_path  # the package imports this module

        if self._failed:
            return []
        try:
            if not self._loaded_own:
                self._loaded_own = True
                path = default_path()
                if path is not None and IS_DEFAULT:
                    self._own = load(path)
            if (not self._loaded_db and self._own is not None and ply > self._own.max_ply
                    and db12.DB12_PLY - MAX_GAP <= ply <= db12.DB12_PLY and db12_enabled()):
                # (not past 12 discs: minimax over the books goes deeper, never back)
                self._loaded_db = True
                self._db = db12.load_db12(convert_if_needed=False)
        except BookError:
            self._failed = True  # the solver's loader reports it, or converts the database
            return []
        return [b for b in (self._own, self._db) if b is not None]

    def reaches(self, ply: int) -> bool:
        """Whether a book in use may hold a position of ``ply`` discs or more (a search
        from a ``ply``-disc position meets none shallower). True when unsure (a book
        that failed to load, or one not looked at yet)."""
        from . import db12_enabled

        if self._failed or not self._loaded_own:
            return True
        if self._own is not None and self._own.plies >> ply:
            return True
        return self._own is not None and db12_enabled() and db12.DB12_PLY >= ply

    def lookups(self, ply: int) -> BookLike | None:
        """For a search from a ``ply``-disc position that no book :meth:`reaches`: the
        books as it uses them, lookups of the parent's ``ply - 1`` discs for the solver's
        floor and no kernel probe (none could hit). Loads no more than that one book,
        merges nothing (``c4tui solve`` of a 13-disc position: the 12-ply database alone,
        not the merged books). None when no book holds ``ply - 1`` discs."""
        # (a database not converted yet, or damaged: no lookups; the floor only saves time)
        books = [b for b in self._books(ply - 1) if b.plies >> (ply - 1) & 1]
        return _Lookups(books) if books else None

    # ------------------------------------------------------------------ answers
    def score(self, pos: Position) -> int | None:
        """Exact score of ``pos`` for the side to move, or ``None`` if the books leave it
        open (also for a finished game)."""
        if pos.is_over:
            return None
        return self._value(pos.current, pos.mask, pos.ply, self._books(pos.ply))

    def column_scores(self, pos: Position) -> tuple[int | None, ...] | None:
        """Exact score of each column (``None``: full), or ``None`` if the books do not
        decide every playable column."""
        if pos.is_over:
            return None
        books = self._books(pos.ply + 1)
        if not books:
            return None
        out: list[int | None] = []
        for col in range(WIDTH):
            if not pos.can_play(col):
                out.append(None)
            elif pos.is_winning_move(col):
                out.append(win_score(pos.ply))
            else:
                child = pos.copy()
                child.play(col)
                v = self._value(child.current, child.mask, child.ply, books)
                if v is None:
                    return None
                out.append(-v)
        return tuple(out)

    def _value(self, cur: int, mask: int, ply: int, books: list[Book]) -> int | None:
        """Negamax over the books (at most :data:`MAX_GAP` plies down): the exact score of
        (``cur``, ``mask``), or ``None``."""
        if not books or ply >= SIZE:
            return None

        def lookup(current: int, m: int) -> int | None:
            n = bin(m).count("1")  # a book answers for its own disc counts only
            return next((b.lookup(current, m) for b in books if b.plies >> n & 1), None)

        known = book_negamax(cur, mask, lookup, MAX_GAP)
        return None if known is None else known[0]


class _Lookups:
    """Books for lookups only (:meth:`BookReader.lookups`): kernel probes miss at once."""

    def __init__(self, books: list[Book]) -> None:
        self._books = books

    def lookup(self, current: int, mask: int) -> int | None:
        n = bin(mask).count("1")  # a book answers for its own disc counts only
        return next((b.lookup(current, mask) for b in self._books if b.plies >> n & 1), None)

    def probe_args(self) -> tuple[int, int, int, int]:
        return NO_BOOK
