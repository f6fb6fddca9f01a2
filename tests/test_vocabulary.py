"""The one vocabulary of issue 25, item 3: a square read as a move and written from one,
a win at once, the negamax over the books, the perfect line, a score in words and the
move text's words, each defined once and checked here, bad input included."""

from __future__ import annotations

import re

import pytest
from c4tui.book import load_default
from c4tui.engine.analysis.book_answer import book_answer
from c4tui.engine.board.geometry import SIZE, win_score
from c4tui.engine.board.position import IllegalMoveError, Position, can_win_next, winning_move
from c4tui.engine.books.negamax import book_negamax
from c4tui.engine.pv import perfect_line, perfect_steps
from c4tui.engine.scores import result_words, score_in_words
from c4tui.engine.seam import Source
from c4tui.engine.solver.solver import Solver
from testdata import load_positions

from c4tui.gamefile import parse_game
from c4tui.gamefile.movetext import format_movetext, move_number, movetext_words

POSITIONS = load_positions()


# ---------------------------------------------------------------- squares and moves
def test_a_square_is_read_as_the_move_whose_disc_lands_there():
    pos = Position.from_moves("44")  # d1 d2
    assert pos.parse_move("d3") == 3 and pos.parse_move("D3") == 3
    assert pos.parse_move("a1") == 0 and pos.parse_move("g1") == 6


@pytest.mark.parametrize(("moves", "word", "says"), [
    ("44", "h1", "'h1': not a square (expected a1-g6)"),  # off the board: no column h
    ("44", "d7", "'d7': not a square (expected a1-g6)"),  # off the board: no row 7
    ("44", "d0", "'d0': not a square"),
    ("44", "", "'': not a square"),
    ("44", "4", "'4': not a square"),
    ("44", "d²", "'d²': not a square"),  # a digit to str.isdigit, not to int
    ("44", "d" + "1" * 5000, "'d" + "1" * 38 + "…': not a square"),  # quoted cut
    ("44", "d1", "'d1': a disc in column d lands on d3"),  # below the landing square
    ("44", "e2", "'e2': a disc in column e lands on e1"),  # above it
    ("444444", "d6", "'d6': column d is full"),
    ("4455667", "a1", "'a1': the game is over (White has won)"),
], ids=lambda v: str(v)[:12])
def test_a_square_that_is_not_a_move_says_why(moves, word, says):
    with pytest.raises(IllegalMoveError, match=re.escape(says)) as info:
        Position.from_moves(moves).parse_move(word)
    assert "\n" not in str(info.value) and len(str(info.value)) < 120


def test_a_full_board_is_over_too():
    draw = Position.from_moves("257771314744647214154617633623313656555222")
    assert draw.is_draw
    with pytest.raises(IllegalMoveError, match=r"^'a1': the game is over \(the board is full\)$"):
        draw.parse_move("a1")


def test_every_notation_reads_squares_alike():
    """The algebraic notation and the game file say what parse_move says, with the move's
    number before it."""
    with pytest.raises(IllegalMoveError, match="^move 2 'e2': a disc in column e lands on e1$"):
        Position.parse("d1 e2")
    with pytest.raises(ValueError, match="line 1: move 2 'e2': a disc in column e lands on e1"):
        parse_game("d1 e2")


def test_squares_are_named_where_the_discs_land():
    pos = Position.from_moves("44")
    assert pos.landing_square(3) == "d3" and pos.landing_square(0) == "a1"
    assert pos.line_squares([3, 3, 4]) == ["d3", "d4", "e1"]
    assert pos.line_squares([]) == []
    # up to the first move that cannot be played: a full column, or after the game's end
    assert Position.from_moves("44444").line_squares([3, 3, 3]) == ["d6"]
    assert Position.from_moves("445566").line_squares([6, 0, 1]) == ["g1"]  # g1 wins
    assert pos.line_squares([9]) == []  # not a column
    assert pos.history == [3, 3]  # the position itself is not played on


# ---------------------------------------------------------------- a win at once
def test_a_win_at_once_and_its_most_central_column():
    two = Position.from_moves("445566")  # White's d1 e1 f1: c1 and g1 both win
    assert two.can_win_next() and two.winning_move() == 2
    assert can_win_next(two.current, two.mask) and winning_move(two.current, two.mask) == 2
    quiet = Position.from_moves("4453")
    assert not quiet.can_win_next() and quiet.winning_move() is None
    # a threat above an empty square does not win now
    high = Position.from_moves("12233637")  # White's a1 b2 c3: d4 would win, d is empty
    assert high.threats(0) and not high.can_win_next()
    over = Position.from_moves("4455667")
    assert not over.can_win_next() and over.winning_move() is None


# ---------------------------------------------------------------- negamax over books
def _no_book(current: int, mask: int) -> int | None:
    return None


@pytest.mark.parametrize("moves,score,cols",
                         [r for r in POSITIONS if len(r[0]) >= SIZE - 5][:40],
                         ids=lambda v: str(v)[:20])
