"""The Textual analysis workstation (``c4tui`` with no command); see docs/architecture.md.

Textual code lives here (``main``, ``render``, ``controllers/``, ``screens/``,
``widgets/``); the Textual-free engine plumbing is in ``bridge/`` and the session in
``session/``. ``C4App`` and ``SearchSettings`` load on first use, so that the command line
can import ``c4tui.app.bridge`` and ``c4tui.app.session`` without importing Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .bridge.settings import SearchSettings
    from .main import C4App

__all__ = ["C4App", "SearchSettings"]


def __getattr__(name: str):
    if name == "C4App":
        from .main import C4App

        return C4App
    if name == "SearchSettings":
        from .bridge.settings import SearchSettings

        return SearchSettings
    raise AttributeError(f"module 'c4tui.app' has no attribute {name!r}")
