"""Reading a UGI engine's output: ``info`` lines, moves and scores (pure Python).

The client's side of what :mod:`c4tui.ugi.jobs` prints (kept beside it: one protocol, one
package). :class:`c4tui.ugi.engine.Engine` parses every ``info`` line with
:func:`parse_info`; the app turns the records into its own (:func:`to_score`,
:func:`line_columns`). UGI is UCI generalised to any game (docs/protocol.md). An ``info``
line is a list of ``key value`` pairs; ``pv`` and ``string`` take the rest of the line.
A proven score is read as one (:func:`to_score`): full depth (the whole game), or our
engine's ``info string proven book|solved`` just before the line (:func:`proof_of`; UCI
has no draw score, and ``cp 0`` alone is a heuristic 0). Engines differ in what they send,
so every field is optional; a line that cannot be read raises :class:`InfoError` with a
one-line reason (the app shows it and reads on) that quotes the engine's words escaped and
cut (:func:`~c4tui.ugi.client.shorten`): a hostile engine's escape sequences never reach
the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from c4tui.engine.board.geometry import COLUMN_NAMES, HEIGHT, SIZE
from c4tui.engine.board.position import IllegalMoveError, Position, square_name
from c4tui.engine.scores import score_for_moves
from c4tui.engine.seam import Band, Score
from c4tui.ugi.client import shorten

#: Keys followed by one whole number: kept, and read but not used.
INT_KEYS = frozenset({"depth", "seldepth", "nodes", "nps", "hashfull", "time", "multipv"})
SKIPPED_INT_KEYS = frozenset({"currmovenumber", "tbhits", "sbhits", "cpuload"})
#: Keys followed by one word we do not use.
WORD_KEYS = frozenset({"currmove"})
#: Keys that take the rest of the line, and keys with no value we do not use.
REST_KEYS = frozenset({"pv", "string", "refutation", "currline"})
#: Lines an engine may print besides ``info`` (answers we wait for, or harmless).
KNOWN_WORDS = frozenset({"info", "bestmove", "readyok", "ugiok", "uciok", "id", "option",
                         "response", "copyprotection", "registration"})


#: ``info string proven SOURCE``: the first word of the ``string`` that says the next
#: ``info`` line's score is proven (c4tui.ugi.jobs prints it), and the sources it names.
PROVEN_WORD = "proven"
PROOF_SOURCES = ("book", "solved")


class InfoError(ValueError):
    """An ``info`` line (or a move) the app cannot read; the message says why."""


@dataclass(frozen=True)
class Info:
    """One parsed ``info`` line; None where the engine left a field out."""

    depth: int | None = None
    seldepth: int | None = None
    score_kind: str | None = None  #: "cp" or "mate"
    score: int | None = None
    bound: str | None = None  #: "lowerbound" / "upperbound": an aspiration re-search
    nodes: int | None = None
    nps: int | None = None
    hashfull: int | None = None
    time_ms: int | None = None
    multipv: int | None = None
    pv: tuple[str, ...] = ()
    string: str | None = None


def _int(key: str, word: str | None) -> int:
    if word is None:
        raise InfoError(f"info: {key} without a value")
    try:
        return int(word)
    except ValueError:
        raise InfoError(f"info: {key} '{shorten(word, 20)}' is not a number") from None


def parse_info(line: str) -> Info:
    """Read an ``info ...`` line; :class:`InfoError` for junk (an unknown key, a missing or
    non-numeric value). ``info string ...`` keeps its text."""
    words = line.split()
    if not words or words[0] != "info":
        raise InfoError(f"not an info line: '{shorten(line)}'")
    fields: dict[str, Any] = {}  # each value parsed for its key above
    i = 1
    while i < len(words):
        key = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else None
        if key in INT_KEYS or key in SKIPPED_INT_KEYS:
            value = _int(key, nxt)
            if key in INT_KEYS:
                fields["time_ms" if key == "time" else key] = value
            i += 2
        elif key == "score":
            kind = nxt
            if kind not in ("cp", "mate"):
                raise InfoError(f"info: score '{shorten(kind or '', 20)}': expected cp or mate")
            fields["score_kind"] = kind
            fields["score"] = _int(f"score {kind}", words[i + 2] if i + 2 < len(words)
                                   else None)
            i += 3
            if i < len(words) and words[i] in ("lowerbound", "upperbound"):
                fields["bound"] = words[i]
                i += 1
        elif key in WORD_KEYS:
            i += 2
        elif key in REST_KEYS:
            rest = words[i + 1:]
            if key == "pv":
                fields["pv"] = tuple(rest)
            elif key == "string":
                fields["string"] = " ".join(rest)
            break
        else:
            raise InfoError(f"info: unknown field '{shorten(key, 20)}'")
    return Info(**fields)


def proof_of(info: Info) -> str | None:
    """The source of a proof an ``info string proven SOURCE`` line announces (``book``,
    ``solved``: :data:`PROOF_SOURCES`), or None for any other line."""
    words = (info.string or "").split()
    if len(words) == 2 and words[0] == PROVEN_WORD and words[1] in PROOF_SOURCES:
        return words[1]
    return None


# ---------------------------------------------------------------------- moves


def square_column(pos: Position, word: str) -> int:
    """The column of a move from ``pos``: the landing square (``d1``; UGI) or a bare
    column letter (``d``). :class:`InfoError` if it is not a legal move there."""
    w = word.strip()
    col = COLUMN_NAMES.find(w.lower()) if len(w) == 1 else -1
    if col >= 0:  # a bare column letter: the square its disc lands on (its top if full)
        w = square_name(col, min(pos.height(col), HEIGHT - 1))
    try:
        return pos.parse_move(w)
    except IllegalMoveError as exc:
        raise InfoError(f"move {exc}") from None


def line_columns(pos: Position, words: Sequence[str]) -> tuple[tuple[int, ...], str]:
    """The columns of a principal variation from ``pos``, up to its first bad move, and
    why it was cut there ("" when the whole line is legal)."""
    p = pos.copy()
    cols: list[int] = []
    for word in words:
        try:
            col = square_column(p, word)
        except InfoError as exc:
            return tuple(cols), f"pv: {exc}"
        cols.append(col)
        p.play(col)
    return tuple(cols), ""


def position_command(pos: Position) -> str:
    """``position startpos [moves d1 d2 ...]``: the app's positions all start empty."""
    moves = pos.algebraic()
    return f"position startpos moves {moves}" if moves else "position startpos"


