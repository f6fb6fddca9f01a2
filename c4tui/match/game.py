"""One game between two engines: the moves, the referee, and how the game ended.

We are the referee: the board is ours (:class:`Position`), a move is the square the disc
lands on (UGI), and an engine that crashes, runs out of time or plays an illegal move
loses the game on the spot, said in one line (:attr:`GameRecord.reason`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from c4tui.engine.board.position import PLAYER_NAMES, Position, parse_square, square_name
from c4tui.ugi.client import EngineGone, shorten

from .adjudicator import Adjudicator
from .openings import Opening
from .player import Player

#: How a game ended (the ``Termination`` header of its record).
NORMAL, ADJUDICATED, ILLEGAL, TIME, CRASH = (
    "normal", "adjudicated", "illegal move", "time forfeit", "crash")
RESULTS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}


@dataclass(frozen=True)
class GameRecord:
    """A finished game: who played White (``"A"`` or ``"B"``), every move from the empty
    board (the opening's first), the winner (0 White, 1 Black, None a draw), and how it
    ended (``termination``; ``reason`` in words, "" for a game played to its end)."""

    number: int
    pair: int
    opening: Opening
    white: str
    moves: tuple[int, ...]
    winner: int | None
    termination: str = NORMAL
    reason: str = ""

    @property
    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``."""
        return RESULTS[self.winner]

    @property
    def loser(self) -> str | None:
        """``"A"`` or ``"B"``, None for a draw."""
        if self.winner is None:
            return None
        return self.white if self.winner == 1 else ("B" if self.white == "A" else "A")

    def points(self, label: str) -> float:
        """What engine ``label`` (``"A"``/``"B"``) scored: 1, 0.5 or 0."""
        if self.winner is None:
            return 0.5
        return 1.0 if (self.winner == 0) == (label == self.white) else 0.0

    def position(self) -> Position:
        pos = Position()
        for col in self.moves:
            pos.play(col)
        return pos


def play_game(number: int, pair: int, opening: Opening, white: Player, black: Player,
              adjudicator: Adjudicator | None, stop: threading.Event) -> GameRecord | None:
    """Play one game from ``opening``; None if ``stop`` was set before it ended (the match
    is over: the game is dropped)."""
    pos = opening.position()

    def ended(winner: int | None, how: str = NORMAL, why: str = "") -> GameRecord:
        return GameRecord(number, pair, opening, white.label, tuple(pos.history), winner,
                          how, why)

    def forfeit(side: int, how: str, why: str) -> GameRecord:
        player = (white, black)[side]
        return ended(1 - side, how, f"{player.label} ({player.name}) as "
                     f"{PLAYER_NAMES[side]} lost: {why}")

    for side, player in enumerate((white, black)):
        try:
            player.new_game()
        except EngineGone as exc:
            return forfeit(side, TIME if player.timed_out else CRASH, str(exc))
    while not pos.is_over:
        if stop.is_set():
            return None
        verdict = adjudicator.verdict(pos) if adjudicator is not None else None
        if verdict is not None:
            return ended(verdict[0], ADJUDICATED, verdict[1])
        side = pos.to_move
        player = (white, black)[side]
        try:
            move = player.best_move(pos)
        except EngineGone as exc:
            return forfeit(side, TIME if player.timed_out else CRASH, str(exc))
        square = parse_square(move) if move else None
        if square is None or not pos.can_play(square[0]) or pos.height(square[0]) != square[1]:
            legal = " ".join(square_name(c, pos.height(c)) for c in pos.legal_moves())
            return forfeit(side, ILLEGAL, f"illegal move '{shorten(move, 12)}' after "
                           f"{len(pos.history)} moves (legal: {legal})")
        pos.play(square[0])
    return ended(pos.winner)
