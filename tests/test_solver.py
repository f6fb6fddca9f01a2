"""The exact solver against independently scored positions, and its invariants."""

from __future__ import annotations

import random
import threading

import pytest
from c4tui.book import canonical_key, make_book, plies_mask, position_key
from c4tui.engine.board.geometry import BOARD, EVEN_ROWS, ODD_ROWS, column_bits
from c4tui.engine.board.position import Position, has_four, winning_squares
from c4tui.engine.seam import SearchAborted
from c4tui.engine.solver.solver import Solver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testdata import load_pons, load_positions, sample


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(hash_mb=64, book=None)


# Positions with few discs take seconds without a book; CI samples the cheap ranges widely
# and the expensive ones lightly.
POSITIONS = load_positions()
DEEP = sample([r for r in POSITIONS if len(r[0]) >= 16], 160, 1)
SHALLOW = sample([r for r in POSITIONS if 11 <= len(r[0]) < 16], 12, 2)


@pytest.mark.parametrize("moves,score,cols", DEEP + SHALLOW, ids=lambda v: str(v)[:40])
def test_positions_scores_and_columns(solver: Solver, moves, score, cols) -> None:
    pos = Position.from_moves(moves)
    res = solver.solve(pos)
    assert res.score == score
    analysis = solver.analyze(pos)
    assert list(analysis.scores) == cols
    assert analysis.scores[res.best_move] == score  # the best move is a best move


PONS_SAMPLES = {
    "Test_L3_R1": 120,
    "Test_L2_R1": 120,
    "Test_L2_R2": 60,
    "Test_L1_R1": 120,
    "Test_L1_R2": 12,
    "Test_L1_R3": 2,
}


@pytest.mark.parametrize("name", list(PONS_SAMPLES))
def test_pons_sets(solver: Solver, name: str) -> None:
    rows = sample(load_pons(name), PONS_SAMPLES[name], 3)
    wrong = [
        (m, s, r.score)
        for m, s in rows
        if (r := solver.solve(Position.from_moves(m))).score != s
    ]
    assert wrong == []


def _random_position(rnd: random.Random, ply: int) -> Position | None:
    pos = Position()
    for _ in range(ply):
        moves = [c for c in pos.legal_moves() if not pos.is_winning_move(c)]
        if not moves:
            return None
        pos.play(rnd.choice(moves))
    return None if pos.is_over else pos


positions_st = st.builds(
    _random_position, st.randoms(use_true_random=False), st.integers(min_value=18, max_value=40)
).filter(lambda p: p is not None)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(positions_st)
def test_mirror_scores_the_same(pos: Position) -> None:
    s = Solver(hash_mb=4, book=None)
    assert s.solve(pos).score == s.solve(pos.mirror()).score


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(positions_st)
def test_score_is_best_of_negated_children(pos: Position) -> None:
    s = Solver(hash_mb=4, book=None)
    score = s.solve(pos).score
    best = -100
    for col in pos.legal_moves():
        if pos.is_winning_move(col):
            best = max(best, (43 - pos.ply) // 2)
            continue
        child = pos.copy()
        child.play(col)
        best = max(best, 0 if child.is_draw else -s.solve(child).score)
    assert score == best


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=4, max_value=30))
def test_transpositions_share_one_key(rnd: random.Random, ply: int) -> None:
    pos = _random_position(rnd, ply)
    if pos is None:
        return
    # Reorder the moves of each player among themselves, replaying only legal orders.
    hist = pos.history
    white, black = hist[0::2], hist[1::2]
    for _ in range(20):
        rnd.shuffle(white)
        rnd.shuffle(black)
        # White moves first: pair each white move with the black reply (none after the last).
        pairs = zip(white, black + [None], strict=False)
        order = [c for pair in pairs for c in pair if c is not None]
        other = Position()
        try:
            for c in order:
                other.play(c)
        except ValueError:
            continue
        if other.mask != pos.mask:  # another order can fill columns differently
            continue
        if other.current == pos.current:
            assert other.key() == pos.key()
            if pos.ply >= 16:  # cheap enough to solve without a book
                assert Solver(hash_mb=1, book=None).solve(other).score == Solver(
                    hash_mb=1, book=None
                ).solve(pos).score


