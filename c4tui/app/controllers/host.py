"""What the controllers need from the app, and nothing more (no controller imports the
app: the app hands itself over as a :class:`Host`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.screen import Screen


class Host(Protocol):
    """The app as a controller sees it."""

    def say(self, text: str) -> None:
        """A one-line message (replacing the one before)."""

    def error(self, text: str) -> None:
        """A one-line error, with the bell."""

    def warn(self, text: str | None) -> None:
        """A warning (nothing for None or "")."""

    def ask(self, screen: Screen[Any], done: Callable[[Any], None]) -> None:
        """Open a dialog; ``done`` gets its answer (None: cancelled)."""

    def position_changed(self) -> None:
        """The viewed position or the game changed: the engine, the preview, play mode
        and the review follow it, then the panels are drawn."""

    def state_changed(self) -> None:
        """Something the panels show changed (not the viewed position): draw them."""
