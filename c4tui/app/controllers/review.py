"""The game review (``R``): started here, run by :class:`ReviewWorker`, its progress in
the status line, its summary said once, and cancelled when the game it reviews changes."""

from __future__ import annotations

from collections.abc import Callable

from c4tui.engine.board.position import PLAYER_NAMES, Position
from c4tui.engine.scores import result_words
from c4tui.review.accuracy import accuracy_text
from c4tui.review.game import INACCURACY_MOVES, MARKS, ONLY_MOVE, GameReview, MoveReview, Values

from ...report.text import plural
from ..bridge.engine_bridge import BridgeLike, EngineMissing
from ..bridge.eval_history import EvalHistory
from ..bridge.review_worker import ReviewJob, ReviewWorker
from ..session.model import GameModel
from .host import Host


class ReviewControl:
    """``on_update``: called from the review's thread when it has solved a position."""

    def __init__(self, model: GameModel, bridge: BridgeLike, host: Host,
                 hints: Callable[[], bool], on_update: Callable[[], None],
                 inaccuracy: int = INACCURACY_MOVES) -> None:
        """``inaccuracy``: the N of the ``?!`` marks (``c4tui --inaccuracy N``)."""
        self.model, self.bridge, self.host = model, bridge, host
        self._hints = hints
        self.worker = ReviewWorker(on_update=on_update, inaccuracy=inaccuracy)
        self._told = 0  # the serial of the last review whose end was said

    @property
    def job(self) -> ReviewJob | None:
        """The last review started (a copy: its progress at this instant)."""
        return self.worker.job

    def start(self) -> None:
        """``R``: review the whole game with the exact solver, in the background (R
        again: again)."""
        line = tuple(self.model.line)
        if not line:
            self.host.error("review: no moves to review")
            return
        if not self._hints():
            self.host.error("review: the hints are hidden (h shows them)")
            return
        try:
            engine = self.bridge.require_engine()
        except EngineMissing:
            self.host.error(f"review: {self.bridge.why_no_engine()}")
            return
        self.worker.start(line, engine.solver.book)
        self.host.say(f"reviewing the game's {plural(len(line), 'move')} with the exact solver")
        self.host.state_changed()

    def cancel(self) -> None:
        self.worker.cancel()

    def game_changed(self) -> None:
        """A review of a line no longer in the game (a new game, a move taken back or
        deleted) is cancelled (viewing another variation is not a change)."""
        job = self.worker.job
        if job is not None and job.running and not job.cancelled \
                and job.line != tuple(self.model.line) \
                and not self.model.root.has_line(job.line):
            self.worker.cancel()
            self.host.say("review cancelled: the game changed (R reviews it again)")

    def take_results(self, evals: EvalHistory) -> None:
        """Hand the positions solved since the last call to the graph's ``evals``; a
        finished review's summary (or error) is said once."""
        for solved, values in self.worker.take_fresh():
            evals.record_exact(solved, max(v for v in values if v is not None))
        job = self.worker.job
        if job is not None and not job.running and self._told != job.serial \
                and (job.result or job.error):
            self._told = job.serial
            if job.error:
                self.host.error(f"review: {job.error}")
            elif job.result is not None:
                self.host.say(review_summary(job.result))

    # ------------------------------------------------------------------ for the panels
    def progress(self) -> str:
        """The status line's review part: its progress while it runs, then each side's
        accuracy while the game is the one reviewed ("" otherwise)."""
        job = self.worker.job
        if job is None or job.cancelled:
            return ""
        if job.running:
            return f"review {job.done}/{job.total}"
        if job.result is None or job.line != tuple(self.model.line):
            return ""
        return "accuracy " + " ".join(f"{PLAYER_NAMES[p]} {_percent(job.result, p)}"
                                      for p in (0, 1))

    def values(self, pos: Position) -> Values | None:
        """``pos``'s exact column scores if the review solved it."""
        return self.worker.values(pos)

    def marks(self, line: tuple[int, ...]) -> dict[int, str]:
        return self.worker.marks(line)

    def move(self, line: tuple[int, ...], ply: int) -> MoveReview | None:
        """The review of the move that reached ``ply`` of ``line`` (None: the start, or
        not reviewed)."""
        return self.worker.moves(line)[ply - 1] if ply else None


def _percent(result: GameReview, player: int) -> str:
    return accuracy_text(result.accuracy(player))


def review_summary(result: GameReview) -> str:
    """``review done: White 93% 1?? 0? 2?! · Black 88% 0?? 2? 0?! · from the start:
    White wins in 21``: each side's accuracy and mistakes of each kind."""
    sides = " · ".join(
        f"{PLAYER_NAMES[p]} {_percent(result, p)} "
        + " ".join(f"{result.count(p, mark)}{mark}" for mark, _, _ in MARKS if mark != ONLY_MOVE)
        for p in (0, 1))
    return f"review done: {sides} · from the start: {result_words(result.start, 0)}"
