"""The evaluation graph: one column per ply of the game."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..styles import EMPTY_STYLE, PLAYER_STYLE

#: Lower blocks: White's bars stand on the floor. Black's bars hang from the ceiling: a
#: reversed lower block of height 8 - k shows k eighths at the top, so the side is plain
#: without colour (NO_COLOR) too.
SPARK = "▁▂▃▄▅▆▇█"
HANG = ("▇", "▆", "▅", "▄", "▃", "▂", "▁", " ")


def bar(v: float) -> tuple[str, str]:
    """Glyph and style of a value in [-1, 1] from White's view."""
    if abs(v) < 1e-9:
        return "─", "#9a9a9a"
    k = min(len(SPARK) - 1, int(abs(v) * (len(SPARK) - 1) + 0.5))
    if v > 0:
        return SPARK[k], PLAYER_STYLE[0]
    return HANG[k], PLAYER_STYLE[1] + " reverse"


class EvalGraph(Widget):
    """The app sets ``values`` (per ply, [-1, 1] from White's view, None: not evaluated
    yet) and ``ply`` (underlined). Taller is more certain: exact results are tall,
    heuristic ones short. ``hidden``: play mode's hints are off."""

    DEFAULT_CSS = """
    EvalGraph {
        text-wrap: nowrap;
        text-overflow: clip;
    }
    """

    values: reactive[tuple[float | None, ...]] = reactive(tuple)
    ply: reactive[int] = reactive(0)
    hidden: reactive[bool] = reactive(False)

    def render(self) -> Text:
        width = max(1, self.size.width)
        vals = self.values
        # show the plies around the viewed one when the game is longer than the widget
        start = 0 if len(vals) <= width else max(0, min(self.ply - width // 2,
                                                         len(vals) - width))
        out = Text(no_wrap=True, overflow="crop")
        if self.hidden:
            return out.append("evaluations hidden", style="dim")
        for i, v in enumerate(vals[start : start + width], start=start):
            ch, style = ("·", EMPTY_STYLE) if v is None else bar(v)
            if i == self.ply:
                style += " underline"
            out.append(ch, style=style)
        if not vals:
            out.append("no evaluations yet", style="dim")
        return out
