"""The Textual analysis workstation (``c4tui`` with no command); see docs/architecture.md.

``C4App`` and ``SearchSettings`` load on first use, so that the command line can use the
app's plain-text helpers (``c4tui.app.log_rows``) without importing Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .main import C4App
    from .settings import SearchSettings

__all__ = ["C4App", "SearchSettings"]


def __getattr__(name: str):
    if name == "C4App":
        from .main import C4App

        return C4App
    if name == "SearchSettings":
        from .settings import SearchSettings

        return SearchSettings
    raise AttributeError(f"module 'c4tui.app' has no attribute {name!r}")
