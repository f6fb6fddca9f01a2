"""The search path of a paused search: the move and window at each ply from the root.
The mouse on a row previews the position at that ply on the board."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

from c4tui.engine.board.geometry import WIDTH
from c4tui.engine.board.position import Position
from c4tui.engine.seam import PathEntry
from c4tui.gamefile.movetext import move_number

from ...report.text import bound_text
from ..messages import PreviewEnded, PreviewRequested


def path_moves(pos: Position, path: tuple[PathEntry, ...]) -> tuple[int, ...]:
    """The moves from ``pos`` to the node where the search paused."""
    p = pos.copy()
    out: list[int] = []
    for e in path:
        if not (0 <= e.move < WIDTH) or p.is_over or not p.can_play(e.move):
            break
        out.append(e.move)
        p.play(e.move)
    return tuple(out)


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

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._hovered: int | None = None

    @property
    def row_count(self) -> int:
        return len(self.path)

    def _entry_at(self, y: int) -> int | None:
        """The index in ``path`` of the row at ``y`` (rows under the header, the last
        ones when the path is longer than the panel)."""
        y -= self.gutter.top  # the border
        room = max(1, self.size.height - 1)
        first = max(0, len(self.path) - room)
        i = first + y - 1
        return i if y >= 1 and i < len(self.path) else None

    def _preview(self, y: int, pin: bool = False) -> None:
        i = self._entry_at(y)
        if i == self._hovered and not pin:
            return
        self._hovered = i
        if i is None:
            self.post_message(PreviewEnded())
            return
        moves = path_moves(self.position, self.path)
        # the row's move is on the board; "(here)", where the search paused, is all of it
        upto = min(len(moves), i + 1)
        self.post_message(PreviewRequested(moves, upto, "path", pin=pin))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._preview(event.y)

    def on_click(self, event: events.Click) -> None:
        """A click keeps the preview after the mouse leaves (escape ends it)."""
        self._preview(event.y, pin=True)

    def on_leave(self, event: events.Leave) -> None:
        if self._hovered is not None:
            self._hovered = None
            self.post_message(PreviewEnded())

    def render(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        # the moves numbered as the move list numbers them; idx: the move's place in the
        # node's move ordering (none at the node where the search paused)
        out.append(f"{'move':<9} {'alpha':>6} {'beta':>6} {'idx':>3}", style="bold")
        p = self.position.copy()
        rows = []
        for e in self.path:
            number = move_number(p.ply, compact=True)
            move, index = f"{number} ·", f"{e.index:>3}"
            if 0 <= e.move < WIDTH and p.can_play(e.move) and not p.is_over:
                move = f"{number} {p.landing_square(e.move)}"
                p.play(e.move)
            elif e.move < 0:
                move, index = "(here)", ""
            rows.append(f"{move:<9} {bound_text(e.alpha):>6} {bound_text(e.beta):>6} "
                        f"{index:>3}")
        for line in rows[-max(1, self.size.height - 1):]:
            out.append("\n" + line)
        return out
