"""The opening book: exact scores of every early position, built with our own solver.

``load_default()`` is what ``Solver(book="default")`` and the analysis search use: the book
shipped in this package (``c4tui-9ply.c4b``), loaded once per process. A missing or corrupt
book gives one warning line (logger ``c4tui.book``) and ``None``: the engine then searches
without a book. The environment variable ``C4TUI_BOOK`` may name another book file, or
``none`` to disable the default book.

This package imports no numba; the kernels' lookup is :mod:`c4tui.engine.book_probe`.
See ``book/README.md`` for the file format and ``docs/book.md`` for building.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

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
    "canonical_key",
    "default_path",
    "default_status",
    "key_to_position",
    "load",
    "load_default",
    "make_book",
    "mirror_key",
    "plies_mask",
    "position_key",
    "save",
]

DEFAULT_BOOK_NAME = "c4tui-9ply.c4b"
log = logging.getLogger("c4tui.book")

_lock = threading.Lock()
_loaded = False
_default: Book | None = None
_status = "not loaded yet"


def default_path() -> Path | None:
    """Path of the default book (``C4TUI_BOOK`` if set), ``None`` if disabled."""
    env = os.environ.get("C4TUI_BOOK", "").strip()
    if env.lower() in ("none", "off", "0"):
        return None
    if env:
        return Path(env)
    return Path(__file__).resolve().parent / DEFAULT_BOOK_NAME


def load_default(reload: bool = False) -> Book | None:
    """The default book, loaded once per process; ``None`` (after one warning) if unusable."""
    global _loaded, _default, _status
    with _lock:
        if _loaded and not reload:
            return _default
        _loaded, _default = True, None
        path = default_path()
        if path is None:
            _status = "opening book disabled (C4TUI_BOOK=none)"
            return None
        if not path.exists():
            _status = f"no opening book ({path} is missing); searching without a book"
            log.warning("c4tui: %s", _status)
            return None
        try:
            _default = load(path)
        except BookError as exc:
            _status = f"opening book unusable, searching without it: {exc}"
            log.warning("c4tui: %s", _status)
            return None
        _status = (
            f"opening book {path.name}: {len(_default)} positions with "
            f"{'/'.join(map(str, _default.ply_list))} discs"
        )
        return _default


def default_status() -> str:
    """One line saying which default book is in use, or why none is."""
    return _status
