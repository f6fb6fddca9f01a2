"""The status line: the engine's state, the search's progress, the settings.

With an external engine (``--engine``) it also names the engine, shows its ``seldepth``,
and puts what went wrong with it first (one line: the app goes on without it).
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.seam import SearchState, Source

from ...report.text import human_count, human_time
from ..bridge.engine_view import EngineState, EngineView
from ..bridge.settings import SearchSettings

STATE_STYLE = {
    SearchState.SEARCHING: "bold green",
    SearchState.PAUSED: "bold yellow",
    SearchState.NODE_LIMIT: "bold magenta",
    EngineState.COMPILING: "bold yellow",
    EngineState.LOADING: "bold yellow",
    EngineState.NOT_AVAILABLE: "dim",
    EngineState.FAILED: "bold red",
}


#: Seconds without a word from an external engine's running search after which the
#: status line says "silent" rather than "searching".
SILENT = 2.0
#: The leanest form of the line (StatusLine._line): 1 no speed (the log's n/s has it),
#: 2 no "auto on" (the default; "auto off" stays), 3 no engine message nor the books'
#: time, 4 no hash size, 5 single spaces, 6 no "accuracy" word. At 80 columns a search
#: without books after a review needed 88 cells at 0 (2026-12-05, `c4tui --no-book
#: --nodes 200M 4444`, R).
LEANEST = 6


class StatusLine(Widget):
    """The app sets ``view``, in play mode ``play`` (whose move, the engine thinking, the
    result: said first), and ``review`` (the game review's progress, "" when none runs);
    the most important things come first (80 columns)."""

    DEFAULT_CSS = """
    StatusLine {
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    view: reactive[EngineView] = reactive(
        lambda: EngineView(EngineState.LOADING, SearchSettings()))
    play: reactive[str] = reactive("")
    review: reactive[str] = reactive("")

    def render(self) -> Text:
        """The line in its fullest form that fits the width; failing all, the leanest one,
        cut with an ellipsis."""
        width = self.size.width
        for lean in range(LEANEST + 1):
            line = self._line(lean)
            if not width or line.cell_len <= width:
                return line
        return line

    def _line(self, lean: int) -> Text:
        """The line at ``lean`` (0: everything; each step drops what is least missed or
        said elsewhere, :data:`LEANEST` steps in all)."""
        view = self.view
        sep = " " if lean >= 5 else "  "
        t = Text(no_wrap=True, overflow="ellipsis")
        if self.play:
            t.append(f" ▶ {self.play} ", style="bold reverse")
        snap = view.snapshot
        ext = view.external
        if ext is not None and ext.failed:  # the most important thing, alone
            t.append(f" ● {ext.message}", style="bold red")
            return self._settings(t, view, lean)
        if ext is not None and not ext.ready:  # the handshake: nothing to count yet
            t.append(f" ● starting {ext.name}", style="bold yellow")
            if ext.message:
                t.append(f": {ext.message}", style="yellow")
            return self._settings(t, view, lean)
        key: SearchState | EngineState = view.state
        label = view.state.value
        if view.state is EngineState.READY:
            key = snap.state if snap is not None else SearchState.IDLE
            label = key.label
            if snap is not None and snap.preparing:
                label = "preparing tables"
        elif view.state is EngineState.COMPILING and view.message:
            # the compile's progress is the news: first, where 80 columns show it all
            # ("first start: compiling the engine: 3/9 kernels, 21 s, about 40 s left")
            label = view.message
        # an external engine silent for a while may be searching, or waiting for "stop"
        # after a book answer (UCI's go infinite): the status says only what is known
        silent = ext is not None and key is SearchState.SEARCHING and view.silent >= SILENT
        if silent:
            label = f"engine silent {human_time(view.silent)}"
        style = "bold yellow" if silent else STATE_STYLE.get(key, "bold")
        t.append(" ● ", style=style)
        t.append(label, style=style)
        if self.play:  # the game's state needs the room; the search's details are hints
            return self._settings(t, view, lean)
        if not view.settings.options.use_book and ext is None:  # said early: it changes the search
            t.append(f"{sep}no book", style="bold")
        if self.review:  # lean: "accuracy White 87% Black 62%" without its first word
            review = self.review.removeprefix("accuracy ") if lean >= 6 else self.review
            t.append(f"{sep}{review}", style="bold cyan")
        if snap is not None:
            res = snap.result
            last = snap.iterations[-1] if snap.iterations else None
            source = last.source if res is not None and last is not None else None
            if source is Source.BOOK:
                took = f" ({human_time(snap.elapsed)})" if lean < 3 else ""
                t.append(f"{sep}from the books{took}")
            elif source is Source.EXACT:  # the only two exact answers without a search
                lost = res is not None and res.score.value < 0
                t.append(f"{sep}{'every move loses' if lost else 'a win'} at once: "
                         "no search needed")
            else:
                # paused: the exact count, so that a step of N nodes shows
                nodes = f"{snap.nodes:,}" if snap.state is SearchState.PAUSED \
                    else human_count(snap.nodes)
                # an external engine: the last depth it reported, and its seldepth
                seldepth = getattr(last, "seldepth", 0) if ext is not None else 0
                depth = f"d{last.depth}/{seldepth}" if last is not None and seldepth \
                    else f"d{snap.depth}"
                t.append(f"{sep}{depth}{sep}{nodes} nodes{sep}{human_time(snap.elapsed)}")
                # the speed, while there is one (lean: the log's n/s says it)
                if snap.state is SearchState.SEARCHING and not silent and lean < 1:
                    t.append(f"{sep}{human_count(snap.nps)}/s")
        if ext is not None:
            t.append(f"{sep}│ {ext.name}", style="bold")
            if ext.message:
                t.append(f": {ext.message}", style="yellow")
        return self._settings(t, view, lean)

    def _settings(self, t: Text, view: EngineView, lean: int) -> Text:
        """The analysis search's settings (not in play mode: the play part needs the room,
        and they are not the opponent's) and the engine's message; ``lean`` as in
        :meth:`_line` (2: auto-analysis only when off; 3: no message; 4: no hash size)."""
        s = view.settings
        sep = " " if lean >= 5 else "  "
        if self.play:
            if view.message and view.state not in (EngineState.FAILED, EngineState.COMPILING):
                t.append(f"{sep}│ {view.message}", style="dim")
            return t
        nodes = s.search_limits(view.external is not None).nodes
        limit = "∞" if nodes is None else human_count(nodes)
        auto = "" if s.auto and lean >= 2 else f" auto {'on' if s.auto else 'off'}"
        size = f" hash {s.options.hash_mb}M" if lean < 4 else ""
        t.append(f"{sep}│ limit {limit}{size}{auto}", style="dim")
        if view.message and view.state not in (EngineState.FAILED, EngineState.COMPILING) \
                and lean < 3:
            t.append(f"{sep}│ {view.message}", style="dim")
        return t
