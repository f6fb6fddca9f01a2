"""The analysis panel: whose turn, the exact verdict, the search's verdict and its PV, and
the line behind the cursor column's value. The mouse on a move of a line previews it."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.board.geometry import COLUMN_NAMES
from c4tui.engine.board.position import PLAYER_NAMES, Position
from c4tui.engine.seam import Band, Score, Snapshot, Source
from c4tui.review.game import BLUNDER, INACCURACY, MISTAKE, ONLY_MOVE, MoveReview

from ...report.text import game_over_text
from ..bridge.engine_view import EngineState, EngineView, ExactStatus, line_ends
from ..bridge.external_run import ExternalIteration
from ..bridge.settings import SearchSettings
from ..messages import PreviewEnded, PreviewRequested
from ..styles import PLAYER_STYLE, score_style

LABEL = 8  #: the width of the labels (``search  ``): the lines' moves start after it


@dataclass(frozen=True)
class MoveSpan:
    """Where a line's move is drawn: row, columns [x0, x1), and what it previews."""

    row: int
    x0: int
    x1: int
    line: tuple[int, ...]
    upto: int  #: moves of ``line`` up to this one
    source: str

#: Review marks: bold (visible without colour too), coloured where there is colour.
MARK_STYLE = {BLUNDER: "bold red", MISTAKE: "bold yellow", INACCURACY: "bold cyan",
              ONLY_MOVE: "bold green"}


