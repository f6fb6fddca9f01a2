"""The search path of a paused search: the move and window at each ply from the root."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.geometry import WIDTH
from c4tui.engine.position import Position
from c4tui.engine.seam import PathEntry

from ..text import bound_text, square


class SearchPath(Widget):
    """The app sets ``position`` and ``path``; it shows only while the path is known."""

    DEFAULT_CSS = """
    SearchPath {
        text-wrap: nowrap;
        text-overflow: clip;
    }
    """

    position: reactive[Position] = reactive(Position)
    path: reactive[tuple[PathEntry, ...]] = reactive(tuple)

    def watch_path(self, path: tuple[PathEntry, ...]) -> None:
        self.display = bool(path)

    @property
    def row_count(self) -> int:
        return len(self.path)

    def render(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        out.append(f"{'ply':>3} {'move':<6} {'alpha':>6} {'beta':>6} {'idx':>3}", style="bold")
        p = self.position.copy()
        rows = []
        for e in self.path:
            move = "·"
            if 0 <= e.move < WIDTH and p.can_play(e.move) and not p.is_over:
                move = square(e.move, p.height(e.move))
                p.play(e.move)
            elif e.move < 0:
                move = "(here)"
            rows.append(f"{e.ply:>3} {move:<6} {bound_text(e.alpha):>6} "
                        f"{bound_text(e.beta):>6} {e.index:>3}")
        for line in rows[-max(1, self.size.height - 1):]:
            out.append("\n" + line)
        return out
