"""A game on its way into the database, and its identity.

A game's identity (:func:`digest`) is its main line's moves and the headers that say which
game it was: ``Event``, ``Site``, ``Date``, ``Round``, ``White`` and ``Black`` (PGN's
seven-tag roster but ``Result``, which the moves decide). ``?`` counts as no value. So the
same file imported twice is one game, and so is the same digit line; the same moves
played in two rounds of a match are two games.

A game's result is its last position's; a game that did not end on the board but whose
``Termination`` header gives the result (``c4tui match`` writes ``adjudicated: 1/2-1/2
(exact solver, ...)``, ``time forfeit: 0-1 (...)``: the game file's ``Result`` is ``*``
there, as it must agree with the moves) takes that result.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from c4tui.engine.board.position import Position

from .store import BLACK_WON, DRAW, UNFINISHED, WHITE_WON

#: A ``Termination`` header that gives the result of a game not ended on the board.
_ENDED = re.compile(r"^[a-z ]+: (1-0|0-1|1/2-1/2)\b")
_CODES = {"1-0": WHITE_WON, "0-1": BLACK_WON, "1/2-1/2": DRAW}

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
        """The game whose main line ends at ``pos``; its result is the position's, or for
        a game not ended on the board its ``Termination`` header's (see the module)."""
        headers = dict(headers or {})
        result = result_code(pos)
        ended = _ENDED.match(headers.get("Termination", "")[:200])
        if result == UNFINISHED and ended:
            result = _CODES[ended.group(1)]
        return cls(tuple(pos.history), result, headers, source)

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
