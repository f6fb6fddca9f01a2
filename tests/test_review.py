"""Whole-game review (c4tui/review.py and ``c4tui review``): marks, better moves, values
checked against the scored test data, cancellation, the command line."""

from __future__ import annotations

import json

import pytest
from c4tui.engine.position import Position
from c4tui.engine.scores import result_words
from testdata import load_positions, sample
from typer.testing import CliRunner

from c4tui.cli import app
from c4tui.review import (
    BLUNDER,
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
    from c4tui.engine.solver import Solver

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
    assert judge((-1, -3, -2, -5, -5, -5, -5), 3, 10) == ("", ())
    # the only winning move; not when it is the only legal move or a four at once
    assert judge((-2, 4, 0, -1, None, None, None), 1, 10) == (ONLY_MOVE, ())
    assert judge((None, 4, None, None, None, None, None), 1, 10) == ("", ())
    win_now = (43 - 10) // 2  # a four with this disc at ply 10
    assert judge((-2, win_now, 0, -1, 0, 0, 0), 1, 10) == ("", ())


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
    assert row.split() == ["1.", "c1??", "White", "wins", "in", "21", "→", "draw", "d1",
                           "(White", "wins", "in", "20)"]
    assert "White: 1 blunder (??), 0 mistakes (?), 0 only moves (!)" in lines
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
    for side in ("White", "Black"):
        marks = [p["mark"] for p in data["plies"] if p["player"] == side]
        assert data["summary"][side] == {"blunders": marks.count("??"),
                                         "mistakes": marks.count("?"),
                                         "only_moves": marks.count("!")}
    for p in data["plies"]:  # a mistake names its better moves, with their scores
        assert bool(p["better"]) == (p["mark"] in ("?", "??"))
        assert all(b["score"] == p["values"][b["column"] - 1] for b in p["better"])
    assert data["result"] == "*" and data["end"]["score"] == -data["plies"][2]["after"]


@pytest.mark.parametrize("args, message", [
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
