"""Whole-game review (c4tui/review/game.py and ``c4tui review``): marks, better moves, values
checked against the scored test data, accuracy, cancellation, the command line."""

from __future__ import annotations

import json

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.scores import result_words
from testdata import load_positions, sample
from typer.testing import CliRunner

from c4tui.cli import app
from c4tui.review.accuracy import accuracy_text, game_accuracy, move_accuracy, win_percent
from c4tui.review.game import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    ONLY_MOVE,
    ReviewCancelled,
    Reviewer,
    judge,
)

runner = CliRunner()


@pytest.fixture(scope="module")
def solver():
    from c4tui.book import load_default
    from c4tui.engine.solver.solver import Solver

    return Solver(hash_mb=16, book=load_default(), threads=1)


# ---------------------------------------------------------------- judge, by hand
def test_judge_marks_by_hand():
    # a win (+3) thrown into a draw and into a loss; the better moves fastest win first
    assert judge((3, 0, 1, -2, None, 3, 0), 1, 10) == (BLUNDER, (0, 5, 2))
    assert judge((3, 0, 1, -2, None, 3, 0), 3, 10) == (BLUNDER, (0, 5, 2))
    # a draw thrown into a loss
    assert judge((0, -1, 0, -5, -5, -5, -5), 1, 10) == (MISTAKE, (0, 2))
    # a slower win, a draw kept, a lost position: no mark
    assert judge((3, 0, 1, -2, None, 3, 0), 2, 10) == ("", ())
    assert judge((0, -1, 0, -5, -5, -5, -5), 2, 10) == ("", ())
    assert judge((-1, -3, -2, -4, -4, -4, -4), 3, 10) == ("", ())  # 3 moves shorter
    # the only winning move; not when it is the only legal move or a four at once
    assert judge((-2, 4, 0, -1, None, None, None), 1, 10) == (ONLY_MOVE, ())
    assert judge((None, 4, None, None, None, None, None), 1, 10) == ("", ())
    win_now = (43 - 10) // 2  # a four with this disc at ply 10
    assert judge((-2, win_now, 0, -1, 0, 0, 0), 1, 10) == ("", ())


def test_judge_inaccuracies_by_hand():
    # a kept win made 4 or more moves slower (a point of score is one move), a loss made
    # 4 shorter; 3 slower is not marked, nor a slower win for N = 9
    assert judge((11, 7, 1, -2, None, 11, 0), 1, 10) == (INACCURACY, (0, 5))
    assert judge((11, 8, 1, -2, None, 11, 0), 1, 10) == ("", ())
    assert judge((11, 3, 1, -2, None, 11, 0), 1, 10, inaccuracy=9) == ("", ())
    assert judge((-2, -6, -9, None, None, None, None), 1, 10) == (INACCURACY, (0,))
    assert judge((-2, -6, -9, None, None, None, None), 1, 10, inaccuracy=5) == ("", ())
    # a four at once missed for a win one move slower; a draw kept is never marked
    win_now = (43 - 10) // 2
    assert judge((win_now, win_now - 1, 1, 0, 0, 0, 0), 1, 10) == (INACCURACY, (0,))
    assert judge((0, 0, -1, -5, -5, -5, -5), 1, 10) == ("", ())


def test_accuracy_formula_by_hand():
    # the win percentage: a draw 50, the fastest win 100 (21 on 7x6), the slowest 95 + 5/21
    assert win_percent(0) == 50 and win_percent(21) == 100 and win_percent(-21) == 0
    assert win_percent(1) == pytest.approx(95.2381, abs=1e-4)
    assert win_percent(-1) == pytest.approx(4.7619, abs=1e-4)
    # lichess's curve: 103.1668 * exp(-0.04354 * drop) - 3.1669, clipped to 0..100
    assert move_accuracy(60, 70) == 100 and move_accuracy(100, 100) == 100
    assert move_accuracy(100, 50) == pytest.approx(8.5278, abs=1e-4)  # a win thrown away
    assert move_accuracy(100, 0) == 0  # -1.84 clipped
    # a kept win made 8 moves slower (score 12 -> 4): a drop of 40/21
    assert move_accuracy(win_percent(12), win_percent(4)) == pytest.approx(91.7883, abs=1e-4)
    # the game: windows of 2 positions (4 moves), weights pstdev 0, 0, 25, 0 clipped to
    # 0.5, 0.5, 12, 0.5; White's moves 100 (0.5) and 8.5278 (12): weighted mean 12.1867,
    # harmonic mean 15.7155, accuracy their mean; Black lost nothing: 100
    white, black = game_accuracy([50, 50, 50, 0, 0])
    assert white == pytest.approx(13.9511, abs=1e-4) and black == 100
    assert game_accuracy([50, 100]) == (100, None)  # Black has no moves


