"""The Connect Four FEN of the UGI engine: format, round trips, and what it refuses."""

from __future__ import annotations

import pytest
from c4tui.engine.board.position import BLACK, WHITE, Position
from hypothesis import given, settings
from hypothesis import strategies as st

from c4tui.ugi.fen import START_FEN, FenError, parse_fen, to_fen

DRAWN_GAME = ("e1 d1 g1 a1 b1 e2 f1 f2 b2 b3 f3 a2 b4 g2 a3 b5 f4 f5 b6 a4 e3 g3 d2 c1 g4 g5 "
              "a5 e4 g6 f6 c2 a6 e5 c3 e6 c4 c5 c6 d3 d4 d5 d6")


def test_written_form():
    assert to_fen(Position()) == START_FEN == "7/7/7/7/7/7 x"
    assert to_fen(Position.from_algebraic("d1")) == "7/7/7/7/7/3x3 o"
    assert to_fen(Position.from_algebraic("d1 d2 e1")) == "7/7/7/7/3o3/3xx2 o"
    # ranks run from the top (row 6) down; a full column d
    assert to_fen(Position.from_moves("444444")) == "3o3/3x3/3o3/3x3/3o3/3x3 x"


def test_reading_infers_or_checks_the_side_to_move():
    assert parse_fen("7/7/7/7/7/3x3").to_move == BLACK
    assert parse_fen("7/7/7/7/7/3X3 O") == Position.from_moves("4")
    assert parse_fen("7/7/7/7/7/7").to_move == WHITE


@st.composite
def games(draw) -> Position:
    """A position reached by random legal moves (possibly a finished game)."""
    pos = Position()
    n = draw(st.integers(0, 42))
    for _ in range(n):
        if pos.is_over:
            break
        pos.play(draw(st.sampled_from(pos.legal_moves())))
    return pos


@settings(max_examples=300, deadline=None)
@given(games())
def test_round_trip(pos: Position):
    fen = to_fen(pos)
    back = parse_fen(fen)
    assert back == pos
    assert (back.ply, back.to_move, back.winner, back.is_draw, back.is_over) == (
        pos.ply, pos.to_move, pos.winner, pos.is_draw, pos.is_over)
    assert to_fen(back) == fen


def test_finished_games():
    won = parse_fen("7/7/7/x6/xo5/xo5 o").copy()
    assert won.winner is None  # three in a column: not yet
    won = parse_fen("7/7/x6/x6/xo5/xo1o3 o")
    assert won.winner == WHITE and won.is_over
    lost = parse_fen("7/7/o6/ox5/ox5/ox1x3 x")
    assert lost.winner == BLACK
    drawn = Position.from_algebraic(DRAWN_GAME)
    back = parse_fen(to_fen(drawn))
    assert back.is_draw and back.winner is None


@pytest.mark.parametrize(("fen", "says"), [
    ("", "empty"),
    ("7/7/7/7/7", "5 ranks"),
    ("7/7/7/7/7/7/7", "7 ranks"),
    ("7/7/7/7/7/x7", "rank 1 'x7': 8 squares"),
    ("7/7/7/7/7/6", "rank 1 '6': 6 squares"),
    ("7/7/7/7/7/3z3", "'z' is neither a disc"),
    ("7/7/7/7/7/3x3 x", "side to move x"),
    ("7/7/7/7/7/3x3 w", "expected x or o"),
    ("7/7/7/7/7/3x3 o 1", "3 fields"),
    ("7/7/7/7/7/3o3", "0 x discs and 1 o discs"),
    ("7/7/7/7/7/xx5", "2 x discs and 0 o discs"),
    ("7/7/7/7/3x3/3o3/", "7 ranks"),
    ("7/7/7/7/3x3/7", "d2 floats above the empty square d1"),
    # the square named is the disc's, not the one above the gap (d3 was called d2)
    ("7/7/7/3x3/7/7", "the disc on d3 floats above the empty square d2"),
    ("7/7/3x3/7/7/3o3", "the disc on d4 floats above the empty square d3"),
    # a single column with o at the bottom: x's first disc has nowhere to be
    ("7/7/7/7/3x3/3o3", "cannot be taken back"),
    # both have four
    ("7/7/x5o/x5o/x5o/x5o x", "both players"),
    # o's four stands, but x moved last: the game ended before x's move
    ("7/7/o6/o6/ox2x2/oxx1x2 o", "last move"),
    # x has two fours no single disc belongs to: x went on playing after winning
    ("7/7/7/o6/xxxxooo/xxxxooo o", "last move"),
])
def test_refused(fen: str, says: str):
    with pytest.raises(FenError) as info:
        parse_fen(fen)
    assert says in str(info.value)


def test_a_four_completed_by_the_last_move_is_a_finished_game():
    # x's row a1-d1 and a disc on a2: d1 can have been the last move, so this is reachable
    pos = parse_fen("7/7/7/7/xo5/xxxxooo o")
    assert pos.winner == WHITE and pos.history[-1] in (2, 3)  # c1 or d1 came last
