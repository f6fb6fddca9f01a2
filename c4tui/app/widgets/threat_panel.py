"""The threat panel: both players' threats and MILTON's threat-fill verdict."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.position import Position
from c4tui.engine.seam import ThreatVerdict

from ..engine_view import EngineState
from ..styles import PLAYER_STYLE, THREAT_MARK
from ..text import game_over_text, milton_verdict, threat_summary


class ThreatPanel(Widget):
    """The app sets ``position``, ``verdict`` (None: not evaluated) and ``engine``."""

    position: reactive[Position] = reactive(Position)
    verdict: reactive[ThreatVerdict | None] = reactive(None)
    engine: reactive[EngineState] = reactive(EngineState.LOADING)

    def render(self) -> Text:
        pos = self.position
        # wraps: a long verdict takes two lines, never cut; it comes first, so that long
        # threat lists (which wrap too) push the legend out of the 80x24 panel, not it
        text = Text()
        text.append("no new threats → ", style="bold")
        over = game_over_text(pos)
        if over:
            text.append(over)
        elif self.verdict is not None:
            text.append(milton_verdict(pos, self.verdict))
        elif self.engine.waiting:
            text.append(f"waiting for the engine ({self.engine.value})")
        elif self.engine is EngineState.NOT_AVAILABLE:
            text.append("needs the engine (off: --no-engine)")
        else:
            text.append("needs the engine (not available)")
        for i, line in enumerate(threat_summary(pos)):
            name, _, rest = line.partition(": ")
            text.append(f"\n{THREAT_MARK[i]}{name} ", style=PLAYER_STYLE[i])
            text.append(rest)
        text.append("\no odd e even CAPS acute x both", style="dim")
        return text