def test_book_answers_inside_the_search() -> None:
    """A book of the positions two plies below a root gives the same scores with fewer nodes."""
    root = Position.from_moves("4453224112")
    plain = Solver(hash_mb=16, book=None)
    expected = plain.analyze(root).scores
    keys, scores = {}, {}
    for c1 in root.legal_moves():
        p1 = root.copy()
        p1.play(c1)
        if p1.is_over:
            continue
        for c2 in p1.legal_moves():
            p2 = p1.copy()
            p2.play(c2)
            if p2.is_over or any(p2.is_winning_move(c) for c in p2.legal_moves()):
                continue
            k = canonical_key(position_key(p2))
            keys[k] = 1
            scores[k] = plain.solve(p2).score
    book = make_book(list(keys), [scores[k] for k in keys], plies=plies_mask([root.ply + 2]))
    fresh = Solver(hash_mb=16, book=None)
    with_book = Solver(hash_mb=16, book=book)
    res_book = with_book.analyze(root)
    assert res_book.scores == expected
    assert res_book.nodes < fresh.analyze(root).nodes


def test_stop_aborts_and_solver_stays_exact() -> None:
    s = Solver(hash_mb=16, book=None)
    pos = Position.from_moves("4453")  # tens of millions of nodes: seconds
    timer = threading.Timer(0.2, s.stop)
    timer.start()
    with pytest.raises(SearchAborted):
        s.solve(pos)
    timer.join()
    moves, score = load_pons("Test_L2_R2")[0]
    assert s.solve(Position.from_moves(moves)).score == score


def test_solving_a_finished_game_is_an_error(solver: Solver) -> None:
    with pytest.raises(ValueError, match="already won"):
        solver.solve(Position.from_moves("1212121"))


def _scored_positions_and_children() -> list[tuple[str, int]]:
    """Every position of positions.txt and every child not won by its move (column scores
    give the children's scores), and the Pons sets, with their scores."""
    rows = []
    for moves, score, cols in POSITIONS:
        rows.append((moves, score))
        for c, cs in enumerate(cols):
            if cs is not None and not Position.from_moves(moves).is_winning_move(c):
                rows.append((moves + str(c + 1), -cs))
    for name in PONS_SAMPLES:
        rows.extend(load_pons(name))
    return rows


SCORED = _scored_positions_and_children()


def _within(bound: tuple[int, int], score: int) -> bool:
    return bound[0] <= score <= bound[1]


