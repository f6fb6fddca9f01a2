"""The status line: the engine's state, the search's progress, the settings."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.seam import SearchState

from ..engine_view import EngineState, EngineView
from ..settings import SearchSettings
from ..text import human_count, human_time

STATE_STYLE = {
    SearchState.SEARCHING: "bold green",
    SearchState.PAUSED: "bold yellow",
    SearchState.NODE_LIMIT: "bold magenta",
    EngineState.COMPILING: "bold yellow",
    EngineState.LOADING: "bold yellow",
    EngineState.NOT_AVAILABLE: "dim",
    EngineState.FAILED: "bold red",
}


class StatusLine(Widget):
    """The app sets ``view``; the most important things come first (80 columns)."""

    DEFAULT_CSS = """
    StatusLine {
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    view: reactive[EngineView] = reactive(
        lambda: EngineView(EngineState.LOADING, SearchSettings()))

    def render(self) -> Text:
        view = self.view
        t = Text(no_wrap=True, overflow="ellipsis")
        snap = view.snapshot
        key: SearchState | EngineState = view.state
        label = view.state.value
        if view.state is EngineState.READY:
            key = snap.state if snap is not None else SearchState.IDLE
            label = key.label
            if snap is not None and snap.preparing:
                label = "preparing tables"
        style = STATE_STYLE.get(key, "bold")
        t.append(" ● ", style=style)
        t.append(label, style=style)
        if snap is not None:
            res = snap.result
            last = snap.iterations[-1] if snap.iterations else None
            if res is not None and res.nodes == 0 and last is not None:
                t.append("  a win at once: no search needed")
            elif res is not None and last is not None and last.from_book:
                t.append(f"  from the books ({human_time(snap.elapsed)})")
            else:
                # paused: the exact count, so that a step of N nodes shows
                nodes = f"{snap.nodes:,}" if snap.state is SearchState.PAUSED \
                    else human_count(snap.nodes)
                t.append(f"  d{snap.depth}  {nodes} nodes  {human_time(snap.elapsed)}")
                if snap.state is SearchState.SEARCHING:  # the speed, while there is one
                    t.append(f"  {human_count(snap.nps)}/s")
        s = view.settings
        t.append(f"  │ limit {human_count(s.node_limit)} hash {s.hash_mb}M"
                 f" auto {'on' if s.auto else 'off'}", style="dim")
        if view.message and view.state is not EngineState.FAILED:
            t.append(f"  │ {view.message}", style="dim")
        return t
