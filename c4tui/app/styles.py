"""Colours and glyphs shared by the panels.

Each player has its own glyphs as well as its own colour, so every panel reads without
colour too (NO_COLOR, monochrome terminals, tmux capture-pane): White's discs are solid,
Black's hollow; a threat carries its owner's mark; Black's graph bars hang from the top.
"""

from __future__ import annotations

from c4tui.engine.seam import Band

DISC = ("●", "○")
LAST = ("◉", "◎")  # the last move played
FOUR = ("◆", "◇")  # a disc of the winning four
BIG = (("▄▄▄", "▀▀▀"), ("╭─╮", "╰─╯"))  # 2-line discs of the large board
GHOST = "◌"
THREAT_MARK = ("•", "∘")  # after a threat's letter: whose threat it is
PLAYER_STYLE = ("bold #f2c230", "bold #e5484d")  # White (first player) yellow, Black red
PLAYER_DIM = ("#8a7530", "#8a3a3c")
EMPTY_STYLE = "#555555"

WIN_STYLE = "bold #3fb950"
LOSS_STYLE = "bold #f85149"
DRAW_STYLE = "#9a9a9a"
HEUR_STYLE = "italic #79c0ff"


def score_style(sign: int, band: Band) -> str:
    """The colour of a value under the board: heuristic values are blue and italic."""
    if band is Band.HEURISTIC:
        return HEUR_STYLE
    return WIN_STYLE if sign > 0 else LOSS_STYLE if sign < 0 else DRAW_STYLE