def _claimeven_bound(pos: Position) -> tuple[int, int] | None:
    """(lower, upper) bound on the score that Black's claimeven gives, or None.

    An independent (pure-Python) statement of the rule the solver uses. With every column at
    an even height and White to move, Black answers in the same column and gets every free
    even-row square, White every free odd-row one. With two columns of odd height, Black
    answers a move in one of them in the other, so White also gets one of their next
    squares (its choice); with four, Black pairs them up. Black to move with one or three
    columns of odd height plays in one of them first (any that leaves White no four); with
    one, it may instead play on an odd row of a column of even height and pair the two
    columns of odd height it leaves. Black wins when it reaches a threat of its own on an
    even row that is not a paired square (those it may not get), so White's squares above
    such a threat do not count.
    """
    free = BOARD & ~pos.mask
    white = pos.current if pos.ply % 2 == 0 else pos.current ^ pos.mask
    black = white ^ pos.mask
    odd_cols = [c for c in range(7) if pos.height(c) % 2 == 1]
    nxt = {c: 1 << (c * 7 + pos.height(c)) for c in odd_cols}

    def white_squares(free_: int, pairs: list[int]) -> int:
        """White's discs and the free odd-row squares below Black's first sure threat of
        each column (an even-row threat that is not a paired square)."""
        sq = white
        for c in range(7):
            sure = [r for r in range(1, 6, 2)
                    if winning_squares(black, pos.mask) >> (c * 7 + r) & 1
                    and 1 << (c * 7 + r) not in pairs]
            top = sure[0] if sure else 6
            sq |= free_ & ODD_ROWS & sum(1 << (c * 7 + r) for r in range(top))
        return sq

    white_sq = white_squares(free, list(nxt.values()))
    black_sq = black | (free & EVEN_ROWS)

    def white_safe(choices: list[int]) -> bool:  # no four for any square White may take
        return all(not has_four(white_sq | x) for x in choices)

    def black_wins(choices: list[int]) -> bool:
        return all(has_four(black_sq & ~x) for x in choices)

    if pos.ply % 2 == 0:  # White to move: the bound is on White's score
        if len(odd_cols) == 0 and white_safe([0]):
            return -99, (-1 if black_wins([0]) else 0)
        if len(odd_cols) == 2:
            choices = [nxt[c] for c in odd_cols]
            if white_safe(choices):
                return -99, (-1 if black_wins(choices) else 0)
        if len(odd_cols) == 4:  # Black pairs the columns; White takes one of each pair
            a, b, c, d = (nxt[o] for o in odd_cols)
            for (p, q), (r, t) in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
                if white_safe([x | y for x in (p, q) for y in (r, t)]):
                    return -99, 0
        return None
    best = None
    if len(odd_cols) == 1 and white_safe([0]):
        best = 1 if black_wins([0]) else 0
    elif len(odd_cols) == 1:
        # Black plays on an odd row of an even-height column instead; White to move then
        # has two columns of odd height, which Black pairs.
        for x in range(7):
            if pos.height(x) % 2 == 0 and pos.height(x) < 6:
                s = 1 << (x * 7 + pos.height(x))
                choices = [nxt[odd_cols[0]], s << 1]
                w2 = white_squares(free & ~s, choices)
                if all(not has_four(w2 | y) for y in choices):
                    b2 = black | s | (free & EVEN_ROWS)
                    best = 1 if all(has_four(b2 & ~y) for y in choices) else 0
                    break
    if len(odd_cols) == 3:
        for c in odd_cols:
            choices = [nxt[o] for o in odd_cols if o != c]
            if white_safe(choices):
                lo = 1 if black_wins(choices) else 0
                best = lo if best is None else max(best, lo)
    return None if best is None else (best, 99)


CLAIMEVEN = [r for r in POSITIONS if _claimeven_bound(Position.from_moves(r[0])) is not None]
CLAIMEVEN_ALL = [(m, s) for m, s in SCORED
                 if _claimeven_bound(Position.from_moves(m)) is not None]


def test_claimeven_positions_are_in_the_data() -> None:
    assert len(CLAIMEVEN) >= 40  # both sides, all-even and two to four odd columns
    assert {len(m) % 2 for m, _, _ in CLAIMEVEN} == {0, 1}


def test_claimeven_rule_holds_on_the_independent_scores() -> None:
    """The rule never disagrees with the independent solvers' scores: positions.txt with
    its children, and the Pons sets."""
    assert len(CLAIMEVEN_ALL) >= 400
    wrong = [(m, s) for m, s in CLAIMEVEN_ALL
             if not _within(_claimeven_bound(Position.from_moves(m)), s)]
    assert wrong == []


@pytest.mark.parametrize("moves,score,cols", CLAIMEVEN, ids=lambda v: str(v)[:40])
def test_claimeven_bound_and_best_move(solver: Solver, moves, score, cols) -> None:
    """The rule holds on independently scored positions, and where it settles the root the
    solver still names a move that achieves the score."""
    pos = Position.from_moves(moves)
    lo, hi = _claimeven_bound(pos)
    assert lo <= score <= hi
    res = solver.solve(pos)
    assert res.score == score
    assert cols[res.best_move] == score


