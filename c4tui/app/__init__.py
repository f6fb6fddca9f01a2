"""The Textual analysis workstation (``c4tui`` with no command); see docs/architecture.md."""

from __future__ import annotations

from .main import C4App
from .settings import SearchSettings

__all__ = ["C4App", "SearchSettings"]