def test_accuracy_text_shows_100_only_for_nothing_lost():
    assert accuracy_text(96.4) == "96%" and accuracy_text(99.74, 1) == "99.7%"
    assert accuracy_text(100.0) == "100%" and accuracy_text(None) == "-"
    # a side that lost a point somewhere is not rounded up to perfect
    assert accuracy_text(99.7) == "99%" and accuracy_text(99.96, 1) == "99.9%"


def test_result_words():
    assert result_words(1, 0) == "White wins in 21"  # the empty board
    assert result_words(0, 5) == "draw"
    assert result_words(-3, 1) == f"White wins in {22 - 3 - 1}"
    assert result_words(-18, 7) == "White has won"  # after White's four with disc 4
    assert result_words(-18, 8) == "Black has won"


# ------------------------------------------------------- openings known by theory
def test_first_moves(solver):
    """Only d1 wins from the empty board; c1 and e1 draw, the others lose."""
    r = Reviewer(solver).review([3])
    (m,) = r.plies
    assert r.start == 1 and m.mark == ONLY_MOVE and m.values == (-2, -1, 0, 1, 0, -1, -2)
    for col, outcome in ((2, "draw"), (0, "Black wins in 20")):
        m = Reviewer(solver).review([col]).plies[0]
        assert m.mark == BLUNDER and m.better == (3,)
        assert m.after_words() == outcome and m.better_words() == "d1 (White wins in 20)"


# ------------------------------------------- games ending in scored test positions
def _cases(kind: str, n: int) -> list[tuple[str, list[int | None], int]]:
    """(moves, column scores, column to play) from tests/data/positions.txt: a move that
    throws a win (b), a draw (m), or the only winning move (o), in games of 20+ moves."""
    out = []
    for moves, score, cols in load_positions():
        legal = [c for c, v in enumerate(cols) if v is not None]
        if len(moves) < 20:
            continue
        if kind == "b" and score > 0:
            out += [(moves, cols, c) for c in legal if cols[c] <= 0][:1]
        elif kind == "m" and score == 0:
            out += [(moves, cols, c) for c in legal if cols[c] < 0][:1]
        elif kind == "o" and score > 0 and len(legal) >= 2 and \
                sum(cols[c] > 0 for c in legal) == 1:
            out += [(moves, cols, c) for c in legal if cols[c] > 0]
    return sample(out, n, seed=17)


@pytest.mark.parametrize("kind, mark", [("b", BLUNDER), ("m", MISTAKE), ("o", ONLY_MOVE)])
def test_last_move_against_the_test_data(solver, kind, mark):
    for moves, cols, col in _cases(kind, 3):
        game = [int(ch) - 1 for ch in moves] + [col]
        seen = []
        r = Reviewer(solver).review(game, lambda d, t, ply, v, seen=seen: seen.append((d, t, ply)))
        last = r.plies[-1]
        assert last.values == tuple(cols), moves  # BitBully's scores of every column
        assert last.mark == mark, (moves, col)
        best = max(v for v in cols if v is not None)
        want = sorted((c for c, v in enumerate(cols) if v is not None
                       and (v > 0) - (v < 0) == (best > 0) - (best < 0)),
                      key=lambda c: -cols[c]) if mark != ONLY_MOVE else []
        assert list(last.better) == want
        # every position solved once, the last first; the game's values hang together
        n = len(game) + (0 if Position.from_moves(moves + str(col + 1)).is_over else 1)
        assert [d for d, _, _ in seen] == list(range(1, n + 1))
        assert {t for _, t, _ in seen} == {n} and seen[0][2] == n - 1 and seen[-1][2] == 0
        for a, b in zip(r.plies, r.plies[1:], strict=False):
            assert a.after() == -b.before
        if r.end is not None:
            assert r.end == -last.after()


# (game, the move's ply, its mark): a kept win made 15 slower (c1 scores 3, d1 18), a
# four missed for a win a move slower (5. g2: a1 or e1 wins at once), a loss made 8
# shorter, a kept win made 2 slower (no mark)
INACCURATE_GAMES = [("36433", 4, INACCURACY), ("4433277", 6, INACCURACY),
                    ("5151", 3, INACCURACY), ("7512", 3, "")]


@pytest.mark.parametrize("game, ply, mark", INACCURATE_GAMES)
def test_inaccuracies_in_games(solver, game, ply, mark):
    r = Reviewer(solver).review([int(ch) - 1 for ch in game])
    m = r.plies[ply]
    assert m.mark == mark, (m.values, m.column)
    assert m.after() > 0 if m.before > 0 else m.after() < 0  # the result kept
    if mark:
        assert m.better and all(m.after(c) == m.before for c in m.better)
        assert m.accuracy < 100
    # with N = 20 only the missed four is still marked
    again = Reviewer(solver, inaccuracy=20).review([int(ch) - 1 for ch in game]).plies[ply]
    assert again.mark == (INACCURACY if game == "4433277" else "")


