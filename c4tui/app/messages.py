"""Messages the panels send up to the main screen (render.py sets their reactive
attributes down), and the engine's threads post to the app."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from .bridge.player import Reply


@dataclass
class ColumnChosen(Message):
    """A click on a board column (0-based), or enter on the cursor's: play it."""

    col: int


@dataclass
class EngineMoved(Message):
    """Play mode: the engine has found its move (posted from its thread)."""

    reply: Reply


class EngineUpdated(Message):
    """The engine has new results (exact values, a review's, the search's progress): draw
    them. Posted from the workers' threads (``post_message`` is thread-safe) and by the
    engine ticker; several waiting in the queue are drawn once (:meth:`can_replace`)."""

    def can_replace(self, message: Message) -> bool:
        """A newer update replaces a waiting one: each draws the state as it is then."""
        return isinstance(message, EngineUpdated)


@dataclass
class PlyClicked(Message):
    """A click on a ply of the current line (the evaluation graph): view that ply."""

    ply: int


@dataclass
class NodeClicked(Message):
    """A click on a move (or ``start``) in the move list, also inside a variation: view
    it. ``path``: the move's child indices from the start of the game tree."""

    path: tuple[int, ...]


@dataclass
class CursorMoved(Message):
    """The board's cursor column changed (keys or the mouse): its line is shown."""

    col: int


@dataclass
class PreviewRequested(Message):
    """The mouse is on a move of a line (a PV, a search path) from the viewed position:
    show the position after its first ``upto`` moves with ghost discs."""

    line: tuple[int, ...]
    upto: int
    source: str  #: what the line is, for the board's title: ``pv``, ``col e``, ``path``
    pin: bool = False  #: a click: the preview stays when the mouse leaves


class PreviewEnded(Message):
    """The mouse has left the line it was previewing."""
