"""A game on its way into the database, and its identity.

A game's identity (:func:`digest`) is its main line's moves and the headers that say which
game it was: ``Event``, ``Site``, ``Date``, ``Round``, ``White`` and ``Black`` (PGN's
seven-tag roster but ``Result``, which the moves decide). ``?`` counts as no value. So the
same file imported twice is one game, and so is the same digit line; the same moves
played in two rounds of a match are two games.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from c4tui.engine.position import Position

from .store import BLACK_WON, DRAW, UNFINISHED, WHITE_WON

#: The headers that tell two games with the same moves apart.
IDENTITY_HEADERS = ("Event", "Site", "Date", "Round", "White", "Black")


@dataclass(frozen=True)
class GameRecord:
    """A game read from a file (or played by c4tui), ready to store."""

    cols: tuple[int, ...]  #: the main line, 0-based columns
    result: int  #: store.WHITE_WON, DRAW, BLACK_WON or UNFINISHED
    headers: dict[str, str] = field(default_factory=dict)
    source: str = ""  #: ``file:line`` or what played it

    @classmethod
    def from_position(cls, pos: Position, headers: dict[str, str] | None = None,
                      source: str = "") -> GameRecord:
        """The game whose main line ends at ``pos``; its result is the position's."""
        return cls(tuple(pos.history), result_code(pos), dict(headers or {}), source)

    def digest(self) -> bytes:
        """This game's identity (see the module's docstring): 16 bytes of BLAKE2b."""
        return digest(self.cols, self.headers)


def result_code(pos: Position) -> int:
    """The stored result of a game ending at ``pos``."""
    if pos.winner is not None:
        return WHITE_WON if pos.winner == 0 else BLACK_WON
    return DRAW if pos.is_draw else UNFINISHED


def digest(cols: tuple[int, ...], headers: dict[str, str]) -> bytes:
    """The identity of a game: its moves and :data:`IDENTITY_HEADERS`' values."""
    h = hashlib.blake2b(digest_size=16)
    h.update(len(cols).to_bytes(2, "big") + bytes(cols))
    for name in IDENTITY_HEADERS:
        value = headers.get(name, "").strip()
        data = b"" if value == "?" else value.encode("utf-8", "replace")
        h.update(len(data).to_bytes(4, "big") + data)  # lengths: no two games read alike
    return h.digest()