def test_game_accuracy_of_a_review(solver):
    # 1. c1?? (White throws the win away) d1 2. d2 d3: White's accuracy is low, Black's
    # every move kept the draw: 100
    r = Reviewer(solver).review([2, 3, 3, 3])
    assert r.plies[0].accuracy == pytest.approx(move_accuracy(win_percent(1), 50))
    white, black = r.accuracy(0), r.accuracy(1)
    assert black == 100 and white is not None and white < 50
    assert Reviewer(solver).review([3]).accuracy(1) is None


def test_stop_cancels_between_and_during_solves(solver):
    reviewer = Reviewer(solver)
    seen = []

    def progress(done, total, ply, values):
        seen.append(done)
        if done == 2:
            reviewer.stop()

    with pytest.raises(ReviewCancelled):
        reviewer.review([3, 3, 2, 4, 4, 4, 3], progress)
    assert seen == [1, 2]
    with pytest.raises(ReviewCancelled):  # a stopped reviewer stays stopped
        reviewer.review([3])
    assert Reviewer(solver).review([3]).plies[0].mark == ONLY_MOVE  # the solver goes on


def test_bad_games(solver):
    with pytest.raises(ValueError, match="no moves"):
        Reviewer(solver).review([])
    with pytest.raises(ValueError, match="move 7"):
        Reviewer(solver).review([3] * 7)


# ------------------------------------------------------------------ the command line
def _review(*args: str):
    r = runner.invoke(app, ["review", *args, "--threads", "1", "--hash", "16"])
    return r.exit_code, r.stdout, r.stderr


def test_cli_text(tmp_path):
    code, out, _ = _review("3444")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == "Perfect play from the start: White wins in 21."
    row = next(ln for ln in lines if ln.strip().startswith("1. c1"))
    assert row.split() == ["1.", "c1??", "White", "wins", "in", "21", "→", "draw", "11%",
                           "d1", "(White", "wins", "in", "20)"]
    assert "Black: accuracy 100.0%, 0 blunders (??), 0 mistakes (?), 0 inaccuracies (?!), " \
        "0 only moves (!)" in lines
    white = next(ln for ln in lines if ln.startswith("White: accuracy "))
    assert white.endswith("%, 1 blunder (??), 0 mistakes (?), 0 inaccuracies (?!), "
                          "0 only moves (!)")
    assert any(ln.startswith("Game unfinished after 4 moves:") for ln in lines)
    # a game file gives the same rows, its players named
    f = tmp_path / "g.c4g"
    f.write_text('[White "Ann"]\n[Black "Bob"]\n\n1. c1 d1 2. d2 d3 *\n')
    code, out2, _ = _review(str(f))
    assert code == 0
    assert out2.splitlines()[0] == "Ann (White) - Bob (Black)"
    assert [ln for ln in out2.splitlines() if "→" in ln] == [ln for ln in lines if "→" in ln]


