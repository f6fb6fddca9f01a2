"""The app's layout on large boards (issue 28): which terminal each board needs, and what a
user sees when the terminal is smaller: one plain line in place of the panels, never a
board cut off. The app runs without the engine (no kernels are compiled), one subprocess
per board size (tests/wide_layout_probe.py), a second or two each."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from c4tui.app.widgets.board_size import board_box, terminal_needed

PROBE = Path(__file__).with_name("wide_layout_probe.py")


def probe(size: str, *terminals: str) -> list[dict]:
    """What the app on ``size`` shows at each terminal size, in turn (a column is played
    at each with the board's keys)."""
    env = dict(os.environ, C4TUI_SIZE=size)
    out = subprocess.run([sys.executable, str(PROBE), *terminals], env=env, cwd=PROBE.parent,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return [json.loads(line) for line in out.stdout.splitlines()]


#: (board, the terminal it needs: with the small board, with the big one). The app draws
#: the big board from 110x36 on where it fits (16x7's is 102 columns wide: from 140).
NEEDS = {
    "7x6": ((80, 24), (86, 30)),
    "8x7": ((80, 24), (92, 30)),
    "9x6": ((80, 24), (98, 30)),
    "8x8": ((80, 24), (92, 31)),
    "9x9": ((80, 24), (98, 33)),
    "10x6": ((84, 24), (104, 30)),
    "10x10": ((85, 25), (105, 35)),
    "4x10": ((80, 25), (80, 35)),
    "12x4": ((92, 24), (116, 30)),
    "16x7": ((108, 24), (140, 30)),
    "25x4": ((144, 24), (194, 30)),
    "4x31": ((80, 46), (80, 77)),
}


@pytest.mark.parametrize("size", sorted(NEEDS))
def test_terminal_needed(size: str) -> None:
    """80x24 up to 9 columns and 9 rows (8x8 and 9x9 fit as 7x6 does); 10x10 needs 85x25:
    the board's box, the side column's 38 columns, 7x6's 14-line board row (20 big) and 10
    lines below it."""
    w, h = (int(n) for n in size.split("x"))
    small, big = NEEDS[size]
    assert terminal_needed(False, w, h) == small
    assert terminal_needed(True, w, h) == big
    bw, bh = board_box(False, w, h)
    assert small[0] >= bw + 38 and small[1] >= max(bh, 14) + 10


def _board_shown(text: str, w: int, h: int) -> bool:
    """The whole board is on the screen: its column letters and every row label."""
    cells = [line.split("│")[1].split() for line in text.splitlines()
             if line.startswith("│") and line.count("│") >= 2]
    letters = list("abcdefghijklmnopqrstuvwxy"[:w])
    rows = [c[0] for c in cells if c and len(c) == w + 1]
    return letters in cells and all(str(r) in rows for r in range(1, h + 1))


@pytest.mark.slow
def test_8x8_fits_80x24_and_100x30() -> None:
    """Little Golem's 8x8 board: whole at 80x24 and at 100x30, with the usual panels (the
    side column's analysis and moves boxes whole, the search log), its keys playing."""
    for seen in probe("8x8", "80x24", "100x30"):
        where = seen["terminal"]
        assert not seen["too_small"] and "needs a terminal" not in seen["text"], where
        assert seen["board_whole"] and seen["board_box"] == [38, 14], seen
        assert _board_shown(seen["text"], 8, 8), seen["text"]
        assert seen["side_width"] >= 38 and seen["moves_box"] >= 3 and seen["log_whole"]
        assert seen["played"] == 1 and seen["focused"] == "board"
    assert seen["side_width"] == 100 - 38


@pytest.mark.slow
def test_10x10_says_it_needs_a_larger_terminal() -> None:
    """10x10 at 80x24: one line in place of the panels, naming the terminal it needs and
    this one's size (no cut board); at 85x25 the layout is whole; one column less and the
    line is back."""
    small, fits, narrow = probe("10x10", "80x24", "85x25", "84x25")
    assert small["too_small"] and not small["board_whole"]
    said = [line.strip() for line in small["text"].splitlines()[:-2] if line.strip()]
    assert said == ["the 10x10 board needs a terminal of at least 85x25; this one is 80x24"]
    assert "·" not in small["text"] and "╭" not in small["text"]  # no board, no panels
    status, keys = small["text"].splitlines()[-2:]
    assert "engine off" in status and "q quit" in keys  # the status line and keys stay
    assert not fits["too_small"] and fits["board_whole"] and fits["log_whole"]
    assert _board_shown(fits["text"], 10, 10) and fits["moves_box"] >= 3
    assert fits["side_width"] == 38 and fits["focused"] == "board" and fits["played"] == 1
    assert narrow["too_small"]
    assert "this one is 84x25" in narrow["text"]


@pytest.mark.slow
def test_the_big_board_only_where_it_fits() -> None:
    """16x7 (128 bits): at 110x36 the big board would be 102 columns wide: the small one
    stays, whole; at 140x36 the big one fits; at 80x24 the one line."""
    small, normal, big = probe("16x7", "80x24", "110x36", "140x36")
    assert small["too_small"]
    assert ("the 16x7 board needs a terminal of at least 108x24; this one is 80x24"
            in small["text"])
    assert not normal["big"] and normal["board_whole"] and normal["board_box"] == [70, 14]
    assert _board_shown(normal["text"], 16, 7)
    assert big["big"] and big["board_whole"] and big["side_width"] >= 38
