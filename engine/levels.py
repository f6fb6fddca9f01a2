"""Strength levels 1-10: how a weaker engine chooses among the columns' exact scores.

Every level knows the exact score of each column (the solver's ``analyze``, with the
books); a level is weak in how it *chooses*, the way a player is weak: it sees a result
only when it comes within its ``horizon`` (plies from now, this move included), it picks
among the moves whose result it cannot see by a softmax over their value at its
``temperature`` (values in result units: win +1, draw 0, loss -1; a high temperature
plays almost at random, 0 always the best), and now and then (``blunder``, a
probability) it does not look at all and plays any column, missing a threat or a win.
Level 10 is perfect play. The ladder's strengths were measured by matches
(docs/user-guide.md, "Levels").

The choice is a plain function of the scores and a random generator: the same seed gives
the same move (:func:`move_rng` seeds one per game and position), so a game can be
replayed while different games differ. :func:`play` is the one way to play at a strength
(the app's play mode and the UGI engine's ``Level`` option), :func:`best_among_ties` the
one reading of "the best columns" (and their order). Plain Python, no numba: it runs once
per move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .board.geometry import CENTER_ORDER, SIZE
from .board.position import Position
from .scores import moves_to_end

#: The levels' numbers: 1 the weakest, :data:`PERFECT_LEVEL` perfect play.
MIN_LEVEL, PERFECT_LEVEL = 1, 10


@dataclass(frozen=True)
class Level:
    """One level: ``horizon`` plies within which it sees a column's result (a sure win it
    plays, a sure loss it avoids), ``temperature`` of its choice among the other columns,
    and ``blunder``, the chance of a column picked without looking."""

    number: int
    horizon: int
    temperature: float
    blunder: float


#: The ladder, weakest first (``LEVELS[n - 1]`` is level n); calibrated by matches.
LEVELS = (
    Level(1, horizon=2, temperature=4.0, blunder=0.25),
    Level(2, horizon=4, temperature=2.0, blunder=0.10),
    Level(3, horizon=4, temperature=1.4, blunder=0.06),
    Level(4, horizon=6, temperature=1.1, blunder=0.04),
    Level(5, horizon=8, temperature=0.9, blunder=0.02),
    Level(6, horizon=10, temperature=0.7, blunder=0.01),
    Level(7, horizon=14, temperature=0.5, blunder=0.0),
    Level(8, horizon=16, temperature=0.35, blunder=0.0),
    Level(9, horizon=20, temperature=0.25, blunder=0.0),
    Level(10, horizon=SIZE, temperature=0.0, blunder=0.0),
)


def level(number: int) -> Level:
    """Level ``number`` (1-10); ValueError naming the range otherwise."""
    if not MIN_LEVEL <= number <= PERFECT_LEVEL:
        raise ValueError(f"level {number}: out of range ({MIN_LEVEL} to {PERFECT_LEVEL})")
    return LEVELS[number - 1]


def best_among_ties(scores: Sequence[int | None],
                    among: Sequence[int] | None = None) -> list[int]:
    """The columns of the highest exact score (None: a full column, never chosen), among
    ``among`` if given (else every playable column), in the tie order: centre first, then
    alternately left and right of it (:data:`~.geometry.CENTER_ORDER`: d c e b f a g on
    7 columns, the order the searches try moves in). The score counts the winner's discs
    left, so the highest is the fastest win, else the draw, else the slowest loss. A caller
    that plays one column the same way every time takes the first; one that varies picks
    among them at random (the order then fixes what a seed gives). [] if none is playable."""
    allowed = CENTER_ORDER if among is None else [c for c in CENTER_ORDER if c in among]
    cols = [c for c in allowed if c < len(scores) and scores[c] is not None]
    if not cols:
        return []
    best = max(s for c in cols if (s := scores[c]) is not None)
    return [c for c in cols if scores[c] == best]


def move_rng(seed: int, key: int) -> random.Random:
    """The generator of one move: the game's ``seed`` and the position's ``key``, so a
    replayed game gets the same moves (a str seed is hashed the same in every process)."""
    return random.Random(f"{seed}:{key}")


def plies_to_end(score: int, ply: int) -> int | None:
    """Plies from now (the move scored included) until a won or lost game ends with
    perfect play; None for a draw. ``score`` is the mover's, for a column played at
    ``ply``."""
    if score == 0:
        return None
    own = moves_to_end(score, ply)  # the winner's moves, the winning one included
    return 2 * own - 1 if score > 0 else 2 * own


def play(pos: Position, number: int, scores: Sequence[int | None],
         rng: random.Random | None) -> int:
    """The column level ``number`` plays in ``pos``: the one way to play at a strength.

    ``scores``: each column's exact score for the side to move (the solver's ``analyze``;
    None: full). ``rng``: the generator of the level's chances and of perfect play's pick
    among equally good columns, normally :func:`move_rng` of the game's seed and
    ``pos.key()`` (a replayed game gets the same moves). None: no chance at all, which only
    perfect play has: the first of :func:`best_among_ties` (the same answer to the same
    position). ValueError for a level out of range, a full board, or None below level 10.
    """
    lvl = level(number)
    if rng is not None:
        return choose(lvl, scores, pos.ply, rng)
    if number != PERFECT_LEVEL:
        raise ValueError(f"level {number}: plays by chance, needs a generator")
    best = best_among_ties(scores)
    if not best:
        raise ValueError("no legal move: every column is full")
    return best[0]


def choose(lvl: Level, scores: Sequence[int | None], ply: int, rng: random.Random) -> int:
    """The column ``lvl`` plays, given each column's exact score for the side to move at
    ``ply`` (None: full). Level 10 plays a column of the best score (ties by ``rng``)."""
    legal = [c for c in CENTER_ORDER if c < len(scores) and scores[c] is not None]
    if not legal:
        raise ValueError("no legal move: every column is full")
    if lvl.blunder and rng.random() < lvl.blunder:
        return rng.choice(legal)
    seen: dict[int, int] = {}  # columns whose result comes within the horizon
    for c in legal:
        s = scores[c]
        assert s is not None
        d = plies_to_end(s, ply)
        if d is not None and d <= lvl.horizon:
            seen[c] = s
    wins = [c for c, s in seen.items() if s > 0]
    if wins:  # a win it sees: the quickest
        return _pick(wins, scores, rng)
    open_cols = [c for c in legal if c not in seen]
    if not open_cols:  # every column loses, and it knows: the slowest loss
        return _pick(legal, scores, rng)
    if lvl.temperature <= 0:
        return _pick(open_cols, scores, rng)
    values = [_value(scores[c]) / lvl.temperature for c in open_cols]
    top = max(values)
    weights = [math.exp(v - top) for v in values]
    return rng.choices(open_cols, weights)[0]


def _value(score: int | None) -> float:
    """A score in result units, +-1 for a win or a loss, with a small part for speed
    (under 0.25): monotone in the score, so the softmax's best is the perfect move."""
    assert score is not None
    return (score > 0) - (score < 0) + score / 100


def _pick(cols: list[int], scores: Sequence[int | None], rng: random.Random) -> int:
    """One of ``cols`` of the best score, at random."""
    return rng.choice(best_among_ties(scores, cols))