def test_cli_json():
    code, out, _ = _review("d1 d2 e1", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["moves"] == "445" and data["start"]["score"] == 1
    assert [p["move"] for p in data["plies"]] == ["d1", "d2", "e1"]
    assert data["plies"][0]["mark"] == "!" and data["plies"][0]["values"][3] == 1
    assert data["inaccuracy_moves"] == 4
    for side in ("White", "Black"):
        marks = [p["mark"] for p in data["plies"] if p["player"] == side]
        summary = data["summary"][side]
        assert 0 <= summary.pop("accuracy") <= 100
        assert summary == {"blunders": marks.count("??"), "mistakes": marks.count("?"),
                           "inaccuracies": marks.count("?!"), "only_moves": marks.count("!")}
    for p in data["plies"]:  # a mistake names its better moves, with their scores
        assert bool(p["better"]) == (p["mark"] in ("?", "??", "?!"))
        assert p["accuracy"] == (100 if p["after"] == p["before"] else pytest.approx(
            move_accuracy(win_percent(p["before"]), win_percent(p["after"])), abs=0.05))
        assert all(b["score"] == p["values"][b["column"] - 1] for b in p["better"])
    assert data["result"] == "*" and data["end"]["score"] == -data["plies"][2]["after"]


def test_cli_inaccuracy_option():
    # 4. g2?!: a1 and e1 win at once; the mark in the text and the JSON, and per side
    code, out, _ = _review("4433277")
    assert code == 0
    row = next(ln for ln in out.splitlines() if ln.strip().startswith("4. g2"))
    assert row.split()[1] == "g2?!"
    assert "a1 (White has won), e1 (White has won)" in row
    assert "1 inaccuracy (?!)" in next(ln for ln in out.splitlines() if ln.startswith("White:"))
    # --inaccuracy N: 36433's 3. c1 keeps the win 15 moves slower: marked up to N = 15
    for n, mark in (("15", "?!"), ("16", "")):
        code, out, _ = _review("36433", "--json", "--inaccuracy", n)
        data = json.loads(out)
        assert code == 0 and data["inaccuracy_moves"] == int(n)
        assert data["plies"][4]["mark"] == mark


@pytest.mark.parametrize("args, message", [
    (["44", "--inaccuracy", "0"], "--inaccuracy 0: out of range (1 to 42)"),
    (["44", "--summary"], "--summary takes one folder of games"),
    (["4444444"], "move 7"),
    (["d1 d1"], "move 2 'd1'"),
    (["nothere.c4g"], "nothere.c4g: no such file"),
    ([""], "no moves to review"),
])
def test_cli_bad_input(args, message):
    code, out, err = _review(*args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err and err.startswith("c4tui:")


def test_cli_bad_file(tmp_path):
    f = tmp_path / "bad.c4g"
    f.write_text("1. d1 d2 2. d3 d4 3. d5 d6 4. d7\n")
    code, _, err = _review(str(f))
    assert code == 2 and "line 1" in err and "move 7 'd7'" in err


# --------------------------------------------------------------- a folder of games
def _folder(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / "a.c4g").write_text('[White "Ann"]\n[Black "Bob"]\n\n'
                                 "1. d1 d2 2. c1 c2 3. b1 g1 4. g2 *\n")
    (games / "b.c4g").write_text('[White "Bob"]\n\n1. c1 d1 2. d2 d3 *\n')  # Black: "?"
    (games / "bad.c4g").write_text("1. d1 d2 2. d3 d4 3. d5 d6 4. d7\n")
    (games / "empty.c4g").write_text('[White "Ann"]\n\n*\n')
    return games


def test_cli_summary(tmp_path):
    games = _folder(tmp_path)
    code, out, err = _review(str(games), "--summary")
    assert code == 0, err
    # each bad file skipped with one line; the rest reviewed, counted per player
    skipped = err.strip().splitlines()
    assert len(skipped) == 2 and all(ln.endswith(": skipped") for ln in skipped)
    assert "bad.c4g: line 1: move 7 'd7'" in skipped[0] and "empty.c4g: no moves" in skipped[1]
    lines = out.splitlines()
    assert lines[0] == "2 of 4 game files reviewed, 2 skipped."
    assert lines[1].split() == ["player", "games", "accuracy", "blunders", "mistakes",
                                "inaccuracies"]
    rows = {ln.split()[0]: ln.split()[1:] for ln in lines[2:5]}
    assert [ln.split()[0] for ln in lines[2:5]] == ["Bob", "?", "Ann"]  # most games first
    assert rows["Bob"][0] == "2" and rows["Ann"][0] == "1" and rows["?"][0] == "1"
    # Ann: 2. c1?? and 4. g2?! (a four missed); Bob: 2... c2?? as Black, 1. c1?? as White
    assert rows["Ann"][2:] == ["1", "0", "1"] and rows["Bob"][2:] == ["2", "0", "0"]
    assert rows["?"][1:] == ["100.0%", "0", "0", "0"]
    # the JSON: the same counts, Bob's accuracy the mean of his two games'
    code, out, _ = _review(str(games), "--summary", "--json")
    data = json.loads(out)
    assert code == 0 and (data["files"], data["reviewed"], data["skipped"]) == (4, 2, 2)
    assert not data["interrupted"] and list(data["players"]) == ["Bob", "?", "Ann"]
    ann = data["players"]["Ann"]
    assert (ann["games"], ann["blunders"], ann["inaccuracies"], ann["only_moves"]) == (1, 1, 1, 1)
    b1 = json.loads(_review(str(games / "a.c4g"), "--json")[1])["summary"]["Black"]["accuracy"]
    b2 = json.loads(_review(str(games / "b.c4g"), "--json")[1])["summary"]["White"]["accuracy"]
    assert data["players"]["Bob"]["accuracy"] == pytest.approx((b1 + b2) / 2, abs=0.06)


def test_cli_folder_needs_summary(tmp_path):
    games = _folder(tmp_path)
    code, out, err = _review(str(games))
    assert code == 2 and out == "" and err.strip().endswith("is a folder: --summary reviews "
                                                            "its games")
    (tmp_path / "none").mkdir()
    code, out, err = _review(str(tmp_path / "none"), "--summary")
    assert code == 2 and "no game files" in err