class AnalysisPanel(Widget):
    """The app sets ``position``, ``view``, ``hints`` (False: the verdicts are hidden,
    play mode) and ``review`` (the game review of the move that led here, None: not
    reviewed); four lines, each cut at the end, never in the middle of what matters
    (depth and best move come first)."""

    DEFAULT_CSS = """
    AnalysisPanel {
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    position: reactive[Position] = reactive(Position)
    view: reactive[EngineView] = reactive(
        lambda: EngineView(EngineState.LOADING, SearchSettings()))
    hints: reactive[bool] = reactive(True)
    review: reactive[MoveReview | None] = reactive(None)
    cursor: reactive[int] = reactive(3)  #: the board's cursor column: its line is shown
    #: the previewed move: (source, moves shown), reversed in its line
    highlight: reactive[tuple[str, int] | None] = reactive(None)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._spans: list[MoveSpan] = []
        self._hovered: MoveSpan | None = None
        self._grown: int | None = None  #: the rows multi-PV's lines took (None: none)

    # ------------------------------------------------------------------ the mouse
    def _span_at(self, x: int, y: int) -> MoveSpan | None:
        x, y = x - self.gutter.left, y - self.gutter.top
        return next((s for s in self._spans if s.row == y and s.x0 <= x < s.x1), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        span = self._span_at(event.x, event.y)
        if span == self._hovered:
            return
        self._hovered = span
        if span is None:
            self.post_message(PreviewEnded())
        else:
            self.post_message(PreviewRequested(span.line, span.upto, span.source))

    def on_leave(self, event: events.Leave) -> None:
        if self._hovered is not None:
            self._hovered = None
            self.post_message(PreviewEnded())

    def on_click(self, event: events.Click) -> None:
        """A click keeps the preview after the mouse leaves (escape ends it)."""
        span = self._span_at(event.x, event.y)
        if span is not None:
            self.post_message(PreviewRequested(span.line, span.upto, span.source, pin=True))

    # ------------------------------------------------------------------ drawing
    def _line(self, t: Text, line: tuple[int, ...], source: str, style: str = "") -> None:
        """Append ``line``'s moves (from the viewed position) as squares, each a span."""
        row = t.plain.count("\n")
        x = len(t.plain) - (t.plain.rfind("\n") + 1)
        hl = self.highlight
        for i, text in enumerate(self.position.line_squares(line)):
            if i:
                t.append(" ")
                x += 1
            lit = hl is not None and hl[0] == source and hl[1] == i + 1
            t.append(text, style="reverse" if lit else style)
            self._spans.append(MoveSpan(row, x, x + len(text), line, i + 1, source))
            x += len(text)

    def render(self) -> Text:
        pos, view = self.position, self.view
        self._spans = []
        t = Text(no_wrap=True, overflow="ellipsis")
        over = game_over_text(pos)
        if over:
            t.append("result  ", style="dim")
            t.append(over, style="bold")
        else:
            t.append("to move ", style="dim")
            t.append(PLAYER_NAMES[pos.to_move], style=PLAYER_STYLE[pos.to_move])
        t.append(f"  ply {pos.ply}", style="dim")
        if self.review is not None and self.hints:
            t.append_text(self._review_text(self.review))
        t.append("\n")
        if not self.hints:
            t.append("exact   hidden (h shows the hints)\nsearch  hidden", style="dim")
            return t
        t.append("exact   ", style="dim")
        room = self.size.width - LABEL if self.size.width else 0
        t.append_text(self._exact_line(pos, view, room) if not over else Text("-"))
        t.append("\nsearch  ", style="dim")
        snap = view.snapshot
        if over:
            t.append("-")
        elif snap is None:
            if view.search_available and not view.settings.auto:
                t.append("auto-analysis off: g analyses", style="dim")
            else:
                t.append(view.unavailable("search"), style="dim")
        else:
            self._search_lines(t, pos, snap)
        if not over:
            self._cursor_line(t, pos, view)
        return t

    def _cursor_line(self, t: Text, pos: Position, view: EngineView) -> None:
        """``col e  W3  e1 d3 c1 …``: the cursor column's value and the line behind it."""
        col = self.cursor
        name = COLUMN_NAMES[col]
        t.append("\n" + f"col {name}".ljust(LABEL), style="dim")
        if not pos.can_play(col):
            t.append("full", style="dim")
            return
        value = view.value(col)
        if value is None:  # none will come without an engine
            t.append("no value" if view.state is EngineState.NOT_AVAILABLE
                     else "no value yet", style="dim")
            return
        t.append(value.short(pos.ply), style=score_style(value.sign(), value.band))
        t.append(" ")
        line = view.line(col)
        self._line(t, line, f"col {name}")
        if view.exact_shown and view.lines_pending and not line_ends(pos, line):
            t.append(" …" if line else "finding the line…", style="dim italic")

    @staticmethod
    def _review_text(move: MoveReview) -> Text:
        """``  e5?? better c3 f1`` / ``  c4! only win`` / ``  d1 kept the win``: the
        better moves are where a disc lands."""
        t = Text("  ")
        t.append(move.square() + move.mark, style=MARK_STYLE.get(move.mark, "bold"))
        if move.better:
            t.append(" better " + " ".join(move.square(c) for c in move.better[:3]),
                     style="dim")
        elif move.mark == ONLY_MOVE:
            t.append(" only win", style="dim")
        else:
            t.append(" kept the win" if move.before > 0 else " kept the draw"
                     if move.before == 0 else " still lost", style="dim")
        return t

    @staticmethod
    def _exact_line(pos: Position, view: EngineView, room: int = 0) -> Text:
        """``best c f g · Black wins in 18``, in ``room`` cells (0: any): the verdict is
        never cut; many best moves are written closer (``cfg``), every move as ``any``."""
        exact = view.exact
        if exact is None:
            return Text(view.unavailable("solver"), style="dim")
        if exact.status is ExactStatus.SOLVING:
            return Text("solving…", style="italic")
        if exact.status is not ExactStatus.DONE or exact.best is None:
            return Text(f"{exact.status.value}: {exact.message}", style="dim")
        best = exact.best
        names = [COLUMN_NAMES[i] for i, s in enumerate(exact.scores) if s == best]
        words = Score(best, Band.EXACT).words(pos)
        cols = " ".join(names)
        if room and len(f"best {cols} · {words}") > room:
            playable = sum(s is not None for s in exact.scores)
            cols = "any" if len(names) == playable else "".join(names)
        t = Text(f"best {cols} · ", style="dim")
        t.append(words, style="bold")
        return t

    def _search_lines(self, t: Text, pos: Position, snap: Snapshot) -> None:
        pov = snap.score
        if snap.preparing:
            t.append("preparing the tables…", style="italic")
            return
        if pov is None or snap.best_move is None:
            t.append(f"{snap.state.label}, depth {snap.depth}…", style="italic")
            return
        its = snap.iterations
        depth = its[-1].depth if its else snap.depth
        # an answer without iterations names its source (book, exact), a search its depth
        source = its[-1].source if its else Source.SEARCH
        where = f"d{depth}" if source is Source.SEARCH else str(source)
        # an external engine's final answer names who proved it ("solved", "engine"),
        # not a depth that only says "the whole game" (external_run.ExternalIteration)
        if its and isinstance(its[-1], ExternalIteration) and its[-1].proof:
            where = its[-1].proof
        t.append(f"{where} best {COLUMN_NAMES[snap.best_move]} · ", style="dim")
        if pov.band is Band.HEURISTIC:
            # MILTON's evaluation, not a proof: said as a lean ("ahead"), so that it does
            # not read as a contradiction of an exact draw on the line above
            side = pos.to_move if pov.value > 0 else 1 - pos.to_move
            lean = f"{PLAYER_NAMES[side]} ahead ({pov.value:+d})" if pov.value \
                else "level (0)"
            t.append(lean, style="bold")
        else:
            t.append(pov.words(pos), style="bold")
        if len(snap.lines) > 1:
            self._multipv_lines(t, pos, snap)
            return
        pv = snap.result.pv if snap.result is not None else (its[-1].pv if its else ())
        if pv:
            t.append("\n" + "pv".ljust(LABEL), style="dim")
            self._line(t, tuple(pv), "pv", "dim")

    def _multipv_lines(self, t: Text, pos: Position, snap: Snapshot) -> None:
        """Multi-PV (key ``m``): a row per line, best first: ``2 e   +470 e1 d3 …``. When
        the box has fewer rows than lines (every move at 80x24), the last row holds the
        rest, each move with its value: ``+4 more b 0  g 0  a -9``; none is left out."""
        lines = snap.lines
        room = self._room()
        # the rows under "search": the box's, less to move, exact, search and col
        rows = room - 4 if room else len(lines)
        whole = lines if len(lines) <= rows else lines[:max(0, rows - 1)]
        for i, line in enumerate(whole):
            t.append("\n" + f"{i + 1} {COLUMN_NAMES[line.move]}".ljust(LABEL), style="dim")
            score = line.score
            t.append(score.log(pos.ply).rjust(4), style=score_style(score.sign(), score.band))
            t.append(" ")
            self._line(t, line.pv, f"pv{i + 1}", "dim")
        rest = lines[len(whole):]
        if rest:
            t.append("\n" + f"+{len(rest)} more".ljust(LABEL), style="dim")
            for i, line in enumerate(rest):
                score = line.score
                t.append(f"{'  ' if i else ''}{COLUMN_NAMES[line.move]} ")
                t.append(score.log(pos.ply), style=score_style(score.sign(), score.band))

    def _room(self) -> int:
        """The rows the analysis box gives the panel and the graph (0: not laid out)."""
        parent = self.parent
        return parent.content_size.height if isinstance(parent, Widget) else 0

    def on_resize(self, event: events.Resize) -> None:
        """Another terminal size: the multi-PV rows the box has room for again."""
        self.watch_view(self.view)

    def watch_view(self, view: EngineView) -> None:
        """Multi-PV lines take rows of their own: the panel grows by them (over the
        evaluation graph; the app's style sheet sizes it otherwise)."""
        snap = view.snapshot
        extra = len(snap.lines) - 1 if snap is not None and self.hints else 0
        height = 5 + extra if extra > 0 else None  # None: the style sheet's again
        room = self._room()
        if height is not None and room:  # (the lines beyond it share one row)
            height = min(height, room)
        if height != self._grown:
            self._grown = height
            self.styles.height = height

