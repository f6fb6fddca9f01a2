"""The analysis panel: whose turn, the exact verdict, the search's verdict and its PV."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.geometry import COLUMN_NAMES
from c4tui.engine.position import PLAYER_NAMES, Position
from c4tui.engine.seam import Band, Score, Snapshot

from ..engine_view import EngineState, EngineView, ExactStatus
from ..settings import SearchSettings
from ..styles import PLAYER_STYLE
from ..text import game_over_text, pv_text


class AnalysisPanel(Widget):
    """The app sets ``position``, ``view`` and ``hints`` (False: the verdicts are hidden,
    play mode); four lines, each cut at the end, never in the middle of what matters
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

    def render(self) -> Text:
        pos, view = self.position, self.view
        t = Text(no_wrap=True, overflow="ellipsis")
        over = game_over_text(pos)
        if over:
            t.append("result  ", style="dim")
            t.append(over, style="bold")
        else:
            t.append("to move ", style="dim")
            t.append(PLAYER_NAMES[pos.to_move], style=PLAYER_STYLE[pos.to_move])
        t.append(f"  ply {pos.ply}\n", style="dim")
        if not self.hints:
            t.append("exact   hidden (h shows the hints)\nsearch  hidden", style="dim")
            return t
        t.append("exact   ", style="dim")
        t.append_text(self._exact_line(pos, view) if not over else Text("-"))
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
            t.append_text(self._search_lines(pos, snap))
        return t

    @staticmethod
    def _exact_line(pos: Position, view: EngineView) -> Text:
        exact = view.exact
        if exact is None:
            return Text(view.unavailable("solver"), style="dim")
        if exact.status is ExactStatus.SOLVING:
            return Text("solving…", style="italic")
        if exact.status is not ExactStatus.DONE or exact.best is None:
            return Text(f"{exact.status.value}: {exact.message}", style="dim")
        best = exact.best
        cols = " ".join(COLUMN_NAMES[i] for i, s in enumerate(exact.scores) if s == best)
        t = Text(f"best {cols} · ", style="dim")
        t.append(Score(best, Band.EXACT).words(pos), style="bold")
        return t

    @staticmethod
    def _search_lines(pos: Position, snap: Snapshot) -> Text:
        t = Text()
        pov = snap.pov
        if snap.preparing:
            t.append("preparing the tables…", style="italic")
            return t
        if pov is None or snap.best_move is None:
            t.append(f"{snap.state.label}, depth {snap.depth}…", style="italic")
            return t
        its = snap.iterations
        depth = its[-1].depth if its else snap.depth
        where = "books" if its and its[-1].from_book else f"d{depth}"
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
        pv = snap.result.pv if snap.result is not None else (its[-1].pv if its else ())
        line = pv_text(pos, pv)
        if line:
            t.append(f"\npv      {line}", style="dim")
        return t
