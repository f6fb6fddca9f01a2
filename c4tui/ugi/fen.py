"""A FEN for Connect Four: the board in one line, as chess's Forsyth-Edwards Notation.

Format: six ranks from the top (row 6) to the bottom (row 1), separated by ``/``; each rank
lists columns a to g with ``x`` for a first-player (White) disc, ``o`` for a second-player
(Black) disc and a digit 1-7 for that many empty squares. Then, after a space, the side to
move: ``x`` or ``o``. The empty board is ``7/7/7/7/7/7 x``; after ``d1`` it is
``7/7/7/7/7/3x3 o``. On other board sizes (``--size``) there is one rank per row and a
run of empty squares may take two digits (``12/12/12/12 x`` on 12x4).

The side to move follows from the discs (White moves first), so the field is a check: it
may be left out when reading, and when given it must agree with the discs. Letters may be
upper case when reading; :func:`to_fen` writes lower case.

A board is accepted only if a game can reach it: no disc floats above an empty square,
White has as many discs as Black or one more, and the discs can be taken back one by one
from the top, alternately, without a four appearing before the last move. :func:`parse_fen`
finds such a move order and replays it, so the :class:`Position` it returns is exactly what
playing those moves gives (winner, draw and all).
"""

from __future__ import annotations

from c4tui.bounded import small_int
from c4tui.engine.board.geometry import HEIGHT, WIDTH, square_bit
from c4tui.engine.board.position import BLACK, WHITE, Position, has_four, shown, square_name

__all__ = ["FenError", "START_FEN", "parse_fen", "to_fen"]

#: Disc letters, indexed by player (WHITE, BLACK).
DISC = "xo"
#: The empty board: ``7/7/7/7/7/7 x`` on 7x6 (one rank per row, W empty squares each).
START_FEN = "/".join([str(WIDTH)] * HEIGHT) + " x"
#: Bound on the positions the move-order search may visit (no real board comes near it).
_MAX_VISITS = 200_000


class FenError(ValueError):
    """A FEN that is malformed or names a board no game reaches; the message says why."""


def to_fen(pos: Position) -> str:
    """The FEN of ``pos`` (see the module docstring)."""
    ranks = []
    for row in range(HEIGHT - 1, -1, -1):
        text, empty = "", 0
        for col in range(WIDTH):
            owner = pos.cell(col, row)
            if owner is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += DISC[owner]
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks) + " " + DISC[pos.to_move]


def _read_board(board: str) -> list[list[int]]:
    """Column lists of owners, bottom first, from the ranks field."""
    ranks = board.split("/")
    if len(ranks) != HEIGHT:
        raise FenError(f"fen {shown(board)}: {len(ranks)} ranks, expected {HEIGHT} "
                       "separated by '/'")
    grid: list[list[int | None]] = [[None] * HEIGHT for _ in range(WIDTH)]
    for i, rank in enumerate(ranks):
        row = HEIGHT - 1 - i
        col = 0
        for ch, run in _tokens(rank):
            n = small_int(run, 2)  # a run of 5000 digits is not converted
            if n is not None and 1 <= n <= WIDTH:
                col += n
            elif ch and ch.lower() in DISC:
                if col < WIDTH:
                    grid[col][row] = DISC.index(ch.lower())
                col += 1
            else:
                raise FenError(
                    f"fen rank {row + 1} {shown(rank)}: {shown(ch or run)} is neither a disc "
                    f"(x, o) nor 1-{WIDTH}"
                )
            if col > WIDTH:
                break
        if col != WIDTH:
            raise FenError(f"fen rank {row + 1} {shown(rank)}: {col} squares, expected {WIDTH}")
    columns: list[list[int]] = []
    for col in range(WIDTH):
        cells = grid[col]
        height = sum(c is not None for c in cells)
        if any(c is None for c in cells[:height]):
            # the lowest disc above the first gap, and the empty square right under it
            gap = cells.index(None)
            row = next(r for r in range(gap, HEIGHT) if cells[r] is not None)
            raise FenError(
                f"fen: the disc on {square_name(col, row)} floats above the empty "
                f"square {square_name(col, row - 1)}"
            )
        columns.append([c for c in cells[:height] if c is not None])
    return columns


