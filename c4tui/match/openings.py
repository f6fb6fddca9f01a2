"""The match's openings: move strings from a file, or balanced positions of our book.

Every opening is played twice, once with each engine as White (a game pair). A file holds
one move string per line (digits ``4453`` or squares ``d1 d2 e1 c1``; blank lines and
lines starting with ``#`` are skipped); a line that is not a legal, unfinished game is
refused with ``FILE:LINE: why``. The book's openings are the positions with a given
number of discs whose exact score is 0 (a draw with perfect play: neither side starts
ahead), one of each mirror pair, in an order shuffled by a seed.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from c4tui.bounded import FileRefused, LineTooLong, bounded_lines, read_file
from c4tui.engine.board.position import Position

#: The book's openings have at most this many discs (our book holds 0-9 disc positions;
#: 8 discs are 7,344 drawn openings and take seconds to list).
MAX_BOOK_PLIES = 8
#: More openings than this in a file is refused (a match never plays that many pairs).
MAX_OPENINGS = 1_000_000
#: The largest file of openings read (a million lines of moves, with room for comments).
MAX_OPENINGS_BYTES = 64 << 20


class OpeningsError(ValueError):
    """Openings that cannot be used; the message is one line."""


@dataclass(frozen=True)
class Opening:
    """The moves (0-based columns) played before the engines take over."""

    moves: tuple[int, ...]

    def position(self) -> Position:
        pos = Position()
        for col in self.moves:
            pos.play(col)
        return pos

    @property
    def digits(self) -> str:
        """``4453`` (``""``: the empty board)."""
        return self.position().digits()


def read_openings(path: Path) -> list[Opening]:
    """The openings of a file, in its order; :class:`OpeningsError` names ``FILE:LINE``."""
    try:  # a regular file only (a FIFO would block open(), a device never end)
        data = read_file(path, MAX_OPENINGS_BYTES, "file of openings")
    except FileRefused as exc:
        raise OpeningsError(f"{path}: {exc}") from None
    except OSError as exc:
        raise OpeningsError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    text = data.decode("utf-8", errors="replace")
    return _parse(str(path), bounded_lines(io.StringIO(text)))


def _parse(name: str, lines: Iterable[str | LineTooLong]) -> list[Opening]:
    out: list[Opening] = []
    for n, line in enumerate(lines, start=1):
        if isinstance(line, LineTooLong):
            raise OpeningsError(f"{name}:{n}: longer than {line.limit} characters")
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            pos = Position.parse(text)
        except ValueError as exc:
            raise OpeningsError(f"{name}:{n}: {exc}") from None
        if pos.is_over:
            raise OpeningsError(f"{name}:{n}: the game is over after these moves")
        out.append(Opening(tuple(pos.history)))
        if len(out) > MAX_OPENINGS:
            raise OpeningsError(f"{name}: more than {MAX_OPENINGS:,} openings")
    if not out:
        raise OpeningsError(f"{name}: no openings in it (one move string per line)")
    return out


def book_openings(plies: int, seed: int) -> list[Opening]:
    """The drawn positions with ``plies`` discs in our book, mirror images once, shuffled
    by ``seed``; :class:`OpeningsError` when no book is in use."""
    from c4tui.book.answer import BookReader

    if not 1 <= plies <= MAX_BOOK_PLIES:
        raise OpeningsError(f"--opening-plies {plies}: out of range (1 to {MAX_BOOK_PLIES})")
    reader = BookReader()
    level = {0: Position()}
    for _ in range(plies):  # every position one disc further, one per mirror pair
        nxt: dict[int, Position] = {}
        for pos in level.values():
            for col in pos.legal_moves():
                child = pos.copy()
                child.play(col)
                if not child.is_over:
                    nxt.setdefault(min(child.key(), child.mirror().key()), child)
        level = nxt
    drawn = sorted(p.digits() for p in level.values() if reader.score(p) == 0)
    if not drawn:
        raise OpeningsError("no opening book in use (C4TUI_BOOK is none, or the board is "
                            "not 7x6): give --openings FILE")
    random.Random(seed).shuffle(drawn)
    return [Opening(tuple(Position.from_moves(d).history)) for d in drawn]
