"""The opening book: exact scores of every early position, built with our own solver.

``load_default()`` is what the app, the CLI and the UGI engine hand to ``Solver(book=...)``
and ``SearchController(book=...)``: the books in use, merged into one :class:`Book` that
the kernels probe with one binary search. They are our opening book shipped in this
package (``c4tui-9ply.c4b``, 0-9 discs) and the 12-ply database of ``bitbully-databases``
(:mod:`c4tui.book.db12`, converted once into the user cache directory), loaded once per
process. A missing or corrupt book or database gives one warning line (logger
``c4tui.book``) and the engine goes on with what is left (``None``: no book).
``C4TUI_BOOK`` may name another opening book file, or ``none`` to disable every book;
``C4TUI_DB12=none`` disables the 12-ply database alone. ``books_in_use()`` describes each
book for ``c4tui book info``.

This package imports no numba; the kernels' lookup is :mod:`c4tui.engine.books.probe`.
See ``book/README.md`` for the file format and ``docs/book.md`` for building.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from c4tui.engine.board import geometry

from . import db12
from .format import (
    NO_BOOK_ARGS,
    NO_SCORE,
    Book,
    BookError,
    load,
    make_book,
    plies_mask,
    save,
)
from .keys import canonical_key, key_to_position, mirror_key, position_key

__all__ = [
    "Book",
    "BookError",
    "NO_BOOK_ARGS",
    "NO_SCORE",
    "DEFAULT_BOOK_NAME",
    "BookInfo",
    "books_in_use",
    "canonical_key",
    "default_path",
    "default_status",
    "key_to_position",
    "load",
    "load_default",
    "merge",
    "make_book",
    "mirror_key",
    "plies_mask",
    "position_key",
    "save",
]

DEFAULT_BOOK_NAME = "c4tui-9ply.c4b"
log = logging.getLogger("c4tui.book")


@dataclass(frozen=True)
class BookInfo:
    """One book in use, as ``c4tui book info`` lists it."""

    name: str
    plies: tuple[int, ...]
    entries: int
    source: str
    licence: str
    checksum: str
    path: Path | None


_lock = threading.Lock()
_loaded = False
_default: Book | None = None
_status = "not loaded yet"
_infos: tuple[BookInfo, ...] = ()


def default_path() -> Path | None:
    """Path of the default opening book (``C4TUI_BOOK`` if set), ``None`` if disabled."""
    env = os.environ.get("C4TUI_BOOK", "").strip()
    if env.lower() in ("none", "off", "0"):
        return None
    if env:
        return Path(env)
    return Path(__file__).resolve().parent / DEFAULT_BOOK_NAME


def db12_enabled() -> bool:
    """Whether the 12-ply database is to be used (``C4TUI_DB12=none`` or no books: not)."""
    env = os.environ.get("C4TUI_DB12", "").strip().lower()
    return env not in ("none", "off", "0") and default_path() is not None


def merge(*books: Book) -> Book:
    """One book holding the entries of ``books`` (whose disc counts must not overlap)."""
    plies = 0
    for b in books:
        if plies & b.plies:
            raise BookError("books to merge cover the same disc count")
        plies |= b.plies
    merged = books[0]
    for b in books[1:]:
        # Both key arrays are sorted: place b's entries among merged's (no full sort).
        at = np.searchsorted(merged.keys, b.keys) + np.arange(len(b))
        n = len(merged) + len(b)
        keys, scores = np.empty(n, np.uint64), np.empty(n, np.int8)
        rest = np.ones(n, bool)
        rest[at] = False
        keys[at], scores[at] = b.keys, b.scores
        keys[rest], scores[rest] = merged.keys, merged.scores
        merged = Book(keys, scores, plies)
    return merged


def _info(book: Book, name: str, source: str, licence: str) -> BookInfo:
    return BookInfo(name, book.ply_list, len(book), source, licence, book.checksum_hex,
                    book.path)


def _plies_text(plies: tuple[int, ...]) -> str:
    if plies and plies == tuple(range(plies[0], plies[-1] + 1)) and len(plies) > 1:
        return f"{plies[0]}-{plies[-1]}"
    return "/".join(map(str, plies))


def load_default(reload: bool = False, progress: db12.Progress | None = None) -> Book | None:
    """The books in use, merged; loaded once per process; ``None`` if there is none.

    A missing or unusable book logs one warning line and is left out. ``progress(done,
    total)`` is called while the 12-ply database is converted (its first use only).
    """
    global _loaded, _default, _status, _infos
    with _lock:
        if _loaded and not reload:
            return _default
        _loaded, _default, _infos = True, None, ()
        path = default_path()
        if path is None:
            _status = "books disabled (C4TUI_BOOK=none)"
            return None
        if geometry.TWO_WORDS:  # a book's keys are 64-bit words
            _status = (f"no books on {geometry.NAME} (a book's keys are 64 bits, a "
                       f"position of this board takes {geometry.KEY_BITS})")
            return None
        if not geometry.IS_DEFAULT:  # the books hold 7x6 positions only
            _status = f"no books on {geometry.NAME} (the opening books are 7x6 only)"
            return None
        parts: list[Book] = []
        infos: list[BookInfo] = []
        notes: list[str] = []
        if not path.exists():
            notes.append(f"no opening book ({path} is missing)")
            log.warning("c4tui: no opening book (%s is missing); going on without it", path)
        else:
            try:
                own = load(path)
            except BookError as exc:
                notes.append(f"opening book unusable: {exc}")
                log.warning("c4tui: opening book unusable, going on without it: %s", exc)
            else:
                parts.append(own)
                infos.append(_info(own, path.name, "c4tui (built with our own solver)",
                                   "same as c4tui"))
        if db12_enabled():
            try:
                db = db12.load_db12(progress)
            except BookError as exc:
                notes.append(f"12-ply database unusable: {exc}")
                log.warning("c4tui: %s; going on without it", exc)
            else:
                parts.append(db)
                infos.append(_info(db, "12-ply database", db12.DB12_SOURCE, db12.DB12_LICENCE))
                if db12.unwritable_note():
                    notes.append(db12.unwritable_note())
        if not parts:
            _status = "; ".join(notes) + "; searching without a book"
            return None
        # the small book first: merge() inserts it into the big one
        _default = parts[0] if len(parts) == 1 else merge(parts[-1], *parts[:-1])
        _infos = tuple(infos)
        used = " + ".join(f"{i.name} ({_plies_text(i.plies)} discs)" for i in infos)
        _status = "books: " + used + ("" if not notes else " (" + "; ".join(notes) + ")")
        return _default


def books_in_use() -> tuple[BookInfo, ...]:
    """The books :func:`load_default` merged (loads them if needed)."""
    load_default()
    return _infos


def default_status() -> str:
    """One line saying which books are in use, or why none is."""
    return _status
