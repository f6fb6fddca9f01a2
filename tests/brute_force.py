"""A plain brute-force Connect Four solver for any board size: the tests' independent truth.

No bitboards, no pruning, no shared code with the engine: columns are lists of players,
a four is found by walking the four directions from the disc just played, and every
position's exact value is memoised. Scores follow Pascal Pons's definition, written here
as his solver computes it (``(WIDTH*HEIGHT + 1 - nbMoves()) / 2`` for a win at once, any
size): a win with the disc played when ``n`` discs are on the board scores
``(W*H + 1 - n) // 2``, a draw 0, from the side to move's point of view.
"""

from __future__ import annotations

import random
from functools import cache


def _is_four(cols: list[list[int]], c: int, width: int, height: int) -> bool:
    """Whether the top disc of column ``c`` completes a four."""
    r = len(cols[c]) - 1
    who = cols[c][r]

    def owner(cc: int, rr: int) -> int | None:
        if 0 <= cc < width and 0 <= rr < len(cols[cc]):
            return cols[cc][rr]
        return None

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            k = 1
            while owner(c + sign * k * dc, r + sign * k * dr) == who:
                n += 1
                k += 1
        if n >= 4:
            return True
    return False


def play_out(width: int, height: int, moves: list[int]) -> tuple[list[list[int]], bool]:
    """(columns, whether the last move made a four) after the 0-based ``moves``."""
    cols: list[list[int]] = [[] for _ in range(width)]
    won = False
    for i, c in enumerate(moves):
        if won or len(cols[c]) >= height:
            raise ValueError(f"move {i + 1}: illegal")
        cols[c].append(i % 2)
        won = _is_four(cols, c, width, height)
    return cols, won


def solver(width: int, height: int):
    """``score(moves)``: the exact value of the position after ``moves`` (0-based
    columns, not over), memoised across calls."""
    @cache
    def value(key: tuple[tuple[int, ...], ...], ply: int) -> int:
        cols = [list(col) for col in key]
        best = None
        for c in range(width):
            if len(cols[c]) >= height:
                continue
            cols[c].append(ply % 2)
            if _is_four(cols, c, width, height):
                v = (width * height + 1 - ply) // 2  # Pons: ply discs before the four
            elif ply + 1 == width * height:
                v = 0
            else:
                v = -value(tuple(tuple(x) for x in cols), ply + 1)
            cols[c].pop()
            if best is None or v > best:
                best = v
        assert best is not None
        return best

    def score(moves: list[int]) -> int:
        cols, won = play_out(width, height, moves)
        if won or len(moves) == width * height:
            raise ValueError("the game is over")
        return value(tuple(tuple(x) for x in cols), len(moves))

    return score


def column_scores(width: int, height: int, moves: list[int], score) -> list[int | None]:
    """Each column's value for the side to move (None: full), as ``solve --analyze``."""
    out: list[int | None] = []
    cols, _ = play_out(width, height, moves)
    for c in range(width):
        if len(cols[c]) >= height:
            out.append(None)
            continue
        child = [*moves, c]
        _, won = play_out(width, height, child)
        if won:
            out.append((width * height + 1 - len(moves)) // 2)
        elif len(child) == width * height:
            out.append(0)
        else:
            out.append(-score(child))
    return out


def random_positions(width: int, height: int, empties: int, n: int,
                     seed: int, avoid_fours: bool = False) -> list[list[int]]:
    """``n`` random positions (0-based move lists, not over) with ``empties`` squares left.

    ``avoid_fours``: the random games never complete a four (a move that would is not
    chosen), for the large boards, where a plain random game almost always ends long
    before the last ten squares (16x7, 4x31)."""
    rng = random.Random(seed)
    found: list[list[int]] = []
    while len(found) < n:
        moves: list[int] = []
        cols: list[list[int]] = [[] for _ in range(width)]
        over = False
        while len(moves) < width * height - empties:
            choices = [c for c in range(width) if len(cols[c]) < height]
            rng.shuffle(choices)
            for c in choices:
                cols[c].append(len(moves) % 2)
                if not (avoid_fours and _is_four(cols, c, width, height)) or c == choices[-1]:
                    break
                cols[c].pop()
            moves.append(c)
            if _is_four(cols, c, width, height):
                over = True
                break
        if not over:
            found.append(moves)
    return found