def test_negamax_without_a_book_is_exact_near_the_end(moves, score, cols):
    """Down to the board's end, the negamax needs no book: BitBully's scores."""
    pos = Position.from_moves(moves)
    value, move = book_negamax(pos.current, pos.mask, _no_book, SIZE - pos.ply)
    assert value == score and cols[move] == score


def test_negamax_reads_the_known_scores_and_says_when_one_is_missing():
    pos = Position.from_moves("4453")
    children = {}
    for col in pos.legal_moves():
        child = pos.copy()
        child.play(col)
        children[child.key()] = col  # made-up scores: column 0 leaves the least, 0
    lookup = lambda cur, mask: children.get(cur + mask)  # noqa: E731
    assert book_negamax(pos.current, pos.mask, lookup, 1) == (0, 0)
    assert book_negamax(pos.current, pos.mask, lookup, 0) is None  # no ply to go down
    children.popitem()
    assert book_negamax(pos.current, pos.mask, lookup, 1) is None  # a child unknown
    # a known position is its score; a win at once needs no lookup, nor does a full board
    assert book_negamax(pos.current, pos.mask, lambda c, m: 7, 0) == (7, None)
    won = Position.from_moves("445566")
    assert book_negamax(won.current, won.mask, _no_book, 0) == (win_score(6), 2)


# ---------------------------------------------------------------- answers and lines
@pytest.fixture(scope="module")
def book():
    books = load_default()
    if books is None:
        pytest.skip("no books")
    return books


def test_an_11_disc_root_is_answered_from_its_childrens_scores(book):
    solver = Solver(hash_mb=16, book=book)
    for moves, score, cols in [r for r in POSITIONS if len(r[0]) == 11][:3]:
        ans = book_answer(Position.from_moves(moves), book, solver)
        assert ans is not None and ans.source is Source.BOOK
        assert ans.score == score and cols[ans.best_move] == score
        assert Position.from_moves(moves).line_squares(ans.pv) and ans.pv[0] == ans.best_move


def test_a_root_where_every_move_loses_at_once_is_exact_without_a_lookup(book):
    pos = Position.from_moves("74335435414525")  # 14 discs: Black wins after any move
    ans = book_answer(pos, book, Solver(hash_mb=16, book=book))
    assert ans is not None and ans.source is Source.EXACT and ans.nodes == 0
    assert ans.score == -win_score(pos.ply + 1) and len(ans.pv) == 2
    assert book_answer(Position.from_moves("4453624453624"), book,
                       Solver(hash_mb=16, book=book)) is None  # 13 discs: not in the books


def test_the_perfect_line_stops_where_it_is_told_and_counts_nodes():
    solver = Solver(hash_mb=16, book=None)
    pos = Position.from_moves(next(m for m, _, _ in POSITIONS if len(m) == 30))
    steps = list(perfect_steps(pos, solver))
    assert tuple(m for m, _ in steps) == perfect_line(pos, solver)
    assert sum(n for _, n in steps) > 0
    # refused at once: no move, unless a win at once needs no solve
    assert list(perfect_steps(pos, solver, solve_if=lambda p: False)) == []
    won = Position.from_moves("445566")
    assert list(perfect_steps(won, solver, solve_if=lambda p: False)) == [(2, 0)]


# ---------------------------------------------------------------- a score in words
def test_one_wording_of_an_exact_score():
    assert result_words(0, 17) == "draw"
    assert result_words(win_score(6), 6) == "White wins in 1"
    assert result_words(-win_score(7), 6) == "Black wins in 1"
    assert result_words(1, 0) == "White wins in 21"  # the empty board
    assert result_words(-win_score(6), 7) == "White has won"  # after White's four
    # a score shown as a number, one spelling (the explorer, db explore, book lookup)
    assert score_in_words(0, 17) == "0 (draw)"
    assert score_in_words(1, 0) == "+1 (White wins in 21)"
    assert score_in_words(-2, 0) == "-2 (Black wins in 20)"


# ---------------------------------------------------------------- the move text
TEXT = "1. d1 {the centre} d2 2. e1 (2. c1 c2 3. e1) e2 3. a1 *"


def test_the_file_and_the_screen_number_from_one_writer():
    tree = parse_game(TEXT).tree
    file = " ".join(w.text for w in movetext_words(tree))
    screen = " ".join(w.text for w in movetext_words(tree, compact=True))
    # PGN's convention in the file: Black numbered after a comment and after a variation
    assert file == "1. d1 {the centre} 1... d2 2. e1 ( 2. c1 c2 3. e1 ) 2... e2 3. a1"
    # the screen's compact form: numbered only at a variation's start
    assert screen == "1. d1 {the centre} d2 2. e1 ( 2. c1 c2 3. e1 ) e2 3. a1"
    assert format_movetext(tree, "*") == \
        "1. d1 {the centre} 1... d2 2. e1 (2. c1 c2 3. e1) 2... e2 3. a1 *"
    moves = [w for w in movetext_words(tree) if w.kind == "move"]
    assert [w.item.path for w in moves][:4] == [(0,), (0, 0), (0, 0, 0), (0, 0, 1)]
    assert move_number(3) == "2..." and move_number(3, compact=True) == "2…"
    assert move_number(4) == move_number(4, compact=True) == "3."
