"""The search behind ``go`` when the ``Level`` option is set (1-10): a level's move.

The exact solver (with the books, if ``OwnBook``) scores every column, and the level
chooses among them (:mod:`c4tui.engine.levels`), seeded by the game's seed and the
position. ``depth``/``nodes`` do not bound it; a time limit or ``stop`` cuts the scoring
short and the move then comes from the exact job's short analysis search, as with
``Exact``. One ``info`` line: the chosen column's exact score.
"""

from __future__ import annotations

from c4tui.engine.board.position import Position
from c4tui.engine.levels import Level, move_rng, play
from c4tui.engine.seam import Band, Limits, Score, SearchAborted

from .jobs import Emit, ExactJob, Resources, info_line, score_words


class LevelJob(ExactJob):
    """A level's move (see the module docstring); ``seed``: the game's."""

    def __init__(self, pos: Position, limits: Limits, res: Resources, emit: Emit, *,
                 level: Level, seed: int) -> None:
        super().__init__(pos, limits, res, emit)
        self.level, self.seed = level, seed

    def _search(self) -> None:
        solver = self._solver = self.res.solver()
        if self._expired():
            self._fallback()
            return
        try:
            scored = solver.analyze(self.pos)
        except SearchAborted:
            self._fallback()
            return
        col = play(self.pos, self.level.number, scored.scores,
                   move_rng(self.seed, self.pos.key()))
        self.best = col
        score = scored.scores[col]
        assert score is not None  # play plays a legal column
        self.emit(f"info string level {self.level.number}")
        self.emit(info_line(depth=1, seldepth=1,
                            score=score_words(Score(score, Band.EXACT), self.pos.ply),
                            nodes=scored.nodes, elapsed=self._elapsed(),
                            hashfull=solver.hashfull(), pv=[self.pos.landing_square(col)]))
