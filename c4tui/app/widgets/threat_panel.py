"""The threat panel: both players' threats and MILTON's threat-fill verdict, labelled as
the heuristic it is (and answered by the exact value when that says otherwise)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.position import Position
from c4tui.engine.seam import Score, ThreatVerdict

from ..engine_view import EngineState
from ..styles import PLAYER_STYLE, THREAT_MARK
from ..text import game_over_text, milton_verdict, threat_summary, verdict_against

#: What the verdict is: MILTON's threat fill, who wins if no new threats appear.
VERDICT_LABEL = "heuristic, no new threats → "


class ThreatPanel(Widget):
    """The app sets ``position``, ``verdict`` (None: not evaluated), ``exact`` (the
    position's proven value, None: not known) and ``engine``."""

    position: reactive[Position] = reactive(Position)
    verdict: reactive[ThreatVerdict | None] = reactive(None)
    exact: reactive[Score | None] = reactive(None)
    engine: reactive[EngineState] = reactive(EngineState.LOADING)

    def render(self) -> Text:
        pos = self.position
        # wraps: a long verdict takes two lines, never cut; it comes first, so that long
        # threat lists (which wrap too) push the legend out of the 80x24 panel, not it
        text = Text()
        over = game_over_text(pos)
        text.append("" if over else VERDICT_LABEL, style="bold")
        if over:  # a fact, not the heuristic's
            text.append(over)
        elif self.verdict is not None:
            text.append(milton_verdict(pos, self.verdict))
            against = verdict_against(pos, self.verdict, self.exact)
            if against:
                text.append(f"\n{against}", style="bold")
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
