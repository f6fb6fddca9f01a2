"""MILTON's threat-fill evaluation and the interior-node recognizer (engine/analysis/eval.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from c4tui.engine.analysis.eval import (
    EG_WORDS,
    HEUR,
    WIN,
    endgame_value,
    evaluate,
    recognizable,
    threat_fill,
)
from c4tui.engine.analysis.kernel import book_value
from c4tui.engine.analysis.tt import ZOBRIST, zobrist_key
from c4tui.engine.board.geometry import H1
from c4tui.engine.board.position import Position

_BUF = np.zeros(EG_WORDS, dtype=np.int64)


def _words(pos: Position) -> tuple[np.uint64, np.uint64]:
    return np.uint64(pos.current), np.uint64(pos.mask)


def _exact(pos: Position) -> int:
    """Brute-force negamax in Python: ±(WIN - n_end) with fastest wins, slowest losses."""
    if pos.is_draw:
        return 0
    best = None
    for c in pos.legal_moves():
        if pos.is_winning_move(c):
            return WIN - (pos.ply + 1)
    for c in pos.legal_moves():
        pos.play(c)
        v = -_exact(pos)
        pos.undo()
        best = v if best is None else max(best, v)
    return best


def _acute(pos: Position, player: int) -> bool:
    return bool(pos.threats(player) & pos.possible_squares())


def _random_endgame(rng: random.Random, free: tuple[int, ...]) -> Position | None:
    """A random game in which only the columns ``free`` still have room (partly filled)."""
    pos = Position()
    while True:
        legal = [c for c in pos.legal_moves() if not pos.is_winning_move(c)]
        others = [c for c in legal if c not in free]
        if not legal:
            return None
        if others and rng.random() > 0.08:
            c = rng.choice(others)
        elif others or rng.random() < 0.3:
            c = rng.choice(legal)
        else:
            break
        pos.play(c)
        if pos.is_over:
            return None
        if all(not pos.can_play(c) for c in range(7) if c not in free):
            break
    if any(not pos.can_play(c) for c in range(7) if c not in free) and not all(
        not pos.can_play(c) for c in range(7) if c not in free
    ):
        return None
    if pos.is_over or _acute(pos, 0) or _acute(pos, 1):
        return None
    return pos


def _endgames(n: int, seed: int):
    rng = random.Random(seed)
    sets = [(0,), (3,), (6,), (0, 4), (0, 5), (0, 6), (1, 5), (1, 6), (2, 6)]
    out = []
    while len(out) < n:
        pos = _random_endgame(rng, rng.choice(sets))
        if pos is not None and recognizable(np.uint64(pos.mask)):
            out.append(pos)
    return out


def test_recognizer_condition():
    assert not recognizable(np.uint64(Position().mask))
    for pos in _endgames(20, 1):
        assert recognizable(np.uint64(pos.mask))
    # two free columns only three apart: not recognizable
    rng = random.Random(3)
    found = 0
    while found < 5:
        pos = _random_endgame(rng, (1, 4))
        if pos is not None and all(pos.can_play(c) for c in (1, 4)):
            assert not recognizable(np.uint64(pos.mask))
            found += 1


def test_endgame_value_is_exact_with_distance():
    """The recognizer's values equal a brute-force solution, distances included."""
    for pos in _endgames(120, 7):
        cur, mask = _words(pos)
        assert endgame_value(cur, mask, pos.ply, _BUF.ctypes.data) == _exact(pos.copy()), pos


def test_threat_fill_outcome_exact_with_one_free_column():
    """With one free column the fill is forced: MILTON's evaluation is exact there."""
    for pos in _endgames(200, 11):
        if sum(pos.can_play(c) for c in range(7)) != 1:
            continue
        cur, mask = _words(pos)
        outcome, plies = threat_fill(cur, mask)
        v = _exact(pos.copy())
        assert outcome == (v > 0) - (v < 0), pos
        if v:
            assert plies == (WIN - abs(v)) - pos.ply


def test_threat_fill_acute_threats():
    # White a1 a2 a3, Black b1 b2, Black to move: Black blocks a4 (rule 2), then nothing.
    pos = Position.from_moves("12121")
    cur, mask = _words(pos)
    assert threat_fill(cur, mask) == (0, 0)
    assert evaluate(cur, mask, pos.ply) == 0
    # the same with White to move: White's own acute threat wins at once (rule 1)
    pos = Position.from_moves("121213")
    cur, mask = _words(pos)
    assert threat_fill(cur, mask) == (1, 1)
    assert evaluate(cur, mask, pos.ply) == HEUR + pos.ply


def test_odd_threat_zugzwang():
    """A single White threat on an odd row in an otherwise quiet column.

    Built directly as bitboards: White d3 e3 f3 over a neutral base, empty column c, every
    other column treated as full by the fill (they hold no threat)."""
    from c4tui.engine.board.geometry import square_bit

    def board(white_sq, black_sq):
        w = sum(square_bit(c, r) for c, r in white_sq)
        b = sum(square_bit(c, r) for c, r in black_sq)
        return w, b

    # White d3 e3 f3 over a base chosen so that White's only threat is c3 (g3 is Black's)
    white_sq = [(3, 2), (4, 2), (5, 2), (4, 0), (5, 1), (6, 1)]
    black_sq = [(3, 0), (3, 1), (4, 1), (5, 0), (6, 0), (6, 2)]
    w, b = board(white_sq, black_sq)
    mask = w | b
    from c4tui.engine.board.position import winning_squares

    assert winning_squares(w, mask) == square_bit(2, 2)
    assert winning_squares(b, mask) == 0
    # White to move: White fills c1 (rule 3), Black must go under c3 (rule 5), White wins
    assert threat_fill(np.uint64(w), np.uint64(mask)) == (1, 3)
    # Black to move: Black c1, White c2 (rule 4: under its own threat), Black blocks c3
    assert threat_fill(np.uint64(b), np.uint64(mask)) == (0, 0)


def test_zobrist_and_book_value():
    pos = Position.from_moves("4453")
    k = 0
    for ply, col, row in pos.moves_iter():
        k ^= int(ZOBRIST[(ply & 1) * 64 + col * H1 + row])
    assert k == zobrist_key(pos.stones(0), pos.stones(1))
    assert len({int(x) for x in ZOBRIST if x}) == 84
    # a book score +18 at ply 0 is a win with White's 4th disc: n_end = 7
    assert book_value(18, 0) == WIN - 7
    assert book_value(-18, 1) == -(WIN - 7)
    assert book_value(0, 5) == 0
    assert book_value(1, 0) == WIN - 41


@pytest.mark.parametrize("seed", [5])
def test_evaluate_is_a_heuristic_band_value(seed):
    rng = random.Random(seed)
    for _ in range(200):
        pos = Position()
        for _ in range(rng.randint(0, 30)):
            legal = [c for c in pos.legal_moves() if not pos.is_winning_move(c)]
            if not legal:
                break
            pos.play(rng.choice(legal))
        cur, mask = _words(pos)
        v = evaluate(cur, mask, pos.ply)
        assert v in (0, HEUR + pos.ply, -(HEUR + pos.ply))
