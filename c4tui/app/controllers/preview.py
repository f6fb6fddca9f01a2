"""Previews: a line's positions on the board as ghost discs, without changing the game.

A preview is a line of moves from the viewed position and how many of them are shown.
The mouse on a move of a line (the analysis panel's PV and cursor-column line, the search
path's rows) previews up to that move while it stays there; ``v`` previews the cursor
column's line and ``z`` the paused search's path until escape; ``,`` and ``.`` step
through the line. Any change of the viewed position ends a preview.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from c4tui.engine.board.geometry import COLUMN_NAMES
from c4tui.engine.board.position import Position

from ...report.text import move_name
from ..bridge.engine_bridge import BridgeLike
from ..bridge.engine_view import EngineState
from ..session.model import GameModel
from ..widgets.search_path import path_moves
from .host import Host


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


def _playable(start: Position | None, line: tuple[int, ...]) -> bool:
    """Every move of ``line`` can be played in turn from ``start``."""
    if start is None:
        return False
    p = start.copy()
    for col in line:
        if p.is_over or not p.can_play(col):
            return False
        p.play(col)
    return True


class PreviewControl:
    """``current`` is None or the :class:`Preview` shown; ``draw`` shows one on the
    board and in the analysis panel (nothing else changes: a hover is cheap)."""

    def __init__(self, model: GameModel, bridge: BridgeLike, host: Host,
                 hints: Callable[[], bool], draw: Callable[[Preview | None], None]) -> None:
        self.model, self.bridge, self.host = model, bridge, host
        self._hints = hints
        self._draw = draw
        self.current: Preview | None = None

    def set(self, preview: Preview | None) -> None:
        """Show ``preview`` (None: none)."""
        if preview is not None and not preview.line:
            preview = None
        if preview is not None and not self._hints():
            # the lines are the engine's answers: play mode's hidden hints hide them too
            self.host.error("preview: the hints are hidden (h shows them)")
            preview = None
        if preview is not None and preview.start is None:
            preview = replace(preview, start=self.model.position.copy())
        if preview is not None and not _playable(preview.start, preview.line):
            # a line of an older answer: it is not shown, never raised (the monkey fuzzer)
            self.host.error("preview: that line is not of this position")
            preview = None
        self.current = preview
        self._draw(preview)

    def forget(self) -> None:
        """The viewed position changed: a preview is of the position it started from
        (the caller draws the panels)."""
        self.current = None

    def line(self, col: int) -> None:
        """``v``: preview the cursor column ``col``'s line, from its first move."""
        name = COLUMN_NAMES[col]
        pos = self.model.position
        if pos.is_over:  # before the view: its lines may be of the position before the end
            self.host.error("preview: the game is over")
            return
        view = self.bridge.view(pos)
        line = view.line(col)
        if line:
            self.set(Preview(line, 1, f"col {name}"))
        elif not pos.can_play(col):
            self.host.error(f"preview: column {name} is full")
        elif view.value(col) is None and not view.state.waiting \
                and view.state is not EngineState.READY:
            self.host.error(f"preview: {self.bridge.why_no_engine()}")
        elif view.value(col) is None:
            self.host.error(f"preview: column {name} has no value yet")
        else:
            self.host.error(f"preview: column {name}'s line is still being found")

    def path(self) -> None:
        """``z``: preview the paused search's path, at the node where it paused."""
        pos = self.model.position
        moves = path_moves(pos, self.bridge.view(pos).path)
        if not moves:
            self.host.error("preview: no search path (pause a search first: space, or n)")
            return
        self.set(Preview(moves, len(moves), "path"))

    def step(self, delta: int, col: int) -> None:
        """``,`` ``.``: one move back or forward in the previewed line (without a preview,
        ``.`` starts the cursor column ``col``'s)."""
        if self.current is None:
            if delta > 0:
                self.line(col)
            else:
                self.host.error(
                    "preview: nothing previewed (v previews the cursor column's line)")
            return
        self.set(self.current.step(delta))

    def end(self, hover: bool = False) -> None:
        """escape (``hover``: the mouse left the line, which ends a hover's only): the
        game's position again."""
        if self.current is not None and (self.current.hover or not hover):
            self.set(None)