# ---------------------------------------------------------------------- scores


def to_score(info: Info, pos: Position, proven: bool = False) -> Score | None:
    """The line's score as the app's :class:`Score` (side to move's view), or None.

    ``mate K`` is a proven win with the engine's K-th own move (``mate -K``: a loss), the
    app's "win in K": EXACT when the iteration searched to the end of the game (depth at
    least the empty squares) or ``proven`` (an ``info string proven ...`` came just before:
    :func:`proof_of`), otherwise RECOGNIZED (the protocol does not say whether a
    shallower proof is exact). ``cp X`` is the engine's heuristic value; ``cp 0`` at full
    depth or ``proven`` is an exact draw (a proof of any other ``cp`` is not believed: the
    value is heuristic). ``mate 0`` (a finished game) gives None.
    """
    if info.score is None or info.score_kind is None:
        return None
    full = proven or (info.depth is not None and info.depth >= SIZE - pos.ply)
    if info.score_kind == "cp":
        exact_draw = full and info.score == 0
        return Score(0, Band.EXACT) if exact_draw else Score(info.score, Band.HEURISTIC)
    k = info.score
    if k == 0:
        return None
    band = Band.EXACT if full else Band.RECOGNIZED
    value = score_for_moves(k, pos.ply)  # kept inside the solvers' range
    return Score(max(1, value) if k > 0 else min(-1, value), band)