def _oddthreat_bound(pos: Position) -> tuple[int, int] | None:
    """(lower, upper) bound on the score from White's odd threat, or None.

    An independent (pure-Python) statement of the rule the solver uses: White has a threat
    on an odd row (1, 3 or 5) of column c. With Black to move, c of odd height and every
    other column of even height, White answers each move in the same column and gets every
    odd-row square of c, so it wins when it reaches the lowest such threat t; two more
    columns of odd height are paired (a move in one is answered in the other; Black gets
    the next square of one of them, its choice). White to move first plays in c (even
    height) or in another column of odd height to reach that. If Black's discs plus every
    square it can get before t (none of c above t) hold no four, White wins. (Elsewhere
    White gets every even-row square but the pairs', so Black gets no square above such
    a threat of White's either.)
    """
    if pos.is_over:
        return None
    free = BOARD & ~pos.mask
    black = pos.stones(1)
    heights = [pos.height(c) for c in range(7)]
    for c in range(7):
        col = column_bits(c)
        odd_threats = [r for r in range(0, 6, 2) if pos.threats(0) & 1 << (c * 7 + r)]
        if not odd_threats:
            continue
        # the squares of c above White's lowest odd threat come after White's win
        below = sum(1 << (c * 7 + r) for r in range(odd_threats[0]))
        black_sq = black | (free & EVEN_ROWS & below)
        for x in range(7):  # elsewhere up to White's first sure even-row threat (it wins there)
            sure = [r for r in range(1, 6, 2) if x != c and pos.threats(0) >> (x * 7 + r) & 1
                    and not (heights[x] % 2 == 1 and heights[x] == r)]
            top = sure[0] if sure else 6
            black_sq |= free & ODD_ROWS & sum(1 << (x * 7 + r) for r in range(top)) & ~col
        if has_four(black_sq):
            continue

        def black_cannot_win(hts: list[int], c: int = c, black_sq: int = black_sq) -> bool:
            """Black to move with the column heights ``hts``."""
            if hts[c] % 2 == 0:
                return False
            pair = [x for x in range(7) if x != c and hts[x] % 2 == 1]
            if len(pair) not in (0, 2):
                return False
            return all(not has_four(black_sq | 1 << (x * 7 + hts[x])) for x in pair)

        if pos.ply % 2 == 1:
            if black_cannot_win(heights):
                return -99, -1
            continue
        for first in range(7):  # White's first move: c, or another column of odd height
            if heights[first] < 6 and (first == c or heights[first] % 2 == 1):
                after = heights[:first] + [heights[first] + 1] + heights[first + 1:]
                if black_cannot_win(after):
                    return 1, 99
    return None


ODDTHREAT = [(m, s) for m, s in SCORED
             if _oddthreat_bound(Position.from_moves(m)) is not None]


def test_oddthreat_rule_holds_on_the_independent_scores() -> None:
    """The rule applies to White and to Black to move in the data, and never disagrees with
    the independent solvers' scores (positions.txt with its children, the Pons sets)."""
    assert len(ODDTHREAT) >= 400
    assert {len(m) % 2 for m, _ in ODDTHREAT} == {0, 1}
    wrong = [(m, s) for m, s in ODDTHREAT
             if not _within(_oddthreat_bound(Position.from_moves(m)), s)]
    assert wrong == []


@pytest.mark.parametrize("moves,score", sample(ODDTHREAT, 60, 4), ids=lambda v: str(v)[:40])
def test_oddthreat_positions_solve_with_a_best_move(solver: Solver, moves, score) -> None:
    """Where the rule settles the root, the solver's move still achieves the score."""
    pos = Position.from_moves(moves)
    res = solver.solve(pos)
    assert res.score == score
    child = Position.from_moves(moves)
    child.play(res.best_move)
    if not child.is_over:
        assert -solver.solve(child).score == score


def _wins_after_next(pos: Position) -> int | None:
    """A move (column) after which the opponent cannot stop a four with our next move, or
    None: it must not lose at once (block the opponent's immediate threat if there is one,
    not play under one of its threats; with two of them we are lost) and leave two threats
    playable at once, or leave the opponent only replies right under a threat of ours (the
    one block of a playable threat, or every move)."""
    if pos.is_over or any(pos.is_winning_move(c) for c in pos.legal_moves()):
        return None
    theirs = pos.threats(1 - pos.to_move)
    must = theirs & pos.possible_squares()
    if must & (must - 1):
        return None  # two threats of theirs to parry: lost
    for c in pos.legal_moves():
        sq = (pos.mask + (1 << c * 7)) & column_bits(c)
        if (must and not must & sq) or theirs & sq << 1:
            continue
        child = Position.from_moves(pos.digits() + str(c + 1))
        ours = child.threats(pos.to_move)
        now = ours & child.possible_squares()
        replies = now or child.possible_squares()  # a threat of ours must be blocked
        if bin(now).count("1") >= 2 or not replies & ~(ours >> 1):
            return c
    return None


