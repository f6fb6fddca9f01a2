"""Previews: a line's positions on the board as ghost discs, without changing the game.

A preview is a line of moves from the viewed position and how many of them are shown.
The mouse on a move of a line (the analysis panel's PV and cursor-column line, the search
path's rows) previews up to that move while it stays there; ``v`` previews the cursor
column's line and ``z`` the paused search's path until escape; ``,`` and ``.`` step
through the line. Any change of the viewed position ends a preview.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from c4tui.engine.geometry import COLUMN_NAMES
from c4tui.engine.position import Position

from .engine_view import EngineState
from .messages import CursorMoved, PreviewEnded, PreviewRequested
from .text import move_name
from .widgets import AnalysisPanel, BoardView
from .widgets.search_path import path_moves

if TYPE_CHECKING:
    from .main import C4App

    _Base = C4App
else:
    _Base = object


@dataclass(frozen=True)
class Preview:
    """The first ``shown`` moves of ``line`` (from the viewed position) are on the board."""

    line: tuple[int, ...]
    shown: int
    source: str  #: ``col e``, ``pv``, ``path``
    hover: bool = False  #: the mouse's: it ends when the mouse leaves the line
    start: Position | None = None  #: the viewed position it starts from (set when shown)

    def step(self, delta: int) -> Preview:
        """One move further (or back), within the line; the keys' from now on."""
        return replace(self, shown=max(1, min(len(self.line), self.shown + delta)),
                       hover=False)

    @property
    def moves(self) -> tuple[int, ...]:
        return self.line[: self.shown]

    def title(self, width: int = 0) -> str:
        """The board's subtitle: what is previewed, to which move (numbered as the move
        list numbers it), and the keys if they fit in ``width`` (0: not known yet)."""
        what = f"preview {self.source}"
        if self.start is not None:
            p = self.start.copy()
            for col in self.moves:
                p.play(col)
            what += f": {move_name(p, p.ply - 1)}"
        full = f"{what}  , . esc"
        return full if len(full) <= width else what


class PreviewActions(_Base):
    """Mixed into :class:`C4App`: ``preview`` is None or the :class:`Preview` shown."""

    preview: Preview | None = None

    def set_preview(self, preview: Preview | None) -> None:
        """Show ``preview`` (None: none) on the board and in the analysis panel."""
        if preview is not None and not preview.line:
            preview = None
        if preview is not None and not getattr(self, "hints", True):
            # the lines are the engine's answers: play mode's hidden hints hide them too
            self.error("preview: the hints are hidden (h shows them)")
            preview = None
        if preview is not None and preview.start is None:
            preview = replace(preview, start=self.position.copy())
        self.preview = preview
        self.show_preview()

    def show_preview(self) -> None:
        p = self.preview
        board = self._main(BoardView)
        board.preview = p.moves if p is not None else ()
        # (the border's corners and the spaces around the subtitle take 6 cells)
        board.border_subtitle = p.title(board.size.width - 6) if p is not None else ""
        self._main(AnalysisPanel).highlight = (p.source, p.shown) if p is not None else None

    def action_preview_line(self) -> None:
        """``v``: preview the cursor column's line, from its first move."""
        col = self._main(BoardView).cursor
        name = COLUMN_NAMES[col]
        pos = self.position
        view = self.bridge.view(pos)
        line = view.line(col)
        if line:
            self.set_preview(Preview(line, 1, f"col {name}"))
        elif pos.is_over:
            self.error("preview: the game is over")
        elif not pos.can_play(col):
            self.error(f"preview: column {name} is full")
        elif view.value(col) is None and not view.state.waiting \
                and view.state is not EngineState.READY:
            self.error(f"preview: {self.bridge.why_no_engine()}")
        elif view.value(col) is None:
            self.error(f"preview: column {name} has no value yet")
        else:
            self.error(f"preview: column {name}'s line is still being found")

    def action_preview_path(self) -> None:
        """``z``: preview the paused search's path, at the node where it paused."""
        moves = path_moves(self.position, self.bridge.view(self.position).path)
        if not moves:
            self.error("preview: no search path (pause a search first: space, or n)")
            return
        self.set_preview(Preview(moves, len(moves), "path"))

    def action_preview_step(self, delta: int) -> None:
        """``,`` ``.``: one move back or forward in the previewed line (without a preview,
        ``.`` starts the cursor column's)."""
        if self.preview is None:
            if delta > 0:
                self.action_preview_line()
            else:
                self.error("preview: nothing previewed (v previews the cursor column's line)")
            return
        self.set_preview(self.preview.step(delta))

    def action_preview_end(self) -> None:
        """escape: the game's position again."""
        if self.preview is not None:
            self.set_preview(None)

    # handlers by name: ``@on`` is not collected from a mixin that is not a widget
    def on_cursor_moved(self, event: CursorMoved) -> None:
        self._main(AnalysisPanel).cursor = event.col  # its line, at once

    def on_preview_requested(self, event: PreviewRequested) -> None:
        self.set_preview(Preview(event.line, event.upto, event.source, hover=not event.pin))

    def on_preview_ended(self, event: PreviewEnded) -> None:
        if self.preview is not None and self.preview.hover:
            self.set_preview(None)
