"""Drawing: the main screen's panels set from one :class:`Frame`, a record of the state.

:func:`render` is a pure function of its frame: it only sets the panels' reactive
attributes (a panel given an equal value does not redraw), never tells the engine or a
controller anything. The side effects of a change (the engine told of a new position, a
review cancelled) happen before, in ``C4App.position_changed``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from textual.screen import Screen

from c4tui.engine.board.position import Position
from c4tui.gamefile.tree import Node
from c4tui.review.game import MoveReview

from .bridge.engine_view import EngineView, ExactEntry, ExactStatus
from .bridge.eval_history import EvalHistory
from .controllers import PlayControl, Preview, ReviewControl
from .session.model import GameModel
from .widgets import (
    AnalysisPanel,
    BoardView,
    EvalGraph,
    MoveList,
    SearchLog,
    SearchPath,
    StatusLine,
    ThreatPanel,
)
from .widgets.board import BestMove


@dataclass(frozen=True)
class Frame:
    """Everything the main screen shows, at one instant."""

    position: Position  #: the viewed position (a copy)
    root: Node
    line_path: tuple[int, ...]
    view: EngineView
    hints: bool
    marks: dict[int, str]  #: the review's marks of the current line (none: hints off)
    review: MoveReview | None  #: the review of the move that led here
    graph: tuple[float | None, ...]
    graph_exact: tuple[bool, ...]
    preview: Preview | None
    play_status: str
    review_status: str


def engine_view(bridge_view: EngineView, review: ReviewControl, pos: Position) -> EngineView:
    """The engine's view of ``pos``, with the review's exact values where the exact
    worker has none (it may have given up on the position)."""
    reviewed = review.values(pos)
    exact = bridge_view.exact
    if reviewed is not None and (exact is None or exact.status is not ExactStatus.DONE):
        return dataclasses.replace(bridge_view, exact=ExactEntry(ExactStatus.DONE, reviewed))
    return bridge_view


def best_move(view: EngineView, pos: Position) -> BestMove | None:
    """The engine's best move in ``pos``: every column of the best exact value once the
    solver has them, else the analysis search's move (None: neither yet, or game over)."""
    if pos.is_over:
        return None
    if view.exact_shown:
        assert view.exact is not None
        scores, top = view.exact.scores, view.exact.best
        return BestMove(tuple(c for c, s in enumerate(scores) if s == top), "exact")
    snap = view.snapshot
    if snap is not None and snap.best_move is not None and pos.can_play(snap.best_move):
        return BestMove((snap.best_move,), "search")
    return None


def frame(model: GameModel, view: EngineView, play: PlayControl, review: ReviewControl,
          evals: EvalHistory, preview: Preview | None) -> Frame:
    """The frame of the state as it is now."""
    pos, line = model.position, model.line
    hints = play.hints
    return Frame(
        position=pos.copy(), root=model.root, line_path=model.line_path, view=view,
        hints=hints, marks=review.marks(tuple(line)) if hints else {},
        review=review.move(tuple(line), pos.ply), graph=evals.line(line),
        graph_exact=evals.exact_line(line), preview=preview, play_status=play.status(),
        review_status=review.progress())


def render(screen: Screen, f: Frame) -> None:
    """Set every panel of the main ``screen`` from ``f``."""
    pos, view, hints = f.position, f.view, f.hints
    board = screen.query_one(BoardView)
    if board.position != pos or board.position.history != pos.history:  # (it redraws
        # on every assignment; equal positions may differ in their last move)
        board.position = pos
    exact = view.exact
    # exact where solved, else approximate values agreeing with what is known
    board.values = view.values() if hints else ()
    board.solving = hints and exact is not None and exact.status is ExactStatus.SOLVING
    board.best = best_move(view, pos) if hints else None
    moves = screen.query_one(MoveList)
    moves.root, moves.line_path, moves.ply = f.root, f.line_path, pos.ply
    moves.marks = f.marks
    graph = screen.query_one(EvalGraph)
    graph.values, graph.ply, graph.exact = f.graph, pos.ply, f.graph_exact
    analysis = screen.query_one(AnalysisPanel)
    analysis.position, analysis.view, analysis.cursor = pos, view, board.cursor
    draw_preview(screen, f.preview)
    analysis.review = f.review
    log = screen.query_one(SearchLog)
    log.position, log.snapshot = pos, view.snapshot
    path = screen.query_one(SearchPath)
    path.position, path.path = pos, view.path if hints else ()
    graph.hidden = log.hidden = not hints
    analysis.hints = hints
    threats = screen.query_one(ThreatPanel)
    threats.position, threats.verdict, threats.engine = pos, view.verdict, view.state
    threats.exact = view.proven if hints else None  # (hidden hints: no result shown)
    # below 110 columns the log, the threats and the path do not fit side by side:
    # the path of a paused search then takes the threats' place
    threats.display = hints and (board.show_threats or threats.why is not None) \
        and (board.big or not view.path)  # (why: the why view, key w, set before this)
    status = screen.query_one(StatusLine)
    status.view, status.play, status.review = view, f.play_status, f.review_status


def draw_preview(screen: Screen, p: Preview | None) -> None:
    """The previewed line on the board (ghost discs, the subtitle) and highlighted in
    the analysis panel; None: none."""
    board = screen.query_one(BoardView)
    board.preview = p.moves if p is not None else ()
    # (the border's corners and the spaces around the subtitle take 6 cells)
    board.border_subtitle = p.title(board.size.width - 6) if p is not None else ""
    screen.query_one(AnalysisPanel).highlight = (p.source, p.shown) if p is not None else None