WINS_AFTER_NEXT = [(m, s) for m, s in SCORED
                   if _wins_after_next(Position.from_moves(m)) is not None]


def test_win_after_next_move_is_settled_with_its_move(solver: Solver) -> None:
    """The parent settles a move that leaves two threats (or two stacked): the score is
    the earliest win the rules allow, as the independent scores say, with a winning move."""
    assert len(WINS_AFTER_NEXT) >= 100
    for moves, score in sample(WINS_AFTER_NEXT, 60, 5):
        pos = Position.from_moves(moves)
        assert score == (42 - 1 - pos.ply) // 2, moves
        solver.clear()
        res = solver.solve(pos)
        assert res.score == score, moves
        assert res.nodes <= 3, moves  # one call per window: no child is visited
        child = Position.from_moves(moves + str(res.best_move + 1))
        assert (0 if child.is_over else -solver.solve(child).score) == score, moves


def test_the_near_tier_takes_the_positions_with_few_empty_squares() -> None:
    """Positions with NEAR_PLIES discs or more have their own small table after the main
    one (it stays in the caches); the positions above it keep the main table."""
    from c4tui.engine.solver.tt import (
        MIDGAME_ROOT,
        NEAR_BITS,
        NEAR_PLIES,
        NEAR_PLIES_MIDGAME,
        near_plies,
    )

    assert near_plies(0) == NEAR_PLIES and near_plies(MIDGAME_ROOT) == NEAR_PLIES_MIDGAME

    small = Solver(hash_mb=1, book=None)  # not larger than the near tier: no tier
    assert len(small.table.words) == 1 << small.table.bits
    s = Solver(hash_mb=4, book=None)
    main = 1 << s.table.bits
    assert len(s.table.words) == main + (1 << NEAR_BITS)
    near_rows = [r for r in POSITIONS if len(r[0]) == NEAR_PLIES]
    for moves, score, cols in near_rows[:5]:
        pos = Position.from_moves(moves)
        assert s.solve(pos).score == score and list(s.analyze(pos).scores) == cols
    assert not s.table.words[:main].any()  # every node had NEAR_PLIES discs or more
    assert s.table.words[main:].any()
    moves, score, cols = next(r for r in POSITIONS if len(r[0]) == NEAR_PLIES_MIDGAME - 2
                              and len(set(r[2]) - {None}) > 2)
    assert list(s.analyze(Position.from_moves(moves)).scores) == cols
    assert s.table.words[:main].any()  # the positions above the tier: the main table


def test_analyze_reports_each_column_as_it_is_solved():
    """``on_score`` hears every column's score, so a caller that stops a long analysis keeps
    the columns solved until then (the app's exact values, issue 24)."""
    pos = Position.from_moves("4453226")
    for threads in (1, 2):
        heard: dict[int, int] = {}
        res = Solver(hash_mb=4, book=None, threads=threads).analyze(pos,
                                                                     on_score=heard.__setitem__)
        assert heard == {c: s for c, s in enumerate(res.scores) if s is not None}


def test_a_stopped_analysis_says_what_it_had_proven():
    """Stopped, an analysis still tells the bounds proven on the columns it was solving
    (the app's values must agree with them, issue 24): each holds the true score."""
    pos = Position.from_moves("44")  # without a book: seconds per column
    truth = (-3, -3, -2, 1, -2, -3, -3)
    for threads in (1, 2):
        solver = Solver(hash_mb=16, book=None, threads=threads)
        timer = threading.Timer(0.5, solver.stop)
        timer.start()
        with pytest.raises(SearchAborted) as info:
            solver.analyze(pos)
        timer.cancel()
        assert info.value.bounds
        for col, (lo, hi) in info.value.bounds.items():
            assert lo <= truth[col] <= hi, (threads, col, lo, hi)