def _tokens(rank: str) -> list[tuple[str, str]]:
    """A rank's tokens: (character, "") for a disc or a stray character, ("", digits) for a
    run of empty squares (one digit; two from 10 columns on)."""
    out: list[tuple[str, str]] = []
    for ch in rank:
        if ch.isdigit() and ch.isascii():
            if out and out[-1][1] and WIDTH >= 10:
                out[-1] = ("", out[-1][1] + ch)
            else:
                out.append(("", ch))
        else:
            out.append((ch, ""))
    return out


def _stones(columns: list[list[int]], heights: tuple[int, ...], player: int) -> int:
    bits = 0
    for col, h in enumerate(heights):
        for row in range(h):
            if columns[col][row] == player:
                bits |= square_bit(col, row)
    return bits


def _move_order(columns: list[list[int]]) -> list[int]:
    """Columns (0-based) of a game that reaches the board, first move first.

    Takes discs back from the top: the disc removed at each step must be the mover's of
    that ply. Only the last move may have made a four (the game ends there), so the board
    left after taking back the last move must have none. Dead ends are remembered by the
    column heights, which identify a sub-board.
    """
    heights = tuple(len(c) for c in columns)
    total = sum(heights)
    fours = [has_four(_stones(columns, heights, p)) for p in (WHITE, BLACK)]
    if all(fours):
        raise FenError("fen: both players have four in a row")
    dead: set[tuple[int, ...]] = set()
    visits = 0

    def back(hs: tuple[int, ...], n: int, check_fours: bool) -> list[int] | None:
        nonlocal visits
        if n == 0:
            return []
        if hs in dead:
            return None
        visits += 1
        if visits > _MAX_VISITS:
            raise FenError("fen: no move order found in reasonable time")
        mover = (n - 1) % 2
        for col in range(WIDTH):
            h = hs[col]
            if h == 0 or columns[col][h - 1] != mover:
                continue
            rest = hs[:col] + (h - 1,) + hs[col + 1:]
            if check_fours and any(has_four(_stones(columns, rest, p)) for p in (WHITE, BLACK)):
                continue  # a four would have stood before the last move: the game was over
            order = back(rest, n - 1, False)
            if order is not None:
                order.append(col)
                return order
        dead.add(hs)
        return None

    order = back(heights, total, any(fours))
    if order is None:
        if any(fours):
            raise FenError("fen: no game reaches this board (a four must be completed by the "
                           "last move played, with no other four on the board)")
        raise FenError("fen: no game reaches this board (the discs cannot be taken back "
                       "alternately from the top)")
    return order


def parse_fen(text: str) -> Position:
    """The :class:`Position` of a FEN; :class:`FenError` saying what is wrong otherwise."""
    fields = text.split()
    if not fields:
        raise FenError(f"fen: empty (expected {HEIGHT} ranks, e.g. {START_FEN})")
    if len(fields) > 2:
        raise FenError(f"fen {shown(text)}: expected the ranks and the side to move, "
                       f"found {len(fields)} fields")
    columns = _read_board(fields[0])
    counts = [sum(c.count(p) for c in columns) for p in (WHITE, BLACK)]
    if counts[0] not in (counts[1], counts[1] + 1):
        raise FenError(f"fen: {counts[0]} x discs and {counts[1]} o discs (x moves first, "
                       f"so it has as many discs as o or one more)")
    to_move = WHITE if counts[0] == counts[1] else BLACK
    if len(fields) == 2:
        side = fields[1].lower()
        if side not in DISC:
            raise FenError(f"fen side to move {shown(fields[1])}: expected x or o")
        if DISC.index(side) != to_move:
            raise FenError(f"fen side to move {side}: with {counts[0]} x and {counts[1]} o "
                           f"discs {DISC[to_move]} is to move")
    pos = Position()
    for col in _move_order(columns):
        pos.play(col)
    return pos
