"""c4tui match's output: the table redraws in place on a terminal, a game that did not end
on the board is said in one line above it, and the summary follows."""

from __future__ import annotations

import io
import re

from c4tui.match.game import CRASH, NORMAL, GameRecord
from c4tui.match.openings import Opening
from c4tui.match.runner import MatchState
from c4tui.match.sprt import Sprt
from c4tui.match.table import Output, status_line
from c4tui.match.tally import Tally

ERASE_LINE_UP = "\x1b[2K\x1b[1A\x1b[2K"  # rich's Live: rub out the last frame, line by line


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", text)


def test_the_live_table_redraws_in_place_and_ends_with_the_summary():
    out = io.StringIO()
    view = Output("live", {"A": "one", "B": "two"}, Sprt(0, 10), out)
    view.begin("A: one  vs  B: two")
    tally = Tally()
    games = [(1.0, NORMAL), (0.5, NORMAL), (0.0, CRASH)]
    for i, (points, how) in enumerate(games):
        tally.add(i // 2, points)
        white = "A" if i % 2 == 0 else "B"
        winner = None if points == 0.5 else (0 if (points == 1.0) == (white == "A") else 1)
        record = GameRecord(i + 1, i // 2, Opening((3, 3)), white, (3, 3, 2), winner, how,
                            "A (one) as White lost: exited (code 9)" if how == CRASH else "")
        view.game(record, MatchState(i + 1, 100, tally, 0.25))
    view.finish(MatchState(3, 100, tally, 0.25), 2.0)
    text = out.getvalue()
    # each new frame rubs out the last one (3 games), so does the line printed above it
    assert text.count(ERASE_LINE_UP) == 4
    frames = _plain(text).splitlines()
    assert frames[:2] == ["A: one  vs  B: two",
                          "SPRT: H0 Elo 0, H1 Elo 10, alpha 0.05, beta 0.05: LLR bounds "
                          "-2.94, +2.94"]
    crash = [x for x in frames if x.startswith("game ")]
    assert crash == ["game 3: A (one) - B (two) 0-1, opening 44, crash: A (one) as White "
                     "lost: exited (code 9)"]
    rows = [x.split() for x in frames if x.split()[:1] == ["3/100"] and "games" not in x]
    last_row = rows[-1]
    # games W D L score Elo interval (4 words) pairs (5) LLR
    assert last_row[:5] == ["3/100", "1", "1", "1", "50.0%"]
    assert last_row[-6:] == ["0", "0", "0", "1", "0", "+0.25"]  # a pair of 1.5 points
    assert frames[-3] == "match over after 2.0 s"
    assert frames[-1] == "  SPRT: no decision (the games ran out first)"


def test_plain_lines_when_not_a_terminal():
    out = io.StringIO()
    view = Output("plain", {"A": "one", "B": "two"}, None, out)
    view.begin("heading")
    tally = Tally()
    tally.add(0, 1.0)
    view.game(GameRecord(1, 0, Opening(()), "A", (3,), 0), MatchState(1, 2, tally))
    assert out.getvalue() == ("heading\ngame 1: A (one) - B (two) 1-0, opening -\n"
                              "  1/2 games  A: 1 W 0 D 0 L  100.0%  Elo +inf (95%: -inf to "
                              "+inf) over 1 game  pairs 0 0 0 0 0\n")
    assert "\x1b" not in out.getvalue()


def test_the_running_line_says_the_elo_is_over_the_complete_pairs_only():
    """Issue 36: ``60.0%  Elo +190.8`` read as a contradiction (60% is +70 Elo): the score
    counts all five games, the Elo the two complete pairs (3 of their 4 points)."""
    tally = Tally()
    for pair, points in ((0, 1.0), (0, 0.5), (1, 1.0), (1, 0.5), (2, 0.0)):
        tally.add(pair, points)
    line = status_line(MatchState(5, 100, tally), None)
    assert line.startswith("5/100 games  A: 2 W 2 D 1 L  60.0%  Elo +190.8 (95%: ")
    assert ") over 2 complete pairs  pairs 0 0 0 2 0" in line
    out = io.StringIO()
    view = Output("live", {"A": "one", "B": "two"}, None, out)
    view.begin("A: one  vs  B: two")
    view.game(GameRecord(5, 2, Opening((3,)), "A", (3, 3), 1), MatchState(5, 100, tally))
    header, row = [x.split() for x in _plain(out.getvalue()).splitlines()[-2:]]
    assert header[-3:] == ["Elo", "over", "pairs"]
    assert row[:6] == ["5/100", "2", "2", "1", "60.0%", "+190.8"] and "2 pairs" in " ".join(row)
