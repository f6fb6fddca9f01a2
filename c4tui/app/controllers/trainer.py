"""The puzzle trainer's state (key ``T``, screens/trainer.py): the puzzle shown, the
user's move judged, hints, the streak, and the SM-2 schedule saved after each answer.

No Textual here. A right move is judged at once (the puzzle names its one keeping move);
a wrong one is refuted by the exact solver: :meth:`TrainerControl.refute` is the
blocking part (the screen runs it in a worker thread), :meth:`TrainerControl.refuted`
shows its answer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from c4tui.engine.board.position import PLAYER_NAMES, Position
from c4tui.engine.scores import result_words
from c4tui.puzzles import starter_path
from c4tui.puzzles.progress import Progress, load_progress, save_progress
from c4tui.puzzles.puzzle import Puzzle, canonical_key
from c4tui.puzzles.puzzlefile import PuzzleFileError, read_puzzles
from c4tui.puzzles.sm2 import DIFFICULT, HESITANT, PERFECT, WRONG

if TYPE_CHECKING:
    from c4tui.engine.solver.solver import Solver

#: The SM-2 quality of a right answer after 0, 1 or 2 hints (a wrong one: WRONG).
QUALITY_AFTER_HINTS = (PERFECT, HESITANT, DIFFICULT)
REFUTE_HASH_MB = 16


class Phase(str, Enum):
    """Where the trainer is with the puzzle shown."""

    SOLVING = "solving"  #: waiting for the user's move
    SOLVED = "solved"  #: the right move was played
    REFUTING = "refuting"  #: a wrong move: the solver looks for the refutation
    REFUTED = "refuted"  #: the refutation is on the board
    EMPTY = "empty"  #: no puzzle to show (none due, or no puzzles)


@dataclass(frozen=True)
class Refutation:
    """The engine's answer to a wrong move: its reply (None: the game ended) and the
    exact result after the wrong move, in words."""

    reply: int | None
    words: str


class TrainerControl:
    """The trainer; ``path``: a puzzle file (default: the starter set), ``store``: where
    progress is saved (default: the user data directory), ``today``: the date (tests)."""

    def __init__(self, path: Path | None = None, store: Path | None = None,
                 today: Callable[[], date] = date.today) -> None:
        self.store, self.today = store, today
        self.notes: list[str] = []  #: warnings to show once (a bad line, an unusable store)
        self.puzzles: list[Puzzle] = []
        try:
            found = read_puzzles(path or starter_path())
            self.puzzles = found.puzzles
            self.notes += found.errors[:1]
        except PuzzleFileError as exc:
            self.notes.append(str(exc))
        self.keys = [canonical_key(p.position()) for p in self.puzzles]
        self.progress: Progress = load_progress(store)
        if self.progress.warning:
            self.notes.append(self.progress.warning)
        self.index: int | None = None
        self.phase = Phase.EMPTY
        self.hints = 0
        self.board = Position()  #: what the board shows
        self.message = ""
        self._solver: Solver | None = None
        self._lock = threading.Lock()
        self.next()

    @property
    def puzzle(self) -> Puzzle | None:
        return None if self.index is None else self.puzzles[self.index]

    @property
    def streak(self) -> int:
        return self.progress.streak

    def task(self) -> str:
        """``White to move and keep the win``."""
        p = self.puzzle
        if p is None:
            return "No puzzle due: come back tomorrow" if self.puzzles else "No puzzles"
        return f"{PLAYER_NAMES[p.side]} to move and keep the {p.result}"

    def hint_text(self) -> str:
        """The hints given so far: the theme, then the column."""
        p = self.puzzle
        if p is None or not self.hints:
            return ""
        text = f"theme: {p.theme}"
        return text + (f"; column {p.keep + 1}" if self.hints > 1 else "")

    # ------------------------------------------------------------------ the user's acts
    def next(self) -> None:
        """Show the next puzzle by the schedule (progress.py's order)."""
        self.index = self.progress.pick(self.puzzles, self.keys, self.today())
        self.hints = 0
        p = self.puzzle
        self.phase = Phase.EMPTY if p is None else Phase.SOLVING
        self.board = Position() if p is None else p.position()
        self.message = "" if p is None or self.index is None else (
            f"puzzle {self.index + 1} of {len(self.puzzles)}, difficulty {p.difficulty}/10")

    def hint(self) -> bool:
        """One more hint (the theme, then the column); False when there is none left."""
        if self.phase is not Phase.SOLVING or self.hints >= 2:
            return False
        self.hints += 1
        return True

    def play(self, col: int) -> bool:
        """The user's move: True when a wrong one needs :meth:`refute` (in a thread)."""
        p = self.puzzle
        if p is None or self.phase is not Phase.SOLVING:
            self.message = "press n for the next puzzle" if p else self.task()
            return False
        if not self.board.can_play(col):
            self.message = f"column {col + 1} is full"
            return False
        square = self.board.landing_square(col)
        self.board = self.board.copy()
        self.board.play(col)
        if col == p.keep:
            self._answer(QUALITY_AFTER_HINTS[self.hints])
            self.phase = Phase.SOLVED
            self.message = f"Solved: {square} keeps the {p.result} ({p.theme})"
            return False
        self._answer(WRONG)
        self.phase = Phase.REFUTING
        self.message = "Wrong: the engine looks for the refutation..."
        return True

    def refute(self) -> Refutation:
        """The exact solver's answer to the wrong move on the board (blocking: a worker
        thread's job)."""
        pos = self.board.copy()
        if pos.is_over:
            return Refutation(None, "draw" if pos.is_draw else "the game is over")
        with self._lock:
            if self._solver is None:
                from c4tui.book import load_default
                from c4tui.engine.solver.solver import Solver

                self._solver = Solver(REFUTE_HASH_MB, book=load_default())
            res = self._solver.solve(pos)
        reply = pos.winning_move()
        return Refutation(res.best_move if reply is None else reply,
                          result_words(res.score, pos.ply))

    def refuted(self, r: Refutation, board: Position) -> None:
        """Show the refutation ``r`` of the wrong move that led to ``board``."""
        p = self.puzzle
        if self.phase is not Phase.REFUTING or p is None or board.history != self.board.history:
            return  # the user moved on meanwhile
        after = board.copy()
        reply = ""
        if r.reply is not None:
            reply = f"{PLAYER_NAMES[after.to_move]} replies {after.landing_square(r.reply)}; "
            after.play(r.reply)
        keep = p.position().landing_square(p.keep)
        self.board = after
        self.phase = Phase.REFUTED
        self.message = f"Wrong: {reply}{r.words} with perfect play (the {p.result} was {keep})"

    def _answer(self, quality: int) -> None:
        p = self.puzzle
        assert p is not None and self.index is not None
        self.progress.record(self.keys[self.index], quality, self.today())
        warning = save_progress(self.progress, self.store)
        if warning:
            self.notes.append(warning)

    def take_notes(self) -> list[str]:
        """The warnings not shown yet."""
        notes, self.notes = self.notes, []
        return notes
