"""Seeded self-play games to look for puzzles in.

Each game opens with a few random moves (:data:`OPENING_PLIES`, uniformly from the legal
ones that neither win nor leave a win at once), so that games differ; then both sides
play from the exact column scores the finder computes anyway: mostly a move that keeps
the result (at random among those), sometimes (:data:`SLIP`) any safe move, so that
results change hands and won, drawn and lost positions all occur. The same seed gives
the same games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from c4tui.engine.board.position import Position

from .finder import safe_moves

OPENING_PLIES = (2, 9)  #: the random opening's length, at least and at most
SLIP = 0.15  #: how often a side plays any safe move instead of a keeping one

#: ``analyze(pos)`` -> (exact score per column for the side to move, None: full; nodes)
Analyze = Callable[[Position], "tuple[Sequence[int | None], int]"]


def opening(rng: random.Random) -> Position:
    """A random opening of :data:`OPENING_PLIES` plies."""
    pos = Position()
    for _ in range(rng.randint(*OPENING_PLIES)):
        moves = [c for c in safe_moves(pos) if not pos.is_winning_move(c)]
        if not moves:
            break
        pos.play(rng.choice(moves))
    return pos


def choose(pos: Position, values: Sequence[int | None], rng: random.Random) -> int:
    """The self-play move: one keeping the result, or (:data:`SLIP`) any safe move."""
    legal = [c for c, v in enumerate(values) if v is not None]
    safe = [c for c in safe_moves(pos) if c in legal] or legal
    if rng.random() < SLIP:
        return rng.choice(safe)
    best = max(v for v in values if v is not None)
    sign = (best > 0) - (best < 0)
    keep = [c for c in legal if ((values[c] or 0) > 0) - ((values[c] or 0) < 0) == sign]
    return rng.choice(keep)


def game_positions(seed: int, analyze: Analyze
                   ) -> Iterator[tuple[Position, Sequence[int | None], int]]:
    """The positions of one seeded game after its opening, each with its exact column
    scores and their nodes (``analyze``), to the game's end."""
    rng = random.Random(seed)
    pos = opening(rng)
    while not pos.is_over:
        values, nodes = analyze(pos)
        yield pos.copy(), values, nodes
        pos.play(choose(pos, values, rng))
