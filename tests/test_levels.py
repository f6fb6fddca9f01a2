"""Strength levels 1-10 (c4tui.engine.levels): legal, seeded moves; level 10 is perfect
play; level 1 misses a threat now and then; the ladder's ends in real games; the strength
vocabulary (``5``, ``L5``, ``level 5``, ``perfect``, node limits: ``100k``, ``2M``)."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import pytest
from c4tui.engine.board.position import Position
from c4tui.engine.levels import (
    LEVELS,
    PERFECT_LEVEL,
    best_among_ties,
    choose,
    level,
    move_rng,
    play,
    plies_to_end,
)
from c4tui.engine.scores import score_for_moves
from testdata import load_positions, sample

from c4tui.units import Strength, UnitError, parse_level, parse_strength

ROWS = load_positions()


# ------------------------------------------------------------------ the choice


def test_every_level_plays_a_legal_column():
    for moves, _, scores in sample(ROWS, 150, seed=1):
        pos = Position.from_moves(moves)
        for lvl in LEVELS:
            col = choose(lvl, scores, pos.ply, move_rng(7, pos.key()))
            assert pos.can_play(col) and scores[col] is not None, (moves, lvl)


def test_level_10_is_perfect_play_on_the_test_positions():
    top = level(PERFECT_LEVEL)
    for moves, score, scores in ROWS:
        ply = len(moves)
        for seed in (1, 2):
            col = choose(top, scores, ply, move_rng(seed, int(moves)))
            assert scores[col] == score, (moves, col, scores)


def test_a_seed_replays_its_moves_and_seeds_vary_them():
    lvl = level(4)
    rows = sample(ROWS, 60, seed=2)
    first = [choose(lvl, s, len(m), move_rng(11, int(m))) for m, _, s in rows]
    again = [choose(lvl, s, len(m), move_rng(11, int(m))) for m, _, s in rows]
    other = [choose(lvl, s, len(m), move_rng(12, int(m))) for m, _, s in rows]
    assert first == again
    assert first != other


def test_best_among_ties_prefer_the_fastest_win_then_the_centre():
    assert best_among_ties((None, 3, 5, -2, 5, 0, 1)) == [2, 4]  # centre first (d c e b f a g)
    assert best_among_ties((-8, -3, None, -5, -3, -4, -9)) == [4, 1]  # the slowest loss
    assert best_among_ties((0, 0, 0, 0, 0, 0, 0), among=[6, 0, 5]) == [5, 0, 6]  # its order
    assert best_among_ties((None,) * 7) == []


#: Level 1-10's move (0-based columns) with ``move_rng(1, key)`` on test positions,
#: recorded from the app's play mode and the UGI's level job before they shared ``play``
#: (issue 34): the one way to play at a strength must keep every game's moves.
RECORDED = {
    "1513312471137164352776647353": "6666666666",
    "3374435375326": "3333332233",
    "437723347656537351366517215267251": "3000555555",
    "5667252176675312571357732561314144326": "1111113333",
    "416165747575541417466735626322753": "0000033333",
    "145226346767552763167136": "6112222222",
    "2441": "2222221113",
}


def test_play_keeps_the_moves_recorded_before_it():
    scores = {m: s for m, _, s in ROWS}
    for moves, expected in RECORDED.items():
        pos = Position.from_moves(moves)
        got = "".join(str(play(pos, n, scores[moves], move_rng(1, pos.key())))
                      for n in range(1, PERFECT_LEVEL + 1))
        assert got == expected, moves


def test_play_without_a_generator_is_perfect_play_nearest_the_centre():
    pos = Position.from_moves("2441")
    scores = (0, -1, 1, 1, 1, None, 0)  # (made up) three best: c, d, e; d the centre
    assert play(pos, PERFECT_LEVEL, scores, None) == 3
    with pytest.raises(ValueError, match="needs a generator"):
        play(pos, 5, scores, None)
    with pytest.raises(ValueError, match="every column is full"):
        play(pos, PERFECT_LEVEL, (None,) * 7, None)


def _threatened(ply: int) -> list[int | None]:
    """The side to move must play column 3 (d): anything else loses to the opponent's
    four at once; column 3 leads to a game too long to see."""
    return [score_for_moves(-1, ply)] * 3 + [0] + [score_for_moves(-1, ply)] * 3


def _misses(number: int, trials: int = 600) -> float:
    ply = 9
    picks = [choose(level(number), _threatened(ply), ply, random.Random(i))
             for i in range(trials)]
    return sum(c != 3 for c in picks) / trials


def test_level_1_sometimes_misses_a_threat_and_the_top_never():
    # blunder 0.25, then any of 7 columns: 6 / 7 of them miss
    assert 0.15 < _misses(1) < 0.30
    assert _misses(8) == _misses(10) == 0.0
    assert _misses(2) < _misses(1)


def test_a_seen_win_is_taken_and_the_quickest():
    ply = 20
    scores = [0, score_for_moves(3, ply), 0, score_for_moves(1, ply), 0, 0, None]
    def picks(number: int) -> set[int]:
        return {choose(level(number), scores, ply, random.Random(i)) for i in range(200)}

    assert picks(10) == {3}
    assert 3 in picks(3) and 6 not in picks(3)  # column g is full
    assert plies_to_end(score_for_moves(1, ply), ply) == 1
    assert plies_to_end(score_for_moves(-2, ply), ply) == 4
    assert plies_to_end(0, ply) is None


def test_levels_are_a_ladder():
    assert [lv.number for lv in LEVELS] == list(range(1, PERFECT_LEVEL + 1))
    for lower, upper in itertools.pairwise(LEVELS):
        assert upper.horizon >= lower.horizon
        assert upper.temperature < lower.temperature
        assert upper.blunder <= lower.blunder
    with pytest.raises(ValueError, match="out of range"):
        level(11)


# ------------------------------------------------------------------ real games


def _engine(number: int) -> str:
    return f"{sys.executable} -m c4tui engine --level {number}"


def test_level_10_beats_level_1_in_a_short_match():
    """Through the UGI, as ``c4tui match`` measures a level (README's command)."""
    out = subprocess.run(
        [sys.executable, "-m", "c4tui", "match", _engine(10), _engine(1), "--games", "6",
         "--seed", "3", "--json"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout.splitlines()[-1])
    assert summary["event"] == "summary" and summary["games"] == 6
    assert (summary["wins"], summary["losses"]) == (6, 0), out.stdout


# ------------------------------------------------------------------ words


@pytest.mark.parametrize("text, strength", [
    ("perfect", Strength()), (" Perfect ", Strength(level=10)), ("10", Strength()),
    ("5", Strength(level=5)), ("L5", Strength(level=5)), ("level 3", Strength(level=3)),
    ("1", Strength(level=1)), ("11", Strength.of_nodes(11)),
    ("100k", Strength.of_nodes(100_000)),
    ("010", Strength()), ("05", Strength(level=5)),  # (not "out of range (11 to ...)")
])
def test_strength_words(text, strength):
    assert parse_strength(text, "--strength") == strength


def test_strength_names():
    assert [str(Strength(level=5)), str(Strength()), str(Strength.of_nodes(10_000))] == \
        ["level 5", "perfect", "10k nodes"]
    assert [Strength(level=5).typed, Strength().typed, Strength.of_nodes(2500).typed] == \
        ["5", "perfect", "2,500"]


@pytest.mark.parametrize("text, message", [
    ("0", "strength: 0 is out of range (1 to 10)"),
    ("level 11", "strength: level 11 is out of range (1 to 10)"),
    ("L", "strength: 'L' is neither perfect, a level (1 to 10) nor a node count"),
    ("strong", "strength: 'strong' is neither perfect, a level (1 to 10) nor a node count"),
])
def test_bad_strengths_say_why(text, message):
    with pytest.raises(UnitError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_strength(text, "strength")


def test_level_words():
    assert parse_level("level 7", "--level") == 7
    with pytest.raises(UnitError, match="'x' is not a level"):
        parse_level("x", "--level")


# ------------------------------------------------------------------ the UGI and the CLI


def test_ugi_level_option_and_its_errors():
    from ugi_client import UgiProcess, start_engine

    with UgiProcess() as eng:
        lines = eng.ask("ugi", "ugiok", timeout=60)
        assert "option name Level type spin default 0 min 0 max 10" in lines
    eng = start_engine({"Level": "3"})
    try:
        eng.send("setoption name Level value 11")
        eng.send("setoption name Level value x")
        eng.send("position startpos moves d1 d2 d3 e1 d4")  # Black must answer d5
        move, lines = eng.bestmove("go nodes 1000")
        assert "info string error: setoption: option Level 11: out of range (0 to 10)" in lines
        assert "info string error: setoption: option Level 'x': not a whole number" in lines
        assert "info string level 3" in lines
        assert move in {f"{c}{Position.from_algebraic('d1 d2 d3 e1 d4').height(i) + 1}"
                        for i, c in enumerate("abcdefg")}
    finally:
        eng.__exit__()


@pytest.mark.parametrize("value, line", [
    ("12", "c4tui: --level 12: out of range (1 to 10)\n"),
    ("x", "c4tui: --level 'x': not a level (1 to 10)\n"),
])
def test_engine_level_bad_value_is_one_line(value, line):
    out = subprocess.run([sys.executable, "-m", "c4tui", "engine", "--level", value],
                         capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert (out.returncode, out.stdout, out.stderr) == (2, "", line)
